"""Leases (karnak.server.cluster.leases): one process runs each game's background work.

Store-level checks on both databases: a lease is held by one holder at a time, runs out
unless renewed, is taken over once it has run out; and a bot's or timer's move is written
only while its process holds the game's lease, so a process that lost it plays nothing.
"""

from __future__ import annotations

import time

import pytest
from sqlalchemy import func, select

from karnak.core.registry import get_game
from karnak.server.cluster.leases import LeaseStore, game_lease
from karnak.server.conflicts import LeaseLostError, StaleWriteError
from karnak.server.db import ActionRow, make_engine, migrate
from karnak.server.rooms import Accepted, Room, SeatInfo
from karnak.server.store import GameStore, WriteGuard


def new_room(store: GameStore, leases: LeaseStore, holder: str) -> Room:
    game = get_game("aton")
    seats = [SeatInfo(n, name, "bot", "random", f"{n:064x}") for n, name in enumerate("RB")]
    state = game.new_state([s.name for s in seats], seed=1, options={})
    room = Room(f"lease-{time.monotonic_ns() % 10**9}", game, state, seats, 1)
    store.create(room, lease=(game_lease(room.id), holder, time.time() + 5))
    return room


def first_move(room: Room) -> Accepted:
    seat = room.state.to_move()[0]
    action = room.state.legal_actions(seat)[0]
    return Accepted(len(room.accepted), room.version + 1, seat, action.to_text())


def test_a_lease_has_one_holder_and_is_taken_over_once_run_out(database: str) -> None:
    engine = make_engine(database)
    migrate(engine)
    leases = LeaseStore(engine)
    now = time.time()
    assert leases.acquire_many(["game:x"], "a", now, 5) == {"game:x"}
    assert leases.acquire_many(["game:x"], "b", now + 1, 5) == set()  # a holds it
    assert leases.renew("a", now + 4, 5) == {"game:x"}  # until now + 9
    assert leases.acquire_many(["game:x"], "b", now + 8, 5) == set()
    assert leases.acquire_many(["game:x"], "b", now + 10, 5) == {"game:x"}  # ran out
    assert leases.renew("a", now + 10, 5) == set()  # a finds it lost
    leases.release("b")
    assert leases.acquire_many(["game:x"], "a", now + 10, 5) == {"game:x"}
    engine.dispose()


def test_a_move_needing_a_lost_lease_is_not_written(database: str) -> None:
    engine = make_engine(database)
    migrate(engine)
    store, leases = GameStore(engine), LeaseStore(engine)
    room = new_room(store, leases, "a")
    entry = first_move(room)
    now = time.time()
    # b took the lease over (a was paused past it): a's bot move is refused and not stored
    leases.release("a")
    assert leases.acquire_many([game_lease(room.id)], "b", now, 5)
    lost = WriteGuard(lease=(game_lease(room.id), "a"), now=now)
    with pytest.raises(LeaseLostError):
        store.append(room, entry, None, 1, None, lost)
    # b's is written; a second write at the same version is stale, whoever sends it
    held = WriteGuard(lease=(game_lease(room.id), "b"), now=now)
    store.append(room, entry, None, 1, None, held)
    with pytest.raises(StaleWriteError):
        store.append(room, entry, None, 1, None, held)
    with engine.connect() as connection:
        stored = connection.scalar(
            select(func.count()).select_from(ActionRow).where(ActionRow.game_id == room.id)
        )
    assert stored == 1
    engine.dispose()

"""The server's move path decides each move once: its legality (Room.check), then the
position after it and what it is (Room.prepare), which the write and Room.accept share."""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from karnak.core import Rng, get_game
from karnak.core.state import State
from karnak.server.bot_runner import BotRunner
from karnak.server.db import make_engine, migrate
from karnak.server.rooms import HUMAN, IllegalMoveError, Room, SeatInfo, hash_token
from karnak.server.service import GameService, SeatRequest
from karnak.server.store import GameStore


class Counted:
    """A state seen through a counter: the engine methods the server calls on it, and on
    every copy made of it. The compiled engines take no monkeypatching, so the count is
    kept on this side of the call."""

    def __init__(self, inner: State, calls: Counter[str]):
        self._inner = inner
        self._calls = calls

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._inner, name)
        if name in ("legal_actions", "apply", "apply_unchecked"):
            self._calls[name] += 1
        return found

    def clone(self) -> Counted:
        return Counted(self._inner.clone(), self._calls)


def run_service(database: str, moves: int) -> tuple[Counter[str], int]:
    """``moves`` legal moves submitted through the service; what the engine was asked, and
    how often a move was classified."""
    calls: Counter[str] = Counter()
    classified = 0
    original = Room.classify

    def classify(room: Room, seat: int, after: State) -> tuple[bool, bool]:
        nonlocal classified
        classified += 1
        return original(room, seat, after)

    async def scenario() -> None:
        engine = make_engine(database)
        migrate(engine)
        service = GameService(GameStore(engine), BotRunner(0))
        await service.start()
        room = (await service.create("amunre", [SeatRequest() for _ in range(3)], seed=4)).room
        rng = Rng(2)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(Room, "classify", classify)
            for _ in range(moves):
                seat = room.state.to_move()[0]
                legal = room.state.legal_actions(seat)
                action = legal[rng.below(len(legal))]
                room.state = Counted(room.state, calls)  # type: ignore[assignment]
                await service.submit(room, seat, room.version_for(seat), action)
                if isinstance(room.state, Counted):  # the position after the move
                    room.state = room.state._inner
        await service.stop()
        engine.dispose()

    asyncio.run(scenario())
    return calls, classified


def test_a_move_is_checked_and_classified_once(tmp_path: Path) -> None:
    calls, classified = run_service(f"sqlite:///{tmp_path / 'k.sqlite3'}", moves=6)
    # legal moves listed once per move (by Room.check), never again by a checked apply
    assert calls == Counter({"legal_actions": 6, "apply_unchecked": 6})
    assert classified == 6


def play(room: Room, moves: int, rng: Rng, *, prepared: bool) -> None:
    for _ in range(moves):
        if room.is_over:
            return
        movers = room.state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = room.state.legal_actions(seat)
        action = legal[rng.below(len(legal))]
        if prepared:
            assert room.check(seat, room.version_for(seat), action) is None
            room.accept(seat, action, move=room.prepare(seat, action))
        else:
            room.accept(seat, action)


@pytest.mark.parametrize("name,players", [("egyptia", 3), ("aton", 2), ("amunre", 4)])
def test_a_prepared_move_is_accepted_as_a_plain_one(name: str, players: int) -> None:
    """Private steps, sealed steps and versions come out the same either way."""
    game = get_game(name)
    names = game.seat_names(players)
    seats = [SeatInfo(s, names[s], HUMAN, None, hash_token(f"t{s}")) for s in range(players)]
    rooms = [Room("g", game, game.new_state(names, seed=9), list(seats), 9) for _ in range(2)]
    for room, prepared in zip(rooms, (False, True), strict=True):
        play(room, 120, Rng(5), prepared=prepared)
    plain, fast = rooms
    assert fast.accepted == plain.accepted
    assert (fast.version, fast.step_started, fast.private_total, fast.private_by) == (
        plain.version,
        plain.step_started,
        plain.private_total,
        plain.private_by,
    )
    assert fast.state.to_json() == plain.state.to_json()
    if name == "egyptia":
        assert plain.private_total > 0  # the private steps were exercised


def test_a_prepared_move_must_be_the_one_accepted() -> None:
    game = get_game("aton")
    seats = [SeatInfo(s, n, HUMAN, None, "h") for s, n in enumerate(("R", "B"))]
    room = Room("g", game, game.new_state(["R", "B"], seed=2), seats, 2)
    first, second = room.state.legal_actions(0)[:2]
    move = room.prepare(0, first)
    with pytest.raises(ValueError, match="not the one accepted"):
        room.accept(0, second, move=move)
    assert room.version == 0 and not room.accepted


def test_an_illegal_move_is_still_refused_by_the_check(tmp_path: Path) -> None:
    async def scenario() -> None:
        engine = make_engine(f"sqlite:///{tmp_path / 'k.sqlite3'}")
        migrate(engine)
        service = GameService(GameStore(engine), BotRunner(0))
        await service.start()
        room = (await service.create("amunre", [SeatRequest() for _ in range(3)], seed=4)).room
        seat = room.state.to_move()[0]
        with pytest.raises(IllegalMoveError):
            await service.submit(room, seat, 0, room.game.parse_action("bid THEBES 99"))
        assert room.version == 0 and not room.accepted
        await service.stop()
        engine.dispose()

    asyncio.run(scenario())

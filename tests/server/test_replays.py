"""Replays from snapshots (karnak.server.replays): the same positions as replaying from the
first move, at a cost that does not grow with the square of the game's length."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from karnak.core import Rng, get_game
from karnak.server import replays
from karnak.server.replays import ReplayCache
from karnak.server.rooms import HUMAN, Room, SeatInfo, hash_token


def finished_room(name: str, players: int, seed: int = 3) -> Room:
    game = get_game(name)
    names = game.seat_names(players)
    seats = [SeatInfo(s, names[s], HUMAN, None, hash_token(f"t{s}")) for s in range(players)]
    room = Room("g-" + name, game, game.new_state(names, seed=seed), seats, seed)
    rng = Rng(seed)
    while not room.is_over:
        movers = room.state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = room.state.legal_actions(seat)
        room.accept(seat, legal[rng.below(len(legal))])
    return room


def seen(room: Room) -> dict[str, Any]:
    """Everything of a replayed room that its spectator's view is built from."""
    return {
        "state": room.state.to_json(),
        "version": room.version_for(None),
        "accepted": room.accepted,
        "step": (room.step_started, room.step_private),
        "private": (room.private_total, room.private_by),
        "seats": room.seats,
        "over": room.is_over,
        "timing": (room.turn_timer, room.time_control, room.clocks, room.ended),
    }


@pytest.fixture(scope="module")
def egyptia() -> Room:
    room = finished_room("egyptia", 3)
    assert room.private_total > 0  # private steps, counted per seat: replayed alike
    return room


@pytest.mark.parametrize("order", ["forward", "backward", "shuffled"])
def test_every_step_is_the_position_replayed_from_the_start(egyptia: Room, order: str) -> None:
    steps = list(range(len(egyptia.accepted) + 1))
    if order == "backward":
        steps.reverse()
    elif order == "shuffled":
        rng = Rng(11)
        for i in range(len(steps) - 1, 0, -1):
            j = rng.below(i + 1)
            steps[i], steps[j] = steps[j], steps[i]
    cache = ReplayCache(every=8)
    for step in steps:
        assert seen(cache.room_at(egyptia, step)) == seen(egyptia.replayed(step)), step


@pytest.mark.parametrize("name,players", [("aton", 2), ("amunre", 3)])
def test_other_games_replay_the_same(name: str, players: int) -> None:
    room = finished_room(name, players)
    cache = ReplayCache(every=5)
    for step in [*range(len(room.accepted) + 1), 3, 17, 0, len(room.accepted)]:
        step = min(step, len(room.accepted))
        assert seen(cache.room_at(room, step)) == seen(room.replayed(step)), step


def test_stepping_through_costs_each_move_about_once(egyptia: Room) -> None:
    moves = len(egyptia.accepted)
    cache = ReplayCache(every=16)
    for step in range(moves + 1):
        cache.room_at(egyptia, step)
    assert cache.moves_played == moves  # from the start each time: moves * (moves + 1) / 2
    before = cache.moves_played
    rng = Rng(4)
    asks = 50
    for _ in range(asks):  # jumping about: each answer within 16 moves of a snapshot
        cache.room_at(egyptia, rng.below(moves + 1))
    assert cache.moves_played - before <= asks * 15


def test_memory_is_bounded_and_the_answers_stay_right(egyptia: Room) -> None:
    cache = ReplayCache(most=4, every=4)
    for step in range(0, len(egyptia.accepted) + 1, 3):
        assert seen(cache.room_at(egyptia, step)) == seen(egyptia.replayed(step))
        assert len(cache) <= 4
    cache.forget(egyptia.id)
    assert len(cache) == 0


def test_a_long_game_keeps_its_snapshots_further_apart(
    egyptia: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(replays, "PER_GAME", 8)  # this game's 107 moves count as long
    cache = ReplayCache(every=1)
    assert cache.spacing(egyptia) == -(-len(egyptia.accepted) // 8) > 1
    for step in range(len(egyptia.accepted) + 1):
        assert seen(cache.room_at(egyptia, step)) == seen(egyptia.replayed(step))
    assert len(cache) <= 8 + 1  # and the last position asked


def test_a_running_game_is_not_kept() -> None:
    room = finished_room("aton", 2)
    running = room.replayed(len(room.accepted) - 1)
    assert not running.is_over
    cache = ReplayCache(every=2)
    assert seen(cache.room_at(running, 5)) == seen(running.replayed(5))
    assert len(cache) == 0


def test_the_seats_are_read_as_they_are_now(egyptia: Room) -> None:
    cache = ReplayCache(every=4)
    cache.room_at(egyptia, 10)
    room = dataclasses.replace(egyptia, seats=list(egyptia.seats))
    room.seats[0] = dataclasses.replace(room.seats[0], account=42)  # claimed (tables)
    assert cache.room_at(room, 10).seats[0].account == 42
    assert seen(cache.room_at(room, 10)) == seen(room.replayed(10))


def test_a_snapshot_of_another_game_under_the_same_id_is_not_used() -> None:
    first, second = finished_room("aton", 2, seed=3), finished_room("aton", 2, seed=4)
    cache = ReplayCache(every=4)
    cache.room_at(first, 8)
    assert seen(cache.room_at(second, 9)) == seen(second.replayed(9))


def test_a_step_outside_the_game_is_refused(egyptia: Room) -> None:
    with pytest.raises(ValueError, match="moves 0 to"):
        ReplayCache().room_at(egyptia, len(egyptia.accepted) + 1)

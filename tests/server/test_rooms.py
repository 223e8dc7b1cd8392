"""The room's rules for versions, sealed steps, duplicates and refusals (no I/O)."""

import pytest

from karnak.core import Rng, get_game
from karnak.server.rooms import (
    HUMAN,
    BadVersionError,
    IllegalMoveError,
    NotYourDecisionError,
    Room,
    SeatInfo,
    StaleVersionError,
    hash_token,
)

GAME = get_game("amunre")


def new_room(players: int = 4, seed: int = 1) -> Room:
    names = GAME.seat_names(players)
    seats = [SeatInfo(s, names[s], HUMAN, None, hash_token(f"t{s}")) for s in range(players)]
    return Room("g1", GAME, GAME.new_state(names, seed=seed), seats, seed)


def play_until(room: Room, condition, seed: int = 3) -> None:  # type: ignore[no-untyped-def]
    rng = Rng(seed)
    while not condition(room):
        seat = room.state.to_move()[0]
        actions = room.state.legal_actions(seat)
        room.accept(seat, actions[rng.below(len(actions))])


def test_every_accepted_action_increments_the_version() -> None:
    room = new_room()
    play_until(room, lambda r: r.version == 25)
    assert [entry.version for entry in room.accepted] == list(range(1, 26))
    assert [entry.number for entry in room.accepted] == list(range(25))


def test_a_stale_version_is_refused_and_the_current_one_accepted() -> None:
    room = new_room()
    play_until(room, lambda r: not r.state.is_simultaneous() and r.version > 3)
    seat = room.state.to_move()[0]
    action = room.state.legal_actions(seat)[0]
    with pytest.raises(StaleVersionError):
        room.check(seat, room.version - 1, action)
    assert room.check(seat, room.version, action) is None
    with pytest.raises(BadVersionError):
        room.check(seat, room.version + 1, action)


def test_out_of_turn_and_illegal_moves_are_refused() -> None:
    room = new_room()
    play_until(room, lambda r: not r.state.is_simultaneous() and r.version > 3)
    seat = room.state.to_move()[0]
    other = (seat + 1) % 4
    with pytest.raises(NotYourDecisionError, match="nothing to decide"):
        room.check(other, room.version, room.state.legal_actions(seat)[0])
    with pytest.raises(IllegalMoveError, match="not allowed"):
        room.check(seat, room.version, GAME.parse_action("bid THEBES 99"))


def test_a_repeated_submission_is_recognised_as_done() -> None:
    room = new_room()
    play_until(room, lambda r: not r.state.is_simultaneous() and r.version > 3)
    seat = room.state.to_move()[0]
    seen = room.version
    action = room.state.legal_actions(seat)[0]
    entry = room.accept(seat, action)
    assert room.check(seat, seen, action) == entry  # the same move again: already done
    assert room.version == seen + 1


def test_sealed_commitments_from_the_same_version_are_all_accepted() -> None:
    room = new_room()
    play_until(room, lambda r: r.state.is_simultaneous() and len(r.state.to_move()) == 4)
    seen = room.version
    movers = list(room.state.to_move())
    for seat in movers:
        first, second = room.state.legal_actions(seat)[:2]
        assert room.check(seat, seen, first) is None  # others' commitments change nothing
        entry = room.accept(seat, first)
        assert room.check(seat, seen, first) == entry  # resent: already done
        if seat != movers[-1]:
            with pytest.raises(NotYourDecisionError):
                room.check(seat, seen, second)  # a second, different commitment: refused
    assert room.step_started == room.version  # the reveal began a new step


def test_tokens_identify_seats() -> None:
    room = new_room()
    assert room.seat_for_token("t2") == 2
    assert room.seat_for_token("nope") is None
    assert room.seat_for_token(None) is None


def test_an_exchange_at_a_sealed_step_leaves_the_other_seats_choice_valid() -> None:
    """Aton: while one priest swaps its cards, the other's allocation (chosen at the earlier
    version of the same sealed step) is still accepted."""
    aton = get_game("aton")
    seats = [SeatInfo(i, name, "human", None, f"hash{i}") for i, name in enumerate(("R", "B"))]
    room = Room("g2", aton, aton.new_state(["R", "B"], seed=2), seats, 2)
    seen = room.version
    red_choice = room.state.legal_actions(0)[-1]
    room.accept(1, aton.parse_action("exchange"))
    assert room.check(0, seen, red_choice) is None  # not stale

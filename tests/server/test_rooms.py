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


def test_a_move_chosen_before_the_seats_own_exchange_is_stale() -> None:
    """Aton: a priest who exchanged its cards has a new hand; an allocation it submits with a
    version from before its exchange was chosen for the old hand and is refused as stale
    (and accepted with the version after the exchange)."""
    aton = get_game("aton")
    seats = [SeatInfo(i, name, "human", None, f"hash{i}") for i, name in enumerate(("R", "B"))]
    room = Room("g3", aton, aton.new_state(["R", "B"], seed=2), seats, 2)
    seen = room.version
    room.accept(1, aton.parse_action("exchange"))
    choice = next(a for a in room.state.legal_actions(1) if a.to_text() != "exchange")
    with pytest.raises(StaleVersionError, match="you moved after version 0"):
        room.check(1, seen, choice)
    assert room.check(1, room.version_for(1), choice) is None
    # the other priest's own choice from the same version stays valid
    assert room.check(0, seen, room.state.legal_actions(0)[-1]) is None


def test_an_egyptia_builders_step_makes_its_older_versions_stale() -> None:
    egyptia = get_game("egyptia")
    seats = [SeatInfo(i, f"B{i}", "human", None, f"hash{i}") for i in range(2)]
    room = Room("g4", egyptia, egyptia.new_state(2, seed=4), seats, 4)
    for seat in (0, 1):
        room.accept(seat, room.state.legal_actions(seat)[0])  # columns chosen: the reveal
    seen = room.version_for(0)
    room.accept(0, egyptia.parse_action("ship 1"))
    later = next(a for a in room.state.legal_actions(0) if a.to_text() != "ship 2")
    with pytest.raises(StaleVersionError):
        room.check(0, seen, later)
    assert room.check(0, room.version_for(0), later) is None
    assert room.check(0, seen, egyptia.parse_action("ship 1")) is not None  # a resend: done

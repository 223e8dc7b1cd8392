"""Issue 35: threats that take the other priest two turns to build, and the answer to them.

The heuristic once looked only one turn ahead: a set the other priest could finish in one
turn was answered, one it needed two turns for was not, and by then one turn of the
defender could no longer stop it. Every position here is built by hand from the rules.
"""

from __future__ import annotations

from karnak.core import Rng
from karnak.games.aton.bot import _completion_chance, act, blocking_place
from karnak.games.aton.rules.actions import Place
from karnak.games.aton.rules.state import AtonState
from support.aton_positions import BLUE, RED, lay, position


def temple_one(red: range, blue: tuple[int, ...]) -> dict[tuple[int, int], int]:
    squares = {(1, s): RED for s in red}
    squares.update({(1, s): BLUE for s in blue})
    return squares


def blue_places(state: AtonState) -> list[Place]:
    """Blue's placements of its whole turn, made by the heuristic."""
    placed = []
    while state.phase == "place" and state.to_move() == (BLUE,):
        action = act(state, BLUE, Rng(0))
        assert isinstance(action, Place)
        placed.append(action)
        state.apply(BLUE, action)
    return placed


def test_the_chance_of_completing_a_set_over_two_turns() -> None:
    # 7 held, 3 of the defender's, 2 free: two fresh hands can do it, one cannot
    assert _completion_chance(7, 3, 2, 1, None) > 0.3
    # with 5 of the defender's, no two turns remove them all
    assert _completion_chance(7, 5, 0, 1, None) == 0.0
    # a revealed turn of 1 removal and 2 placements, then one fresh hand
    assert _completion_chance(7, 3, 2, 1, (1, 2)) > 0.5
    assert _completion_chance(7, 4, 1, 1, (1, 2)) == 0.0
    # a set already complete after the revealed turn
    assert _completion_chance(10, 0, 2, 1, (0, 2)) == 1.0


def test_seed_1000_round_3_blue_fills_temple_one() -> None:
    """The position issue 35 reported (Aton, seed 1000, round 3), rebuilt by hand: Red holds
    squares 1.1-1.7 of temple 1, Blue 1.10-1.12, 1.8 and 1.9 are free, and Blue places first
    with three counters that reach temple 1. Red's revealed cards take one of Blue's
    counters off and place two. Left open, Red ends the round on 9 of 12 squares and needs
    one removal and one placement in round 4; the heuristic used to put all three counters
    in temple 2."""
    for red_cards in ((1, 3, 1, 2), (1, 4, 1, 4)):
        state = position(
            round=3, red=red_cards, blue=(1, 2, 3, 3), temples=temple_one(range(1, 8), (10, 11, 12))
        )
        lay(state, red_cards, (1, 2, 3, 3))
        assert state.phase == "place" and state.to_move() == (BLUE,)
        placed = blue_places(state)
        assert placed[0].temple == 1, (red_cards, [p.to_text() for p in placed])
        # after Red's removals to come, Blue keeps more in temple 1 than one turn removes
        removals = red_cards[1] - 2
        assert state.temples[0].count(BLUE) - removals > 2, state.temples[0]


def test_the_whole_round_ends_with_temple_one_still_safe() -> None:
    """Played on by both heuristics to the end of round 3: Red cannot take temple 1 in
    round 4 whatever its hand (more than two of Blue's counters stay there, or no free
    square is left to Red beyond four placements)."""
    red_cards = (1, 3, 1, 2)
    state = position(
        round=3, red=red_cards, blue=(1, 2, 3, 3), temples=temple_one(range(1, 8), (10, 11, 12))
    )
    lay(state, red_cards, (1, 2, 3, 3))
    while state.round == 3 and not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, act(state, seat, Rng(0)))
    assert state.winner is None
    squares = state.temples[0]
    assert squares.count(BLUE) > 2 or 12 - squares.count(RED) > 4, squares


def test_no_block_where_the_threat_is_not_real() -> None:
    """Red holds six squares of temple 1, Blue three, three are free; Red's revealed turn
    places one counter and removes none, so even a perfect round 4 leaves Red short:
    nothing to block, the heuristic plays by the board as before."""
    red_cards = (1, 3, 1, 1)
    state = position(
        round=3, red=red_cards, blue=(1, 2, 3, 3), temples=temple_one(range(1, 7), (10, 11, 12))
    )
    lay(state, red_cards, (1, 2, 3, 3))
    assert state.phase == "place" and state.to_move() == (BLUE,)
    assert blocking_place(state, BLUE) is None


def test_no_block_when_the_set_is_the_seats_own() -> None:
    """Blue holds seven squares of temple 1 itself: nothing of Red's to answer."""
    red_cards = (1, 3, 1, 2)
    state = position(
        round=3,
        red=red_cards,
        blue=(1, 2, 3, 3),
        temples={**{(1, s): BLUE for s in range(1, 8)}, **{(1, s): RED for s in (10, 11, 12)}},
    )
    lay(state, red_cards, (1, 2, 3, 3))
    assert state.phase == "place" and state.to_move() == (BLUE,)
    assert blocking_place(state, BLUE) is None

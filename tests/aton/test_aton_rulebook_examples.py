"""The rule book's worked examples for Aton, each played through the engine."""

from __future__ import annotations

import pytest

from karnak.games.aton import GAME
from karnak.games.aton.rules.actions import Place, Remove
from karnak.games.aton.rules.state import EMPTY
from support.aton_positions import BLUE, RED, counters, lay, position


def test_cartouche_1_a_1_against_a_4_gives_6_points() -> None:
    state = position(round=1, red=(1, 2, 1, 1), blue=(4, 2, 1, 1))
    lay(state, (1, 2, 1, 1), (4, 2, 1, 1))
    assert state.score == [0, 6]


def test_cartouche_2_with_a_4_removes_two_opposing_counters() -> None:
    blue_on_board = {(1, 1): BLUE, (1, 2): BLUE, (2, 1): BLUE, (2, 2): BLUE}
    state = position(red=(1, 4, 2, 1), blue=(1, 2, 1, 1), temples=blue_on_board)
    lay(state, (1, 4, 2, 1), (1, 2, 1, 1))
    # blue played the lower cartouche-2 card and goes first: a 2 removes nothing
    assert state.order == [BLUE, RED]
    assert state.phase == "place" and state.to_move() == (BLUE,)
    state.apply(BLUE, Place(1, 3))
    # red's 4 removes 4 - 2 = 2 of blue's counters, chosen one by one
    assert state.phase == "remove" and state.pending == 2
    state.apply(RED, Remove(2, 1))
    state.apply(RED, Remove(1, 3))
    assert counters(state, BLUE) == 3
    assert state.kingdom == [BLUE, BLUE]


def test_cartouche_2_with_a_2_removes_nothing() -> None:
    red_on_board = {(1, 1): RED, (1, 2): RED}
    state = position(red=(1, 3, 1, 1), blue=(1, 2, 4, 2), temples=red_on_board)
    lay(state, (1, 3, 1, 1), (1, 2, 4, 2))
    assert state.order == [BLUE, RED]
    assert state.phase == "place" and state.to_move() == (BLUE,)  # no removal asked for
    assert counters(state, RED) == 2 and state.kingdom == []


def test_cartouche_2_with_a_1_removes_one_own_counter() -> None:
    red_on_board = {(1, 1): RED, (3, 1): RED, (2, 5): BLUE}
    state = position(red=(2, 1, 2, 1), blue=(2, 2, 1, 1), temples=red_on_board)
    lay(state, (2, 1, 2, 1), (2, 2, 1, 1))
    assert state.order == [RED, BLUE]
    # only red's counter in temples 1-2 is in reach: it goes without a question
    assert state.temples[0][0] == EMPTY and state.temples[2][0] == RED
    assert state.kingdom == [RED]


def test_no_counters_are_removed_in_the_first_round() -> None:
    state = position(round=1, red=(1, 4, 4, 1), blue=(1, 2, 1, 1), temples={(1, 1): BLUE})
    lay(state, (1, 4, 4, 1), (1, 2, 1, 1))
    state.apply(BLUE, Place(1, 2))
    assert state.kingdom == [] and counters(state, BLUE) == 2


def test_cartouche_3_with_a_2_reaches_temples_1_and_2() -> None:
    state = position(red=(1, 1, 2, 1), blue=(1, 2, 1, 1))
    lay(state, (1, 1, 2, 1), (1, 2, 1, 1))
    assert state.to_move() == (RED,) and state.phase == "place"
    temples = {move.temple for move in state.legal_actions(RED)}  # type: ignore[attr-defined]
    assert temples == {1, 2}


def test_the_fourth_counter_goes_to_the_kingdom_of_the_dead() -> None:
    """Peter places 4 counters in temples 1 and 2 with 1 and 2 empty squares there."""
    full = {(1, s): BLUE for s in range(1, 12)} | {(2, s): BLUE for s in range(1, 11)}
    state = position(red=(1, 1, 2, 4), blue=(1, 2, 1, 1), temples=full)
    lay(state, (1, 1, 2, 4), (1, 2, 1, 1))
    # red (the lower cartouche-2 card) goes first; a 1 would remove one of red's own
    # counters, but red has none: then red's three counters fill the three free squares
    assert state.temples[0][11] == RED
    assert state.temples[1][10] == RED and state.temples[1][11] == RED
    assert state.kingdom[0] == RED  # (then blue's one counter finds no square either)
    assert state.stock[RED] == 29 - 4


def test_the_full_scoring_example() -> None:
    """Temple 1 red 3, temple 2 blue 5, temple 3 red 4, temple 4 blue 9, black squares red
    8, bonus squares 4 each (on our reconstructed layout)."""
    board = {
        # temple 1: red 6, blue 3 (red holds both black squares; blue both +1 squares)
        **{(1, s): RED for s in (2, 3, 4, 5, 8, 9)},
        **{(1, s): BLUE for s in (1, 11, 12)},
        # temple 2: blue 4 (with its blue square and the +2 square), red 1
        **{(2, s): BLUE for s in (1, 2, 11, 12)},
        (2, 3): RED,
        # temple 3: red 4 (a black square, the +2 square), blue 2 (its blue square)
        **{(3, s): RED for s in (1, 2, 8, 12)},
        **{(3, s): BLUE for s in (3, 10)},
        # temple 4: blue 3 (its blue square), red 1 (the +2 square)
        **{(4, s): BLUE for s in (1, 2, 11)},
        (4, 12): RED,
    }
    state = position(temples=board)
    lines = {line["rule"]: line["points"] for line in state.scoring_lines()}
    assert lines == {
        "temple 1": [3, 0],
        "temple 2": [0, 5],
        "temple 3": [4, 0],
        "temple 4": [0, 9],
        "black squares": [8, 0],
        "bonus squares": [4, 4],
    }


def test_no_majority_scores_nothing() -> None:
    state = position(temples={(2, 1): RED, (2, 2): BLUE, (1, 8): RED, (3, 8): BLUE})
    lines = {line["rule"]: line["points"] for line in state.scoring_lines()}
    assert lines["temple 2"] == [0, 0] and lines["black squares"] == [0, 0]


@pytest.mark.parametrize("colour", ["yellow", "green"])
def test_every_square_of_a_colour_wins_at_once(colour: str) -> None:
    squares = GAME.board.squares_of(colour)
    board = {(t + 1, s + 1): RED for t, s in squares[1:]}
    last_temple, last_square = squares[0]
    other = GAME.board.squares_of("green" if colour == "yellow" else "yellow")[0]
    board[other[0] + 1, other[1] + 1] = RED  # so that blue does not hold all of the other
    state = position(round=1, red=(1, 1, 4, 1), blue=(1, 2, 1, 1), temples=board)
    # leave red exactly one free square in reach: the missing one of that colour
    for t in range(4):
        for s in range(12):
            if state.temples[t][s] == EMPTY and (t, s) != (last_temple, last_square):
                state.temples[t][s] = BLUE
    lay(state, (1, 1, 4, 1), (1, 2, 1, 1))
    assert state.is_over() and state.winner == RED
    assert state.win_reason == f"every {colour} square"
    assert state.winners() == [RED]

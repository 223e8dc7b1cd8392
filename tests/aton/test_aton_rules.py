"""Aton rules beyond the book's examples: the scoring round, the end, ties, the exchange."""

from __future__ import annotations

from karnak.games.aton import GAME
from karnak.games.aton.rules.actions import Allocate, Exchange, Remove
from karnak.games.aton.rules.state import EMPTY
from support.aton_positions import BLUE, RED, lay, position


def test_a_full_kingdom_brings_a_scoring_after_both_turns_then_four_counters_come_back() -> None:
    board = {
        **{(1, s): RED for s in (1, 2, 3)},
        (2, 1): RED,
        **{(4, s): RED for s in (1, 2)},
        **{(1, s): BLUE for s in (4, 5)},
        (3, 1): BLUE,
    }
    state = position(red=(2, 2, 1, 1), blue=(1, 2, 1, 1), temples=board)
    state.kingdom = [RED, BLUE] * 4  # full
    state.stock = [29 - 6 - 4, 29 - 3 - 4]
    lay(state, (2, 2, 1, 1), (1, 2, 1, 1))
    # cartouche 1: red 2 vs 1 scores 2; blue (equal cartouche 2, lower cartouche 1) goes
    # first; no removals (2s); each places one counter in temple 1 (free squares: the engine
    # asks, so place on the first free squares)
    assert state.score == [2, 0] and state.order == [BLUE, RED]
    state.apply(BLUE, state.legal_actions(BLUE)[0])
    state.apply(RED, state.legal_actions(RED)[0])
    # both turns done and the Kingdom is full: the scoring has run
    lines = {line["rule"]: line["points"] for line in state.last_scoring}
    assert lines["temple 1"] == [1, 0]  # 3 + 1 red counters against 2 + 1 blue
    assert lines["temple 4"] == [0, 0]  # red holds no blue square
    assert state.phase == "cleanup"
    # red leads, so red takes back first, starting with temple 1 (four counters: it chooses)
    assert state.to_move() == (RED,)
    assert {a.temple for a in state.legal_actions(RED)} == {1}  # type: ignore[attr-defined]


def test_cleanup_takes_one_per_temple_or_else_from_the_highest() -> None:
    board = {
        **{(1, s): RED for s in (1, 2)},
        (2, 1): RED,
        **{(4, s): RED for s in (1, 2, 3)},
        (1, 5): BLUE,
    }
    state = position(temples=board)
    state.kingdom = [RED, BLUE, RED, BLUE, RED, BLUE, RED, BLUE]
    state.stock = [29 - 6 - 4, 29 - 1 - 4]
    state._score()  # as after the round in which the Kingdom filled up
    # red leads (temple 1 difference, black squares...), so red goes first: temple 1 has two
    # red counters, so red chooses which
    assert state.phase == "cleanup" and state.to_move() == (RED,)
    state.apply(RED, Remove(1, 2))
    # temple 2: one counter, taken without asking; temple 3: none, so the highest temple with
    # red counters (4) gives one, chosen by red
    assert state.to_move() == (RED,)
    assert {a.temple for a in state.legal_actions(RED)} == {4}  # type: ignore[attr-defined]
    state.apply(RED, Remove(4, 3))
    # temple 4 again: red chooses one of the two left
    state.apply(RED, Remove(4, 2))
    # blue has one counter (temple 1): it comes back without a question; then the Kingdom
    # empties and a new round begins
    assert state.phase == "allocate" and state.round == 3
    assert sum(t.count(RED) for t in state.temples) == 2
    assert sum(t.count(BLUE) for t in state.temples) == 0
    assert state.kingdom == []
    assert state.stock == [29 - 2, 29]


def test_the_game_ends_after_the_scoring_that_reaches_40() -> None:
    state = position(temples={(2, 1): RED})
    state.score = [36, 30]
    state.kingdom = [BLUE] * 8
    state.stock = [28, 21]
    state._score()  # red: temple 2 gives 5 -> 41
    # the game ends with the scoring: nobody is asked to take counters back
    assert state.is_over() and state.winner is None and state.to_move() == ()
    assert state.score == [41, 30] and state.winners() == [RED]


def test_equal_points_after_the_last_scoring_is_a_draw() -> None:
    state = position(temples={(2, 1): RED})
    state.score = [35, 40]
    state.kingdom = [BLUE] * 8
    state.stock = [28, 21]
    state._score()
    assert state.is_over() and state.score == [40, 40]
    assert state.winners() == [RED, BLUE] and state.ranks() == [1, 1]


def test_40_points_at_cartouche_1_win_at_once() -> None:
    state = position(red=(4, 2, 4, 4), blue=(1, 2, 1, 1))
    state.score = [34, 0]
    lay(state, (4, 2, 4, 4), (1, 2, 1, 1))
    assert state.is_over() and state.winner == RED and state.win_reason == "40 points"
    assert all(t.count(RED) == 0 for t in state.temples)  # nothing placed after the win


def test_a_whole_temple_wins_at_once() -> None:
    board = {(2, s): RED for s in range(1, 12)}
    state = position(round=1, red=(1, 1, 2, 1), blue=(1, 2, 1, 1), temples=board)
    for square in range(12):  # temple 1 full (and shared) so red's counter goes to temple 2
        state.temples[0][square] = RED if square < 6 else BLUE
    lay(state, (1, 1, 2, 1), (1, 2, 1, 1))
    assert state.winner == RED and state.win_reason == "every square of temple 2"


def test_a_tie_at_cartouches_2_and_1_is_broken_by_pile_cards_that_go_under_the_pile() -> None:
    state = position(red=(1, 2, 1, 1), blue=(1, 2, 1, 1))
    state.piles[RED][-2:] = [1, 3]  # the top card is the last one
    state.piles[BLUE][-2:] = [4, 3]
    lay(state, (1, 2, 1, 1), (1, 2, 1, 1))
    # first both show a 3 (a tie), then red a 1 against blue's 4: red begins
    assert state.order == [RED, BLUE]
    assert state.piles[RED][:2] == [1, 3] and state.piles[BLUE][:2] == [4, 3]
    shown = [line for line in state.log_lines(None) if "reveals" in line]
    assert len(shown) == 2


def test_the_exchange_is_once_a_game_and_replaces_the_four_cards() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=4)
    old = list(state.hands[RED])
    assert Exchange() in state.legal_actions(RED)
    state.apply(RED, Exchange())
    assert state.exchanged[RED] and len(state.hands[RED]) == 4
    assert state.discards[RED] == old
    assert Exchange() not in state.legal_actions(RED)
    assert all(isinstance(a, Allocate) for a in state.legal_actions(RED))
    obs = state.observation(BLUE)
    assert obs["players"][RED]["exchange_used"] is True  # public; the cards are not
    assert obs["players"][RED]["discards"] == {} and obs["players"][RED]["discards_face_down"] == 4
    other = state.clone()  # other cards given up: blue sees the same
    other.face_down[RED] = other.discards[RED] = [5 - card for card in old]
    assert other.observation(BLUE) == obs


def test_a_full_kingdom_sends_removed_counters_back_to_the_stock() -> None:
    board = {(1, 1): BLUE, (1, 2): BLUE, (1, 3): BLUE}
    state = position(red=(1, 4, 1, 1), blue=(1, 2, 4, 1), temples=board)
    state.kingdom = [RED] * 7
    state.stock = [29 - 7, 29 - 3]
    lay(state, (1, 4, 1, 1), (1, 2, 4, 1))
    # blue (lower cartouche 2) places one counter first, then red removes 2 of the 3+1 blue
    # counters in temple 1: the first fills the Kingdom, the second goes back to blue's stock
    state.apply(BLUE, state.legal_actions(BLUE)[0])
    state.apply(RED, Remove(1, 1))
    state.apply(RED, Remove(1, 2))
    assert state.kingdom == [RED] * 7 + [BLUE]
    assert state.temples[0][0] == EMPTY and state.temples[0][1] == EMPTY

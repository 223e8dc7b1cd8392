"""Aton's tensors (karnak.games.aton.research.tensors): layout's size and ranges over many random
games on the printed board and on a smaller corrected one, non-interference (a world
re-dealt for a seat gives that seat the same tensors and strings; a change the seat can see
changes them), and spot checks of named slices on hand-built positions."""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import Rng
from karnak.core.tensors import TensorLayout
from karnak.games.aton import GAME, Aton
from karnak.games.aton.rules.actions import Allocate, Exchange
from karnak.games.aton.rules.board import default_board, parse_board
from karnak.games.aton.rules.state import AtonState
from support.aton_positions import BLUE, RED, lay, position
from support.hypothesis_settings import deterministic

SEEDS = st.integers(min_value=0, max_value=2**62)
#: The documented range of every part: [0, 1], but the score (points / 40, at most 3).
HIGH = {"score": 3.0}
ONE_HOT = ("seat", "phase")  # exactly one 1
AT_MOST_ONE = ("first", "cleanup_temple", "winner")


def small_board_game() -> Aton:
    """A corrected board: 10 squares a temple, 21 counters, a Kingdom of 6, 30 to win."""
    raw: dict[str, Any] = copy.deepcopy(dict(default_board().raw))
    raw["constants"].update(counters=21, kingdom_squares=6, win_points=30, squares_per_temple=10)
    for temple in raw["temples"]:
        for colour in ("yellow", "green", "black", "blue"):
            temple[colour] = [n for n in temple.get(colour, []) if n <= 8]
        temple["blue"] = [9]
        temple["bonus"] = {"10": 2}
    return GAME.with_board(parse_board(raw, source="test"))


GAMES = {"printed": GAME, "small": small_board_game()}


def positions(game: Aton, seed: int, every: int) -> list[AtonState]:
    """Every ``every``-th position of a random game (the exchange tried now and then)."""
    state = game.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    found = []
    for step in range(3000):
        if step % every == 0 or state.is_over():
            found.append(state.clone())
        if state.is_over():
            return found
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        exchange = [a for a in legal if isinstance(a, Exchange)]
        action = exchange[0] if exchange and rng.below(6) == 0 else legal[rng.below(len(legal))]
        state.apply(seat, action)
    raise AssertionError("no end")


def check_ranges(layout: TensorLayout, vector: np.ndarray[Any, Any]) -> None:
    assert vector.shape == (layout.size,) and vector.dtype == np.float32
    for name, part in layout.named(vector).items():
        assert part.min() >= 0.0, name
        assert part.max() <= HIGH.get(name, 1.0), (name, part.max())
    for name in ONE_HOT:
        assert layout.view(vector, name).sum() == 1.0, name
    for name in AT_MOST_ONE:
        assert layout.view(vector, name).sum() <= 1.0, name
    assert (layout.view(vector, "cartouches").sum(axis=2) <= 1.0).all()
    temples = layout.view(vector, "temples")
    assert (temples.sum(axis=0) <= 1.0).all()  # a square holds one counter at most
    assert (layout.view(vector, "board")[:4].sum(axis=0) <= 1.0).all()


def test_layouts_by_board_and_table() -> None:
    printed = GAME.observation_layout(2)
    assert printed.size == 432 and printed.place("temples").part.shape == (2, 4, 12)
    info = GAME.information_state_layout(2)
    assert [p.part.name for p in info][: len(printed.parts)] == [p.part.name for p in printed]
    assert info.size == printed.size + 12
    small = GAME_SMALL.observation_layout(2)
    assert small.place("board").part.shape == (5, 4, 10)
    with pytest.raises(Exception, match="2"):
        GAME.observation_layout(3)
    with pytest.raises(Exception, match="option"):
        GAME.observation_layout(2, {"expert": True})
    assert "| `temples` | 2 x 4 x 12 |" in printed.to_markdown()


GAME_SMALL = GAMES["small"]


@deterministic(12)
@given(SEEDS, st.sampled_from(sorted(GAMES)))
def test_tensors_have_the_layout_and_stay_in_range(seed: int, board: str) -> None:
    game = GAMES[board]
    observation, information = game.observation_layout(2), game.information_state_layout(2)
    for state in positions(game, seed, every=3):
        for seat in (RED, BLUE):
            seen = state.observation_tensor(seat)
            known = state.information_state_tensor(seat)
            check_ranges(observation, seen)
            check_ranges(information, known)
            assert np.array_equal(known[: observation.size], seen)
            assert state.observation_string(seat)


def tensors(state: AtonState, seat: int) -> tuple[Any, ...]:
    return (
        state.observation_tensor(seat),
        state.information_state_tensor(seat),
        state.observation_string(seat),
        state.information_state_string(seat),
    )


def same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return (
        np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2] and a[3] == b[3]
    )


@deterministic(15)
@given(SEEDS, st.sampled_from(sorted(GAMES)))
def test_non_interference_resampled_worlds_give_the_same_tensors(seed: int, board: str) -> None:
    """Everything hidden from a seat re-dealt (the other hand, both piles' order, the other's
    exchanged cards and sealed cartouches): the seat's tensors and strings do not move."""
    worlds_differ = 0
    for state in positions(GAMES[board], seed, every=5):
        for seat in (RED, BLUE):
            mine = tensors(state, seat)
            for k in range(3):
                world = state.resample(seat, Rng(seed + 31 * k))
                assert same(tensors(world, seat), mine), (seat, state.phase)
                other = 1 - seat
                if world.hands[other] != state.hands[other] or world.alloc != state.alloc:
                    worlds_differ += 1
    assert worlds_differ > 0  # the re-deals really changed what the seat cannot see


def visible_changes(state: AtonState, seat: int) -> list[tuple[str, AtonState]]:
    """Copies of ``state`` that differ in one thing ``seat`` sees."""
    other = 1 - seat
    changes = []
    scored = state.clone()
    scored.score[other] += 1
    changes.append(("the opponent's score", scored))
    board = state.clone()
    board.temples[0][0] = other if board.temples[0][0] != other else seat
    changes.append(("a square of temple 1", board))
    if state.hands[seat]:
        hand = state.clone()
        hand.hands[seat][0] = 1 + hand.hands[seat][0] % 4
        changes.append(("the own hand", hand))
    revealed = state.alloc[other]
    if state.revealed and revealed is not None:
        shown = state.clone()
        laid = list(revealed)
        laid[2] = 1 + laid[2] % 4
        shown.alloc[other] = laid
        changes.append(("the opponent's revealed cartouche 3", shown))
    return changes


@deterministic(10)
@given(SEEDS)
def test_tensors_change_when_something_the_seat_sees_changes(seed: int) -> None:
    for state in positions(GAME, seed, every=7):
        for seat in (RED, BLUE):
            mine = tensors(state, seat)
            for what, changed in visible_changes(state, seat):
                theirs = tensors(changed, seat)
                assert not np.array_equal(theirs[0], mine[0]), what
                assert not np.array_equal(theirs[1], mine[1]), what
                assert theirs[2] != mine[2], what


def test_the_opponents_sealed_cards_and_hand_do_not_show() -> None:
    state = position(red=(1, 2, 3, 4), blue=(4, 4, 4, 4))
    state.apply(BLUE, Allocate((4, 4, 4, 4)))
    before = tensors(state, RED)
    other = state.clone()
    other.alloc[BLUE] = [1, 1, 2, 3]
    other.piles[BLUE].sort()
    assert same(tensors(other, RED), before)
    # but the sealed cartouches are Blue's own to see
    layout = GAME.observation_layout(2)
    mine = layout.view(state.observation_tensor(BLUE), "cartouches")
    assert mine[0].argmax(axis=1).tolist() == [3, 3, 3, 3] and mine[1].sum() == 0
    assert layout.view(state.observation_tensor(RED), "committed").tolist() == [0.0, 1.0]


def test_named_slices_hold_the_position_from_the_viewers_side() -> None:
    board = {(1, 1): RED, (1, 2): RED, (2, 5): BLUE, (4, 12): BLUE}
    state = position(red=(2, 2, 3, 1), blue=(1, 3, 2, 4), temples=board)
    state.score = [12, 44]
    state.kingdom = [RED, BLUE, BLUE]
    layout = GAME.observation_layout(2)
    red, blue = state.observation_tensor(RED), state.observation_tensor(BLUE)

    def view(vector: Any, name: str) -> list[Any]:
        return layout.view(vector, name).tolist()  # type: ignore[no-any-return]

    assert view(red, "seat") == [1, 0] and view(blue, "seat") == [0, 1]
    assert view(red, "phase") == [1, 0, 0, 0, 0]
    assert view(red, "to_move") == [1, 1]
    assert view(red, "round") == [pytest.approx(2 / 32)]
    assert view(red, "score") == [pytest.approx(12 / 40), pytest.approx(44 / 40)]
    assert view(blue, "score") == [pytest.approx(44 / 40), pytest.approx(12 / 40)]
    assert view(red, "stock") == [pytest.approx(27 / 29), pytest.approx(27 / 29)]
    assert view(red, "own_hand") == [0.25, 0.5, 0.25, 0]
    assert view(blue, "own_hand") == [0.25, 0.25, 0.25, 0.25]
    assert view(red, "kingdom") == [pytest.approx(1 / 8), pytest.approx(2 / 8)]
    temples = layout.view(red, "temples")
    assert temples[0, 0, :2].tolist() == [1, 1] and temples[1, 1, 4] == 1 and temples[1, 3, 11]
    assert temples.sum() == 4
    assert layout.view(blue, "temples")[0, 1, 4] == 1  # Blue's counter is its own channel
    colours = layout.view(red, "board")
    assert colours[0, 0, 0] == 1  # temple 1 square 1 is yellow
    assert colours[4, 1, 11] == 1  # temple 2 square 12 is the highest bonus (2)
    assert colours[4, 0, 11] == 0.5  # temple 1 square 12: a bonus of 1

    lay(state, (2, 2, 3, 1), (1, 3, 2, 4))  # Red 2 against 1 on cartouche 1: Red scores 2
    red = state.observation_tensor(RED)
    assert view(red, "revealed") == [1]
    cartouches = layout.view(red, "cartouches")
    assert cartouches[0].argmax(axis=1).tolist() == [1, 1, 2, 0]
    assert cartouches[1].argmax(axis=1).tolist() == [0, 2, 1, 3]
    assert view(red, "first") == [1, 0]  # Red's 2 beats Blue's 3 on cartouche 2
    assert layout.view(red, "score")[0] == pytest.approx(14 / 40)
    text = state.observation_string(RED)
    assert "you are Red" in text and "cartouches 2 2 3 1" in text and "first: Red" in text


def test_information_state_summarises_the_own_exchange_and_the_unseen_cards() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=4)
    handed_in = sorted(state.hands[RED])
    state.apply(RED, Exchange())
    layout = GAME.information_state_layout(2)
    red, blue = state.information_state_tensor(RED), state.information_state_tensor(BLUE)
    counts = [handed_in.count(v) / 4 for v in (1, 2, 3, 4)]
    assert layout.view(red, "own_face_down").tolist() == counts
    assert layout.view(blue, "own_face_down").sum() == 0  # Blue never saw them
    pile = [state.piles[RED].count(v) / 9 for v in (1, 2, 3, 4)]
    assert layout.view(red, "own_pile").tolist() == pytest.approx(pile)
    assert layout.view(blue, "opponent_unseen").tolist() == [1, 1, 1, 1]  # nothing shown yet
    assert layout.view(blue, "discards_face_down")[1] == 1.0  # but four face down, counted


def test_a_scoring_shows_in_last_scoring_and_the_cleanup_temple() -> None:
    board = {
        **{(1, s): RED for s in (1, 2, 3)},
        (2, 1): RED,
        **{(4, s): RED for s in (1, 2)},
        **{(1, s): BLUE for s in (4, 5)},
        (3, 1): BLUE,
    }
    state = position(red=(2, 2, 1, 1), blue=(1, 2, 1, 1), temples=board)
    state.kingdom = [RED, BLUE] * 4  # full: a scoring after both turns
    state.stock = [29 - 6 - 4, 29 - 3 - 4]
    lay(state, (2, 2, 1, 1), (1, 2, 1, 1))
    state.apply(BLUE, state.legal_actions(BLUE)[0])
    state.apply(RED, state.legal_actions(RED)[0])
    assert state.phase == "cleanup" and state.to_move() == (RED,)
    layout = GAME.observation_layout(2)
    red, blue = state.observation_tensor(RED), state.observation_tensor(BLUE)
    lines = [line["points"] for line in state.last_scoring]
    expected = np.array([[p[RED] / 40, p[BLUE] / 40] for p in lines], dtype=np.float32)
    assert np.array_equal(layout.view(red, "last_scoring"), expected)
    assert np.array_equal(layout.view(blue, "last_scoring")[:, ::-1], expected)
    assert layout.view(red, "phase").tolist() == [0, 0, 0, 1, 0]
    assert layout.view(red, "cleanup_temple").tolist() == [1, 0, 0, 0]  # Red picks in temple 1
    assert layout.view(blue, "to_move").tolist() == [0, 1]
    assert "take back from temple 1" in state.observation_string(BLUE)


@deterministic(15)
@given(seed=SEEDS, board=st.sampled_from(sorted(GAMES)))
def test_counted_slices_agree_with_the_cards_and_counters_they_count(seed: int, board: str) -> None:
    """The slices filled from counts (one pass over each pile, not one ``count`` per value)
    hold exactly what counting the state's own lists value by value gives."""
    game = GAMES[board]
    layout = game.information_state_layout(2)
    b = game.board
    squares = len(b.temples[0])
    for state in positions(game, seed, every=5):
        for seat in (RED, BLUE):
            other = 1 - seat
            tensor = state.information_state_tensor(seat)

            def part(name: str, vector: np.ndarray[Any, Any] = tensor) -> list[float]:
                return [float(x) for x in layout.view(vector, name).ravel()]

            def by_value(cards: list[int]) -> list[int]:
                return [cards.count(v) for v in (1, 2, 3, 4)]

            shown = [
                [
                    d - f
                    for d, f in zip(
                        by_value(state.discards[s]), by_value(state.face_down[s]), strict=True
                    )
                ]
                for s in (seat, other)
            ]
            per = float(b.cards_per_value)
            assert part("discards_shown") == pytest.approx([c / per for row in shown for c in row])
            assert part("own_hand") == pytest.approx(
                [c / b.hand_size for c in by_value(state.hands[seat])]
            )
            assert part("own_face_down") == pytest.approx(
                [c / b.hand_size for c in by_value(state.face_down[seat])]
            )
            assert part("own_pile") == pytest.approx([c / per for c in by_value(state.piles[seat])])
            laid = state.alloc[other] if state.revealed else None
            seen = [
                s + (laid.count(v) if laid else 0)
                for s, v in zip(shown[1], (1, 2, 3, 4), strict=True)
            ]
            assert part("opponent_unseen") == pytest.approx([(per - s) / per for s in seen])
            kingdom = [state.kingdom.count(s) / b.kingdom_squares for s in (seat, other)]
            assert part("kingdom") == pytest.approx(kingdom)
            temples = [
                1.0 if state.temples[t][q] == s else 0.0
                for s in (seat, other)
                for t in range(4)
                for q in range(squares)
            ]
            assert part("temples") == temples


def test_a_tensor_is_the_callers_own_copy() -> None:
    """Writing into a returned tensor changes neither the next one nor the board's template."""
    state = GAME.new_state(["Red", "Blue"], seed=9)
    for make in (state.observation_tensor, state.information_state_tensor):
        first = make(RED)
        before = first.copy()
        first[:] = 7.0
        assert np.array_equal(make(RED), before)

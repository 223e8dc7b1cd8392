"""Property tests of the Aton engine over many random games (hypothesis-chosen seeds).

Every test plays whole games with a seeded random policy (a random mover at the sealed step,
a random legal move; the exchange is tried now and then) and checks:

    test_games_end_and_conserve          counters (29 each) and cards (36 each) conserved
                                         after every step, the exchange at most once, the
                                         Kingdom of the Dead within its 8 squares, scores
                                         never falling, every game ending
    test_legal_actions_are_exactly_what_apply_accepts
    test_replay_clone_and_json_round_trips
    test_non_interference                what a seat sees and may do does not change when
                                         everything hidden from it is re-dealt (the other
                                         hand, both piles, the other's sealed cartouches)
    test_determinism

Figures are written out here (not read from the engine) so the oracle stands on its own.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import IllegalActionError, Rng, get_game, replay
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.state import AtonState
from support.hypothesis_settings import deterministic

GAME = get_game("aton")
COUNTERS = 29
CARDS = 36
KINGDOM = 8
MAX_ACTIONS = 3000  # a random game takes about 150 moves
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)


def choose(state: AtonState, rng: Rng) -> tuple[int, Any]:
    movers = state.to_move()
    seat = movers[rng.below(len(movers))]
    legal = state.legal_actions(seat)
    exchange = [a for a in legal if isinstance(a, Exchange)]
    if exchange and rng.below(6) == 0:
        return seat, exchange[0]
    return seat, legal[rng.below(len(legal))]


def play(seed: int, check: Any = None) -> AtonState:
    state = GAME.new_state(["Red", "Blue"], seed=seed % 2**62)
    rng = Rng(seed)
    for step in range(MAX_ACTIONS):
        if state.is_over():
            return state
        seat, action = choose(state, rng)
        if check is not None:
            check(state, step)
        state.apply(seat, action)
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} moves")


def check_invariants(state: AtonState) -> None:
    for seat in range(2):
        on_board = sum(temple.count(seat) for temple in state.temples)
        assert on_board + state.kingdom.count(seat) + state.stock[seat] == COUNTERS
        assert state.stock[seat] >= 0
        cards = state.piles[seat] + state.discards[seat] + state.hands[seat]
        cards = cards + list(state.alloc[seat] or [])
        assert sorted(cards) == sorted([v for v in (1, 2, 3, 4) for _ in range(9)])
        exchanges = sum(1 for s, a in state.history if s == seat and isinstance(a, Exchange))
        assert exchanges <= 1 and state.exchanged[seat] == (exchanges == 1)
    assert len(state.kingdom) <= KINGDOM
    assert all(len(temple) == 12 for temple in state.temples)


@deterministic(60)
@given(SEEDS)
def test_games_end_and_conserve(seed: int) -> None:
    previous = [0, 0]

    def check(state: AtonState, step: int) -> None:
        check_invariants(state)
        assert all(now >= before for now, before in zip(state.score, previous, strict=True))
        previous[:] = state.score

    final = play(seed, check)
    check_invariants(final)
    assert final.to_move() == ()
    if final.winner is None:  # the game ended after a scoring: someone has 40
        assert max(final.score) >= 40 and len(final.kingdom) == KINGDOM
    assert sorted(final.ranks()) in ([1, 1], [1, 2])


def every_action_text(state: AtonState, seat: int) -> list[Any]:
    """A broad pool of moves, legal or not, to probe what apply accepts."""
    pool: list[Any] = [Exchange()]
    for cards in itertools.product((1, 2, 3, 4), repeat=4):
        pool.append(Allocate(cards))  # type: ignore[arg-type]
    for temple in range(0, 6):
        for square in range(0, 14):
            pool.extend([Remove(temple, square), Place(temple, square)])
    return pool


@deterministic(15)
@given(SEEDS)
def test_legal_actions_are_exactly_what_apply_accepts(seed: int) -> None:
    def check(state: AtonState, step: int) -> None:
        if step % 23:
            return
        for seat in range(2):
            legal = state.legal_actions(seat)
            for action in every_action_text(state, seat):
                trial = state.clone()
                if action in legal:
                    trial.apply(seat, action)
                else:
                    with pytest.raises(IllegalActionError):
                        trial.apply(seat, action)
                    assert trial == state

    play(seed, check)


@deterministic(30)
@given(SEEDS)
def test_replay_clone_and_json_round_trips(seed: int) -> None:
    def check(state: AtonState, step: int) -> None:
        if step % 17:
            return
        assert GAME.state_from_json(state.to_json()) == state
        assert state.clone() == state
        assert replay(state.record(), check_result=False) == state

    final = play(seed, check)
    assert replay(final.record()) == final
    restored = GAME.state_from_json(final.to_json())
    assert restored.log_lines(everything=True) == final.log_lines(everything=True)


def unseen(state: AtonState, seat: int) -> list[int]:
    """The cards of ``seat`` that its opponent has not seen."""
    hidden = state.hands[seat] + list(state.alloc[seat] or []) + state.face_down[seat]
    return sorted(hidden + state.piles[seat])


@deterministic(30)
@given(SEEDS)
def test_non_interference(seed: int) -> None:
    """Re-deal everything hidden from a seat: its view and its choices stay the same."""

    def check(state: AtonState, step: int) -> None:
        if step % 5:
            return
        for seat in range(2):
            seen = state.observation(seat)
            legal = state.legal_actions(seat)
            for k in range(3):
                world = state.resample(seat, Rng(seed + k))
                assert world.observation(seat) == seen
                assert world.legal_actions(seat) == legal
                other = 1 - seat

                # the re-dealt world really differs where the seat cannot see
                assert unseen(world, other) == unseen(state, other)
                # worlds are drawn from what the seat knows only: the same world comes out
                # of the true state and of any state the seat cannot tell from it
                assert world.resample(seat, Rng(99)) == state.resample(seat, Rng(99))

    play(seed, check)


def test_sealed_cartouches_stay_hidden_until_both_have_laid_out() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=11)
    red_hand = state.hands[0]
    state.apply(0, Allocate(tuple(red_hand)))  # type: ignore[arg-type]
    before = state.observation(1)
    assert before["players"][0]["committed"] is True
    assert before["players"][0]["cartouches"] is None
    assert "on cartouches" not in " ".join(state.log_lines(1))  # the values are red's alone
    assert "on cartouches" in " ".join(state.log_lines(0))
    # red's own view shows its cartouches
    assert state.observation(0)["you"]["cartouches"] == list(red_hand)
    # changing red's sealed cards does not change blue's view
    other = state.clone()
    other.alloc[0] = [4, 4, 4, 4] if red_hand != [4, 4, 4, 4] else [1, 1, 1, 1]
    assert other.observation(1) == before


@deterministic(10)
@given(SEEDS)
def test_determinism(seed: int) -> None:
    assert play(seed).to_json() == play(seed).to_json()

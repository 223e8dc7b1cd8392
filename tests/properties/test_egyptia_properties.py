"""Property tests of the Egyptia engine over many random games with 1, 2, 5 and 20 builders.

Every test plays whole games with a seeded random policy (a random builder among those with a
decision, a random legal move; ships only now and then, since a random ship tends to circle a
red dot and end the game early) and checks:

    test_games_end_and_resources_hold   resources never negative, tracks within their dots,
                                        productivity as the buildings say, plagues crossed
                                        once, every city the same size at a round's end,
                                        every game ending within the 18 rounds of the map,
                                        the builders to move (kept by the engine as stages
                                        change) always those whose stage is a decision
    test_legal_actions_are_exactly_what_apply_accepts
    test_replay_clone_and_json_round_trips
    test_non_interference               what a builder sees and may do does not change when
                                        everything hidden from it is drawn anew (the others'
                                        sealed columns and their steps since the last public
                                        moment, the coming rolls)
    test_determinism
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import IllegalActionError, Rng, get_game, replay
from karnak.games.egyptia.rules.actions import PLAGUES, Build, Choose, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.pharaoh import EMPTY
from karnak.games.egyptia.rules.state import DECIDING, EgyptiaState
from support.hypothesis_settings import deterministic

GAME = get_game("egyptia")
TRACK_DOTS = (18, 18, 18, 12)
MAP_HEXES = 18
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
PLAYERS = [1, 2, 5, 20]


def choose(state: EgyptiaState, rng: Rng) -> tuple[int, Any]:
    """A random move of a random builder to move; now and then a waiting builder's ship."""
    movers = state.to_move()
    if state.n > 1 and rng.below(16) == 0:
        waiting = [s for s in range(state.n) if s not in movers and state.legal_actions(s)]
        if waiting:
            seat = waiting[rng.below(len(waiting))]
            legal = state.legal_actions(seat)
            assert all(isinstance(a, UseShip) for a in legal)
            return seat, legal[rng.below(len(legal))]
    seat = movers[rng.below(len(movers))]
    legal = state.legal_actions(seat)
    plain = [a for a in legal if not isinstance(a, UseShip)]
    if not plain or rng.below(12) == 0:
        return seat, legal[rng.below(len(legal))]
    return seat, plain[rng.below(len(plain))]


def play(players: int, seed: int, check: Any = None) -> EgyptiaState:
    state = GAME.new_state(players, seed=seed % 2**62)
    rng = Rng(seed)
    limit = players * MAP_HEXES * 12
    for step in range(limit):
        if state.is_over():
            return state
        seat, action = choose(state, rng)
        if check is not None:
            check(state, step)
        state.apply(seat, action)
    raise AssertionError(f"seed {seed}: no end after {limit} moves")


def check_sheets(state: EgyptiaState) -> None:
    deciding = tuple(s for s in range(state.n) if state.stage[s] in DECIDING)
    assert state.to_move() == (() if state.over else deciding)
    for seat in range(state.n):
        have = state.have(seat)
        assert all(x >= 0 for x in have), (seat, have)
        assert all(0 <= c <= d for c, d in zip(state.circled[seat], TRACK_DOTS, strict=True))
        city = state.city[seat]
        assert city[state.sheet.oasis] == EMPTY
        counts = {name: city.count(code) for code, name in enumerate(("p", "q", "m", "o", "f"))}
        # quarries move stone, mines diamond, fields grain; +4 at most
        assert state.productivity[seat] == [
            min(counts["f"], 4),
            min(counts["m"], 4),
            min(counts["q"], 4),
        ]
        crossed = state.crossed[seat]
        assert len(set(crossed)) == len(crossed) and "death" not in crossed
        assert all(p in PLAGUES for p in crossed)
        lost = sum(1 for s, a in state.history if s == seat and isinstance(a, Plague) and a.ship)
        used = sum(1 for s, a in state.history if s == seat and isinstance(a, UseShip))
        assert state.ships[seat].count(2) == lost and state.ships[seat].count(1) == used
    if all(stage == "choose" for stage in state.stage) or state.over:
        sizes = {sum(1 for b in state.city[s] if b != EMPTY) for s in range(state.n)}
        assert len(sizes) == 1 and sizes.pop() == state.round - (0 if state.over else 1)


@pytest.mark.parametrize("players", PLAYERS)
@deterministic(12)
@given(SEEDS)
def test_games_end_and_resources_hold(players: int, seed: int) -> None:
    final = play(players, seed, lambda state, step: check_sheets(state))
    check_sheets(final)
    assert final.to_move() == () and final.round <= MAP_HEXES
    full = all(not final.empty_hexes(s) for s in range(players))
    assert full or any(final.red)
    assert final.final is not None
    assert final.scores() == [final.score_sheet(s)["total"] for s in range(players)]
    assert min(final.ranks()) == 1
    if players == 1:
        assert final.solo_rank() in ("Apprentice", "Standard", "Skilled", "Master", "Legendary")


def probe_pool(state: EgyptiaState) -> list[Any]:
    """A broad pool of moves, legal or not, to probe what apply accepts."""
    pool: list[Any] = [Choose(c) for c in range(4)]
    pool += [UseShip(n) for n in range(0, 5)]
    pool += [Plague(p) for p in PLAGUES] + [Plague("hail-fire", n) for n in range(1, 4)]
    labels = [h.label for h in state.sheet.hexes] + ["Z9"]
    for building in ("pyramid", "quarry", "mine", "obelisk", "field", "mound"):
        pool += [Build(building, label) for label in labels]
    bundles = [(2, 0, 0, 0), (0, 0, 0, 1), (1, 1, 0, 0), (0, 2, 0, 0), (1, 0, 2, 1), (0, 1, 1, 1)]
    pool += [Pay(b) for b in bundles] + [Gain(b) for b in bundles]
    return pool


@pytest.mark.parametrize("players", [1, 2, 5])
@deterministic(6)
@given(SEEDS)
def test_legal_actions_are_exactly_what_apply_accepts(players: int, seed: int) -> None:
    def check(state: EgyptiaState, step: int) -> None:
        if step % 7:
            return
        seat = (step // 7) % state.n  # one builder a time, in turn
        legal = state.legal_actions(seat)
        for action in probe_pool(state) + legal:
            trial = state.clone(log=False)
            if action in legal:
                trial.apply(seat, action)
            else:
                with pytest.raises(IllegalActionError):
                    trial.apply(seat, action)
                assert trial == state.clone(log=False)

    play(players, seed, check)


@pytest.mark.parametrize("players", PLAYERS)
@deterministic(6)
@given(SEEDS)
def test_replay_clone_and_json_round_trips(players: int, seed: int) -> None:
    def check(state: EgyptiaState, step: int) -> None:
        if step % (11 * players):
            return
        assert GAME.state_from_json(state.to_json()) == state
        assert state.clone() == state
        assert replay(state.record(), check_result=False) == state

    final = play(players, seed, check)
    assert replay(final.record()) == final
    restored = GAME.state_from_json(final.to_json())
    assert restored.log_lines(everything=True) == final.log_lines(everything=True)
    assert restored.observation(0) == final.observation(0)


@pytest.mark.parametrize("players", [2, 5, 20])
@deterministic(6)
@given(SEEDS)
def test_non_interference(players: int, seed: int) -> None:
    """Draw anew everything hidden from a builder: its view and its choices stay the same."""

    def check(state: EgyptiaState, step: int) -> None:
        if step % (3 if players < 20 else 7):
            return
        seat = step % state.n
        seen = state.observation(seat)
        legal = state.legal_actions(seat)
        for k in range(2):
            world = state.resample(seat, Rng(seed + k))
            assert world.observation(seat) == seen
            assert world.legal_actions(seat) == legal
            # worlds come from what the builder knows only: the same world comes out of the
            # true state and of any state the builder cannot tell from it
            assert world.resample(seat, Rng(99)) == state.resample(seat, Rng(99))

    play(players, seed, check)


@pytest.mark.parametrize("players", [2, 5])
@deterministic(6)
@given(SEEDS)
def test_a_private_step_shows_the_others_nothing(players: int, seed: int) -> None:
    """Where the engine calls a move private, no other seat's view or log changes."""
    state = GAME.new_state(players, seed=seed % 2**62)
    rng = Rng(seed)
    private = 0
    while not state.is_over():
        seat, action = choose(state, rng)
        before = state.clone()
        state.apply(seat, action)
        if state.private_step(seat, before):
            private += 1
            for other in [None, *range(players)]:
                if other != seat:
                    assert state.observation(other) == before.observation(other)
                    assert state.log_lines(other) == before.log_lines(other)
        else:
            # the public moves: a column chosen, a round finished, the reveal, the end
            assert state.public_stage(seat) != before.public_stage(seat) or (
                state.round != before.round or state.over or state.revealed != before.revealed
            )
    assert private > 0


def test_random_games_let_waiting_builders_use_ships() -> None:
    """The random games of these properties include ships used while waiting (so the
    properties above cover them)."""
    waited = 0
    for seed in range(3):
        state, rng = GAME.new_state(3, seed=seed), Rng(seed)
        while not state.is_over():
            seat, action = choose(state, rng)
            waited += seat not in state.to_move()
            state.apply(seat, action)
    assert waited > 0


def test_the_resampled_worlds_really_differ_where_the_builder_cannot_see() -> None:
    state = GAME.new_state(4, seed=3)
    for seat in (1, 2, 3):
        state.apply(seat, Choose(0))
    columns = {tuple(state.resample(0, Rng(k)).column[1:]) for k in range(20)}
    assert len(columns) > 5  # the others' sealed columns are drawn, not copied


@pytest.mark.parametrize("players", [1, 5])
@deterministic(4)
@given(SEEDS)
def test_determinism(players: int, seed: int) -> None:
    assert play(players, seed).to_json() == play(players, seed).to_json()

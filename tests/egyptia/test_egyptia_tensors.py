"""Egyptia's tensors (karnak.games.egyptia.research.tensors) over many random games.

test_size_dtype_and_ranges          every tensor has its layout's size, float32, and each
                                    part stays in its documented range (1 to 20 builders,
                                    drawn and chosen cards)
test_the_tensor_says_what_the_observation_says
                                    the slices agree with observation() on the same
                                    position (resources, scores, columns, stages, cities)
test_non_interference               tensors and strings are the same in every world
                                    re-dealt for the seat
test_tensors_change_exactly_when_the_view_does
                                    a public move changes every seat's tensor, a private
                                    step changes only the mover's
test_spot_checks_*                  named slices on seeded positions
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import Rng, get_game
from karnak.games.egyptia.research.tensors import CITY_KINDS, PUBLIC_STAGES, RANGES, STAGES
from karnak.games.egyptia.rules.actions import Build, Choose, UseShip
from karnak.games.egyptia.rules.sheet import RESOURCES
from karnak.games.egyptia.rules.state import EgyptiaState
from support.hypothesis_settings import deterministic

GAME = get_game("egyptia")
SEEDS = st.integers(min_value=0, max_value=2**62)
CARDS = st.sampled_from(["", "A2,B2,C3,D2,E3", "D2", "A1,E2"])


def choose(state: EgyptiaState, rng: Rng) -> tuple[int, Any]:
    """A random move of a random builder to move; now and then a (waiting) builder's ship."""
    movers = state.to_move()
    if state.n > 1 and rng.below(16) == 0:
        waiting = [s for s in range(state.n) if s not in movers and state.legal_actions(s)]
        if waiting:
            seat = waiting[rng.below(len(waiting))]
            legal = state.legal_actions(seat)
            return seat, legal[rng.below(len(legal))]
    seat = movers[rng.below(len(movers))]
    legal = state.legal_actions(seat)
    plain = [a for a in legal if not isinstance(a, UseShip)]
    if not plain or rng.below(12) == 0:
        return seat, legal[rng.below(len(legal))]
    return seat, plain[rng.below(len(plain))]


def positions(players: int, seed: int, cards: str = "", every: int = 1) -> Any:
    """Every ``every``-th position of a random game, the final one included."""
    state = GAME.new_state(players, seed=seed, options={"cards": cards})
    rng = Rng(seed)
    step = 0
    while not state.is_over():
        if step % every == 0:
            yield state
        state.apply(*choose(state, rng))
        step += 1
    yield state


def seats(state: EgyptiaState) -> list[int]:
    return list(range(state.n)) if state.n <= 5 else [0, 1, state.n // 2, state.n - 1]


@pytest.mark.parametrize("players", [1, 2, 3, 5, 20])
@deterministic(5)
@given(seed=SEEDS, cards=CARDS)
def test_size_dtype_and_ranges(players: int, seed: int, cards: str) -> None:
    layout = GAME.observation_layout(players, {"cards": cards})
    full = GAME.information_state_layout(players, {"cards": cards})
    for state in positions(players, seed, cards, every=1 if players < 5 else 5):
        for seat in seats(state):
            for vector, lay in (
                (state.observation_tensor(seat), layout),
                (state.information_state_tensor(seat), full),
            ):
                assert vector.shape == (lay.size,) and vector.dtype == np.float32
                for name, part in lay.named(vector).items():
                    low, high = RANGES.get(name, (0.0, 1.0))
                    assert part.min() >= low and part.max() <= high, (name, part)
            assert np.array_equal(
                full.view(state.information_state_tensor(seat), "seat_city"),
                layout.view(state.observation_tensor(seat), "seat_city"),
            )


def check_against_observation(state: EgyptiaState, seat: int) -> None:
    layout = GAME.observation_layout(state.n)
    parts = layout.named(state.observation_tensor(seat))
    obs = state.observation(seat)
    dots = state.sheet.dots
    assert parts["round"][0] == pytest.approx(obs["round"] / 18)
    assert bool(parts["over"][0]) == obs["over"] and bool(parts["revealed"][0]) == obs["revealed"]
    for k in range(state.n):
        entry = obs["players"][(seat + k) % state.n]
        res = entry["sheet"]["resources"]
        for i, r in enumerate(RESOURCES):
            assert parts["seat_have"][k, i] == pytest.approx(res[r]["have"] / dots[i])
            assert parts["seat_circled"][k, i] == pytest.approx(res[r]["circled"] / dots[i])
        assert parts["seat_score"][k] == pytest.approx(entry["score"]["total"] / 100)
        points = [c["points"] / 100 for c in entry["score"]["cards"]]
        assert parts["seat_card_points"][k].tolist() == pytest.approx(points)
        assert PUBLIC_STAGES[int(parts["seat_stage"][k].argmax())] == entry["stage"]
        column = parts["seat_column"][k]
        shown = RESOURCES[int(column.argmax())] if column.any() else None
        assert shown == entry["column"]
        assert bool(parts["to_move"][k]) == ((seat + k) % state.n in obs["to_move"])
        city = {
            state.sheet.hexes[h].label: CITY_KINDS[int(row.argmax())]
            for h, row in enumerate(parts["seat_city"][k])
            if row.argmax() != 0
        }
        assert city == entry["sheet"]["city"]
        crossed = entry["sheet"]["plagues"]
        assert [bool(x) for x in parts["seat_plagues"][k]] == list(crossed.values())
        assert bool(parts["seat_red"][k]) == entry["sheet"]["red"]
    assert STAGES[int(parts["stage"].argmax())] == obs["you"]["stage"]
    assert bool(parts["market"][0]) == obs["you"]["market"]
    offered = obs["you"].get("offered", {})
    assert int(parts["offered"].sum()) == len(offered)


@pytest.mark.parametrize("players", [1, 2, 4])
@deterministic(4)
@given(seed=SEEDS, cards=CARDS)
def test_the_tensor_says_what_the_observation_says(players: int, seed: int, cards: str) -> None:
    for state in positions(players, seed, cards, every=3):
        for seat in seats(state):
            check_against_observation(state, seat)


def same_view(state: EgyptiaState, world: EgyptiaState, seat: int) -> None:
    assert np.array_equal(world.observation_tensor(seat), state.observation_tensor(seat))
    assert np.array_equal(
        world.information_state_tensor(seat), state.information_state_tensor(seat)
    )
    assert world.observation_string(seat) == state.observation_string(seat)
    assert world.information_state_string(seat) == state.information_state_string(seat)


@pytest.mark.parametrize("players", [2, 3, 5, 20])
@deterministic(5)
@given(seed=SEEDS, cards=CARDS)
def test_non_interference(players: int, seed: int, cards: str) -> None:
    """Everything hidden from a builder drawn anew: its tensors and strings stay the same."""
    for state in positions(players, seed, cards, every=2 if players < 5 else 9):
        for seat in seats(state):
            for k in range(2):
                same_view(state, state.resample(seat, Rng(seed + k)), seat)


def test_resampled_worlds_really_differ() -> None:
    """The worlds of the non-interference test hide something: the others' sealed columns."""
    state = GAME.new_state(4, seed=3)
    for seat in (1, 2, 3):
        state.apply(seat, Choose(seat % 4))
    worlds = [state.resample(0, Rng(k)) for k in range(12)]
    assert len({tuple(w.column[1:]) for w in worlds}) > 3
    for world in worlds:
        same_view(state, world, 0)


@pytest.mark.parametrize("players", [2, 4])
@deterministic(4)
@given(seed=SEEDS)
def test_tensors_change_exactly_when_the_view_does(players: int, seed: int) -> None:
    """A move the others see changes their tensors; a private step changes only the mover's
    (the test the tensors would fail if they showed a private step)."""
    state = GAME.new_state(players, seed=seed)
    rng = Rng(seed)
    seen = {"public": 0, "private": 0}
    while not state.is_over():
        before = state.clone()
        mover, action = choose(state, rng)
        state.apply(mover, action)
        assert not np.array_equal(state.observation_tensor(mover), before.observation_tensor(mover))
        private = state.private_step(mover, before)
        seen["private" if private else "public"] += 1
        for other in range(players):
            if other == mover:
                continue
            same = np.array_equal(state.observation_tensor(other), before.observation_tensor(other))
            assert same == private, (action, other)
            assert (state.observation_string(other) == before.observation_string(other)) == private
            same_info = np.array_equal(
                state.information_state_tensor(other), before.information_state_tensor(other)
            )
            assert same_info == private
    assert seen["private"] and seen["public"]


def test_spot_checks_on_a_seeded_position() -> None:
    state = GAME.new_state(3, seed=7, options={"cards": "A2,B2,C3,D2,E3"})
    layout = GAME.observation_layout(3)
    columns = state.sheet.columns_of(tuple(state.dice))
    v = state.observation_tensor(1)
    cards = [c.id for c in state.sheet.cards]
    assert [cards[i] for i in np.flatnonzero(layout.view(v, "cards"))] == state.cards
    assert layout.view(v, "cards").sum() == 5
    sizes = layout.view(v, "column_sizes") * len(state.sheet.dice)
    assert sizes.tolist() == [len(c) for c in columns]
    assert layout.view(v, "to_move").tolist() == [1, 1, 1]
    assert layout.view(v, "stage").tolist() == [1, 0, 0, 0, 0, 0, 0, 0]
    assert layout.view(v, "seat_have")[:, 0].tolist() == pytest.approx([1 / 18] * 3)
    assert layout.view(v, "seat_city")[:, :, 0].all()  # every hex empty
    assert layout.view(v, "seat_ships")[:, :, 0].all()  # every ship unused
    # seat 2 chooses (sealed): seat 1 sees that it has chosen, not what
    state.apply(2, Choose(3))
    v = state.observation_tensor(1)
    assert layout.view(v, "seat_stage").tolist() == [[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    assert not layout.view(v, "seat_column").any()
    assert layout.view(v, "to_move").tolist() == [1, 0, 1]
    own = state.observation_tensor(2)
    assert layout.view(own, "seat_column")[0].tolist() == [0, 0, 0, 1]
    assert layout.view(own, "stage")[1] == 1  # chosen
    # the others choose: the reveal shows every column, relative to the viewer
    state.apply(0, Choose(0))
    state.apply(1, Choose(0))
    v = state.observation_tensor(1)
    assert layout.view(v, "revealed")[0] == 1
    assert layout.view(v, "seat_column").argmax(axis=1).tolist() == [0, 3, 0]
    grain = len(columns[0])
    assert layout.view(v, "seat_have")[:, 0].tolist() == pytest.approx(
        [(1 + grain) / 18, 1 / 18, (1 + grain) / 18]
    )


def test_spot_checks_building_and_history() -> None:
    """Alone: a Burial Mound on a hex, the stage and the columns taken."""
    state = GAME.new_state(1, seed=2, options={"cards": "A2,B2,C3,D2,E3"})
    layout = GAME.information_state_layout(1)
    column = next(c for c in range(4) if state.column_size(c) < 3)
    state.apply(0, Choose(column))
    v = state.information_state_tensor(0)
    assert layout.view(v, "stage")[STAGES.index("build")] == 1
    offered = state.offered_buildings(0)
    assert layout.view(v, "offered").sum() == len(offered)
    assert layout.view(v, "columns_taken")[0, column] == pytest.approx(1 / 18)
    assert layout.view(v, "last_columns")[0].tolist() == [float(c == column) for c in range(4)]
    state.apply(0, Build("mound", "A2"))
    v = state.information_state_tensor(0)
    assert layout.view(v, "stage")[STAGES.index("gain")] == 1
    hex_index = state.sheet.by_label["A2"]
    assert layout.view(v, "seat_city")[0, hex_index].tolist() == [0, 0, 0, 0, 0, 0, 1]


def test_the_reveal_tally_follows_the_log_and_a_search_copy_counts_for_itself() -> None:
    """columns_taken counts the revealed Choose moves; a copy without a log (which shares
    the published sheets and their caches) has zeros there and leaves the original's alone."""
    state = GAME.new_state(3, seed=11)
    rng = Rng(11)
    while state.round < 4:
        state.apply(*choose(state, rng))
    layout = GAME.information_state_layout(3)
    search = state.clone(log=False)
    blank = search.information_state_tensor(1)
    assert not layout.view(blank, "columns_taken").any()
    v = state.information_state_tensor(1)
    counts = np.zeros((3, 4))
    for s, action in state.history:
        if isinstance(action, Choose):
            counts[(s - 1) % 3, action.column] += 1
    taken = layout.view(v, "columns_taken") * 18
    sealed = np.zeros((3, 4))  # this round's choices, still sealed, are not counted
    if not state.revealed:
        for s in range(3):
            if state.column[s] >= 0:
                sealed[(s - 1) % 3, state.column[s]] = 1
    assert np.allclose(taken, counts - sealed)
    assert not layout.view(search.information_state_tensor(1), "columns_taken").any()

"""Amun-Re's observation and information state tensors (karnak.games.amunre.research.tensors).

Random games (hypothesis-chosen seeds, options and table sizes) check at sampled steps, for
every seat: the tensors have their layout's size, float32 and the documented ranges; they and
the strings are the same in worlds re-dealt for the seat (``state.resample`` and the test
suite's own ``redeal_hidden``) and differ when something the seat sees changes. Spot checks
read named slices on seeded positions.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import Rng, get_game
from karnak.core.tensors import FloatVector, TensorLayout
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS
from karnak.games.amunre.rules.state import AmunReState
from support.amunre_hidden import redeal_hidden
from support.hypothesis_settings import deterministic

GAME = get_game("amunre")
NAMES = GAME.board.province_names  # type: ignore[attr-defined]
OPTIONS = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(["2003", "2016"]),
        "expert_provinces": st.booleans(),
        "offer_cards": st.booleans(),
    }
)
#: Parts that hold one 1 per row (rows: the part's first dimension when it has two).
ONE_HOT = ("phase", "round", "start_player", "temple", "province_owner", "bid_province")
FLAGS = (
    *("to_move", "on_auction", "bid_flags", "sealed_done", "adjusters", "eight_gold"),
    *("harvest_increase", "own_province_hand", "own_pick", "last_pick", "provinces_out"),
)


def new_game(n: int, seed: int, options: dict[str, Any]) -> AmunReState:
    state = GAME.new_state(n, seed=seed, options=options)
    assert isinstance(state, AmunReState)
    return state


def step(state: AmunReState, rng: Rng) -> None:
    seat = rng.choice(state.to_move())
    legal: list[Any] = state.legal_actions(seat)
    if rng.below(2):
        state.apply(seat, rng.choice(legal))
        return
    kind = rng.choice(sorted({a.kind for a in legal}))
    state.apply(seat, rng.choice([a for a in legal if a.kind == kind]))


def check_ranges(layout: TensorLayout, vector: FloatVector) -> None:
    assert vector.dtype == np.float32 and vector.shape == (layout.size,)
    assert np.isfinite(vector).all()
    parts = layout.named(vector)
    for name, part in parts.items():
        if name == "offering_total":
            continue  # the only part that may be negative
        assert (part >= 0).all(), f"{name} has a negative entry"
    for name in ONE_HOT:
        rows = parts[name].reshape(-1, parts[name].shape[-1]) if parts[name].ndim > 1 else None
        if rows is None:
            assert parts[name].sum() == 1.0, f"{name} is not one-hot"
        else:
            assert (rows.sum(axis=1) == 1.0).all(), f"{name} has a row that is not one-hot"
    for name in FLAGS:
        if name in parts:
            assert np.isin(parts[name], (0.0, 1.0)).all(), f"{name} is not 0/1"
            if name in ("eight_gold", "harvest_increase", "last_pick", "own_pick"):
                assert (parts[name].reshape(-1, parts[name].shape[-1]).sum(axis=1) <= 1).all()
    assert parts["market_stage"].sum() == 1.0
    assert (parts["rewards_queue"] <= 1.0).all()
    assert parts["phase"][-1] == 1.0 or parts["to_move"].sum() >= 1.0


def views(state: AmunReState, seat: int) -> tuple[FloatVector, FloatVector, str, str]:
    return (
        state.observation_tensor(seat),
        state.information_state_tensor(seat),
        state.observation_string(seat),
        state.information_state_string(seat),
    )


def same(a: tuple[FloatVector, FloatVector, str, str], b: tuple[Any, ...]) -> bool:
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2:] == tuple(b[2:])


def check_seat(state: AmunReState, seat: int, rng: Rng) -> None:
    obs_layout = GAME.observation_layout(state.n, state.options)
    info_layout = GAME.information_state_layout(state.n, state.options)
    mine = views(state, seat)
    check_ranges(obs_layout, mine[0])
    check_ranges(info_layout, mine[1])
    assert np.array_equal(mine[1][: obs_layout.size], mine[0]), "the infostate starts with obs"
    for _ in range(2):
        world = state.resample(seat, rng)
        assert same(views(world, seat), mine), (
            f"seat {seat} tells a resampled world apart ({state.phase}, round {state.round})"
        )
        other = redeal_hidden(state, seat, rng)
        assert np.array_equal(other.observation_tensor(seat), mine[0])
        assert np.array_equal(other.information_state_tensor(seat), mine[1])
        assert other.observation_string(seat) == mine[2]


def check_visible_change_is_seen(state: AmunReState, seat: int) -> None:
    """The inverse (so the test can fail): what the seat sees changes its tensors."""
    base = views(state, seat)
    mine = state.clone()
    if mine.deck:
        mine.hand[seat][mine.deck.pop()] += 1
    else:
        mine.hand[seat][0] += 1
        mine.discard[0] = max(0, mine.discard[0] - 1)
    changed = views(mine, seat)
    assert not np.array_equal(changed[0], base[0]), "own hand changes must be visible"
    assert not np.array_equal(changed[1], base[1]) and changed[2] != base[2]
    public = state.clone()
    other = (seat + 1) % state.n
    public.gold[other] += 1
    public.bank -= 1
    changed = views(public, seat)
    assert not np.array_equal(changed[0], base[0]), "another seat's gold is public"
    assert not np.array_equal(changed[1], base[1]) and changed[2] != base[2]


@pytest.mark.parametrize("n", (3, 4, 5))
@deterministic(30)
@given(seed=st.integers(0, 2**63 - 1), options=OPTIONS)
def test_tensors_over_random_games(n: int, seed: int, options: dict[str, Any]) -> None:
    state = new_game(n, seed, options)
    rng = Rng(seed ^ 0x7E45)
    count = 0
    while not state.is_over():
        sealed = state.phase in ("offering", "pick")
        if rng.below(25) == 0 or (sealed and rng.below(4) == 0):
            for seat in range(n):
                check_seat(state, seat, rng)
            check_visible_change_is_seen(state, rng.below(n))
            count += 1
        step(state, rng)
    for seat in range(n):  # the end too
        check_seat(state, seat, rng)
    assert count > 0


def test_layout_sizes_follow_the_table_and_options() -> None:
    sizes = {
        (n, e): GAME.observation_layout(n, {"expert_provinces": e}).size
        for n in (3, 4, 5)
        for e in (False, True)
    }
    assert sizes[(3, False)] < sizes[(4, False)] < sizes[(5, False)]
    assert all(sizes[(n, True)] > sizes[(n, False)] for n in (3, 4, 5))
    obs = GAME.observation_layout(4)
    info = GAME.information_state_layout(4)
    assert [p.part for p in info.parts[: len(obs.parts)]] == [p.part for p in obs.parts]
    assert "provinces_out" in info and "provinces_out" not in obs
    assert "| `phase` |" in obs.to_markdown()


def test_named_slices_on_a_seeded_position() -> None:
    state = new_game(4, 3, {})
    layout = GAME.observation_layout(4)
    start = state.start
    seat = (start + 1) % 4  # the viewer is the seat after the start player
    v = state.observation_tensor(seat)
    assert layout.view(v, "phase").tolist() == [0, 1, 0, 0, 0, 0, 0, 0, 0]  # auction
    assert layout.view(v, "round")[0] == 1.0
    assert layout.view(v, "start_player").tolist() == [0, 0, 0, 1]  # the seat before me
    assert layout.view(v, "to_move").tolist() == [0, 0, 0, 1]  # the start player bids first
    assert layout.view(v, "gold").tolist() == pytest.approx([20 / 50] * 4)
    assert layout.view(v, "hand").tolist() == state.hand[seat]
    assert layout.view(v, "cards_held").tolist() == [
        sum(state.hand[(seat + r) % 4]) for r in range(4)
    ]
    assert np.flatnonzero(layout.view(v, "on_auction")).tolist() == sorted(state.on_auction)
    assert layout.view(v, "province_owner")[:, 4].tolist() == [1.0] * len(NAMES)
    assert layout.view(v, "temple").tolist() == [1, 0, 0, 0, 0]
    assert layout.view(v, "deck")[0] == pytest.approx(len(state.deck) / 39)
    face_down = layout.view(v, "province_items")[:, 5]
    assert face_down.tolist() == [len(c) for c in state.face_down]
    # the start player bids 6 on the first province up for auction
    p = state.on_auction[0]
    state.apply(start, A.Bid(NAMES[p], 6))
    v = state.observation_tensor(seat)
    assert layout.view(v, "bid_province")[3].tolist() == [float(i == p) for i in range(16)]
    assert layout.view(v, "bid_province")[0, 15] == 1.0  # my own marker is not out
    assert layout.view(v, "bid_amount").tolist() == pytest.approx([0, 0, 0, 6 / 36])
    assert layout.view(v, "to_move").tolist() == [1, 0, 0, 0]  # my turn
    # from the start player's own point of view the same bid is row 0
    w = state.observation_tensor(start)
    assert layout.view(w, "bid_amount").tolist() == pytest.approx([6 / 36, 0, 0, 0])
    assert "bid " + NAMES[p] + " 6" in state.observation_string(seat)


def test_sealed_offering_slices() -> None:
    state = new_game(3, 11, {})
    rng = Rng(4)
    while state.phase != "offering":
        step(state, rng)
    first, second = state.to_move()[:2]
    state.apply(first, A.Offer(gold=min(2, state.gold[first]) or 0, theft=state.gold[first] == 0))
    layout = GAME.observation_layout(3)
    mine = state.observation_tensor(first)
    theirs = state.observation_tensor(second)
    assert layout.view(mine, "own_offer")[0] == 1.0
    assert layout.view(theirs, "own_offer").tolist() == [0, 0, 0, 0, 0]  # sealed
    assert layout.view(theirs, "sealed_done")[(first - second) % 3] == 1.0
    assert layout.view(theirs, "offering_total")[0] == 0.0


def test_expert_slices() -> None:
    options = {"expert_provinces": True}
    state = new_game(3, 5, options)
    layout = GAME.observation_layout(3, options)
    info = GAME.information_state_layout(3, options)
    v = state.information_state_tensor(1)
    held = np.flatnonzero(info.view(v, "own_province_hand")).tolist()
    assert held == state.prov_hand[1]
    assert info.view(v, "province_cards").tolist() == [3, 3, 3]
    pick = state.prov_hand[1][0]
    state.apply(1, A.Pick(NAMES[pick]))
    v = state.observation_tensor(1)
    assert np.flatnonzero(layout.view(v, "own_pick")).tolist() == [pick]
    assert layout.view(state.observation_tensor(2), "own_pick").sum() == 0.0
    assert layout.view(state.observation_tensor(2), "sealed_done").tolist() == [0, 0, 1]
    counts = [GAME.board.card(k).count for k in CARD_KINDS]  # type: ignore[attr-defined]
    unseen = info.view(state.information_state_tensor(0), "unseen_cards").tolist()
    assert unseen == [c - h for c, h in zip(counts, state.hand[0], strict=True)]

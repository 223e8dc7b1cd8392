"""The Egyptia heuristic: always legal, deterministic, blind to what its seat cannot see,
exact about the Pharaoh cards, sensible in hand-built positions, and quick.

Positions come from seeded games in which every decision is made by the heuristic or by a
random player (a seeded coin decides), so the heuristic is questioned in the odd positions
random play leads to as well as in its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from karnak.bots import SeatView, available_bots, make_bot
from karnak.bots.random_bot import RandomBot
from karnak.core import Rng, get_game
from karnak.games.egyptia import bot as heuristic
from karnak.games.egyptia.bot import EgyptiaHeuristic, act, decide, rated
from karnak.games.egyptia.rules.actions import Build, Choose, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.market import covers, payments
from karnak.games.egyptia.rules.pharaoh import EMPTY, card_points
from karnak.games.egyptia.rules.state import CHOSEN, EgyptiaState
from support.egyptia_positions import new, roll, set_city

GAME = get_game("egyptia")
SHEET = GAME.sheet  # type: ignore[attr-defined]
SACRED = {h.label for h in SHEET.hexes if h.sacred}


def positions(players: int, seed: int) -> Iterator[tuple[EgyptiaState, int]]:
    """(state, seat to decide) along one mixed heuristic/random game; the state is live."""
    state = GAME.new_state(players, seed=seed)
    assert isinstance(state, EgyptiaState)
    rng = Rng(seed)
    while not state.is_over():
        movers = state.to_move()
        for seat in movers:
            yield state, seat
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        action = act(state, seat, rng) if rng.below(2) else rng.choice(legal)
        state.apply(seat, action)


def view_choice(state: EgyptiaState, seat: int, seed: int = 0) -> object:
    return EgyptiaHeuristic().choose(SeatView.of(state, seat), Rng(seed))


# ------------------------------------------------------------------ legality and determinism
@pytest.mark.parametrize(("players", "seed"), [(1, 1), (1, 2), (2, 3), (3, 4), (5, 5), (5, 6)])
def test_act_is_always_legal_and_agrees_with_the_bot(players: int, seed: int) -> None:
    """Over every decision of mixed games, for every seat that must decide; the bot (which
    reads the observation) and ``act`` (which reads the state) choose the same."""
    stages: set[str] = set()
    for state, seat in positions(players, 700 + seed):
        action = act(state, seat, Rng(seed))
        assert action in state.legal_actions(seat), (
            f"{state.stage[seat]}: {action.to_text()} is not legal (seed {700 + seed})"
        )
        assert view_choice(state, seat) == action
        stages.add(state.stage[seat])
    assert {"choose", "build"} <= stages


def test_every_kind_of_decision_is_met() -> None:
    stages: set[str] = set()
    kinds: set[type] = set()
    for seed in range(6):
        for state, seat in positions(3, 800 + seed):
            stages.add(state.stage[seat])
            kinds.add(type(act(state, seat, Rng(0))))
    assert stages == {"choose", "plague", "plague_pay", "build", "build_pay", "gain"}
    assert {Choose, Plague, Build, Pay, Gain, UseShip} <= kinds


def test_whole_games_through_the_bot_interface() -> None:
    """Checked ``apply`` on every move: solo, against random players, and 20 heuristics."""
    for players, seed in ((1, 11), (3, 12), (20, 13)):
        state = GAME.new_state(players, seed=seed)
        bots = [EgyptiaHeuristic() if s % 2 == 0 else RandomBot() for s in range(players)]
        rngs = [Rng(seed * 100 + s) for s in range(players)]
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(SeatView.of(state, seat), rngs[seat]))
        assert state.is_over()


def test_deterministic() -> None:
    for i, (state, seat) in enumerate(positions(3, 901)):
        if i % 7:
            continue
        view = SeatView.of(state, seat)
        first = EgyptiaHeuristic().choose(view, Rng(1))
        assert EgyptiaHeuristic().choose(view, Rng(99)) == first  # the generator is not used


def test_registered_as_the_heuristic_for_egyptia() -> None:
    assert "heuristic" in available_bots(GAME)
    assert isinstance(make_bot("heuristic", GAME), EgyptiaHeuristic)
    assert isinstance(heuristic.make_heuristic(GAME), EgyptiaHeuristic)


# ------------------------------------------------------------------ what it may see
def hidden_variants(state: EgyptiaState, seat: int, count: int = 4) -> list[EgyptiaState]:
    """True states the seat cannot tell apart from ``state``: the others' sealed columns and
    their steps since the last public moment drawn anew."""
    return [state.resample(seat, Rng(5000 + k)) for k in range(count)]


def test_decision_does_not_change_with_the_others_sealed_choices() -> None:
    checked = 0
    for state, seat in positions(4, 950):
        others_hidden = (
            any(state.stage[o] != "choose" and o != seat for o in range(state.n))
            and not state.is_over()
        )
        if not others_hidden or len(state.history) % 3:
            continue
        mine = act(state, seat, Rng(0))
        for truth in hidden_variants(state, seat):
            assert truth.observation(seat) == state.observation(seat)
            assert act(truth, seat, Rng(0)) == mine
            assert view_choice(truth, seat) == mine
        checked += 1
    assert checked >= 10


def test_a_sealed_column_of_another_builder_is_not_read() -> None:
    """Two states equal but for the column another builder has sealed."""
    state = new(3, seed=4)
    first = state.clone()
    first.apply(1, Choose(0))
    second = state.clone()
    second.apply(1, Choose(3))
    assert first.stage[1] == second.stage[1] == CHOSEN
    assert first.observation(0) == second.observation(0)
    assert act(first, 0, Rng(0)) == act(second, 0, Rng(0))
    assert view_choice(first, 0) == view_choice(second, 0)


# ------------------------------------------------------------------ exact card points
@pytest.mark.parametrize("seed", range(4))
def test_the_gain_of_every_building_on_every_hex_is_exact(seed: int) -> None:
    """The heuristic's closed-form gains equal the engine's card scoring differences."""
    rng = Rng(seed)
    for _ in range(25):
        cards = [rng.choice(SHEET.cards_of(letter)).id for letter in "ABCDE"]
        state = new(1, cards=",".join(cards), seed=seed)
        city = [EMPTY] * len(SHEET.hexes)
        for h in SHEET.buildable:
            if rng.below(100) < 55:
                city[h] = rng.below(6)
        state.city[0] = city
        model = heuristic._Model(heuristic._me_from_state(state, 0))
        for h in model.empty:
            for b in range(5):
                after = list(city)
                after[h] = b
                exact = sum(
                    card_points(SHEET, SHEET.card(c), after)
                    - card_points(SHEET, SHEET.card(c), city)
                    for c in cards
                )
                assert model.gain[b][h] == pytest.approx(exact), (cards, b, h)


def test_affordability_matches_the_engine() -> None:
    """The heuristic's inlined market check accepts exactly what the engine can pay."""
    rng = Rng(3)
    state = new(1)
    model = heuristic._Model(heuristic._me_from_state(state, 0), with_city=False)
    for _ in range(3000):
        have = tuple(rng.below(7) for _ in range(4))
        cost = tuple(rng.below(4) for _ in range(4))
        paid = model.pay(have, cost, True)
        assert (paid is not None) == bool(payments(cost, have, True)) == covers(cost, have)  # type: ignore[arg-type]
        if paid is not None:
            assert all(x >= 0 for x in paid)
            assert covers(cost, tuple(h - x for h, x in zip(have, paid, strict=True)))  # type: ignore[arg-type]


# ------------------------------------------------------------------ sensible decisions
# Columns by value (shipped sheet): d4 1/2/3/4; d6 1-2/3-4/5/6; d8 1-3/4-5/6-7/8;
# d10 1-3/4-6/7-8/9-10; d12 1-4/5-7/8-10/11-12; d20 1-6/7-12/13-17/18-20.
PYRAMID_ALONE_IN_GRAIN = {4: 1, 6: 3, 8: 4, 10: 7, 12: 8, 20: 18}


def at_build(state: EgyptiaState, column: int, have: tuple[int, int, int, int]) -> None:
    """Choose ``column`` for every builder, then give seat 0 ``have`` (nothing spent)."""
    for seat in range(state.n):
        state.apply(seat, Choose(column))
    state.circled[0] = list(have)
    state.spent[0] = [0, 0, 0, 0]


def late(state: EgyptiaState, empty: set[str], layout: dict[str, str] | None = None) -> None:
    """Seat 0's map full of Burial Mounds (and ``layout``) but for the hexes ``empty``."""
    city = {SHEET.hexes[h].label: "mound" for h in SHEET.buildable}
    city.update(layout or {})
    for label in empty:
        del city[label]
    set_city(state, 0, city)


def test_prefers_a_pyramid_on_a_sacred_site_under_a2() -> None:
    state = new(1, cards="A2,B2,C2,D1,E3")
    late(state, {"A1", "C1", "D2"})
    roll(state, PYRAMID_ALONE_IN_GRAIN)
    at_build(state, 0, (3, 3, 4, 3))
    action = view_choice(state, 0)
    assert isinstance(action, Build) and action.building == "pyramid"
    assert action.hex in SACRED


def test_a_pyramid_goes_next_to_the_oasis_under_a1() -> None:
    state = new(1, cards="A1,B2,C2,D1,E1")
    late(state, {"A2", "B2", "C1"})
    roll(state, PYRAMID_ALONE_IN_GRAIN)
    at_build(state, 0, (3, 3, 4, 1))
    action = view_choice(state, 0)
    assert action == Build("pyramid", "B2")


def test_a_mine_goes_between_two_pyramids_under_c3() -> None:
    state = new(1, cards="A3,B2,C3,D3,E1")
    # the d8 (Mine) alone in the stone column
    roll(state, {4: 1, 6: 1, 8: 6, 10: 4, 12: 5, 20: 19})
    late(state, {"A2", "C1", "D1", "E2"}, {"A1": "pyramid", "A3": "pyramid"})
    at_build(state, 2, (3, 3, 3, 1))
    action = view_choice(state, 0)
    assert action == Build("mine", "A2")  # the only hex next to two Pyramids


def red_race(behind: bool) -> EgyptiaState:
    """Three builders; seat 0 is one stone short of its red dots, and the stone column (two
    dice: a Pyramid and the wild d20) would circle one. The others' cities are poor
    (seat 0 well ahead) or rich (well behind)."""
    state = new(3, cards="A1,B1,C1,D1,E1", seed=2)
    roll(state, {4: 3, 20: 13, 6: 1, 8: 4, 10: 9, 12: 11})
    rich = {
        "A1": "pyramid",
        "A2": "pyramid",
        "A3": "pyramid",
        "B1": "pyramid",
        "B2": "pyramid",
        "B3": "pyramid",
        "B4": "obelisk",
        "C1": "obelisk",
        "C2": "pyramid",
    }
    poor = {
        "A1": "mound",
        "A2": "mound",
        "A3": "mound",
        "B1": "mound",
        "B2": "mound",
        "B3": "mound",
        "B4": "mound",
        "C1": "mound",
        "C2": "mound",
    }
    mine = {
        "A1": "obelisk",
        "A2": "obelisk",
        "A3": "pyramid",
        "B1": "obelisk",
        "B2": "pyramid",
        "B3": "pyramid",
        "B4": "obelisk",
        "C1": "obelisk",
        "C2": "pyramid",
    }
    set_city(state, 0, mine)
    for other in (1, 2):
        set_city(state, other, rich if behind else poor)
        state.circled[other] = [6, 6, 6, 2]
    state.circled[0] = [8, 8, 15, 3]
    state.spent[0] = [6, 6, 12, 2]
    state._publish()
    return state


def test_avoids_circling_a_red_dot_when_behind() -> None:
    state = red_race(behind=True)
    assert state.observation(0)["players"][1]["score"]["total"] > state.score_sheet(0)["total"]
    assert view_choice(state, 0) != Choose(2)


def test_ends_the_game_with_a_red_dot_when_far_ahead() -> None:
    state = red_race(behind=False)
    assert view_choice(state, 0) == Choose(2)


def test_picks_the_plague_it_can_afford_cheaply() -> None:
    """Three dice in grain; only Locusts (2 grain, paid through the market), Dust Storm
    (2 of the 9 stone it has no use for), Pestilence, Hail-fire and Death are left."""
    state = new(1, cards="A1,B2,C2,D1,E1")
    roll(state, {4: 1, 6: 1, 8: 1, 10: 4, 12: 5, 20: 13})
    state.crossed[0] = ["blood", "flies", "frogs", "darkness", "boils"]
    at_build(state, 0, (1, 2, 9, 1))
    assert state.stage[0] == "plague"
    assert view_choice(state, 0) == Plague("dust-storm")


def test_pays_with_what_it_has_plenty_of() -> None:
    """A Quarry (2 grain, 1 diamond) with no grain, late in the game: the grain is bought
    with the diamonds it has more of than it can use, not with the stone or the favor."""
    state = new(1, cards="A1,B2,C2,D1,E1")
    late(state, {"B1", "C1", "D1", "E2"})
    roll(state, {4: 3, 6: 1, 8: 4, 10: 9, 12: 11, 20: 13})  # the d6 alone in grain
    at_build(state, 0, (0, 12, 3, 1))
    state.apply(0, Build("quarry", "B1"))
    assert state.stage[0] == "build_pay"
    assert view_choice(state, 0) == Pay((0, 5, 0, 0))


def test_the_last_burial_mound_takes_favor() -> None:
    """The map's last hex: a favor (half a point) beats 2 basic resources (a ninth of one)."""
    state = new(1, cards="A1,B2,C2,D1,E1")
    full = {SHEET.hexes[h].label: "mound" for h in SHEET.buildable}
    del full["E3"]
    set_city(state, 0, full)
    roll(state, PYRAMID_ALONE_IN_GRAIN)
    at_build(state, 0, (0, 0, 0, 1))
    state.apply(0, Build("mound", "E3"))
    assert view_choice(state, 0) == Gain((0, 0, 0, 1))


def test_keeps_its_ships_when_they_would_only_add_resources_at_the_end() -> None:
    state = new(1, cards="A1,B2,C2,D1,E1")
    full = {SHEET.hexes[h].label: "mound" for h in SHEET.buildable}
    del full["E2"]
    set_city(state, 0, full)
    roll(state, PYRAMID_ALONE_IN_GRAIN)
    at_build(state, 0, (1, 0, 0, 0))
    moves = rated(heuristic._me_from_state(state, 0))
    assert not isinstance(decide(heuristic._me_from_state(state, 0)), UseShip)
    assert any(isinstance(a, UseShip) for _, a in moves)


def test_uses_a_ship_when_it_pays_for_a_building_worth_more() -> None:
    """The last round: ship 2 (2 stone, 1 grain) completes a Pyramid next to the Oasis (5
    points, against the 2 the ship keeps)."""
    state = new(1, cards="A1,B2,C2,D1,E1")
    full = {SHEET.hexes[h].label: "mound" for h in SHEET.buildable}
    del full["B2"]
    set_city(state, 0, full)
    roll(state, PYRAMID_ALONE_IN_GRAIN)
    at_build(state, 0, (0, 1, 0, 0))
    assert view_choice(state, 0) == UseShip(2)


# ------------------------------------------------------------------ speed
def test_a_decision_is_quick() -> None:
    """Well under a millisecond on average on an idle machine; the bound leaves room for a
    loaded one."""
    decisions, spent = 0, 0.0
    for state, seat in positions(3, 990):
        start = time.perf_counter()
        act(state, seat, Rng(0))
        spent += time.perf_counter() - start
        decisions += 1
    assert spent / decisions < 0.005

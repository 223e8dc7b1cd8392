"""Egyptia's rules, one at a time, on hand-built positions (see support/egyptia_positions)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karnak.core.errors import IllegalActionError, InvalidOptionError
from karnak.games.egyptia import GAME
from karnak.games.egyptia.rules.actions import Build, Choose, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.market import _listing as market_listing
from karnak.games.egyptia.rules.market import (
    affordable,
    any_three,
    covers,
    only_way,
    payments,
    picked,
)
from karnak.games.egyptia.rules.state import EgyptiaState
from support.egyptia_positions import THREE_IN_GRAIN, TWO_EACH, new, roll, set_city, set_have

G, D, S, F = range(4)


def choose(state: EgyptiaState, column: int, seat: int = 0) -> None:
    state.apply(seat, Choose(column))


def texts(state: EgyptiaState, seat: int = 0) -> set[str]:
    return {a.to_text() for a in state.legal_actions(seat)}


# ------------------------------------------------------------------------------ market
def test_market_two_basic_for_one_other_basic() -> None:
    # a Mine costs 2 stone + 1 grain; with no grain, 2 diamonds stand in for it (the book)
    mine = (1, 0, 2, 0)
    assert covers(mine, (0, 2, 2, 0))
    assert (0, 2, 2, 0) in payments(mine, (0, 5, 5, 0))
    assert not covers(mine, (0, 1, 2, 0))  # one diamond is not enough for a grain


def test_market_three_basic_for_a_favor_and_a_favor_for_one_basic() -> None:
    assert covers((0, 0, 0, 1), (1, 1, 1, 0))
    assert not covers((0, 0, 0, 1), (1, 1, 0, 0))
    assert covers((1, 0, 0, 0), (0, 0, 0, 1))
    assert payments((0, 0, 0, 1), (0, 0, 3, 0)) == ((0, 0, 3, 0),)
    assert payments((1, 0, 0, 0), (0, 0, 0, 1)) == ((0, 0, 0, 1),)


def test_payments_are_minimal_and_cheapest_first() -> None:
    ways = payments((1, 0, 0, 0), (1, 2, 0, 1))
    assert ways[0] == (1, 0, 0, 0)  # paying in kind first
    assert set(ways) == {(1, 0, 0, 0), (0, 0, 0, 1), (0, 2, 0, 0)}
    for way in ways:  # nothing could be left out
        for i in range(4):
            if way[i]:
                less = list(way)
                less[i] -= 1
                assert not covers((1, 0, 0, 0), (less[0], less[1], less[2], less[3]))


def test_without_the_market_only_the_cost_itself_pays() -> None:
    assert payments((1, 0, 0, 0), (0, 5, 5, 5), market=False) == ()
    assert payments((1, 0, 0, 0), (1, 5, 5, 5), market=False) == ((1, 0, 0, 0),)
    assert not affordable((0, 0, 0, 1), (9, 9, 9, 0), market=False)


def test_frogs_take_any_three_resources() -> None:
    ways = any_three((1, 0, 0, 2))
    assert set(ways) == {(1, 0, 0, 2)}
    assert len(any_three((3, 3, 3, 3))) == 20


# ------------------------------------------------------------------------------ production
def test_production_is_the_dice_in_the_column_plus_productivity() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    state.productivity[0][G] = 2  # two fields built: +2 grain
    before = state.have(0)[G]
    choose(state, G)
    assert state.have(0)[G] == before + 3 + 2


def test_productivity_rises_one_step_a_building_up_to_four() -> None:
    state = new(1)
    state.productivity[0][S] = 3
    roll(state, {6: 5, 4: 1, 8: 1, 10: 1, 12: 1, 20: 1})  # the d6 (quarry) alone in stone
    set_have(state, 0, (5, 5, 0, 0))
    choose(state, S)
    assert state.stage[0] == "build"
    state.apply(0, Build("quarry", "C1"))
    if state.stage[0] == "build_pay":
        state.apply(0, Pay((2, 1, 0, 0)))
    assert state.productivity[0][S] == 4 and state.modifier(0, S) == 4
    state.productivity[0][S] = 4
    assert state.modifier(0, S) == 4  # the track stops at +4


def test_an_empty_column_produces_only_the_productivity_bonus() -> None:
    state = new(1)
    roll(state, TWO_EACH)  # nothing in favor
    state.productivity[0][G] = 1
    before = state.have(0)
    choose(state, F)
    assert state.have(0) == before
    assert texts(state) == {f"build mound {label}" for label in _empty_labels(state)} | {
        "ship 1",
        "ship 2",
        "ship 3",
    }


def _empty_labels(state: EgyptiaState, seat: int = 0) -> list[str]:
    return [state.sheet.hexes[i].label for i in state.empty_hexes(seat)]


# ------------------------------------------------------------------------------ plagues
def test_no_plague_with_two_dice_or_fewer() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    choose(state, D)  # obelisk and field: two dice
    assert state.stage[0] == "build"


def test_three_dice_bring_a_plague_among_those_the_builder_can_pay() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (0, 0, 0, 0))
    choose(state, G)  # three dice: 3 grain, and a plague
    assert state.have(0) == (3, 0, 0, 0)
    offered = texts(state)
    assert "plague locusts" in offered  # 2 of the 3 grain
    assert "plague blood" not in offered  # 2 diamonds would take 4 grain at the market
    assert "plague dust-storm" not in offered
    assert "plague flies" in offered  # 1 favor = 3 basic at the market
    assert "plague frogs" in offered  # any 3 resources
    assert {"plague pestilence", "plague death", "plague darkness", "plague boils"} <= offered
    assert {"plague hail-fire 1", "plague hail-fire 2", "plague hail-fire 3"} <= offered
    assert not any(t.startswith("build") for t in offered)  # the plague comes first
    with pytest.raises(IllegalActionError, match="cannot pay"):
        state.apply(0, Plague("blood"))


def test_a_plague_is_crossed_off_and_never_offered_again_but_death_is() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    state.apply(0, Plague("pestilence"))
    assert state.crossed[0] == ["pestilence"]
    state.apply(0, Build("mound", "C1"))
    state.apply(0, Gain((0, 0, 0, 1)))
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    assert "plague pestilence" not in texts(state)
    with pytest.raises(IllegalActionError, match="already crossed off"):
        state.apply(0, Plague("pestilence"))
    state.apply(0, Plague("death"))
    state.apply(0, Build("mound", "C2"))
    state.apply(0, Gain((2, 0, 0, 0)))
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    assert "plague death" in texts(state)
    assert state.deaths[0] == 1 and "death" not in state.crossed[0]


def test_locusts_paid_through_the_market_when_grain_is_short() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (0, 0, 0, 2))
    state.circled[0][G] = 0
    choose(state, G)  # 3 grain
    state.apply(0, Plague("locusts"))
    assert state.stage[0] == "plague_pay"
    ways = {a.to_text() for a in state.legal_actions(0) if isinstance(a, Pay)}
    assert ways == {"pay 2g", "pay 1g+1f", "pay 2f"}
    state.apply(0, Pay((1, 0, 0, 1)))
    assert state.have(0) == (2, 0, 0, 1)
    assert state.stage[0] == "build"


def test_death_forces_a_burial_mound_which_still_pays() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (9, 9, 9, 9))
    choose(state, G)
    state.apply(0, Plague("death"))
    assert {a.building for a in state.legal_actions(0) if isinstance(a, Build)} == {"mound"}
    with pytest.raises(IllegalActionError, match="Burial Mound"):
        state.apply(0, Build("pyramid", "C1"))
    state.apply(0, Build("mound", "A1"))  # a mound on a Sacred Site costs no favor
    before = state.have(0)
    state.apply(0, Gain((0, 1, 1, 0)))
    assert state.have(0) == (before[0], before[1] + 1, before[2] + 1, before[3])


def test_darkness_forbids_sacred_sites_and_the_market() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (0, 4, 4, 4))
    state.circled[0][G] = 0
    choose(state, G)  # +3 grain
    state.apply(0, Plague("darkness"))
    builds = [a for a in state.legal_actions(0) if isinstance(a, Build)]
    assert builds and not any(a.hex in ("A1", "A3", "E1", "E3") for a in builds)
    # a Pyramid (2 stone, 1 diamond, 1 grain) in kind is fine; the Mine is in kind too
    assert Build("pyramid", "C1") in builds
    state2 = new(1)
    roll(state2, THREE_IN_GRAIN)
    set_have(state2, 0, (0, 4, 4, 4))
    state2.circled[0][G] = 0
    state2.productivity[0][G] = 0
    choose(state2, G)
    state2.spent[0][G] = 3  # no grain left: a Quarry (2 grain + 1 diamond) needs the market
    state2.apply(0, Plague("darkness"))
    assert not any(isinstance(a, Build) and a.building == "quarry" for a in state2.legal_actions(0))


def test_darkness_cannot_be_chosen_when_only_sacred_sites_are_empty() -> None:
    state = new(1)
    layout = {h.label: "mound" for h in state.sheet.hexes if h.kind == "plain"}
    set_city(state, 0, layout)
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    assert "plague darkness" not in texts(state)
    assert "plague boils" in texts(state)


def test_boils_forbid_the_hexes_by_the_oasis() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    state.apply(0, Plague("boils"))
    hexes = {a.hex for a in state.legal_actions(0) if isinstance(a, Build)}
    assert hexes.isdisjoint({"B2", "B3", "C2", "C4", "D2", "D3"})
    assert "C1" in hexes


def test_hail_fire_loses_a_ship_without_its_resources() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    before = state.have(0)
    state.apply(0, Plague("hail-fire", 2))
    assert state.ships[0] == [0, 2, 0]
    assert state.have(0) == before
    assert UseShip(2) not in state.legal_actions(0)


def test_hail_fire_names_a_ship_that_exists() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    choose(state, G)
    with pytest.raises(IllegalActionError, match="ships are numbered 1 to 3"):
        state.apply(0, Plague("hail-fire", 9))


def test_the_round_is_told_in_plain_sentences() -> None:
    state = new(2)
    roll(state, TWO_EACH)
    state.apply(0, Choose(G))
    state.apply(1, Choose(S))
    for seat in range(2):
        state.apply(seat, Build("mound", "C1"))
        state.apply(seat, Gain((0, 0, 0, 1)))
    lines = state.log_lines(None)
    assert "Builder 1 takes the grain column (2 dice): 2 grain." in lines
    assert "Builder 1 builds a Burial Mound on C1; takes 1 favor for the Burial Mound." in lines
    assert "Round 1 ends: every city has 1 building." in lines


def test_frogs_take_three_resources_of_the_builders_choice() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (0, 1, 1, 1))
    choose(state, G)  # 3 grain more (+ productivity 0)
    state.apply(0, Plague("frogs"))
    assert state.stage[0] == "plague_pay"
    state.apply(0, Pay((0, 1, 1, 1)))
    assert state.have(0) == (3, 0, 0, 0)


# ------------------------------------------------------------------------------ building
def test_only_the_buildings_of_the_chosen_column_or_a_burial_mound() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (9, 9, 9, 9))
    choose(state, D)  # obelisk (d10) and field (d12)
    built = {a.building for a in state.legal_actions(0) if isinstance(a, Build)}
    assert built == {"obelisk", "field", "mound"}
    with pytest.raises(IllegalActionError, match="no die in your column"):
        state.apply(0, Build("pyramid", "C1"))
    with pytest.raises(IllegalActionError, match="Oasis"):
        state.apply(0, Build("field", "C3"))


def test_the_d20_builds_anything_for_one_favor_more() -> None:
    state = new(1)
    roll(state, THREE_IN_GRAIN)  # d20 alone in stone
    set_have(state, 0, (1, 1, 0, 1))  # a Field (1 stone, 1 diamond) + 1 favor; stone comes
    choose(state, S)  # +1 stone
    assert state.offered_buildings(0) == {b: True for b in state.sheet.costs}
    assert state.build_cost("field", state.sheet.by_label["C1"], True) == (0, 1, 1, 1)
    state.apply(0, Build("field", "C1"))
    assert state.have(0) == (1, 0, 0, 0)
    assert state.productivity[0][G] == 1


def test_a_building_of_its_own_die_pays_no_wild_surcharge() -> None:
    state = new(1)
    roll(state, {4: 3, 20: 13, 6: 1, 8: 1, 10: 1, 12: 1})  # pyramid d4 and d20 in stone
    choose(state, S)
    offered = state.offered_buildings(0)
    assert offered["pyramid"] is False and offered["mine"] is True


def test_a_sacred_site_costs_one_favor_more() -> None:
    state = new(1)
    roll(state, TWO_EACH)  # d4 (pyramid) and d6 (quarry) in grain
    set_have(state, 0, (0, 1, 2, 0))  # a pyramid: 2 stone, 1 diamond, 1 grain (from the roll)
    choose(state, G)  # +2 grain
    assert Build("pyramid", "C1") in state.legal_actions(0)
    assert Build("pyramid", "A1") not in state.legal_actions(0)  # no favor, nothing to trade
    assert state.build_cost("pyramid", state.sheet.by_label["A1"], False) == (1, 1, 2, 1)
    state2 = new(1)
    roll(state2, TWO_EACH)
    set_have(state2, 0, (0, 1, 2, 1))
    choose(state2, G)
    state2.apply(0, Build("pyramid", "A1"))
    if state2.stage[0] == "build_pay":
        state2.apply(0, Pay((1, 1, 2, 1)))
    assert state2.have(0) == (1, 0, 0, 0)


def test_building_on_a_taken_hex_is_refused_with_a_reason() -> None:
    state = new(1)
    set_city(state, 0, {"C1": "mine"})
    roll(state, TWO_EACH)
    choose(state, G)
    with pytest.raises(IllegalActionError, match="already built on"):
        state.apply(0, Build("mound", "C1"))
    with pytest.raises(IllegalActionError, match="no hex Z9"):
        state.apply(0, Build("mound", "Z9"))


# ------------------------------------------------------------------------------ ships
def test_each_ship_once_for_its_resources() -> None:
    state = new(1)
    before = state.have(0)
    state.apply(0, UseShip(1))
    assert state.have(0) == (before[0] + 2, before[1] + 1, before[2], before[3])
    with pytest.raises(IllegalActionError, match="already crossed off"):
        state.apply(0, UseShip(1))
    assert state.score_sheet(0)["ships_unused"] == 2


def test_a_builder_waiting_after_choosing_may_use_a_ship() -> None:
    """The book: a ship may be used at any point of the game, also while the builder waits
    for the others to choose. Nobody waits for it: the builder is not to move."""
    state = new(2)
    choose(state, G)
    assert state.to_move() == (1,)
    assert texts(state, 0) == {"ship 1", "ship 2", "ship 3"}
    before = state.have(0)
    state.apply(0, UseShip(2))  # 2 stone + 1 grain
    assert state.have(0) == (before[0] + 1, before[1], before[2] + 2, before[3])
    assert state.stage[0] == "chosen" and state.to_move() == (1,)
    with pytest.raises(
        IllegalActionError,
        match="chosen your column and wait for the others; meanwhile only a ship",
    ):
        state.apply(0, Choose(D))


def test_a_builder_done_with_the_round_may_use_a_ship_while_others_build() -> None:
    state = new(2)
    roll(state, TWO_EACH)
    choose(state, G)
    choose(state, G, seat=1)
    state.apply(0, Build("mound", "C1"))
    state.apply(0, Gain((0, 0, 0, 1)))
    assert state.stage[0] == "done" and state.to_move() == (1,)
    assert texts(state, 0) == {"ship 1", "ship 2", "ship 3"}
    state.apply(0, UseShip(3))
    assert state.ships[0] == [0, 0, 1] and not state.over and state.round == 1


def test_a_waiting_builders_ship_is_private_until_the_round_ends() -> None:
    """Before the reveal the others see only that the builder has chosen; after building,
    only that the builder is done: a ship used meanwhile changes none of their views (nor
    their logs) until the round's public moment, the reveal or the round's end."""
    a, b = new(3, seed=2), new(3, seed=2)
    for state in (a, b):
        roll(state, TWO_EACH)
        choose(state, G)
    a.apply(0, UseShip(1))
    assert a.private_step(0, b)
    for viewer in (1, 2):
        assert a.observation(viewer) == b.observation(viewer)
        assert a.log_lines(viewer) == b.log_lines(viewer)
    for state in (a, b):
        choose(state, D, seat=1)
        choose(state, S, seat=2)
    # the reveal publishes every sheet: now the ship shows
    assert a.observation(1)["players"][0]["sheet"] != b.observation(1)["players"][0]["sheet"]
    for state in (a, b):
        state.apply(0, Build("mound", "C1"))
        state.apply(0, Gain((0, 0, 0, 1)))
    seen = {viewer: (a.observation(viewer), a.log_lines(viewer)) for viewer in (1, 2)}
    before = a.clone()
    a.apply(0, UseShip(2))
    assert a.private_step(0, before)
    for viewer in (1, 2):
        assert (a.observation(viewer), a.log_lines(viewer)) == seen[viewer]


@pytest.mark.parametrize("when", ["after choosing", "after building"])
def test_a_red_dot_circled_by_a_waiting_builders_ship_ends_the_game_after_that_round(
    when: str,
) -> None:
    """Our ruling: a ship used while waiting belongs to the round under way, so a red dot it
    circles ends the game when that round is over, for everyone, as any red dot does."""
    state = new(2)
    state.circled[0][G] = 15  # dot 16 of 18; 17 and 18 are red
    roll(state, TWO_EACH)
    choose(state, F)
    if when == "after choosing":
        state.apply(0, UseShip(1))  # 2 grain: a red dot
        assert state.red[0] and state.to_move() == (1,)
    choose(state, F, seat=1)
    state.apply(0, Build("mound", "C1"))
    state.apply(0, Gain((0, 0, 0, 1)))
    if when == "after building":
        state.apply(0, UseShip(1))
        assert state.red[0]
    assert not state.over
    state.apply(1, Build("mound", "C1"))
    state.apply(1, Gain((0, 0, 0, 1)))
    assert state.over and state.round == 1
    assert any("circled a red dot" in line for line in state.log_lines(1))


def test_rules_version_1_0_offered_ships_only_at_the_builders_own_decisions() -> None:
    state = GAME.at_version("1.0").new_state(2, seed=0, options={"cards": "A2,B2,C3,D2,E3"})
    choose(state, G)
    assert state.legal_actions(0) == []
    with pytest.raises(IllegalActionError, match="not Builder 1's decision"):
        state.apply(0, UseShip(1))


# ------------------------------------------------------------------------------ the end
def play_round(state: EgyptiaState, column: int = F) -> None:
    """Every builder takes ``column`` and builds a Burial Mound for a favor."""
    for seat in range(state.n):
        state.apply(seat, Choose(column))
    for seat in range(state.n):
        if state.stage[seat] == "plague":
            state.apply(seat, Plague("death"))
        state.apply(seat, Build("mound", state.sheet.hexes[state.empty_hexes(seat)[0]].label))
        state.apply(seat, Gain((1, 1, 0, 0)))


def test_a_red_dot_ends_the_game_after_the_round_for_everyone() -> None:
    state = new(3)
    state.circled[1][G] = 15  # dot 16 of 18; 17 and 18 are red
    roll(state, TWO_EACH)
    state.apply(0, Choose(G))
    state.apply(1, Choose(G))  # +2 grain: dot 17 is red
    state.apply(2, Choose(D))
    assert state.red[1] and not state.over
    for seat in range(3):
        state.apply(seat, Build("mound", "C1"))
        assert not state.over or seat == 2
        state.apply(seat, Gain((0, 0, 0, 1)))
    assert state.over and state.final is not None
    assert state.round == 1


def test_a_red_dot_circled_by_a_ship_ends_the_game_too() -> None:
    state = new(1)
    state.circled[0][G] = 15
    state.apply(0, UseShip(1))  # 2 grain
    assert state.red[0]
    roll(state, TWO_EACH)
    choose(state, F)
    state.apply(0, Build("mound", "C1"))
    state.apply(0, Gain((0, 0, 0, 1)))
    assert state.over


def test_the_game_ends_when_the_maps_are_full_and_not_before() -> None:
    state = new(2)
    for _ in range(17):
        roll(state, TWO_EACH)
        play_round(state, F)
        state.circled[0] = [1, 1, 1, 1]
        state.circled[1] = [1, 1, 1, 1]
        state.spent[0] = [0, 0, 0, 0]
        state.spent[1] = [0, 0, 0, 0]
        assert not state.over
    roll(state, TWO_EACH)
    play_round(state, F)
    assert state.over and state.round == 18
    assert all(not state.empty_hexes(s) for s in range(2))


def test_what_does_not_fit_on_a_track_is_lost() -> None:
    state = new(1)
    state.circled[0][F] = 11
    state.apply(0, UseShip(3))  # 1 favor + 1 diamond
    assert state.circled[0][F] == 12
    state.circled[0][F] = 12
    roll(state, {4: 4, 6: 6, 8: 8, 10: 10, 12: 1, 20: 1})  # three favor dice
    choose(state, F)
    assert state.circled[0][F] == 12


def test_ties_fewest_plagues_then_most_favor_then_shared() -> None:
    state = new(2)
    for seat in range(2):
        set_city(state, seat, {"A1": "pyramid"})
        set_have(state, seat, (0, 0, 0, 1))
    assert state.scores()[0] == state.scores()[1]
    assert sorted(state.ranks()) == [1, 1]  # shared
    state.crossed[0].append("boils")
    assert state.ranks() == [2, 1]
    state.crossed[1].append("darkness")
    state.circled[1][F] = 0  # same points (0 favor points either way), less favor
    assert state.scores()[0] == state.scores()[1]
    assert state.ranks() == [1, 2]


# ------------------------------------------------------------------------------ sealed
def test_the_column_choice_is_sealed_until_all_have_chosen() -> None:
    a, b = new(3, seed=4), new(3, seed=4)
    a.apply(1, Choose(G))
    b.apply(1, Choose(S))
    assert a.observation(0) == b.observation(0)
    assert a.observation(2) == b.observation(2)
    assert a.log_lines(0) == b.log_lines(0)
    assert a.observation(1) != b.observation(1)
    for state in (a, b):
        state.apply(0, Choose(D))
        state.apply(2, Choose(D))
    assert a.observation(0)["players"][1]["column"] == "grain"


def test_the_steps_after_the_reveal_are_seen_at_the_end_of_the_round() -> None:
    a, b = new(2, seed=5), new(2, seed=5)
    for state in (a, b):
        roll(state, TWO_EACH)
        state.apply(0, Choose(G))
        state.apply(1, Choose(G))
    a.apply(1, Build("mound", "C1"))
    b.apply(1, Build("mound", "E2"))
    a.apply(1, Gain((2, 0, 0, 0)))
    b.apply(1, Gain((0, 0, 0, 1)))
    assert a.observation(0) == b.observation(0)
    assert a.log_lines(0) == b.log_lines(0)
    for state in (a, b):
        state.apply(0, Build("mound", "C1"))
        state.apply(0, Gain((2, 0, 0, 0)))
    assert a.observation(0)["players"][1]["sheet"]["city"] == {"C1": "mound"}
    assert b.observation(0)["players"][1]["sheet"]["city"] == {"E2": "mound"}


# ------------------------------------------------------------------------------ options
def test_the_cards_option_fixes_the_pharaoh_cards_and_others_are_drawn() -> None:
    assert new(1, cards="A2,B2,C3,D2,E3").cards == ["A2", "B2", "C3", "D2", "E3"]
    state = GAME.new_state(2, seed=9, options={"cards": "b3"})
    assert state.cards[1] == "B3" and [c[0] for c in state.cards] == list("ABCDE")
    with pytest.raises(InvalidOptionError, match="no Pharaoh card 'F1'"):
        GAME.new_state(1, options={"cards": "F1"})
    with pytest.raises(InvalidOptionError, match="two cards of letter A"):
        GAME.new_state(1, options={"cards": "A1,A2"})


def test_the_cards_drawn_depend_on_the_seed() -> None:
    draws = {tuple(GAME.new_state(1, seed=s).cards) for s in range(40)}
    assert len(draws) > 10


def test_player_counts() -> None:
    assert GAME.new_state(99).n == 99
    with pytest.raises(InvalidOptionError, match="1 to 99"):
        GAME.new_state(100)
    with pytest.raises(InvalidOptionError):
        GAME.new_state(0)


# ------------------------------------------------------------------------------ market oracle
SMALL = st.tuples(*(st.integers(0, 3) for _ in range(4)))
STOCK = st.tuples(*(st.integers(0, 7) for _ in range(4)))


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(SMALL, STOCK, st.booleans())
def test_every_listed_payment_covers_and_the_quick_check_agrees(
    cost: tuple[int, int, int, int], have: tuple[int, int, int, int], market: bool
) -> None:
    ways = payments(cost, have, market)
    assert affordable(cost, have, market) == bool(ways)
    if ways:  # the quick answer to "is there a single way?" agrees with the list
        assert only_way(cost, have, market) == (ways[0] if len(ways) == 1 else None)
    for way in ways:
        assert all(w <= h for w, h in zip(way, have, strict=True))
        assert covers(cost, way)
    if market:
        # brute force: every bundle within reach that covers the cost contains a listed one
        for g in range(have[0] + 1):
            for d in range(have[1] + 1):
                for s in range(have[2] + 1):
                    for f in range(have[3] + 1):
                        if covers(cost, (g, d, s, f)):
                            assert any(
                                all(w <= x for w, x in zip(way, (g, d, s, f), strict=True))
                                for way in ways
                            )


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(SMALL, STOCK)
def test_the_cost_tables_masks_pick_exactly_the_ways_listed_from_the_holding(
    cost: tuple[int, int, int, int], have: tuple[int, int, int, int]
) -> None:
    # payments() reads a holding's ways off its cost's table by bit mask; listing them
    # straight from the holding must give the same ways in the same order
    assert payments(cost, have) == market_listing(cost, have)


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.integers(0, (1 << 300) - 1))
def test_a_mask_picks_the_items_of_its_set_bits_in_order(mask: int) -> None:
    items = tuple(range(300))
    assert picked(items, mask) == [j for j in items if mask >> j & 1]


def test_a_mask_picks_across_bytes_and_nothing_from_zero() -> None:
    items = tuple("abcdefghijklmnopqrstuvwxyz")
    assert picked(items, 0) == []
    assert picked(items, (1 << 0) | (1 << 7) | (1 << 8) | (1 << 25)) == ["a", "h", "i", "z"]


def test_ship_moves_follow_each_sheet_however_they_are_asked() -> None:
    # The legal moves remember the last ship marks asked (the tables are shared by every
    # state and seat): sheets asked in turn, a ship used and marks set by hand must each
    # get their own ships.
    a, b = GAME.new_state(2, seed=5), GAME.new_state(2, seed=5)
    ships = {UseShip(1), UseShip(2), UseShip(3)}
    a.ships[0] = [1, 0, 0]
    for _ in range(2):
        assert ships - set(a.legal_actions(0)) == {UseShip(1)}
        assert ships <= set(b.legal_actions(0))
        assert ships <= set(a.legal_actions(1))
    a.apply(0, UseShip(3))
    assert ships - set(a.legal_actions(0)) == {UseShip(1), UseShip(3)}
    a.ships[0][0] = 0  # by hand, in place
    assert ships - set(a.legal_actions(0)) == {UseShip(3)}
    assert ships <= set(b.legal_actions(0))

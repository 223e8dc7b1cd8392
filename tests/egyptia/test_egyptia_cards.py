"""Every Pharaoh card scored on hand-built cities, and the rule book's end-game example.

Map of the shipped sheet (Sacred Sites *, Oasis O):

      A1* A2  A3*
    B1  B2  B3  B4
  C1  C2  O   C4  C5
    D1  D2  D3  D4
      E1* E2  E3*
"""

from __future__ import annotations

import pytest

from karnak.games.egyptia.rules.pharaoh import card_parts, most_fields_in_line, obelisk_groups
from karnak.games.egyptia.rules.sheet import default_sheet
from support.egyptia_positions import city, new, set_city, set_have

SHEET = default_sheet()


def parts(card: str, layout: dict[str, str]) -> list[int]:
    return card_parts(SHEET, SHEET.card(card), city(SHEET, layout))


def test_the_map_as_the_tests_assume_it() -> None:
    labels = [h.label for h in SHEET.hexes]
    assert labels[SHEET.oasis] == "C3"
    assert [h.label for h in SHEET.hexes if h.sacred] == ["A1", "A3", "E1", "E3"]
    around = sorted(labels[i] for i in SHEET.neighbours[SHEET.oasis])
    assert around == ["B2", "B3", "C2", "C4", "D2", "D3"]
    assert sorted(labels[i] for i in SHEET.neighbours[SHEET.by_label["A1"]]) == ["A2", "B1", "B2"]


def test_a1_pyramids_by_the_oasis() -> None:
    # B2 touches the Oasis, A1 and E2 do not
    assert parts("A1", {"B2": "pyramid", "A1": "pyramid", "E2": "pyramid"}) == [4, 5, 4]


def test_a2_pyramids_on_sacred_sites() -> None:
    assert parts("A2", {"A1": "pyramid", "B2": "pyramid", "E3": "pyramid"}) == [5, 4, 5]


def test_a3_pyramids_alone() -> None:
    # A1 and A2 touch each other; E3 stands alone
    assert parts("A3", {"A1": "pyramid", "A2": "pyramid", "E3": "pyramid"}) == [4, 4, 5]


def test_b1_quarry_next_to_a_pyramid_and_no_obelisk() -> None:
    layout = {
        "B1": "quarry",  # touches the pyramid on A1: scores
        "A1": "pyramid",
        "B3": "quarry",  # touches the pyramid on A3 but also the obelisk on B4: nothing
        "A3": "pyramid",
        "B4": "obelisk",
        "D1": "quarry",  # no pyramid: nothing
    }
    assert parts("B1", layout) == [3, 0, 0]


def test_b2_quarries_by_sacred_sites() -> None:
    # A2 touches A1 and A3 (two sites), B1 one site (A1), C2 none
    assert parts("B2", {"A2": "quarry", "B1": "quarry", "C2": "quarry"}) == [2, 3, 0]


def test_b3_quarry_among_production_buildings() -> None:
    layout = {
        "C2": "quarry",  # touches the mine on B1 and the field on D1 (and the quarry C1)
        "B1": "mine",
        "D1": "field",
        "C1": "quarry",  # touches C2 (quarry), B1 (mine), D1 (field)
        "E3": "quarry",  # touches nothing
        "D4": "pyramid",
    }
    assert parts("B3", layout) == [3, 3, 0]


def test_c1_mines_next_to_obelisks_and_pyramids() -> None:
    layout = {
        "B2": "mine",  # A1 pyramid and B3 obelisk: both
        "A1": "pyramid",
        "B3": "obelisk",
        "D4": "mine",  # E3 pyramid only: either
        "E3": "pyramid",
        "C1": "mine",  # nothing around
    }
    assert parts("C1", layout) == [3, 0, 2]  # map order: B2, C1, D4


def test_c2_remote_mines() -> None:
    # B2 touches the Oasis, A1 is a Sacred Site, C5 is neither
    assert parts("C2", {"A1": "mine", "B2": "mine", "C5": "mine"}) == [0, 0, 3]


def test_c3_mines_next_to_two_pyramids_share_the_pyramids() -> None:
    layout = {
        "E1": "pyramid",
        "E2": "pyramid",
        "E3": "pyramid",
        "D2": "mine",  # E1 and E2
        "D3": "mine",  # E2 and E3: E2 counts for both mines
        "D4": "mine",  # E3 only
    }
    assert parts("C3", layout) == [3, 3, 0]


def test_d1_largest_obelisk_group() -> None:
    layout = {"A1": "obelisk", "A2": "obelisk", "B2": "obelisk", "E3": "obelisk", "D3": "obelisk"}
    assert parts("D1", layout) == [4, 4, 4, 3, 3]
    groups = obelisk_groups(SHEET, city(SHEET, layout))
    assert [len(g) for g in groups] == [3, 2]


def test_d1_tied_groups_only_one_counts_as_largest() -> None:
    layout = {"A1": "obelisk", "A2": "obelisk", "E1": "obelisk", "E2": "obelisk"}
    assert sorted(parts("D1", layout)) == [3, 3, 4, 4]


def test_d2_obelisk_count_table() -> None:
    assert parts("D2", {}) == []
    assert parts("D2", {"A1": "obelisk"}) == [2]
    four = {"A1": "obelisk", "A3": "obelisk", "E1": "obelisk", "E3": "obelisk"}
    assert parts("D2", four) == [14]  # the book's example: 4 obelisks score 14


def test_d3_obelisks_away_from_pyramids() -> None:
    layout = {"A1": "obelisk", "A2": "pyramid", "E3": "obelisk"}
    assert parts("D3", layout) == [3, 4]


def test_e1_fields_count_each_adjacent_sacred_site() -> None:
    # A2 touches A1 and A3; E2 touches E1 and E3 (sites shared by several fields count again)
    layout = {"A2": "field", "E2": "field", "D1": "field", "C1": "field"}
    assert parts("E1", layout) == [2, 0, 1, 2]


def test_e2_fields_along_one_line() -> None:
    # C1, C2, C4 and C5 lie on the middle row (the Oasis between does not break the line)
    row = {"C1": "field", "C2": "field", "C4": "field", "C5": "field"}
    assert most_fields_in_line(SHEET, city(SHEET, row)) == 4
    assert parts("E2", row) == [10]
    # a diagonal: A1, B2, ... -> A1 (2,0), B2 (3,1), C3 is the Oasis, D4 (7,3)? no: D3 (5,3)
    diagonal = {"A1": "field", "B2": "field", "D3": "field", "E3": "field", "C1": "field"}
    assert most_fields_in_line(SHEET, city(SHEET, diagonal)) == 4
    assert parts("E2", {"C1": "field"}) == [1]
    assert parts("E2", {"C1": "field", "E3": "field"}) == [1]  # not on one line


def test_e3_fields_by_the_oasis_without_pyramids() -> None:
    layout = {"C4": "field", "B2": "field", "A1": "pyramid", "E1": "field"}
    # C4 by the Oasis, no pyramid: 3; B2 by the Oasis but touches the A1 pyramid: 0;
    # E1 not by the Oasis: 0
    assert parts("E3", layout) == [0, 3, 0]


@pytest.mark.parametrize("card", [c.id for c in SHEET.cards])
def test_every_card_scores_nothing_on_an_empty_city(card: str) -> None:
    assert sum(parts(card, {})) == 0


# ---------------------------------------------------------------------------------------
# The rule book's end-game example: A 24 (5+5+5+5+4), B 5 (3+2), C 6 (3+3+0), D 14 (four
# obelisks), E 3 (3+0), 1 for two unused favor, 2 for one unused ship, no pestilence: 55,
# a Standard builder in solo. Built on our reconstructed map.
BOOK_CITY = {
    "A1": "pyramid",
    "A3": "pyramid",
    "E1": "pyramid",
    "E3": "pyramid",
    "E2": "pyramid",  # the fifth, not on a Sacred Site
    "A2": "quarry",  # next to two Sacred Sites: 2
    "B1": "quarry",  # next to one: 3
    "D2": "mine",  # next to E1 and E2
    "D3": "mine",  # next to E2 and E3
    "C1": "mine",  # next to no pyramid
    "B2": "obelisk",
    "B3": "obelisk",
    "B4": "obelisk",
    "C2": "obelisk",
    "C4": "field",  # by the Oasis, no pyramid: 3
    "D4": "field",  # next to the E3 pyramid: 0
    "C5": "mound",
    "D1": "mound",
}


def test_the_rule_book_end_game_example_scores_55() -> None:
    state = new(1)
    set_city(state, 0, BOOK_CITY)
    set_have(state, 0, (1, 0, 1, 2))  # two unused favor, too few basic to trade for a third
    state.ships[0] = [1, 1, 0]  # one ship unused
    state._publish()
    result = state.score_sheet(0)
    by_card = {c["card"]: c for c in result["cards"]}
    assert by_card["A2"]["parts"] == [5, 5, 5, 4, 5]  # map order: A1 A3 E1 E2 E3
    assert sorted(by_card["A2"]["parts"], reverse=True) == [5, 5, 5, 5, 4]
    assert by_card["A2"]["points"] == 24
    assert sorted(by_card["B2"]["parts"]) == [2, 3]
    assert sorted(by_card["C3"]["parts"]) == [0, 3, 3]
    assert by_card["D2"]["points"] == 14
    assert sorted(by_card["E3"]["parts"]) == [0, 3]
    assert (result["favor_points"], result["ship_points"], result["pestilence"]) == (1, 2, 0)
    assert result["total"] == 55
    assert SHEET.rank(result["total"]) == "Standard"


def test_the_end_of_game_market_turns_three_basic_into_a_favor() -> None:
    state = new(1)
    set_have(state, 0, (2, 2, 2, 1))  # 6 basic -> 2 favor, 3 in all -> 1 point
    assert state.score_sheet(0)["favor"] == 3
    assert state.score_sheet(0)["favor_points"] == 1
    set_have(state, 0, (3, 0, 0, 1))  # 3 basic -> 1 favor: 2 favor -> 1 point
    assert state.score_sheet(0)["favor_points"] == 1
    set_have(state, 0, (2, 0, 0, 1))
    assert state.score_sheet(0)["favor_points"] == 0


def test_the_end_of_game_trade_stops_at_the_end_of_the_favor_track() -> None:
    """A trade circles favor on its track, so it cannot go past the track's last space:
    a full track of 12 stays 12, whatever basic is left (the cap production has too)."""
    state = new(1)
    full = SHEET.dots[3]
    set_have(state, 0, (9, 0, 0, full))  # every favor space circled, 9 basic left
    assert state.score_sheet(0)["favor"] == full
    set_have(state, 0, (9, 0, 0, full - 1))  # one space left: one trade
    assert state.score_sheet(0)["favor"] == full
    # Spent favor stays circled (scribbled out): it leaves no room for a trade either.
    state.circled[0] = [9, 0, 0, full]
    state.spent[0] = [0, 0, 0, 4]
    state._publish()
    assert state.score_sheet(0)["favor"] == full - 4
    # With room on the track every 3 basic still make a favor.
    set_have(state, 0, (9, 0, 0, full - 5))
    assert state.score_sheet(0)["favor"] == full - 2


def test_rules_version_1_0_let_the_trade_pass_the_end_of_the_favor_track() -> None:
    from karnak.games.egyptia import GAME

    state = GAME.at_version("1.0").new_state(1, seed=0, options={"cards": "A2,B2,C3,D2,E3"})
    set_have(state, 0, (9, 0, 0, SHEET.dots[3]))
    assert state.score_sheet(0)["favor"] == SHEET.dots[3] + 3


def test_pestilence_costs_two_points() -> None:
    state = new(1)
    set_city(state, 0, {"A1": "pyramid"})
    before = state.score_sheet(0)["total"]
    state.crossed[0].append("pestilence")
    assert state.score_sheet(0)["total"] == before - 2


@pytest.mark.parametrize(
    ("points", "rank"),
    [
        (0, "Apprentice"),
        (49, "Apprentice"),
        (50, "Standard"),
        (59, "Standard"),
        (60, "Skilled"),
        (64, "Skilled"),
        (65, "Master"),
        (69, "Master"),
        (70, "Legendary"),
        (95, "Legendary"),
    ],
)
def test_solo_ranks(points: int, rank: str) -> None:
    assert SHEET.rank(points) == rank


# ---------------------------------------------------------------------- one more building
def random_cities(count: int, seed: int) -> list[list[int]]:
    """Cities of every fullness: each buildable hex built with some chance, by any building
    (the Burial Mound included), the Oasis always empty."""
    from karnak.core.rng import Rng
    from karnak.games.egyptia.rules.pharaoh import EMPTY

    rng = Rng(seed)
    cities = []
    for k in range(count):
        fill = k % 10  # tenths of the hexes built
        plan = [EMPTY] * len(SHEET.hexes)
        for h in SHEET.buildable:
            if rng.below(10) < fill:
                plan[h] = rng.below(6)
        cities.append(plan)
    return cities


@pytest.mark.parametrize("card", [c.id for c in SHEET.cards])
def test_what_one_more_building_adds_is_the_full_scores_difference(card: str) -> None:
    """The engine's answer for one more building (``city_gains``, what the bots, the guide
    and the drawings read) equals scoring the city with and without it, for every building
    on every empty hex of many cities, card by card."""
    from karnak.games.egyptia.rules.pharaoh import EMPTY, card_points, city_gains

    scored = SHEET.card(card)
    for plan in random_cities(120, seed=sum(map(ord, card))):
        gains = city_gains(SHEET, [scored], plan)
        before = card_points(SHEET, scored, plan)
        for h in range(len(plan)):
            for b in range(6):
                if plan[h] != EMPTY or h not in SHEET.buildable:
                    assert gains[b][h] == 0
                    continue
                after = list(plan)
                after[h] = b
                assert gains[b][h] == card_points(SHEET, scored, after) - before, (card, h, b)


def test_the_gains_of_several_cards_add_up() -> None:
    from karnak.games.egyptia.rules.pharaoh import city_gains

    cards = [SHEET.card(c) for c in ("A3", "B1", "C2", "D1", "E2")]
    for plan in random_cities(30, seed=5):
        alone = [city_gains(SHEET, [card], plan) for card in cards]
        together = city_gains(SHEET, cards, plan)
        for b in range(6):
            for h in range(len(plan)):
                assert together[b][h] == sum(g[b][h] for g in alone)


def test_each_rule_declares_the_building_it_scores_and_what_it_reads() -> None:
    """A rule's parts are those of its own building; a rule scoring each building by its
    neighbourhood changes only when one of the buildings it reads arrives next to one."""
    from karnak.games.egyptia.rules.pharaoh import RULES, near_counts, places

    where = places(SHEET)
    for name, rule in RULES.items():
        assert name.startswith(("pyramid", "quarry", "mine", "obelisk", "field"))
        assert ("pyramid", "quarry", "mine", "obelisk", "field")[rule.kind] in name
        assert (rule.part is None) != (rule.whole is None)
        card = next(c for c in SHEET.cards if c.rule == name)
        if rule.part is None:
            continue
        for plan in random_cities(20, seed=len(name)):
            for i in range(len(plan)):
                near = near_counts(where, plan, i)
                base = rule.part(where, i, near, card.points)
                for b in range(6):
                    if b in rule.reads:
                        continue
                    near[b] += 1
                    assert rule.part(where, i, near, card.points) == base, (name, b)
                    near[b] -= 1

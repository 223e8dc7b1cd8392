"""The worked examples of the two Amun-Re rule books, replayed on the engine.

Each test rebuilds the position an example describes (through the ``scenario`` fixture of
conftest.py, which keeps gold, farmers, stones and power cards conserved) and checks every
figure the book states. Comments name the book and the example; the wording is ours.
"""

from __future__ import annotations

import pytest

from karnak.core.errors import IllegalActionError
from karnak.games.amunre.rules.actions import (
    Adjust,
    Bid,
    Builder,
    BuyCards,
    Done,
    EightGold,
    Farmer,
    FreeFarmer,
    Offer,
    PlayBonus,
    Stone,
    TakeCard,
    TakeFarmer,
    TakeStone,
)
from karnak.games.amunre.rules.board import CARD_KINDS
from karnak.games.amunre.rules.scoring import gold_ranking_points, score_kingdom

KIND = {kind: i for i, kind in enumerate(CARD_KINDS)}

# The 2003 book's colours, clockwise as its examples list them.
SEATS_2003 = ("Red", "Black", "Blue", "White")
RED, BLACK, BLUE, WHITE = range(4)

DONE = Done()


def cards(sc, seat):
    return sc.hand_of(seat)


# --------------------------------------------------------------------------- 2003, phase 2
def test_2003_bidding_example(scenario):
    """2003 book, phase 2: ABYDOS, SAWU, DAKHLA and BAHARYA are auctioned among four."""
    sc = scenario(SEATS_2003, start=RED)
    sc.stack("harvest_increase")  # the card that will lie face down on DAKHLA
    sc.auction("ABYDOS", "SAWU", "DAKHLA", "BAHARYA")
    s = sc.state
    abydos, sawu, dakhla, baharya = (sc.p(n) for n in ("ABYDOS", "SAWU", "DAKHLA", "BAHARYA"))

    # Free material: DAKHLA 12 gold and one face-down card, ABYDOS one stone, nothing else.
    assert s.free_gold[dakhla] == 12
    assert s.face_down[dakhla] == [KIND["harvest_increase"]]
    assert s.stones[abydos] == 1
    assert s.free_gold[abydos] == s.free_gold[sawu] == s.free_gold[baharya] == 0
    assert s.face_down[abydos] == s.face_down[sawu] == s.face_down[baharya] == []
    assert s.stones[sawu] == s.stones[baharya] == s.stones[dakhla] == 0
    assert s.phase == "auction" and s.current == RED

    # First time round the table.
    sc.play(RED, Bid("ABYDOS", 3))
    assert s.current == BLACK
    sc.play(BLACK, Bid("SAWU", 1))
    assert s.current == BLUE
    sc.play(BLUE, Bid("ABYDOS", 6))
    assert s.overbid[RED]
    assert s.current == WHITE
    sc.play(WHITE, Bid("ABYDOS", 10))
    assert s.overbid[RED] and s.overbid[BLUE] and not s.overbid[WHITE]

    # Second time round: red was overbid and must move.
    assert s.current == RED
    sc.play(RED, Bid("DAKHLA", 0))
    # Black was not overbid: his turn passes without a decision; blue must move.
    assert s.current == BLUE
    with pytest.raises(IllegalActionError):
        s.apply(BLACK, Bid("BAHARYA", 0))
    sc.play(BLUE, Bid("SAWU", 6))
    assert s.overbid[BLACK]

    # Third time round: white and red pass automatically, black moves.
    assert s.current == BLACK
    sc.play(BLACK, Bid("BAHARYA", 0))

    # One marker per card: the bidding is over.
    assert s.owner[abydos] == WHITE
    assert s.owner[sawu] == BLUE
    assert s.owner[dakhla] == RED
    assert s.owner[baharya] == BLACK
    # White pays 10, blue 6, red and black nothing; red adds DAKHLA's 12 gold.
    assert s.gold == [20 + 12, 20, 20 - 6, 20 - 10]
    assert s.free_gold[dakhla] == 0
    # DAKHLA's face-down card goes to red's hand, ABYDOS's stone stays in the province.
    assert cards(sc, RED) == {"builder": 1, "harvest_increase": 1}
    assert s.face_down[dakhla] == []
    assert s.stones[abydos] == 1
    assert s.stone_supply == 14
    # The province cards are off the board and the market begins with the start player.
    assert s.on_auction == []
    assert s.phase == "market"
    assert s.start == RED and s.current == RED


# --------------------------------------------------------------------------- 2003, phase 3
def test_2003_purchase_of_cards_farmers_and_stones_costs_19(scenario):
    """2003 book, phase 3 price example: 2 power cards (3) + 4 farmers (10) + 3 stones (6)."""
    sc = scenario(SEATS_2003, start=RED)
    # MEMPHIS lets red buy up to 3 cards (book, action a); BUTO has room for 4 farmers.
    sc.own(RED, "MEMPHIS", "BUTO")
    sc.stack("card_bonus", "farmer_bonus")
    sc.market()
    s = sc.state
    assert s.current == RED

    sc.play(RED, BuyCards(2))
    assert s.gold[RED] == 20 - 3
    assert cards(sc, RED) == {"builder": 1, "card_bonus": 1, "farmer_bonus": 1}
    for _ in range(4):
        sc.play(RED, Farmer("BUTO"))
    assert s.gold[RED] == 20 - 3 - 10
    for _ in range(3):
        sc.play(RED, Stone("MEMPHIS"))
    assert s.gold[RED] == 20 - 19

    buto, memphis = sc.p("BUTO"), sc.p("MEMPHIS")
    assert s.field_farmers[buto] == 4
    assert s.pyramids[memphis] == 1 and s.stones[memphis] == 0
    assert s.stone_supply == 15
    sc.play(RED, DONE)
    assert s.current == BLACK


def test_2003_farmers_go_on_empty_fields_only(scenario):
    """2003 book, action b: red with BAHARYA (2 printed farmers, 2 fields) and BERENIKE."""
    sc = scenario(SEATS_2003, start=RED)
    sc.own(RED, "BAHARYA", "BERENIKE")
    sc.market()
    s = sc.state
    baharya, berenike = sc.p("BAHARYA"), sc.p("BERENIKE")

    # BERENIKE has no farm at all: no farmer can be bought for it.
    assert Farmer("BERENIKE") not in s.legal_actions(RED)
    with pytest.raises(IllegalActionError, match="BERENIKE has no empty field"):
        s.apply(RED, Farmer("BERENIKE"))

    sc.play(RED, Farmer("BAHARYA"))
    sc.play(RED, Farmer("BAHARYA"))
    assert s.gold[RED] == 20 - 3
    assert s.field_farmers[baharya] == 2
    assert s.field_farmers[berenike] == 0
    # Both farms of BAHARYA are now taken: no further farmer anywhere.
    assert not any(isinstance(a, Farmer) for a in s.legal_actions(RED))
    with pytest.raises(IllegalActionError, match="BAHARYA has no empty field"):
        s.apply(RED, Farmer("BAHARYA"))
    # Printed farmers plus the two bought ones work BAHARYA.
    assert s.farmers(baharya) == 4


@pytest.mark.parametrize("province", ["BERENIKE", "BAHARYA"])
def test_2003_free_farmer_goes_on_flat_land(scenario, province):
    """2003 book, action b: the free farmer card puts a farmer in BERENIKE or BAHARYA."""
    sc = scenario(SEATS_2003, start=RED)
    sc.own(RED, "BAHARYA", "BERENIKE")
    sc.give(RED, "free_farmer")
    sc.market()
    s = sc.state
    # BAHARYA's fields are full first, to show the free farmer does not need one.
    sc.play(RED, Farmer("BAHARYA"))
    sc.play(RED, Farmer("BAHARYA"))
    supply = s.farmer_supply
    sc.play(RED, FreeFarmer(province))
    assert s.free_farmers[sc.p(province)] == 1
    assert s.farmer_supply == supply - 1
    assert s.gold[RED] == 20 - 3  # the free farmer costs nothing
    assert s.hand[RED][KIND["free_farmer"]] == 0
    assert s.discard[KIND["free_farmer"]] == 1


@pytest.mark.parametrize(("bought", "income"), [(0, 2 * 2), (2, 4 * 2)])
def test_2003_baharya_printed_farmers_earn(scenario, bought, income):
    """BAHARYA's two printed farmers are farmers at harvest (RULINGS 9)."""
    sc = scenario(SEATS_2003, start=RED)
    sc.own(RED, "BAHARYA")
    sc.farmers("BAHARYA", bought)
    sc.state.temple = 2
    assert sc.state.income(RED) == income
    sc.harvest(2)
    sc.done_all("harvest")
    assert sc.state.gold[RED] == 20 + income


def test_2003_stones_become_pyramids(scenario):
    """2003 book, action c: 3 stones for 6 gold complete pyramids in MEMPHIS and MENDES."""
    sc = scenario(SEATS_2003, start=RED)
    sc.own(RED, "MEMPHIS", "MENDES")
    sc.stones("MEMPHIS", 2)
    sc.pyramids("MENDES", 1)
    sc.stones("MENDES", 1)
    sc.market()
    s = sc.state
    memphis, mendes = sc.p("MEMPHIS"), sc.p("MENDES")
    assert s.stone_supply == 12

    sc.play(RED, Stone("MEMPHIS"))
    assert s.pyramids[memphis] == 1 and s.stones[memphis] == 0
    sc.play(RED, Stone("MENDES"))
    assert s.pyramids[mendes] == 1 and s.stones[mendes] == 2
    sc.play(RED, Stone("MENDES"))
    assert s.pyramids[mendes] == 2 and s.stones[mendes] == 0  # the double pyramid
    assert s.gold[RED] == 20 - 6
    assert s.stone_supply == 15  # all six stones went back to the supply

    # The double pyramid counts as two pyramids at scoring.
    lines = score_kingdom(
        s.board, s.n, s.owner, s.pyramids, s.stones, s.field_farmers, s.free_farmers, 0,
        [0] * s.n, None,
    )  # fmt: skip
    assert lines[RED].pyramids == 3


# --------------------------------------------------------------------------- 2003, phase 4
def test_2003_offering_of_7(scenario):
    """2003 book, phase 4: red 9, blue 4, black and white the -3 card; total 7 -> space 2."""
    sc = scenario(SEATS_2003, start=BLACK)
    sc.stack("card_bonus", "farmer_bonus", "egypt_bonus", "side_bonus", "bank_bonus")
    sc.offering()
    s = sc.state
    assert set(s.to_move()) == {RED, BLACK, BLUE, WHITE}
    sc.play(RED, Offer(gold=9))
    sc.play(BLUE, Offer(gold=4))
    sc.play(BLACK, Offer(theft=True))
    assert s.phase == "offering"  # sealed until the last one commits
    sc.play(WHITE, Offer(theft=True))

    assert s.offering_total == 7
    assert s.temple == 2
    # Offered gold goes to the bank; each thief takes 3 gold.
    assert s.gold == [20 - 9, 20 + 3, 20 - 4, 20 + 3]
    # Rewards: red (highest) 3 items, then blue 2 items; the thieves none.
    assert s.phase == "rewards" and s.current == RED
    for _ in range(3):
        with pytest.raises(IllegalActionError):
            s.apply(BLACK, TakeCard())
        sc.play(RED, TakeCard())
    assert s.current == BLUE
    sc.play(BLUE, TakeCard())
    sc.play(BLUE, TakeCard())
    assert s.phase != "rewards"
    assert cards(sc, RED) == {"builder": 1, "card_bonus": 1, "farmer_bonus": 1, "egypt_bonus": 1}
    assert cards(sc, BLUE) == {"builder": 1, "side_bonus": 1, "bank_bonus": 1}
    assert cards(sc, BLACK) == {"builder": 1}
    assert cards(sc, WHITE) == {"builder": 1}
    # Red made the highest offer: red is the new start player.
    assert s.start == RED


@pytest.mark.parametrize(
    ("total", "space"),
    [
        *[(-12, 1), (-1, 1), (0, 1), (1, 1), (2, 1)],
        *[(3, 2), (7, 2), (12, 2)],
        *[(13, 3), (22, 3)],
        *[(23, 4), (24, 4), (60, 4)],
    ],
)
def test_temple_track_boundaries(scenario, total, space):
    """2003 book, phase 4 track: <=2 -> 1, 3..12 -> 2, 13..22 -> 3, >=23 -> 4."""
    board = scenario(SEATS_2003).state.board
    assert board.temple_space(total) == space


@pytest.mark.parametrize(
    ("offers", "total", "space"),
    [
        ((None, None, None, None), -12, 1),
        ((1, 1, 3, None), 2, 1),
        ((1, 1, 4, None), 3, 2),
        ((5, 5, 5, None), 12, 2),
        ((5, 5, 6, None), 13, 3),
        ((10, 10, 5, None), 22, 3),
        ((10, 10, 2, 1), 23, 4),
    ],
)
def test_temple_track_boundaries_played(scenario, offers, total, space):
    """The same boundaries reached by real offerings (None is the -3 card)."""
    sc = scenario(SEATS_2003, start=BLUE)
    sc.offering()
    for seat, gold in enumerate(offers):
        sc.play(seat, Offer(theft=True) if gold is None else Offer(gold=gold))
    assert sc.state.offering_total == total
    assert sc.state.temple == space
    if all(g is None for g in offers):
        # Nobody offered gold: nobody is rewarded and the start player stays (RULINGS 8).
        assert sc.state.start == BLUE
        assert sc.state.phase != "rewards"


# --------------------------------------------------------------------------- 2003, phase 5
def test_2003_harvest_of_17(scenario):
    """2003 book, phase 5: temple on 2; red has MEMPHIS (1 farmer), ABU (2) and SAWU."""
    sc = scenario(SEATS_2003, start=RED)
    sc.own(RED, "MEMPHIS", "ABU", "SAWU")
    sc.farmers("MEMPHIS", 1)
    sc.farmers("ABU", 2)
    sc.state.temple = 2
    assert sc.state.income(RED) == 2 + (4 + 4) + 7
    sc.harvest(2)
    sc.done_all("harvest")
    assert sc.state.gold[RED] == 20 + 17
    assert sc.state.gold[BLACK] == sc.state.gold[BLUE] == sc.state.gold[WHITE] == 20


# --------------------------------------------------------------------------- 2003, phase 6
def test_2003_two_complete_sets_are_worth_6(scenario):
    """2003 book, scoring item 2: every pyramid in each of the 3 provinces is one set."""
    sc = scenario(SEATS_2003)
    s = sc.state
    sc.own(RED, "MEMPHIS", "AVARIS", "MENDES")
    sc.pyramids("MEMPHIS", 2)
    sc.pyramids("AVARIS", 3)
    sc.pyramids("MENDES", 2)
    lines = score_kingdom(
        s.board, s.n, s.owner, s.pyramids, s.stones, s.field_farmers, s.free_farmers, 1,
        [0] * s.n, None,
    )  # fmt: skip
    assert lines[RED].complete_sets == 6
    assert lines[RED].pyramids == 7
    # A province without a pyramid means no complete set at all.
    sc.pyramids("MENDES", 0)
    lines = score_kingdom(
        s.board, s.n, s.owner, s.pyramids, s.stones, s.field_farmers, s.free_farmers, 1,
        [0] * s.n, None,
    )  # fmt: skip
    assert lines[RED].complete_sets == 0


def _old_kingdom_position(sc):
    """Every seat holds 3 provinces, as at the end of round 3 of the 2003 examples."""
    # Red: two complete sets, but never the most pyramids on a side.
    sc.own(RED, "MEMPHIS", "AVARIS", "MENDES")
    sc.pyramids("MEMPHIS", 2)
    sc.pyramids("AVARIS", 2)
    sc.pyramids("MENDES", 2)
    # Blue: EDFU leads the west; ABU ties BERENIKE (white) in the east on pyramids and stones.
    sc.own(BLUE, "EDFU", "ABU", "BUTO")
    sc.pyramids("EDFU", 3)
    sc.pyramids("ABU", 2)
    sc.stones("ABU", 1)
    sc.own(WHITE, "BERENIKE", "THEBES", "KHARGA")
    sc.pyramids("BERENIKE", 2)
    sc.stones("BERENIKE", 1)
    # Black: DAMANHUR with its 2 temples.
    sc.own(BLACK, "DAMANHUR", "SAWU", "DAKHLA")
    # An unowned province with more pyramids than anyone's does not count.
    sc.pyramids("BAHARYA", 5)


def test_2003_old_kingdom_scoring_lines(scenario):
    """2003 book, scoring items 3 and 4: Nile sides (blue 10, white 5), DAMANHUR temples 6."""
    sc = scenario(SEATS_2003)
    _old_kingdom_position(sc)
    s = sc.state
    lines = score_kingdom(
        s.board, s.n, s.owner, s.pyramids, s.stones, s.field_farmers, s.free_farmers, 3,
        [0] * s.n, None,
    )  # fmt: skip
    assert lines[BLUE].nile_west + lines[BLUE].nile_east == 10
    assert lines[WHITE].nile_west == 0 and lines[WHITE].nile_east == 5
    assert lines[RED].nile_west == lines[RED].nile_east == 0
    assert lines[BLACK].temples == 6
    assert lines[RED].complete_sets == 6


def test_2003_old_kingdom_scoring_played(scenario):
    """The same position scored by the engine at the end of round 3, temple on space 3."""
    sc = scenario(SEATS_2003)
    _old_kingdom_position(sc)
    s = sc.state
    sc.farmers("EDFU", 1)
    sc.scoring(3, 3)
    # Seats holding cards are asked; none holds a playable bonus card, all answer done.
    for seat in range(4):
        assert not any(a.kind == "bonus" for a in s.legal_actions(seat))
    sc.done_all("scoring")
    assert len(s.scorings) == 1
    red, black, blue, white = s.scorings[0]
    assert red == {
        "pyramids": 6, "complete_sets": 6, "nile_west": 0, "nile_east": 0, "temples": 0,
        "bonus_cards": 0, "gold_ranking": 0, "total": 12,
    }  # fmt: skip
    assert blue == {
        "pyramids": 5, "complete_sets": 0, "nile_west": 5, "nile_east": 5, "temples": 3,
        "bonus_cards": 0, "gold_ranking": 0, "total": 18,
    }  # fmt: skip
    assert white == {
        "pyramids": 2, "complete_sets": 0, "nile_west": 0, "nile_east": 5, "temples": 0,
        "bonus_cards": 0, "gold_ranking": 0, "total": 7,
    }  # fmt: skip
    assert black == {
        "pyramids": 0, "complete_sets": 0, "nile_west": 0, "nile_east": 0, "temples": 6,
        "bonus_cards": 0, "gold_ranking": 0, "total": 6,
    }  # fmt: skip
    assert s.score == [12, 6, 18, 7]
    # No gold ranking in the old kingdom; the new kingdom has begun.
    assert s.round == 4 and s.phase == "auction"


def test_2003_final_score_of_27(scenario):
    """2003 book, scoring example at the game's end: blue scores 27."""
    sc = scenario(SEATS_2003, start=RED)
    s = sc.state
    board = s.board
    # Blue's provinces: EDFU (west, 1 temple), ABU and BERENIKE (east).
    blue_provinces = ("EDFU", "ABU", "BERENIKE")
    # Preconditions taken from the board data for the two bonus cards blue plays.
    assert {board.province(n).half for n in blue_provinces} == {"upper"}, "board data changed"
    assert board.province("EDFU").side == "west" and board.province("EDFU").temples == 1
    assert {board.province(n).side for n in ("ABU", "BERENIKE")} == {"east"}
    sc.own(BLUE, *blue_provinces)
    sc.pyramids("EDFU", 3)
    sc.pyramids("ABU", 3)
    sc.pyramids("BERENIKE", 1)  # 7 pyramids, one complete set
    on_fields = 0
    for name in blue_provinces:
        sc.farmers(name, board.province(name).fields)
        on_fields += board.province(name).fields + board.province(name).printed_farmers
    sc.free_farmers("BERENIKE", max(0, 9 - on_fields))  # 9 farmers for the farmer bonus
    sc.set_hand(BLUE, ["farmer_bonus", "egypt_bonus"])
    # The others: fewer pyramids per side, more gold.
    sc.own(RED, "MEMPHIS", "AVARIS", "BAHARYA")
    sc.pyramids("MEMPHIS", 2)
    sc.pyramids("AVARIS", 1)
    sc.own(BLACK, "DAMANHUR", "SAWU", "DAKHLA")
    sc.own(WHITE, "THEBES", "KHARGA", "MENDES")
    sc.pyramids("THEBES", 2)
    sc.set_gold(RED, 40)
    sc.set_gold(BLACK, 30)
    sc.set_gold(WHITE, 20)
    sc.set_gold(BLUE, 3)

    sc.scoring(6, 1)
    assert s.phase == "scoring"
    while s.phase == "scoring":
        seat = s.current
        if seat == BLUE and s.playable_bonus(BLUE):
            sc.play(BLUE, s.legal_actions(BLUE)[0])
        else:
            sc.play(seat, DONE)
        if seat == BLUE:
            assert PlayBonus("farmer_bonus") not in s.legal_actions(BLUE)
    assert s.phase == "over"
    red, black, blue, white = s.scorings[-1]
    assert blue == {
        "pyramids": 7, "complete_sets": 3, "nile_west": 5, "nile_east": 5, "temples": 1,
        "bonus_cards": 6, "gold_ranking": 0, "total": 27,
    }  # fmt: skip
    assert s.score[BLUE] == 27
    # Gold ranking: red 6, black 4, white 2, blue (least) 0.
    assert (red["gold_ranking"], black["gold_ranking"], white["gold_ranking"]) == (6, 4, 2)
    assert blue["gold_ranking"] == 0
    assert s.winners() == [BLUE]
    assert sc.hand_of(BLUE) == {}  # played bonus cards are discarded


@pytest.mark.parametrize(
    ("gold", "points"),
    [
        ([30, 30, 20, 10], [6, 6, 2, 0]),  # the book's example: two richest tie
        ([30, 20, 10, 5], [6, 4, 2, 0]),
        ([30, 30, 30, 10], [6, 6, 6, 0]),
        ([30, 20, 20, 10], [6, 4, 4, 0]),
        ([30, 20, 10, 10], [6, 4, 2, 2]),
        ([10, 10, 10, 10], [6, 6, 6, 6]),
        ([50, 40, 40, 40, 1], [6, 4, 4, 4, 0]),
        ([40, 30, 20, 10, 0], [6, 4, 2, 0, 0]),
        ([40, 40, 20, 20, 0], [6, 6, 2, 2, 0]),
        ([5, 5, 0], [6, 6, 2]),
    ],
)
def test_gold_ranking_ties(scenario, gold, points):
    """2003 book, scoring item 6: tied players take their rank's points, the next rank goes."""
    board = scenario(SEATS_2003).state.board
    assert gold_ranking_points(board, gold) == points


def test_gold_ranking_tie_played(scenario):
    """Two tied richest players get 6 each and the next 2, at the real final scoring."""
    sc = scenario(SEATS_2003, start=RED)
    for seat in range(4):
        sc.set_hand(seat, [])
    for seat, gold in enumerate([30, 30, 20, 10]):
        sc.set_gold(seat, gold)
    sc.scoring(6, 1)
    assert sc.state.phase == "over"
    assert [line["gold_ranking"] for line in sc.state.scorings[-1]] == [6, 6, 2, 0]


# --------------------------------------------------------------------------- 2016 book
SEATS_2016_GAME = ("Bernard", "Charles", "Arnaud", "Alexandre")
BERNARD, CHARLES, ARNAUD, ALEXANDRE = range(4)


def test_2016_first_round(scenario):
    """2016 book, example of the beginning of a game: the whole first round."""
    sc = scenario(SEATS_2016_GAME, edition="2016", start=BERNARD)
    s = sc.state
    # The deck yields, in order: Buto's face-down card (Arnaud's Offering Adjustment),
    # Thebes's two, Bernard's two bought cards, Alexandre's bought Treasury, then the three
    # reward cards of Arnaud, Bernard and Charles. None of the others is a harvest card.
    sc.stack(
        "correction", "blockade", "overbid", "card_bonus", "farmer_bonus", "eight_gold",
        "egypt_bonus", "side_bonus", "bank_bonus",
    )  # fmt: skip
    sc.auction("THEBES", "AVARIS", "BUTO", "MENDES")
    thebes, avaris, buto, mendes = (sc.p(n) for n in ("THEBES", "AVARIS", "BUTO", "MENDES"))
    assert len(s.face_down[thebes]) == 2 and len(s.face_down[buto]) == 1

    # Auction.
    sc.play(BERNARD, Bid("THEBES", 6))
    sc.play(CHARLES, Bid("BUTO", 0))
    sc.play(ARNAUD, Bid("BUTO", 3))
    sc.play(ALEXANDRE, Bid("MENDES", 3))
    assert s.current == CHARLES  # Bernard is not outbid and passes
    assert Bid("BUTO", 6) not in s.legal_actions(CHARLES)
    sc.play(CHARLES, Bid("MENDES", 6))
    assert s.current == ALEXANDRE
    sc.play(ALEXANDRE, Bid("AVARIS", 0))
    assert s.phase == "market"
    assert [s.owner[p] for p in (thebes, mendes, buto, avaris)] == [0, 1, 2, 3]
    assert s.gold == [14, 14, 17, 20]
    assert cards(sc, BERNARD) == {"blockade": 1, "overbid": 1, "builder": 1}
    assert cards(sc, ARNAUD) == {"correction": 1, "builder": 1}

    # Market: Bernard, 2 cards (3) + 3 farmers (6) + 1 stone (1) = 10.
    assert s.current == BERNARD
    sc.play(BERNARD, BuyCards(2))
    for _ in range(3):
        sc.play(BERNARD, Farmer("THEBES"))
    sc.play(BERNARD, Stone("THEBES"))
    assert s.gold[BERNARD] == 14 - 10
    assert s.field_farmers[thebes] == 3 and s.stones[thebes] == 1
    sc.play(BERNARD, DONE)

    # Charles: no card symbol in MENDES; 4 farmers (10) + 2 stones (3), then his Architect.
    assert s.current == CHARLES
    assert not any(isinstance(a, BuyCards) for a in s.legal_actions(CHARLES))
    for _ in range(4):
        sc.play(CHARLES, Farmer("MENDES"))
    sc.play(CHARLES, Stone("MENDES"))
    sc.play(CHARLES, Stone("MENDES"))
    sc.play(CHARLES, Builder("MENDES"))
    assert s.gold[CHARLES] == 14 - 13
    assert s.pyramids[mendes] == 1 and s.stones[mendes] == 0
    assert s.field_farmers[mendes] == 4
    sc.play(CHARLES, DONE)

    # Arnaud: 3 farmers (6) + 3 stones (6) = 12 and a pyramid in BUTO.
    assert s.current == ARNAUD
    assert not any(isinstance(a, BuyCards) for a in s.legal_actions(ARNAUD))
    for _ in range(3):
        sc.play(ARNAUD, Farmer("BUTO"))
    for _ in range(3):
        sc.play(ARNAUD, Stone("BUTO"))
    assert s.gold[ARNAUD] == 17 - 12
    assert s.pyramids[buto] == 1 and s.stones[buto] == 0
    sc.play(ARNAUD, DONE)

    # Alexandre: 1 card (1) + 1 farmer (1) + 5 stones (15) = 17; two pyramids in AVARIS.
    assert s.current == ALEXANDRE
    sc.play(ALEXANDRE, BuyCards(1))
    assert s.hand[ALEXANDRE][KIND["eight_gold"]] == 1
    sc.play(ALEXANDRE, Farmer("AVARIS"))
    for _ in range(5):
        sc.play(ALEXANDRE, Stone("AVARIS"))
    assert s.pyramids[avaris] == 1 and s.stones[avaris] == 2
    sc.play(ALEXANDRE, Builder("AVARIS"))
    assert s.pyramids[avaris] == 2 and s.stones[avaris] == 0
    assert s.gold[ALEXANDRE] == 20 - 17
    sc.play(ALEXANDRE, DONE)
    assert s.phase == "offering"
    assert s.gold == [4, 1, 5, 3]

    # The book's offers (Bernard 5, Charles 2, Arnaud 6) are each one gold more than its own
    # bids and purchases leave them (4, 1 and 5). We grant that gold from the bank so the
    # offering can be played exactly as printed.
    sc.set_gold(BERNARD, 5)
    sc.set_gold(CHARLES, 2)
    sc.set_gold(ARNAUD, 6)

    # Offering: 5 + 2 + 6 - 3 = 10, then one adjustment of +3 -> 13 -> the 13-22 tile.
    sc.play(BERNARD, Offer(gold=5))
    sc.play(CHARLES, Offer(gold=2))
    sc.play(ARNAUD, Offer(gold=6, correction=True))
    sc.play(ALEXANDRE, Offer(theft=True))
    assert s.offering_total == 10
    # The book has Charles use the adjustment card that Arnaud revealed; by our rules
    # (RULINGS 7) the player who included the card, Arnaud, makes the adjustment.
    assert s.phase == "adjust" and s.current == ARNAUD
    with pytest.raises(IllegalActionError):
        s.apply(CHARLES, Adjust(3))
    sc.play(ARNAUD, Adjust(3))
    assert s.offering_total == 13
    assert s.temple == 3
    assert s.gold == [0, 0, 0, 3 + 3]

    # Rewards: Arnaud 3 (1 card + 2 farmers into BUTO), Bernard 2 (1 card + 1 stone on
    # THEBES), Charles 1 card, Alexandre nothing.
    assert s.phase == "rewards" and s.current == ARNAUD
    sc.play(ARNAUD, TakeCard())
    sc.play(ARNAUD, TakeFarmer("BUTO"))
    sc.play(ARNAUD, TakeFarmer("BUTO"))
    assert s.field_farmers[buto] == 5
    assert s.current == BERNARD
    sc.play(BERNARD, TakeCard())
    sc.play(BERNARD, TakeStone("THEBES"))
    assert s.stones[thebes] == 2
    assert s.current == CHARLES
    sc.play(CHARLES, TakeCard())
    assert s.start == ARNAUD

    # Harvest (3 gold a farmer, no camel), in the new order Arnaud, Alexandre, Bernard, Charles.
    # Arnaud collects 5 farmers x 3 = 15 gold. Alexandre holds a Treasury card.
    assert s.phase == "harvest" and s.current == ARNAUD
    sc.play(ARNAUD, "done")
    assert s.gold[ARNAUD] == 15
    assert s.current == ALEXANDRE
    sc.play(ALEXANDRE, EightGold("AVARIS"))
    sc.done_all("harvest")
    assert s.gold[ALEXANDRE] == 6 + 8
    assert s.gold[BERNARD] == 9
    assert s.gold[CHARLES] == 12
    assert s.hand[ALEXANDRE][KIND["eight_gold"]] == 0

    # Round 2: Arnaud is the start player.
    assert s.round == 2 and s.phase == "auction" and s.start == ARNAUD
    assert cards(sc, ARNAUD) == {"builder": 1, "egypt_bonus": 1}
    assert cards(sc, BERNARD) == {
        "blockade": 1, "overbid": 1, "builder": 1, "card_bonus": 1, "farmer_bonus": 1,
        "side_bonus": 1,
    }  # fmt: skip
    assert cards(sc, CHARLES) == {"bank_bonus": 1}
    assert cards(sc, ALEXANDRE) == {}


SEATS_2016_3 = ("Seb", "Arnaud", "Charles")
SEB, ARNAUD3, CHARLES3 = range(3)


def test_2016_auction_example(scenario):
    """2016 book, auction phase example: Thebes, Dakhla and Abydos among three players."""
    sc = scenario(SEATS_2016_3, edition="2016", start=SEB)
    s = sc.state
    sc.stack("card_bonus", "farmer_bonus", "egypt_bonus")  # Dakhla's card, then Thebes's two
    sc.auction("THEBES", "DAKHLA", "ABYDOS")
    thebes, dakhla, abydos = sc.p("THEBES"), sc.p("DAKHLA"), sc.p("ABYDOS")

    sc.play(SEB, Bid("DAKHLA", 10))
    sc.play(ARNAUD3, Bid("THEBES", 3))
    sc.play(CHARLES3, Bid("THEBES", 6))
    # Seb is not outbid: she passes automatically. Arnaud must leave Thebes.
    assert s.current == ARNAUD3
    assert not any(isinstance(a, Bid) and a.province == "THEBES" for a in s.legal_actions(ARNAUD3))
    sc.play(ARNAUD3, Bid("ABYDOS", 0))

    assert s.phase == "market"
    assert s.owner[dakhla] == SEB and s.owner[abydos] == ARNAUD3 and s.owner[thebes] == CHARLES3
    assert s.gold == [20 - 10 + 12, 20, 20 - 6]
    assert cards(sc, SEB) == {"builder": 1, "card_bonus": 1}
    assert s.stones[abydos] == 1
    assert cards(sc, ARNAUD3) == {"builder": 1}
    assert cards(sc, CHARLES3) == {"builder": 1, "farmer_bonus": 1, "egypt_bonus": 1}


SEATS_2016_OFFER = ("Arnaud", "Charles", "Seb")
ARNAUD_O, CHARLES_O, SEB_O = range(3)


def test_2016_offering_example(scenario):
    """2016 book, offering example: Arnaud 6, Charles 6, Seb theft; the tie goes to Arnaud."""
    sc = scenario(SEATS_2016_OFFER, edition="2016", start=ARNAUD_O)
    s = sc.state
    sc.own(ARNAUD_O, "THEBES")
    sc.own(CHARLES_O, "MENDES")
    sc.stack("card_bonus", "farmer_bonus", "egypt_bonus")
    sc.offering()
    sc.play(CHARLES_O, Offer(gold=6))
    sc.play(SEB_O, Offer(theft=True))
    sc.play(ARNAUD_O, Offer(gold=6))

    assert s.offering_total == 9 and s.temple == 2
    assert s.gold == [14, 14, 23]
    # The tie at 6 goes to Arnaud, earlier in turn order: 3 rewards.
    assert s.phase == "rewards" and s.current == ARNAUD_O
    for _ in range(3):
        sc.play(ARNAUD_O, TakeCard())
    assert s.current == CHARLES_O
    sc.play(CHARLES_O, TakeStone("MENDES"))
    sc.play(CHARLES_O, TakeFarmer("MENDES"))
    assert s.phase != "rewards"
    mendes = sc.p("MENDES")
    assert s.stones[mendes] == 1 and s.field_farmers[mendes] == 1
    assert cards(sc, ARNAUD_O) == {
        "builder": 1, "card_bonus": 1, "farmer_bonus": 1, "egypt_bonus": 1,
    }  # fmt: skip
    assert cards(sc, SEB_O) == {"builder": 1}
    assert s.start == ARNAUD_O

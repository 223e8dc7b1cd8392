"""Rules that the worked examples imply, each pinned down on its own.

Sources: the 2003 book (default rules), the 2016 book, and RULINGS.md where a ruling decides.
"""

from __future__ import annotations

import random

import pytest

from karnak.core.errors import IllegalActionError
from karnak.games.amunre import GAME
from karnak.games.amunre.rules.actions import (
    Adjust,
    Bid,
    Builder,
    BuyCards,
    Done,
    EightGold,
    Farmer,
    FreeFarmer,
    HarvestIncrease,
    Offer,
    PlayBonus,
    Sell,
    Stone,
    TakeCard,
    TakeFarmer,
    TakeStone,
)
from karnak.games.amunre.rules.board import CARD_KINDS

KIND = {kind: i for i, kind in enumerate(CARD_KINDS)}
SEATS = ("Red", "Black", "Blue", "White")
RED, BLACK, BLUE, WHITE = range(4)
DONE = Done()
FOUR = ("ABYDOS", "SAWU", "DAKHLA", "BAHARYA")


def bids(state, seat):
    return [a for a in state.legal_actions(seat) if isinstance(a, Bid)]


def unchanged_after_illegal(state, seat, action, *fragments):
    """Apply an illegal action: it raises, says why, lists the legal moves, changes nothing."""
    before = state.to_json()
    legal = [a.to_text() for a in state.legal_actions(seat)]
    with pytest.raises(IllegalActionError) as info:
        state.apply(seat, action)
    message = str(info.value)
    for fragment in fragments:
        assert fragment in message, message
    assert state.to_json() == before
    return info.value, legal


# --------------------------------------------------------------------------- bidding
def test_bid_must_be_above_every_marker_on_the_card(scenario):
    sc = scenario(SEATS, start=RED)
    sc.auction(*FOUR)
    s = sc.state
    sc.play(RED, Bid("ABYDOS", 3))
    for amount in (0, 1, 3):
        assert Bid("ABYDOS", amount) not in s.legal_actions(BLACK)
    # any higher space, not only the next one (RULINGS 4)
    for amount in (6, 10, 15):
        assert Bid("ABYDOS", amount) in s.legal_actions(BLACK)
    sc.play(BLACK, Bid("ABYDOS", 6))
    # two markers on the card now: a bid must beat the higher one
    for amount in (0, 1, 3, 6):
        assert Bid("ABYDOS", amount) not in s.legal_actions(BLUE)
    assert Bid("ABYDOS", 10) in s.legal_actions(BLUE)
    # an empty card takes any bid, 0 included
    assert Bid("SAWU", 0) in s.legal_actions(BLUE)


def test_overbid_player_must_leave_the_card_without_the_overbid_card(scenario):
    sc = scenario(SEATS, start=RED)
    sc.auction(*FOUR)
    s = sc.state
    sc.play(RED, Bid("ABYDOS", 3))
    sc.play(BLACK, Bid("SAWU", 1))
    sc.play(BLUE, Bid("ABYDOS", 6))
    sc.play(WHITE, Bid("DAKHLA", 0))
    assert s.current == RED and s.overbid[RED]
    assert not any(b.province == "ABYDOS" for b in bids(s, RED))
    unchanged_after_illegal(s, RED, Bid("ABYDOS", 10), "overbid on ABYDOS")
    unchanged_after_illegal(s, RED, Bid("ABYDOS", 10, overbid=True), "no overbid")


def test_overbid_card_allows_a_higher_bid_on_the_same_card(scenario):
    sc = scenario(SEATS, start=RED)
    sc.give(RED, "overbid")
    sc.auction(*FOUR)
    s = sc.state
    sc.play(RED, Bid("ABYDOS", 3))
    sc.play(BLACK, Bid("SAWU", 1))
    sc.play(BLUE, Bid("ABYDOS", 6))
    sc.play(WHITE, Bid("DAKHLA", 0))
    assert s.current == RED
    # still above every other marker on the card
    assert Bid("ABYDOS", 6, overbid=True) not in s.legal_actions(RED)
    assert Bid("ABYDOS", 10) not in s.legal_actions(RED)
    sc.play(RED, Bid("ABYDOS", 10, overbid=True))
    assert s.hand[RED][KIND["overbid"]] == 0
    assert s.overbid[BLUE] and not s.overbid[RED]
    assert s.current == BLUE


def test_bidding_blockade_skips_a_space_and_follows_its_owner(scenario):
    sc = scenario(SEATS, start=RED)
    sc.give(RED, "blockade")
    sc.give(BLUE, "overbid")
    sc.auction(*FOUR)
    s = sc.state
    sc.play(RED, Bid("ABYDOS", 3, blockade=True))
    assert s.hand[RED][KIND["blockade"]] == 0
    # 6 is the next space above red's 3: the blockade makes it unavailable
    unchanged_after_illegal(s, BLACK, Bid("ABYDOS", 6), "at least 10")
    assert Bid("ABYDOS", 10) in s.legal_actions(BLACK)
    sc.play(BLACK, Bid("ABYDOS", 10))
    sc.play(BLUE, Bid("SAWU", 0))
    sc.play(WHITE, Bid("DAKHLA", 0))
    # red moves to SAWU; the blockade moves with the marker
    assert s.current == RED
    sc.play(RED, Bid("SAWU", 1))
    assert s.current == BLUE  # black is not overbid and passes
    assert Bid("SAWU", 3, overbid=True) not in s.legal_actions(BLUE)
    assert Bid("SAWU", 6) not in s.legal_actions(BLUE)  # needs the overbid card here
    assert Bid("SAWU", 6, overbid=True) in s.legal_actions(BLUE)
    # elsewhere the blockade does not apply
    assert Bid("BAHARYA", 0) in s.legal_actions(BLUE)
    sc.play(BLUE, Bid("SAWU", 6, overbid=True))
    assert s.overbid[RED]


def test_overbid_player_may_return_to_an_earlier_card(scenario):
    """2016 book: only the card one was just outbid on is closed, not earlier ones."""
    sc = scenario(SEATS, start=RED)
    sc.auction(*FOUR)
    s = sc.state
    sc.play(RED, Bid("ABYDOS", 0))
    sc.play(BLACK, Bid("SAWU", 0))
    sc.play(BLUE, Bid("ABYDOS", 1))
    sc.play(WHITE, Bid("DAKHLA", 0))
    sc.play(RED, Bid("SAWU", 1))
    sc.play(BLACK, Bid("DAKHLA", 1))
    sc.play(WHITE, Bid("SAWU", 3))
    assert s.current == RED  # blue passes; red is outbid on SAWU
    assert not any(b.province == "SAWU" for b in bids(s, RED))
    assert Bid("ABYDOS", 3) in s.legal_actions(RED)
    sc.play(RED, Bid("ABYDOS", 3))
    assert s.overbid[BLUE]


def test_no_bid_above_ones_gold(scenario):
    sc = scenario(SEATS, start=RED)
    sc.set_gold(RED, 5)
    sc.set_gold(BLACK, 0)
    sc.auction(*FOUR)
    s = sc.state
    assert max(b.amount for b in bids(s, RED)) == 3
    unchanged_after_illegal(s, RED, Bid("ABYDOS", 6), "only 5 gold")
    sc.play(RED, Bid("ABYDOS", 3))
    # with no gold, only 0 bids on empty cards remain
    assert {b.amount for b in bids(s, BLACK)} == {0}
    assert {b.province for b in bids(s, BLACK)} == {"SAWU", "DAKHLA", "BAHARYA"}


def test_bidding_ends_only_with_one_marker_per_card_and_winners_pay(scenario):
    sc = scenario(SEATS, start=BLUE)
    sc.auction(*FOUR)
    s = sc.state
    for seat, province in zip((BLUE, WHITE, RED, BLACK), FOUR, strict=True):
        assert s.phase == "auction" and s.current == seat
        sc.play(seat, Bid(province, 1))
    assert s.phase == "market" and s.current == BLUE
    assert s.gold == [19 + 12, 19, 19, 19]  # red's DAKHLA brings 12 free gold


# --------------------------------------------------------------------------- offering
def test_player_without_gold_must_offer_the_theft_card(scenario):
    sc = scenario(SEATS, start=RED)
    sc.set_hand(RED, [])
    sc.set_gold(RED, 0)
    sc.offering()
    s = sc.state
    assert s.legal_actions(RED) == [Offer(theft=True)]
    unchanged_after_illegal(s, RED, Offer(gold=1), "only 0 gold")


def test_selling_a_card_during_the_offering_gives_gold_to_offer(scenario):
    sc = scenario(SEATS, start=RED)
    sc.set_gold(RED, 0)
    sc.offering()
    s = sc.state
    assert Offer(gold=1) not in s.legal_actions(RED)
    sc.play(RED, Sell("builder"))
    assert s.gold[RED] == 1
    assert Offer(gold=1) in s.legal_actions(RED)


def test_theft_card_is_played_alone(scenario):
    sc = scenario(SEATS, start=RED)
    sc.give(RED, "correction")
    sc.offering()
    s = sc.state
    unchanged_after_illegal(s, RED, Offer(gold=5, theft=True), "alone")
    # the only companion allowed is a correction card
    assert Offer(theft=True, correction=True) in s.legal_actions(RED)


def test_correction_changes_the_total_not_the_offer(scenario):
    sc = scenario(SEATS, start=RED)
    sc.give(RED, "correction")
    sc.offering()
    s = sc.state
    sc.play(RED, Offer(gold=1, correction=True))
    sc.play(BLACK, Offer(gold=1))
    sc.play(BLUE, Offer(gold=2))
    sc.play(WHITE, Offer(gold=1))
    assert s.offering_total == 5
    assert s.phase == "adjust" and s.current == RED
    assert set(s.legal_actions(RED)) >= {Adjust(3), Adjust(-3)}
    sc.play(RED, Adjust(-3))
    assert s.offering_total == 2 and s.temple == 1
    assert s.hand[RED][KIND["correction"]] == 0
    # Blue's 2 beats red's 1: the correction card did not add to red's offer.
    assert s.phase == "rewards" and s.current == BLUE
    order = []
    while s.phase == "rewards":
        seat = s.current
        order.append(seat)
        sc.play(seat, TakeCard())
    assert order == [BLUE, BLUE, BLUE, RED, RED, BLACK, WHITE]
    assert s.start == BLUE


def test_corrections_are_made_in_turn_order(scenario):
    sc = scenario(SEATS, start=BLACK)
    sc.give(RED, "correction")
    sc.give(WHITE, "correction")
    sc.offering()
    s = sc.state
    sc.play(RED, Offer(gold=4, correction=True))
    sc.play(BLACK, Offer(gold=4))
    sc.play(BLUE, Offer(gold=4))
    sc.play(WHITE, Offer(gold=1, correction=True))
    assert s.offering_total == 13
    # turn order from black: black, blue, white, red
    assert s.current == WHITE
    sc.play(WHITE, Adjust(-3))
    assert s.offering_total == 10 and s.current == RED
    sc.play(RED, Adjust(3))
    assert s.offering_total == 13 and s.temple == 3


def test_reward_rules(scenario):
    """Rewards ignore the card limit; farmers need an empty field; no builder or free farmer."""
    sc = scenario(SEATS, start=RED)
    sc.own(BLUE, "BUTO", "BERENIKE")  # BUTO's card limit is 0
    sc.give(BLUE, "free_farmer")
    sc.stones("BUTO", 2)
    sc.offering()
    s = sc.state
    sc.play(RED, Offer(gold=1))
    sc.play(BLACK, Offer(gold=1))
    sc.play(BLUE, Offer(gold=9))
    sc.play(WHITE, Offer(gold=1))
    assert s.current == BLUE
    legal = s.legal_actions(BLUE)
    assert TakeCard() in legal
    assert TakeFarmer("BUTO") in legal and TakeFarmer("BERENIKE") not in legal
    assert not any(isinstance(a, Builder | FreeFarmer) for a in legal)
    unchanged_after_illegal(s, BLUE, TakeFarmer("BERENIKE"), "BERENIKE has no empty field")
    unchanged_after_illegal(s, BLUE, Builder("BUTO"))
    sc.play(BLUE, TakeCard())
    sc.play(BLUE, TakeCard())
    sc.play(BLUE, TakeStone("BUTO"))  # the third stone makes a pyramid at once
    buto = sc.p("BUTO")
    assert s.pyramids[buto] == 1 and s.stones[buto] == 0
    assert sum(s.hand[BLUE]) == 4  # builder, free farmer and two reward cards
    assert s.current == RED


def _rewards_with_offers(scenario, version=None):
    """Red starts; Red offers 1, Black 2, Blue 9, White 5; each owns a province. One stone
    is left in the supply."""
    sc = scenario(SEATS, start=RED)
    if version is not None:
        sc.state.game = GAME.at_version(version)
    s = sc.state
    names = s.board.province_names
    for seat, name in zip((RED, BLACK, BLUE, WHITE), names[-4:], strict=True):
        sc.own(seat, name)
    for name in names[:7]:
        sc.stones(name, 2)
    assert s.stone_supply == 1
    sc.offering()
    for seat, gold in ((RED, 1), (BLACK, 2), (BLUE, 9), (WHITE, 5)):
        sc.play(seat, Offer(gold=gold))
    return sc


def _take_stones(sc):
    """The leaders take cards; the others want the last stone. Who took what, in order
    (a seat that found no stone left is shown as ``-seat - 1``)."""
    s = sc.state
    takers = []
    while s.phase == "rewards":
        seat = s.current
        own = s.board.province_names[s.own[seat][0]]
        if seat in (BLUE, WHITE):
            sc.play(seat, TakeCard())
            takers.append(seat)
        elif TakeStone(own) in s.legal_actions(seat):
            sc.play(seat, TakeStone(own))
            takers.append(seat)
        else:
            assert not any(isinstance(a, TakeStone) for a in s.legal_actions(seat))
            takers.append(-seat - 1)  # asked, but no stone is left
            sc.play(seat, TakeCard())
    return takers


def test_rewards_past_the_second_go_in_turn_order_not_by_offer(scenario):
    """RULINGS 8: the two highest offers take 3 and 2 items; every other non-thief takes one
    in turn order from the start player (Red before Black, although Black offered more), which
    decides who gets the last stone."""
    sc = _rewards_with_offers(scenario)
    assert _take_stones(sc) == [BLUE, BLUE, BLUE, WHITE, WHITE, RED, -BLACK - 1]
    assert sc.state.start == BLUE


def test_rules_version_1_0_gave_the_single_rewards_by_offer_size(scenario):
    """A game of rules version 1.0 keeps the order it was played with."""
    sc = _rewards_with_offers(scenario, version="1.0")
    assert _take_stones(sc) == [BLUE, BLUE, BLUE, WHITE, WHITE, BLACK, -RED - 1]


def test_single_rewards_follow_turn_order_from_the_start_player(scenario):
    """With Blue starting, turn order is Blue, White, Red, Black. Red and Black lead; Blue
    and White then take their single items in turn order, although White offered more."""
    sc = scenario(SEATS, start=BLUE)
    sc.offering()
    s = sc.state
    for seat, gold in ((BLUE, 1), (WHITE, 2), (RED, 7), (BLACK, 6)):
        sc.play(seat, Offer(gold=gold))
    order = []
    while s.phase == "rewards":
        order.append(s.current)
        sc.play(s.current, TakeCard())
    assert order == [RED, RED, RED, BLACK, BLACK, BLUE, WHITE]


# --------------------------------------------------------------------------- market
def test_card_limit_is_the_highest_among_own_provinces(scenario):
    """2003 book, action a: MEMPHIS+AMARNA+AVARIS -> 3 cards; BUTO+MENDES -> none."""
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "AMARNA", "AVARIS")
    sc.own(BLACK, "THEBES", "ABYDOS")  # two provinces of limit 2: still 2, not 4
    sc.own(BLUE, "BUTO", "MENDES")
    sc.market()
    s = sc.state
    assert {a.count for a in s.legal_actions(RED) if isinstance(a, BuyCards)} == {1, 2, 3}
    unchanged_after_illegal(s, RED, BuyCards(4), "at most 3")
    sc.play(RED, DONE)
    board = s.board
    assert board.province("THEBES").card_limit == board.province("ABYDOS").card_limit == 2
    assert {a.count for a in s.legal_actions(BLACK) if isinstance(a, BuyCards)} == {1, 2}
    sc.play(BLACK, DONE)
    assert not any(isinstance(a, BuyCards) for a in s.legal_actions(BLUE))
    unchanged_after_illegal(s, BLUE, BuyCards(1), "at most 0")


def test_market_order_cards_then_farmers_then_stones(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "MENDES")
    sc.market()
    s = sc.state
    sc.play(RED, BuyCards(1))
    # cards are bought once per turn
    assert not any(isinstance(a, BuyCards) for a in s.legal_actions(RED))
    sc.play(RED, Farmer("MENDES"))
    sc.play(RED, Stone("MEMPHIS"))
    # after a stone, no farmer
    assert not any(isinstance(a, Farmer) for a in s.legal_actions(RED))
    unchanged_after_illegal(s, RED, Farmer("MENDES"), "farmers come before stones")
    unchanged_after_illegal(s, RED, BuyCards(1), "power cards come first")
    # each stone of the same purchase costs one more: 1, then 2
    gold = s.gold[RED]
    sc.play(RED, Stone("MENDES"))
    assert s.gold[RED] == gold - 2
    assert s.gold[RED] == 20 - 1 - 1 - 1 - 2


def test_after_a_farmer_no_cards(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS")
    sc.market()
    s = sc.state
    sc.play(RED, Farmer("MEMPHIS"))
    assert not any(isinstance(a, BuyCards) for a in s.legal_actions(RED))
    unchanged_after_illegal(s, RED, BuyCards(1), "power cards come first")


def test_purchases_are_limited_by_gold(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "MENDES")
    sc.set_gold(RED, 3)
    sc.market()
    s = sc.state
    assert {a.count for a in s.legal_actions(RED) if isinstance(a, BuyCards)} == {1, 2}
    sc.play(RED, Farmer("MENDES"))
    sc.play(RED, Farmer("MENDES"))
    assert s.gold[RED] == 0
    assert not any(isinstance(a, Farmer | Stone) for a in s.legal_actions(RED))


def test_selling_a_card_gives_one_gold(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS")
    sc.market()
    s = sc.state
    discarded = s.discard[KIND["builder"]]
    sc.play(RED, Sell("builder"))
    assert s.gold[RED] == 21
    assert s.hand[RED][KIND["builder"]] == 0
    assert s.discard[KIND["builder"]] == discarded + 1
    unchanged_after_illegal(s, RED, Sell("builder"), "no builder")


def test_selling_during_the_auction(scenario):
    sc = scenario(SEATS, start=RED)
    sc.set_gold(RED, 5)
    sc.auction(*FOUR)
    s = sc.state
    assert Bid("ABYDOS", 6) not in s.legal_actions(RED)
    sc.play(RED, Sell("builder"))
    assert s.current == RED  # selling is not a bid
    assert Bid("ABYDOS", 6) in s.legal_actions(RED)


def test_builder_needs_two_stones_and_the_second_builder_is_refused(scenario):
    """2003 book, power cards: blue builds in ABU with the builder and may not play another."""
    sc = scenario(SEATS, start=BLUE)
    sc.own(BLUE, "ABU", "EDFU", "MEMPHIS")
    sc.give(BLUE, "builder")
    sc.stones("ABU", 2)
    sc.stones("EDFU", 2)
    sc.stones("MEMPHIS", 1)
    sc.market()
    s = sc.state
    assert s.hand[BLUE][KIND["builder"]] == 2
    unchanged_after_illegal(s, BLUE, Builder("MEMPHIS"), "needs 2 stones")
    sc.play(BLUE, Builder("ABU"))
    abu = sc.p("ABU")
    assert s.pyramids[abu] == 1 and s.stones[abu] == 0 and s.stone_supply == 15 - 3
    assert s.hand[BLUE][KIND["builder"]] == 1
    unchanged_after_illegal(s, BLUE, Builder("EDFU"), "already played a builder")
    assert Builder("ABU") not in s.legal_actions(BLUE)


def test_second_free_farmer_is_refused(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "BERENIKE")
    sc.give(RED, "free_farmer", "free_farmer")
    sc.market()
    s = sc.state
    sc.play(RED, FreeFarmer("BERENIKE"))
    assert not any(isinstance(a, FreeFarmer) for a in s.legal_actions(RED))
    unchanged_after_illegal(s, RED, FreeFarmer("BERENIKE"))


def test_cards_can_be_played_again_in_the_next_phase_of_their_kind(scenario):
    """The one-of-a-kind limit is per phase: a builder may be played again next round."""
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "ABU", "EDFU")
    sc.give(RED, "builder")
    sc.stones("ABU", 2)
    sc.stones("EDFU", 2)
    sc.market()
    s = sc.state
    sc.play(RED, Builder("ABU"))
    for seat in (RED, BLACK, BLUE, WHITE):
        sc.play(seat, DONE)
    assert s.phase == "offering"
    # Play on to the next round's market: everyone offers 1, takes card rewards, collects,
    # and bids 0 on a card nobody has bid on.
    for seat in range(4):
        sc.play(seat, Offer(gold=1))
    while s.phase != "market":
        seat = s.current
        if s.phase == "rewards":
            sc.play(seat, TakeCard())
        elif s.phase == "auction":
            taken = {s.bid_prov[m] for m in range(4)}
            free = next(p for p in s.on_auction if p not in taken)
            sc.play(seat, Bid(sc.name(free), 0))
        else:
            sc.play(seat, DONE)
    assert s.round == 2
    while s.current != RED:
        sc.play(s.current, DONE)
    assert s.hand[RED][KIND["builder"]] >= 1
    assert Builder("EDFU") in s.legal_actions(RED)


# --------------------------------------------------------------------------- harvest
def test_eight_gold_replaces_all_income_of_the_province(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "ABU", "MEMPHIS")
    sc.farmers("ABU", 3)
    sc.farmers("MEMPHIS", 2)
    sc.give(RED, "eight_gold")
    s = sc.state
    s.temple = 4
    assert s.income(RED) == (3 * 4 + 4) + 2 * 4
    sc.harvest(4)
    assert s.phase == "harvest" and s.current == RED
    sc.play(RED, EightGold("ABU"))
    sc.done_all("harvest")
    # ABU pays 8 instead of 16; MEMPHIS pays as usual
    assert s.gold[RED] == 20 + 8 + 8
    assert s.hand[RED][KIND["eight_gold"]] == 0


def test_eight_gold_on_a_province_without_income(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "SAWU")
    sc.give(RED, "eight_gold")
    sc.harvest(3)  # no caravan on space 3: SAWU would pay nothing
    sc.play(RED, EightGold("SAWU"))
    sc.done_all("harvest")
    assert sc.state.gold[RED] == 28


def test_harvest_increase_adds_one_per_farmer(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "BAHARYA")
    sc.farmers("MEMPHIS", 3)
    sc.give(RED, "harvest_increase")
    sc.harvest(2)
    s = sc.state
    assert s.current == RED
    sc.play(RED, HarvestIncrease("MEMPHIS"))
    sc.done_all("harvest")
    assert s.gold[RED] == 20 + 3 * (2 + 1) + 2 * 2


def test_harvest_increase_counts_printed_farmers(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "BAHARYA")
    sc.give(RED, "harvest_increase")
    sc.harvest(2)
    sc.play(RED, HarvestIncrease("BAHARYA"))
    sc.done_all("harvest")
    assert sc.state.gold[RED] == 20 + 2 * 3


def test_harvest_increase_may_go_on_a_province_without_farmers(scenario):
    """RULINGS 9: the card is laid on any own province; without farmers it adds nothing."""
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "ABU")
    sc.farmers("MEMPHIS", 3)
    sc.give(RED, "harvest_increase", "eight_gold")
    sc.harvest(2)
    s = sc.state
    legal = s.legal_actions(RED)
    assert HarvestIncrease("ABU") in legal and HarvestIncrease("MEMPHIS") in legal
    assert EightGold("ABU") in legal and EightGold("MEMPHIS") in legal
    income = s.income(RED)
    sc.play(RED, HarvestIncrease("ABU"))
    assert s.income(RED) == income  # nothing to increase there
    assert EightGold("ABU") not in s.legal_actions(RED)  # not both on one province
    sc.done_all("harvest")
    assert s.gold[RED] == 20 + income


def test_rules_version_1_0_offered_the_harvest_increase_only_where_farmers_are(scenario):
    sc = scenario(SEATS, start=RED)
    sc.state.game = GAME.at_version("1.0")
    sc.own(RED, "MEMPHIS", "ABU")
    sc.farmers("MEMPHIS", 3)
    sc.give(RED, "harvest_increase")
    sc.harvest(2)
    legal = sc.state.legal_actions(RED)
    assert HarvestIncrease("MEMPHIS") in legal and HarvestIncrease("ABU") not in legal


def test_eight_gold_and_harvest_increase_on_different_provinces(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "MENDES")
    sc.farmers("MEMPHIS", 3)
    sc.farmers("MENDES", 4)
    sc.give(RED, "eight_gold", "harvest_increase")
    sc.harvest(1)
    s = sc.state
    sc.play(RED, HarvestIncrease("MENDES"))
    assert EightGold("MENDES") not in s.legal_actions(RED)
    sc.play(RED, EightGold("MEMPHIS"))
    sc.done_all("harvest")
    assert s.gold[RED] == 20 + 8 + 4 * 2


@pytest.mark.parametrize("temple", [1, 2, 3, 4])
@pytest.mark.parametrize(("province", "caravan"), [("KHARGA", 5), ("SAWU", 7), ("AVARIS", 8)])
def test_caravans_pay_only_on_spaces_one_and_two(scenario, temple, province, caravan):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, province)
    sc.harvest(temple)
    sc.done_all("harvest")
    assert sc.state.gold[RED] == 20 + (caravan if temple <= 2 else 0)


@pytest.mark.parametrize("temple", [1, 2, 3, 4])
def test_fixed_income_is_always_paid(scenario, temple):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "ABU")
    sc.own(BLUE, "BERENIKE")
    sc.harvest(temple)
    sc.done_all("harvest")
    assert sc.state.gold[RED] == 24 and sc.state.gold[BLUE] == 28


# --------------------------------------------------------------------------- scoring
def test_identical_bonus_cards_once_per_scoring(scenario):
    """2003 book, power cards: a second farmer bonus is refused, another bonus is not."""
    sc = scenario(SEATS, start=RED)
    board = sc.state.board
    names = ("MEMPHIS", "BUTO", "BAHARYA")
    assert {board.province(n).side for n in names} == {"west"}, "board data changed"
    sc.own(RED, *names)
    for name in names:
        sc.farmers(name, board.province(name).fields)
    sc.set_hand(RED, ["farmer_bonus", "farmer_bonus", "side_bonus"])
    sc.scoring(3, 2)
    s = sc.state
    assert s.phase == "scoring" and s.current == RED
    sc.play(RED, PlayBonus("farmer_bonus"))
    unchanged_after_illegal(s, RED, PlayBonus("farmer_bonus"))
    sc.play(RED, PlayBonus("side_bonus"))
    sc.done_all("scoring")
    assert s.scorings[-1][RED]["bonus_cards"] == 6
    assert s.hand[RED][KIND["farmer_bonus"]] == 1


def test_bonus_card_needs_its_condition(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "MEMPHIS", "ABU", "BAHARYA")  # 2 farmers only (BAHARYA's printed ones)
    sc.set_hand(RED, ["farmer_bonus"])
    sc.scoring(3, 2)
    s = sc.state
    # red is asked (red holds a card) but may not play the farmer bonus
    assert s.phase == "scoring"
    assert PlayBonus("farmer_bonus") not in s.legal_actions(s.current)
    sc.done_all("scoring")
    assert s.round == 4
    assert s.scorings[-1][RED]["bonus_cards"] == 0
    assert s.hand[RED][KIND["farmer_bonus"]] == 1


def test_between_kingdoms(scenario):
    """Farmers and ownership leave the board; pyramids and stones stay (both books)."""
    sc = scenario(SEATS, start=RED)
    s = sc.state
    sc.own(RED, "AVARIS", "ABU", "MENDES")
    sc.own(BLUE, "SAWU", "BERENIKE", "DAMANHUR")
    sc.farmers("AVARIS", 2)
    sc.farmers("ABU", 1)
    sc.free_farmers("BERENIKE", 1)
    sc.pyramids("AVARIS", 2)
    sc.stones("AVARIS", 2)
    sc.pyramids("SAWU", 1)
    sc.stones("ABU", 1)
    sc.kingdom_used_up()
    used = set(s.used_this_kingdom)
    unused = set(s.province_deck)
    s.round = 3
    sc.harvest(2)
    sc.done_all("harvest")
    sc.done_all("scoring")
    # after round 3's harvest came the scoring and then the new kingdom's first round
    assert len(s.scorings) == 1
    assert s.round == 4 and s.phase == "auction"
    assert all(o == -1 for o in s.owner)
    assert s.owned(RED) == [] and s.owned(BLUE) == []
    assert sum(s.field_farmers) == 0 and sum(s.free_farmers) == 0
    assert s.farmer_supply == s.board.farmers["2003"]
    avaris, sawu, abu = sc.p("AVARIS"), sc.p("SAWU"), sc.p("ABU")
    assert s.pyramids[avaris] == 2 and s.stones[avaris] == 2
    assert s.pyramids[sawu] == 1 and s.stones[abu] == 1
    # the new kingdom uses exactly the old kingdom's province cards
    assert set(s.on_auction) | set(s.province_deck) == used
    assert not (set(s.on_auction) | set(s.province_deck)) & unused
    assert len(s.on_auction) == 4


# --------------------------------------------------------------------------- errors
def test_illegal_action_error_says_why_and_lists_legal_moves(scenario):
    sc = scenario(SEATS, start=RED)
    sc.auction(*FOUR)
    s = sc.state
    sc.play(RED, Bid("ABYDOS", 3))
    error, legal = unchanged_after_illegal(
        s, BLACK, Bid("ABYDOS", 3), "Black cannot 'bid ABYDOS 3'", "at least 6", "Legal now:"
    )
    assert error.legal == legal and legal
    assert error.seat == BLACK
    assert "bid ABYDOS 6" in str(error) and f"({len(legal)} in all)" in str(error)
    # not one's turn
    unchanged_after_illegal(s, BLUE, Bid("SAWU", 0), "not Blue's decision", "Black")
    # an action of another phase
    unchanged_after_illegal(s, BLACK, Offer(gold=1), "offering phase")
    # a province that does not exist / is not on auction
    unchanged_after_illegal(s, BLACK, Bid("NOWHERE", 0), "no province 'NOWHERE'")
    unchanged_after_illegal(s, BLACK, Bid("THEBES", 0), "not up for auction")
    unchanged_after_illegal(s, BLACK, Bid("SAWU", 2), "not a bid space")


def test_illegal_market_actions(scenario):
    sc = scenario(SEATS, start=RED)
    sc.own(RED, "BERENIKE")
    sc.own(BLACK, "MENDES")
    sc.market()
    s = sc.state
    unchanged_after_illegal(s, RED, Farmer("BERENIKE"), "no empty field", "Legal now:")
    unchanged_after_illegal(s, RED, Stone("MENDES"), "not your province")
    unchanged_after_illegal(s, RED, Builder("BERENIKE"), "needs 2 stones")


# --------------------------------------------------------------------------- whole games
@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.parametrize("players", [3, 5])
def test_random_games_keep_the_books_balanced(seed, players, invariants):
    """Random legal play from start to end keeps every conservation law."""
    rng = random.Random(seed)
    state = GAME.new_state(players, seed=seed, options={"edition": "2003"})
    invariants(state)
    steps = 0
    while not state.is_over():
        seat = rng.choice(state.to_move())
        legal = state.legal_actions(seat)
        # prefer real moves over selling cards, so games look like games
        moves = [a for a in legal if not isinstance(a, Sell)] or legal
        state.apply(seat, rng.choice(moves))
        invariants(state)
        steps += 1
        assert steps < 5000
    assert state.round == 6
    assert len(state.scorings) == 2
    assert state.scores() == [sum(sc[s]["total"] for sc in state.scorings) for s in range(players)]


# --------------------------------------------------------------------------- set-up, supplies
@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize(("edition", "farmers"), [("2003", 45), ("2016", 48)])
def test_start_of_the_game(players, edition, farmers, invariants):
    state = GAME.new_state(players, seed=7, options={"edition": edition})
    invariants(state)
    assert state.gold == [20] * players
    assert all(h[KIND["builder"]] == 1 and sum(h) == 1 for h in state.hand)
    assert len(state.deck) + sum(len(f) for f in state.face_down) == 39 - players
    assert state.farmer_supply == farmers
    # only the free stones of provinces on the board have left the supply
    free_stones = sum(state.board.provinces[p].bonus_stones for p in state.on_auction)
    assert state.stone_supply == 15 - free_stones
    assert state.round == 1 and state.phase == "auction" and state.temple == 0
    # as many province cards as players come out
    assert len(state.on_auction) == players
    assert state.current == state.start


def test_empty_deck_is_reshuffled_from_the_discards(scenario):
    sc = scenario(SEATS, start=RED)
    s = sc.state
    sc.own(RED, "MEMPHIS")
    for k in s.deck:
        s.discard[k] += 1
    s.deck = []
    sc.check()
    before = sum(s.discard)
    sc.market()
    sc.play(RED, BuyCards(2))
    assert sum(s.hand[RED]) == 3
    assert len(s.deck) + sum(s.discard) == before - 2
    assert sum(s.discard) == 0  # the whole pile became the new deck


def test_no_card_when_deck_and_discards_are_empty(scenario):
    sc = scenario(SEATS, start=RED)
    s = sc.state
    sc.own(RED, "MEMPHIS")
    for k in s.deck:  # every remaining card into black's hand
        s.hand[BLACK][k] += 1
    s.deck = []
    sc.check()
    sc.market()
    assert not any(isinstance(a, BuyCards) for a in s.legal_actions(RED))
    sc.play(RED, DONE)
    for seat in (BLACK, BLUE, WHITE):
        sc.play(seat, DONE)
    sc.play(RED, Offer(gold=5))
    sc.play(BLACK, Offer(gold=1))
    sc.play(BLUE, Offer(gold=1))
    sc.play(WHITE, Offer(gold=1))
    assert s.current == RED
    assert TakeCard() not in s.legal_actions(RED)
    assert TakeStone("MEMPHIS") in s.legal_actions(RED)


def test_no_stone_when_the_supply_is_empty(scenario):
    sc = scenario(SEATS, start=RED)
    s = sc.state
    names = s.board.province_names
    for name in names[:7]:
        sc.stones(name, 2)
    sc.stones(names[7], 1)
    assert s.stone_supply == 0
    sc.own(RED, names[14])
    sc.market()
    assert not any(isinstance(a, Stone) for a in s.legal_actions(RED))


@pytest.mark.parametrize(
    ("red_stones", "blue_stones", "winners"),
    [(0, 0, [RED]), (0, 2, [RED])],
)
def test_final_tie_goes_to_most_pyramids(scenario, red_stones, blue_stones, winners):
    """Equal points: the most pyramids wins (before stones are looked at)."""
    sc = scenario(SEATS, start=RED)
    s = sc.state
    for seat in range(4):
        sc.set_hand(seat, [])
    sc.own(RED, "MEMPHIS", "AVARIS", "BAHARYA")
    sc.pyramids("MEMPHIS", 2)  # 2 pyramids + west 5 = 7
    sc.stones("AVARIS", red_stones)
    sc.own(BLUE, "ABU", "BUTO", "DAKHLA")
    sc.pyramids("ABU", 1)  # 1 pyramid + east 5 = 6
    sc.stones("BUTO", blue_stones)
    s.score = [10, 0, 11, 0]
    sc.scoring(6, 1)
    assert s.phase == "over"
    assert s.score[RED] == s.score[BLUE] == 10 + 7 + 6
    assert s.winners() == winners


def test_final_tie_on_points_and_pyramids_goes_to_most_stones(scenario):
    sc = scenario(SEATS, start=RED)
    s = sc.state
    for seat in range(4):
        sc.set_hand(seat, [])
    sc.own(RED, "MEMPHIS", "AVARIS", "BAHARYA")
    sc.pyramids("MEMPHIS", 1)
    sc.stones("AVARIS", 1)
    sc.own(BLUE, "ABU", "BUTO", "DAKHLA")
    sc.pyramids("ABU", 1)
    sc.stones("BUTO", 2)
    sc.scoring(6, 1)
    assert s.score[RED] == s.score[BLUE]
    assert s.winners() == [BLUE]
    # equal stones too: a shared victory
    sc2 = scenario(SEATS, start=RED)
    for seat in range(4):
        sc2.set_hand(seat, [])
    sc2.own(RED, "MEMPHIS", "AVARIS", "BAHARYA")
    sc2.pyramids("MEMPHIS", 1)
    sc2.own(BLUE, "ABU", "BUTO", "DAKHLA")
    sc2.pyramids("ABU", 1)
    sc2.scoring(6, 1)
    assert sc2.state.winners() == [RED, BLUE]


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_expert_provinces_deal_one_card_a_round_on_a_corrected_board(rounds):
    """Expert rules hand each seat one province card per round of the kingdom: three on the
    printed board, and as many as a corrected board's kingdoms have rounds (a board of two
    rounds a kingdom crashed when three were dealt)."""
    import copy

    from karnak.games.amunre.rules.board import parse_board

    raw = copy.deepcopy(dict(GAME.board.raw))
    raw["constants"] = dict(raw["constants"], rounds_per_kingdom=rounds)
    game = GAME.with_board(parse_board(raw, source="test"))
    for players in (3, 4):
        state = game.new_state(players, seed=rounds, options={"expert_provinces": True})
        assert all(len(hand) == rounds for hand in state.prov_hand)
        rng = random.Random(rounds)
        while not state.is_over():
            seat = state.to_move()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        assert state.round == 2 * rounds


# --------------------------------------------------------------------------- dispatching
def test_every_kind_of_move_reaches_its_rule_and_a_foreign_move_is_refused():
    """Moves are dispatched one way, by their class: random games (the expert rules too,
    for the picks) apply every class of the action union, and a move of no class raises."""
    import typing

    from karnak.games.amunre.rules import actions as A

    every = set(typing.get_args(A.AmunReAction))
    applied = set()
    for seed in range(40):  # bonus cards whose condition holds are rare: play until one is
        if applied == every:
            break
        state = GAME.new_state(4, seed=seed, options={"expert_provinces": seed % 2 == 1}, log=False)
        rng = random.Random(seed)
        while not state.is_over():
            seat = rng.choice(state.to_move())
            legal = state.legal_actions(seat)
            kinds = sorted({type(a).__name__ for a in legal})
            if "Sell" in kinds and (len(kinds) > 1 and rng.random() > 0.05):
                kinds.remove("Sell")  # keep cards to play: sell now and then
            kind = rng.choice(kinds)  # each class alike, whatever its number of moves
            action = rng.choice([a for a in legal if type(a).__name__ == kind])
            state.apply(seat, action)
            applied.add(type(action))
    assert applied == every

    class Shrug:
        def to_text(self):
            return "shrug"

        def to_json(self):
            return {"type": "shrug"}

    state = GAME.new_state(4, seed=1)
    with pytest.raises(TypeError, match="not an Amun-Re move"):
        state.apply_unchecked(state.to_move()[0], Shrug())

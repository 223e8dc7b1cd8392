"""Amun-Re's guide on the game page: each decision explained with the real figures.

The positions are played out from seed 5 with four players (Ana is the first start player
and Thebes, Edfu, Baharya and Berenike come up first), so every figure below can be checked
by hand against the board data and the rules. Then the figures are checked against the
engine itself over random games (what the guide says a harvest or a scoring brings is what
the engine then pays), and the guide against hidden information (re-dealing what a seat
cannot see leaves it byte for byte the same).
"""

from __future__ import annotations

import random
from typing import Any

import orjson
import pytest

from karnak.core import Rng
from karnak.core.registry import get_game
from karnak.games.amunre.rules.board import CARD_KINDS
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.amunre.web.guide import guide
from support.amunre_hidden import redeal_hidden

ANA, BO, CY, DI = range(4)


def new_game(seed: int = 5, **options: Any) -> AmunReState:
    game = get_game("amunre")
    state = game.new_state(
        ["Ana", "Bo", "Cy", "Di"], seed=seed, options=game.resolve_options(options)
    )
    assert isinstance(state, AmunReState)
    return state


def play(state: AmunReState, *texts: str) -> None:
    """Each move by the seat to move (at a sealed step, the first still to commit)."""
    for text in texts:
        state.apply(state.to_move()[0], state.game.parse_action(text))


def give(state: AmunReState, seat: int, kind: str) -> None:
    """Deal ``seat`` a card of ``kind`` from the deck (a position the game could reach)."""
    k = CARD_KINDS.index(kind)
    state.deck.remove(k)
    state.hand[seat][k] += 1


def guide_of(state: AmunReState, seat: int | None) -> dict[str, Any]:
    legal = state.legal_actions(seat) if seat is not None else []
    return guide(state.game, state.observation(seat), seat, legal)


def lines(g: dict[str, Any], title: str) -> list[str]:
    found = [item["lines"] for item in g["explain"] if item["title"] == title]
    assert found, f"no {title!r} in {[item['title'] for item in g['explain']]}"
    return found[0]


def round_one_auction() -> AmunReState:
    """Ana bid 3 on Thebes, Bo 6 there, Cy 0 on Edfu, Di 1 on Baharya: Ana is overbid."""
    state = new_game()
    play(state, "bid THEBES 3", "bid THEBES 6", "bid EDFU 0", "bid BAHARYA 1")
    return state


def round_one_offering() -> AmunReState:
    """The market of round 1 done: Ana owns Berenike (2 stones), Bo Thebes (3 farmers), Cy
    Edfu (2 farmers, 1 stone, a correction card), Di Baharya (2 bought + 2 printed)."""
    state = round_one_auction()
    play(state, "bid BERENIKE 0")
    play(state, "buy-cards 1", "stone BERENIKE", "stone BERENIKE", "done")
    play(state, "farmer THEBES", "farmer THEBES", "farmer THEBES", "done")
    play(state, "farmer EDFU", "farmer EDFU", "stone EDFU", "done")
    play(state, "farmer BAHARYA", "farmer BAHARYA", "done")
    assert state.phase == "offering"
    return state


def round_one_adjust() -> AmunReState:
    """Ana offers 5, Bo steals, Cy 4 with a correction, Di 4: total 10, Cy to correct."""
    state = round_one_offering()
    state.apply(ANA, state.game.parse_action("offer 5"))
    state.apply(BO, state.game.parse_action("offer theft"))
    state.apply(CY, state.game.parse_action("offer 4 +correction"))
    state.apply(DI, state.game.parse_action("offer 4"))
    assert state.phase == "adjust"
    return state


# ---------------------------------------------------------------------------- the rules panel
def test_the_phases_in_order_with_the_current_one_and_what_comes_next() -> None:
    state = round_one_auction()
    g = guide_of(state, ANA)
    assert [p["key"] for p in g["phases"]] == [
        "auction",
        "market",
        "offering",
        "adjust",
        "rewards",
        "harvest",
        "scoring",
        "kingdom",
    ]
    assert g["phase"] == "auction"
    assert g["next"] == "The market, in turn order from Ana."
    auction = g["phases"][0]["text"]
    assert "0, 1, 3, 6, 10, 15, 21, 28, 36" in auction
    assert "after rounds 3 and 6" in g["phases"][6]["name"]
    assert "6/4/2" in g["phases"][6]["text"]
    expert = guide_of(new_game(expert_provinces=True), ANA)
    assert expert["phases"][0]["key"] == "pick" and expert["phase"] == "pick"
    assert expert["task"] == "Pick the province card to bring out (sealed)"


# ---------------------------------------------------------------------------- the auction
def test_an_overbid_player_is_told_who_overbid_them_where_and_what_each_bid_costs() -> None:
    g = guide_of(round_one_auction(), ANA)
    assert g["task"] == "You were overbid on Thebes: bid again"
    assert lines(g, "Why you must bid again") == [
        "Bo bid 6 on Thebes, above your 3: your marker must move.",
        "Move it to another province; one without bids takes any bid, even 0.",
    ]
    cost = lines(g, "What a bid costs")
    assert cost[1:] == [
        "You have 20 gold: your highest possible bid is 15.",
        "Lowest bid you may make: Baharya 3, Berenike 0, Edfu 1.",
    ]
    assert lines(g, "What Thebes brings")[-1] == (
        "Bids: Bo 6, Ana 3 (overbid: must move). The next bid here is at least 10."
    )


def test_what_each_province_on_auction_brings() -> None:
    g = guide_of(round_one_auction(), ANA)
    assert lines(g, "What Berenike brings") == [
        "Upper Egypt, east of the Nile, away from its banks. No fields (farmers only with a "
        "free farmer card); card limit 1 in the market.",
        "Income each harvest: 8 gold, plus the temple's space in gold per farmer.",
        "No bid yet: any bid takes it for now, even 0.",
    ]
    assert lines(g, "What Edfu brings") == [
        "Upper Egypt, on the west bank of the Nile. Fields: 2 (2 empty); card limit 1 in the "
        "market.",
        "Income each harvest: the temple's space in gold per farmer.",
        "Temples: 1, each worth the temple's space in points at a scoring.",
        "Free for its winner: 1 face-down power card.",
        "Bids: Cy 0. The next bid here is at least 1.",
    ]
    assert "Its 2 printed farmers work from the start." in lines(g, "What Baharya brings")
    assert "What Memphis brings" not in [item["title"] for item in g["explain"]]


def test_a_blockade_makes_the_next_bid_skip_a_space_and_an_overbid_card_may_stay() -> None:
    state = new_game()
    give(state, ANA, "blockade")
    give(state, ANA, "overbid")
    play(state, "bid THEBES 3 +blockade")
    g = guide_of(state, BO)
    assert lines(g, "What Thebes brings")[-1] == (
        "Bids: Ana 3 (with a bidding blockade card). The next bid here is at least 10."
    )
    assert "Lowest bid you may make: Baharya 0, Berenike 0, Edfu 0, Thebes 10." in lines(
        g, "What a bid costs"
    )
    play(state, "bid THEBES 10", "bid EDFU 0", "bid BAHARYA 0")
    g = guide_of(state, ANA)
    assert lines(g, "Why you must bid again") == [
        "Bo bid 10 on Thebes, above your 3: your marker must move.",
        "Your overbid in same province card lets you stay on Thebes with a bid of at least 15.",
    ]


# ---------------------------------------------------------------------------- the market
def test_the_market_gives_the_next_prices_what_is_affordable_and_what_a_farmer_earns() -> None:
    state = round_one_auction()
    play(state, "bid BERENIKE 0", "buy-cards 1", "stone BERENIKE", "stone BERENIKE", "done")
    play(state, "farmer THEBES", "farmer THEBES")
    g = guide_of(state, BO)
    assert g["task"] == "Buy farmers and stones, or end your market turn"
    assert lines(g, "Prices")[1:] == [
        "Next farmer: 3 gold; next stone: 1 gold.",
        "Power cards are done for this turn: they come before farmers and stones.",
    ]
    assert lines(g, "What you can still afford") == [
        "You have 11 gold.",
        "Farmers: up to 2 with your gold; 2 empty fields in your provinces.",
        "Stones: up to 4 with your gold (13 in the supply).",
    ]
    assert lines(g, "What a farmer earns") == [
        "The temple is not on its track yet: this round's offering sets it, and each farmer "
        "then earns 1 to 4 gold at the harvest."
    ]
    assert lines(g, "Your pyramids") == [
        "Thebes: 0 stones, 0 pyramids; 3 more stones make a pyramid.",
        "Your free farmer card puts a farmer in one of your provinces without a field.",
    ]
    waiting = guide_of(state, ANA)
    assert waiting["task"] is None
    assert lines(waiting, "Prices")[1] == "Next farmer: 3 gold; next stone: 1 gold (for Bo)."
    assert "What you can still afford" not in [item["title"] for item in waiting["explain"]]


def test_the_market_counts_power_cards_against_the_card_limit_and_the_builder() -> None:
    state = round_one_auction()
    play(state, "bid BERENIKE 0")
    g = guide_of(state, ANA)
    assert (
        "Power cards: up to 1 (1 gold); your card limit is 1. They are drawn face down "
        "after you pay." in lines(g, "What you can still afford")
    )
    play(state, "buy-cards 1", "stone BERENIKE", "stone BERENIKE")
    assert lines(guide_of(state, ANA), "Your pyramids") == [
        "Berenike: 2 stones, 0 pyramids; your builder card makes a pyramid here now."
    ]


# ---------------------------------------------------------------------------- the offering
def test_the_offering_explains_the_temple_spaces_the_rewards_and_the_theft() -> None:
    g = guide_of(round_one_offering(), CY)
    assert g["task"] == "Choose your offering (sealed)"
    assert lines(g, "Your offering") == [
        "You have 16 gold: offer 1 to 16 gold, or the theft card (+3 gold for you, -3 on the "
        "total).",
        "Your sacrifice correction card: after the reveal you move the total by +3 or -3; it "
        "does not change your offer's rank.",
    ]
    assert lines(g, "What each temple space pays") == [
        "Space 1 (total 2 or less): 1 gold per farmer, caravans pay, 1 point per temple at a "
        "scoring; your harvest: 2 gold.",
        "Space 2 (total 3 to 12): 2 gold per farmer, caravans pay, 2 points per temple at a "
        "scoring; your harvest: 4 gold.",
        "Space 3 (total 13 to 22): 3 gold per farmer, no caravans, 3 points per temple at a "
        "scoring; your harvest: 6 gold.",
        "Space 4 (total 23 or more): 4 gold per farmer, no caravans, 4 points per temple at a "
        "scoring; your harvest: 8 gold.",
    ]
    assert lines(g, "Who gets what") == [
        "The highest offer takes 3 items and becomes the start player; the second takes 2; "
        "every other player who offered takes 1, in turn order from the start player (Ana, "
        "Bo, Cy, Di), whatever they offered.",
        "Equal offers rank in turn order from Ana, the start player.",
        "An item is a power card, a farmer on an empty field of the taker's or a stone.",
        "A theft takes 3 gold from the bank and lowers the total by 3; it gets no item.",
    ]


def test_after_committing_the_seat_sees_its_own_sealed_offer_and_others_see_nothing_of_it() -> None:
    state = round_one_offering()
    state.apply(BO, state.game.parse_action("offer theft"))
    mine = guide_of(state, BO)
    assert mine["task"] is None
    assert lines(mine, "Your offering") == [
        "You offered the theft card (-3). It stays sealed until everyone has committed."
    ]
    for seat in (ANA, CY, None):
        assert "theft card (-3). It stays" not in orjson.dumps(guide_of(state, seat)).decode()


def test_the_offer_cards_option_is_explained_when_cards_may_be_offered() -> None:
    state = new_game(offer_cards=True)
    play(state, "bid THEBES 3", "bid THEBES 6", "bid EDFU 0", "bid BAHARYA 1", "bid BERENIKE 0")
    for _ in range(4):
        play(state, "done")
    g = guide_of(state, CY)
    assert lines(g, "Your offering")[-1] == (
        "Each power card you add counts as 1 gold, for your rank and the total; with cards, "
        "your gold may be 0."
    )


def test_the_correction_shows_both_totals_with_their_spaces_and_the_fixed_rewards() -> None:
    state = round_one_adjust()
    g = guide_of(state, CY)
    assert g["task"] == "Move the offering total by +3 or -3"
    assert g["phase"] == "adjust"
    assert lines(g, "The total so far") == [
        "Offers: Ana 5, Bo theft (-3), Cy 4, Di 4. Total now 10: temple space 2."
    ]
    assert lines(g, "Your correction") == [
        "+3: total 13, space 3 (3 gold per farmer, no caravans); your harvest 6 gold.",
        "-3: total 7, space 2 (2 gold per farmer, caravans pay); your harvest 4 gold.",
    ]
    # Cy and Di offered 4 each: the tie goes to Cy, earlier in turn order from Ana.
    assert lines(g, "The rewards (fixed by the offers)") == [
        "Ana 3 items, Cy 2 items, Di 1 item.",
        "Ana becomes the start player.",
    ]


# ---------------------------------------------------------------------------- the rewards
def test_the_rewards_say_how_many_items_are_left_and_what_each_does() -> None:
    state = round_one_adjust()
    play(state, "adjust +3")
    g = guide_of(state, ANA)
    assert g["task"] == "Take your reward: 3 items left"
    assert lines(g, "Your rewards") == [
        "You have 3 items left to take.",
        "Power card: drawn face down (32 left in the deck and discards); no card limit applies.",
        "Stone: placed at once in one of your provinces; a third stone makes a pyramid "
        "(Berenike has 2 already).",
        "Supply: 38 farmers, 12 stones; builder and free farmer cards cannot be used here.",
    ]
    assert lines(g, "Rewards still to take") == ["Ana 3 items, Cy 2 items, Di 1 item."]
    play(state, "take stone BERENIKE", "take card", "take card")
    g = guide_of(state, CY)
    assert g["task"] == "Take your reward: 2 items left"
    assert "Farmer" not in " ".join(lines(g, "Your rewards"))  # Edfu's 2 fields are full


# ---------------------------------------------------------------------------- the harvest
def test_the_harvest_adds_up_each_province_and_what_the_harvest_cards_would_add() -> None:
    state = round_one_adjust()
    give(state, BO, "eight_gold")
    give(state, BO, "harvest_increase")
    play(state, "adjust +3", "take stone BERENIKE", "take stone BERENIKE", "take card")
    play(state, "take stone EDFU", "take stone EDFU", "take card")
    assert state.phase == "harvest" and state.temple == 3
    # Ana holds cards, so she decides first; her Berenike pays its 8 gold.
    g = guide_of(state, ANA)
    assert lines(g, "Your harvest") == [
        "You collect 8 gold at temple space 3:",
        "Berenike: 8 gold = 8.",
    ]
    play(state, "done")
    g = guide_of(state, BO)
    assert g["task"] == "Play your harvest cards, then collect"
    assert lines(g, "Your harvest") == [
        "You collect 9 gold at temple space 3:",
        "Thebes: 3 farmers \u00d7 3 = 9.",
    ]
    assert lines(g, "What your harvest cards would add") == [
        "8 gold on Thebes: 8 instead of 9 (-1).",
        "harvest increase on Thebes: +3 (3 farmers).",
        "Each card goes on a different province of yours.",
    ]
    play(state, "harvest-increase THEBES")
    assert lines(guide_of(state, BO), "Your harvest") == [
        "You collect 12 gold at temple space 3:",
        "Thebes: 3 farmers \u00d7 4 = 12.",
    ]
    before = state.gold[BO]
    play(state, "done")
    assert state.gold[BO] - before == 12


# ---------------------------------------------------------------------------- the scoring
def play_to(state: AmunReState, phase: str, rng: random.Random) -> None:
    """Random moves (no card sales) until ``phase`` begins."""
    while state.phase != phase and not state.is_over():
        seat = state.to_move()[0]
        moves = state.legal_actions(seat)
        kept = [m for m in moves if m.to_text().split()[0] != "sell"] or moves
        state.apply(seat, rng.choice(kept))


def test_each_scoring_line_is_explained_with_the_seats_figures() -> None:
    state = new_game(seed=3)
    play_to(state, "scoring", random.Random(3))
    assert state.round == 3
    g = guide_of(state, ANA)
    assert g["phase"] == "scoring"
    assert g["next"] == (
        "The new kingdom: provinces and farmers leave the board, pyramids and stones stay; "
        "round 4 begins."
    )
    assert lines(g, "Your old kingdom's scoring") == [
        "Pyramids: 1 \u00d7 1 = 1.",
        "Complete sets (a pyramid in each of your 3 provinces): 0 \u00d7 3 = 0.",
        "West bank: most pyramids: Kharga (1); Ana and Bo score 5; you: 5.",
        "East bank: no owned province there has a pyramid; you: 0.",
        "Temples: 0 \u00d7 space 2 = 0.",
        "Bonus cards played: 0 \u00d7 3 = 0.",
        "This scoring: 6; with your 0 so far: 6.",
    ]
    assert lines(g, "Everyone at this scoring") == [
        "Ana: 6 (score then 6).",
        "Bo: 10 (score then 10).",
        "Cy: 0 (score then 0).",
        "Di: 2 (score then 2).",
    ]


def test_the_final_scoring_adds_the_gold_ranking_and_the_end_shows_each_scoring() -> None:
    state = new_game(seed=3)
    rng = random.Random(3)
    play_to(state, "scoring", rng)
    play_to(state, "auction", rng)
    play_to(state, "scoring", rng)
    assert state.round == 6
    g = guide_of(state, ANA)
    mine = lines(g, "Your final scoring")
    ranking = [line for line in mine if line.startswith("Gold ranking")]
    assert ranking == [
        f"Gold ranking: {state.gold[ANA]} gold = {lines_of_engine(state)[ANA]['gold_ranking']}."
    ]
    assert g["next"] == "The game ends: most points wins; then most pyramids, then most stones."
    play_to(state, "over", rng)
    g = guide_of(state, ANA)
    scorings = state.scorings
    assert lines(g, "Your scorings") == [
        f"Scoring 1: {scorings[0][ANA]['total']} points.",
        f"Scoring 2: {scorings[1][ANA]['total']} points.",
        f"In all: {state.score[ANA]}.",
    ]


def lines_of_engine(state: AmunReState) -> list[dict[str, int]]:
    """What the engine scores now, on a copy (no bonus cards played from here)."""
    world = state.clone(log=False)
    while world.phase == "scoring":
        world.apply(world.to_move()[0], world.game.parse_action("done"))
    return world.scorings[-1]


# ---------------------------------------------------------------------------- for everyone
def test_spectators_get_the_public_parts_only() -> None:
    states = [round_one_auction(), round_one_offering(), round_one_adjust()]
    for state in states:
        g = guide_of(state, None)
        assert g["task"] is None
        text = orjson.dumps(g["explain"]).decode()
        assert "You " not in text and "Your " not in text and "your harvest" not in text


@pytest.mark.parametrize("options", [{}, {"expert_provinces": True, "offer_cards": True}])
def test_the_guide_matches_the_engine_and_ignores_what_the_seat_cannot_see(
    options: dict[str, Any],
) -> None:
    """Over random games: the harvest the guide announces is what the engine pays, the
    scoring it projects is what the engine scores (when no more bonus cards are played), and
    re-dealing everything hidden from a seat leaves its guide byte for byte the same."""
    checked_harvests = checked_scorings = redealt = 0
    for seed in range(4):
        state = new_game(seed=seed, **options)
        rng = random.Random(seed)
        step = 0
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if step % 7 == 0:
                for viewer in [*range(4), None]:
                    truth = orjson.dumps(guide_of(state, viewer))
                    world = redeal_hidden(state, viewer, Rng(seed * 1000 + step))
                    assert orjson.dumps(guide_of(world, viewer)) == truth
                    redealt += 1
            if state.phase == "harvest":
                said = lines(guide_of(state, seat), "Your harvest")[0]
                assert said.startswith(f"You collect {state.income(seat)} gold ")
                checked_harvests += 1
            if state.phase == "scoring" and state.scoring_pos == 0:
                projected = lines(guide_of(state, None), "Everyone at this scoring")
                actual = lines_of_engine(state)
                for s, line in enumerate(projected):
                    assert line.startswith(f"{state.players[s]}: {actual[s]['total']} ")
                checked_scorings += 1
            kept = [m for m in legal if m.to_text().split()[0] != "sell"] or legal
            state.apply(seat, rng.choice(kept))
            step += 1
    assert checked_harvests > 20 and checked_scorings >= 3 and redealt > 300

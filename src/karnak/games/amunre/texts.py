"""Words for people: what each power card does and what a move will cost or mean.

Shared by every client (terminal, web), written in our own words. They read the game (its
printed board) and what the deciding seat may see (its observation), never the state.
"""

from __future__ import annotations

from typing import Literal

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.games.amunre.i18n import N_, _, ngettext, t
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import Board
from karnak.games.amunre.rules.game import AmunRe
from karnak.games.amunre.view import AmunReObservation

#: The key of each line of a scoring (:class:`~karnak.games.amunre.view.ScoringLine`).
ScoringKey = Literal[
    "pyramids",
    "complete_sets",
    "nile_west",
    "nile_east",
    "temples",
    "bonus_cards",
    "gold_ranking",
]

#: The lines of a kingdom's scoring, in the order the books list them, with their headings.
SCORING_LINES: tuple[tuple[ScoringKey, str], ...] = (
    ("pyramids", N_("Pyramids")),
    ("complete_sets", N_("Complete sets")),
    ("nile_west", N_("West bank")),
    ("nile_east", N_("East bank")),
    ("temples", N_("Temples")),
    ("bonus_cards", N_("Bonus cards")),
    ("gold_ranking", N_("Gold ranking")),
)

#: The provinces' names as a page writes them (the engine writes them in capitals).
PROVINCE_NAMES: dict[str, str] = {
    "ABU": N_("Abu"),
    "ABYDOS": N_("Abydos"),
    "AMARNA": N_("Amarna"),
    "AVARIS": N_("Avaris"),
    "BAHARYA": N_("Baharya"),
    "BERENIKE": N_("Berenike"),
    "BUTO": N_("Buto"),
    "DAKHLA": N_("Dakhla"),
    "DAMANHUR": N_("Damanhur"),
    "EDFU": N_("Edfu"),
    "KHARGA": N_("Kharga"),
    "MEMPHIS": N_("Memphis"),
    "MENDES": N_("Mendes"),
    "SAWU": N_("Sawu"),
    "THEBES": N_("Thebes"),
}

#: Words of the game as the rules write them into the log (arguments named in
#: ``i18n.DOMAIN.translated_args``): the provinces in capitals, both editions' card names,
#: their terms and the kingdoms. Marked here so that the catalogues carry them.
LOG_WORDS: tuple[str, ...] = (
    N_("ABU"),
    N_("ABYDOS"),
    N_("AMARNA"),
    N_("AVARIS"),
    N_("BAHARYA"),
    N_("BERENIKE"),
    N_("BUTO"),
    N_("DAKHLA"),
    N_("DAMANHUR"),
    N_("EDFU"),
    N_("KHARGA"),
    N_("MEMPHIS"),
    N_("MENDES"),
    N_("SAWU"),
    N_("THEBES"),
    N_("pharaoh"),
    N_("Start Player"),
    N_("power card(s)"),
    N_("Favor card(s)"),
    N_("old kingdom"),
    N_("new kingdom"),
    N_("nothing"),
)

#: The power cards' names in both editions (the 2003 names of Rio Grande, the 2016 names of
#: Super Meeple), translated with each edition's own terms where it has them.
CARD_NAMES: tuple[str, ...] = (
    N_("bidding blockade"),
    N_("overbid in same province"),
    N_("free farmer"),
    N_("builder"),
    N_("sacrifice correction"),
    N_("8 gold"),
    N_("harvest increase"),
    N_("power card bonus"),
    N_("farmer bonus"),
    N_("lower/upper Egypt bonus"),
    N_("west/east Nile bonus"),
    N_("Nile banks bonus"),
    N_("Protection"),
    N_("Bribery"),
    N_("Free Farmer"),
    N_("Architect"),
    N_("Offering Adjustment"),
    N_("Treasury"),
    N_("Big Harvest"),
    N_("Master of Scribes"),
    N_("Master of Farmers"),
    N_("Upper or Lower Egypt"),
    N_("West Side or East Side"),
    N_("Nile or Frontier"),
)


def province_name(name: str) -> str:
    """A province's name in the reader's language (THEBES: Thebes, Theben, Thèbes)."""
    return _(PROVINCE_NAMES.get(name, name.title()))


def scoring_heading(label: str) -> str:
    """A heading of :data:`SCORING_LINES` in the reader's language."""
    return _(label)


def board_of(game: Game) -> Board:
    """The printed board of an Amun-Re game (public: the same for every seat)."""
    if not isinstance(game, AmunRe):
        raise TypeError(f"not an Amun-Re game: {game.name!r}")
    return game.board


def card_name(board: Board, obs: AmunReObservation, kind: str) -> str:
    """A power card's name in the table's edition, in the reader's language."""
    return _(board.card(kind).name(obs["edition"]))


def card_effect(kind: str, board: Board) -> str:
    """One line, in our own words, on what a power card does and when it is used."""
    points = board.bonus_card_points
    if kind == "blockade":
        return _("Play it with a bid: whoever overbids you must skip at least one space.")
    if kind == "overbid":
        return _("When overbid, bid higher on the same province instead of moving away.")
    if kind == "free_farmer":
        return _(
            "Market: a farmer from the supply into one of your provinces, no empty field needed."
        )
    if kind == "builder":
        return _("Market: turn 2 stones of one of your provinces into a pyramid (once per phase).")
    if kind == "correction":
        return _(
            "Offering: commit it with your offer; after the reveal move the total up or down by 3."
        )
    if kind == "eight_gold":
        return t(
            "Harvest: one of your provinces pays {gold} gold instead of its usual income.",
            gold=board.treasury_gold,
        )
    if kind == "harvest_increase":
        return _("Harvest: +1 gold for each farmer in one of your provinces.")
    if kind == "card_bonus":
        return t(
            "Scoring: {points} points if your provinces show at least {symbols} power-card "
            "symbols.",
            points=points,
            symbols=board.power_card_bonus_symbols,
        )
    if kind == "farmer_bonus":
        return t(
            "Scoring: {points} points if at least {farmers} farmers work your provinces.",
            points=points,
            farmers=board.farmer_bonus_farmers,
        )
    if kind == "egypt_bonus":
        return t(
            "Scoring: {points} points if all your provinces lie in Upper Egypt or all in "
            "Lower Egypt.",
            points=points,
        )
    if kind == "side_bonus":
        return t(
            "Scoring: {points} points if all your provinces lie on one side of the Nile.",
            points=points,
        )
    if kind == "bank_bonus":
        return t(
            "Scoring: {points} points if your provinces are all on the Nile or all away from it.",
            points=points,
        )
    return ""


def card_phase(board: Board, kind: str) -> str:
    """The phase a power card is used in, in words."""
    phase = board.card(kind).phase
    words = {
        "auction": N_("auction"),
        "market": N_("market"),
        "sacrifice": N_("offering"),
        "offering": N_("offering"),
        "harvest": N_("harvest"),
        "scoring": N_("scoring"),
    }
    return _(words[phase]) if phase in words else phase


def _and(words: list[str]) -> str:
    """Two card names joined ("Protection and Bribery")."""
    if len(words) == 2:
        return t("{first} and {second}", first=words[0], second=words[1])
    return words[0] if words else ""


def _market_price(obs: AmunReObservation, bought: int) -> int:
    """What the next farmer or stone costs: the k-th of a market turn costs k gold."""
    return bought + 1 if obs["phase"] == "market" else 1


def action_hint(board: Board, obs: AmunReObservation, action: Action) -> str:
    """A few words shown beside a legal move: its price, the card it plays, what it ends."""

    def name(kind: str) -> str:
        return card_name(board, obs, kind)

    if isinstance(action, A.Bid):
        cards = [
            name(k) for k, on in (("blockade", action.blockade), ("overbid", action.overbid)) if on
        ]
        return t("playing {cards}", cards=_and(cards)) if cards else ""
    if isinstance(action, A.BuyCards):
        return t("{cost} gold", cost=action.count * (action.count + 1) // 2)
    if isinstance(action, A.Farmer):
        return t("{cost} gold", cost=_market_price(obs, obs["market"]["farmers_bought"]))
    if isinstance(action, A.Stone):
        return t("{cost} gold", cost=_market_price(obs, obs["market"]["stones_bought"]))
    if isinstance(action, A.Sell):
        return t("{card} for {price} gold", card=name(action.card), price=board.sell_price)
    if isinstance(action, A.PlayBonus):
        return t("{card}, {points} points", card=name(action.card), points=board.bonus_card_points)
    if isinstance(action, A.Builder):
        return name("builder")
    if isinstance(action, A.FreeFarmer):
        return name("free_farmer")
    if isinstance(action, A.EightGold):
        return name("eight_gold")
    if isinstance(action, A.HarvestIncrease):
        return name("harvest_increase")
    if isinstance(action, A.Offer) and action.theft:
        return t("take {gold} gold, no reward", gold=board.theft_gold)
    if isinstance(action, A.TakeCard):
        return _("drawn from the deck, seen by you alone")
    if isinstance(action, A.TakeFarmer):
        return _("free, onto an empty field")
    if isinstance(action, A.TakeStone):
        return _("free; a third stone makes a pyramid")
    if isinstance(action, A.Done):
        return _done_hint(obs["phase"])
    return ""


def _done_hint(phase: str) -> str:
    if phase == "market":
        return _("end your market turn")
    if phase == "rewards":
        return _("take no more rewards")
    if phase == "harvest":
        return _("collect your harvest")
    if phase == "scoring":
        return _("go on to the scoring")
    return ""


def action_label(board: Board, obs: AmunReObservation, action: Action) -> str:
    """A move in a player's words, for a button ("Buy 1 power card (1 gold)", "Place a farmer
    in Thebes (2 gold)"); the engine's text (``action.to_text()``) stays what is sent and
    what the terminal types."""

    def name(kind: str) -> str:
        return card_name(board, obs, kind)

    if isinstance(action, A.Bid):
        cards = [
            name(k) for k, on in (("blockade", action.blockade), ("overbid", action.overbid)) if on
        ]
        place = province_name(action.province)
        if cards:
            return t(
                "Bid {amount} gold on {province}, playing {cards}",
                amount=action.amount,
                province=place,
                cards=_and(cards),
            )
        return t("Bid {amount} gold on {province}", amount=action.amount, province=place)
    if isinstance(action, A.BuyCards):
        cost = action.count * (action.count + 1) // 2
        return ngettext(
            "Buy {n} power card ({cost} gold)", "Buy {n} power cards ({cost} gold)", action.count
        ).format(n=action.count, cost=cost)
    if isinstance(action, A.Farmer):
        return t(
            "Place a farmer in {province} ({cost} gold)",
            province=province_name(action.province),
            cost=_market_price(obs, obs["market"]["farmers_bought"]),
        )
    if isinstance(action, A.Stone):
        return t(
            "Place a stone in {province} ({cost} gold)",
            province=province_name(action.province),
            cost=_market_price(obs, obs["market"]["stones_bought"]),
        )
    if isinstance(action, A.Sell):
        return t("Sell {card} for {price} gold", card=name(action.card), price=board.sell_price)
    if isinstance(action, A.PlayBonus):
        return t(
            "Play {card}: {points} points", card=name(action.card), points=board.bonus_card_points
        )
    if isinstance(action, A.Builder):
        return t(
            "Play {card}: a pyramid from 2 stones in {province}",
            card=name("builder"),
            province=province_name(action.province),
        )
    if isinstance(action, A.FreeFarmer):
        return t(
            "Play {card}: a free farmer in {province}",
            card=name("free_farmer"),
            province=province_name(action.province),
        )
    if isinstance(action, A.EightGold):
        return t(
            "Play {card} on {province}: {gold} gold instead of its income",
            card=name("eight_gold"),
            province=province_name(action.province),
            gold=board.treasury_gold,
        )
    if isinstance(action, A.HarvestIncrease):
        return t(
            "Play {card} on {province}: +1 gold per farmer",
            card=name("harvest_increase"),
            province=province_name(action.province),
        )
    if isinstance(action, A.Offer):
        return offer_words(board, obs, action)
    if isinstance(action, A.Adjust):
        if action.delta > 0:
            return t("Raise the offering total by {n}", n=action.delta)
        return t("Lower the offering total by {n}", n=-action.delta)
    if isinstance(action, A.TakeCard):
        return _("Take a power card")
    if isinstance(action, A.TakeFarmer):
        return t("Take a farmer for {province}", province=province_name(action.province))
    if isinstance(action, A.TakeStone):
        return t("Take a stone for {province}", province=province_name(action.province))
    if isinstance(action, A.Pick):
        return t("Pick {province} (sealed)", province=province_name(action.province))
    if isinstance(action, A.Done):
        return _done_label(obs["phase"])
    return action.to_text()


def _done_label(phase: str) -> str:
    if phase == "market":
        return _("End your market turn")
    if phase == "rewards":
        return _("Take no more rewards")
    if phase == "harvest":
        return _("Collect your harvest")
    if phase == "scoring":
        return _("Go on to the scoring")
    return _("Done")


def offer_words(board: Board, obs: AmunReObservation, offer: A.Offer) -> str:
    """A sealed offering in words ("Offer 4 gold and Architect, with Offering Adjustment")."""
    if offer.theft:
        text = t("Offer the theft card (take {gold} gold)", gold=board.theft_gold)
    elif offer.cards:
        text = t(
            "Offer {gold} gold and {cards}",
            gold=offer.gold,
            cards=", ".join(card_name(board, obs, c) for c in offer.cards),
        )
    else:
        text = t("Offer {gold} gold", gold=offer.gold)
    if offer.correction:
        text = t("{offer}, with {card}", offer=text, card=card_name(board, obs, "correction"))
    return text


def move_group(action: Action) -> str:
    """The heading a move is listed under on the page ("Buy power cards", "Farmers")."""
    if isinstance(action, A.BuyCards):
        return _("Buy power cards")
    if isinstance(action, A.Farmer):
        return _("Buy a farmer")
    if isinstance(action, A.Stone):
        return _("Buy a stone")
    if isinstance(action, A.Sell):
        return _("Sell a card")
    if isinstance(action, A.PlayBonus):
        return _("Play a bonus card")
    if isinstance(action, A.Builder | A.FreeFarmer | A.EightGold | A.HarvestIncrease):
        return _("Play a power card")
    if isinstance(action, A.TakeCard | A.TakeFarmer | A.TakeStone):
        return _("Take a reward")
    if isinstance(action, A.Adjust):
        return _("Adjust the offering")
    if isinstance(action, A.Pick):
        return _("Pick a province card")
    if isinstance(action, A.Bid):
        return _("Bid")
    if isinstance(action, A.Offer):
        return _("Offer")
    return _("Finish")

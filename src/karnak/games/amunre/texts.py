"""Words for people: what each power card does and what a move will cost or mean.

Shared by every client (terminal, web), written in our own words. They read the game (its
printed board) and what the deciding seat may see (its observation), never the state.
"""

from __future__ import annotations

from typing import Literal

from karnak.core.actions import Action
from karnak.core.game import Game
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
    ("pyramids", "Pyramids"),
    ("complete_sets", "Complete sets"),
    ("nile_west", "West bank"),
    ("nile_east", "East bank"),
    ("temples", "Temples"),
    ("bonus_cards", "Bonus cards"),
    ("gold_ranking", "Gold ranking"),
)


def board_of(game: Game) -> Board:
    """The printed board of an Amun-Re game (public: the same for every seat)."""
    if not isinstance(game, AmunRe):
        raise TypeError(f"not an Amun-Re game: {game.name!r}")
    return game.board


def card_name(board: Board, obs: AmunReObservation, kind: str) -> str:
    """A power card's name in the table's edition."""
    return board.card(kind).name(obs["edition"])


def card_effect(kind: str, board: Board) -> str:
    """One line, in our own words, on what a power card does and when it is used."""
    points = board.bonus_card_points
    effects = {
        "blockade": "Play it with a bid: whoever overbids you must skip at least one space.",
        "overbid": "When overbid, bid higher on the same province instead of moving away.",
        "free_farmer": "Market: a farmer from the supply into one of your provinces, "
        "no empty field needed.",
        "builder": "Market: turn 2 stones of one of your provinces into a pyramid "
        "(once per phase).",
        "correction": "Offering: commit it with your offer; after the reveal move the total "
        "up or down by 3.",
        "eight_gold": f"Harvest: one of your provinces pays {board.treasury_gold} gold "
        "instead of its usual income.",
        "harvest_increase": "Harvest: +1 gold for each farmer in one of your provinces.",
        "card_bonus": f"Scoring: {points} points if your provinces show at least "
        f"{board.power_card_bonus_symbols} power-card symbols.",
        "farmer_bonus": f"Scoring: {points} points if at least {board.farmer_bonus_farmers} "
        "farmers work your provinces.",
        "egypt_bonus": f"Scoring: {points} points if all your provinces lie in Upper Egypt "
        "or all in Lower Egypt.",
        "side_bonus": f"Scoring: {points} points if all your provinces lie on one side "
        "of the Nile.",
        "bank_bonus": f"Scoring: {points} points if your provinces are all on the Nile "
        "or all away from it.",
    }
    return effects.get(kind, "")


def action_hint(board: Board, obs: AmunReObservation, action: Action) -> str:
    """A few words shown beside a legal move: its price, the card it plays, what it ends."""

    def name(kind: str) -> str:
        return card_name(board, obs, kind)

    market = obs["market"]
    if isinstance(action, A.Bid):
        cards = [
            name(k) for k, on in (("blockade", action.blockade), ("overbid", action.overbid)) if on
        ]
        return f"playing {' and '.join(cards)}" if cards else ""
    if isinstance(action, A.BuyCards):
        return f"{action.count * (action.count + 1) // 2} gold"
    if isinstance(action, A.Farmer):
        return f"{market['farmers_bought'] + 1 if obs['phase'] == 'market' else 1} gold"
    if isinstance(action, A.Stone):
        return f"{market['stones_bought'] + 1 if obs['phase'] == 'market' else 1} gold"
    if isinstance(action, A.Sell):
        return f"{name(action.card)} for {board.sell_price} gold"
    if isinstance(action, A.PlayBonus):
        return f"{name(action.card)}, {board.bonus_card_points} points"
    if isinstance(action, A.Builder):
        return name("builder")
    if isinstance(action, A.FreeFarmer):
        return name("free_farmer")
    if isinstance(action, A.EightGold):
        return name("eight_gold")
    if isinstance(action, A.HarvestIncrease):
        return name("harvest_increase")
    if isinstance(action, A.Offer) and action.theft:
        return f"take {board.theft_gold} gold, no reward"
    if isinstance(action, A.Done):
        return {
            "market": "end your market turn",
            "rewards": "take no more rewards",
            "harvest": "collect your harvest",
            "scoring": "go on to the scoring",
        }.get(obs["phase"], "")
    return ""

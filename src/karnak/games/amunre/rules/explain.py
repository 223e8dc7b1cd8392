"""Precise reasons why an action is illegal, for error messages people can act on."""

from __future__ import annotations

from typing import TYPE_CHECKING

from karnak.core.actions import Action
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS

if TYPE_CHECKING:
    from karnak.games.amunre.rules.state import AmunReState

_PHASE_OF = {
    "bid": ("auction",),
    "buy_cards": ("market",),
    "farmer": ("market",),
    "stone": ("market",),
    "builder": ("market",),
    "free_farmer": ("market",),
    "offer": ("offering",),
    "adjust": ("adjust",),
    "take_card": ("rewards",),
    "take_farmer": ("rewards",),
    "take_stone": ("rewards",),
    "eight_gold": ("harvest",),
    "harvest_increase": ("harvest",),
    "bonus": ("scoring",),
    "pick": ("pick",),
    "done": ("market", "rewards", "harvest", "scoring"),
}


def explain(state: AmunReState, seat: int, action: Action) -> str:
    kind = getattr(action, "kind", None)
    phase = state.phase
    phases = _PHASE_OF.get(kind or "")
    if phases is not None and phase not in phases:
        return f"that belongs to the {' or '.join(phases)} phase, and this is the {phase} phase"
    province = getattr(action, "province", None)
    if province is not None and province not in state.cat.index:
        names = ", ".join(state.board.province_names)
        return f"there is no province {province!r} (provinces: {names})"
    p = state.cat.index.get(province or "", -1)
    hand = state.hand[seat]
    if isinstance(action, A.Sell | A.PlayBonus):
        if action.card not in CARD_KINDS:
            return f"there is no power card {action.card!r}"
        if not hand[CARD_KINDS.index(action.card)]:
            return f"you hold no {state.card_name(action.card)} card"
        if isinstance(action, A.PlayBonus):
            return "its condition is not met by your provinces, or you already played one"
    if isinstance(action, A.Bid):
        return _explain_bid(state, seat, action, p)
    if p >= 0 and kind not in ("pick",) and state.owner[p] != seat:
        return f"{province} is not your province"
    if isinstance(action, A.BuyCards):
        own = state.owned(seat)
        limit = max((state.board.provinces[q].card_limit for q in own), default=0)
        if state.stage > 0:
            return "power cards come first in a market turn, and that step is over"
        if action.count > limit:
            return f"your provinces let you buy at most {limit} power card(s)"
        cost = action.count * (action.count + 1) // 2
        if cost > state.gold[seat]:
            return f"{action.count} cards cost {cost} gold and you have {state.gold[seat]}"
    if isinstance(action, A.Farmer | A.TakeFarmer):
        if state.field_farmers[p] >= state.board.provinces[p].fields:
            return f"{province} has no empty field"
        if isinstance(action, A.Farmer) and state.stage > 1:
            return "farmers come before stones in a market turn"
        if not state.farmer_supply:
            return "the farmer supply is empty"
    if isinstance(action, A.Farmer | A.Stone):
        cost = (state.bought_farmers if isinstance(action, A.Farmer) else state.bought_stones) + 1
        if cost > state.gold[seat]:
            return f"the next one costs {cost} gold and you have {state.gold[seat]}"
    if isinstance(action, A.Builder):
        if not hand[CARD_KINDS.index("builder")]:
            return "you hold no builder card"
        if state.stones[p] < 2:
            return f"{province} needs 2 stones for the builder"
        return "you already played a builder this phase"
    if isinstance(action, A.Offer):
        if action.theft and action.gold:
            return "the theft card is offered alone (with at most a correction card)"
        if not action.theft and action.gold + len(action.cards) < 1:
            return "an offering is at least 1 gold, or the theft card"
        if action.gold > state.gold[seat]:
            return f"you have only {state.gold[seat]} gold"
        if action.correction and not hand[CARD_KINDS.index("correction")]:
            return "you hold no sacrifice correction card"
        if action.cards and not state.offer_cards:
            return "power cards can be offered only under the offer_cards option"
    if isinstance(action, A.Pick) and p not in state.prov_hand[seat]:
        return f"{province} is not among your province cards"
    return "it is not among the legal actions at this point"


def _explain_bid(state: AmunReState, seat: int, bid: A.Bid, p: int) -> str:
    spaces = state.board.bid_spaces
    if p < 0:
        return f"there is no province {bid.province!r}"
    if p not in state.on_auction:
        out = ", ".join(state.board.provinces[q].name for q in state.on_auction)
        return f"{bid.province} is not up for auction (on the board: {out})"
    if bid.amount not in spaces:
        return f"{bid.amount} is not a bid space (spaces: {', '.join(map(str, spaces))})"
    if bid.amount > state.gold[seat]:
        return f"you have only {state.gold[seat]} gold"
    if state.bid_prov[seat] == p and not bid.overbid:
        return f"you were overbid on {bid.province} and must move to another card (or play overbid)"
    if bid.blockade and not state.hand[seat][CARD_KINDS.index("blockade")]:
        return "you hold no bidding blockade card"
    if bid.overbid and not state.hand[seat][CARD_KINDS.index("overbid")]:
        return "you hold no overbid-in-same-province card"
    for flag, kind in ((bid.blockade, "blockade"), (bid.overbid, "overbid")):
        if flag and state.played[seat] >> CARD_KINDS.index(kind) & 1:
            return f"you already played a {state.card_name(kind)} card in this auction"
    lowest = 0
    for m in range(state.n):
        if m != seat and state.bid_prov[m] == p:
            lowest = max(lowest, state.bid_space[m] + (2 if state.blockade[m] else 1))
    if spaces.index(bid.amount) < lowest:
        need = spaces[lowest] if lowest < len(spaces) else None
        if need is None:
            return f"{bid.province} cannot be overbid any more"
        return f"a bid on {bid.province} must be at least {need}"
    return "it is not among the legal actions at this point"

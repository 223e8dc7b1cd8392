"""Amun-Re's actions: small immutable values with a text form and a JSON form.

Each text form round-trips through :func:`parse_action` (``Bid("THEBES", 6).to_text()`` is
``"bid THEBES 6"``) and each JSON form through :func:`action_from_json`. Provinces are
written by their printed names; power cards by their stable ids (see ``board.CARD_KINDS``).

Market purchases are one item per action: the k-th farmer (or stone) bought in a turn costs
k gold, so buying n of a kind costs n(n+1)/2 exactly as the price table says, and placement
is decided item by item. Power cards are bought as a count in one action, because a buyer
must pay before seeing what the cards are.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from karnak.core.errors import InvalidActionTextError
from karnak.games.amunre.rules.board import CARD_KINDS


@dataclass(frozen=True, slots=True)
class Bid:
    """Put (or move) one's bidding marker on a province card at a bid space."""

    province: str
    amount: int
    blockade: bool = False  # play a bidding blockade with this bid
    overbid: bool = False  # play "overbid in same province" to re-bid on the same card

    kind: ClassVar[str] = "bid"

    def to_text(self) -> str:
        text = f"bid {self.province} {self.amount}"
        if self.blockade:
            text += " +blockade"
        if self.overbid:
            text += " +overbid"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "bid",
            "province": self.province,
            "amount": self.amount,
            "blockade": self.blockade,
            "overbid": self.overbid,
        }


@dataclass(frozen=True, slots=True)
class BuyCards:
    """Buy ``count`` power cards in the market (price count(count+1)/2)."""

    count: int
    kind: ClassVar[str] = "buy_cards"

    def to_text(self) -> str:
        return f"buy-cards {self.count}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "buy_cards", "count": self.count}


@dataclass(frozen=True, slots=True)
class Farmer:
    """Buy the next farmer of this market turn and place it on an empty field."""

    province: str
    kind: ClassVar[str] = "farmer"

    def to_text(self) -> str:
        return f"farmer {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "farmer", "province": self.province}


@dataclass(frozen=True, slots=True)
class Stone:
    """Buy the next stone of this market turn and place it in an own province."""

    province: str
    kind: ClassVar[str] = "stone"

    def to_text(self) -> str:
        return f"stone {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "stone", "province": self.province}


@dataclass(frozen=True, slots=True)
class Builder:
    """Play a builder card: a pyramid from 2 stones in this province."""

    province: str
    kind: ClassVar[str] = "builder"

    def to_text(self) -> str:
        return f"builder {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "builder", "province": self.province}


@dataclass(frozen=True, slots=True)
class FreeFarmer:
    """Play a free-farmer card: a farmer from the supply onto flat land here."""

    province: str
    kind: ClassVar[str] = "free_farmer"

    def to_text(self) -> str:
        return f"free-farmer {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "free_farmer", "province": self.province}


@dataclass(frozen=True, slots=True)
class Done:
    """Finish one's part of the current step (market turn, rewards, harvest, scoring)."""

    kind: ClassVar[str] = "done"

    def to_text(self) -> str:
        return "done"

    def to_json(self) -> dict[str, Any]:
        return {"type": "done"}


@dataclass(frozen=True, slots=True)
class Sell:
    """Discard a power card for 1 gold (allowed whenever the seat has a decision)."""

    card: str
    kind: ClassVar[str] = "sell"

    def to_text(self) -> str:
        return f"sell {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "sell", "card": self.card}


@dataclass(frozen=True, slots=True)
class Offer:
    """A sealed offering: ``gold`` gold (at least 1) or the theft card, optionally with a
    sacrifice-correction card and, under the ``offer_cards`` option, power cards worth 1 each.
    """

    gold: int = 0
    theft: bool = False
    correction: bool = False
    cards: tuple[str, ...] = ()
    kind: ClassVar[str] = "offer"

    @property
    def value(self) -> int:
        """The offer's own size, which ranks the rewards (the theft ranks nowhere)."""
        return -3 if self.theft else self.gold + len(self.cards)

    def to_text(self) -> str:
        text = "offer theft" if self.theft else f"offer {self.gold}"
        if self.cards:
            text += " +cards=" + ",".join(self.cards)
        if self.correction:
            text += " +correction"
        return text

    def to_json(self) -> dict[str, Any]:
        return {
            "type": "offer",
            "gold": self.gold,
            "theft": self.theft,
            "correction": self.correction,
            "cards": list(self.cards),
        }


@dataclass(frozen=True, slots=True)
class Adjust:
    """Use one's revealed sacrifice-correction card: +3 or -3 on the total."""

    delta: int
    kind: ClassVar[str] = "adjust"

    def to_text(self) -> str:
        return f"adjust {self.delta:+d}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "adjust", "delta": self.delta}


@dataclass(frozen=True, slots=True)
class TakeCard:
    """Take a power card as an offering reward."""

    kind: ClassVar[str] = "take_card"

    def to_text(self) -> str:
        return "take card"

    def to_json(self) -> dict[str, Any]:
        return {"type": "take_card"}


@dataclass(frozen=True, slots=True)
class TakeFarmer:
    """Take a farmer as an offering reward, onto an empty field here."""

    province: str
    kind: ClassVar[str] = "take_farmer"

    def to_text(self) -> str:
        return f"take farmer {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "take_farmer", "province": self.province}


@dataclass(frozen=True, slots=True)
class TakeStone:
    """Take a stone as an offering reward, placed here at once."""

    province: str
    kind: ClassVar[str] = "take_stone"

    def to_text(self) -> str:
        return f"take stone {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "take_stone", "province": self.province}


@dataclass(frozen=True, slots=True)
class EightGold:
    """Play an 8-gold card on a province: it pays 8 instead of its income this harvest."""

    province: str
    kind: ClassVar[str] = "eight_gold"

    def to_text(self) -> str:
        return f"eight-gold {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "eight_gold", "province": self.province}


@dataclass(frozen=True, slots=True)
class HarvestIncrease:
    """Play a harvest-increase card: +1 gold per farmer in this province this harvest."""

    province: str
    kind: ClassVar[str] = "harvest_increase"

    def to_text(self) -> str:
        return f"harvest-increase {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "harvest_increase", "province": self.province}


@dataclass(frozen=True, slots=True)
class PlayBonus:
    """Play a scoring bonus card whose condition one's provinces meet (3 points)."""

    card: str
    kind: ClassVar[str] = "bonus"

    def to_text(self) -> str:
        return f"bonus {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "bonus", "card": self.card}


@dataclass(frozen=True, slots=True)
class Pick:
    """Expert provinces: choose (sealed) which province card of one's hand comes out."""

    province: str
    kind: ClassVar[str] = "pick"

    def to_text(self) -> str:
        return f"pick {self.province}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "pick", "province": self.province}


AmunReAction = (
    Bid
    | BuyCards
    | Farmer
    | Stone
    | Builder
    | FreeFarmer
    | Done
    | Sell
    | Offer
    | Adjust
    | TakeCard
    | TakeFarmer
    | TakeStone
    | EightGold
    | HarvestIncrease
    | PlayBonus
    | Pick
)

DONE = Done()
TAKE_CARD = TakeCard()

_PROVINCE_ACTIONS: dict[str, type[Any]] = {
    "farmer": Farmer,
    "stone": Stone,
    "builder": Builder,
    "free-farmer": FreeFarmer,
    "eight-gold": EightGold,
    "harvest-increase": HarvestIncrease,
    "pick": Pick,
}
_JSON_PROVINCE_ACTIONS: dict[str, type[Any]] = {
    "farmer": Farmer,
    "stone": Stone,
    "builder": Builder,
    "free_farmer": FreeFarmer,
    "eight_gold": EightGold,
    "harvest_increase": HarvestIncrease,
    "take_farmer": TakeFarmer,
    "take_stone": TakeStone,
    "pick": Pick,
}

ACTION_FORMS = (
    "bid PROVINCE AMOUNT [+blockade] [+overbid]",
    "buy-cards N",
    "farmer PROVINCE",
    "stone PROVINCE",
    "builder PROVINCE",
    "free-farmer PROVINCE",
    "sell CARD",
    "offer N|theft [+cards=CARD,CARD] [+correction]",
    "adjust +3|-3",
    "take card | take farmer PROVINCE | take stone PROVINCE",
    "eight-gold PROVINCE",
    "harvest-increase PROVINCE",
    "bonus CARD",
    "pick PROVINCE",
    "done",
)


def _bad(text: str, why: str) -> InvalidActionTextError:
    forms = "; ".join(ACTION_FORMS)
    return InvalidActionTextError(
        f"cannot read {text!r} as an Amun-Re action: {why}. Forms: {forms}"
    )


def _province(word: str) -> str:
    return word.upper()


def _card(text: str, word: str) -> str:
    card = word.lower().replace("-", "_")
    if card not in CARD_KINDS:
        raise _bad(text, f"unknown power card {word!r} (cards: {', '.join(CARD_KINDS)})")
    return card


def _int(text: str, word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise _bad(text, f"{word!r} is not a whole number") from None


def parse_action(text: str) -> AmunReAction:
    """Read an action from its text form (case-insensitive, extra spaces ignored)."""
    words = text.split()
    if not words:
        raise _bad(text, "it is empty")
    head, rest = words[0].lower(), words[1:]
    if head == "done" and not rest:
        return DONE
    if head == "bid" and len(rest) >= 2:
        flags = {w.lower() for w in rest[2:]}
        unknown = flags - {"+blockade", "+overbid"}
        if unknown:
            raise _bad(text, f"unknown flag(s) {', '.join(sorted(unknown))}")
        return Bid(
            _province(rest[0]), _int(text, rest[1]), "+blockade" in flags, "+overbid" in flags
        )
    if head == "buy-cards" and len(rest) == 1:
        return BuyCards(_int(text, rest[0]))
    if head in _PROVINCE_ACTIONS and len(rest) == 1:
        action: AmunReAction = _PROVINCE_ACTIONS[head](_province(rest[0]))
        return action
    if head == "sell" and len(rest) == 1:
        return Sell(_card(text, rest[0]))
    if head == "bonus" and len(rest) == 1:
        return PlayBonus(_card(text, rest[0]))
    if head == "adjust" and len(rest) == 1 and rest[0] in ("+3", "-3"):
        return Adjust(int(rest[0]))
    if head == "take" and rest:
        what = rest[0].lower()
        if what == "card" and len(rest) == 1:
            return TAKE_CARD
        if what == "farmer" and len(rest) == 2:
            return TakeFarmer(_province(rest[1]))
        if what == "stone" and len(rest) == 2:
            return TakeStone(_province(rest[1]))
    if head == "offer" and rest:
        first = rest[0].lower()
        theft = first == "theft"
        gold = 0 if theft else _int(text, first)
        correction = False
        cards: tuple[str, ...] = ()
        for flag in rest[1:]:
            low = flag.lower()
            if low == "+correction":
                correction = True
            elif low.startswith("+cards="):
                cards = tuple(sorted(_card(text, c) for c in low[7:].split(",") if c))
            else:
                raise _bad(text, f"unknown flag {flag!r}")
        return Offer(gold=gold, theft=theft, correction=correction, cards=cards)
    raise _bad(text, "unknown action or wrong number of words")


def action_from_json(data: Mapping[str, Any]) -> AmunReAction:
    """Read an action from its JSON form."""
    if not isinstance(data, Mapping) or "type" not in data:
        raise InvalidActionTextError(f"an action must be an object with a 'type', not {data!r}")
    kind = data["type"]
    try:
        if kind == "bid":
            return Bid(
                str(data["province"]).upper(),
                int(data["amount"]),
                bool(data.get("blockade", False)),
                bool(data.get("overbid", False)),
            )
        if kind == "buy_cards":
            return BuyCards(int(data["count"]))
        if kind in _JSON_PROVINCE_ACTIONS:
            action: AmunReAction = _JSON_PROVINCE_ACTIONS[kind](str(data["province"]).upper())
            return action
        if kind == "done":
            return DONE
        if kind == "sell":
            return Sell(_card(str(data), str(data["card"])))
        if kind == "bonus":
            return PlayBonus(_card(str(data), str(data["card"])))
        if kind == "adjust":
            delta = int(data["delta"])
            if delta not in (3, -3):
                raise InvalidActionTextError("an adjustment is +3 or -3")
            return Adjust(delta)
        if kind == "take_card":
            return TAKE_CARD
        if kind == "offer":
            cards = tuple(sorted(_card(str(data), str(c)) for c in data.get("cards", [])))
            return Offer(
                gold=int(data.get("gold", 0)),
                theft=bool(data.get("theft", False)),
                correction=bool(data.get("correction", False)),
                cards=cards,
            )
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidActionTextError(f"malformed {kind!r} action {dict(data)!r}: {exc}") from exc
    raise InvalidActionTextError(f"unknown action type {kind!r}")

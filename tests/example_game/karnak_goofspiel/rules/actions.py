"""Goofspiel's one kind of move: bid a card of one's hand (``bid 4``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from karnak.core.errors import InvalidActionTextError


@dataclass(frozen=True, slots=True)
class Bid:
    """Lay ``card`` face down as this round's bid."""

    card: int

    def to_text(self) -> str:
        return f"bid {self.card}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "bid", "card": self.card}


def parse_action(text: str) -> Bid:
    words = text.strip().lower().split()
    if len(words) == 2 and words[0] == "bid" and words[1].isdigit():
        return Bid(int(words[1]))
    raise InvalidActionTextError(f"cannot read {text!r}: a move is written 'bid CARD', e.g. bid 3")


def action_from_json(data: Mapping[str, Any]) -> Bid:
    card = data.get("card")
    if data.get("type") != "bid" or isinstance(card, bool) or not isinstance(card, int):
        raise InvalidActionTextError(f"not a Goofspiel move: {dict(data)!r}")
    return Bid(card)

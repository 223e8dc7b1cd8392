"""Aton's moves as small immutable values with a text and a JSON form.

Texts: ``exchange``; ``allocate 3 1 4 2`` (the cards laid on cartouches 1 to 4, in order);
``remove 2.5`` and ``place 1.3`` (temple 2 square 5, temple 1 square 3; squares 1-12).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from karnak.core.errors import InvalidActionTextError


@dataclass(frozen=True, slots=True)
class Exchange:
    """Hand in the exchange counter: discard the four cards drawn and draw four new ones."""

    def to_text(self) -> str:
        return "exchange"

    def to_json(self) -> dict[str, Any]:
        return {"type": "exchange"}


@dataclass(frozen=True, slots=True)
class Allocate:
    """Lay the hand face down, one card on each cartouche (``cards[0]`` on cartouche 1)."""

    cards: tuple[int, int, int, int]

    def to_text(self) -> str:
        return "allocate " + " ".join(str(c) for c in self.cards)

    def to_json(self) -> dict[str, Any]:
        return {"type": "allocate", "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class Remove:
    """Take the counter off a square (temple and square numbered from 1)."""

    temple: int
    square: int

    def to_text(self) -> str:
        return f"remove {self.temple}.{self.square}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "remove", "temple": self.temple, "square": self.square}


@dataclass(frozen=True, slots=True)
class Place:
    """Put one counter from the stock on an empty square."""

    temple: int
    square: int

    def to_text(self) -> str:
        return f"place {self.temple}.{self.square}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "temple": self.temple, "square": self.square}


AtonAction = Exchange | Allocate | Remove | Place
USAGE: Final = "moves are: exchange | allocate C1 C2 C3 C4 | remove T.S | place T.S"


def _square(text: str, whole: str) -> tuple[int, int]:
    temple, dot, square = text.partition(".")
    if not dot or not temple.isdigit() or not square.isdigit():
        raise InvalidActionTextError(f"{whole!r}: a square is written TEMPLE.SQUARE, e.g. 2.5")
    return int(temple), int(square)


def parse_action(text: str) -> AtonAction:
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionTextError(f"an empty move; {USAGE}")
    verb, rest = words[0], words[1:]
    if verb == "exchange" and not rest:
        return Exchange()
    if verb == "allocate":
        if len(rest) != 4 or not all(w.isdigit() for w in rest):
            raise InvalidActionTextError(
                f"{text!r}: allocate needs four card values, e.g. allocate 3 1 4 2"
            )
        a, b, c, d = (int(w) for w in rest)
        return Allocate((a, b, c, d))
    if verb in ("remove", "place") and len(rest) == 1:
        temple, square = _square(rest[0], text)
        return Remove(temple, square) if verb == "remove" else Place(temple, square)
    raise InvalidActionTextError(f"cannot read {text!r}; {USAGE}")


def action_from_json(data: Mapping[str, Any]) -> AtonAction:
    kind = data.get("type")
    try:
        if kind == "exchange":
            return Exchange()
        if kind == "allocate":
            a, b, c, d = (int(x) for x in data["cards"])
            return Allocate((a, b, c, d))
        if kind == "remove":
            return Remove(int(data["temple"]), int(data["square"]))
        if kind == "place":
            return Place(int(data["temple"]), int(data["square"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidActionTextError(f"a malformed {kind} move: {dict(data)!r}") from exc
    raise InvalidActionTextError(f"unknown Aton move type {kind!r}; {USAGE}")

"""Egyptia's moves as small immutable values with a text and a JSON form.

Texts: ``choose stone`` (the column); ``ship 2``; ``plague locusts`` or ``plague hail-fire 3``
(the ship lost); ``build quarry B2`` or ``build mound E1``; ``pay 1g+2d`` (which resources to
spend when there is more than one way); ``gain 1g+1s`` (a Burial Mound's reward). Resources
are written g (grain), d (diamond), s (stone), f (favor); hexes by row letter and place.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from karnak.core.errors import InvalidActionTextError
from karnak.games.egyptia.rules.sheet import BUILDINGS, LETTERS, MOUND, RESOURCES, Bundle

PLAGUES: Final = (
    "locusts",
    "blood",
    "dust-storm",
    "flies",
    "pestilence",
    "frogs",
    "darkness",
    "boils",
    "hail-fire",
    "death",
)
PLAGUE_TITLES: Final = {
    "locusts": "Locusts",
    "blood": "Blood",
    "dust-storm": "Dust Storm",
    "flies": "Flies",
    "pestilence": "Pestilence",
    "frogs": "Frogs",
    "darkness": "Darkness",
    "boils": "Boils",
    "hail-fire": "Hail-fire",
    "death": "Death",
}
#: What each plague does, in a few words (``{pestilence}``: the points it costs at the end).
PLAGUE_EFFECTS: Final = {
    "locusts": "lose 2 grain",
    "blood": "lose 2 diamond",
    "dust-storm": "lose 2 stone",
    "flies": "lose 1 favor",
    "pestilence": "lose {pestilence} points at the end",
    "frogs": "lose 3 resources of your choice",
    "darkness": "no market and no Sacred Site this round",
    "boils": "no building next to your Oasis this round",
    "hail-fire": "lose an unused ship and its points",
    "death": "build a Burial Mound; may come again",
}


def plague_effect(name: str, pestilence: int = 2) -> str:
    """What the plague ``name`` does, for people."""
    return PLAGUE_EFFECTS[name].format(pestilence=pestilence)


_PLAGUE_ALIASES: Final = {"dust": "dust-storm", "duststorm": "dust-storm", "hailfire": "hail-fire"}
USAGE: Final = (
    "moves are: choose grain|diamond|stone|favor | ship N | plague NAME [SHIP] | "
    "build BUILDING HEX | pay 1g+2d | gain 2s"
)


def bundle_text(bundle: Bundle) -> str:
    """``(1, 2, 0, 0)`` as ``1g+2d``; nothing at all as ``0``."""
    parts = [f"{n}{LETTERS[i]}" for i, n in enumerate(bundle) if n]
    return "+".join(parts) or "0"


def bundle_words(bundle: Bundle) -> str:
    """``(1, 2, 0, 0)`` as ``1 grain, 2 diamond`` for people."""
    parts = [f"{n} {RESOURCES[i]}" for i, n in enumerate(bundle) if n]
    return ", ".join(parts) or "nothing"


_PART: Final = re.compile(r"^(\d*)([a-z]+)$")


def parse_bundle(text: str, whole: str) -> Bundle:
    counts = [0, 0, 0, 0]
    tokens = [t for t in re.split(r"[+\s,]+", text.strip().lower()) if t]
    if not tokens:
        raise InvalidActionTextError(f"{whole!r}: name the resources, e.g. 1g+2d")
    for token in tokens:
        if token == "0":
            continue
        match = _PART.match(token)
        if match is None:
            raise InvalidActionTextError(f"{whole!r}: cannot read {token!r}; write e.g. 2g or 1f")
        count, name = match.groups()
        if name in LETTERS and len(name) == 1:
            index = LETTERS.index(name)
        elif name in RESOURCES or name.rstrip("s") in RESOURCES:
            index = RESOURCES.index(name if name in RESOURCES else name.rstrip("s"))
        else:
            raise InvalidActionTextError(
                f"{whole!r}: {name!r} is not a resource; use g, d, s, f or their names"
            )
        counts[index] += int(count) if count else 1
    return (counts[0], counts[1], counts[2], counts[3])


@dataclass(frozen=True, slots=True)
class Choose:
    """Choose the column to produce from this round (sealed until everyone has chosen)."""

    column: int

    def to_text(self) -> str:
        return f"choose {RESOURCES[self.column]}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "choose", "column": RESOURCES[self.column]}


@dataclass(frozen=True, slots=True)
class UseShip:
    """Cross off an unused ship and take the resources printed beside it."""

    ship: int  # numbered from 1

    def to_text(self) -> str:
        return f"ship {self.ship}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "ship", "ship": self.ship}


@dataclass(frozen=True, slots=True)
class Plague:
    """Suffer a plague (after choosing a column of three dice or more)."""

    name: str
    ship: int = 0  # the ship Hail-fire takes (numbered from 1); 0 for the other plagues

    def to_text(self) -> str:
        return f"plague {self.name}" + (f" {self.ship}" if self.ship else "")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "plague", "plague": self.name}
        if self.ship:
            data["ship"] = self.ship
        return data


@dataclass(frozen=True, slots=True)
class Build:
    """Draw a building (or a Burial Mound) on an empty hex."""

    building: str
    hex: str

    def to_text(self) -> str:
        return f"build {self.building} {self.hex}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "build", "building": self.building, "hex": self.hex}


@dataclass(frozen=True, slots=True)
class Pay:
    """Which resources to scribble out, when a cost can be paid in more than one way."""

    bundle: Bundle

    def to_text(self) -> str:
        return f"pay {bundle_text(self.bundle)}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "pay", **dict(zip(RESOURCES, self.bundle, strict=True))}


@dataclass(frozen=True, slots=True)
class Gain:
    """The resources a Burial Mound gives: two basic ones, or one favor."""

    bundle: Bundle

    def to_text(self) -> str:
        return f"gain {bundle_text(self.bundle)}"

    def to_json(self) -> dict[str, Any]:
        return {"type": "gain", **dict(zip(RESOURCES, self.bundle, strict=True))}


EgyptiaAction = Choose | UseShip | Plague | Build | Pay | Gain


def _plague_name(word: str, whole: str) -> str:
    name = _PLAGUE_ALIASES.get(word, word)
    if name not in PLAGUES:
        raise InvalidActionTextError(
            f"{whole!r}: {word!r} is not a plague; plagues are {', '.join(PLAGUES)}"
        )
    return name


def _building(word: str, whole: str) -> str:
    name = "mound" if word in ("burial-mound", "burial") else word
    if name != MOUND and name not in BUILDINGS:
        raise InvalidActionTextError(
            f"{whole!r}: {word!r} is not a building; buildings are {', '.join((*BUILDINGS, MOUND))}"
        )
    return name


def parse_action(text: str) -> EgyptiaAction:
    words = text.strip().lower().split()
    if not words:
        raise InvalidActionTextError(f"an empty move; {USAGE}")
    verb, rest = words[0], words[1:]
    if verb == "choose" and len(rest) == 1 and rest[0] in RESOURCES:
        return Choose(RESOURCES.index(rest[0]))
    if verb == "ship" and len(rest) == 1 and rest[0].isdigit():
        return UseShip(int(rest[0]))
    if verb == "plague" and rest:
        if len(rest) >= 2 and rest[0] == "dust" and rest[1] == "storm":
            rest = ["dust-storm", *rest[2:]]
        name = _plague_name(rest[0], text)
        if name == "hail-fire":
            if len(rest) != 2 or not rest[1].isdigit():
                raise InvalidActionTextError(
                    f"{text!r}: Hail-fire takes a ship; write e.g. plague hail-fire 2"
                )
            return Plague(name, int(rest[1]))
        if len(rest) == 1:
            return Plague(name)
    if verb == "build" and len(rest) in (2, 3):
        if len(rest) == 3 and rest[0] == "burial" and rest[1] == "mound":
            rest = ["mound", rest[2]]
        if len(rest) == 2:
            return Build(_building(rest[0], text), rest[1].upper())
    if verb in ("pay", "gain") and rest:
        bundle = parse_bundle(" ".join(rest), text)
        return Pay(bundle) if verb == "pay" else Gain(bundle)
    raise InvalidActionTextError(f"cannot read {text!r}; {USAGE}")


def _json_bundle(data: Mapping[str, Any]) -> Bundle:
    g, d, s, f = (int(data.get(name, 0)) for name in RESOURCES)
    return (g, d, s, f)


def action_from_json(data: Mapping[str, Any]) -> EgyptiaAction:
    kind = data.get("type")
    try:
        if kind == "choose":
            column = data["column"]
            return Choose(RESOURCES.index(column) if isinstance(column, str) else int(column))
        if kind == "ship":
            return UseShip(int(data["ship"]))
        if kind == "plague":
            return Plague(
                _plague_name(str(data["plague"]), str(dict(data))), int(data.get("ship", 0))
            )
        if kind == "build":
            return Build(
                _building(str(data["building"]), str(dict(data))), str(data["hex"]).upper()
            )
        if kind == "pay":
            return Pay(_json_bundle(data))
        if kind == "gain":
            return Gain(_json_bundle(data))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidActionTextError(f"a malformed {kind} move: {dict(data)!r}") from exc
    raise InvalidActionTextError(f"unknown Egyptia move type {kind!r}; {USAGE}")

"""Bots named by their level ("Medium bot"), with the bot behind the level kept for a hover.

A person picks an opponent by strength, so a bot seat is named after its level everywhere
(the lobby, the game page, the log, the results, the profiles), not after its spec
(``heuristic``, ``ismcts:0.25s``). The level is read back from the spec with
:func:`karnak.bots.levels.level_of` (a searching level stepped down at a big table is still
its level); a spec that is no level's bot (an expert's hand-written ``ismcts:5000``) is
simply "Bot".

- :func:`bot_view` is what a view's seat carries: ``{"level": "medium", "spec":
  "heuristic", "label": "Medium bot"}`` (the label in the reader's language).
- :func:`default_bot_names` names the bot seats of a new game that were given no name:
  "Medium bot", or "Medium bot 1", "Medium bot 2" when a level has several seats. A name
  is a player's name from then on (it is written in the creator's language and never
  translated again, like any name a person types).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from karnak.bots.levels import level_of
from karnak.core.game import Game
from karnak.i18n import N_, _

#: Each level's name for a bot seat (marked for the catalogue; translated where shown).
LEVEL_NAMES = {
    "easy": N_("Easy bot"),
    "medium": N_("Medium bot"),
    "hard": N_("Hard bot"),
    "expert": N_("Expert bot"),
    "master": N_("Master bot"),
}
#: A bot whose spec is no level's.
OTHER_BOT = N_("Bot")


def bot_level(spec: str | None, game: Game | str) -> str | None:
    """The level of the bot ``spec`` in ``game``, or None (not a level's bot, or no spec)."""
    if not spec:
        return None
    return level_of(spec, game)


def level_label(level: str | None) -> str:
    """A level's bot name in the current language ("Medium bot"); "Bot" for None."""
    return _(LEVEL_NAMES.get(level or "", OTHER_BOT))


def bot_view(spec: str | None, game: Game | str) -> dict[str, Any] | None:
    """What a view says of a seat's bot: its level, its spec (shown on hover) and its
    level's name; None for a person's seat."""
    if not spec:
        return None
    level = bot_level(spec, game)
    return {"level": level, "spec": spec, "label": level_label(level)}


def default_bot_names(
    specs: Sequence[str | None], game: Game | str, taken: Sequence[str] = ()
) -> list[str | None]:
    """A name for each seat of ``specs`` that is a bot (None for the others): its level's
    name, numbered when a level has several seats ("Medium bot 1", "Medium bot 2"), and
    never one of ``taken`` (compared without case)."""
    levels = [bot_level(spec, game) if spec else None for spec in specs]
    counts = Counter(level for spec, level in zip(specs, levels, strict=True) if spec)
    used = {name.casefold() for name in taken}
    numbers: Counter[str | None] = Counter()
    names: list[str | None] = []
    for spec, level in zip(specs, levels, strict=True):
        if not spec:
            names.append(None)
            continue
        base = level_label(level)
        numbers[level] += 1
        name = f"{base} {numbers[level]}" if counts[level] > 1 else base
        while name.casefold() in used:  # a person already took it: the next free number
            numbers[level] += 1
            name = f"{base} {numbers[level]}"
        used.add(name.casefold())
        names.append(name)
    return names

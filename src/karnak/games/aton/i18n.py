"""Aton in every language Karnak speaks: the game's translation domain, ``aton``.

Its catalogues live in this package (``locale/<lang>/LC_MESSAGES/aton.po``), so the game
brings its words with it. Modules of the game import their functions from here::

    from karnak.games.aton.i18n import _, t, ngettext

The rules write their log lines in English as templates (``log.add("...")``); a client
translates them as it shows them (:meth:`AtonDomain.event_text`). Some arguments of those
lines are words of the game that the rules write in English ("temple 2", "every green
square", "Red's"): they are translated here with the line, never a player's name.
"""

from __future__ import annotations

import re
from pathlib import Path

from karnak.i18n import N_, Domain

#: Log arguments whose values are words of the game, translated with the line.
TRANSLATED_ARGS = frozenset({"why", "reason", "colour", "where", "whose"})

#: The fixed words the rules put in log lines: what scored (``why``), a square's colour
#: (``colour``), where a counter came from (``where``), a win's reason (``reason``).
GAME_WORDS = (
    N_("cartouche 1"),
    N_("temple 1"),
    N_("temple 2"),
    N_("temple 3"),
    N_("temple 4"),
    N_("black squares"),
    N_("bonus squares"),
    N_("yellow"),
    N_("green"),
    N_("black"),
    N_("blue"),
    N_("the stock (no free square in reach)"),
    N_("every yellow square"),
    N_("every green square"),
    N_("temple {t} square {s}"),
)
_BONUS = re.compile(r"^bonus \+(\d+)$")
_SQUARE = re.compile(r"^temple (\d+) square (\d+)$")
_POINTS = re.compile(r"^(\d+) points$")
_WHOLE_TEMPLE = re.compile(r"^every square of temple (\d+)$")


class AtonDomain(Domain):
    """The ``aton`` domain, whose log lines carry game words built by the rules."""

    def log_argument(self, key: str, value: str) -> str:
        """One argument of a log line in the current language."""
        if key == "whose":
            # "Red's": the translations take the bare name and say the possessive themselves
            return value[:-2] if value.endswith("'s") else value
        if match := _BONUS.match(value):
            return self.gettext("bonus +{n}").format(n=match.group(1))
        if match := _SQUARE.match(value):
            return self.gettext("temple {t} square {s}").format(t=match.group(1), s=match.group(2))
        if match := _POINTS.match(value):
            n = int(match.group(1))
            return self.ngettext("{n} point", "{n} points", n).format(n=n)
        if match := _WHOLE_TEMPLE.match(value):
            return self.gettext("every square of temple {n}").format(n=match.group(1))
        return self.gettext(value)


DOMAIN = AtonDomain(
    "aton",
    Path(__file__).resolve().parent / "locale",
    log_templates=True,
    translated_args=TRANSLATED_ARGS,
)
_ = DOMAIN.gettext
t = DOMAIN.t
ngettext = DOMAIN.ngettext
pgettext = DOMAIN.pgettext

__all__ = ["DOMAIN", "N_", "_", "ngettext", "pgettext", "t"]

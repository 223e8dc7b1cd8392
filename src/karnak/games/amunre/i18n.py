"""Amun-Re in every language Karnak speaks: the game's translation domain, ``amunre``.

Its catalogues live in this package (``locale/<lang>/LC_MESSAGES/amunre.po``), so the game
brings its words with it. Modules of the game import their functions from here::

    from karnak.games.amunre.i18n import _, t, ngettext

The rules write their log lines in English as templates (``log.add("...")``); a client
translates them as it shows them (:meth:`AmunReDomain.event_text`). Some arguments of those
lines are built by the rules from words of the game (a list of provinces or cards, the
offerings of a reveal, the lines of a scoring, the result): they are read back here piece by
piece and said again in the reader's language. A player's name is never translated; a value
that does not read as the rules write it is shown as it was written.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from karnak.i18n import N_, Domain

#: Log arguments whose values are words of the game, translated with the line.
TRANSLATED_ARGS = frozenset(
    {
        "province",
        "card",
        "cards",
        "leader",
        "kingdom",
        "provinces",
        "picks",
        "extra",
        "parts",
        "offer",
        "detail",
        "result",
    }
)

#: The lines of a scoring as the rules name them in a log line's ``detail``.
DETAIL_WORDS = {
    "pyramids": N_("pyramids {n}"),
    "complete sets": N_("complete sets {n}"),
    "west bank": N_("west bank {n}"),
    "east bank": N_("east bank {n}"),
    "temples": N_("temples {n}"),
    "bonus cards": N_("bonus cards {n}"),
    "gold ranking": N_("gold ranking {n}"),
}

_EXTRA = re.compile(r"^ playing (.+)$")
_WINS = re.compile(r"^(.+) wins\.$")
_SHARED = re.compile(r"^Shared victory: (.+)\.$")
_DETAIL = re.compile(r"^(.+) (-?\d+)$")
#: An offering as ``AmunReState._offer_text`` writes it.
_OFFER_TEXT = (
    r"(?:the theft card \(-(?P<theft>\d+)\)|(?P<gold>\d+) gold"
    r"(?: and (?P<count>\d+) (?P<term>power card\(s\)|Favor card\(s\)) \((?P<names>[^()]*)\))?)"
    r"(?P<correction> with a correction card)?"
)
#: One offering of a reveal: its player, then the offering.
_OFFER = re.compile(r"(?P<who>.+?) " + _OFFER_TEXT + r"(?=, |$)")
_ONE_OFFER = re.compile(_OFFER_TEXT + "$")


class AmunReDomain(Domain):
    """The ``amunre`` domain, whose log lines carry lists and phrases built by the rules."""

    def _words(self, value: str, word: Callable[[str], str]) -> str:
        """A list joined by ", " with each entry said by ``word``."""
        return ", ".join(word(part) for part in value.split(", ")) if value else value

    def _and(self, words: list[str]) -> str:
        if len(words) == 2:
            return self.gettext("{first} and {second}").format(first=words[0], second=words[1])
        return ", ".join(words)

    def _pick(self, part: str) -> str:
        """ "Ana THEBES": a player and the province card they picked."""
        who, _sep, province = part.rpartition(" ")
        return f"{who} {self.gettext(province)}" if who else self.gettext(part)

    def _detail(self, part: str) -> str:
        match = _DETAIL.match(part)
        if match is None or match.group(1) not in DETAIL_WORDS:
            return self.gettext(part)
        return self.gettext(DETAIL_WORDS[match.group(1)]).format(n=match.group(2))

    def _offers(self, value: str) -> str:
        """The offerings of a reveal ("Ana 4 gold, Bo the theft card (-3)")."""
        said = []
        pos = 0
        while pos < len(value):
            match = _OFFER.match(value, pos)
            if match is None:
                return value
            offer = self._offer(match)
            said.append(self.gettext("{player} {offer}").format(player=match["who"], offer=offer))
            pos = match.end()
            if value.startswith(", ", pos):
                pos += 2
        return ", ".join(said)

    def _offer(self, match: re.Match[str]) -> str:
        """One offering, read by :data:`_OFFER_TEXT`, in the current language."""
        if match.group("theft") is not None:
            offer = self.gettext("the theft card (-{gold})").format(gold=match.group("theft"))
        elif match.group("count") is not None:
            names = match.group("names")
            offer = self.gettext("{gold} gold and {count} {cards} ({names})").format(
                gold=match.group("gold"),
                count=match.group("count"),
                cards=self.gettext(match.group("term")),
                names=self._words(names, self.gettext),
            )
        else:
            offer = self.gettext("{n} gold").format(n=match.group("gold"))
        if match.group("correction"):
            offer = self.gettext("{offer} with a correction card").format(offer=offer)
        return offer

    def log_argument(self, key: str, value: str) -> str:
        """One argument of a log line in the current language."""
        if key in ("provinces", "cards"):
            return self._words(value, self.gettext)
        if key == "picks":
            return self._words(value, self._pick)
        if key == "detail":
            return self._words(value, self._detail)
        if key == "parts":
            return self._offers(value)
        if key == "offer":
            match = _ONE_OFFER.match(value)
            return value if match is None else self._offer(match)
        if key == "extra":
            if not value:
                return value
            match = _EXTRA.match(value)
            if match is None:
                return value
            cards = [self.gettext(card) for card in match.group(1).split(" and ")]
            return " " + self.gettext("playing {cards}").format(cards=self._and(cards))
        if key == "result":
            if match := _SHARED.match(value):
                return self.gettext("Shared victory: {players}.").format(players=match.group(1))
            if match := _WINS.match(value):
                return self.gettext("{player} wins.").format(player=match.group(1))
            return value
        return self.gettext(value)


DOMAIN = AmunReDomain(
    "amunre",
    Path(__file__).resolve().parent / "locale",
    log_templates=True,
    translated_args=TRANSLATED_ARGS,
)
_ = DOMAIN.gettext
t = DOMAIN.t
ngettext = DOMAIN.ngettext
pgettext = DOMAIN.pgettext

#: Phrases the log's arguments are said again with (see :meth:`AmunReDomain.log_argument`).
LOG_PHRASES = (
    N_("the theft card (-{gold})"),
    N_("{gold} gold and {count} {cards} ({names})"),
    N_("{n} gold"),
    N_("{offer} with a correction card"),
    N_("{player} {offer}"),
    N_("playing {cards}"),
    N_("{first} and {second}"),
    N_("Shared victory: {players}."),
    N_("{player} wins."),
)

__all__ = ["DOMAIN", "N_", "_", "ngettext", "pgettext", "t"]

"""Egyptia in every language Karnak speaks: the game's translation domain, ``egyptia``.

Its catalogues live in this package (``locale/<lang>/LC_MESSAGES/egyptia.po``), so the game
brings its words with it. Modules of the game import their functions from here::

    from karnak.games.egyptia.i18n import _, t, ngettext

The rules write their log lines in English as templates (``log.add("...")``); a client
translates them as it shows them (:meth:`EgyptiaDomain.event_text`). Some arguments of
those lines are words of the game that the rules put together in English: a column's
resource, the roll ("grain: d6=3 (Quarry); ..."), the Pharaoh cards with their texts, what
a builder did this round ("uses ship 1 for 2 grain; builds a Quarry on B2, paying ...").
They are read back here and said again in the reader's language; a player's name is never
translated, and a piece this module does not recognise stays as the rules wrote it.
"""

from __future__ import annotations

import re
from pathlib import Path

from karnak.games.egyptia.rules.sheet import RESOURCES as SHEET_RESOURCES
from karnak.i18n import N_, Domain

#: Log arguments whose values are words of the game, translated with the line.
TRANSLATED_ARGS = frozenset(
    {"cards", "dice", "what", "column", "size", "lost", "plague", "built", "why", "rank"}
)

_RESOURCE = r"(grain|diamond|stone|favor)"
_AMOUNT = re.compile(rf"^(\d+) {_RESOURCE}$")
_DICE = re.compile(r"^(\d+) (die|dice)$")
_BUILT = re.compile(r"^(\d+) buildings?$")
_LOST = re.compile(r"^ \((\d+) do not fit on the track\)$")
_RED = re.compile(r"^(.+) circled a red dot$")
_COLUMN_PART = re.compile(rf"^{_RESOURCE}: (.*)$")
_DIE = re.compile(r"^(d\d+=\d+) \((\w[\w ]*)\)$")
_SHIP = re.compile(r"^uses ship (\d+) for (.+)$")
_HAIL_FIRE = re.compile(r"^suffers Hail-fire: ship (\d+) is lost$")
_PESTILENCE = re.compile(r"^suffers Pestilence \((\d+) points at the end\)$")
_LOSING = re.compile(r"^suffers ([\w -]+), losing (.+)$")
_SUFFERS = re.compile(r"^suffers ([\w -]+)$")
_MOUND = re.compile(r"^builds a Burial Mound on (\w+)$")
_BUILDS = re.compile(
    r"^builds an? ([\w ]+?)( through the d20)? on (\w+), paying (.+?)"
    rf"(?: \({_RESOURCE} productivity \+(\d+)\))?$"
)
_TAKES = re.compile(r"^takes (.+) for the Burial Mound$")

#: The fixed words the rules put in log lines, for extraction.
GAME_WORDS = (
    N_("the maps are full"),
    N_(" and must suffer a plague"),
    N_("any building"),
)


class EgyptiaDomain(Domain):
    """The ``egyptia`` domain, whose log lines carry game words put together by the rules."""

    def log_argument(self, key: str, value: str) -> str:
        """One argument of a log line in the current language (as written if unknown)."""
        from karnak.games.egyptia import words

        if key == "column":
            return words.resource(value)
        if key == "size":
            match = _DICE.match(value)
            return words.dice(int(match.group(1))) if match else value
        if key == "built":
            match = _BUILT.match(value)
            if match:
                n = int(match.group(1))
                return self.ngettext("{n} building", "{n} buildings", n).format(n=n)
            return value
        if key == "lost":
            match = _LOST.match(value)
            return (
                " " + self.gettext("({n} do not fit on the track)").format(n=match.group(1))
                if match
                else value
            )
        if key == "why":
            match = _RED.match(value)
            if match:
                return self.gettext("{who} circled a red dot").format(who=match.group(1))
            return self.gettext(value) if value in GAME_WORDS else value
        if key == "plague":
            return self.gettext(value) if value in GAME_WORDS else value
        if key == "rank":
            return words.rank(value)
        if key == "cards":
            for text in words.CARD_TEXTS:
                value = value.replace(f"({text})", f"({self.gettext(text)})")
            return value
        if key == "dice":
            return "; ".join(self.roll_part(part) for part in value.split("; "))
        if key == "what":
            return "; ".join(self.note(part) for part in value.split("; "))
        return self.gettext(value)

    def roll_part(self, part: str) -> str:
        """``grain: d6=3 (Quarry), d20=15 (any)`` in the current language."""
        from karnak.games.egyptia import words

        match = _COLUMN_PART.match(part)
        if match is None:
            return part
        dice = []
        for die in match.group(2).split(", "):
            found = _DIE.match(die)
            if found is None:
                dice.append(die)
                continue
            name = found.group(2)
            building = next((k for k, v in words.BUILDING_NAMES.items() if v == name), None)
            if name == "any":
                shown = self.gettext("any building")
            elif building is not None:
                shown = words.building(building)
            else:
                shown = name
            dice.append(f"{found.group(1)} ({shown})")
        return f"{words.resource(match.group(1))}: {', '.join(dice)}"

    def note(self, text: str) -> str:
        """What a builder did (one of the rules' round notes) in the current language."""
        from karnak.games.egyptia import words

        def bundle(said: str) -> str:
            if said == "nothing":
                return words.bundle((0, 0, 0, 0))
            values = [0, 0, 0, 0]
            for part in said.split(", "):
                found = _AMOUNT.match(part)
                if found is None:
                    return said
                values[SHEET_RESOURCES.index(found.group(2))] += int(found.group(1))
            return words.bundle(values)

        def plague(title: str) -> str:
            name = next((k for k, v in words.PLAGUE_NAMES.items() if v == title), None)
            return words.plague(name) if name else title

        if match := _SHIP.match(text):
            return self.gettext("uses ship {n} for {gives}").format(
                n=match.group(1), gives=bundle(match.group(2))
            )
        if match := _HAIL_FIRE.match(text):
            return self.gettext("suffers Hail-fire: ship {n} is lost").format(n=match.group(1))
        if match := _PESTILENCE.match(text):
            n = int(match.group(1))
            return self.ngettext(
                "suffers Pestilence ({n} point at the end)",
                "suffers Pestilence ({n} points at the end)",
                n,
            ).format(n=n)
        if match := _LOSING.match(text):
            return self.gettext("suffers {plague}, losing {what}").format(
                plague=plague(match.group(1)), what=bundle(match.group(2))
            )
        if match := _MOUND.match(text):
            return self.gettext("builds a Burial Mound on {hex}").format(hex=match.group(1))
        if match := _BUILDS.match(text):
            title, wild, hex_label, paid, track, bonus = match.groups()
            building = next((k for k, v in words.BUILDING_NAMES.items() if v == title), None)
            name = words.building(building) if building else title
            template = (
                "builds a {building} through the d20 on {hex}, paying {paid}"
                if wild
                else "builds a {building} on {hex}, paying {paid}"
            )
            said = self.gettext(template).format(building=name, hex=hex_label, paid=bundle(paid))
            if track:
                said += " " + self.gettext("({resource} productivity +{n})").format(
                    resource=words.resource(track), n=bonus
                )
            return said
        if match := _TAKES.match(text):
            return self.gettext("takes {what} for the Burial Mound").format(
                what=bundle(match.group(1))
            )
        if match := _SUFFERS.match(text):
            return self.gettext("suffers {plague}").format(plague=plague(match.group(1)))
        return text


#: The templates of the round notes, for extraction (see :meth:`EgyptiaDomain.note`).
NOTE_TEMPLATES = (
    N_("uses ship {n} for {gives}"),
    N_("suffers Hail-fire: ship {n} is lost"),
    N_("suffers {plague}, losing {what}"),
    N_("builds a Burial Mound on {hex}"),
    N_("builds a {building} through the d20 on {hex}, paying {paid}"),
    N_("builds a {building} on {hex}, paying {paid}"),
    N_("({resource} productivity +{n})"),
    N_("takes {what} for the Burial Mound"),
    N_("suffers {plague}"),
    N_("({n} do not fit on the track)"),
    N_("{who} circled a red dot"),
)

DOMAIN = EgyptiaDomain(
    "egyptia",
    Path(__file__).resolve().parent / "locale",
    log_templates=True,
    translated_args=TRANSLATED_ARGS,
)
_ = DOMAIN.gettext
t = DOMAIN.t
ngettext = DOMAIN.ngettext
pgettext = DOMAIN.pgettext

__all__ = ["DOMAIN", "N_", "_", "ngettext", "pgettext", "t"]

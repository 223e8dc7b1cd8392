"""Egyptia's words for people, in the reader's language: resources, buildings, plagues, the
Pharaoh cards' texts, the solo ranks and what each move does.

The engine writes its moves as short commands (``build quarry B2``, ``pay 1g+2d``): they
stay what the terminal types and the API sends. Everything a player reads is made here,
through the game's catalogue (:mod:`karnak.games.egyptia.i18n`), so the page, the guide and
the terminal say the same thing the same way. A word of a corrected sheet that the
catalogue does not know (a card text of one's own) is shown as written.
"""

from __future__ import annotations

from collections.abc import Sequence

from karnak.core.actions import Action
from karnak.games.egyptia.i18n import N_, _, ngettext, t
from karnak.games.egyptia.rules.actions import Build, Choose, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.sheet import RESOURCES, Bundle

#: Each resource's name alone (a column's, a track's).
RESOURCE_NAMES = {
    "grain": N_("grain"),
    "diamond": N_("diamond"),
    "stone": N_("stone"),
    "favor": N_("favor"),
}
#: Each building's name (``any``: the d20's wild face).
BUILDING_NAMES = {
    "pyramid": N_("Pyramid"),
    "quarry": N_("Quarry"),
    "mine": N_("Mine"),
    "obelisk": N_("Obelisk"),
    "field": N_("Field"),
    "mound": N_("Burial Mound"),
    "any": N_("Any building"),
}
PLAGUE_NAMES = {
    "locusts": N_("Locusts"),
    "blood": N_("Blood"),
    "dust-storm": N_("Dust Storm"),
    "flies": N_("Flies"),
    "pestilence": N_("Pestilence"),
    "frogs": N_("Frogs"),
    "darkness": N_("Darkness"),
    "boils": N_("Boils"),
    "hail-fire": N_("Hail-fire"),
    "death": N_("Death"),
}
#: The Pharaoh cards' texts of the shipped sheet (``data/sheet.toml``), for the catalogue.
CARD_TEXTS = (
    N_("5 per Pyramid next to your Oasis, 4 per other Pyramid"),
    N_("5 per Pyramid on a Sacred Site, 4 per other Pyramid"),
    N_("5 per Pyramid next to no other Pyramid, 4 per other Pyramid"),
    N_("3 per Quarry next to a Pyramid and to no Obelisk"),
    N_("3 per Quarry next to exactly 1 Sacred Site, 2 per Quarry next to 2 or more"),
    N_("3 per Quarry next to at least 2 other production buildings (Quarry, Mine, Field)"),
    N_("3 per Mine next to both an Obelisk and a Pyramid, 2 per Mine next to only one of them"),
    N_("3 per Mine neither next to your Oasis nor on a Sacred Site"),
    N_("3 per Mine next to 2 or more Pyramids (a Pyramid counts for every Mine it touches)"),
    N_("4 per Obelisk in your largest group of touching Obelisks, 3 per other Obelisk"),
    N_("points by the number of Obelisks: 2, 5, 9, 14, 20, 27, ..."),
    N_("4 per Obelisk next to no Pyramid, 3 per Obelisk next to a Pyramid"),
    N_("each Field scores 1 per Sacred Site next to it"),
    N_("points by the most Fields on one straight line of hexes: 1, 3, 6, 10, 15"),
    N_("3 per Field next to your Oasis and to no Pyramid"),
)
#: The solo builder statuses of the shipped sheet.
RANK_NAMES = (
    N_("Apprentice"),
    N_("Standard"),
    N_("Skilled"),
    N_("Master"),
    N_("Legendary"),
)
#: What others may know of a builder's round, in words.
STAGE_WORDS = {
    "choosing": N_("choosing a column"),
    "chosen": N_("has chosen (sealed)"),
    "building": N_("building"),
    "done": N_("done for the round"),
}
#: A builder's own step, in words (the engine's ``STAGE_NAMES``).
OWN_STAGES = {
    "choose": N_("choosing a column"),
    "chosen": N_("has chosen a column"),
    "plague": N_("choosing a plague"),
    "plague_pay": N_("paying for the plague"),
    "build": N_("choosing a building"),
    "build_pay": N_("paying for the building"),
    "gain": N_("taking the Burial Mound's resources"),
    "done": N_("done for this round"),
}


def resource(name: str) -> str:
    """A resource's name in the reader's language."""
    return _(RESOURCE_NAMES[name]) if name in RESOURCE_NAMES else name


def amount(count: int, name: str) -> str:
    """``2 grain``, ``1 favor``: a number of one resource."""
    if name == "grain":
        return ngettext("{n} grain", "{n} grain", count).format(n=count)
    if name == "diamond":
        return ngettext("{n} diamond", "{n} diamond", count).format(n=count)
    if name == "stone":
        return ngettext("{n} stone", "{n} stone", count).format(n=count)
    return ngettext("{n} favor", "{n} favor", count).format(n=count)


def bundle(values: Sequence[int], zero: str | None = None) -> str:
    """``(1, 2, 0, 0)`` as ``1 grain, 2 diamonds``; nothing at all as ``nothing`` (or
    ``zero``)."""
    parts = [amount(n, RESOURCES[i]) for i, n in enumerate(values) if n]
    return ", ".join(parts) or (zero if zero is not None else _("nothing"))


def cost(values: Sequence[int]) -> str:
    """A cost in words: ``free`` when it is nothing."""
    return bundle(values, _("free"))


def holdings(values: Sequence[int]) -> str:
    """All four resources, zeros included."""
    return ", ".join(amount(n, RESOURCES[i]) for i, n in enumerate(values))


def building(name: str) -> str:
    """A building's name (``any``: any building, through the d20)."""
    return _(BUILDING_NAMES[name]) if name in BUILDING_NAMES else name


def plague(name: str) -> str:
    return _(PLAGUE_NAMES[name]) if name in PLAGUE_NAMES else name


def plague_effect(name: str, pestilence: int = 2) -> str:
    """What a plague does, in a few words."""
    if name == "locusts":
        return t("lose {what}", what=amount(2, "grain"))
    if name == "blood":
        return t("lose {what}", what=amount(2, "diamond"))
    if name == "dust-storm":
        return t("lose {what}", what=amount(2, "stone"))
    if name == "flies":
        return t("lose {what}", what=amount(1, "favor"))
    if name == "pestilence":
        return ngettext(
            "lose {n} point at the end", "lose {n} points at the end", pestilence
        ).format(n=pestilence)
    if name == "frogs":
        return _("lose 3 resources of your choice")
    if name == "darkness":
        return _("no market and no Sacred Site this round")
    if name == "boils":
        return _("no building next to your Oasis this round")
    if name == "hail-fire":
        return _("lose an unused ship and its points")
    if name == "death":
        return _("build a Burial Mound; may come again")
    return name


def card_text(text: str) -> str:
    """A Pharaoh card's text (translated when it is the shipped card's)."""
    return _(text) if text in CARD_TEXTS else text


def rank(name: str) -> str:
    """A solo builder status (translated when it is the shipped sheet's)."""
    return _(name) if name in RANK_NAMES else name


def stage(name: str) -> str:
    """What others may know of a builder's round."""
    return _(STAGE_WORDS[name]) if name in STAGE_WORDS else name


def own_stage(name: str) -> str:
    """A builder's own step."""
    return _(OWN_STAGES[name]) if name in OWN_STAGES else name


def dice(count: int) -> str:
    return ngettext("{n} die", "{n} dice", count).format(n=count)


def die(sides: int) -> str:
    """A die by its number of faces, as the reader's board games write it (d6, W6)."""
    # TRANSLATORS: a die with {sides} faces, as board games write it: "d6" in English
    # and French, "W6" in German.
    return t("d{sides}", sides=sides)


def hexes(count: int) -> str:
    return ngettext("{n} hex", "{n} hexes", count).format(n=count)


def points(count: int) -> str:
    return ngettext("{n} point", "{n} points", count).format(n=count)


def names(items: Sequence[str]) -> str:
    """``a, b and c`` in the reader's language."""
    if len(items) <= 1:
        return "".join(items)
    return t("{some} and {last}", some=", ".join(items[:-1]), last=items[-1])


def move_label(action: Action, cost_words: str | None = None) -> str:
    """What a move does, in a player's words (``cost_words``: a build's cost on its hex)."""
    if isinstance(action, Choose):
        return t("Take the {column} column", column=resource(RESOURCES[action.column]))
    if isinstance(action, UseShip):
        return t("Use ship {n}", n=action.ship)
    if isinstance(action, Plague):
        if action.ship:
            return t("Suffer Hail-fire: lose ship {n}", n=action.ship)
        return t("Suffer {plague}", plague=plague(action.name))
    if isinstance(action, Build):
        if cost_words:
            return t(
                "Build a {building} on {hex} ({cost})",
                building=building(action.building),
                hex=action.hex,
                cost=cost_words,
            )
        return t("Build a {building} on {hex}", building=building(action.building), hex=action.hex)
    if isinstance(action, Pay):
        return t("Pay {what}", what=bundle(action.bundle))
    if isinstance(action, Gain):
        return t("Take {what}", what=bundle(action.bundle))
    return action.to_text()


def bundle_of(values: Sequence[int]) -> Bundle:
    return (values[0], values[1], values[2], values[3])

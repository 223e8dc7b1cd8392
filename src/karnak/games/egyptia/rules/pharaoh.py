"""How each Pharaoh card scores a city: adjacency rules on the hex map.

The points are data (``sheet.toml``); the rule a card follows is code, named by the card's
``rule``. Every rule returns the points of each building it looks at, in map order, so a
score can be shown as its parts (the book's example writes Goal A as 5+5+5+5+4). Rules that
score a count rather than buildings (D2, E2) return a single part.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from karnak.games.egyptia.rules.sheet import Card, Sheet

EMPTY: Final = -1
PYRAMID, QUARRY, MINE, OBELISK, FIELD, MOUND = range(6)
PRODUCTION: Final = (QUARRY, MINE, FIELD)

City = Sequence[int]  # building code per hex of the sheet (EMPTY where nothing is built)
RuleFn = Callable[["Sheet", City, tuple[int, ...]], list[int]]


@dataclass(frozen=True)
class Rule:
    fn: RuleFn
    points: int  # how many point values the card gives (0: a table of any length)


def _near(sheet: Sheet, city: City, where: int, kind: int) -> int:
    return [city[n] for n in sheet.neighbours[where]].count(kind)


def _near_oasis(sheet: Sheet, where: int) -> bool:
    return where in sheet.neighbours[sheet.oasis]


def _sacred_near(sheet: Sheet, where: int) -> int:
    """Sacred Sites next to ``where`` (counted once per sheet: every score asks)."""
    counts = sheet.memo.get("sacred_near")
    if counts is None:
        counts = sheet.memo["sacred_near"] = tuple(
            sum(1 for n in near if sheet.hexes[n].sacred) for near in sheet.neighbours
        )
    found: int = counts[where]
    return found


def _each(city: City, kind: int) -> list[int]:
    return [i for i, b in enumerate(city) if b == kind]


def _table(points: tuple[int, ...], count: int) -> int:
    """Points for ``count`` from a table listing 1, 2, 3 ...; beyond its end the last entry."""
    if count <= 0:
        return 0
    return points[min(count, len(points)) - 1]


def pyramid_by_oasis(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    near, other = points
    return [near if _near_oasis(sheet, i) else other for i in _each(city, PYRAMID)]


def pyramid_on_sacred_site(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    on, other = points
    return [on if sheet.hexes[i].sacred else other for i in _each(city, PYRAMID)]


def pyramid_alone(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    alone, other = points
    return [other if _near(sheet, city, i, PYRAMID) else alone for i in _each(city, PYRAMID)]


def quarry_pyramid_no_obelisk(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    (value,) = points
    return [
        value if _near(sheet, city, i, PYRAMID) and not _near(sheet, city, i, OBELISK) else 0
        for i in _each(city, QUARRY)
    ]


def quarry_sacred_sites(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    one, more = points
    parts = []
    for i in _each(city, QUARRY):
        sites = _sacred_near(sheet, i)
        parts.append(one if sites == 1 else more if sites >= 2 else 0)
    return parts


def quarry_production(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    (value,) = points
    return [
        value if sum(1 for n in sheet.neighbours[i] if city[n] in PRODUCTION) >= 2 else 0
        for i in _each(city, QUARRY)
    ]


def mine_obelisk_pyramid(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    both, either = points
    parts = []
    for i in _each(city, MINE):
        obelisk = _near(sheet, city, i, OBELISK) > 0
        pyramid = _near(sheet, city, i, PYRAMID) > 0
        parts.append(both if obelisk and pyramid else either if obelisk or pyramid else 0)
    return parts


def mine_remote(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    (value,) = points
    return [
        0 if _near_oasis(sheet, i) or sheet.hexes[i].sacred else value for i in _each(city, MINE)
    ]


def mine_two_pyramids(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    (value,) = points
    return [value if _near(sheet, city, i, PYRAMID) >= 2 else 0 for i in _each(city, MINE)]


def obelisk_groups(sheet: Sheet, city: City) -> list[list[int]]:
    """The groups of touching Obelisks, largest first (ties in map order)."""
    seen: set[int] = set()
    groups = []
    for start in _each(city, OBELISK):
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            here = stack.pop()
            group.append(here)
            for n in sheet.neighbours[here]:
                if city[n] == OBELISK and n not in seen:
                    seen.add(n)
                    stack.append(n)
        groups.append(sorted(group))
    groups.sort(key=lambda g: (-len(g), g[0]))
    return groups


def obelisk_largest_group(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    inside, outside = points
    groups = obelisk_groups(sheet, city)
    largest = set(groups[0]) if groups else set()
    return [inside if i in largest else outside for i in _each(city, OBELISK)]


def obelisk_count(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    count = len(_each(city, OBELISK))
    return [_table(points, count)] if count else []


def obelisk_no_pyramid(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    alone, near = points
    return [near if _near(sheet, city, i, PYRAMID) else alone for i in _each(city, OBELISK)]


def field_sacred_sites(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    (value,) = points
    return [value * _sacred_near(sheet, i) for i in _each(city, FIELD)]


def most_fields_in_line(sheet: Sheet, city: City) -> int:
    best = 1 if FIELD in city else 0
    for line in sheet.lines:
        count = [city[i] for i in line].count(FIELD)
        if count > best:
            best = count
    return best


def fields_in_line(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    count = most_fields_in_line(sheet, city)
    return [_table(points, count)] if count else []


def field_oasis_no_pyramid(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    (value,) = points
    return [
        value if _near_oasis(sheet, i) and not _near(sheet, city, i, PYRAMID) else 0
        for i in _each(city, FIELD)
    ]


RULES: Final[dict[str, Rule]] = {
    "pyramid_by_oasis": Rule(pyramid_by_oasis, 2),
    "pyramid_on_sacred_site": Rule(pyramid_on_sacred_site, 2),
    "pyramid_alone": Rule(pyramid_alone, 2),
    "quarry_pyramid_no_obelisk": Rule(quarry_pyramid_no_obelisk, 1),
    "quarry_sacred_sites": Rule(quarry_sacred_sites, 2),
    "quarry_production": Rule(quarry_production, 1),
    "mine_obelisk_pyramid": Rule(mine_obelisk_pyramid, 2),
    "mine_remote": Rule(mine_remote, 1),
    "mine_two_pyramids": Rule(mine_two_pyramids, 1),
    "obelisk_largest_group": Rule(obelisk_largest_group, 2),
    "obelisk_count": Rule(obelisk_count, 0),
    "obelisk_no_pyramid": Rule(obelisk_no_pyramid, 2),
    "field_sacred_sites": Rule(field_sacred_sites, 1),
    "fields_in_line": Rule(fields_in_line, 0),
    "field_oasis_no_pyramid": Rule(field_oasis_no_pyramid, 1),
}


def card_parts(sheet: Sheet, card: Card, city: City) -> list[int]:
    """The points ``card`` gives ``city``, one part per building it scores."""
    return RULES[card.rule].fn(sheet, city, card.points)


def card_points(sheet: Sheet, card: Card, city: City) -> int:
    return sum(card_parts(sheet, card, city))

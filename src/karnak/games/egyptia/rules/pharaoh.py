"""How each Pharaoh card scores a city: adjacency rules on the hex map.

The points are data (``sheet.toml``); the rule a card follows is code, named by the card's
``rule``. Every rule returns the points of each building it looks at, in map order, so a
score can be shown as its parts (the book's example writes Goal A as 5+5+5+5+4). Rules that
score a count rather than buildings (D2, E2) return a single part.

Most rules score each building of their kind by what lies around it: such a rule is one
*part* function of the hex and the count of each building next to it. The same function
scores a whole city (:func:`card_parts`) and answers what one more building would change
(:func:`add_gains`, for every building on every empty hex at once, without scoring the city
again): the bots, the guide and the drawings ask that question of every hex, and this is
the one place that knows the rules. Three rules look at the city as a whole (the largest
group of Obelisks, the count of Obelisks, the most Fields on a line); each has its own
whole-city function and its own answer for one more building.

:func:`end_extras` is the rest of a sheet's final score (favor, ships, Pestilence).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from karnak.games.egyptia.rules.market import end_favor

if TYPE_CHECKING:
    from karnak.games.egyptia.rules.sheet import Card, Sheet

EMPTY: Final = -1
PYRAMID, QUARRY, MINE, OBELISK, FIELD, MOUND = range(6)
#: Building codes (``MOUND`` last): the length of a row of neighbour counts.
KINDS: Final = 6
PRODUCTION: Final = (QUARRY, MINE, FIELD)
FAVOR_TRACK: Final = 3

City = Sequence[int]  # building code per hex of the sheet (EMPTY where nothing is built)


@dataclass(frozen=True)
class Places:
    """What the rules read of each hex of one sheet (made once per sheet, see
    :func:`places`)."""

    neighbours: tuple[tuple[int, ...], ...]
    sacred: tuple[bool, ...]
    near_oasis: tuple[bool, ...]
    #: Sacred Sites next to each hex.
    sacred_near: tuple[int, ...]
    #: The straight lines of two hexes or more, and the indexes of those through each hex.
    lines: tuple[tuple[int, ...], ...]
    lines_at: tuple[tuple[int, ...], ...]
    #: The part of a rule that reads no neighbour on every hex, by rule and points (such a
    #: part is a fact of the hex alone).
    fixed: dict[tuple[str, tuple[int, ...]], tuple[int, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )


def places(sheet: Sheet) -> Places:
    """The sheet's :class:`Places` (kept in the sheet's memo: every score asks)."""
    found = sheet.memo.get("pharaoh_places")
    if isinstance(found, Places):
        return found
    n = len(sheet.hexes)
    sacred = tuple(h.sacred for h in sheet.hexes)
    near = frozenset(sheet.neighbours[sheet.oasis])
    lines_at: list[list[int]] = [[] for _ in range(n)]
    for index, line in enumerate(sheet.lines):
        for h in line:
            lines_at[h].append(index)
    made = Places(
        neighbours=sheet.neighbours,
        sacred=sacred,
        near_oasis=tuple(i in near for i in range(n)),
        sacred_near=tuple(sum(1 for m in around if sacred[m]) for around in sheet.neighbours),
        lines=sheet.lines,
        lines_at=tuple(tuple(found) for found in lines_at),
    )
    sheet.memo["pharaoh_places"] = made
    return made


#: One building's part of a card: (places, its hex, the count of each building next to it
#: by code, the card's points) -> points.
PartFn = Callable[[Places, int, Sequence[int], tuple[int, ...]], int]
#: A whole-city rule: (sheet, city, the card's points) -> the parts.
WholeFn = Callable[["Sheet", City, tuple[int, ...]], list[int]]


@dataclass(frozen=True)
class Rule:
    """A card's rule: how many point values its card gives (0: a table of any length), the
    building it scores, and how it scores it: a ``part`` of each such building from its
    neighbourhood, reading the buildings in ``reads`` next to it, or else a ``whole``-city
    function. ``reads`` of a whole-city rule names the buildings whose arrival next to a
    building of its kind may change its points."""

    points: int
    kind: int
    part: PartFn | None = None
    reads: tuple[int, ...] = ()
    whole: WholeFn | None = None


# ---------------------------------------------------------------------- the parts
def _pyramid_by_oasis(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[0] if p.near_oasis[i] else points[1]


def _pyramid_on_sacred_site(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[0] if p.sacred[i] else points[1]


def _pyramid_alone(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[1] if near[PYRAMID] else points[0]


def _quarry_pyramid_no_obelisk(
    p: Places, i: int, near: Sequence[int], points: tuple[int, ...]
) -> int:
    return points[0] if near[PYRAMID] and not near[OBELISK] else 0


def _quarry_sacred_sites(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    sites = p.sacred_near[i]
    return points[0] if sites == 1 else points[1] if sites >= 2 else 0


def _quarry_production(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[0] if near[QUARRY] + near[MINE] + near[FIELD] >= 2 else 0


def _mine_obelisk_pyramid(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    obelisk, pyramid = near[OBELISK] > 0, near[PYRAMID] > 0
    return points[0] if obelisk and pyramid else points[1] if obelisk or pyramid else 0


def _mine_remote(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return 0 if p.near_oasis[i] or p.sacred[i] else points[0]


def _mine_two_pyramids(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[0] if near[PYRAMID] >= 2 else 0


def _obelisk_no_pyramid(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[1] if near[PYRAMID] else points[0]


def _field_sacred_sites(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[0] * p.sacred_near[i]


def _field_oasis_no_pyramid(p: Places, i: int, near: Sequence[int], points: tuple[int, ...]) -> int:
    return points[0] if p.near_oasis[i] and not near[PYRAMID] else 0


# ---------------------------------------------------------------------- whole cities
def _each(city: City, kind: int) -> list[int]:
    return [i for i, b in enumerate(city) if b == kind]


def _table(points: tuple[int, ...], count: int) -> int:
    """Points for ``count`` from a table listing 1, 2, 3 ...; beyond its end the last entry."""
    if count <= 0:
        return 0
    return points[min(count, len(points)) - 1]


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


def _line_fields(p: Places, city: City) -> list[int]:
    """The Fields on each straight line of the sheet."""
    return [sum(1 for i in line if city[i] == FIELD) for line in p.lines]


def most_fields_in_line(sheet: Sheet, city: City) -> int:
    best = 1 if FIELD in city else 0
    return max([best, *_line_fields(places(sheet), city)])


def fields_in_line(sheet: Sheet, city: City, points: tuple[int, ...]) -> list[int]:
    count = most_fields_in_line(sheet, city)
    return [_table(points, count)] if count else []


RULES: Final[dict[str, Rule]] = {
    "pyramid_by_oasis": Rule(2, PYRAMID, _pyramid_by_oasis),
    "pyramid_on_sacred_site": Rule(2, PYRAMID, _pyramid_on_sacred_site),
    "pyramid_alone": Rule(2, PYRAMID, _pyramid_alone, (PYRAMID,)),
    "quarry_pyramid_no_obelisk": Rule(1, QUARRY, _quarry_pyramid_no_obelisk, (PYRAMID, OBELISK)),
    "quarry_sacred_sites": Rule(2, QUARRY, _quarry_sacred_sites),
    "quarry_production": Rule(1, QUARRY, _quarry_production, PRODUCTION),
    "mine_obelisk_pyramid": Rule(2, MINE, _mine_obelisk_pyramid, (OBELISK, PYRAMID)),
    "mine_remote": Rule(1, MINE, _mine_remote),
    "mine_two_pyramids": Rule(1, MINE, _mine_two_pyramids, (PYRAMID,)),
    "obelisk_largest_group": Rule(2, OBELISK, reads=(OBELISK,), whole=obelisk_largest_group),
    "obelisk_count": Rule(0, OBELISK, whole=obelisk_count),
    "obelisk_no_pyramid": Rule(2, OBELISK, _obelisk_no_pyramid, (PYRAMID,)),
    "field_sacred_sites": Rule(1, FIELD, _field_sacred_sites),
    "fields_in_line": Rule(0, FIELD, whole=fields_in_line),
    "field_oasis_no_pyramid": Rule(1, FIELD, _field_oasis_no_pyramid, (PYRAMID,)),
}

#: The counts of a rule that reads none (its parts never look at them).
_NO_COUNTS: Final = (0,) * KINDS


def near_counts(p: Places, city: City, where: int) -> list[int]:
    """How many of each building (by code) stand next to ``where``."""
    counts = [0] * KINDS
    for n in p.neighbours[where]:
        b = city[n]
        if b >= 0:
            counts[b] += 1
    return counts


def neighbour_counts(sheet: Sheet, city: City) -> list[list[int]]:
    """:func:`near_counts` of every hex, as :func:`add_gains` reads them (counted from the
    buildings outwards: a city is mostly empty)."""
    nbrs = sheet.neighbours
    counts = [[0] * KINDS for _ in range(len(city))]
    for x, b in enumerate(city):
        if b >= 0:
            for m in nbrs[x]:
                counts[m][b] += 1
    return counts


def rule_parts(sheet: Sheet, name: str, points: tuple[int, ...], city: City) -> list[int]:
    """The points the rule ``name`` gives ``city``, one part per building it scores."""
    rule = RULES[name]
    part = rule.part
    if part is None:
        whole = rule.whole
        assert whole is not None
        return whole(sheet, city, points)
    p = places(sheet)
    kind = rule.kind
    if not rule.reads:
        return [part(p, i, _NO_COUNTS, points) for i, b in enumerate(city) if b == kind]
    return [part(p, i, near_counts(p, city, i), points) for i, b in enumerate(city) if b == kind]


def card_parts(sheet: Sheet, card: Card, city: City) -> list[int]:
    """The points ``card`` gives ``city``, one part per building it scores."""
    return rule_parts(sheet, card.rule, card.points, city)


def card_points(sheet: Sheet, card: Card, city: City) -> int:
    return sum(rule_parts(sheet, card.rule, card.points, city))


# ---------------------------------------------------------------------- one more building
def add_gains(
    sheet: Sheet,
    name: str,
    points: tuple[int, ...],
    city: City,
    counts: Sequence[list[int]],
    empty: Sequence[int],
    gain: Sequence[list[float]],
) -> None:
    """Add to ``gain[b][h]``, for every building code ``b`` and every hex ``h`` of
    ``empty``, what building ``b`` on ``h`` would change of the points the rule ``name``
    gives ``city``: ``rule_parts`` of the city with ``b`` on ``h`` less those of ``city``,
    summed, without scoring either city. ``counts`` are the city's
    :func:`neighbour_counts` (borrowed: changed and put back)."""
    rule = RULES[name]
    kind = rule.kind
    part = rule.part
    if part is None:
        _whole_gains(sheet, name, points, city, counts, empty, gain[kind])
        return
    p = places(sheet)
    nbrs = p.neighbours
    reads = rule.reads
    own = gain[kind]
    if not reads:  # the building alone counts, and its part is a fact of its hex
        key = (name, points)
        fixed = p.fixed.get(key)
        if fixed is None:
            fixed = p.fixed[key] = tuple(
                part(p, i, _NO_COUNTS, points) for i in range(len(p.neighbours))
            )
        for h in empty:
            own[h] += fixed[h]
        return
    for h in empty:
        c = counts[h]
        own[h] += part(p, h, c, points)  # the building itself
        if not c[kind]:
            continue
        # its neighbours of the card's kind, each with one more ``b`` around it
        for m in nbrs[h]:
            if city[m] != kind:
                continue
            cm = counts[m]
            before = part(p, m, cm, points)
            for b in reads:
                cm[b] += 1
                after = part(p, m, cm, points)
                cm[b] -= 1
                if after != before:
                    gain[b][h] += after - before


def _whole_gains(
    sheet: Sheet,
    name: str,
    points: tuple[int, ...],
    city: City,
    counts: Sequence[list[int]],
    empty: Sequence[int],
    row: list[float],
) -> None:
    """:func:`add_gains` of the whole-city rules: only their own building changes them."""
    if name == "obelisk_count":
        count = sum(1 for b in city if b == OBELISK)
        change = _table(points, count + 1) - _table(points, count)
        for h in empty:
            row[h] += change
    elif name == "fields_in_line":
        p = places(sheet)
        fields = _line_fields(p, city)
        best = max([1 if FIELD in city else 0, *fields])
        now = _table(points, best)
        for h in empty:
            through = max([fields[i] for i in p.lines_at[h]], default=0)
            row[h] += _table(points, max(best, through + 1)) - now
    elif name == "obelisk_largest_group":
        inside, outside = points
        groups = obelisk_groups(sheet, city)
        largest = len(groups[0]) if groups else 0
        group_of = [-1] * len(city)
        for g, members in enumerate(groups):
            for i in members:
                group_of[i] = g
        nbrs = sheet.neighbours
        for h in empty:
            size = 1
            if counts[h][OBELISK]:
                joined: list[int] = []
                for m in nbrs[h]:
                    g = group_of[m]
                    if g >= 0 and g not in joined:
                        joined.append(g)
                        size += len(groups[g])
            row[h] += outside + (inside - outside) * (max(largest, size) - largest)
    else:  # pragma: no cover - RULES lists every rule with a part or a case above
        raise ValueError(f"no gains for the rule {name!r}")


def city_gains(sheet: Sheet, cards: Sequence[Card], city: City) -> list[list[int]]:
    """``gain[b][h]``: what building ``b`` (by code) on the empty hex ``h`` would add to the
    points of ``cards`` now (0 on every hex built on and on the Oasis)."""
    empty = [h for h in sheet.buildable if city[h] == EMPTY]
    counts = neighbour_counts(sheet, city)
    gain: list[list[float]] = [[0.0] * len(city) for _ in range(KINDS)]
    for card in cards:
        add_gains(sheet, card.rule, card.points, city, counts, empty, gain)
    return [[int(v) for v in row] for row in gain]


# ---------------------------------------------------------------------- the rest of a score
def end_extras(
    sheet: Sheet,
    have: Sequence[int],
    circled: Sequence[int],
    ships_unused: int,
    pestilence: bool,
    capped: bool,
) -> tuple[int, int, int, int]:
    """What a sheet scores beyond its cards: (favor after the end-of-game trade, its
    points, the unused ships' points, the points Pestilence takes). ``capped``: the trade
    stops where the favor track ends (rules 1.1)."""
    room = sheet.dots[FAVOR_TRACK] - circled[FAVOR_TRACK] if capped else None
    favor = end_favor((have[0], have[1], have[2], have[3]), sheet.basic_per_favor, room)
    return (
        favor,
        favor // sheet.favor_per_point,
        ships_unused * sheet.ship_points,
        sheet.pestilence_points if pestilence else 0,
    )

"""The market: which resources may pay a cost, given the trade ratios.

The book lets a player trade at any time without marking the trade, as long as what they
scribble out respects the ratios: 2 basic resources for 1 other basic one, 3 basic for 1
favor, 1 favor for 1 basic. So a trade is only ever a way of paying, and a payment is the
bundle actually scribbled out. A payment is offered when it covers the cost through those
ratios and wastes nothing (no resource could be left out and the rest still cover it).

Why matching like resources first is safe: paying a grain with a grain costs one resource,
any trade costs at least one; so in a minimal payment the resources of a kind the cost asks
for go to that kind first, and whatever is left over is of kinds the cost no longer needs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final, TypeVar

from karnak.games.egyptia.rules.sheet import BASIC, FAVOR, Bundle

T = TypeVar("T")

#: How many basic resources buy one basic / one favor, and favor buys one basic.
BASIC_FOR_BASIC: Final = 2
BASIC_FOR_FAVOR: Final = 3


def covers(cost: Bundle, paid: Bundle) -> bool:
    """Whether scribbling out ``paid`` pays ``cost`` through the market ratios."""
    c0, c1, c2, c3 = cost
    p0, p1, p2, p3 = paid
    # like resources first: what is matched costs nothing more
    m0 = p0 if p0 < c0 else c0
    m1 = p1 if p1 < c1 else c1
    m2 = p2 if p2 < c2 else c2
    m3 = p3 if p3 < c3 else c3
    spare_basic = p0 + p1 + p2 - m0 - m1 - m2
    spare_favor = p3 - m3
    short_basic = c0 + c1 + c2 - m0 - m1 - m2
    short_favor = c3 - m3
    by_favor = spare_favor if spare_favor < short_basic else short_basic
    return BASIC_FOR_BASIC * (short_basic - by_favor) + BASIC_FOR_FAVOR * short_favor <= spare_basic


def _spread(amount: int, room: list[int]) -> list[list[int]]:
    """Every way of taking ``amount`` from pools with the given room."""
    if not room:
        return [[]] if amount == 0 else []
    ways = []
    for here in range(min(amount, room[0]) + 1):
        for rest in _spread(amount - here, room[1:]):
            ways.append([here, *rest])
    return ways


def _ways(cost: Bundle, have: Bundle) -> Iterator[Bundle]:
    """Every minimal payment of ``cost`` from ``have`` through the market, each once.

    A payment tells its in-kind part back (a kind paid below its cost was paid in kind to
    that amount, any other kind was paid in full), so no two paths give the same bundle.
    """
    direct_ranges = [range(min(cost[i], have[i]) + 1) for i in range(4)]
    for direct in itertools.product(*direct_ranges):
        short_basic = sum(cost[i] - direct[i] for i in BASIC)
        short_favor = cost[FAVOR] - direct[FAVOR]
        # favor spent on basic shortfalls: only when the favor cost itself is paid in full
        spare_favor = have[FAVOR] - cost[FAVOR] if direct[FAVOR] == cost[FAVOR] else 0
        pools = [i for i in BASIC if direct[i] == cost[i]]
        room = [have[i] - cost[i] for i in pools]
        for by_favor in range(min(spare_favor, short_basic) + 1):
            need = BASIC_FOR_BASIC * (short_basic - by_favor) + BASIC_FOR_FAVOR * short_favor
            for spread in _spread(need, room):
                paid = list(direct)
                paid[FAVOR] += by_favor
                for pool, extra in zip(pools, spread, strict=True):
                    paid[pool] += extra
                yield (paid[0], paid[1], paid[2], paid[3])


@lru_cache(maxsize=65536)
def payments(cost: Bundle, have: Bundle, market: bool = True) -> tuple[Bundle, ...]:
    """Every minimal bundle from ``have`` that pays ``cost``, cheapest first.

    Without the market (the Darkness plague) only the cost itself pays it.
    """
    if not market:
        return (cost,) if all(h >= c for h, c in zip(have, cost, strict=True)) else ()
    table = cost_table(cost)
    return table.select(table.within(have))


def only_way(cost: Bundle, have: Bundle, market: bool = True) -> Bundle | None:
    """The payment when there is exactly one (None when there are several, or none):
    whether to ask at all is decided on every building, so it is read off the cost's
    table without listing the ways."""
    if not market:
        return cost
    table = cost_table(cost)
    mask = table.within(have)
    if mask and not mask & (mask - 1):
        return table.ways[mask.bit_length() - 1]
    return None


class CostTable:
    """Every minimal payment of one cost when nothing runs short, cheapest first, and bit
    masks that pick those a holding can afford.

    Why a holding's payments are a subset of these: a payment made from ``have`` is one
    made with plenty that scribbles out no more of any kind than ``have`` holds (``_ways``
    compares ``have`` with the payment's parts only), and the reverse holds too. So the
    payments of ``have`` are the ways ``w`` with ``w <= have`` kind by kind, in the same
    order; ``fits[i][v]`` has bit ``j`` set when way ``j`` holds at most ``v`` of kind ``i``
    (the last entry standing for ``v`` and more), and a holding's mask is the AND of four
    of them. Random play sees thousands of holdings, but few costs: listing the ways once
    per cost replaced most of the time Egyptia spent in its engine."""

    __slots__ = ("cost", "fits", "ways")

    def __init__(self, cost: Bundle):
        self.cost = cost
        c0, c1, c2, c3 = cost
        basic = c0 + c1 + c2
        most = BASIC_FOR_BASIC * basic + BASIC_FOR_FAVOR * c3
        # more than any minimal payment could use (see ``_ways``): no kind runs short
        plenty = (c0 + most, c1 + most, c2 + most, c3 + basic)
        self.ways: tuple[Bundle, ...] = _listing(cost, plenty)
        fits: list[tuple[int, ...]] = []
        for kind in range(4):
            top = max(way[kind] for way in self.ways)
            fits.append(
                tuple(
                    sum(1 << j for j, way in enumerate(self.ways) if way[kind] <= v)
                    for v in range(top + 1)
                )
            )
        self.fits = tuple(fits)

    def within(self, have: Bundle) -> int:
        """The mask of the ways ``have`` can pay (0: none)."""
        h0, h1, h2, h3 = have
        if h0 < 0 or h1 < 0 or h2 < 0 or h3 < 0:
            return 0
        f0, f1, f2, f3 = self.fits
        return (
            f0[h0 if h0 < len(f0) else -1]
            & f1[h1 if h1 < len(f1) else -1]
            & f2[h2 if h2 < len(f2) else -1]
            & f3[h3 if h3 < len(f3) else -1]
        )

    def select(self, mask: int) -> tuple[Bundle, ...]:
        """The ways a mask picks, in order."""
        return tuple(picked(self.ways, mask))


#: The set bits of every byte, lowest first.
_BITS_OF_BYTE: Final = tuple(tuple(j for j in range(8) if byte >> j & 1) for byte in range(256))


def picked(items: Sequence[T], mask: int) -> list[T]:
    """The items whose bits are set in ``mask`` (bit ``j`` picks ``items[j]``), in order.

    Read a byte at a time: a mask has up to a few hundred bits, a holding picks a dozen or
    two of them, and shifting a big integer bit by bit makes a new integer at every step.
    Listing them afresh is cheaper than remembering them: random play meets tens of
    thousands of masks, and a memo that large costs more in cache misses than it saves."""
    found: list[T] = []
    if mask <= 0:
        return found
    base = 0
    for byte in mask.to_bytes((mask.bit_length() + 7) // 8, "little"):
        if byte:
            for j in _BITS_OF_BYTE[byte]:
                found.append(items[base + j])
        base += 8
    return found


@lru_cache(maxsize=1024)
def cost_table(cost: Bundle) -> CostTable:
    """The :class:`CostTable` of ``cost`` (made once per cost)."""
    return CostTable(cost)


def _listing(cost: Bundle, have: Bundle) -> tuple[Bundle, ...]:
    """Every minimal payment of ``cost`` from ``have``, cheapest first (fewest resources,
    then least favor, then the most of the earlier kinds)."""
    found = set(_ways(cost, have))
    return tuple(sorted(found, key=lambda p: (sum(p), p[FAVOR], tuple(-x for x in p))))


def affordable(cost: Bundle, have: Bundle, market: bool = True) -> bool:
    """Whether ``cost`` can be paid at all, without listing the ways: through the market,
    exactly when everything on hand would cover it (a payment is part of what is on hand)."""
    if market:
        return covers(cost, have)
    return all(h >= c for h, c in zip(have, cost, strict=True))


@lru_cache(maxsize=4096)
def any_three(have: Bundle, count: int = 3) -> tuple[Bundle, ...]:
    """Every way of losing ``count`` resources of any kinds (the Frogs plague)."""
    ways = []
    for g in range(min(have[0], count) + 1):
        for d in range(min(have[1], count - g) + 1):
            for s in range(min(have[2], count - g - d) + 1):
                f = count - g - d - s
                if f <= have[3]:
                    ways.append((g, d, s, f))
    return tuple(sorted(ways, key=lambda p: (p[FAVOR], tuple(-x for x in p))))


def end_favor(have: Bundle, basic_per_favor: int, room: int | None = None) -> int:
    """Favor after the end-of-game market: every 3 basic left over become 1 favor, as far as
    the favor track has ``room`` (empty spaces) to circle it, the cap production has too.
    ``None``: no cap (rules version 1.0)."""
    trades = sum(have[i] for i in BASIC) // basic_per_favor
    if room is not None:
        trades = min(trades, max(room, 0))
    return have[FAVOR] + trades

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
from collections.abc import Iterator
from functools import lru_cache

from karnak.games.egyptia.sheet import BASIC, FAVOR, Bundle

#: How many basic resources buy one basic / one favor, and favor buys one basic.
BASIC_FOR_BASIC = 2
BASIC_FOR_FAVOR = 3


def covers(cost: Bundle, paid: Bundle) -> bool:
    """Whether scribbling out ``paid`` pays ``cost`` through the market ratios."""
    matched = [min(p, c) for p, c in zip(paid, cost, strict=True)]
    spare_basic = sum(paid[i] - matched[i] for i in BASIC)
    spare_favor = paid[FAVOR] - matched[FAVOR]
    short_basic = sum(cost[i] - matched[i] for i in BASIC)
    short_favor = cost[FAVOR] - matched[FAVOR]
    by_favor = min(spare_favor, short_basic)
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
    found = set(_ways(cost, have))
    return tuple(sorted(found, key=lambda p: (sum(p), p[FAVOR], tuple(-x for x in p))))


def only_way(cost: Bundle, have: Bundle, market: bool = True) -> Bundle | None:
    """The payment when there is exactly one (None when there are several), found without
    listing them all: whether to ask at all is decided on every building."""
    if not market:
        return cost
    first = second = None
    for way in _ways(cost, have):
        if first is None:
            first = way
        elif way != first:
            second = way
            break
    return first if second is None else None


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

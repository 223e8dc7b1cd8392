"""Who plays whom: the matchmaker's choice, as a pure function of the queue.

A ticket's *window* is how far from its own rating it accepts others: it starts at ``base``
and widens by ``widen`` a second while the ticket waits, up to ``most``, so a player whose
rating few share still finds a game, later (Nakama's matchmaker and Board Game Arena's
automatic tables both work so). Two tickets are compatible when their ratings differ by no
more than the wider of their two windows (the longer wait widens the search for both) and
neither account blocked the other. A table forms from the oldest ticket first: its nearest
compatible tickets join it, each compatible with all already there, until it is full. The
oldest ticket is served first, so nobody waits behind newer arrivals of their own level.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Waiting:
    """A ticket as the matchmaker sees it: the account, its rating, and since when (seconds
    since the epoch) it waits."""

    account: int
    rating: float
    since: float


@dataclass(frozen=True)
class Windows:
    """The rating window: ``base`` points at first, ``widen`` more a second, ``most`` at most."""

    base: float = 3.0
    widen: float = 0.5
    most: float = 1_000.0

    def of(self, ticket: Waiting, now: float) -> float:
        return min(self.most, self.base + self.widen * max(0.0, now - ticket.since))


def compatible(
    a: Waiting, b: Waiting, now: float, windows: Windows, blocked: set[frozenset[int]]
) -> bool:
    if frozenset((a.account, b.account)) in blocked:
        return False
    return abs(a.rating - b.rating) <= max(windows.of(a, now), windows.of(b, now))


def tables(
    waiting: Iterable[Waiting],
    size: int,
    now: float,
    windows: Windows,
    blocked: set[frozenset[int]],
) -> list[list[Waiting]]:
    """The tables of ``size`` that can be formed now, oldest ticket first; each ticket in
    one table at most."""
    queue: Sequence[Waiting] = sorted(waiting, key=lambda w: (w.since, w.account))
    used: set[int] = set()
    formed: list[list[Waiting]] = []
    for anchor in queue:
        if anchor.account in used:
            continue
        table = [anchor]
        others = sorted(
            (w for w in queue if w.account not in used and w.account != anchor.account),
            key=lambda w: (abs(w.rating - anchor.rating), w.since, w.account),
        )
        for other in others:
            if all(compatible(other, seated, now, windows, blocked) for seated in table):
                table.append(other)
                if len(table) == size:
                    break
        if len(table) == size:
            formed.append(table)
            used.update(w.account for w in table)
    return formed

"""Single-elimination brackets: who meets whom in the first round, and who goes on.

Seeds are placed so that the best two can meet only in the final, the best four only in
the semi-finals, and so on (1 meets 16, 8 meets 9, ...: the standard bracket order). When
the field is not a power of two, the best seeds get the byes of the first round.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def bracket_order(size: int) -> list[int]:
    """The seeds (1 is the best) in bracket order for a bracket of ``size`` (a power of
    two): adjacent pairs meet in the first round."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for first in order for seed in (first, total - first)]
    return order


def first_round(players: Sequence[str]) -> list[tuple[str, str | None]]:
    """The first round of a bracket of ``players``, best seed first: pairs in bracket
    order; ``(player, None)`` is a bye (the best seeds get them)."""
    if len(players) < 2:
        raise ValueError("a bracket needs two players at least")
    size = 1
    while size < len(players):
        size *= 2
    seeded: list[str | None] = [*players, *([None] * (size - len(players)))]
    order = bracket_order(size)
    pairs: list[tuple[str, str | None]] = []
    for index in range(0, size, 2):
        a, b = seeded[order[index] - 1], seeded[order[index + 1] - 1]
        assert a is not None  # the better seed of a pair is always a player
        pairs.append((a, b))
    return pairs


def seated(a: str, b: str, firsts: Mapping[str, int], seed: Mapping[str, int]) -> tuple[str, str]:
    """Who of ``a`` and ``b`` takes the first seat: whoever had it fewer times in the
    tournament (``firsts``), on a tie the better seed (lower ``seed``), so seats even out
    over a bracket as they do over Swiss rounds."""
    key = {p: (firsts.get(p, 0), seed[p]) for p in (a, b)}
    return (a, b) if key[a] <= key[b] else (b, a)


def next_round(winners: Sequence[str]) -> list[tuple[str, str]]:
    """The next round from the previous round's winners, in bracket order (the winner of
    the first pair meets the winner of the second, and so on)."""
    if len(winners) < 2 or len(winners) % 2:
        raise ValueError("a round of a bracket pairs an even number of winners")
    return [(winners[i], winners[i + 1]) for i in range(0, len(winners), 2)]

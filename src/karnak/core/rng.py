"""A small seeded generator whose whole state is one integer.

Why not :class:`random.Random`? Its state is 625 integers (slow to clone for search, bulky
in JSON) and its algorithms are not promised to stay fixed across Python versions. A game
record must replay to the same state forever, so Karnak carries its own generator:
SplitMix64, which is simple, fast in pure Python and statistically fine for shuffling cards.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Final, TypeVar

T = TypeVar("T")

_MASK: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
_LIMITS: Final[dict[int, int]] = {}  # rejection bound per range size, cached (bigint maths is slow)


class Rng:
    """Deterministic SplitMix64 generator.

    >>> a, b = Rng(7), Rng(7)
    >>> [a.below(10) for _ in range(5)] == [b.below(10) for _ in range(5)]
    True
    """

    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = s = (self.state + _GOLDEN) & _MASK
        z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias."""
        limit = _LIMITS.get(n)
        if limit is None:
            if n <= 0:
                raise ValueError("below() needs a positive bound")
            limit = _LIMITS[n] = (1 << 64) - ((1 << 64) % n)
        while True:  # next_u64 inlined: this is the hottest call in random play
            self.state = s = (self.state + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def roll(self, sides: Sequence[int]) -> list[int]:
        """One die for each entry of ``sides``, from 1 to that many: ``1 + below(n)`` die by
        die (a round of Egyptia rolls six). A die without sides is refused before any draw,
        so the generator is left as it was."""
        if min(sides, default=1) <= 0:
            raise ValueError("roll() needs dice with at least one side")
        below = self.below
        return [1 + below(n) for n in sides]

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place.

        Each position takes one 64-bit output reduced by Lemire's multiply-shift, with the
        generator step inlined: shuffles are most of a new game's setup cost. The bias of the
        reduction is below n / 2**64 per draw, far beyond anything a game could show.
        """
        s = self.state
        for i in range(len(items) - 1, 0, -1):
            s = (s + _GOLDEN) & _MASK
            z = ((s ^ (s >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            j = ((z ^ (z >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = s

    def fork(self) -> Rng:
        """An independent generator derived from this one (advances this one once)."""
        return Rng(self.next_u64())

    def copy(self) -> Rng:
        return Rng(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state})"

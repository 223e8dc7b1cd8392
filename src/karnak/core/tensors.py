"""Fixed-size tensors of what a seat may see: a flat float32 vector with named slices.

Research code wants numbers of a fixed shape, not the nested dictionaries of
:meth:`~karnak.core.state.State.observation`. Each game declares a :class:`TensorLayout` per
table size and options (its named slices, in order, with their shapes and meanings) and fills
it from the seat's point of view. The layout is the contract: adapters (PettingZoo,
Gymnasium, OpenSpiel) and docs/research.md read the same slices, so they agree by
construction. A game builds its tensors straight from the state (cheaper than building the
observation first) but only from what the seat may see; the games' non-interference tests
check that a tensor does not change when anything hidden from the seat is re-dealt.

Two tensors per seat, as OpenSpiel has them: the **observation** (what the seat sees now)
and the **information state** (the observation plus what the seat has witnessed and no
longer sees, in a fixed-size summary), each with a string form for people and golden files.

    >>> layout = TensorLayout([Part("scores", (3,), "each seat's points / 100"),
    ...                        Part("to_move", (3,), "1 where the seat is to move")])
    >>> layout.size
    6
    >>> vector = layout.zeros()
    >>> layout.view(vector, "to_move")[1] = 1.0
    >>> vector.tolist()
    [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatVector = npt.NDArray[np.float32]


#: A bound of a part: one number for every entry, or one per index of the part's last axis
#: (a table whose columns count different things).
Bound = float | tuple[float, ...]


@dataclass(frozen=True, slots=True)
class Part:
    """One named slice of a layout: its shape, what its numbers mean (for the docs) and the
    range they lie in (``low`` to ``high``, both included: sound bounds from the rules and
    the board's figures, so a framework's Box is honest; most parts are one-hot or scaled
    into 0 to 1, the default)."""

    name: str
    shape: tuple[int, ...]
    meaning: str
    low: Bound = 0.0
    high: Bound = 1.0

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def bounds(self) -> tuple[FloatVector, FloatVector]:
        """The part's low and high bounds, flat, one per entry."""
        return self._spread(self.low), self._spread(self.high)

    def _spread(self, bound: Bound) -> FloatVector:
        values = np.asarray(bound, dtype=np.float32)
        if values.ndim == 1 and values.shape != self.shape[-1:]:
            raise ValueError(f"{self.name}: a bound per column needs {self.shape[-1]} numbers")
        return np.broadcast_to(values, self.shape).reshape(-1).astype(np.float32)

    def range_text(self) -> str:
        """The range for people: ``0 to 1``, or per column ``0 to 4 / 0 to 9 / ...``."""
        if isinstance(self.low, tuple) or isinstance(self.high, tuple):
            low, high = self.bounds()
            width = self.shape[-1]
            return " / ".join(f"{low[i]:g} to {high[i]:g}" for i in range(width))
        return f"{self.low:g} to {self.high:g}"


@dataclass(frozen=True, slots=True)
class Placed:
    """A part with its place in the flat vector."""

    part: Part
    start: int

    @property
    def stop(self) -> int:
        return self.start + self.part.size


class TensorLayout:
    """Named slices laid end to end in one flat float32 vector.

    Names are unique; shapes are fixed (a layout is made for one table size and one set of
    options, so a game of 3 and a game of 5 have layouts of different sizes).
    """

    __slots__ = ("_bounds", "_by_name", "parts", "size")

    def __init__(self, parts: Iterable[Part]):
        placed: list[Placed] = []
        start = 0
        for part in parts:
            if not part.shape or any(d <= 0 for d in part.shape):
                raise ValueError(f"{part.name}: a shape is one or more positive lengths")
            placed.append(Placed(part, start))
            start += part.size
        self.parts: tuple[Placed, ...] = tuple(placed)
        self._by_name = {p.part.name: p for p in placed}
        if len(self._by_name) != len(placed):
            raise ValueError("the names of a layout's parts must differ")
        self.size = start
        self._bounds: tuple[FloatVector, FloatVector] | None = None
        for each in self.parts:  # a bad bound is refused when the layout is made
            low, high = each.part.bounds()
            if (low > high).any():
                raise ValueError(f"{each.part.name}: a low bound above its high bound")

    def __iter__(self) -> Iterator[Placed]:
        return iter(self.parts)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def place(self, name: str) -> Placed:
        try:
            return self._by_name[name]
        except KeyError:
            raise KeyError(f"no part {name!r} in this layout") from None

    def zeros(self) -> FloatVector:
        return np.zeros(self.size, dtype=np.float32)

    def view(self, vector: FloatVector, name: str) -> FloatVector:
        """The part ``name`` of ``vector`` in its shape: a view, so writing to it fills the
        vector."""
        placed = self.place(name)
        return vector[placed.start : placed.stop].reshape(placed.part.shape)

    def bounds(self) -> tuple[FloatVector, FloatVector]:
        """Every entry's low and high bound (copies: the Box of a framework is made from
        these)."""
        if self._bounds is None:
            lows, highs = zip(*(p.part.bounds() for p in self.parts), strict=True)
            self._bounds = (np.concatenate(lows), np.concatenate(highs))
        return self._bounds[0].copy(), self._bounds[1].copy()

    def named(self, vector: FloatVector) -> dict[str, FloatVector]:
        """Every part of ``vector`` by name (views, in their shapes)."""
        if vector.shape != (self.size,):
            raise ValueError(f"a vector of this layout has shape ({self.size},)")
        return {p.part.name: self.view(vector, p.part.name) for p in self.parts}

    def rows(self) -> list[tuple[str, str, int, int, str, str]]:
        """One row a part, for docs: name, shape, start, stop, range, meaning."""
        return [
            (
                p.part.name,
                " x ".join(str(d) for d in p.part.shape),
                p.start,
                p.stop,
                p.part.range_text(),
                p.part.meaning,
            )
            for p in self.parts
        ]

    def to_markdown(self) -> str:
        """The layout as a Markdown table (docs/research.md is written from these)."""
        lines = ["| part | shape | slice | range | meaning |", "|---|---|---|---|---|"]
        for name, shape, start, stop, bounds, meaning in self.rows():
            lines.append(f"| `{name}` | {shape} | {start}:{stop} | {bounds} | {meaning} |")
        return "\n".join(lines)

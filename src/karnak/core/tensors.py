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


@dataclass(frozen=True, slots=True)
class Part:
    """One named slice of a layout: its shape and what its numbers mean (for the docs)."""

    name: str
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        return math.prod(self.shape)


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

    __slots__ = ("_by_name", "parts", "size")

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

    def named(self, vector: FloatVector) -> dict[str, FloatVector]:
        """Every part of ``vector`` by name (views, in their shapes)."""
        if vector.shape != (self.size,):
            raise ValueError(f"a vector of this layout has shape ({self.size},)")
        return {p.part.name: self.view(vector, p.part.name) for p in self.parts}

    def rows(self) -> list[tuple[str, str, int, int, str]]:
        """One row a part, for docs: name, shape, start, stop, meaning."""
        return [
            (
                p.part.name,
                " x ".join(str(d) for d in p.part.shape),
                p.start,
                p.stop,
                p.part.meaning,
            )
            for p in self.parts
        ]

    def to_markdown(self) -> str:
        """The layout as a Markdown table (docs/research.md is written from these)."""
        lines = ["| part | shape | slice | meaning |", "|---|---|---|---|"]
        for name, shape, start, stop, meaning in self.rows():
            lines.append(f"| `{name}` | {shape} | {start}:{stop} | {meaning} |")
        return "\n".join(lines)

"""The tensor layout: named slices end to end, views that write through, clear refusals."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import karnak.core.tensors
from karnak.core.tensors import Part, TensorLayout


def layout() -> TensorLayout:
    return TensorLayout(
        [
            Part("scores", (3,), "points / 100"),
            Part("board", (2, 4), "1 where a counter stands"),
            Part("phase", (5,), "one-hot"),
        ]
    )


def test_parts_are_laid_end_to_end_and_views_write_through() -> None:
    shape = layout()
    assert shape.size == 3 + 8 + 5
    assert [(p.part.name, p.start, p.stop) for p in shape] == [
        ("scores", 0, 3),
        ("board", 3, 11),
        ("phase", 11, 16),
    ]
    vector = shape.zeros()
    assert vector.dtype == np.float32
    shape.view(vector, "board")[1, 2] = 1.0
    assert vector[3 + 4 + 2] == 1.0 and vector.sum() == 1.0
    named = shape.named(vector)
    assert named["board"].shape == (2, 4) and named["phase"].shape == (5,)
    assert "board" in shape and "nothing" not in shape


def test_the_markdown_table_lists_every_part() -> None:
    table = layout().to_markdown().splitlines()
    assert table[2] == "| `scores` | 3 | 0:3 | 0 to 1 | points / 100 |"
    assert table[3] == "| `board` | 2 x 4 | 3:11 | 0 to 1 | 1 where a counter stands |"
    assert len(table) == 5


def test_bounds_are_declared_per_part_or_per_column() -> None:
    shape = TensorLayout(
        [
            Part("score", (2,), "points / 40", -0.5, 3.0),
            Part("items", (2, 3), "counts", 0, (4, 9, 1)),
        ]
    )
    low, high = shape.bounds()
    assert low.tolist() == [-0.5, -0.5, 0, 0, 0, 0, 0, 0]
    assert high.tolist() == [3.0, 3.0, 4, 9, 1, 4, 9, 1]
    assert low.dtype == high.dtype == np.float32
    low[0] = 99.0  # a copy: the layout's own bounds stay
    assert shape.bounds()[0][0] == -0.5
    assert shape.to_markdown().splitlines()[3].split(" | ")[3] == "0 to 4 / 0 to 9 / 0 to 1"


def test_bad_bounds_are_refused() -> None:
    with pytest.raises(ValueError, match="low bound above"):
        TensorLayout([Part("a", (2,), "", 1.0, 0.0)])
    with pytest.raises(ValueError, match="per column needs 3"):
        TensorLayout([Part("a", (2, 3), "", 0, (1, 2))])


def test_bad_layouts_and_names_are_refused() -> None:
    with pytest.raises(ValueError, match="must differ"):
        TensorLayout([Part("a", (1,), ""), Part("a", (2,), "")])
    with pytest.raises(ValueError, match="positive"):
        TensorLayout([Part("a", (0,), "")])
    with pytest.raises(KeyError, match="no part 'b'"):
        layout().place("b")
    with pytest.raises(ValueError, match="shape"):
        layout().named(np.zeros(3, dtype=np.float32))


def test_the_module_example_runs() -> None:
    assert doctest.testmod(karnak.core.tensors).failed == 0

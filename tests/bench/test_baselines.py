"""bench/baselines.py: the tables it plays, the pairwise scores it counts, results that
accumulate and merge, and the report with its Wilson intervals."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from karnak.bots.arena import wilson_interval
from support.bench_scripts import load_bench


@pytest.fixture(scope="module")
def baselines() -> ModuleType:
    return load_bench("baselines")


def test_tables_are_pairs_or_choices_of_distinct_bots(baselines: ModuleType) -> None:
    bots = ["a", "b", "c", "d"]
    assert len(baselines.tables(bots, 2)) == 6 and len(baselines.tables(bots, 3)) == 4
    assert all(len(set(t)) == len(t) for t in baselines.tables(bots, 3))
    with pytest.raises(ValueError):
        baselines.tables(["a", "b"], 3)
    # A table's seeds depend on its bots only, not on the rest of the pool.
    assert baselines.table_seed(1, ("a", "b")) == baselines.table_seed(1, ("a", "b"))
    assert baselines.table_seed(1, ("a", "b")) != baselines.table_seed(1, ("a", "c"))


def test_pair_scores_count_ranks_and_ties_once_a_game(baselines: ModuleType) -> None:
    results = {
        "tables": {
            "x,y,z": {
                "outcomes": [
                    {"seats": ["x", "y", "z"], "ranks": [1, 2, 3]},
                    {"seats": ["y", "z", "x"], "ranks": [1, 1, 3]},
                ]
            }
        }
    }
    scores = baselines.pair_scores(results)
    assert scores[("x", "y")] == (1.0, 2) and scores[("y", "x")] == (1.0, 2)
    assert scores[("y", "z")] == (1.5, 2) and scores[("z", "y")] == (0.5, 2)
    low, high = wilson_interval(1.5, 2)
    assert baselines.cell(1.5, 2) == f"75% [{low:.0%}, {high:.0%}] (2)"


def test_a_run_accumulates_skips_what_it_played_and_merges(
    baselines: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = tmp_path / "a.json"
    argv = ["aton", "--games", "2", "--json", str(first)]
    assert baselines.main([*argv, "--bots", "random,heuristic"]) == 0
    played = json.loads(first.read_text())
    (table,) = played["tables"].values()
    assert table["games"] == 2 and len(table["outcomes"]) == 2
    assert table["command"].startswith("karnak arena aton --bots random,heuristic --games 2")
    assert baselines.main([*argv, "--bots", "random,heuristic"]) == 0
    assert "already played" in capsys.readouterr().out
    second = tmp_path / "b.json"
    styled = ["aton", "--games", "2", "--bots", "random,heuristic@style=1"]
    assert baselines.main([*styled, "--json", str(second)]) == 0
    merged = tmp_path / "all.json"
    out = tmp_path / "all.md"
    merging = ["--json", str(merged), "--merge", str(first), str(second)]
    assert baselines.main([*merging, "--out", str(out)]) == 0
    report = out.read_text()
    assert len(json.loads(merged.read_text())["tables"]) == 2
    assert "| `heuristic` | 100% [34%, 100%] (2) | - | not played |" in report
    assert "karnak arena aton --bots random,heuristic@style=1 --games 2" in report

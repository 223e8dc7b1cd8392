"""bench/think_time.py's pooling: a long run made in seeded chunks is one sample in the
report and the plot; a chunk that repeats seeds is not added to it."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from karnak.bots.arena import wilson_interval
from support.bench_scripts import load_bench


@pytest.fixture(scope="module")
def think_time() -> ModuleType:
    return load_bench("think_time")


def run(seed: int, games: int, wins: float, think: float = 1.0, **row: Any) -> dict[str, Any]:
    """One result file as the bench writes it (the older files lack ``seeds`` in rows)."""
    return {
        "game": "aton",
        "seed": seed,
        "build": "compiled",
        "conditions": "test",
        "rows": [
            {
                "think": think,
                "games": games,
                "wins": wins,
                "rate": wins / games,
                "low": 0.0,
                "high": 1.0,
                "think_per_decision": 0.5,
                "minutes": 10.0,
                **row,
            }
        ],
    }


def test_chunks_on_different_seeds_pool_into_one_sample(think_time: ModuleType) -> None:
    first = run(1, 60, 50.0)  # an older file: the row's seeds come from the run's seed
    second = run(61, 140, 110.0, seeds=[[61, 200]], think_per_decision=0.7)
    (pooled,) = think_time.merged([first, second])
    (row,) = pooled["rows"]
    assert row["games"] == 200 and row["wins"] == 160.0
    assert (row["low"], row["high"]) == wilson_interval(160.0, 200)
    assert row["think_per_decision"] == pytest.approx((0.5 * 60 + 0.7 * 140) / 200)
    assert think_time.seeds_text(row["seeds"]) == "1-200"
    assert "| 1 s | 200 | 1-200 | 80.0%" in think_time.markdown(pooled)


def test_a_chunk_that_repeats_seeds_stays_a_sample_of_its_own(think_time: ModuleType) -> None:
    runs = [run(1, 60, 50.0), run(61, 140, 110.0), run(1, 10, 5.0)]
    rows = think_time.merged(runs)[0]["rows"]
    assert sorted((r["games"], think_time.seeds_text(r["seeds"])) for r in rows) == [
        (10, "1-10"),
        (200, "1-200"),
    ]


def test_other_think_times_stay_apart(think_time: ModuleType) -> None:
    rows = think_time.merged([run(1, 200, 150.0, think=0.25), run(1, 200, 170.0)])[0]["rows"]
    assert [(r["think"], r["games"]) for r in rows] == [(0.25, 200), (1.0, 200)]


def test_solo_rows_pool_their_paired_differences(think_time: ModuleType) -> None:
    def solo(seed: int, differences: list[float]) -> dict[str, Any]:
        last = seed + len(differences) - 1
        row = {"think": 1.0, "games": len(differences), "seeds": [[seed, last]]}
        row |= {"differences": differences, "mean_score": 60.0, "rate": 0.0}
        row |= {"low": 0.0, "high": 0.0, "minutes": 1.0}
        return {
            "game": "egyptia-solo",
            "seed": seed,
            "build": "compiled",
            "conditions": "t",
            "rows": [row],
        }

    (pooled,) = think_time.merged([solo(1, [1.0, 2.0, 3.0]), solo(4, [5.0, 9.0])])
    (row,) = pooled["rows"]
    assert row["games"] == 5 and row["rate"] == pytest.approx(4.0)
    assert row["low"] < 4.0 < row["high"]


def test_a_row_short_of_200_is_not_counted_against_its_target(think_time: ModuleType) -> None:
    """Whether duels or solo seeds: a target is judged only on 200 of them."""
    short = think_time.markdown(run(1, 100, 80.0))
    assert "80% met on 100 games (needs 200)" in short
    solo_row = {"think": 1.0, "games": 150, "seeds": [[1, 150]], "differences": [9.0] * 150}
    solo_row |= {"mean_score": 70.0, "rate": 9.0, "low": 7.5, "high": 10.5, "minutes": 1.0}
    solo = {"game": "egyptia-solo", "seed": 1, "build": "compiled", "conditions": "t"}
    text = think_time.markdown(solo | {"rows": [solo_row]})
    assert "+5 met on 150 seeds (needs 200)" in text
    solo_row |= {"games": 200, "seeds": [[1, 200]]}
    assert "+5 met |" in think_time.markdown(solo | {"rows": [solo_row]})

"""bench/think_probe.py: one game's decisions asked at two think times, and its summary."""

from __future__ import annotations

from types import ModuleType

import pytest

from support.bench_scripts import load_bench


@pytest.fixture(scope="module")
def think_probe() -> ModuleType:
    return load_bench("think_probe")


def record(same: bool, searched: bool = True, long_seconds: float = 4.0) -> dict[str, float]:
    return {
        "seed": 1,
        "searched": float(searched),
        "same": float(same),
        "long_iterations": 400.0,
        "short_iterations": 100.0,
        "long_seconds": long_seconds,
        "short_seconds": 1.0,
    }


def test_summary_counts_only_searched_decisions(think_probe: ModuleType) -> None:
    rows = [record(True), record(False, long_seconds=2.0), record(True, searched=False)]
    text = think_probe.markdown("egyptia-solo", 1.0, 4.0, "1-1", rows)
    assert "3 decisions" in text and "2 of them searched" in text
    assert "| same move at 1 s and 4 s | 1 of 2 (50%) |" in text
    assert "| searches that used their whole 4 s | 1 of 2 |" in text
    assert "| median iterations at 4 s | 400 |" in text


def test_a_short_probe_records_every_searched_decision(think_probe: ModuleType) -> None:
    rows = think_probe.probe("egyptia-solo", 0.005, 0.01, 1, 7)
    assert rows, "a solo game has decisions with more than one move"
    assert all(r["seed"] == 7 for r in rows)
    searched = [r for r in rows if r["searched"]]
    assert searched and all(r["long_iterations"] > 0 for r in searched)
    assert all(r["same"] in (0.0, 1.0) for r in rows)

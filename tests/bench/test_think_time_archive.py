"""The think-time runs are kept as one archive (bench/results/think_time_runs.json), and the
report drawn from it is the one in the repository."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from support.bench_scripts import BENCH, load_bench

RESULTS = BENCH / "results"


@pytest.fixture(scope="module")
def think_time() -> ModuleType:
    return load_bench("think_time")


def test_the_archive_gives_the_report_in_the_repository(think_time: ModuleType) -> None:
    runs = think_time.merged(think_time.read_results([RESULTS / "think_time_runs.json"]))
    runs.sort(key=lambda r: (list(think_time.SETUPS).index(r["game"]), r["build"]))
    report = "\n".join(think_time.markdown(run) for run in runs)
    assert report == (RESULTS / "think_time.md").read_text(encoding="utf-8")


def test_an_archive_reads_as_the_files_it_came_from(think_time: ModuleType, tmp_path: Path) -> None:
    runs = [
        {"game": "aton", "seed": seed, "build": "compiled", "conditions": "test", "rows": []}
        for seed in (1, 61, 121)
    ]
    files = []
    for number, run in enumerate(runs):
        files.append(tmp_path / f"run{number}.json")
        files[-1].write_text(json.dumps(run), encoding="utf-8")
    think_time.archive(think_time.read_results(files[:2]), tmp_path / "archive.json")
    assert think_time.read_results([tmp_path / "archive.json", files[2]]) == runs

"""bench/research.py: the caller's choice is timed and left out of a row, on both sides of the
ratio, and a short run of the whole script (pure Python, one game) writes its report."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from karnak.core import Rng
from support.bench_scripts import load_bench

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "research.py"


@pytest.fixture(scope="module")
def research() -> ModuleType:
    return load_bench("research")


def test_a_choice_draws_a_legal_id_and_counts_its_time(research: ModuleType) -> None:
    chooser = research.Chooser(Rng(3))
    mask = np.zeros(20, dtype=np.bool_)
    mask[[2, 7, 11]] = True
    drawn = {chooser.from_mask(mask) for _ in range(200)}
    assert drawn == {2, 7, 11}
    assert chooser.from_mask_if_any(np.zeros(20, dtype=np.bool_)) is None
    assert chooser.from_list(["a"]) == "a"
    assert chooser.seconds > 0.0


def test_the_time_spent_choosing_is_taken_off_the_rate(research: ModuleType) -> None:
    """A loop that only chooses (and sleeps while choosing) is as fast as one that does the
    same steps without choosing."""

    def loop(deadline: float) -> tuple[int, float]:
        steps, chosen = 0, 0.0
        while time.perf_counter() < deadline:
            start = time.perf_counter()
            time.sleep(0.002)  # the caller's choice
            chosen += time.perf_counter() - start
            steps += 1
        return steps, chosen

    rate, choice_us = research.timed(loop, 0.1)
    assert choice_us >= 2000.0  # what choosing cost a step, reported
    assert rate > 10 * (1 / 0.002)  # the 2 ms a step are not counted against the loop


def test_a_loop_of_no_steps_is_refused_not_divided_by(research: ModuleType) -> None:
    with pytest.raises(ValueError, match="no step"):
        research.timed(lambda deadline: (0, 0.0), 0.1)


def test_a_short_run_writes_the_report(tmp_path: Path) -> None:
    """Rounds far shorter than building an environment: every row still plays a whole game
    (a busy CI machine once gave a row no steps, and the report divided by its zero rate)."""
    pytest.importorskip("pyspiel")
    out = tmp_path / "research.md"
    done = subprocess.run(
        [
            sys.executable,
            str(SCRIPT),
            "--engines",
            "pure",
            "--games",
            "aton",
            "--seconds",
            "0.0001",
            "--repeat",
            "1",
            "--no-pettingzoo",
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = out.read_text(encoding="utf-8")
    assert "| aton | 2 | aec |" in report and "| aton | 2 | gym_ref |" in report
    assert "choice µs" in report
    assert "pure (pure Python), aton, aec:" in report

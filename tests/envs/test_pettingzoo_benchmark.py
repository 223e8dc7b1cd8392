"""PettingZoo's own performance benchmark runs on a Karnak environment (five seconds of random
play with the mask, resetting after each game): the third of PettingZoo's checks, next to
``api_test`` and ``seed_test`` (tests/envs/test_pettingzoo.py). Its figures for every game
are in bench/research.py."""

from __future__ import annotations

import re

import pytest
from pettingzoo.test import performance_benchmark

from karnak.envs import pettingzoo_env


def test_the_performance_benchmark_runs_through_whole_games(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = pettingzoo_env("aton")
    performance_benchmark(env)
    printed = capsys.readouterr().out
    turns = float(re.search(r"([\d.]+) turns per second", printed).group(1))  # type: ignore[union-attr]
    assert "Finished performance benchmark" in printed
    assert turns > 500  # whole games of about 100 ids each: several resets in five seconds

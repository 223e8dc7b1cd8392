"""The worked training example (examples/train_aton.py) runs end to end in a few seconds: it
writes a sane learning curve and a plot, never chooses a masked id, and repeats itself for a
seed. Its learning itself is measured by the documented run, not here (minutes, not seconds)."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("matplotlib")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train_aton.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("train_aton", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


class MaskChecker:
    """Wraps the env: fails the moment an id the last mask forbade is played."""

    def __init__(self, env: Any):
        self.env = env
        self.observation_space = env.observation_space
        self.action_space = env.action_space
        self.mask: np.ndarray[Any, Any] | None = None
        self.steps = 0

    def reset(self, **kwargs: Any) -> Any:
        obs, info = self.env.reset(**kwargs)
        self.mask = np.array(obs["action_mask"])
        return obs, info

    def step(self, action: int) -> Any:
        assert self.mask is not None and self.mask[action] == 1, f"masked id {action} chosen"
        self.steps += 1
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.mask = np.array(obs["action_mask"])
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        self.env.close()


def run(example: ModuleType, out: Path, monkeypatch: pytest.MonkeyPatch) -> list[MaskChecker]:
    made: list[MaskChecker] = []
    real = example.make_env

    def checked(observation: str = "information_state") -> MaskChecker:
        made.append(MaskChecker(real(observation)))
        return made[-1]

    monkeypatch.setattr(example, "make_env", checked)
    argv = ["--episodes", "6", "--eval-every", "3", "--eval-games", "4", "--seed", "3"]
    assert example.main([*argv, "--out", str(out)]) == 0
    return made


def test_a_short_run_writes_a_sane_curve_and_plot_with_legal_ids_only(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    envs = run(example, tmp_path, monkeypatch)
    # 6 training games and 3 evaluations x 2 policies x 4 games, all through the checker.
    assert len(envs) == 1 and envs[0].steps > 30 * 10
    with (tmp_path / "learning_curve.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert [(int(r["episodes"]), r["policy"]) for r in rows] == [
        (e, p) for e in (0, 3, 6) for p in ("greedy", "sampled")
    ]
    for row in rows:
        games, wins, draws, losses = (int(row[k]) for k in ("games", "wins", "draws", "losses"))
        assert games == 4 and wins + draws + losses == games and min(wins, draws, losses) >= 0
        low, rate, high = (float(row[k]) for k in ("ci_low", "win_rate", "ci_high"))
        assert rate == pytest.approx(wins / games, abs=1e-4)
        assert 0.0 <= low <= rate <= high <= 1.0 and high - low > 0.2  # 4 games: wide
    png = (tmp_path / "learning_curve.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def test_a_seed_repeats_its_run(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(example, tmp_path / "a", monkeypatch)
    run(example, tmp_path / "b", monkeypatch)
    first = (tmp_path / "a" / "learning_curve.csv").read_text()
    assert first == (tmp_path / "b" / "learning_curve.csv").read_text()


def test_the_wilson_interval_matches_known_values(example: ModuleType) -> None:
    assert example.wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert example.wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert example.wilson_interval(390, 400) == pytest.approx((0.9546, 0.9864), abs=1e-4)


def test_a_won_game_makes_its_choices_likelier_and_a_lost_one_rarer(
    example: ModuleType,
) -> None:
    legal = np.array([2, 5, 7])
    x = np.array([1.0, 0.5, 0.0])
    for result, sign in ((1.0, 1), (-1.0, -1)):
        policy = example.LinearPolicy(3, 9)
        before = policy.distribution(x, legal)
        step = example.Step(x, legal, before, 1)
        grads = example.reinforce_grads(policy, [step], result, 0.0)
        example.Adam(policy.params(), 0.1).step(grads)
        after = policy.distribution(x, legal)
        assert sign * (after[1] - before[1]) > 0.05
        # The baseline moves towards the result; masked ids' weights never move.
        assert sign * policy.value(x) > 0
        assert not policy.W[[0, 1, 3, 4, 6, 8]].any()

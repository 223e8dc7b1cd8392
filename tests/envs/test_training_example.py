"""The worked training example (examples/train_aton.py) runs end to end in a few seconds: it
writes a sane learning curve and a plot as it goes, never chooses a masked id, repeats itself
for a seed, and a run stopped and resumed ends as one that never stopped. Its learning itself
is measured by the documented run, not here (minutes, not seconds)."""

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


def run(
    example: ModuleType,
    out: Path,
    monkeypatch: pytest.MonkeyPatch,
    episodes: int = 6,
    extra: tuple[str, ...] = (),
) -> list[MaskChecker]:
    made: list[MaskChecker] = []
    real = example.make_env

    def checked(observation: str = "information_state") -> MaskChecker:
        made.append(MaskChecker(real(observation)))
        return made[-1]

    monkeypatch.setattr(example, "make_env", checked)
    argv = ["--episodes", str(episodes), "--eval-every", "3", "--eval-games", "4", "--seed", "3"]
    assert example.main([*argv, "--out", str(out), *extra]) == 0
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


def test_the_curve_is_written_as_it_goes(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After each evaluation the CSV has every row so far and the PNG is redrawn."""
    seen: list[tuple[int, bool]] = []
    real_plot = example.plot

    def watched(curve: list[Any], path: Path, title: str) -> None:
        real_plot(curve, path, title)
        with (tmp_path / "learning_curve.csv").open() as handle:
            rows = list(csv.DictReader(handle))
        seen.append((len(rows), path.exists()))

    monkeypatch.setattr(example, "plot", watched)
    run(example, tmp_path, monkeypatch)
    assert seen == [(2, True), (4, True), (6, True)]
    assert not list(tmp_path.glob("*.partial*"))


def test_a_stopped_run_resumes_to_the_same_curve(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(example, tmp_path / "whole", monkeypatch)
    run(example, tmp_path / "parts", monkeypatch, episodes=3)
    stopped = (tmp_path / "parts" / "learning_curve.csv").read_text()
    assert len(stopped.splitlines()) == 1 + 4  # evaluations at 0 and 3
    # A row written after the checkpoint (a run killed before its next one) is dropped.
    with (tmp_path / "parts" / "learning_curve.csv").open("a") as handle:
        handle.write("99,greedy,4,0,0,4,0.0000,0.0000,0.4899\n")
    run(example, tmp_path / "parts", monkeypatch, extra=("--resume",))
    whole = (tmp_path / "whole" / "learning_curve.csv").read_text()
    assert (tmp_path / "parts" / "learning_curve.csv").read_text() == whole


def test_resuming_needs_a_checkpoint_and_the_same_settings(
    example: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SystemExit):
        example.main(["--episodes", "3", "--out", str(tmp_path), "--resume"])
    run(example, tmp_path, monkeypatch, episodes=3)
    with pytest.raises(SystemExit, match="seed"):
        example.main(["--episodes", "6", "--seed", "4", "--out", str(tmp_path), "--resume"])

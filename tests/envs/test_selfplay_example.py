"""The PettingZoo self-play example (examples/selfplay_pettingzoo.py) runs end to end with a
tiny budget: one shared policy at every seat, masked ids never chosen, its curve written as
it goes, the same curve for a seed, and learning that moves the weights."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "selfplay_pettingzoo.py"


@pytest.fixture(scope="module")
def example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("selfplay_pettingzoo", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def rows(path: Path) -> list[dict[str, str]]:
    with path.open() as handle:
        return list(csv.DictReader(handle))


def test_a_tiny_run_writes_its_curve_and_repeats_for_a_seed(
    example: ModuleType, tmp_path: Path
) -> None:
    argv = ["--games", "4", "--eval-every", "2", "--eval-games", "4", "--seed", "5"]
    assert example.main([*argv, "--out", str(tmp_path / "a.csv")]) == 0
    assert example.main([*argv, "--out", str(tmp_path / "b.csv")]) == 0
    first = rows(tmp_path / "a.csv")
    assert [int(r["games"]) for r in first] == [0, 2, 4]
    for row in first:
        low, rate, high = (float(row[k]) for k in ("ci_low", "win_rate", "ci_high"))
        assert 0.0 <= low <= rate <= high <= 1.0
        assert float(row["wins"]) / 4 == pytest.approx(rate, abs=1e-4)
    drop = ("seconds",)
    assert [{k: v for k, v in r.items() if k not in drop} for r in first] == [
        {k: v for k, v in r.items() if k not in drop} for r in rows(tmp_path / "b.csv")
    ]


def test_every_seat_plays_the_shared_policy_and_learning_moves_it(example: ModuleType) -> None:
    env = example.make_env("aton", None)
    env.reset(seed=1)
    size = env.observation_space(env.agents[0])["observation"].shape[0]
    policy = example.SharedPolicy(size, env.action_space(env.agents[0]).n, 0.01)
    decisions = example.self_play_game(env, policy, 3, np.random.default_rng(0))
    returns = {result for _, result in decisions}
    assert returns == {1.0, -1.0}  # both seats' decisions, the winner's and the loser's
    assert len(decisions) > 40
    policy.update(decisions)
    assert policy.W.any() and policy.t == 1


def test_a_game_of_several_ids_a_move_plays_through(example: ModuleType, tmp_path: Path) -> None:
    argv = ["--game", "amunre", "--players", "3", "--games", "1", "--eval-every", "1"]
    assert example.main([*argv, "--eval-games", "1", "--out", str(tmp_path / "c.csv")]) == 0
    assert [int(r["games"]) for r in rows(tmp_path / "c.csv")] == [0, 1]


def test_the_sb3_self_play_recipe_runs_where_the_train_extra_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """examples/selfplay_sb3.py, a few hundred steps (skipped without torch, as in CI)."""
    pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from karnak.bots import base

    base._load_builtin_bots()
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))  # forget its bot after
    script = SCRIPT.with_name("selfplay_sb3.py")
    spec = importlib.util.spec_from_file_location("selfplay_sb3", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    argv = ["--timesteps", "128", "--n-steps", "64", "--eval-games", "2"]
    assert module.main([*argv, "--out", str(tmp_path)]) == 0
    from karnak.bots.learned import load_policy

    policy = load_policy(tmp_path / "policy.npz")
    assert policy.meta["timesteps"] == 128 and policy.meta["game"] == "aton"

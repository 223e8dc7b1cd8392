"""The vector env: Gymnasium's own vector envs over the single Gymnasium env and
KarnakVectorEnv (in this process and in 2 worker processes) are one contract: the same seeds
and actions give the same arrays, in both automatic-reset modes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.spaces import Dict
from gymnasium.vector import AsyncVectorEnv, AutoresetMode, SyncVectorEnv, VectorEnv

from karnak.core.errors import InvalidOptionError
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.vector import KarnakVectorEnv

SETTINGS: dict[str, Any] = {"game": "egyptia", "players": 2, "opponents": "random"}
N = 3


def make() -> KarnakGymEnv:
    return KarnakGymEnv(**SETTINGS)


def play(envs: VectorEnv, steps: int) -> list[Any]:
    """Every array the vector env answers over ``steps`` masked random steps."""
    rng = np.random.default_rng(5)
    observations, infos = envs.reset(seed=20)
    seen: list[Any] = [observations, infos]
    for _ in range(steps):
        noise = rng.random(observations["action_mask"].shape)
        actions = np.argmax(np.where(observations["action_mask"] > 0, noise, -1.0), axis=1)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        seen += [observations, rewards, terminated, truncated, infos]
    envs.close()
    return seen


def same(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a.shape == b.shape and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and a.dtype == b.dtype and np.array_equal(a, b)
    return bool(a == b)


def test_the_spaces_and_metadata_are_the_single_envs() -> None:
    envs = KarnakVectorEnv(num_envs=N, autoreset_mode="same-step", **SETTINGS)
    single = make()
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    spaces = envs.observation_space
    assert isinstance(spaces, Dict)
    assert spaces["observation"].shape == (N, single.idgame.observation_size)
    assert envs.action_space.shape == (N,)
    observations, infos = envs.reset(seed=1)
    assert observations in envs.observation_space
    assert np.array_equal(infos["action_mask"], observations["action_mask"])
    assert infos["_action_mask"].all() and list(infos["seed"]) == [1, 2, 3]
    envs.close()


def test_next_step_mode_matches_gymnasiums_async_vector_env_with_two_workers() -> None:
    steps = 160  # Egyptia's learner decides ~70 times a game: every env restarts
    theirs = play(AsyncVectorEnv([make] * N, autoreset_mode=AutoresetMode.NEXT_STEP), steps)
    ours = play(KarnakVectorEnv(num_envs=N, workers=2, **SETTINGS), steps)
    here = play(KarnakVectorEnv(num_envs=N, **SETTINGS), steps)
    assert sum(int(seen.sum()) for seen in theirs[4::5]) >= N, "too few episodes ended"
    assert len(theirs) == len(ours) == len(here)
    for a, b, c in zip(theirs, ours, here, strict=True):
        assert same(a, b) and same(b, c)


def test_same_step_mode_matches_gymnasiums_sync_vector_env() -> None:
    steps = 160
    theirs = play(SyncVectorEnv([make] * N, autoreset_mode=AutoresetMode.SAME_STEP), steps)
    ours = play(KarnakVectorEnv(num_envs=N, autoreset_mode="same-step", **SETTINGS), steps)
    assert any("final_obs" in seen for seen in theirs[6::5]), "no episode ended"
    for a, b in zip(theirs, ours, strict=True):
        assert same(a, b)


def test_bad_settings_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="num_envs"):
        KarnakVectorEnv("aton", 0)
    with pytest.raises(InvalidOptionError, match="workers"):
        KarnakVectorEnv("aton", 2, workers=3)
    with pytest.raises(InvalidOptionError, match="autoreset_mode"):
        KarnakVectorEnv("aton", 2, autoreset_mode="never")
    with pytest.raises(InvalidOptionError, match="seat"):
        KarnakVectorEnv("aton", 2, seat=5)
    envs = KarnakVectorEnv("aton", 2)
    envs.reset(seed=0)
    with pytest.raises(ValueError, match="shape"):
        envs.step(np.zeros(3, dtype=np.int64))

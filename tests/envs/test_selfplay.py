"""The self-play sampler: seeded trajectories, the same here, in processes and on Ray, and
the same steps as the PettingZoo env shows."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from karnak.bots.arena import seating
from karnak.core import InvalidOptionError, get_game
from karnak.envs.idgame import IdGame
from karnak.envs.selfplay import SelfPlayError, Trajectories, random_policy, sample

PLAYERS = [random_policy, "heuristic"]


class FirstLegal:
    """A policy object (as a network would be): the lowest legal id, or a fixed bad one."""

    def __init__(self, bad: int | None = None):
        self.bad = bad

    def __call__(self, observation: Any, mask: Any, rng: np.random.Generator) -> int:
        return self.bad if self.bad is not None else int(np.flatnonzero(mask)[0])


@pytest.fixture(scope="module")
def alone() -> Trajectories:
    return sample("aton", PLAYERS, 4, seed=7)


def test_shapes_and_bookkeeping(alone: Trajectories) -> None:
    idgame = IdGame("aton")
    assert alone.games == 4 and alone.players == 2
    assert alone.entries == ("policy:random_policy", "heuristic")
    assert alone.seed.tolist() == [7, 8, 9, 10]
    assert alone.observation.shape == (alone.steps, idgame.observation_size)
    assert alone.mask.shape == (alone.steps, idgame.num_actions)
    assert alone.reward.shape == (alone.steps, 2)
    assert alone.length.sum() == alone.steps
    assert alone.episode.tolist() == np.repeat(np.arange(4), alone.length).tolist()
    # Seats rotate: entry (s + i) % n sits in seat s of game i.
    assert alone.seating.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]
    assert alone.seating.tolist() == [[int(e) for e in seating("01", i)] for i in range(4)]
    for g, start in enumerate(alone.starts):
        rows = slice(start, start + alone.length[g])
        assert (alone.entry[rows] == alone.seating[g][alone.seat[rows]]).all()
        # Each seat's rewards add up to its final utility.
        assert alone.reward[rows].sum(axis=0) == pytest.approx(alone.returns[g])
    # Every id chosen was allowed by the mask it was chosen under.
    assert alone.mask[np.arange(alone.steps), alone.action].all()
    assert not alone.truncated.any()


def test_a_game_is_its_seed(alone: Trajectories) -> None:
    """Game 2 of the run sampled alone (same index, same rotation) is the same game."""
    again = sample("aton", PLAYERS, 4, seed=7)
    assert again.same_as(alone)
    shifted = sample("aton", PLAYERS, 3, seed=8, rotate=False)
    assert shifted.seed.tolist() == [8, 9, 10]
    other = sample("aton", PLAYERS, 4, seed=70)
    assert not other.same_as(alone)


def test_processes_give_the_same_arrays(alone: Trajectories) -> None:
    done: list[int] = []
    pooled = sample("aton", PLAYERS, 4, seed=7, jobs=2, chunk=1, progress=done.append)
    assert pooled.same_as(alone)
    assert sorted(done) == [1, 2, 3, 4]


def test_the_steps_are_the_pettingzoo_envs(alone: Trajectories) -> None:
    """Replayed id by id in the AEC env: the same observations, masks and rewards."""
    pytest.importorskip("pettingzoo")
    from karnak.envs import pettingzoo_env

    env = pettingzoo_env("aton")
    for g in (0, 1):
        env.reset(seed=int(alone.seed[g]))
        start = int(alone.starts[g])
        for row in range(start, start + int(alone.length[g])):
            agent = env.agent_selection
            assert agent == f"seat_{alone.seat[row]}"
            seen = env.observe(agent)
            assert np.array_equal(seen["observation"], alone.observation[row])
            assert np.array_equal(seen["action_mask"].astype(bool), alone.mask[row])
            env.step(int(alone.action[row]))
            assert [env.rewards[f"seat_{s}"] for s in range(2)] == pytest.approx(
                alone.reward[row].tolist()
            )
        assert all(env.terminations.values())


def test_spelled_moves_and_a_policy_object() -> None:
    """Amun-Re spells some moves in several ids: a bot's move is one step per id."""
    game = get_game("amunre")
    run = sample(game, [FirstLegal(), "random", "random"], 1, seed=3, rotate=False)
    assert run.entries == ("policy:FirstLegal", "random", "random")
    policy_rows = run.seat == 0
    assert (run.entry[policy_rows] == 0).all()
    first = np.argmax(run.mask[policy_rows], axis=1)
    assert (run.action[policy_rows] == first).all()
    assert run.reward.sum(axis=0) == pytest.approx(run.returns[0])


def test_save_and_load(alone: Trajectories, tmp_path: Path) -> None:
    path = alone.save(tmp_path / "shard.npz")
    back = Trajectories.load(path)
    assert back.same_as(alone) and back.entries == alone.entries


def test_concatenate_renumbers_the_games(alone: Trajectories) -> None:
    parts = [sample("aton", PLAYERS, 2, seed=7), sample("aton", PLAYERS, 2, seed=9)]
    joined = Trajectories.concatenate(parts)
    assert joined.episode.max() == 3
    assert joined.seed.tolist() == alone.seed.tolist()
    # The second part starts its rotation again (its own game 0), so its seating differs.
    assert joined.seating.tolist() == [[0, 1], [1, 0], [0, 1], [1, 0]]


def test_refusals() -> None:
    with pytest.raises(SelfPlayError, match=r"seed 5 failed.*chose id 99999"):
        sample("aton", [FirstLegal(bad=99999), "random"], 1, seed=5)
    with pytest.raises(InvalidOptionError):
        sample("aton", PLAYERS, 0)
    with pytest.raises(InvalidOptionError):
        sample("aton", [random_policy, 3], 1)  # type: ignore[list-item]
    with pytest.raises(InvalidOptionError):
        sample("aton", [random_policy], 1)  # one seat is not a table
    with pytest.raises(Exception, match="unknown bot"):
        sample("aton", ["nobody", "random"], 1)


# ---------------------------------------------------------------------- on Ray
@pytest.fixture(scope="module")
def ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="warning")
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # FirstLegal
    yield ray
    ray.cloudpickle.unregister_pickle_by_value(sys.modules[__name__])
    ray.shutdown()


@pytest.mark.parametrize("chunk", [1, 3])
def test_ray_gives_the_same_arrays(ray: Any, alone: Trajectories, chunk: int) -> None:
    done: list[int] = []
    on_ray = sample("aton", PLAYERS, 4, seed=7, ray="local", chunk=chunk, progress=done.append)
    assert on_ray.same_as(alone)
    assert done[-1] == 4 and done == sorted(done)


def test_a_failure_on_ray_names_its_seed(ray: Any) -> None:
    # Both games fail; the first failure to come back stops the run.
    with pytest.raises(SelfPlayError, match=r"seed [56] failed.*chose id 99999"):
        sample("aton", [FirstLegal(bad=99999), "random"], 2, seed=5, ray="local", chunk=1)

"""Every adapter's observation vector: one size from one source, within its declared bounds,
and a spelled part only where moves are spelled.

The sizes in docs/research.md come from ``game.describe`` (tests/project/test_research_doc.py
holds the page to it); here every adapter is held to the description, so the page, the Box,
OpenSpiel's shapes and the batch's arrays cannot drift apart.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest

from karnak.core.registry import get_game
from karnak.core.rng import Rng
from karnak.envs import IdGame, register_openspiel
from karnak.envs.batch import BatchStepper
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.openspiel import short_name
from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv

TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("aton", 2, {}),
    ("amunre", 3, {}),
    ("amunre", 5, {"expert_provinces": True}),
    ("amunre", 4, {"offer_cards": True}),
    ("egyptia", 1, {}),
    ("egyptia", 3, {}),
]


def ids(table: tuple[str, int, dict[str, Any]]) -> str:
    name, players, options = table
    return f"{name}-{players}" + "".join(f"-{key}" for key in options)


@pytest.mark.parametrize("table", TABLES, ids=ids)
@pytest.mark.parametrize("observation", ["information_state", "observation"])
def test_every_adapter_reports_the_description_s_size(
    table: tuple[str, int, dict[str, Any]], observation: str
) -> None:
    name, players, options = table
    d = get_game(name).describe(players, options)
    size = (
        d.information_state_vector_size
        if observation == "information_state"
        else d.observation_vector_size
    )
    idgame = IdGame(name, players, observation=observation, options=options)
    assert idgame.observation_size == size
    assert idgame.spelled_size == d.spelled_size
    aec = KarnakAECEnv(name, players, observation=observation, **options)
    parallel = KarnakParallelEnv(name, players, observation=observation, **options)
    for env in (aec, parallel):
        assert env.observation_space("seat_0")["observation"].shape == (size,)
    gym = KarnakGymEnv(name, players=players, observation=observation, **options)
    assert gym.observation_space["observation"].shape == (size,)
    stepper = BatchStepper(name, 1, players=players, observation=observation, **options)
    assert stepper.observation_size == size
    register_openspiel()
    params: dict[str, Any] = {"players": players, **options}
    game = pyspiel.load_game(short_name(name), params)
    shape = (
        game.information_state_tensor_shape()
        if observation == "information_state"
        else game.observation_tensor_shape()
    )
    assert shape == [size]


def test_aton_s_moves_are_one_id_each_so_its_vector_is_its_tensor() -> None:
    idgame = IdGame("aton")
    assert idgame.spelled_size == 0
    assert idgame.observation_size == idgame.tensor_size
    state = idgame.new_state(5)
    assert np.array_equal(state.observation(0), state.state.information_state_tensor(0))


@pytest.mark.parametrize("table", TABLES, ids=ids)
def test_the_spelling_ids_are_exactly_the_parts_before_a_move_s_last(
    table: tuple[str, int, dict[str, Any]],
) -> None:
    """Over random games, every legal move's spelling: all ids but the last are declared
    spelling ids, and the last one never is (so a declared id always stands in an unfinished
    spelling, and every unfinished spelling has its counts)."""
    name, players, options = table
    idgame = IdGame(name, players, options=options)
    declared = set(idgame.space.spelling_ids)
    assert len(declared) == idgame.spelled_size
    seen: set[int] = set()
    for seed in range(2):
        state, rng = idgame.new_state(seed), Rng(seed)
        while not state.is_terminal():
            seat = state.current_player()
            for move in state.state.legal_actions(seat):
                spelling = idgame.space.spell(move)
                assert set(spelling[:-1]) <= declared, move
                assert spelling[-1] not in declared, move
                seen.update(spelling[:-1])
                counts = max((spelling.count(i) for i in spelling[:-1]), default=0)
                assert counts <= idgame.space.spelling_repeats
            legal = state.legal_ids()
            state.apply_id(legal[rng.below(len(legal))])
    assert bool(seen) == bool(declared)


@pytest.mark.parametrize("table", TABLES, ids=ids)
def test_every_observation_lies_in_the_box(table: tuple[str, int, dict[str, Any]]) -> None:
    """Random games through the AEC env: every agent's observation, at every step, is an
    element of its declared space (the bounds are sound, the Box honest)."""
    name, players, options = table
    for observation in ("information_state", "observation"):
        env = KarnakAECEnv(name, players, observation=observation, **options)
        space = env.observation_space("seat_0")
        box = space["observation"]
        assert np.isfinite(box.low).all() and np.isfinite(box.high).all()
        env.reset(seed=11)
        rng = np.random.default_rng(11)
        for agent in env.agent_iter():
            for other in env.agents:
                seen = env.observe(other)
                if not space.contains(seen):
                    vector = seen["observation"]
                    wrong = np.nonzero((vector < box.low) | (vector > box.high))[0]
                    raise AssertionError(f"{other}: entries {wrong[:5]} outside their bounds")
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = env.observe(agent)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))


def test_the_gymnasium_box_is_the_same_bounded_box() -> None:
    env = KarnakGymEnv("amunre", players=3)
    low, high = env.idgame.observation_bounds()
    box = env.observation_space["observation"]
    assert isinstance(box, gymnasium.spaces.Box)
    assert np.array_equal(box.low, low) and np.array_equal(box.high, high)
    assert (high[-env.idgame.spelled_size :] == env.idgame.space.spelling_repeats).all()

"""Every standard checker on the environments as shipped, with no wrapper, and the
illegal-action policy that lets them pass (:mod:`karnak.envs.illegal`).

The tables: every size of Aton (2) and Amun-Re (3, 4, 5); Egyptia alone (1: the solo score
and a table with nobody to wait for), at its smallest shared table (2) and at four (a
table where several seats commit at each sealed step and the layouts grow with the seats;
the sizes past four change no rule Egyptia plays, only the lengths).

PettingZoo's kit: ``api_test``, ``parallel_api_test``, ``seed_test``,
``parallel_seed_test`` and ``render_test`` run on the versioned modules
(``karnak.envs.aton_v1.env()``, ``.parallel_env()``), whole games each where the checker
follows the mask. ``performance_benchmark`` takes five seconds a run:
tests/envs/test_pettingzoo_benchmark.py runs it once. Not applicable: ``max_cycles_test``
(for envs built with ``max_cycles=N`` that stop after N cycles of blind play: a Karnak game
ends by its rules), ``state_test`` (a global ``state()`` of an imperfect-information game
would hand a learner the hidden cards), ``save_obs`` and ``manual_control`` (images and
keyboards). ``bombardment_test`` (PettingZoo 1.24 to 1.27) checks what ``step()`` returns,
which the AEC API says is None, and fails on PettingZoo's own example envs too.

Gymnasium: ``check_env`` (every check of ``gymnasium.utils.env_checker``, the render modes
and ``close`` included) on each registered id built by ``gymnasium.make``, and the passive
checker (``gymnasium.utils.passive_env_checker``, which ``gymnasium.make`` wraps around the
env) over whole episodes with the mask honoured.
"""

from __future__ import annotations

import functools
import importlib
import warnings
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.utils.passive_env_checker import env_reset_passive_checker, env_step_passive_checker
from pettingzoo.test import (
    api_test,
    parallel_api_test,
    parallel_seed_test,
    render_test,
    seed_test,
)

from karnak.core import Rng
from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.envs import IdState
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.illegal import ILLEGAL_POLICIES, INFO_KEY
from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv, agent_name
from karnak.envs.versions import env_version

TABLES = [
    ("aton", 2),
    ("amunre", 3),
    ("amunre", 4),
    ("amunre", 5),
    ("egyptia", 1),
    ("egyptia", 2),
    ("egyptia", 4),
]
TABLE_IDS = [f"{game}-{players}" for game, players in TABLES]
#: More cycles than any game takes: the checkers that follow the mask play whole games.
WHOLE_GAME = 1000

#: PettingZoo warns about any Dict observation of an env it does not know by name (its own
#: classic games are on a list); these two say nothing about ours.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@pytest.fixture
def only_expected_warnings() -> Iterator[None]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    unexpected = [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ]
    assert not unexpected


def versioned(game: str) -> ModuleType:
    """The game's PettingZoo-style module, as a user imports it."""
    return importlib.import_module(env_version(game).module)


# ------------------------------------------------------------------------ PettingZoo's kit
@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_api_tests(game: str, players: int, only_expected_warnings: None) -> None:
    module = versioned(game)
    api_test(module.env(players), num_cycles=WHOLE_GAME)
    parallel_api_test(module.parallel_env(players), num_cycles=WHOLE_GAME)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_seed_tests(game: str, players: int) -> None:
    module = versioned(game)
    seed_test(functools.partial(module.env, players), num_cycles=WHOLE_GAME)
    # blind to the mask: the first illegal id ends the game, the same way in both envs
    parallel_seed_test(functools.partial(module.parallel_env, players), num_cycles=WHOLE_GAME)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_render_test(
    game: str, players: int, capsys: pytest.CaptureFixture[str], only_expected_warnings: None
) -> None:
    render_test(functools.partial(versioned(game).env, players))
    assert env_version(game).title in capsys.readouterr().out  # "human" prints


def test_the_blind_checkers_stop_on_an_illegal_id_under_raise() -> None:
    """Why the versioned envs use the penalty: under "raise", the checkers that sample
    blind to the mask stop at the first illegal id."""
    with pytest.raises(ActionIdError, match="not legal"):
        parallel_seed_test(lambda: KarnakParallelEnv("aton"), num_cycles=10)
    with pytest.raises(ActionIdError, match="not legal"):
        check_env(KarnakGymEnv("amunre", players=3), skip_render_check=True)


# ------------------------------------------------------------------------ Gymnasium
@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_gymnasium_check_env_on_the_registered_id(
    game: str, players: int, capsys: pytest.CaptureFixture[str]
) -> None:
    env = gymnasium.make(env_version(game).gym_id, players=players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # the unwrapped env, as the checker asks; its spec rebuilds it in each render mode
        check_env(env.unwrapped)
    assert not [str(w.message) for w in caught]
    assert env_version(game).title in capsys.readouterr().out  # "human" prints


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_gymnasium_passive_checks_over_whole_episodes(game: str, players: int) -> None:
    """The env as gymnasium.make gives it (the order enforcer and the passive checker around
    it), the passive checks run on every reset and step of two whole episodes played by the
    mask."""
    env = gymnasium.make(env_version(game).gym_id, players=players, seat=players - 1)
    steps = 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for seed in range(2):
            rng = np.random.default_rng(seed)
            observation, info = env_reset_passive_checker(env, seed=seed)
            done = False
            while not done:
                assert env.observation_space.contains(observation)
                action = int(rng.choice(np.flatnonzero(info["action_mask"])))
                observation, _, terminated, truncated, info = env_step_passive_checker(env, action)
                assert INFO_KEY not in info
                done = terminated or truncated
                steps += 1
    assert not [str(w.message) for w in caught]
    assert steps > 10


# ------------------------------------------------------------------------ the penalty itself
def aec_after(env: KarnakAECEnv, seed: int, legal_steps: int) -> dict[str, float]:
    """Random legal ids after a seeded reset, ``legal_steps`` of them and then, under the
    score, on until someone has been paid; each agent's summed rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    score = env.idgame.description.rewards == "score"
    steps = 0
    while steps < legal_steps or (score and not any(totals.values())):
        steps += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        for agent, reward in env.rewards.items():
            totals[agent] += reward
    return totals


def illegal_id(mask: np.ndarray[Any, Any]) -> int:
    return int(np.flatnonzero(mask == 0)[-1])


@pytest.mark.parametrize(
    ("game", "players", "rewards"),
    [("aton", 2, "win"), ("amunre", 3, "score"), ("egyptia", 1, "score"), ("egyptia", 4, "rank")],
)
def test_aec_an_illegal_id_ends_the_game_with_the_penalty(
    game: str, players: int, rewards: str
) -> None:
    env = KarnakAECEnv(game, players, rewards=rewards, illegal="penalty")
    totals = aec_after(env, seed=3, legal_steps=12)
    offender = env.agent_selection
    before = env.id_state.clone()
    action = illegal_id(env.observe(offender)["action_mask"])
    env.step(action)
    # nothing of the rules played
    assert env.id_state.state == before.state and env.id_state.ids == before.ids
    assert env.id_state.prefix == before.prefix
    assert all(env.terminations.values()) and not any(env.truncations.values())
    reason = f"{env.idgame.id_name(action)} ({action}) is not legal for {offender} here"
    for agent in env.possible_agents:  # every agent is told why, the same way
        assert env.infos[agent] == {INFO_KEY: {offender: {"action": action, "reason": reason}}}
        assert not env.observe(agent)["action_mask"].any()
    # each agent's rewards add up to its result: the bottom of the declared range, or 0
    bottom = env.idgame.description.min_utility
    assert bottom < 0 and (rewards == "score" or bottom == -1.0)
    if rewards == "score":
        assert any(totals.values())  # the scores had moved: the step pays them back
    for agent in env.possible_agents:
        result = bottom if agent == offender else 0.0
        assert totals[agent] + env.rewards[agent] == pytest.approx(result)
    if rewards != "score":
        assert env.rewards == {a: -1.0 if a == offender else 0.0 for a in env.possible_agents}
    # the dead steps empty the table
    while env.agents:
        assert env.last()[2]
        env.step(None)
    env.reset(seed=3)
    assert env.illegal_actions == {} and env.observe(env.agent_selection)["action_mask"].any()


def test_aec_the_penalty_tells_the_others_nothing_hidden() -> None:
    """An illegal lay-out by seat 0 in two worlds that seat 1 cannot tell apart (seat 0's
    cards re-dealt): seat 1 sees and is paid the same in both."""
    env = KarnakAECEnv("aton", illegal="penalty")
    env.reset(seed=6)
    worlds = [env.id_state, env.id_state.resample(1, Rng(1)), env.id_state.resample(1, Rng(2))]
    masks = [world.mask(0) for world in worlds]
    assert any(not np.array_equal(masks[0], other) for other in masks[1:])  # hands differ
    illegal = int(np.flatnonzero(~np.logical_or.reduce(masks))[-1])  # illegal in every world
    seen = []
    for world in worlds:
        branch = KarnakAECEnv("aton", illegal="penalty")
        branch.start_from(IdState(env.idgame, world.state.clone(log=True)))
        assert branch.agent_selection == "seat_0"
        branch.step(illegal)
        view = branch.observe("seat_1")
        seen.append(
            (
                view["observation"].tolist(),
                view["action_mask"].tolist(),
                branch.rewards["seat_1"],
                repr(branch.infos["seat_1"]),
            )
        )
    assert seen[0] == seen[1] == seen[2]


def test_parallel_an_illegal_id_ends_the_game_and_plays_nothing_of_the_step() -> None:
    env = KarnakParallelEnv("aton", illegal="penalty", render_mode="ansi")
    observations, _ = env.reset(seed=8)
    assert env.acting() == (0, 1)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    before = env.game_state.clone()
    bad = illegal_id(observations["seat_1"]["action_mask"])
    observations, rewards, terminations, truncations, infos = env.step(
        {"seat_0": legal["seat_0"], "seat_1": bad}
    )
    # seat_0's legal lay-out is not played either
    assert env.game_state == before and env.id_count == 0 and env.prefixes == [(), ()]
    assert rewards == {"seat_0": 0.0, "seat_1": -1.0}
    assert all(terminations.values()) and not any(truncations.values())
    assert infos["seat_0"][INFO_KEY] == infos["seat_1"][INFO_KEY]
    assert list(infos["seat_0"][INFO_KEY]) == ["seat_1"]
    assert infos["seat_0"][INFO_KEY]["seat_1"]["action"] == bad
    assert all(not o["action_mask"].any() for o in observations.values())
    assert env.agents == [] and env.is_over() and env.acting() == ()
    assert "ended on an illegal id of seat_1" in str(env.render())
    with pytest.raises(ActionIdError, match="reset"):
        env.step(legal)
    # both offenders at once: both get the penalty
    observations, _ = env.reset(seed=8)
    _, rewards, *_, infos = env.step(
        {a: illegal_id(o["action_mask"]) for a, o in observations.items()}
    )
    assert rewards == {"seat_0": -1.0, "seat_1": -1.0}
    assert sorted(infos["seat_0"][INFO_KEY]) == ["seat_0", "seat_1"]


def test_parallel_the_penalty_under_the_score_pays_back_to_the_results() -> None:
    env = KarnakParallelEnv("amunre", 3, rewards="score", illegal="penalty")
    observations, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    while steps < 20 or not any(totals.values()):
        steps += 1
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"])))
            for a, o in observations.items()
            if o["action_mask"].any()
        }
        observations, rewards, *_ = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert any(totals.values())  # the scores have moved
    offender = agent_name(env.acting()[0])
    actions = {
        agent_name(s): illegal_id(observations[agent_name(s)]["action_mask"]) for s in env.acting()
    }
    actions = {offender: actions[offender]} | {
        a: int(np.flatnonzero(observations[a]["action_mask"])[0]) for a in actions if a != offender
    }
    _, rewards, *_ = env.step(actions)
    bottom = env.idgame.description.min_utility
    for agent in env.possible_agents:
        assert totals[agent] + rewards[agent] == pytest.approx(bottom if agent == offender else 0.0)


def test_gymnasium_an_illegal_id_ends_the_episode_with_the_penalty() -> None:
    env = gymnasium.make("karnak/AmunRe-v1", players=4, seat=2, render_mode="ansi")
    inner = env.unwrapped
    assert isinstance(inner, KarnakGymEnv)
    observation, info = env.reset(seed=4)
    before = list(inner.id_state.ids)
    state = inner.id_state.state.clone()
    bad = illegal_id(info["action_mask"])
    observation, reward, terminated, truncated, info = env.step(bad)
    assert (reward, terminated, truncated) == (-1.0, True, False)
    assert info[INFO_KEY] == {
        "seat_2": {
            "action": bad,
            "reason": f"{inner.idgame.id_name(bad)} ({bad}) is not legal for seat_2 here",
        }
    }
    assert inner.id_state.ids == before and inner.id_state.state == state
    assert not observation["action_mask"].any() and not info["action_mask"].any()
    assert not inner.action_masks().any()
    assert "seat_2, ended on its illegal id" in str(env.render())
    with pytest.raises(ActionIdError, match="reset"):
        env.step(0)
    observation, info = env.reset(seed=4)
    assert info["action_mask"].any() and INFO_KEY not in info and not inner.illegal_actions


@pytest.mark.parametrize("policy", ILLEGAL_POLICIES)
def test_ids_outside_the_space_raise_under_either_policy(policy: str) -> None:
    aec = KarnakAECEnv("aton", illegal=policy)
    aec.reset(seed=1)
    parallel = KarnakParallelEnv("aton", illegal=policy)
    parallel.reset(seed=1)
    gym = KarnakGymEnv("aton", illegal=policy)
    gym.reset(seed=1)
    ids = list(aec.id_state.ids)
    for bad in (-1, aec.idgame.num_actions, None, "seven"):
        with pytest.raises(ActionIdError):
            aec.step(bad)  # type: ignore[arg-type]
        with pytest.raises(ActionIdError, match="seat_1"):
            parallel.step({"seat_0": 0, "seat_1": bad})  # type: ignore[dict-item]
        if bad is not None:
            with pytest.raises(ActionIdError):
                gym.step(bad)  # type: ignore[arg-type]
    assert aec.id_state.ids == ids and not aec.illegal_actions and aec.agents
    assert parallel.id_count == 0 and parallel.agents
    assert gym.id_state.ids == [] and not gym.illegal_actions


def test_raise_keeps_raising_and_changes_nothing() -> None:
    aec = KarnakAECEnv("egyptia", 2, illegal="raise")
    aec_after(aec, seed=5, legal_steps=4)
    before = aec.id_state.clone()
    with pytest.raises(ActionIdError, match="not legal"):
        aec.step(illegal_id(aec.observe(aec.agent_selection)["action_mask"]))
    assert aec.id_state.state == before.state and aec.id_state.ids == before.ids
    assert not any(aec.terminations.values()) and not aec.illegal_actions
    gym = KarnakGymEnv("egyptia", players=2, illegal="raise")
    _, info = gym.reset(seed=5)
    with pytest.raises(ActionIdError, match="not legal"):
        gym.step(illegal_id(info["action_mask"]))
    assert gym.id_state.ids == [] and gym.action_masks().any()


def test_a_bad_policy_name_is_refused_clearly() -> None:
    message = r"illegal must be one of raise, penalty .* not 'ignore'"
    for build in (
        lambda: KarnakAECEnv("aton", illegal="ignore"),
        lambda: KarnakParallelEnv("aton", illegal="ignore"),
        lambda: KarnakGymEnv("aton", illegal="ignore"),
        lambda: versioned("aton").env(illegal="ignore"),
        lambda: gymnasium.make("karnak/Aton-v1", illegal="ignore"),
    ):
        with pytest.raises(InvalidOptionError, match=message):
            build()

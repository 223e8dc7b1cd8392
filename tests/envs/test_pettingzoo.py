"""The PettingZoo adapters: PettingZoo's own conformance tests, whole games of every game with
the masks honoured, rewards that add up, and observations that hide what they must."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

from karnak.core import Rng
from karnak.core.action_ids import ActionIdError
from karnak.core.description import standing
from karnak.core.errors import InvalidOptionError
from karnak.core.state import State
from karnak.envs import IdGame, IdState, pettingzoo_env, pettingzoo_parallel_env
from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv, agent_name, seat_of
from karnak.envs.versions import env_version

TABLES = [
    ("aton", 2),
    ("amunre", 3),
    ("amunre", 4),
    ("amunre", 5),
    ("egyptia", 1),
    ("egyptia", 2),
]
TABLE_IDS = [f"{game}-{players}" for game, players in TABLES]
SHARED_TABLES = [table for table in TABLES if table[1] > 1]
SHARED_IDS = [f"{game}-{players}" for game, players in SHARED_TABLES]

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


# --------------------------------------------------------------------- PettingZoo's tests
@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_api_test(game: str, players: int, only_expected_warnings: None) -> None:
    # Aton's cycles are enough for whole games (about 110 ids); the others play part of one.
    cycles = 400 if game == "aton" else 60
    api_test(KarnakAECEnv(game, players), num_cycles=cycles)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_seed_test(game: str, players: int) -> None:
    seed_test(lambda: KarnakAECEnv(game, players), num_cycles=100)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_pettingzoo_parallel_api_test(
    game: str, players: int, only_expected_warnings: None
) -> None:
    parallel_api_test(KarnakParallelEnv(game, players), num_cycles=400)


# --------------------------------------------------------------------- whole games, AEC
def play_aec(env: KarnakAECEnv, seed: int) -> dict[str, float]:
    """A random game with the masks honoured, checking the classic conventions on the way;
    returns each agent's summed rewards."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter(100_000):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        state = env.id_state
        assert seat_of(agent) == state.current_player()
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and list(np.flatnonzero(mask)) == state.legal_ids()
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
        for a, reward in env.rewards.items():
            totals[a] += reward
    assert env.agents == []
    return totals


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_whole_random_games_add_up_to_the_final_standing(game: str, players: int) -> None:
    env = KarnakAECEnv(game, players)
    d = env.idgame.description
    for seed in range(2):
        totals = play_aec(env, seed)
        final = env.id_state.standing()
        assert env.id_state.state.is_over()
        assert [totals[agent_name(s)] for s in range(players)] == pytest.approx(final)
        assert all(d.min_utility <= value <= d.max_utility for value in final)
        if players > 1:
            assert sum(final) == pytest.approx(0.0)


@pytest.mark.parametrize("rewards", ["score", "rank"])
def test_other_reward_schemes_add_up_too(rewards: str) -> None:
    env = KarnakAECEnv("amunre", 3, rewards=rewards)
    totals = play_aec(env, 5)
    assert list(totals.values()) == pytest.approx(env.id_state.standing())
    assert any(totals.values())


def test_an_illegal_id_raises_and_changes_nothing() -> None:
    env = KarnakAECEnv("aton")
    env.reset(seed=4)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = env.id_state.clone()
    with pytest.raises(ActionIdError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ActionIdError):
        env.step(env.idgame.num_actions)
    with pytest.raises(ActionIdError, match="None"):
        env.step(None)
    assert env.id_state.state == before.state and env.id_state.ids == []
    assert env.agent_selection == agent_name(before.current_player())


def test_seeds_choose_the_game_and_resets_without_one_follow_the_last() -> None:
    env = KarnakAECEnv("amunre", 3)
    env.reset(seed=11)
    assert env.current_seed == 11 and env.id_state.state == IdGame("amunre", 3).new_state(11).state
    env.reset()
    first = env.current_seed
    env.reset(seed=11)
    env.reset()
    assert env.current_seed == first != 11
    env.reset(seed=12)
    env.reset()
    assert env.current_seed != first


def test_a_cut_off_game_truncates_every_agent() -> None:
    env = KarnakAECEnv("aton", rewards="score")
    env.idgame.max_game_length = 6
    env.reset(seed=2)
    for _ in range(6):
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert not env.observe(env.agent_selection)["action_mask"].any()
    while env.agents:
        assert env.last()[3]
        env.step(None)


def test_names_metadata_render_and_bad_options() -> None:
    env = pettingzoo_env("egyptia", players=2, render_mode="ansi")
    # the versioned name (tests/envs/test_registration.py pins what each version means)
    assert env.metadata["name"] == env_version("egyptia").name and env.possible_agents == [
        "seat_0",
        "seat_1",
    ]
    assert env.metadata["is_parallelizable"] is False
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "seed 1" in text and "spelled so far" in text
    assert env.observation_space("seat_1") is env.observation_space("seat_1")
    space = env.observation_space("seat_0")
    assert space["observation"].shape == (env.idgame.observation_size,)
    assert space["action_mask"].shape == (env.idgame.num_actions,)
    with pytest.raises(KeyError, match="seat_0"):
        env.observe("player_0")
    with pytest.raises(InvalidOptionError, match="render_mode"):
        KarnakAECEnv("aton", render_mode="rgb_array")
    with pytest.raises(InvalidOptionError, match="players"):
        KarnakAECEnv("aton", 3)
    assert pettingzoo_parallel_env("aton").metadata["name"] == env_version("aton").name


def test_human_render_prints(capsys: pytest.CaptureFixture[str]) -> None:
    env = KarnakAECEnv("aton", render_mode="human")
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert "Aton" in capsys.readouterr().out


# --------------------------------------------------------------------- non-interference
def seen(observation: dict[str, Any]) -> tuple[list[float], list[int]]:
    return observation["observation"].tolist(), observation["action_mask"].tolist()


def test_aec_a_sealed_lay_out_is_not_seen_by_the_other_seat() -> None:
    views = []
    for pick in (0, -1):
        env = KarnakAECEnv("aton")
        env.reset(seed=6)
        first = env.agent_selection
        lay_outs = [
            i
            for i in np.flatnonzero(env.observe(first)["action_mask"])
            if env.idgame.id_name(int(i)).startswith("allocate")
        ]
        env.step(int(lay_outs[pick]))
        other = env.agent_selection
        assert other != first
        views.append(seen(env.observe(other)))
    assert views[0] == views[1]


@pytest.mark.parametrize(("game", "players"), SHARED_TABLES, ids=SHARED_IDS)
def test_aec_a_seat_does_not_see_another_commit_before_the_reveal(game: str, players: int) -> None:
    env = KarnakAECEnv(game, players)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    checked = 0
    while not env.id_state.is_terminal():
        state = env.id_state
        committing = state.current_player()
        if not state.prefix and len(state.state.to_move()) > 1:
            views = []
            for world in commitments(state.state, committing):
                branch = KarnakAECEnv(game, players)
                branch.start_from(IdState(env.idgame, world))
                waiting = branch.agent_selection
                assert branch.id_state.current_player() in state.state.to_move()
                views.append((waiting, seen(branch.observe(waiting))))
            if views:
                assert views[0] == views[1]
                checked += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 3


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_aec_observations_do_not_change_in_resampled_worlds(game: str, players: int) -> None:
    env = KarnakAECEnv(game, players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    checked = 0
    while not env.id_state.is_terminal():
        if len(env.id_state.ids) % 7 == 0:
            for seat in range(players):
                agent = agent_name(seat)
                world = env.id_state.resample(seat, Rng(len(env.id_state.ids)))
                other = KarnakAECEnv(game, players)
                other.start_from(world)
                assert seen(other.observe(agent)) == seen(env.observe(agent))
                checked += 1
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 5 * players


# --------------------------------------------------------------------- the Parallel env
def play_parallel(env: KarnakParallelEnv, seed: int) -> tuple[dict[str, float], int]:
    """A random game, checking the contract at every step; returns summed rewards and the
    number of steps at which several seats acted."""
    observations, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    together = 0
    while env.agents:
        state = env.game_state
        acting = env.acting()
        assert acting == tuple(state.to_move()) and acting
        if len(acting) > 1:
            assert state.is_simultaneous()
            together += 1
        actions = {}
        for agent in env.agents:
            mask = observations[agent]["action_mask"]
            if seat_of(agent) in acting:
                assert mask.any()
                actions[agent] = int(rng.choice(np.flatnonzero(mask)))
            else:
                assert not mask.any()
                actions[agent] = 0  # ignored
        observations, rewards, terminations, truncations, _ = env.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
        assert len(set(terminations.values())) == 1 and not any(truncations.values())
    return totals, together


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_parallel_whole_games_add_up_and_sealed_steps_act_together(game: str, players: int) -> None:
    env = KarnakParallelEnv(game, players)
    totals, together = play_parallel(env, 1)
    assert env.game_state.is_over() and env.agents == []
    final = standing(env.game_state, env.idgame.description.rewards)
    assert [totals[agent_name(s)] for s in range(players)] == pytest.approx(final)
    if players > 1:
        assert together > 0  # every game has sealed steps where seats commit together


def test_parallel_missing_and_illegal_actions_change_nothing() -> None:
    env = KarnakParallelEnv("aton")
    observations, _ = env.reset(seed=8)
    assert env.acting() == (0, 1)
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    before = env.game_state.clone()
    with pytest.raises(KeyError, match="seat_1"):
        env.step({"seat_0": legal["seat_0"]})
    illegal = int(np.flatnonzero(observations["seat_1"]["action_mask"] == 0)[0])
    with pytest.raises(ActionIdError, match="seat_1"):
        env.step({"seat_0": legal["seat_0"], "seat_1": illegal})
    assert env.game_state == before and env.id_count == 0
    env.step(legal)
    assert env.id_count == 2
    env.agents = []
    with pytest.raises(ActionIdError, match="reset"):
        env.step(legal)


def commitments(state: State, seat: int) -> list[State]:
    """The worlds after two different sealed commitments of ``seat`` (moves after which it
    waits for the reveal; a move seen at once, such as selling a card, leaves it to move)."""
    worlds = []
    for move in state.legal_actions(seat):
        world = state.clone(log=True)
        world.apply_unchecked(seat, move)
        if seat not in world.to_move():
            worlds.append(world)
    return [worlds[0], worlds[-1]] if len(worlds) >= 2 else []


@pytest.mark.parametrize(("game", "players"), SHARED_TABLES, ids=SHARED_IDS)
def test_parallel_a_seat_does_not_see_another_commit_before_the_reveal(
    game: str, players: int
) -> None:
    env = KarnakParallelEnv(game, players)
    rng = np.random.default_rng(0)
    checked = 0
    observations, _ = env.reset(seed=2)
    while env.agents:
        acting = env.acting()
        if len(acting) > 1:
            committing, waiting = acting[-1], acting[0]
            views = []
            for world in commitments(env.game_state, committing):
                prefixes = list(env.prefixes)
                prefixes[committing] = ()
                branch = KarnakParallelEnv(game, players)
                branch.start_from(world, prefixes, env.id_count)
                assert waiting in branch.acting()  # no reveal: it has not committed
                views.append(seen(branch.observe(agent_name(waiting))))
            if views:
                assert views[0] == views[1]
                checked += 1
        actions = {
            agent_name(s): int(
                rng.choice(np.flatnonzero(observations[agent_name(s)]["action_mask"]))
            )
            for s in acting
        }
        observations, *_ = env.step(actions)
    assert checked >= 3


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_parallel_observations_do_not_change_in_resampled_worlds(game: str, players: int) -> None:
    env = KarnakParallelEnv(game, players)
    observations, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    checked = 0
    steps = 0
    while env.agents:
        if steps % 5 == 0:
            for seat in range(players):
                world = env.game_state.resample(seat, Rng(steps), history=True)
                mine = [env.prefixes[s] if s == seat else () for s in range(players)]
                other = KarnakParallelEnv(game, players)
                other.start_from(world, mine, env.id_count)
                agent = agent_name(seat)
                assert seen(other.observe(agent)) == seen(env.observe(agent))
                checked += 1
        actions = {
            a: int(rng.choice(np.flatnonzero(o["action_mask"])))
            for a, o in observations.items()
            if o["action_mask"].any()
        }
        observations, *_ = env.step(actions)
        steps += 1
    assert checked >= 5 * players

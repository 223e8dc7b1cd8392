"""The single-agent Gymnasium environment: whole episodes of every game against bots,
seeding, and refusals. Gymnasium's own checker runs on the registered ids, as shipped, in
tests/envs/test_checkers.py."""

from __future__ import annotations

import numpy as np
import pytest

from karnak.bots.base import BotSpecError, UnknownBotError
from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.envs import gymnasium_env
from karnak.envs.gymnasium import KarnakGymEnv

TABLES = [("aton", 2), ("amunre", 3), ("amunre", 5), ("egyptia", 1), ("egyptia", 2)]
TABLE_IDS = [f"{game}-{players}" for game, players in TABLES]


def play_episode(env: KarnakGymEnv, seed: int) -> tuple[float, list[int], int]:
    """A random episode of the learner with the mask honoured: its summed reward, the ids it
    chose, and the steps."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, chosen = 0.0, []
    while True:
        mask = observation["action_mask"]
        assert np.array_equal(mask, info["action_mask"]) and mask.any()
        state = env.id_state
        assert state.current_player() == env.seat
        assert env.observation_space.contains(observation)
        action = int(rng.choice(np.flatnonzero(mask)))
        chosen.append(action)
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        if terminated or truncated:
            assert not observation["action_mask"].any()
            return total, chosen, len(chosen)


@pytest.mark.parametrize(("game", "players"), TABLES, ids=TABLE_IDS)
def test_whole_episodes_against_random_add_up_to_the_final_standing(
    game: str, players: int
) -> None:
    seat = players - 1
    env = KarnakGymEnv(game, seat=seat, players=players)
    for seed in range(2):
        total, _, steps = play_episode(env, seed)
        assert env.id_state.state.is_over()
        assert total == pytest.approx(env.id_state.standing()[seat])
        assert steps > 5


def test_an_episode_against_the_heuristic() -> None:
    env = gymnasium_env("amunre", players=4, seat=1, opponents="heuristic")
    total, _, _ = play_episode(env, 7)
    assert total == pytest.approx(env.id_state.standing()[1])
    assert env.opponent_specs == {0: "heuristic", 2: "heuristic", 3: "heuristic"}


def test_mixed_opponents_and_a_short_search() -> None:
    env = KarnakGymEnv("amunre", players=3, opponents=["ismcts", "random"], think_time="5")
    assert env.opponent_specs == {1: "ismcts:5", 2: "random"}
    env.reset(seed=1)
    observation, *_ = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert observation["observation"].shape == (env.idgame.observation_size,)
    assert KarnakGymEnv("aton", opponents=[None, "ismcts:0.1s"]).opponent_specs == {
        1: "ismcts:0.1s"
    }
    assert KarnakGymEnv("aton", opponents="easy").opponent_specs == {1: "random"}
    assert KarnakGymEnv("aton", opponents="ismcts", think_time=0.05).opponent_specs == {
        1: "ismcts:0.05s"
    }
    # a style stays the spec's own, after the budget the environment gives
    assert KarnakGymEnv("aton", opponents="ismcts@style=3", think_time=0.05).opponent_specs == {
        1: "ismcts:0.05s@style=3"
    }
    assert KarnakGymEnv("aton", opponents="heuristic@style=2").opponent_specs == {
        1: "heuristic@style=2"
    }


def test_a_seed_replays_the_episode_and_reset_without_one_follows_it() -> None:
    runs = []
    for _ in range(2):
        env = KarnakGymEnv("egyptia", players=2, opponents="heuristic")
        runs.append(play_episode(env, 5))
        runs.append((env.id_state.ids, env.current_seed))
    assert runs[0] == runs[2] and runs[1] == runs[3]
    env = KarnakGymEnv("aton")
    env.reset(seed=9)
    env.reset()
    follow = env.current_seed
    env.reset(seed=9)
    env.reset()
    assert env.current_seed == follow != 9


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    env = KarnakGymEnv("aton", seat=1)
    env.reset(seed=2)
    before = list(env.id_state.ids)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    with pytest.raises(ActionIdError, match="not legal"):
        env.step(illegal)
    with pytest.raises(ActionIdError):
        env.step(-1)
    assert env.id_state.ids == before
    play_episode(env, 2)
    with pytest.raises(ActionIdError, match="reset"):
        env.step(0)


def test_bad_settings_are_refused_clearly() -> None:
    with pytest.raises(InvalidOptionError, match="seat"):
        KarnakGymEnv("aton", seat=2)
    with pytest.raises(InvalidOptionError, match="seat"):
        KarnakGymEnv("aton", seat=True)
    with pytest.raises(UnknownBotError, match="unknown bot"):
        KarnakGymEnv("aton", opponents="alphazero")
    with pytest.raises(BotSpecError, match="budget"):
        KarnakGymEnv("aton", opponents="random:1s")
    with pytest.raises(InvalidOptionError, match="opponents"):
        KarnakGymEnv("amunre", players=4, opponents=["random", "random"])
    with pytest.raises(InvalidOptionError, match="think_time"):
        KarnakGymEnv("aton", think_time=0)
    with pytest.raises(InvalidOptionError, match="render_mode"):
        KarnakGymEnv("aton", render_mode="rgb_array")


def test_render_shows_the_learners_view(capsys: pytest.CaptureFixture[str]) -> None:
    env = KarnakGymEnv("aton", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and "seat_0" in text and "your hand" in text
    human = KarnakGymEnv("egyptia", players=1, render_mode="human")
    human.reset(seed=0)
    human.step(int(np.flatnonzero(human.action_masks())[0]))
    assert "Egyptia" in capsys.readouterr().out

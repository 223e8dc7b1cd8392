"""OpenSpiel's own checks as shipped: ``random_sim_test`` with serialisation on every game and
table size under the default ``seed=-1``; a serialised game and state that deal and play on
exactly as the originals; parameters that read back as given; Egyptia solo's terminal
rewards (the final score scaled, or a builder status reached or not) under ``MCTSBot``."""

from __future__ import annotations

import pickle
import random
from typing import Any

import numpy as np
import pytest

from karnak.core import get_game
from karnak.core.description import final_score_utilities
from karnak.envs import register_openspiel

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import mcts  # noqa: E402

#: Every game at each table size CI covers, all under the default seed (-1).
TABLES = [
    ("aton", 2),
    ("amunre", 3),
    ("amunre", 4),
    ("amunre", 5),
    ("egyptia", 1),
    ("egyptia", 2),
    ("egyptia", 4),
]


@pytest.fixture(scope="module", autouse=True)
def registered() -> list[str]:
    return register_openspiel()


def load(text: str, params: dict[str, Any] | None = None) -> Any:
    return pyspiel.load_game(text) if params is None else pyspiel.load_game(text, params)


def play(state: Any, steps: int, rng: random.Random) -> list[int]:
    """Up to ``steps`` random ids (the ids chosen)."""
    chosen = []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        chosen.append(action)
    return chosen


def seen(state: Any) -> list[Any]:
    """Everything a framework reads of a state, every seat's views included."""
    views: list[Any] = [state.current_player(), state.is_terminal(), str(state)]
    views += [state.returns(), state.rewards(), state.history()]
    if not state.is_terminal():
        views.append(state.legal_actions())
    for seat in range(state.num_players()):
        views += [
            state.information_state_string(seat),
            state.observation_string(seat),
            state.information_state_tensor(seat),
            state.observation_tensor(seat),
        ]
    return views


# ----------------------------------------------------------------- random_sim_test
@pytest.mark.parametrize(("name", "players"), TABLES, ids=[f"{g}-{p}" for g, p in TABLES])
def test_random_sim_test_serialises_every_game_and_table_size(name: str, players: int) -> None:
    game = load(f"karnak_{name}(players={players})")  # seed=-1: a fresh deal each game
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("rewards", ["score", "status", "status:Legendary"])
def test_random_sim_test_serialises_egyptia_solo_under_each_reward(rewards: str) -> None:
    game = load(f"karnak_egyptia(players=1,rewards={rewards})")
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


# ----------------------------------------------------------------- serialisation, any seed
@pytest.mark.parametrize(
    "text", ["karnak_aton", "karnak_egyptia(players=1)", "karnak_amunre(players=4,seed=9)"]
)
def test_a_deserialised_game_and_state_play_and_deal_on_as_the_originals(text: str) -> None:
    game = load(text)
    for _ in range(3):  # the game object deals a few games first
        play(game.new_initial_state(), 4, random.Random(0))
    state = game.new_initial_state()
    play(state, 15, random.Random(1))
    serialised = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(serialised)
    assert str(game2) == str(game) and game2.get_parameters() == game.get_parameters()
    assert state2.karnak_seed() == state.karnak_seed()
    assert seen(state2) == seen(state)
    # The same ids on both: the same views, rewards and returns all the way to the end.
    rng = random.Random(2)
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        state2.apply_action(action)
        assert seen(state2) == seen(state)
    # And both game objects deal the same next games.
    for _ in range(2):
        first, again = game.new_initial_state(), game2.new_initial_state()
        assert again.karnak_seed() == first.karnak_seed()
        assert again.id_state().state == first.id_state().state
    # Pickling goes through the same serialisation, and a game pickles on its own too.
    state3 = pickle.loads(pickle.dumps(state))
    assert str(state3) == str(state)
    game3 = pickle.loads(pickle.dumps(game))
    assert str(game3) == str(game)
    assert game3.new_initial_state().karnak_seed() == game.new_initial_state().karnak_seed()


def test_fresh_seeds_differ_and_a_dealer_never_deals_a_game_twice() -> None:
    game = load("karnak_aton")
    seeds = [game.new_initial_state().karnak_seed() for _ in range(6)]
    assert len(set(seeds)) == len(seeds)
    assert game.get_rng_state() == "6"
    # A fresh game object deals the same sequence; its RNG state can be set back and on.
    other = load("karnak_aton")
    assert [other.new_initial_state().karnak_seed() for _ in range(3)] == seeds[:3]
    other.set_rng_state("1")
    assert other.new_initial_state().karnak_seed() == seeds[1]
    other.set_rng_state("5")
    assert other.new_initial_state().karnak_seed() == seeds[5]
    # A state from a game that had dealt fewer games leaves a busier game's dealer alone.
    early = load("karnak_aton")
    state = early.new_initial_state()
    play(state, 3, random.Random(3))
    assert early.get_rng_state() == "1"
    again = game.deserialize_state(state.serialize())
    assert str(again) == str(state)
    assert game.get_rng_state() == "6"
    assert game.new_initial_state().karnak_seed() not in seeds


def test_a_state_not_yet_dealt_serialises_with_its_deal() -> None:
    game = load("karnak_amunre(players=3)")
    state = game.new_initial_state()  # not yet used: its seed is drawn on serialising
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert state2.karnak_seed() == state.karnak_seed()
    assert seen(state2) == seen(state)
    assert game2.new_initial_state().karnak_seed() == game.new_initial_state().karnak_seed()


def test_a_resampled_world_serialises_with_its_games_dealer() -> None:
    game = load("karnak_egyptia(players=2)")
    state = game.new_initial_state()
    play(state, 12, random.Random(4))
    world = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    game2, world2 = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, world)
    )
    assert str(world2) == str(world)
    assert world2.id_state().state == world.id_state().state
    assert game2.new_initial_state().karnak_seed() == game.new_initial_state().karnak_seed()


# ----------------------------------------------------------------- parameters
@pytest.mark.parametrize(
    ("text", "params"),
    [
        ("karnak_aton", {"rewards": "rank", "seed": 4}),
        ("karnak_amunre", {"players": 4, "edition": 2016, "offer_cards": True}),
        ("karnak_egyptia", {"players": 1, "rewards": "status:Master", "cards": "A2;B2"}),
        ("karnak_egyptia", {"players": 3, "rewards": "final_score"}),
    ],
)
def test_parameters_read_back_as_given(text: str, params: dict[str, Any]) -> None:
    game = load(text, params)
    read = game.get_parameters()
    assert {name: read[name] for name in params} == params
    # Every other parameter reads back as the value in effect: its default, never a
    # placeholder; the game string holds them all and loads the same game again.
    spec = game.get_type().parameter_specification
    assert set(read) == set(spec)
    for name in set(spec) - set(params) - {"rewards"}:
        assert read[name] == spec[name]
    assert load(str(game)).get_parameters() == read
    assert str(load(text, read)) == str(game)


@pytest.mark.parametrize(
    ("text", "rewards"),
    [
        ("karnak_aton", "win"),
        ("karnak_aton(rewards=default)", "win"),
        ("karnak_amunre(players=5)", "win"),
        ("karnak_egyptia(players=1)", "final_score"),
        ("karnak_egyptia(players=1,rewards=status)", "status:{default}"),
        ("karnak_egyptia(players=1,rewards=status:skilled)", "status:Skilled"),
        ("karnak_egyptia(players=1,rewards=status:55)", "status:55"),
    ],
)
def test_rewards_read_back_as_the_scheme_played(text: str, rewards: str) -> None:
    game = load(text)
    default = get_game("egyptia").default_score_target(1)
    expected = rewards.format(default=default)
    assert game.get_parameters()["rewards"] == expected
    assert game.idgame.description.rewards == expected
    assert f"rewards={expected}" in str(game)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("karnak_egyptia(players=1,rewards=status:Pharaoh)", "named targets: Apprentice"),
        ("karnak_egyptia(players=2,rewards=status)", "solo table"),
        ("karnak_aton(rewards=final_score:3)", "only rewards 'status' take a target"),
        ("karnak_egyptia(players=1,rewards=rank)", "solo game has no winner"),
    ],
)
def test_bad_rewards_are_refused_clearly(text: str, match: str) -> None:
    with pytest.raises(Exception, match=match):
        load(text)


# ----------------------------------------------------------------- Egyptia solo rewards
def mcts_game(game: Any, seed: int) -> Any:
    """A whole game chosen by OpenSpiel's MCTSBot (2 simulations a move: quick)."""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=2, evaluator=evaluator, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    return state


def test_mcts_plays_egyptia_solo_to_the_end_for_its_final_score() -> None:
    game = load("karnak_egyptia(players=1,seed=5)")  # the default: final_score
    state = mcts_game(game, 0)
    (value,) = state.returns()
    assert game.min_utility() <= value <= game.max_utility()
    (points,) = state.id_state().state.scores()
    low, high = get_game("egyptia").score_bounds(1)
    assert value == pytest.approx(2 * (points - low) / (high - low) - 1)
    assert [value] == final_score_utilities([points], low, high)


def test_status_rewards_pay_for_reaching_the_builder_status() -> None:
    egyptia = get_game("egyptia")
    targets = dict(egyptia.score_targets(1))
    assert targets == {rank.name: rank.low for rank in egyptia.sheet.ranks}  # the sheet's
    state = load("karnak_egyptia(players=1,seed=6)").new_initial_state()
    play(state, 10_000, random.Random(6))
    (points,) = state.id_state().state.scores()
    reached = [name for name, low in targets.items() if points >= low]
    missed = [name for name, low in targets.items() if points < low]
    assert reached and missed  # a random game reaches some statuses, not all
    for name in reached + missed:
        game = load(f"karnak_egyptia(players=1,seed=6,rewards=status:{name})")
        replay = game.new_initial_state()
        for action in state.history():
            assert replay.returns() == [0.0]  # paid only at the end
            replay.apply_action(action)
        assert replay.returns() == [1.0 if name in reached else -1.0]
        assert game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
        assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


def test_mcts_plays_egyptia_solo_for_a_status() -> None:
    game = load("karnak_egyptia(players=1,seed=7,rewards=status)")
    state = mcts_game(game, 1)
    (points,) = state.id_state().state.scores()
    egyptia = get_game("egyptia")
    target = dict(egyptia.score_targets(1))[egyptia.default_score_target(1) or ""]
    assert state.returns() == [1.0 if points >= target else -1.0]

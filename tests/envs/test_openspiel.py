"""The OpenSpiel adapter: registration, types and sizes, OpenSpiel's own random simulation
test and search bots, parameters, serialisation, observers and non-interference."""

from __future__ import annotations

import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from karnak.core.errors import InvalidOptionError
from karnak.core.registry import available_games
from karnak.envs import IdGame, register_openspiel

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

NAMES = [f"karnak_{name}" for name in available_games()]
# A game string per game that is quick to play (small tables).
SMALL = {
    "amunre": "karnak_amunre(seed=3)",
    "aton": "karnak_aton(seed=3)",
    "egyptia": "karnak_egyptia(seed=3)",
    "egyptia_solo": "karnak_egyptia(players=1,seed=3)",
}


@pytest.fixture(scope="module", autouse=True)
def registered() -> list[str]:
    return register_openspiel()


def load(text: str) -> Any:
    return pyspiel.load_game(text)


def random_play(state: Any, steps: int, seed: int) -> Any:
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


# ----------------------------------------------------------------- registration and types
def test_register_is_idempotent_and_registers_the_three_games(registered: list[str]) -> None:
    assert registered == NAMES
    assert register_openspiel() == NAMES
    assert set(NAMES) <= set(pyspiel.registered_names())


@pytest.mark.parametrize("name", available_games())
def test_the_type_and_info_come_from_the_description(name: str) -> None:
    game = load(f"karnak_{name}")
    kinds = pyspiel.GameType
    t = game.get_type()
    idgame = IdGame(name)
    d = idgame.description
    assert t.short_name == f"karnak_{name}"
    assert t.dynamics == kinds.Dynamics.SEQUENTIAL
    # No chance nodes, and every id's outcome fixed by the state (its seed is part of it):
    # seed=-1 only picks the seed of each new game. (pyspiel serialises no sampled-chance
    # Python game: it would ask the game for a C++ generator's state.)
    assert t.chance_mode == kinds.ChanceMode.DETERMINISTIC
    assert t.information == kinds.Information.IMPERFECT_INFORMATION
    assert t.utility == kinds.Utility.ZERO_SUM
    assert t.reward_model == kinds.RewardModel.TERMINAL
    assert (t.min_num_players, t.max_num_players) == (
        idgame.game.min_players,
        idgame.game.max_players,
    )
    assert {"players", "rewards", "seed"} | {o.name for o in idgame.game.options} == set(
        t.parameter_specification
    )
    assert t.provides_information_state_tensor and t.provides_observation_tensor
    assert game.num_distinct_actions() == idgame.space.size
    assert game.max_chance_outcomes() == 0
    assert game.num_players() == d.players
    assert (game.min_utility(), game.max_utility()) == (d.min_utility, d.max_utility)
    assert game.utility_sum() == 0.0
    assert game.max_game_length() == idgame.space.max_game_length
    # the description's vector sizes: the one source the docs and every adapter share
    assert game.information_state_tensor_shape() == [d.information_state_vector_size]
    assert game.observation_tensor_shape() == [d.observation_vector_size]


def test_parameters_parse_from_the_game_string() -> None:
    game = load("karnak_aton(rewards=score)")
    d = IdGame("aton", rewards="score").description
    assert game.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    assert (game.min_utility(), game.max_utility()) == (d.min_utility, d.max_utility)
    assert game.get_parameters()["rewards"] == "score"
    solo = load("karnak_egyptia(players=1)")
    assert solo.num_players() == 1
    assert solo.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    # OpenSpiel's solo default pays at the end (its MCTS wants that): the final score, scaled.
    assert solo.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert solo.get_parameters()["rewards"] == "final_score"
    paid = load("karnak_egyptia(players=1,rewards=score)")
    assert paid.get_type().reward_model == pyspiel.GameType.RewardModel.REWARDS
    # A fixed seed deals every game the same: no chance left at all.
    fixed = load("karnak_aton(seed=5)")
    assert fixed.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert fixed.new_initial_state().id_state().state == IdGame("aton").new_state(5).state


def test_options_survive_the_game_string() -> None:
    amunre = load("karnak_amunre(players=4,edition=2016,offer_cards=true,expert_provinces=true)")
    options = amunre.idgame.options
    assert options == {"edition": "2016", "offer_cards": True, "expert_provinces": True}
    assert load(str(amunre)).idgame.options == options
    # A comma separates a game string's parameters, so a list option takes ';'.
    egyptia = load("karnak_egyptia(cards=A2;B2)")
    assert egyptia.idgame.options["cards"] == "A2,B2"
    via_dict = pyspiel.load_game("karnak_egyptia", {"cards": "A2,B2"})
    assert str(via_dict) == str(egyptia)
    assert load(str(via_dict)).idgame.options["cards"] == "A2,B2"


@pytest.mark.parametrize(
    ("text", "error", "match"),
    [
        ("karnak_aton(players=3)", InvalidOptionError, "exactly 2 players"),
        ("karnak_aton(rewards=money)", InvalidOptionError, "rewards must be one of"),
        ("karnak_aton(seed=-5)", InvalidOptionError, "seed must be -1"),
        ("karnak_egyptia(players=1,rewards=win)", InvalidOptionError, "solo"),
        ("karnak_egyptia(cards=Z9)", InvalidOptionError, "no Pharaoh card 'Z9'"),
        ("karnak_amunre(edition=1999)", InvalidOptionError, "allowed values: 2003, 2016"),
        ("karnak_aton(colour=red)", Exception, "Unknown parameter 'colour'"),
        ("karnak_aton(players=two)", Exception, "Wrong type for parameter players"),
    ],
)
def test_bad_parameters_are_refused_clearly(text: str, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        load(text)


def test_registration_leaves_the_process_able_to_exit() -> None:
    # pyspiel keeps each creator to the very end; a plain function there aborted the exit.
    code = (
        "import pyspiel\nfrom karnak.envs import register_openspiel\n"
        "register_openspiel()\npyspiel.load_game('karnak_aton').new_initial_state()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()


# ----------------------------------------------------------------- OpenSpiel's own checks
@pytest.mark.parametrize(
    ("text", "sims"),
    [
        ("karnak_aton(seed=11)", 2),
        ("karnak_aton(seed=12,rewards=score)", 1),
        ("karnak_aton(seed=13,rewards=rank)", 1),
        ("karnak_amunre(seed=11)", 1),
        ("karnak_amunre(seed=12,players=4,rewards=score,edition=2016,offer_cards=true)", 1),
        ("karnak_egyptia(seed=11)", 2),
        ("karnak_egyptia(seed=12,players=1)", 2),
        ("karnak_egyptia(seed=13,rewards=score)", 1),
    ],
)
def test_random_sim_test_with_serialisation(text: str, sims: int) -> None:
    pyspiel.random_sim_test(load(text), num_sims=sims, serialize=True, verbose=False)


def test_random_sim_test_with_a_fresh_seed_per_game() -> None:
    # seed=-1 (the default): each game its own seed, and the game and state serialise.
    game = load("karnak_aton")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    state = random_play(game.new_initial_state(), 5, 0)
    game2, state2 = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state)
    )
    assert str(game2) == str(game) and str(state2) == str(state)


def bots(game: Any, seed: int) -> tuple[Any, Any]:
    """OpenSpiel's MCTS (None when the game pays as it goes: it wants terminal rewards) and
    IS-MCTS, with a few simulations each."""
    rs = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rs)
    search = None
    if game.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL:
        search = mcts.MCTSBot(
            game, uct_c=2.0, max_simulations=4, evaluator=evaluator, random_state=rs
        )
    sampling = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=4, random_state=rs)
    return search, sampling


def test_mcts_and_ismcts_play_a_whole_game_of_aton() -> None:
    game = load("karnak_aton(seed=21)")
    search, sampling = bots(game, 0)
    state = game.new_initial_state()
    while not state.is_terminal():
        bot = search if state.current_player() == 0 else sampling
        state.apply_action(bot.step(state))
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])
    assert state.returns() == state.id_state().standing()


@pytest.mark.parametrize("text", [SMALL["amunre"], SMALL["egyptia"], SMALL["egyptia_solo"]])
def test_mcts_and_ismcts_move_in_amunre_and_egyptia(text: str) -> None:
    game = load(text)
    search, sampling = bots(game, 1)
    state = game.new_initial_state()
    players = [sampling] if search is None else [sampling, search]
    for bot in players:
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
    assert len(state.history()) == len(players)


def test_openspiels_rl_environment_plays_a_whole_episode() -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(load("karnak_egyptia(players=1,seed=9)"))
    step = env.reset()
    rng = np.random.RandomState(0)
    total = 0.0
    while not step.last():
        legal = step.observations["legal_actions"][0]
        step = env.step([int(rng.choice(legal))])
        total += step.rewards[0]
    assert total == pytest.approx(env.get_state.returns()[0])
    assert len(step.observations["info_state"][0]) == env.game.information_state_tensor_size()


# ----------------------------------------------------------------- rewards and returns
@pytest.mark.parametrize(
    "text", [SMALL["egyptia_solo"], "karnak_aton(seed=4,rewards=score)", SMALL["amunre"]]
)
def test_rewards_add_up_to_the_returns_which_end_as_the_standing(text: str) -> None:
    game = load(text)
    state = game.new_initial_state()
    assert state.returns() == [0.0] * game.num_players() == state.rewards()
    total = np.zeros(game.num_players())
    rng = random.Random(4)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        total += state.rewards()
        assert total == pytest.approx(state.returns(), abs=1e-9)
    assert state.returns() == state.id_state().standing()
    assert state.current_player() == pyspiel.PlayerId.TERMINAL and state.legal_actions() == []


def test_a_solo_egyptia_builder_is_paid_its_starting_points_with_the_first_id() -> None:
    state = load("karnak_egyptia(players=1,seed=3,rewards=score)").new_initial_state()
    start = state.id_state().standing()[0]
    assert start != 0.0  # the builder starts with points
    state.apply_action(state.legal_actions()[0])
    assert state.rewards()[0] == pytest.approx(state.returns()[0])
    assert state.returns() == state.id_state().standing()


# ----------------------------------------------------------------- copies and serialisation
def test_a_clone_is_independent_and_an_illegal_id_is_refused() -> None:
    state = random_play(load(SMALL["aton"]).new_initial_state(), 6, 1)
    clone = state.clone()
    assert str(clone) == str(state) and clone.history() == state.history()
    clone.apply_action(clone.legal_actions()[0])
    assert len(state.id_state().ids) == 6 and len(clone.id_state().ids) == 7
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="not legal"):
        state.apply_action(illegal)


def test_fresh_seeds_differ_and_serialisation_keeps_the_seed() -> None:
    game = load("karnak_aton")
    first, second = game.new_initial_state(), game.new_initial_state()
    assert first.karnak_seed() != second.karnak_seed()
    state = random_play(first, 9, 2)
    again = game.deserialize_state(state.serialize())
    assert again.karnak_seed() == state.karnak_seed()
    assert str(again) == str(state) and again.history() == state.history()
    assert again.id_state().state == state.id_state().state
    # Deserialising in another game object of the same parameters gives the same world.
    other = load("karnak_aton").deserialize_state(state.serialize())
    assert other.id_state().state == state.id_state().state
    # The seed replays the game through IdGame as well.
    replay = IdGame("aton").new_state(state.karnak_seed())
    for action in state.history():
        replay.apply_id(action)
    assert replay.state == state.id_state().state


def test_a_fixed_seed_game_and_state_round_trip() -> None:
    game = load("karnak_amunre(seed=8,players=4)")
    state = random_play(game.new_initial_state(), 12, 3)
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game) and str(state2) == str(state)
    assert state2.legal_actions() == state.legal_actions()


# ----------------------------------------------------------------- observers
@pytest.mark.parametrize("name", available_games())
def test_the_observer_dict_is_the_layout_and_then_the_spelled_ids(name: str) -> None:
    game = load(f"karnak_{name}(seed=5)")
    idgame = game.idgame
    state = random_play(game.new_initial_state(), 10, 5)
    seat = state.current_player()
    for perfect_recall, layout, tensor, string in [
        (
            True,
            idgame.game.information_state_layout(idgame.players, idgame.options),
            state.id_state().state.information_state_tensor(seat),
            state.id_state().information_state_string(seat),
        ),
        (
            False,
            idgame.game.observation_layout(idgame.players, idgame.options),
            state.id_state().state.observation_tensor(seat),
            state.id_state().observation_string(seat),
        ),
    ]:
        observation = make_observation(
            game, pyspiel.IIGObservationType(perfect_recall=perfect_recall)
        )
        observation.set_from(state, seat)
        spelled = ["spelled"] if idgame.spelled_size else []  # none where moves are one id
        assert list(observation.dict) == [p.part.name for p in layout.parts] + spelled
        for placed in layout.parts:
            assert observation.dict[placed.part.name].shape == placed.part.shape
        assert np.array_equal(observation.tensor[: layout.size], tensor)
        assert observation.string_from(state, seat) == string
    assert state.information_state_tensor(seat) == pytest.approx(
        list(state.id_state().observation(seat))
    )


def test_a_fixed_seeds_first_state_is_observed_right_and_never_changed() -> None:
    game = load(SMALL["aton"])  # seed 3
    first = IdGame("aton").new_state(3)
    for seat in (0, 1):  # twice each: the first state's tensors are kept
        for _ in range(2):
            tensor = game.new_initial_state().information_state_tensor(seat)
            assert tensor == pytest.approx(list(first.observation(seat)))
    played = random_play(game.new_initial_state(), 8, 0)
    assert played.information_state_tensor(0) != game.new_initial_state().information_state_tensor(
        0
    )
    assert game.new_initial_state().id_state().state == first.state


def find_spelling(seed: int) -> Any:
    """A state in which the seat to move has spelled part of a move (an Amun-Re offering
    or an Egyptia payment)."""
    for text in ("karnak_egyptia(seed=1)", "karnak_amunre(seed=1,offer_cards=true)"):
        game = load(text)
        for attempt in range(20):
            state = game.new_initial_state()
            rng = random.Random(seed + attempt)
            while not state.is_terminal():
                if state.id_state().prefix:
                    return state
                state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no game spelled a move in parts")


def test_the_spelled_part_counts_the_movers_ids_and_no_one_else_sees_them() -> None:
    state = find_spelling(0)
    game = state.get_game()
    seat = state.current_player()
    prefix = state.id_state().prefix
    observation = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    observation.set_from(state, seat)
    idgame = state.id_state().idgame
    expected = np.zeros(idgame.spelled_size, dtype=np.float32)
    for action in prefix:
        expected[idgame.spelling_index[action]] += 1.0
    assert np.array_equal(observation.dict["spelled"], expected)
    for other in range(game.num_players()):
        if other != seat:
            observation.set_from(state, other)
            assert not observation.dict["spelled"].any()


def test_unsupported_observers_are_refused() -> None:
    game = load(SMALL["aton"])
    with pytest.raises(Exception, match="one seat sees"):
        make_observation(
            game,
            pyspiel.IIGObservationType(
                perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
            ),
        )
    with pytest.raises(Exception, match="no parameters"):
        make_observation(game, params={"view": "god"})


# ----------------------------------------------------------------- non-interference
@pytest.mark.parametrize(
    "text", [SMALL["aton"], SMALL["amunre"], SMALL["egyptia"], "karnak_amunre(seed=6,players=4)"]
)
def test_a_seats_information_state_does_not_see_what_is_hidden_from_it(text: str) -> None:
    game = load(text)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    someone_else_differs = False
    for steps in (3, 8, 15, 30):
        state = random_play(game.new_initial_state(), steps, steps)
        if state.is_terminal():
            continue
        for seat in range(game.num_players()):
            worlds = [state.resample_from_infostate(seat, sampler) for _ in range(3)]
            for world in worlds:
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert world.observation_tensor(seat) == state.observation_tensor(seat)
                if seat == state.current_player():
                    assert world.legal_actions() == state.legal_actions()
                others = [p for p in range(game.num_players()) if p != seat]
                someone_else_differs |= any(
                    world.information_state_tensor(p) != state.information_state_tensor(p)
                    for p in others
                )
    # The worlds did differ, in what others see: the check above could fail.
    assert someone_else_differs


def test_a_resampled_world_plays_on_clones_and_serialises() -> None:
    game = load(SMALL["amunre"])
    state = random_play(game.new_initial_state(), 10, 7)
    seat = state.current_player()
    world = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    world.apply_action(world.legal_actions()[0])
    copy = world.clone()
    assert str(copy) == str(world)
    again = game.deserialize_state(world.serialize())
    assert str(again) == str(world)
    assert again.id_state().state == world.id_state().state
    random_play(again, 2000, 8)
    assert again.is_terminal()

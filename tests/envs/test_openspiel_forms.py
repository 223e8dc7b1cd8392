"""OpenSpiel's other forms of Karnak's games: simultaneous moves
(karnak.envs.openspiel_simultaneous) and explicit chance nodes (karnak.envs.openspiel_chance).

The chance form needs the pure-Python engine (a compiled one takes no scripted generator):
where this process runs the compiled engines, its tests run again in a pure-Python process.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import threading
from typing import Any

import pytest

import karnak.native
from karnak.core.registry import available_games
from karnak.core.rng import Rng
from karnak.envs import IdGame, register_openspiel
from karnak.envs.idgame import IdState

pyspiel = pytest.importorskip("pyspiel")
from open_spiel.python.algorithms import minimax, outcome_sampling_mccfr  # noqa: E402
from open_spiel.python.observation import make_observation  # noqa: E402

from karnak.envs import openspiel_chance, openspiel_simultaneous  # noqa: E402
from karnak.envs.openspiel import parameter_specification  # noqa: E402
from karnak.envs.openspiel_chance import (  # noqa: E402
    ChanceFormUnavailable,
    _ChanceWorld,
    recorded_deal,
    seeded_outcome,
)

COMPILED = karnak.native.status().active
PYTEST = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider"]
pure_only = pytest.mark.skipif(
    COMPILED, reason="compiled engines here: a pure-Python process runs the chance tests"
)


@pytest.fixture(scope="module", autouse=True)
def registered() -> None:
    openspiel_simultaneous.register()
    openspiel_chance.register()


def load(text: str) -> Any:
    return pyspiel.load_game(text)


def without_generator(state: Any) -> dict[str, Any]:
    """A Karnak state's JSON but its generator and seed (a chance game has neither)."""
    data = dict(state.to_json())
    del data["rng"], data["seed"]
    return data


def random_joint(state: Any, rng: random.Random) -> list[int]:
    return [rng.choice(state.legal_actions(p)) for p in range(state.num_players())]


def test_a_process_that_registers_and_plays_the_forms_exits_cleanly() -> None:
    """pyspiel keeps the game classes until after the interpreter stops (see
    karnak.envs.openspiel.game_class): the process must still exit with 0."""
    code = (
        "import pyspiel\n"
        "from karnak.envs import openspiel_chance, openspiel_simultaneous\n"
        "openspiel_simultaneous.register(); openspiel_chance.register()\n"
        "pyspiel.load_game('karnak_aton_simultaneous').new_initial_state()\n"
        "pyspiel.load_game_as_turn_based('karnak_aton_simultaneous').new_initial_state()\n"
        "pyspiel.load_game('karnak_aton_chance').new_initial_state().apply_action(0)\n"
        "print('played')\n"
    )
    env = {**os.environ, "KARNAK_NATIVE": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "played"


# ================================================================= simultaneous moves
def test_the_simultaneous_forms_register_once_with_the_sequential_parameters() -> None:
    names = openspiel_simultaneous.register()
    assert names == [f"karnak_{name}_simultaneous" for name in available_games()]
    assert openspiel_simultaneous.register() == names
    for name in available_games():
        game = load(f"karnak_{name}_simultaneous")
        idgame = IdGame(name)
        kinds = pyspiel.GameType
        assert game.get_type().dynamics == kinds.Dynamics.SIMULTANEOUS
        assert game.get_type().chance_mode == kinds.ChanceMode.DETERMINISTIC
        assert set(game.get_type().parameter_specification) == set(
            parameter_specification(idgame.game)
        )
        # The sequential game's ids, then "wait".
        assert game.num_distinct_actions() == idgame.space.size + 1
        assert game.max_chance_outcomes() == 0
    assert load("karnak_aton_simultaneous(seed=4)").get_parameters()["seed"] == 4


@pytest.mark.parametrize("name", available_games())
def test_a_seat_sees_the_sequential_games_view_laid_out_the_same(name: str) -> None:
    register_openspiel()
    joint = load(f"karnak_{name}_simultaneous(seed=8)").new_initial_state()
    serial = load(f"karnak_{name}(seed=8)").new_initial_state()
    for seat in range(joint.num_players()):
        assert joint.information_state_tensor(seat) == serial.information_state_tensor(seat)
        assert joint.observation_tensor(seat) == serial.observation_tensor(seat)
        assert joint.information_state_string(seat) == serial.information_state_string(seat)
    for perfect_recall in (False, True):
        kind = pyspiel.IIGObservationType(perfect_recall=perfect_recall)
        ours = make_observation(joint.get_game(), kind)
        theirs = make_observation(serial.get_game(), kind)
        assert list(ours.dict) == list(theirs.dict)
        assert [v.shape for v in ours.dict.values()] == [v.shape for v in theirs.dict.values()]


@pytest.mark.parametrize(
    "text",
    [
        "karnak_aton_simultaneous(seed=3)",
        "karnak_amunre_simultaneous(seed=3,offer_cards=true)",
        "karnak_egyptia_simultaneous(seed=3)",
        "karnak_egyptia_simultaneous(seed=3,players=1)",
    ],
)
def test_random_sim_test_passes_on_the_game_and_its_turn_based_conversion(text: str) -> None:
    pyspiel.random_sim_test(load(text), num_sims=1, serialize=True, verbose=False)
    turns = pyspiel.load_game_as_turn_based(text)
    assert turns.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    pyspiel.random_sim_test(turns, num_sims=1, serialize=True, verbose=False)


def test_random_sim_test_with_a_fresh_seed_per_game() -> None:
    game = load("karnak_aton_simultaneous")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    first, second = game.new_initial_state(), game.new_initial_state()
    assert first.karnak_seed() != second.karnak_seed()


def test_a_sealed_step_is_one_joint_node_and_a_turn_has_one_real_chooser() -> None:
    game = load("karnak_aton_simultaneous(seed=5)")
    noop = game.num_distinct_actions() - 1
    state = game.new_initial_state()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    assert state.movers() == (0, 1)  # Aton's lay-out: both seats at once
    assert all(noop not in state.legal_actions(p) for p in (0, 1))
    rng = random.Random(5)
    seen_turns = 0
    while not state.is_terminal():
        movers = state.movers()
        for seat in range(2):
            legal = state.legal_actions(seat)
            assert legal
            assert (legal == [noop]) == (seat not in movers)
        if len(movers) == 1:
            seen_turns += 1
            waiting = 1 - movers[0]
            wrong = [state.legal_actions(0)[0], state.legal_actions(1)[0]]
            wrong[waiting] = state.legal_actions(movers[0])[0]  # not "wait": refused
            before = str(state)
            with pytest.raises(Exception, match="not legal"):
                state.apply_actions(wrong)
            assert str(state) == before
        state.apply_actions(random_joint(state, rng))
    assert seen_turns > 10
    assert state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])


def test_a_flat_joint_action_is_each_seats_index_seat_0_first() -> None:
    state = load("karnak_aton_simultaneous(seed=6)").new_initial_state()
    red, blue = state.legal_actions(0), state.legal_actions(1)
    assert len(red) > 1 and len(blue) > 1
    assert state.legal_actions() == list(range(len(red) * len(blue)))
    flat, joint = state.clone(), state.clone()
    flat.apply_action(2 + len(red) * 3)
    joint.apply_actions([red[2], blue[3]])
    assert str(flat) == str(joint)
    with pytest.raises(Exception, match="flat joint action"):
        state.apply_action(len(red) * len(blue))


@pytest.mark.parametrize(
    "name, players, options",
    [("aton", 2, {}), ("amunre", 3, {"offer_cards": True}), ("egyptia", 3, {})],
)
def test_the_joint_game_is_the_sequential_game_played_in_another_order(
    name: str, players: int, options: dict[str, Any]
) -> None:
    """Each seat's ids, fed to the sequential id-level game seat by seat as it asks, give
    the same game: a sealed step's commitments do not depend on their order."""
    text = ",".join([f"players={players}", "seed=9", *(f"{k}={v}" for k, v in options.items())])
    game = load(f"karnak_{name}_simultaneous({text.lower()})")
    state, rng = game.new_initial_state(), random.Random(9)
    queues: list[list[int]] = [[] for _ in range(players)]
    sealed = 0
    while not state.is_terminal():
        movers = state.movers()
        sealed += len(movers) > 1
        joint = random_joint(state, rng)
        for seat in movers:
            queues[seat].append(joint[seat])
        state.apply_actions(joint)
    assert sealed > 0
    serial = IdGame(name, players, options=options).new_state(9)
    while not serial.is_terminal():
        serial.apply_id(queues[serial.current_player()].pop(0))
    assert not any(queues)
    ours = state.karnak_state()
    assert ours.scores() == serial.state.scores()
    for seat in range(players):
        assert ours.observation_string(seat) == serial.state.observation_string(seat)


@pytest.mark.parametrize(
    "text",
    [
        "karnak_amunre_simultaneous(seed=2,offer_cards=true)",
        "karnak_egyptia_simultaneous(seed=2,players=3)",
    ],
)
def test_no_seat_sees_another_seats_unfinished_spelling(text: str) -> None:
    """At a joint node, seat ``t`` takes each of its ids that leave its move unfinished,
    every other seat its first id: no other seat's view tells those apart."""
    game = load(text)
    compared = 0
    for seed in range(3):
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal() and compared < 12:
            for t in state.movers():
                base = [state.legal_actions(p)[0] for p in range(game.num_players())]
                afters = []
                for choice in state.legal_actions(t):
                    after = state.clone()
                    joint = list(base)
                    joint[t] = choice
                    after.apply_actions(joint)
                    if after.spelled(t):  # t is still spelling its move
                        afters.append(after)
                if len({a.spelled(t) for a in afters}) < 2:
                    continue
                compared += 1
                for s in range(game.num_players()):
                    views = {
                        (
                            a.information_state_string(s),
                            a.observation_string(s),
                            tuple(a.information_state_tensor(s)),
                            tuple(a.observation_tensor(s)),
                        )
                        for a in afters
                    }
                    # t itself sees what it spelled; nobody else does.
                    assert (len(views) == 1) == (s != t)
            state.apply_actions(random_joint(state, rng))
    assert compared


@pytest.mark.parametrize(
    "text",
    [
        "karnak_aton_simultaneous(seed=3)",
        "karnak_amunre_simultaneous(seed=3,offer_cards=true)",
        "karnak_egyptia_simultaneous(seed=3)",
    ],
)
def test_a_resampled_world_looks_the_same_to_its_seat(text: str) -> None:
    game = load(text)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    someone_else_differs = False
    rng = random.Random(4)
    state = game.new_initial_state()
    for steps in range(40):
        if state.is_terminal():
            break
        if steps % 6 == 3:
            for seat in range(game.num_players()):
                world = state.resample_from_infostate(seat, sampler)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
                assert world.observation_tensor(seat) == state.observation_tensor(seat)
                assert world.legal_actions(seat) == state.legal_actions(seat)
                someone_else_differs |= any(
                    world.information_state_string(p) != state.information_state_string(p)
                    for p in range(game.num_players())
                    if p != seat
                )
                world.apply_actions(random_joint(world, rng))  # a world plays on
                again = game.deserialize_state(world.serialize())
                assert str(again) == str(world)
        state.apply_actions(random_joint(state, rng))
    assert someone_else_differs


def test_the_turn_based_conversion_hides_a_seats_choice_from_the_next_seat() -> None:
    game = pyspiel.load_game_as_turn_based("karnak_amunre_simultaneous(seed=2,offer_cards=true)")
    state, rng = game.new_initial_state(), random.Random(2)
    checked = real_choices = 0
    while not state.is_terminal() and checked < 5:
        player = state.current_player()
        legal = state.legal_actions()
        nxt = player + 1
        if player == 0 and len(legal) > 1 and nxt < game.num_players():
            views = set()
            for action in legal[:4]:
                after = state.clone()
                after.apply_action(action)
                assert after.current_player() == nxt
                views.add((after.information_state_string(nxt), tuple(after.legal_actions())))
            assert len(views) == 1
            checked += 1
            real_choices += len(after.legal_actions()) > 1
        state.apply_action(rng.choice(legal))
    assert checked and real_choices


# ================================================================= explicit chance
@pytest.mark.skipif(not COMPILED, reason="this process runs the chance tests itself")
def test_the_pure_python_engine_passes_the_chance_tests() -> None:
    env = {**os.environ, "KARNAK_NATIVE": "0"}
    done = subprocess.run(
        [*PYTEST, "-k", "test_chance_", __file__],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout and "skipped" not in done.stdout.splitlines()[-1]


@pytest.mark.skipif(not COMPILED, reason="the compiled engine is not in use here")
def test_a_compiled_engine_refuses_the_chance_form_clearly() -> None:
    with pytest.raises(ChanceFormUnavailable, match="KARNAK_NATIVE=0"):
        load("karnak_egyptia_chance(players=1)")


@pure_only
def test_chance_forms_register_and_have_no_seed() -> None:
    names = openspiel_chance.register()
    assert names == [f"karnak_{name}_chance" for name in available_games()]
    for name in available_games():
        game = load(f"karnak_{name}_chance")
        assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert "seed" not in game.get_type().parameter_specification
        _, draws = recorded_deal(game.idgame, 0)
        assert game.max_chance_outcomes() == max(n for (n, _), _ in draws)
        assert game.new_initial_state().is_chance_node()  # the deal comes first
    with pytest.raises(Exception, match="seed"):
        load("karnak_aton_chance(seed=3)")


@pure_only
@pytest.mark.parametrize(
    "text, radix",
    [
        ("karnak_aton_chance", None),
        ("karnak_amunre_chance(players=3,offer_cards=true,rewards=score)", None),
        ("karnak_egyptia_chance(players=2)", None),
        ("karnak_egyptia_chance(players=1)", 5),  # dice of 6 to 20 sides: two nodes each
    ],
)
def test_chance_outcomes_sum_to_one_and_seeded_outcomes_play_the_seeds_game(
    text: str, radix: int | None
) -> None:
    """Choosing each draw as ``Rng(seed)`` would, and the same ids, plays exactly the
    sampled game of that seed; every chance node's probabilities sum to 1."""
    game = load(text)
    seed = 21
    state = game.new_initial_state()
    if radix is not None:
        state = type(state)(game, _ChanceWorld(game.key, radix).start())
    idgame = game.idgame
    reference = IdState(
        idgame, idgame.game.new_state(idgame.players, seed=seed, options=idgame.options)
    )
    sampler, rng = Rng(seed), random.Random(seed)
    nodes = two_node_draws = 0
    paid = [0.0] * game.num_players()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            assert [a for a, _ in outcomes] == state.legal_actions()
            assert all(0 <= a < game.max_chance_outcomes() for a, _ in outcomes)
            draw = state.pending_draw()
            assert draw is not None
            two_node_draws += draw[0] > state._world.radix
            nodes += 1
            state.draw_outcome(seeded_outcome(sampler, draw))
        else:
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            reference.apply_id(action)
            if not state.is_chance_node():
                assert without_generator(state.id_state().state) == without_generator(
                    reference.state
                )
        paid = [a + b for a, b in zip(paid, state.rewards(), strict=True)]
    assert reference.is_terminal()
    assert without_generator(state.id_state().state) == without_generator(reference.state)
    assert state.returns() == reference.standing()
    assert paid == pytest.approx(state.returns())  # the rewards add up to the returns
    assert nodes >= 30
    assert (two_node_draws > 0) == (radix is not None)


@pure_only
def test_chance_a_game_dealt_in_another_thread_meanwhile_keeps_its_own_generator() -> None:
    """The deal lends the engine's module a generator class; a state made in another thread
    while the deal is under way still gets its own seed's generator."""
    idgame = IdGame("aton")
    reference = idgame.new_state(5).state.to_json()
    started, finished = threading.Event(), threading.Event()
    made: list[Any] = []

    class Pausing(openspiel_chance.ScriptedRng):
        def _draw(self, n: int, kind: Any) -> int:
            if not started.is_set():
                started.set()
                assert finished.wait(30)
            return super()._draw(n, kind)

    def other() -> None:
        assert started.wait(30)
        made.append(idgame.new_state(5).state.to_json())
        finished.set()

    thread = threading.Thread(target=other)
    thread.start()
    dealt = openspiel_chance._deal(idgame, Pausing(source=Rng(5)))
    thread.join(30)
    assert made == [reference]
    assert without_generator(dealt) == without_generator(idgame.new_state(5).state)


@pure_only
def test_chance_a_two_node_draw_gives_each_outcome_its_own_probability() -> None:
    game = load("karnak_egyptia_chance(players=1,cards=A1;B1;C1;D1;E1)")
    state = type(game.new_initial_state())(game, _ChanceWorld(game.key, 3).start())
    assert state.pending_draw() == (4, "below")  # the first die: blocks of 3 and 1
    leaves: dict[int, float] = {}
    for block, p_block in state.chance_outcomes():
        inner = state.clone()
        inner.apply_action(block)
        assert inner.pending_draw() is None and inner.is_chance_node()
        again = game.deserialize_state(inner.serialize())  # half a draw replays too
        assert str(again) == str(inner)
        assert again.chance_outcomes() == inner.chance_outcomes()
        for k, p in inner.chance_outcomes():
            leaves[block * 3 + k] = p_block * p
    assert sorted(leaves) == [0, 1, 2, 3]
    assert all(abs(p - 0.25) < 1e-12 for p in leaves.values())


@pure_only
@pytest.mark.parametrize(
    "text", ["karnak_aton_chance", "karnak_egyptia_chance(players=1)", "karnak_amunre_chance"]
)
def test_chance_random_sim_test_with_serialisation(text: str) -> None:
    pyspiel.random_sim_test(load(text), num_sims=1, serialize=True, verbose=False)


@pure_only
@pytest.mark.parametrize(
    "text", ["karnak_aton_chance", "karnak_amunre_chance", "karnak_egyptia_chance(players=3)"]
)
def test_chance_no_seat_sees_an_outcome_before_its_transition_ends(text: str) -> None:
    """While a deal or a shuffle is being drawn, every seat's view stays that of the
    position before it; and a resampled world looks the same to its seat."""
    game = load(text)
    state, rng = game.new_initial_state(), random.Random(3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    players = range(game.num_players())
    frozen: list[Any] | None = None
    checked_draws = resampled = 0
    someone_else_differs = False
    while not state.is_terminal():
        if state.is_chance_node():
            views = [
                (state.information_state_string(p), tuple(state.information_state_tensor(p)))
                for p in players
            ]
            if frozen is None:
                frozen = views
            assert views == frozen
            checked_draws += 1
            state.apply_action(rng.choice(state.legal_actions()))
            continue
        frozen = None
        if rng.random() < 0.1 and resampled < 6:
            resampled += 1
            for seat in players:
                world = state.resample_from_infostate(seat, sampler)
                assert world.information_state_string(seat) == state.information_state_string(seat)
                assert world.information_state_tensor(seat) == state.information_state_tensor(seat)
                again = game.deserialize_state(world.serialize())  # a world serialises too
                assert str(again) == str(world)
                someone_else_differs |= any(
                    world.information_state_string(p) != state.information_state_string(p)
                    for p in players
                    if p != seat
                )
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked_draws > 40 and resampled
    assert someone_else_differs


@pure_only
def test_chance_expectiminimax_weighs_the_end_of_a_deal_exactly() -> None:
    """OpenSpiel's expectiminimax over the last four draws of Aton's deal (120 orders, then
    Red's lay-out): its value is the brute-force mean over every order of Red's best."""
    game = load("karnak_aton_chance")
    state = game.new_initial_state()
    while state.pending_draw() != (5, "shuffle") or len(state.history()) < 40:
        state.apply_action(0)

    def value(leaf: Any) -> float:  # any function of what Red sees will do
        return float(sum(i * x for i, x in enumerate(leaf.observation_tensor(0))))

    found, _ = minimax.expectiminimax(state, 1, value, 0)
    total, orders = 0.0, 0
    for outcomes in itertools.product(range(5), range(4), range(3), range(2)):
        leaf = state.clone()
        for outcome in outcomes:
            leaf.apply_action(outcome)
        assert leaf.current_player() == 0
        best = -float("inf")
        for action in leaf.legal_actions():
            child = leaf.clone()
            child.apply_action(action)
            best = max(best, value(child))
        total += best
        orders += 1
    assert orders == 120
    assert found == pytest.approx(total / orders)


@pure_only
def test_chance_outcome_sampling_mccfr_runs() -> None:
    game = load("karnak_egyptia_chance(players=2)")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)

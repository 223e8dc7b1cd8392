"""The example game in the research frameworks: PettingZoo's own conformance tests (AEC,
parallel, seeding) and OpenSpiel's random simulation test and ISMCTS, through the adapters
that every Karnak game gets for the integer ids and tensors it declares."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

from karnak.core.game import Game
from karnak.envs import IdGame, pettingzoo_env, pettingzoo_parallel_env
from support.example_game import NAME, Installed

pettingzoo_test = pytest.importorskip("pettingzoo.test")

#: PettingZoo warns about any Dict observation of an env it does not know by name.
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)

try:  # imported before the example game is installed (the fixture installs it per module)
    from karnak.envs import openspiel as OPENSPIEL_AT_IMPORT
except ImportError:
    OPENSPIEL_AT_IMPORT = None


@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoo_api_tests(goofspiel: Game, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(pettingzoo_env(NAME, players=players), num_cycles=200)
        pettingzoo_test.parallel_api_test(
            pettingzoo_parallel_env(NAME, players=players), num_cycles=200
        )
    assert [
        str(w.message) for w in caught if not str(w.message).startswith(EXPECTED_WARNINGS)
    ] == []
    pettingzoo_test.seed_test(lambda: pettingzoo_env(NAME, players=players), num_cycles=50)


def test_a_whole_game_in_ids_with_the_masks_honoured(goofspiel: Game) -> None:
    idgame = IdGame(NAME, 3, rewards="score", options={"prizes": 6})
    assert idgame.num_actions == 6 and idgame.max_game_length == 18
    state = idgame.new_state(seed=9)
    rng = np.random.default_rng(9)
    total = np.zeros(3)
    before = np.array(state.standing())
    while not state.is_terminal():
        seat = state.current_player()
        mask = state.mask(seat)
        assert mask.sum() == len(state.legal_ids(seat)) > 0
        vector = state.observation(seat)
        assert vector.shape == (idgame.observation_size,) and vector.dtype == np.float32
        state.apply_id(int(rng.choice(np.flatnonzero(mask))))
        now = np.array(state.standing())
        total += now - before
        before = now
    assert state.length == 18
    assert np.allclose(total, state.standing())
    scores = state.state.scores()
    assert np.allclose(state.standing(), [s - (sum(scores) - s) / 2 for s in scores])


def test_openspiel_random_simulation_and_search(example: Installed) -> None:
    """In a fresh interpreter, which finds the game through the entry point alone."""
    pytest.importorskip("pyspiel")
    code = textwrap.dedent(
        """
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
        from karnak.envs import register_openspiel

        assert "karnak_goofspiel" in register_openspiel()
        game = pyspiel.load_game("karnak_goofspiel(players=3,prizes=4,seed=5)")
        assert game.num_distinct_actions() == 4 and game.max_game_length() == 12
        pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)
        pyspiel.random_sim_test(
            pyspiel.load_game("karnak_goofspiel"), num_sims=2, serialize=False, verbose=False
        )
        two = pyspiel.load_game("karnak_goofspiel(seed=2)")
        evaluator = mcts.RandomRolloutEvaluator(1, None)
        bot = ismcts.ISMCTSBot(two, evaluator, 1.4, 40, random_state=None)
        state = two.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bot.step(state))
        print("returns", state.returns())
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=example.env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "returns" in done.stdout


def test_openspiel_registers_a_game_installed_after_its_import(example: Installed) -> None:
    """In this process, where karnak.envs.openspiel was imported (at this module's import)
    before the game arrived."""
    if OPENSPIEL_AT_IMPORT is None:
        pytest.skip("OpenSpiel is not installed")
    import pyspiel

    openspiel = OPENSPIEL_AT_IMPORT
    assert "karnak_goofspiel" in openspiel.register()
    game = pyspiel.load_game("karnak_goofspiel(prizes=3,seed=1)")
    assert game.num_distinct_actions() == 3
    assert game.get_type().short_name == "karnak_goofspiel"

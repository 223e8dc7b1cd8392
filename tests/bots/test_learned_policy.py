"""The learned policy Aton ships (karnak/games/aton/research/policy.npz) and the NumPy bot
that plays it (karnak.bots.learned): it loads without torch, fits the current observation,
plays legal moves only from its seat's view, repeats itself for a seed, and beats the random
bot. Training itself (karnak train, torch) is tested only where the train extra is
installed."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from karnak.bots.arena import play_game, run_arena, wilson_interval
from karnak.bots.base import SeatView, available_bots, make_bot
from karnak.bots.learned import (
    MlpPolicy,
    PolicyBot,
    PolicyMismatchError,
    load_policy,
    register_policy_bot,
    shipped_policy_path,
)
from karnak.core import get_game
from karnak.core.rng import Rng
from karnak.envs.idgame import IdGame

ATON = get_game("aton")
#: Measured over 200 games (seeds 500..699, seats rotated) with the shipped policy: see
#: docs/research.md, Baselines. The bar below is far under it, so only a policy that no
#: longer plays (a broken export, a shifted layout) fails it.
BEATS_RANDOM_GAMES = 40
BEATS_RANDOM_AT_LEAST = 0.85


@pytest.fixture(scope="module")
def shipped() -> MlpPolicy:
    path = shipped_policy_path(ATON)
    assert path is not None, "Aton ships no policy: karnak train aton --ship"
    return load_policy(path)


def test_the_policy_loads_with_numpy_alone_and_is_small(shipped: MlpPolicy) -> None:
    path = shipped_policy_path(ATON)
    assert path is not None and path.stat().st_size < 400_000
    assert shipped.meta["game"] == "aton" and shipped.meta["players"] == 2
    assert shipped.parameters < 100_000
    # No pickles: a file that needed one would not load with allow_pickle=False.
    with np.load(path, allow_pickle=False) as data:
        assert all(data[name].dtype != object for name in data.files)
    record = json.loads((path.parent / "policy.json").read_text(encoding="utf-8"))
    assert record["command"].startswith("karnak train aton")
    meta = {key: value for key, value in shipped.meta.items() if key != "activation"}
    assert record["policy"] == {**meta, "file": "policy.npz", "bytes": path.stat().st_size}
    assert record["timesteps"] >= shipped.meta["timesteps"] and record["seconds"] > 0


def test_the_policy_fits_the_current_aton_observation(shipped: MlpPolicy) -> None:
    idgame = IdGame("aton", observation=shipped.meta["observation"])
    assert (shipped.input_size, shipped.actions) == (
        idgame.observation_size,
        idgame.num_actions,
    ), (
        f"Aton's observation is now {idgame.observation_size} floats and the shipped policy "
        f"takes {shipped.input_size}: train it again with `karnak train aton --ship` "
        "(docs/research.md, Baselines)"
    )
    shipped.check(idgame)


def test_a_policy_for_another_layout_fails_loudly_naming_the_command(shipped: MlpPolicy) -> None:
    grown = dict(shipped.meta, input_size=shipped.input_size + 1)
    first = np.concatenate((shipped.weights[0], np.zeros((shipped.weights[0].shape[0], 1))), 1)
    stale = MlpPolicy([first, *shipped.weights[1:]], shipped.biases, grown)
    state = ATON.new_state(2, seed=3)
    seat = state.to_move()[0]
    with pytest.raises(PolicyMismatchError, match="karnak train aton"):
        PolicyBot(stale).choose(SeatView.of(state, seat), Rng(1))


def test_the_policy_is_a_bot_spec_for_aton_only() -> None:
    assert "policy" in available_bots(ATON)
    for name in ("amunre", "egyptia"):
        if shipped_policy_path(get_game(name)) is None:
            assert "policy" not in available_bots(get_game(name))


@pytest.mark.parametrize("sample", [False, True], ids=["argmax", "sampled"])
def test_whole_games_are_legal_and_repeat_for_a_seed(sample: bool, shipped: MlpPolicy) -> None:
    """Every move through the arena's checked apply (an illegal one raises), in both seats;
    the same seed plays the same game."""

    def game(seed: int) -> list[str]:
        state = ATON.new_state(2, seed=seed)
        bots = [PolicyBot(shipped, sample=sample), make_bot("random", ATON)]
        rngs = [Rng(seed), Rng(seed + 1)]
        while not state.is_over():
            seat = state.to_move()[0]
            view = SeatView.of(state, seat)
            action = bots[seat].choose(view, rngs[seat])
            assert action in view.legal_actions
            state.apply(seat, action)
        return [f"{seat}:{action.to_text()}" for seat, action in state.history]

    first = game(11)
    assert first == game(11) and len(first) > 30
    if sample:
        assert game(12) != first
    outcome = play_game(ATON, ("random", "policy"), 12, {})  # the other seat too
    assert outcome.decisions[1] > 10


def test_the_bot_chooses_what_the_environment_shows_it(shipped: MlpPolicy) -> None:
    """The bot's vector is the Gymnasium env's observation: at every step, the env's
    observation and mask give the policy's id, and the bot plays the move of that id."""
    gymnasium = pytest.importorskip("gymnasium")
    del gymnasium
    from karnak.envs import gymnasium_env

    env = gymnasium_env("aton", seat=1, opponents="random", observation=shipped.meta["observation"])
    obs, _ = env.reset(seed=21)
    bot = PolicyBot(shipped)
    steps = 0
    done = False
    while not done:
        legal = np.flatnonzero(obs["action_mask"])
        expected = int(legal[np.argmax(shipped.logits(obs["observation"])[legal])])
        state = env.id_state.state
        action = bot.choose(SeatView.of(state, 1), Rng(0))
        spelled = env.id_state.idgame.speller.spellings([action])[0]
        assert spelled == (expected,)
        obs, _, terminated, truncated, _ = env.step(expected)
        done = terminated or truncated
        steps += 1
    assert steps > 10


def test_the_choice_depends_on_nothing_hidden_from_the_seat(shipped: MlpPolicy) -> None:
    """Re-deal everything the seat cannot see (keeping its own view of the log): the bot
    chooses the same move in every such world."""
    state = ATON.new_state(2, seed=31)
    rng = Rng(7)
    bots = [make_bot("random", ATON), make_bot("random", ATON)]
    compared = 0
    while not state.is_over() and compared < 40:
        seat = state.to_move()[0]
        choice = PolicyBot(shipped).choose(SeatView.of(state, seat), Rng(0))
        for _ in range(2):
            world = state.resample(seat, rng, history=True)
            assert world.legal_actions(seat) == state.legal_actions(seat)
            assert PolicyBot(shipped).choose(SeatView.of(world, seat), Rng(0)) == choice
            compared += 1
        state.apply(seat, bots[seat].choose(SeatView.of(state, seat), rng))
    assert compared >= 40


def test_the_shipped_policy_beats_the_random_bot() -> None:
    result = run_arena(ATON, ["policy", "random"], BEATS_RANDOM_GAMES, 500, {})
    row = result.row("policy")
    low, _ = wilson_interval(row.wins, row.games)
    assert row.win_rate >= BEATS_RANDOM_AT_LEAST, (
        f"the shipped policy won {row.win_rate:.0%} of {row.games} games against random "
        f"(Wilson low {low:.0%})"
    )


def test_a_policy_file_round_trips_and_bad_files_are_refused(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    meta = {
        "game": "aton",
        "players": 2,
        "observation": "information_state",
        "input_size": 5,
        "actions": 3,
        "activation": "relu",
    }
    weights = [
        rng.normal(size=(4, 5)).astype(np.float32),
        rng.normal(size=(3, 4)).astype(np.float32),
    ]
    biases = [rng.normal(size=4).astype(np.float32), rng.normal(size=3).astype(np.float32)]
    policy = MlpPolicy(weights, biases, meta)
    x = rng.normal(size=5).astype(np.float32)
    expected = weights[1] @ np.maximum(weights[0] @ x + biases[0], 0) + biases[1]
    np.testing.assert_allclose(policy.logits(x), expected, rtol=1e-6)
    p = policy.probabilities(x, [0, 2])
    assert p.shape == (2,) and abs(float(p.sum()) - 1) < 1e-6
    assert (p[0] > p[1]) == (expected[0] > expected[2])
    policy.save(tmp_path / "p.npz")
    again = load_policy(tmp_path / "p.npz")
    np.testing.assert_array_equal(again.logits(x), policy.logits(x))
    assert again.meta == meta
    with pytest.raises(ValueError, match="chain"):
        MlpPolicy([weights[1], weights[0]], [biases[1], biases[0]], meta)
    with pytest.raises(ValueError, match="lacks"):
        MlpPolicy(weights, biases, {"game": "aton"})
    with pytest.raises(PolicyMismatchError):
        policy.logits(np.zeros(6, dtype=np.float32))


@pytest.fixture
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bots registered by the test are forgotten after it (other tests list the bots)."""
    from karnak.bots import base

    base._load_builtin_bots()
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))


@pytest.mark.usefixtures("own_registry")
def test_a_registered_policy_file_is_read_again_when_it_changes(
    shipped: MlpPolicy, tmp_path: Path
) -> None:
    """A training run re-exports its file between evaluations: a bot made after that plays
    the new weights, not the ones read first."""
    path = tmp_path / "p.npz"
    shipped.save(path)
    register_policy_bot("test-policy", path)
    first = make_bot("test-policy", ATON)
    assert isinstance(first, PolicyBot) and first.policy.meta == shipped.meta
    changed = MlpPolicy(
        shipped.weights, [b + 1.0 for b in shipped.biases], dict(shipped.meta, seed=-1)
    )
    changed.save(path)
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 1_000_000))
    again = make_bot("test-policy", ATON)
    assert isinstance(again, PolicyBot) and again.policy.meta["seed"] == -1


def test_training_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    from karnak.cli.main import app
    from karnak.envs.training import TrainExtraMissingError, require_train_extra

    monkeypatch.setitem(sys.modules, "sb3_contrib", None)  # an import of it fails
    with pytest.raises(TrainExtraMissingError, match=r"pip install 'karnak\[train\]'"):
        require_train_extra()
    result = CliRunner().invoke(app, ["train", "aton", "--timesteps", "10"])
    assert result.exit_code != 0
    assert "karnak[train]" in result.output and "sb3_contrib" in result.output


@pytest.mark.usefixtures("own_registry")
def test_a_tiny_training_run_exports_what_torch_computes(tmp_path: Path) -> None:
    """Where the train extra is installed: a few hundred steps, exported, and the NumPy
    policy's logits equal torch's for the same observations."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("sb3_contrib")
    from karnak.envs.training import TrainConfig, train

    config = TrainConfig(
        game="aton",
        timesteps=128,
        n_steps=64,
        batch_size=32,
        hidden=(16, 8),
        eval_every=64,
        eval_games=2,
        eval_opponents=("random",),
        command="test",
    )
    record = train(config, tmp_path, log=lambda line: None)
    assert record["timesteps"] == 128 and record["policy"]["input_size"] == 444
    policy = load_policy(tmp_path / "policy.npz")
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    env = IdGame("aton")
    state = env.new_state(seed=4)
    x = state.observation(state.current_player())
    with torch.no_grad():
        features = model.policy.extract_features(
            torch.as_tensor(x[None]), model.policy.pi_features_extractor
        )
        latent = model.policy.mlp_extractor.forward_actor(features)
        logits = model.policy.action_net(latent).numpy()[0]
    np.testing.assert_allclose(policy.logits(x), logits, rtol=1e-4, atol=1e-5)
    rows = list((tmp_path / "curve.csv").read_text().splitlines())
    assert rows[0].startswith("timesteps,") and len(rows) == 1 + 3  # evaluations at 0, 64, 128

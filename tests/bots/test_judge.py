"""The learned judge (issue 35): its file, its evaluator and fallback, its training, its CLI,
and the ``judged`` bot that searches with it."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from karnak.bots import Budget, SeatView, make_bot, play_out
from karnak.bots import judge as judge_module
from karnak.bots.ismcts import game_knowledge
from karnak.bots.judge import (
    JudgeEvaluator,
    JudgeMismatchError,
    ValueModel,
    load_judge,
    make_judged,
    shipped_judge,
)
from karnak.bots.judge_training import JudgeConfig, generate, train_judge
from karnak.cli.main import app
from karnak.core import Rng, get_game
from support.hidden_choices import choices_over_truths

ATON = get_game("aton")


@pytest.fixture(scope="module")
def tiny() -> tuple[ValueModel, dict[str, object]]:
    config = JudgeConfig(game="aton", players=2, games=30, epochs=4, hidden=(16,), seed=3)
    return train_judge(ATON, config)


def test_training_learns_and_the_file_reads_back(
    tiny: tuple[ValueModel, dict[str, object]], tmp_path: Path
) -> None:
    model, record = tiny
    losses = record["training_cross_entropy"]
    assert isinstance(losses, list) and losses[-1] < losses[0]  # it learnt something
    mse = record["held_out_mse"]
    assert isinstance(mse, dict) and set(mse) == {"judge", "hand_evaluator", "constant_mean"}
    path = tmp_path / "judge_2.npz"
    model.save(path)
    again = load_judge(path)
    rows = np.random.default_rng(0).random((5, model.input_size), dtype=np.float32)
    assert np.array_equal(model.predict(rows), again.predict(rows))
    assert again.meta["game"] == "aton" and again.players == 2
    values = again.predict(rows)
    assert values.shape == (5,) and ((values >= 0) & (values <= 1)).all()


def test_training_is_seeded() -> None:
    config = JudgeConfig(game="aton", players=2, games=6, epochs=1, hidden=(8,), seed=9)
    first, _ = train_judge(ATON, config)
    second, _ = train_judge(ATON, config)
    for a, b in zip(first.weights, second.weights, strict=True):
        assert np.array_equal(a, b)


def test_the_data_labels_each_seat_with_its_final_reward() -> None:
    config = JudgeConfig(game="aton", players=2, games=4, keep=1.0, seed=1)
    data = generate(ATON, config)
    assert len(data.tensors) == len(data.labels) == len(data.hand) > 0
    # the two seats of one position: rank rewards of a two-player game add up to one
    by_position: dict[int, list[float]] = {}
    for at, label in zip(data.position_of, data.labels, strict=True):
        by_position.setdefault(at, []).append(label)
    assert all(len(v) == 2 and abs(sum(v) - 1.0) < 1e-9 for v in by_position.values())


def test_bad_files_and_shapes_are_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "judge_2.npz"
    garbage.write_bytes(b"not an npz")
    with pytest.raises(JudgeMismatchError, match="cannot read a judge"):
        load_judge(garbage)
    garbage.write_bytes(b"PK\x03\x04 a truncated zip")
    with pytest.raises(JudgeMismatchError, match="cannot read a judge"):
        load_judge(garbage)
    with pytest.raises(JudgeMismatchError, match="cannot read a judge"):
        load_judge(tmp_path / "missing.npz")
    meta = {"game": "aton", "players": 2, "input_size": 3}
    with pytest.raises(JudgeMismatchError, match="do not chain"):
        ValueModel([np.zeros((4, 5))], [np.zeros(4)], meta)
    with pytest.raises(JudgeMismatchError, match="one value"):
        ValueModel([np.zeros((4, 3))], [np.zeros(4)], meta)
    with pytest.raises(JudgeMismatchError, match="lacks"):
        ValueModel([np.zeros((1, 3))], [np.zeros(1)], {"game": "aton"})
    model = ValueModel([np.zeros((1, 3))], [np.zeros(1)], meta)
    with pytest.raises(JudgeMismatchError, match="rows of 3"):
        model.predict(np.zeros((2, 4)))


def test_a_judge_that_does_not_fit_the_table_leaves_the_judging_to_the_hand_evaluator(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    wrong = ValueModel(
        [np.zeros((1, 3))], [np.zeros(1)], {"game": "aton", "players": 2, "input_size": 3}
    )
    monkeypatch.setattr(judge_module, "shipped_judge", lambda game, players: wrong)
    hand = game_knowledge(ATON).evaluator
    evaluator = JudgeEvaluator(ATON, hand)
    state = ATON.new_state(2, seed=4)
    with caplog.at_level(logging.WARNING, logger="karnak.bots.judge"):
        assert list(evaluator(state)) == list(hand(state))  # type: ignore[misc]
    assert not evaluator.uses_judge(state)
    assert "karnak train aton --judge" in caplog.text


def test_the_evaluator_judges_every_seat_from_its_own_tensor(
    tiny: tuple[ValueModel, dict[str, object]], monkeypatch: pytest.MonkeyPatch
) -> None:
    model, _ = tiny
    monkeypatch.setattr(judge_module, "shipped_judge", lambda game, players: model)
    evaluator = JudgeEvaluator(ATON, None)
    state = ATON.new_state(2, seed=5)
    values = evaluator(state)
    assert evaluator.uses_judge(state)
    rows = np.stack([state.information_state_tensor(s) for s in (0, 1)])
    assert values == pytest.approx([float(v) for v in model.predict(rows)])


def test_the_judged_bot_plays_whole_games_in_every_game() -> None:
    for name, players in (("aton", 2), ("amunre", 3), ("egyptia", 2), ("egyptia", 1)):
        game = get_game(name)
        bots = [make_bot("judged:6", game) for _ in range(players)]
        assert bots[0].label() == "judged:6 iterations"
        state = game.new_state(players, seed=2)
        play_out(state, bots, [Rng(s) for s in range(players)])
        assert state.is_over()


def test_the_judged_bot_is_deterministic_with_an_iteration_budget() -> None:
    state = ATON.new_state(2, seed=8)
    seat = state.to_move()[0]
    moves = {
        make_judged(ATON, Budget(iterations=40)).choose(SeatView.of(state, seat), Rng(1))
        for _ in range(2)
    }
    assert len(moves) == 1


def test_aton_ships_a_judge_that_fits_its_table() -> None:
    model = shipped_judge(ATON, 2)
    assert model is not None
    assert model.input_size == len(ATON.new_state(2, seed=0).information_state_tensor(0))
    record = json.loads((Path(judge_module.judge_path(ATON, 2)).with_suffix(".json")).read_text())
    assert record["command"].startswith("karnak train aton --judge")
    assert model.parameters < 250_000  # small: at most a few MB in the package


def test_the_cli_refuses_bad_judge_options_clearly(tmp_path: Path) -> None:
    runner = CliRunner()
    for args, words in (
        (["--games", "1"], "games"),
        (["--players", "7"], "2 to 2"),
        (["--hidden", "x"], "cannot train a judge"),
    ):
        result = runner.invoke(app, ["train", "aton", "--judge", *args, "--out", str(tmp_path)])
        assert result.exit_code != 0
        assert words in result.output and "Traceback" not in result.output


def test_the_cli_trains_and_writes_a_judge(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "train",
            "aton",
            "--judge",
            "--games",
            "6",
            "--epochs",
            "1",
            "--hidden",
            "8",
            "--out",
            str(tmp_path),
        ],
    )
    assert result.exit_code == 0, result.output
    assert load_judge(tmp_path / "judge_2.npz").players == 2
    record = json.loads((tmp_path / "judge_2.json").read_text())
    assert record["config"]["games"] == 6 and "held_out_mse" in record


@pytest.mark.parametrize(
    ("name", "players", "steps"), [("aton", 2, 0), ("aton", 2, 9), ("amunre", 3, 5)]
)
def test_the_judged_choice_does_not_depend_on_hidden_information(
    name: str, players: int, steps: int
) -> None:
    """The judge reads tensors of sampled worlds only; its mixed sealed choice is drawn from
    the bot's own generator: another truth with the same information, the same move."""
    game = get_game(name)
    state = game.new_state(players, seed=12)
    rng = Rng(12)
    for _ in range(steps):
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seat = state.to_move()[0]
    choices = choices_over_truths(
        state, seat, lambda: make_judged(game, Budget(iterations=40)), 3, 900, 3
    )
    assert len(choices) == 1

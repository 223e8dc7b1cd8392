"""The example game at the command line: ``karnak play`` draws it with the plain renderer
(its observation as data), ``karnak replay`` checks its record, and ``karnak games`` and
``karnak simulate`` find it in a fresh interpreter through its entry point alone."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.core import GameRecord, replay
from karnak.core.game import Game
from support.example_game import NAME, Installed

KARNAK = str(Path(sys.executable).parent / "karnak")


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner(env={"COLUMNS": "120"})


def saved_path(output: str) -> Path:
    match = re.search(r"saved in (\S+?\.json)", output)
    assert match, output[-2000:]
    return Path(match.group(1))


def test_karnak_play_draws_it_with_the_plain_renderer(runner: CliRunner, goofspiel: Game) -> None:
    answers = "\n".join(["xyz", "bid 9", *["1"] * 10]) + "\n"
    result = runner.invoke(app, ["play", NAME, "--opponents", "random", "--seed", "3"], answers)
    out = result.output
    assert result.exit_code == 0, out[-3000:]
    assert "Traceback" not in out
    # the plain renderer: the seat's observation as data, its own sealed bid included
    assert "'prizes_to_come'" in out and "'you': {'bid': None}" in out
    assert "Your moves:" in out and "bid 1" in out
    assert "cannot read 'xyz'" in out and "holds no 9" in out
    assert "The final position:" in out and "The game is over:" in out
    record = GameRecord.load(saved_path(out))
    assert record.game == NAME and len(record.actions) == 10
    assert replay(record).is_over()


def test_karnak_replay_checks_its_record(
    runner: CliRunner, goofspiel: Game, tmp_path: Path
) -> None:
    state = goofspiel.new_state(3, seed=8)
    while not state.is_over():
        seat = state.to_move()[-1]
        state.apply(seat, state.legal_actions(seat)[0])
    path = tmp_path / "game.json"
    state.record().save(path)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    assert "Bids revealed" in result.output and "The game is over" in result.output
    seen = runner.invoke(app, ["replay", str(path), "--seat", "1"])
    assert seen.exit_code == 0 and "Black bids" not in seen.output and "Blue bids" in seen.output


def test_a_fresh_interpreter_finds_it_through_the_entry_point(example: Installed) -> None:
    listed = subprocess.run(
        [KARNAK, "games"], env=example.env(), capture_output=True, text=True, timeout=120
    )
    assert listed.returncode == 0, listed.stderr
    assert "goofspiel" in listed.stdout.lower()
    simulated = subprocess.run(
        [KARNAK, "simulate", NAME, "--games", "6", "--bots", "random,ismcts:20", "--json"],
        env=example.env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert simulated.returncode == 0, simulated.stderr
    games = [json.loads(line) for line in simulated.stdout.splitlines()]
    assert len(games) == 6
    assert [game["seed"] for game in games] == list(range(6))
    assert all(sum(game["scores"]) <= 15 and game["actions"] == 10 for game in games)
    # without the entry point the game is unknown, and the command says which games exist
    bare = subprocess.run(
        [KARNAK, "simulate", NAME, "--games", "1"],
        env=example.env_without(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bare.returncode != 0 and "unknown game 'goofspiel'" in bare.stderr + bare.stdout

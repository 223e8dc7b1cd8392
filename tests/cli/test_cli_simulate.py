"""``karnak simulate``: summary table, JSON lines, records, and refusals of bad arguments."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.core import GameRecord, replay
from karnak.games.amunre.rules.board import default_board_text

runner = CliRunner(env={"COLUMNS": "150"})


def test_summary_table() -> None:
    result = runner.invoke(app, ["simulate", "amunre", "--players", "4", "--games", "4"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for part in ("4 game(s), 4 players", "Mean score", "Min", "Max", "Wins", "games/s"):
        assert part in out
    for name in ("Red", "Blue", "Black", "White"):
        assert name in out
    assert "actions per game" in out


def test_json_lines_only_and_deterministic() -> None:
    args = ["simulate", "amunre", "-p", "3", "-n", "3", "--seed", "10", "--json"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert len(lines) == 3
    games = [json.loads(line) for line in lines]
    assert [g["seed"] for g in games] == [10, 11, 12]
    for g in games:
        assert len(g["scores"]) == 3
        assert all(isinstance(s, int) for s in g["scores"])
        assert g["winners"] and set(g["winners"]) <= {0, 1, 2}
        best = max(g["scores"])
        assert all(g["scores"][w] == best for w in g["winners"])
        assert g["actions"] > 0
    assert runner.invoke(app, args).stdout == first.stdout


def test_records_are_written_and_replay(tmp_path: Path) -> None:
    directory = tmp_path / "runs" / "a"
    result = runner.invoke(
        app,
        ["simulate", "amunre", "-p", "5", "-n", "2", "--seed", "7", "--record", str(directory)],
    )
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in directory.iterdir())
    assert files == ["amunre-7.json", "amunre-8.json"]
    record = GameRecord.load(directory / "amunre-7.json")
    assert record.result is not None
    assert set(record.result) >= {"scores", "winners"}
    state = replay(record)
    assert state.scores() == record.result["scores"]
    assert state.winners() == record.result["winners"]


def test_json_matches_records(tmp_path: Path) -> None:
    result = runner.invoke(
        app,
        ["simulate", "amunre", "-n", "2", "--seed", "3", "--json", "--record", str(tmp_path)],
    )
    for line in result.stdout.splitlines():
        game = json.loads(line)
        record = GameRecord.load(tmp_path / f"amunre-{game['seed']}.json")
        assert record.result is not None
        assert record.result["scores"] == game["scores"]
        assert len(record.actions) == game["actions"]


def test_options_and_bot_list() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "amunre",
            "-p",
            "3",
            "-n",
            "2",
            "--bots",
            "random,random,random",
            "--edition",
            "2016",
            "--expert-provinces",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert len(result.stdout.splitlines()) == 2


def test_corrected_board(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text(default_board_text())
    result = runner.invoke(app, ["simulate", "amunre", "-n", "1", "--board", str(board)])
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "6"], "3 to 5 players, not 6"),
        (["--games", "0"], "--games must be at least 1"),
        (["--bots", "random,random"], "--bots needs one bot name or 4"),
        (["--bots", "oracle"], "unknown bot 'oracle'"),
        (["--edition", "1999"], "allowed values: 2003, 2016"),
        (["--board", "nowhere.toml"], "cannot read the board file"),
    ],
)
def test_bad_arguments(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", "amunre", "-n", "1", *args])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_game() -> None:
    result = runner.invoke(app, ["simulate", "go"])
    assert result.exit_code == 2
    assert "unknown game 'go'; Karnak has: amunre" in result.output

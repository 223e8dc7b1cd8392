"""``karnak replay``: a valid record verifies; a tampered or unreadable one is refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.bots import make_bot
from karnak.bots.base import play_out
from karnak.cli.main import app
from karnak.core import Rng, get_game
from karnak.games.amunre.rules.board import default_board_text

runner = CliRunner(env={"COLUMNS": "150"})


@pytest.fixture()
def record_file(tmp_path: Path) -> Path:
    state = get_game("amunre").new_state(4, seed=21)
    play_out(state, [make_bot("random", state.game)] * 4, [Rng(s) for s in range(4)])
    record = state.record()
    record.result = {"scores": state.scores(), "winners": state.winners()}
    path = tmp_path / "game.json"
    record.save(path)
    return path


def edit(path: Path, change: object) -> Path:
    data = json.loads(path.read_text())
    change(data)  # type: ignore[operator]
    out = path.with_name("edited.json")
    out.write_text(json.dumps(data))
    return out


def test_valid_record(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file)])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Log (everything)" in out
    assert "A game of Amun-Re for 4 players" in out
    assert "replayed and verified; the recorded result matches" in " ".join(out.split())
    assert "Final scoring" in out
    # the omniscient log shows everyone's secrets
    assert "secretly offers" in out


def test_seat_view_hides_other_seats_secrets(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file), "--seat", "1"])
    assert result.exit_code == 0, result.output
    assert "Log as Blue saw it" in result.output
    secrets = [line for line in result.output.splitlines() if "secretly offers" in line]
    assert secrets and all(line.startswith("Blue ") for line in secrets)
    draws = [line for line in result.output.splitlines() if " draws " in line]
    assert all(line.startswith("Blue ") for line in draws)


def test_quiet(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file), "--quiet"])
    assert result.exit_code == 0
    assert "Log" not in result.output
    assert "Final scoring" in result.output


def test_unfinished_record(record_file: Path) -> None:
    short = edit(
        record_file, lambda d: (d.pop("result"), d.__setitem__("actions", d["actions"][:30]))
    )
    result = runner.invoke(app, ["replay", str(short), "-q"])
    assert result.exit_code == 0, result.output
    assert "stops before the end" in result.output
    assert "Scores so far" in result.output


def test_illegal_action_is_named(record_file: Path) -> None:
    def tamper(data: dict[str, list[list[object]]]) -> None:
        data["actions"][12][1] = "bid THEBES 36"

    bad = edit(record_file, tamper)
    result = runner.invoke(app, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "action 12 (" in result.output
    assert "'bid THEBES 36'" in result.output
    assert "Traceback" not in result.output


def test_unreadable_action_is_named(record_file: Path) -> None:
    def tamper(data: dict[str, list[list[object]]]) -> None:
        data["actions"][3][1] = "dance wildly"

    result = runner.invoke(app, ["replay", str(edit(record_file, tamper))])
    assert result.exit_code == 1
    assert "action 3 (" in result.output
    assert "cannot be read" in result.output


def test_wrong_seat_is_named(record_file: Path) -> None:
    def tamper(data: dict[str, list[list[int]]]) -> None:
        seat = data["actions"][0][0]
        data["actions"][0][0] = (seat + 1) % 4

    result = runner.invoke(app, ["replay", str(edit(record_file, tamper))])
    assert result.exit_code == 1
    assert "action 0 (" in result.output


def test_false_result_is_caught(record_file: Path) -> None:
    bad = edit(record_file, lambda d: d["result"].__setitem__("scores", [99, 0, 0, 0]))
    result = runner.invoke(app, ["replay", str(bad), "-q"])
    assert result.exit_code == 1
    assert "claims scores [99, 0, 0, 0]" in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{ not json", "is not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"game": "amunre"}', "the record lacks"),
        (
            '{"game": "senet", "version": "1", "seed": 0, "seats": ["a"], "actions": []}',
            "unknown game 'senet'",
        ),
    ],
)
def test_bad_files(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content)
    result = runner.invoke(app, ["replay", str(path)])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_bad_seat(record_file: Path) -> None:
    result = runner.invoke(app, ["replay", str(record_file), "--seat", "9"])
    assert result.exit_code == 2
    assert "--seat must be between 0 and 3" in result.output


def test_record_played_on_a_corrected_board(tmp_path: Path) -> None:
    board = tmp_path / "board.toml"
    board.write_text(default_board_text().replace("start_gold = 20", "start_gold = 30"))
    runs = tmp_path / "runs"
    args = ["simulate", "amunre", "-n", "1", "--seed", "5", "--board", str(board)]
    made = runner.invoke(app, [*args, "--record", str(runs)])
    assert made.exit_code == 0, made.output
    board.unlink()
    result = runner.invoke(app, ["replay", str(runs / "amunre-5.json"), "-q"])
    assert result.exit_code == 0, result.output
    assert "the recorded result matches" in result.output

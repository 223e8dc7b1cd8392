"""``karnak play --opponents`` takes a level name (easy ... expert) for the bot it stands for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.cli.main import app


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["play", "aton", "--opponents", "expert"], {"1": "ismcts:1s"}),
        (["play", "aton", "--opponents", "Easy"], {"1": "random"}),
        (
            ["play", "amunre", "--players", "3", "--opponents", "medium,hard"],
            {"1": "heuristic", "2": "ismcts:0.25s"},
        ),
    ],
)
def test_a_level_plays_as_its_bot(
    args: list[str], expected: dict[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner(env={"COLUMNS": "150"}).invoke(
        app, [*args, "--seed", "3", "--save", "g.json"], "quit\n"
    )
    assert result.exit_code == 0, result.output[-2000:]
    saved = json.loads(Path("g.json").read_text())
    assert saved["karnak_cli"]["opponents"] == expected


def test_the_help_names_the_levels() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["play", "--help"])
    assert "easy, medium, hard, expert" in " ".join(result.output.split())

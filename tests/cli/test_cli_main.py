"""The ``karnak`` entry point: help, version and the list of games."""

from __future__ import annotations

from typer.testing import CliRunner

from karnak import __version__
from karnak.cli.main import app

runner = CliRunner(env={"COLUMNS": "150"})


def test_help_lists_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("play", "simulate", "replay", "board", "games", "arena"):
        assert command in result.output


def test_no_arguments_shows_help() -> None:
    result = runner.invoke(app, [])
    assert "play" in result.output and "simulate" in result.output


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert __version__ in result.output


def test_games() -> None:
    result = runner.invoke(app, ["games"])
    assert result.exit_code == 0
    out = result.output
    assert "amunre" in out and "Amun-Re" in out and "3-5" in out
    assert "edition" in out and "expert_provinces" in out and "offer_cards" in out


def test_unknown_command() -> None:
    result = runner.invoke(app, ["dance"])
    assert result.exit_code != 0

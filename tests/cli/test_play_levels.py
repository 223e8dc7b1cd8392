"""``karnak play --opponents`` takes a level name (easy ... expert) for the bot it stands for."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.bots.base import game_style
from karnak.cli.main import app
from karnak.cli.play import _make_bots
from karnak.core.knowledge import seat_style
from karnak.core.registry import get_game


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


def test_each_bot_plays_its_seats_style_as_a_servers_bots_do() -> None:
    """Two bots of one level at a terminal table play differently, as at the server: each
    has its seat's style for the game (from the seed); a spec's own ``@style=N`` wins."""
    game = get_game("egyptia")
    bots = _make_bots({1: "heuristic", 2: "heuristic", 3: "heuristic@style=5"}, game, 7)
    styles = {seat: getattr(bot, "style", None) for seat, bot in bots.items()}
    assert styles[1] == game_style(game, seat_style(7, 1))
    assert styles[2] == game_style(game, seat_style(7, 2))
    assert styles[1] != styles[2]
    assert styles[3] == game_style(game, 5)
    # the same seed gives the same characters again (a resumed game's bots are the same)
    again = _make_bots({1: "heuristic", 2: "heuristic"}, game, 7)
    assert [getattr(bot, "style", None) for bot in again.values()] == [styles[1], styles[2]]


def test_the_arena_plays_styled_bots_when_asked(tmp_path: Path) -> None:
    """``karnak arena --styled`` gives each bot its seat's style; the same games without it
    are the plain weights, and the two runs differ in play."""
    runner = CliRunner(env={"COLUMNS": "150"})
    base = ["arena", "egyptia", "--bots", "heuristic,heuristic", "-n", "4", "--json"]
    plain = runner.invoke(app, base)
    styled = runner.invoke(app, [*base, "--styled"])
    assert plain.exit_code == 0 and styled.exit_code == 0, styled.output[-2000:]
    assert json.loads(plain.output) != json.loads(styled.output)

"""``karnak arena``: the table, the JSON object, progress on stderr, and refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from karnak.bots.arena import ArenaGameError
from karnak.cli import arena_cmd
from karnak.cli.main import app

runner = CliRunner(env={"COLUMNS": "200"})

ARENA = ["arena", "amunre"]


def test_table() -> None:
    result = runner.invoke(
        app, [*ARENA, "--bots", "random,random,random", "-n", "3", "--seed", "1"]
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Amun-Re arena: 3 game(s), 3 players, seeds 1-3" in out
    for column in ("Bot", "Games", "Per seat", "Wins", "Win % (95% CI)", "Mean score", "Rating"):
        assert column in out
    assert "random" in out and "3/3/3" in out
    assert "every bot sat in every seat equally often" in out


def test_unbalanced_seats_are_pointed_out() -> None:
    result = runner.invoke(app, [*ARENA, "--bots", "random,random,random", "-n", "4"])
    assert result.exit_code == 0, result.output
    assert "4 is not a multiple of 3" in result.stdout
    assert "4/4/4" in result.stdout  # 12 seat-games; per seat is still even for one row


def test_json_is_one_object_and_nothing_else() -> None:
    args = [*ARENA, "--bots", "random,Random,random,random", "-n", "4", "--seed", "5", "--json"]
    args += ["--edition", "2016", "--offer-cards", "--jobs", "2"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "amunre"
    assert data["players"] == 4
    assert data["games"] == 4 and data["seeds"] == [5, 8]
    assert data["options"]["edition"] == "2016" and data["options"]["offer_cards"] is True
    assert data["balanced"] is True
    (row,) = data["bots"]
    assert row["bot"] == "random" and row["entries"] == [0, 1, 2, 3]
    assert row["games"] == 16 and row["seat_games"] == [4, 4, 4, 4]
    assert row["wins"] == pytest.approx(4)
    low, high = row["win_interval"]
    assert 0 <= low <= row["win_rate"] <= high <= 1
    assert set(row["rating"]) == {"mu", "sigma", "ordinal"}


def test_forced_progress_goes_to_stderr_only() -> None:
    args = [*ARENA, "--bots", "random,random,random", "-n", "3", "--json", "--progress"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["games"] == 3
    quiet = runner.invoke(app, [*args[:-1], "--no-progress"])
    assert quiet.stderr == ""


def test_help_lists_arena() -> None:
    result = runner.invoke(app, ["--help"])
    assert "arena" in result.output


@pytest.mark.parametrize(
    ("bots", "message"),
    [
        ("random,genius,random", "unknown bot 'genius'"),
        ("random:2s,random,random", "the random bot takes no budget"),
        ("ismcts:soon,random,random", "cannot read the budget 'soon'"),
    ],
)
def test_bad_bot_names_list_the_bots(bots: str, message: str) -> None:
    result = runner.invoke(app, [*ARENA, "--bots", bots, "-n", "3"])
    assert result.exit_code == 2
    assert message in result.output
    listed = result.output.split(message, 1)[1]
    assert "random" in listed and "ismcts" in listed
    assert len(result.output.strip().splitlines()) == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "random,random"], "Amun-Re is for 3 to 5 players, and 2 bot(s) were given"),
        (["--bots", ",".join(["random"] * 6)], "and 6 bot(s) were given"),
        (["--bots", "random"], "and 1 bot(s) were given"),
        (["--bots", "random,random,random", "-n", "0"], "--games must be at least 1"),
        (["--bots", "random,random,random", "--jobs", "-1"], "--jobs must be 0"),
        (["--bots", "random,random,random", "--edition", "1999"], "allowed values: 2003, 2016"),
    ],
)
def test_bad_arguments(args: list[str], message: str) -> None:
    result = runner.invoke(app, [*ARENA, *args])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_unknown_game() -> None:
    result = runner.invoke(app, ["arena", "senet", "--bots", "random,random,random"])
    assert result.exit_code == 2
    assert "unknown game 'senet'" in result.output


def test_a_failing_game_is_reported_with_its_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise ArenaGameError(
            "the game with seed 17 failed, seats random, random, random: ValueError: bad",
            seed=17,
            seats=("random", "random", "random"),
        )

    monkeypatch.setattr(arena_cmd, "run_arena", broken)
    args = [*ARENA, "--bots", "random,random,random", "--edition", "2016", "--expert-provinces"]
    result = runner.invoke(app, args)
    assert result.exit_code == 1
    assert "seed 17" in result.output
    hint = "karnak simulate amunre -p 3 --seed 17 -n 1 --bots random,random,random"
    assert hint + " --edition 2016 --expert-provinces" in result.output
    assert "Traceback" not in result.output

"""The command line in a person's words: yes-or-no flags are flags that also take a yes or
no after them (``--offer-cards true``), a name too long is refused as a person would say it,
and every game's screens at 80 columns break lines between words only (no word cut in two,
no header cut short) whatever the renderer draws."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from karnak.cli.common import flag_words
from karnak.cli.main import app
from karnak.core.registry import available_games

FLAGS = [type("Flag", (), {"is_flag": True, "secondary_opts": [], "opts": ["--offer-cards"]})()]


def test_a_flag_takes_a_yes_or_no_word_after_it() -> None:
    assert flag_words(FLAGS, ["amunre", "--offer-cards", "true"]) == ["amunre", "--offer-cards"]
    assert flag_words(FLAGS, ["--offer-cards", "YES", "amunre"]) == ["--offer-cards", "amunre"]
    assert flag_words(FLAGS, ["--offer-cards", "no", "amunre"]) == ["amunre"]
    assert flag_words(FLAGS, ["--offer-cards=1", "amunre"]) == ["--offer-cards", "amunre"]
    assert flag_words(FLAGS, ["--offer-cards=off"]) == []
    assert flag_words(FLAGS, ["--offer-cards", "amunre"]) == ["--offer-cards", "amunre"]
    assert flag_words(FLAGS, ["--offer-cards"]) == ["--offer-cards"]
    # after "--" everything is literal
    assert flag_words(FLAGS, ["--", "--offer-cards", "no"]) == ["--", "--offer-cards", "no"]
    with pytest.raises(typer.BadParameter, match="give it alone"):
        flag_words(FLAGS, ["--offer-cards=maybe"])


def play(args: list[str], tmp_path: Path, answers: str = "quit\n") -> tuple[int, str]:
    runner = CliRunner(env={"COLUMNS": "120", "KARNAK_LANG": ""})
    result = runner.invoke(app, ["play", *args, "--save", str(tmp_path / "g.json")], answers)
    return result.exit_code, result.output


@pytest.mark.parametrize("word", ["true", "yes", "1"])
def test_expert_provinces_true_plays_the_expert_rules(tmp_path: Path, word: str) -> None:
    code, out = play(["amunre", "--seed", "1", "--expert-provinces", word], tmp_path)
    assert code == 0, out
    assert "Red is dealt " in out  # the expert rules deal province cards


@pytest.mark.parametrize("word", ["false", "no", "0"])
def test_a_no_leaves_the_flag_off(tmp_path: Path, word: str) -> None:
    code, out = play(["--expert-provinces", word, "amunre", "--seed", "1"], tmp_path)
    assert code == 0, out
    assert "Red is dealt " not in out


def test_a_flag_given_another_word_says_what_it_takes(tmp_path: Path) -> None:
    code, out = play(["amunre", "--offer-cards=maybe"], tmp_path)
    assert code == 2
    assert "give it alone to turn it on" in out and "'maybe'" in out


def test_no_bool_placeholder_in_any_command_s_help() -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    for command in ("play", "simulate", "arena", "replay", "board", "serve"):
        result = runner.invoke(app, [command, "--help"])
        assert result.exit_code == 0
        assert "<bool>" not in result.output, command


def test_a_name_too_long_is_refused_in_a_person_s_words(tmp_path: Path) -> None:
    code, out = play(["amunre", "--name", "N" * 41], tmp_path)
    assert code == 2 and "a name has at most 40 characters" in out
    code, out = play(["amunre", "--seed", "2", "--name", "N" * 40], tmp_path)
    assert code == 0 and "N" * 40 in out


# ---------------------------------------------------------------------- words at 80 columns
#: Lines of nothing but rules and borders (their length follows the width).
BORDER = re.compile(r"^[\s─━│┃┌┐└┘├┤┬┴┼╭╮╯╰═║╔╗╚╝╠╣╦╩╬╞╡╪╤╧▔▁|+=~-]*$")


def session_words(game: str, columns: int, tmp_path: Path) -> tuple[set[str], str]:
    """Every word of a seeded game at this width: the compact screens, the full board (the
    widest tables), help and some moves; a save path, copied as a whole, is left out."""
    runner = CliRunner(env={"COLUMNS": str(columns), "LINES": "2000", "KARNAK_LANG": ""})
    save = tmp_path / f"{game}{columns}.json"
    extra = ["-p", "2"] if game == "egyptia" else []
    answers = ("board\nhelp\n" + "1\n" * 3) * 12 + "quit\n"
    args = ["play", game, "--opponents", "random", "--seed", "5", *extra, "--save", str(save)]
    out = runner.invoke(app, args, answers).output
    words = {w for w in out.split() if not BORDER.match(w) and str(tmp_path) not in w}
    return words, out


@pytest.mark.parametrize("game", available_games())
def test_at_80_columns_no_word_is_cut(game: str, tmp_path: Path) -> None:
    """A word cut in two ("s|tays") or short ("Cartouch…") at 80 columns is a word the same
    game at 400 columns never prints."""
    narrow, out = session_words(game, 80, tmp_path)
    wide, _ = session_words(game, 400, tmp_path)
    assert len(narrow) > 100, out
    assert narrow <= wide, sorted(narrow - wide)[:20]
    assert all(len(line) <= 80 for line in out.splitlines() if str(tmp_path) not in line)

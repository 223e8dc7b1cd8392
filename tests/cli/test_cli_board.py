"""``karnak board``: figures with confidence, the data dump, and corrected board files."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.games.amunre.rules.board import default_board_text

runner = CliRunner(env={"COLUMNS": "150"})


def test_figures_with_confidence() -> None:
    result = runner.invoke(app, ["board", "amunre"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Amun-Re provinces (built-in)" in out
    assert "Confidence: printed (no mark) · one source * · reconstructed ?" in out
    assert "THEBES" in out and "BAHARYA" in out
    assert "?" in out and "*" in out  # both kinds of marked cells appear
    assert "Constants" in out and "0, 1, 3, 6, 10, 15, 21, 28, 36" in out
    assert "Power cards (39)" in out and "Architect" in out and "bidding blockade" in out


def test_dump_is_the_shipped_file() -> None:
    result = runner.invoke(app, ["board", "amunre", "--dump"])
    assert result.exit_code == 0
    assert result.stdout == default_board_text()


def test_corrected_file_is_validated_and_shown(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(default_board_text().replace("caravan = 8", "caravan = 9"))
    result = runner.invoke(app, ["board", "amunre", "--board", str(path)])
    assert result.exit_code == 0, result.output
    assert "is a valid board file" in result.output
    assert f"Amun-Re provinces ({path})" in result.output


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("fields = 3\n", "fields = -1\n", "'fields' must be between 0 and 20, not -1"),
        ('half = "upper"', 'half = "middle"', '\'half\' must be "lower" or "upper"'),
        ("[constants]", "[constants", "is not valid TOML"),
        ('format = "karnak-amunre-board/1"', 'format = "x"', "'format' must be"),
        ("gold = 4\n", "gold = 4\nwealth = 3\n", "unknown field(s) wealth"),
    ],
)
def test_corrupted_files(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = default_board_text()
    assert old in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(old, new, 1))
    result = runner.invoke(app, ["board", "amunre", "--board", str(path)])
    assert result.exit_code == 1
    assert message in result.output
    assert "Traceback" not in result.output


def test_missing_file() -> None:
    result = runner.invoke(app, ["board", "amunre", "--board", "no/such.toml"])
    assert result.exit_code == 1
    assert "cannot read the board file no/such.toml" in result.output


def test_unknown_game() -> None:
    result = runner.invoke(app, ["board", "mancala"])
    assert result.exit_code == 2
    assert "unknown game 'mancala'; Karnak has: amunre" in result.output

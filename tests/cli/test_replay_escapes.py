"""A record's names reach the terminal as text: ``karnak replay`` and ``karnak play`` print
none of the escape sequences, controls or markup a hand-edited record puts in them, and two
people at one terminal do not find the last hand in the scrollback."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

import karnak.cli.play as play_module
from karnak.bots import make_bot
from karnak.bots.base import SeatView, play_out
from karnak.cli.main import app
from karnak.core import Rng, get_game

runner = CliRunner(env={"COLUMNS": "150"})

#: A window title, a clear screen and scrollback, a clipboard write, markup and a
#: right-to-left override, a C1 CSI: one per seat.
EVIL = [
    "Ana\x1b]0;owned title\x07",
    "[bold]Zq[/bold]\x1b[2J\x1b[3J",
    "Cy\x1b]52;c;ZWNobyBvd25lZA==\x07",
    "Ed\u202edlrow",
    "\x9b2JFa",
]
SHOWN = ["Ana", "[bold]Zq[/bold]", "Cy", "Eddlrow", "Fa"]
RAW = ["\x1b", "\x07", "\x9b", "\u202e", "owned title", "ZWNobyBvd25lZA=="]


def write_record(path: Path, game: str, players: int, moves: int | None) -> Path:
    """A record of ``game`` played by random bots (to the end, or ``moves`` moves), whose
    seats are then renamed to :data:`EVIL` as a hand-edited file would be."""
    state = get_game(game).new_state(players, seed=21)
    bots = [make_bot("random", state.game)] * players
    rngs = [Rng(seat) for seat in range(players)]
    if moves is None:
        play_out(state, bots, rngs)
    else:
        for _ in range(moves):
            seat = state.to_move()[0]
            state.apply(seat, bots[seat].choose(SeatView.of(state, seat), rngs[seat]))
    data = state.record().to_json()
    data["seats"] = EVIL[:players]
    path.write_text(json.dumps(data))
    return path


def assert_clean(output: str, players: int) -> None:
    for raw in RAW:
        assert raw not in output, repr(raw)
    for name in SHOWN[:players]:
        assert name in output
    # the name with markup is shown as written every time it is shown, never as a bold "Zq"
    if players > 1:
        assert output.count("Zq") == output.count("[bold]Zq[/bold]") > 0


GAMES = [("amunre", 5), ("aton", 2), ("egyptia", 3)]


@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize("args", [[], ["--seat", "1"]])
def test_replay_prints_names_without_their_sequences(
    tmp_path: Path, game: str, players: int, args: list[str]
) -> None:
    record = write_record(tmp_path / "game.json", game, players, None)
    result = runner.invoke(app, ["replay", str(record), *args])
    assert result.exit_code == 0, result.output
    assert_clean(result.output, players)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_an_unfinished_record_and_its_resumed_game_too(
    tmp_path: Path, game: str, players: int
) -> None:
    record = write_record(tmp_path / "game.json", game, players, 6)
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert_clean(replayed.output, players)
    save = tmp_path / "saved.json"
    args = ["play", game, "--resume", str(record), "--save", str(save), "--think", "1ms"]
    resumed = runner.invoke(app, args, "quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert_clean(resumed.output, players)


def test_an_error_quoting_a_record_prints_no_sequence(tmp_path: Path) -> None:
    record = write_record(tmp_path / "game.json", "aton", 2, 2)
    data = json.loads(record.read_text())
    data["karnak_cli"] = {"human_seat": 0, "opponents": {"1": "bot\x1b]0;owned title\x07"}}
    record.write_text(json.dumps(data))
    result = runner.invoke(app, ["play", "aton", "--resume", str(record)], "quit\n")
    assert result.exit_code != 0
    assert "\x1b" not in result.output and "\x07" not in result.output


def test_a_name_on_the_command_line_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    args = ["play", "aton", "--name", "Io\x1b]0;owned title\x07", "--opponents", "random"]
    result = runner.invoke(app, args, "quit\n")
    assert result.exit_code == 0, result.output
    assert "Io" in result.output and "\x1b" not in result.output


def test_the_hand_over_clears_the_scrollback_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two people, one terminal: before the second person's turn the screen is erased, then
    the scrollback (ESC [ 3 J), so the first person's cards are not one scroll up."""
    monkeypatch.chdir(tmp_path)
    screen = io.StringIO()

    def terminal(*, wrap: bool = False) -> Console:
        return Console(file=screen, force_terminal=True, width=150, highlight=False)

    monkeypatch.setattr(play_module, "make_console", terminal)
    args = ["play", "aton", "--opponents", "human", "--seed", "1", "--save", "h.json"]
    result = runner.invoke(app, args, "2\n\nquit\n")
    assert result.exit_code == 0, result.output
    written = screen.getvalue()
    first_hand, _ = written.split("Pass the terminal to", 1)
    assert "\x1b[2J\x1b[3J" in first_hand  # the screen, then the scrollback
    before, after = first_hand.rsplit("\x1b[2J\x1b[3J", 1)
    assert "Your cards (Red)" in before and "Your cards" not in after

"""The command line under bad input: unreadable records, closed input, and what it prints.

Whatever a person feeds it (a picture instead of a record, a file nested beyond reason, a
terminal with no input at all), ``karnak`` answers with one line, never a traceback; and
the commands it prints for later (resume, replay) must run as printed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from karnak.cli.common import default_players
from karnak.cli.main import app
from karnak.core.record import MAX_RECORD_BYTES
from karnak.core.registry import available_games, get_game
from karnak.games.amunre.rules.board import default_board_text

#: The ``karnak`` script of the environment the tests run in (``.venv/bin/karnak``).
KARNAK = Path(sys.executable).parent / "karnak"
#: A PATH without the virtualenv, as after ``make play``: ``karnak`` alone is not found.
BARE_PATH = os.pathsep.join(
    p for p in os.environ.get("PATH", "").split(os.pathsep) if Path(p) != KARNAK.parent
)

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00"


@pytest.fixture()
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    monkeypatch.chdir(tmp_path)
    return CliRunner(env={"COLUMNS": "150"})


def one_clear_line(result: Result, *parts: str) -> None:
    """The command failed with exit status 1 and a single ``Error:`` line naming ``parts``."""
    assert isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: "), lines[0]
    for part in parts:
        assert part in lines[0], lines[0]


# ---------------------------------------------------------------------- unreadable records
BAD_RECORDS = {
    "random.bin": (bytes(range(256)) * 8, "is not a text file in UTF-8"),
    "picture.png": (PNG, "is not a text file in UTF-8"),
    "latin1.json": ('{"game": "amunre", "seats": ["Zoë"]}'.encode("latin-1"), "UTF-8"),
    "deep.json": (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    "deep-objects.json": (b'{"a": ' * 50_000 + b"1" + b"}" * 50_000, "nested too deeply"),
    "huge-seed.json": (b'{"seed": ' + b"9" * 5000 + b"}", "is not valid JSON"),
}


@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
def test_replay_refuses_unreadable_records_in_one_line(runner: CliRunner, name: str) -> None:
    content, message = BAD_RECORDS[name]
    Path(name).write_bytes(content)
    one_clear_line(runner.invoke(app, ["replay", name]), name, message)


@pytest.mark.parametrize("game", available_games())
@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
def test_resume_refuses_unreadable_records_in_one_line(
    runner: CliRunner, name: str, game: str
) -> None:
    content, message = BAD_RECORDS[name]
    Path(name).write_bytes(content)
    result = runner.invoke(app, ["play", game, "--resume", name], "quit\n")
    one_clear_line(result, name, message)
    assert not Path("records").exists()  # nothing was played, so nothing was saved


def test_huge_records_are_refused_before_reading(runner: CliRunner) -> None:
    with open("huge.json", "wb") as handle:
        handle.truncate(MAX_RECORD_BYTES + 1)  # sparse: costs no disk
    for args in (["replay", "huge.json"], ["play", "amunre", "--resume", "huge.json"]):
        one_clear_line(runner.invoke(app, args), "huge.json", "20 MB")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_stream_is_not_read_forever(runner: CliRunner) -> None:
    one_clear_line(runner.invoke(app, ["replay", "/dev/zero"]), "/dev/zero", "20 MB")


def test_a_record_carrying_an_absurd_board_is_refused(runner: CliRunner) -> None:
    Path("b.toml").write_text(default_board_text().replace("start_gold = 20", "start_gold = 25"))
    made = runner.invoke(
        app,
        ["simulate", "amunre", "-n", "1", "--seed", "4", "--record", "runs", "--board", "b.toml"],
    )
    assert made.exit_code == 0, made.output
    record = json.loads(Path("runs/amunre-4.json").read_text())
    record["variant"]["board"]["provinces"]["ABU"]["card_limit"] = 100_000_000
    Path("absurd.json").write_text(json.dumps(record))
    for args in (["replay", "absurd.json"], ["play", "amunre", "--resume", "absurd.json"]):
        one_clear_line(runner.invoke(app, args), "card_limit", "100000000")


# ---------------------------------------------------------------------- absurd board files
ABSURD_BOARDS: dict[str, tuple[Callable[[str], bytes], tuple[str, ...]]] = {
    "card-limit.toml": (
        lambda text: text.replace("card_limit = 4", "card_limit = 100000000").encode(),
        ("[provinces.SAWU]", "'card_limit'", "100000000", "between 0 and 10"),
    ),
    "start-gold.toml": (
        lambda text: text.replace("start_gold = 20", "start_gold = 1000000000").encode(),
        ("[constants]", "'start_gold'", "1000000000", "between 0 and 100"),
    ),
    "picture.toml": (lambda text: PNG, ("picture.toml", "is not a text file in UTF-8")),
}


@pytest.mark.parametrize("name", sorted(ABSURD_BOARDS))
@pytest.mark.parametrize(
    "command",
    [["board", "amunre"], ["play", "amunre", "--opponents", "random"], ["simulate", "amunre"]],
)
def test_absurd_board_files_are_one_line(runner: CliRunner, name: str, command: list[str]) -> None:
    make, parts = ABSURD_BOARDS[name]
    Path(name).write_bytes(make(default_board_text()))
    one_clear_line(runner.invoke(app, [*command, "--board", name], "quit\n"), *parts)


def test_a_huge_board_file_is_one_line(runner: CliRunner) -> None:
    with open("huge.toml", "wb") as handle:
        handle.truncate(1_000_000_000)
    for command in (["board", "amunre"], ["play", "amunre"]):
        result = runner.invoke(app, [*command, "--board", "huge.toml"], "quit\n")
        one_clear_line(result, "huge.toml", "1,000,000,000 bytes", "at most 1 MB")


# ---------------------------------------------------------------------- no input at all
def karnak(
    args: list[str], cwd: Path, *, stdin: int | None = None, text: str | None = None
) -> subprocess.CompletedProcess[str]:
    """The real ``karnak`` in a child process, found without the virtualenv on PATH."""
    env = {**os.environ, "PATH": BARE_PATH, "COLUMNS": "150"}
    return subprocess.run(
        [str(KARNAK), *args],
        cwd=cwd,
        env=env,
        stdin=stdin,
        input=text,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _play_args(game: str) -> list[str]:
    # a game played alone by default (Egyptia) has no opponents to name
    bots = [] if default_players(get_game(game)) == 1 else ["--opponents", "random"]
    return ["play", game, "--seed", "5", *bots]


@pytest.mark.parametrize("game", available_games())
def test_play_with_empty_input_saves_and_says_how_to_resume(game: str, tmp_path: Path) -> None:
    done = karnak(_play_args(game), tmp_path, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "Stopped: the input ended" in done.stdout
    assert "Resume it with:" in done.stdout
    assert len(list((tmp_path / "records").glob(f"{game}-seed5-*.json"))) == 1


@pytest.mark.parametrize("game", available_games())
def test_play_with_input_closed_saves_and_says_how_to_resume(game: str, tmp_path: Path) -> None:
    # ``karnak play 0<&-``: file descriptor 0 is not open at all (sys.stdin is None).
    command = shlex.join([str(KARNAK), *_play_args(game)]) + " 0<&-"
    env = {**os.environ, "PATH": BARE_PATH, "COLUMNS": "150"}
    done = subprocess.run(
        ["/bin/sh", "-c", command],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    assert "Stopped: the input ended" in done.stdout
    assert len(list((tmp_path / "records").glob(f"{game}-seed5-*.json"))) == 1


# ---------------------------------------------------------------------- printed commands
def _printed(output: str, after: str) -> list[str]:
    match = re.search(re.escape(after) + r"\s+(.+)$", output, re.MULTILINE)
    assert match, output[-2000:]
    return shlex.split(match.group(1))


def test_the_printed_resume_command_runs_without_karnak_on_the_path(tmp_path: Path) -> None:
    first = karnak([*_play_args("amunre"), "-p", "3"], tmp_path, text="1\nquit\n")
    assert first.returncode == 0, first.stderr[-2000:]
    command = _printed(first.stdout, "Resume it with:")
    assert command[1:4] == ["play", "amunre", "--resume"]
    assert Path(command[0]).samefile(KARNAK)  # what `make play` ran, not a bare `karnak`
    again = subprocess.run(
        command,
        cwd=tmp_path,
        env={**os.environ, "PATH": BARE_PATH},
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert "replayed and verified" in " ".join(again.stdout.split())  # wrapped to the width


def test_the_printed_commands_say_karnak_when_it_is_on_the_path(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": os.pathsep.join([str(KARNAK.parent), BARE_PATH])}
    done = subprocess.run(
        ["karnak", *_play_args("aton")],
        cwd=tmp_path,
        env=env,
        input="quit\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert _printed(done.stdout, "Resume it with:")[0] == "karnak"


def test_the_printed_replay_command_runs(tmp_path: Path) -> None:
    done = karnak(["play", "egyptia", "--seed", "3"], tmp_path, text="1\n" * 3000)
    assert done.returncode == 0, done.stderr[-2000:]
    command = _printed(done.stdout, "watch it again with")
    assert command[1] == "replay" and Path(command[0]).samefile(KARNAK)
    again = subprocess.run(
        [*command, "-q"],
        cwd=tmp_path,
        env={**os.environ, "PATH": BARE_PATH},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert again.returncode == 0, again.stderr[-2000:]
    assert "replayed and verified" in " ".join(again.stdout.split())  # wrapped to the width


# ---------------------------------------------------------------------- where games are saved
def test_games_are_saved_in_a_records_folder(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(app, ["play", "amunre", "--opponents", "random", "--seed", "6"], "q\n")
    assert result.exit_code == 0, result.output
    saved = list((tmp_path / "records").glob("amunre-seed6-*.json"))
    assert len(saved) == 1
    assert str(saved[0]) in result.output
    assert not list(tmp_path.glob("*.json"))  # the checkout stays clean


def test_save_still_chooses_the_file(runner: CliRunner, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["play", "aton", "--opponents", "random", "--save", "mine.json"], "quit\n"
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "mine.json").exists()
    assert not (tmp_path / "records").exists()


def test_a_records_file_in_the_way_falls_back(runner: CliRunner, tmp_path: Path) -> None:
    Path("records").write_text("not a folder")
    result = runner.invoke(app, ["play", "aton", "--opponents", "random"], "quit\n")
    assert result.exit_code == 0, result.output
    assert "Cannot write" in result.output
    assert "The game is saved in" in result.output


def test_play_help_names_the_records_folder() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["play", "--help"])
    assert "records/" in result.output


# ---------------------------------------------------------------------- help wording
def test_serve_help_names_the_three_games() -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    for args in (["serve", "--help"], ["--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        for title in ("Amun-Re", "Aton", "Egyptia"):
            assert title in result.output, (args, result.output)

"""``karnak play egyptia --daily``: practice on the date's public seed, and the server's game
of the day over real HTTP (a live server on a loopback port), as a guest and as an account,
with every failure told in one line and an exit status."""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import re
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from rich.console import Console
from typer.testing import CliRunner

import karnak.cli.daily
import karnak.cli.play
from karnak.cli.common import CliError
from karnak.cli.daily import DailyClient, ServerError, ServerGame, parse_day, practice_seed
from karnak.cli.main import app
from karnak.cli.play import LineReader
from karnak.cli.records import load_record
from karnak.cli.render import renderer_for
from karnak.core import get_game
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.templates import Templates

runner = CliRunner(env={"COLUMNS": "150", "LINES": "400"})
PASSWORD = "a long enough password"
DAY = "2026-01-05"
#: A shared result's last line: a square a round, a red circle when a red dot ended it.
MARKS = "[\U0001f7e9\U0001f7e7\U0001f7e5\u2b1c]+\U0001f534?"


def ones(count: int = 400) -> str:
    return "1\n" * count


def saved_path(output: str) -> Path:
    match = re.search(r"saved in (\S+?\.json)", output)
    assert match, output[-2000:]
    return Path(match.group(1))


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # saved games go to records/ here
    monkeypatch.delenv("KARNAK_PASSWORD", raising=False)


# ---------------------------------------------------------------------- practice, offline
def test_the_practice_seed_is_the_date_itself() -> None:
    assert practice_seed(dt.date(2026, 11, 29)) == 20261129
    assert practice_seed(parse_day(" 2026-01-05 ")) == 20260105
    assert practice_seed(dt.date(2026, 1, 5)) != practice_seed(dt.date(2026, 1, 6))


def test_practice_plays_the_dates_deal_and_says_it_is_not_the_servers() -> None:
    result = runner.invoke(app, ["play", "egyptia", "--daily", "--day", DAY], input="quit\n")
    assert result.exit_code == 0, result.output
    assert "Practice for Egyptia of the day, 2026-01-05: seed 20260105" in result.output
    assert "not the server's game of the day" in result.output
    record, extra = load_record(saved_path(result.output))
    assert record.seed == 20260105 and len(record.seats) == 1
    assert extra["daily_practice"] == DAY
    # the same day is the same deal every time, and the same as --seed gives
    again = runner.invoke(app, ["play", "egyptia", "--daily", "--day", DAY], input="quit\n")
    seeded = runner.invoke(app, ["play", "egyptia", "--seed", "20260105"], input="quit\n")

    def first_screen(output: str) -> str:
        return output[output.index("Since your last move") : output.index("Builder 1 >")]

    assert first_screen(again.output) == first_screen(result.output)
    assert first_screen(seeded.output) == first_screen(result.output)


def test_practice_is_today_unless_day_says(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(karnak.cli.daily, "today_utc", lambda: dt.date(2026, 11, 29))
    for args in ([], ["--day", "today"]):
        result = runner.invoke(app, ["play", "egyptia", "--daily", *args], input="quit\n")
        assert result.exit_code == 0, result.output
        assert "seed 20261129" in result.output
        assert load_record(saved_path(result.output))[0].seed == 20261129


def test_a_finished_practice_shows_its_result_as_the_server_would_share_it() -> None:
    result = runner.invoke(app, ["play", "egyptia", "--daily", "--day", DAY], input=ones())
    assert result.exit_code == 0, result.output
    tail = result.output[result.output.index("The record is saved") :]
    assert "Practice · Egyptia of the day · 2026-01-05 (not ranked)" in tail
    assert re.search(r"\d+ points · \d+ plagues?", tail), tail
    assert re.search(MARKS, tail), tail


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--daily", "--day", "2026-13-01"], "--day takes a date written YYYY-MM-DD"),
        (["--daily", "--day", "tomorrow"], "--day takes a date written YYYY-MM-DD"),
        (["--daily", "--day", "2026-1-5"], "--day takes a date written YYYY-MM-DD"),
        (["--daily", "--day", "2999-01-01"], "is after today"),
        (["--day", DAY], "--day, --server and --user go with --daily"),
        (["--server", "http://127.0.0.1:8000"], "go with --daily"),
        (["--daily", "--user", "alice"], "--user goes with --server"),
        (["--daily", "--seed", "3", "--players", "2"], "--players, --seed cannot go with it"),
        (["--daily", "--server", "http://127.0.0.1:8000", "--save", "x.json"], "--save"),
        (["--daily", "--server", "ftp://127.0.0.1"], "--server takes the server's address"),
        (["--daily", "--server", "http://"], "--server takes the server's address"),
    ],
)
def test_what_does_not_go_is_refused_in_one_line(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["play", "egyptia", *args], input="quit\n")
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "Traceback" not in result.output and not Path("records").exists()


def test_a_game_without_a_daily_is_refused() -> None:
    result = runner.invoke(app, ["play", "amunre", "--daily"])
    assert result.exit_code == 2
    assert "Amun-Re has no game of the day" in result.output


# ---------------------------------------------------------------------- a live server
def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def running(app_: Any) -> Iterator[str]:
    """``app_`` served by uvicorn on a free loopback port, in a thread: its address."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app_, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@pytest.fixture
def server(tmp_path: Path, templates: Templates) -> Iterator[str]:
    """A server of the test's own (no bots of the day: they would only take the CPU)."""
    settings = ServerSettings(
        daily_bots="", creates_per_minute=1000, running_games_per_client=100_000
    )
    database = templates.sqlite(tmp_path / "daily.sqlite3")
    with running(create_app(database, bot_workers=0, settings=settings)) as url:
        yield url


def sign_up(url: str, name: str) -> None:
    request = urllib.request.Request(
        url + "/api/account/signup",
        data=json.dumps({"name": name, "password": PASSWORD}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        assert answer.status == 201


def daily(server: str, *args: str, stdin: str = "", password: str | None = None) -> Any:
    env = {"KARNAK_PASSWORD": password} if password is not None else {}
    return runner.invoke(
        app, ["play", "egyptia", "--daily", "--server", server, *args], input=stdin, env=env
    )


def share_lines(output: str) -> list[str]:
    tail = output[output.index("Your result to share") :].splitlines()
    return tail[1:4]


def test_a_guest_plays_the_game_of_the_day_to_the_end(server: str) -> None:
    result = daily(server, stdin=ones())
    assert result.exit_code == 0, result.output
    assert "a guest's game, not ranked" in result.output
    assert "Choose a column to produce from." in result.output  # the renderer's screen
    assert "Columns:" in result.output and "Builder 1 > 1" in result.output
    assert "The game is over" in result.output and "Final scoring" in result.output
    assert re.search(r"Score: \d+ · builder status: \w+", result.output)
    head, numbers, marks = share_lines(result.output)
    assert head.startswith("Karnak · Egyptia of the day · ")
    assert re.fullmatch(r"\w+ · \d+ points · \d+ plagues?", numbers), numbers
    assert re.fullmatch(MARKS, marks), marks
    assert "Your place today" not in result.output  # a guest is not ranked
    assert not Path("records").exists()  # the game is the server's, not saved here


def test_an_account_plays_its_ranked_game_and_resumes_it(server: str) -> None:
    sign_up(server, "Tiye")
    first = daily(server, "--user", "Tiye", stdin="1\nquit\n", password=PASSWORD)
    assert first.exit_code == 0, first.output
    assert "your ranked game: the only one that counts today" in first.output
    assert "Tiye >" in first.output
    assert "Stopped: you quit. The game stays on the server." in first.output
    assert "--daily --server " + server + " --user Tiye" in first.output
    second = daily(server, "--user", "Tiye", stdin=ones(), password=PASSWORD)
    assert second.exit_code == 0, second.output
    assert "your ranked game, resumed where you left it" in second.output
    assert "The last moves before this session" in second.output
    assert "Tiye chooses the" in second.output  # the move played before quitting
    head, numbers, marks = share_lines(second.output)
    assert head.startswith("Karnak · Egyptia of the day · ")
    assert re.fullmatch(r"\w+ · \d+ points · \d+ plagues?", numbers), numbers
    assert re.fullmatch(MARKS, marks), marks
    assert "Your place today: 1 of 1." in second.output
    assert "Your streak: 1 day (best 1)." in second.output
    # the day's one ranked game is over: asking again shows it is finished
    third = daily(server, "--user", "Tiye", password=PASSWORD)
    assert third.exit_code == 0, third.output
    assert "resumed" in third.output and "The game is over" in third.output
    assert share_lines(third.output)[1] == numbers


def test_a_past_day_on_the_server_is_refused_with_its_reason(server: str) -> None:
    result = daily(server, "--day", "2020-01-01")
    assert result.exit_code == 1
    assert "Starting the game of the day: the server answered 404:" in result.output
    assert "2020-01-01" in result.output and "Traceback" not in result.output


def test_a_wrong_password_is_one_line(server: str) -> None:
    sign_up(server, "Tiye")
    result = daily(server, "--user", "Tiye", password="not the password")
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert lines == [
        "Error: Logging in as Tiye: the server answered 401: that name and password do not "
        "match an account"
    ]


def test_no_password_and_no_terminal_is_a_usage_error(server: str) -> None:
    result = daily(server, "--user", "Tiye")
    assert result.exit_code == 2
    assert "--user Tiye needs a password: set KARNAK_PASSWORD" in result.output


def test_an_unreachable_server_is_one_line() -> None:
    result = daily(f"http://127.0.0.1:{free_port()}")
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "cannot reach the server at http://127.0.0.1:" in lines[0]


def test_ctrl_c_stops_and_says_where_the_game_goes_on(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*args: Any) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(karnak.cli.play.LineReader, "read", interrupted)
    result = daily(server)
    assert result.exit_code == 130, result.output
    assert "Stopped: interrupted. The game stays on the server." in result.output
    link = re.search(r"Finish it in a browser:\s+(\S+)", result.output)
    assert link and link.group(1).startswith(server + "/games/")
    assert "?token=" in link.group(1)


def test_a_move_the_game_moved_past_is_told_and_play_goes_on(
    server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another client on the same seat (a browser) moves first: the server refuses the
    terminal's move as stale (409); the terminal says so, shows the game again and goes on."""
    played = DailyClient.move
    raced: list[int] = []

    def raced_move(client: DailyClient, game_id: str, version: int, action: Any) -> Any:
        if not raced:
            view = client.view(game_id)
            other = next(e["action"] for e in view["legal"] if e["action"] != action)
            played(client, game_id, version, other)
            raced.append(version)
        return played(client, game_id, version, action)

    monkeypatch.setattr(DailyClient, "move", raced_move)
    sign_up(server, "Tiye")
    result = daily(server, "--user", "Tiye", stdin=ones(), password=PASSWORD)
    assert result.exit_code == 0, result.output
    assert "Playing the move: the server answered 409:" in result.output
    assert len(raced) == 1 and "The game is over" in result.output


def test_an_illegal_move_is_refused_with_the_servers_reason(server: str) -> None:
    client = DailyClient(server)
    started = client.start("today")
    assert started["token"] and not started["ranked"]
    view = client.view(started["game_id"])
    with pytest.raises(ServerError) as refused:
        client.move(started["game_id"], view["version"], "build pyramid Z9")
    assert refused.value.status == 422
    assert str(refused.value).startswith("Playing the move: the server answered 422: ")


def test_the_servers_view_draws_as_the_local_game_does(server: str) -> None:
    """The renderer reads the observation the server's view holds, after JSON, as it reads
    the engine's own: the same screen for the same position."""
    client = DailyClient(server)
    started = client.start("today")
    view = client.view(started["game_id"])
    game = get_game("egyptia")
    renderer = renderer_for(game)
    observation = view["observation"]
    assert observation["game"] == "egyptia" and view["seat"] == 0
    legal = [game.action_from_json(entry["action"]) for entry in view["legal"]]
    assert [a.to_text() for a in legal] == [entry["text"] for entry in view["legal"]]
    assert renderer.status(game, observation, 0)
    groups = renderer.move_groups(game, observation, 0, legal)  # type: ignore[attr-defined]
    assert sorted(i for _heading, indices in groups for i in indices) == list(range(len(legal)))


class Views:
    """A stand-in for the server's client: the views it is given, one per request."""

    server = "http://127.0.0.1:1"

    def __init__(self, *views: dict[str, Any]) -> None:
        self.views = list(views)

    def view(self, game_id: str) -> dict[str, Any]:
        return self.views.pop(0) if len(self.views) > 1 else self.views[0]


def a_view(status: str, log: list[str]) -> dict[str, Any]:
    return {
        "status": status,
        "version": len(log),
        "seat": None,
        "your_turn": False,
        "legal": [],
        "observation": {},
        "log": log,
        "players": [{"name": "Builder 1"}],
    }


def a_session(client: Views) -> tuple[ServerGame, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100)
    game = get_game("egyptia")
    session = ServerGame(
        client=client,  # type: ignore[arg-type]
        game_id="AbC",
        game=game,
        console=console,
        reader=LineReader(console, io.StringIO("")),
        renderer=renderer_for(game),
        link="http://127.0.0.1:1/games/AbC",
        sleep=lambda seconds: None,
    )
    return session, out


def test_a_seat_the_game_does_not_ask_waits_until_it_does() -> None:
    session, out = a_session(
        Views(
            a_view("running", ["one"]),
            a_view("running", ["one"]),
            a_view("finished", ["one", "two"]),
        )
    )
    assert session.run()["status"] == "finished"
    assert "Waiting for the game to go on..." in out.getvalue()
    assert "one" in out.getvalue() and "two" in out.getvalue()


def test_waiting_for_ever_is_one_line() -> None:
    session, _out = a_session(Views(a_view("running", [])))
    with pytest.raises(CliError, match=r"asked nothing of your seat for 120 s.*/games/AbC"):
        session.run()

"""``karnak serve`` before it serves: a taken port, a damaged database and the server's limits
on its command line, each answered in one line without a traceback."""

from __future__ import annotations

import os
import socket
import sqlite3
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from karnak.cli.main import app

runner = CliRunner(env={"COLUMNS": "150"})


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    apps: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: apps.append(app))
    return apps


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def one_line_error(result: Any) -> str:
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def test_a_taken_port_is_one_clear_line(served: list[Any], tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = runner.invoke(
            app, ["serve", "--port", str(port), "--database", str(tmp_path / "k.sqlite3")]
        )
    line = one_line_error(result)
    assert f"port {port} on 127.0.0.1 is already in use" in line and "--port" in line
    assert not served  # the server was never started
    assert "Karnak on" not in result.output  # no banner before the refusal


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_database_file_is_one_clear_line(
    served: list[Any], tmp_path: Path, damage: str
) -> None:
    database = tmp_path / "karnak.sqlite3"
    if damage == "garbage":
        database.write_bytes(os.urandom(20_000))
    else:
        with sqlite3.connect(database) as connection:
            connection.execute("CREATE TABLE filler (x TEXT)")
            connection.executemany(
                "INSERT INTO filler VALUES (?)", [("x" * 500,) for _ in range(2000)]
            )
        size = database.stat().st_size
        with database.open("r+b") as handle:
            handle.truncate(size // 2)
    result = runner.invoke(app, ["serve", "--port", str(free_port()), "--database", str(database)])
    line = one_line_error(result)
    assert str(database) in line
    assert "not a database" in line or "damaged" in line or "malformed" in line
    assert not served


def test_the_servers_counted_limits_come_from_the_command_line(
    served: list[Any], tmp_path: Path
) -> None:
    result = runner.invoke(
        app,
        [
            "serve",
            "--port",
            str(free_port()),
            "--database",
            str(tmp_path / "k.sqlite3"),
            "--max-games",
            "7",
            "--creates-per-minute",
            "3",
            "--moves-per-minute",
            "90",
        ],
    )
    assert result.exit_code == 0, result.output
    settings = served[0].state.settings
    assert (settings.max_running_games, settings.creates_per_minute) == (7, 3)
    assert settings.moves_per_minute == 90


@pytest.mark.parametrize("option", ["--max-games", "--creates-per-minute", "--moves-per-minute"])
def test_bad_counted_limits_are_refused(served: list[Any], tmp_path: Path, option: str) -> None:
    result = runner.invoke(app, ["serve", "--database", str(tmp_path / "k.sqlite3"), option, "0"])
    assert f"{option} must be between 1 and 1,000,000, not 0" in one_line_error(result)

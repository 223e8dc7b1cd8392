"""``karnak serve --max-think/--max-game-think/--max-iterations``: read, checked, passed on.

uvicorn is replaced by a stand-in that keeps the application it was given, so no server
starts; the settings the application would run with are read from it.
"""

from __future__ import annotations

import socket
from typing import Any

import pytest
import uvicorn
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.limits import ServerSettings

runner = CliRunner(env={"COLUMNS": "150"})


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    apps: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: apps.append(app))
    return apps


def serve(tmp_path: Any, *options: str) -> Any:
    command = ["serve", "--port", str(free_port()), "--database", str(tmp_path / "k.sqlite3")]
    return runner.invoke(app, [*command, *options])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def test_the_defaults_are_the_servers_own(served: list[Any], tmp_path: Any) -> None:
    result = serve(tmp_path)
    assert result.exit_code == 0, result.output
    assert served[0].state.settings == ServerSettings()


@pytest.mark.parametrize(
    ("options", "think", "game", "iterations"),
    [
        (["--max-think", "2.5s"], 2.5, 60.0, 200_000),
        (["--max-think", "500ms", "--max-game-think", "3s"], 0.5, 3.0, 200_000),
        (["--max-think", "30", "--max-game-think", "120s"], 30.0, 120.0, 200_000),
        (["--max-iterations", "5000"], 10.0, 60.0, 5000),
        (
            ["--max-think", "10ms", "--max-game-think", "10ms", "--max-iterations", "1"],
            0.01,
            0.01,
            1,
        ),
    ],
)
def test_limits_reach_the_server(
    served: list[Any],
    tmp_path: Any,
    options: list[str],
    think: float,
    game: float,
    iterations: int,
) -> None:
    result = serve(tmp_path, *options)
    assert result.exit_code == 0, result.output
    settings = served[0].state.settings
    assert settings.max_think == pytest.approx(think)
    assert settings.max_game_think == pytest.approx(game)
    assert settings.max_iterations == iterations
    # the limits that were not given keep their defaults
    assert settings.max_running_games == ServerSettings().max_running_games


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--max-think", "soon"], ["--max-think", "soon", "500ms"]),
        (["--max-think", "-1s"], ["--max-think"]),
        (["--max-think", "5ms"], ["--max-think", "10ms", "10min"]),
        (["--max-think", "11min"], ["--max-think", "10ms", "10min"]),
        (["--max-think", "nan"], ["--max-think"]),
        (["--max-game-think", "0s"], ["--max-game-think"]),
        (["--max-game-think", "5s"], ["--max-game-think", "--max-think"]),
        (["--max-think", "90s"], ["--max-game-think", "--max-think"]),
        (["--max-game-think", "30h"], ["--max-game-think", "30h"]),
        (["--max-iterations", "0"], ["--max-iterations"]),
        (["--max-iterations", "1000000000"], ["--max-iterations"]),
    ],
)
def test_bad_limits_are_one_line_errors(
    served: list[Any], tmp_path: Any, options: list[str], words: list[str]
) -> None:
    result = serve(tmp_path, *options)
    assert result.exit_code == 2, result.output
    assert not served
    assert "Traceback" not in result.output
    message = result.output.strip()
    assert message.startswith("Error:") and len(message.splitlines()) == 1, message
    for word in words:
        assert word in message, (word, message)

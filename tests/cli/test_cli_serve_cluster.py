"""``karnak serve`` as one process or several: an SQLite file takes one server (a second is
refused, naming the first), several processes need PostgreSQL and a broker (each wrong
combination refused in one line), ``--workers N`` starts N processes that all answer, and
``karnak db upgrade`` migrates and says what it did.

The refusals and the options given to uvicorn are checked in this process, with uvicorn
replaced by a stand-in; the lock and the workers with real server processes.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.asgi import create_from_environment, worker_environment
from karnak.server.limits import ServerSettings
from karnak.server.mail.settings import MailSettings
from karnak.server.proxy import ProxyHeadersMiddleware
from support.postgres import POSTGRES, postgres_database
from support.redis_server import running_redis

#: The variables the cluster options read, unset (the tests' own environment must not leak in).
CLUSTER_ENV = ["KARNAK_BROKER_URL", "KARNAK_FORWARDED_ALLOW_IPS", "KARNAK_DATABASE_URL"]
#: What the workers are told through the environment (karnak.server.asgi).
WORKER_ENV = [
    "KARNAK_DATABASE_URL",
    "KARNAK_BROKER_URL",
    "KARNAK_BOT_WORKERS",
    "KARNAK_SERVER_SETTINGS",
    "KARNAK_MAIL_SETTINGS",
]
#: A PostgreSQL URL that is never connected to: the refusals come before the database.
#: The ``karnak`` command, run by this Python.
KARNAK = [sys.executable, "-c", "from karnak.cli.main import app; app()"]
NOWHERE = "postgresql+psycopg://karnak:secret@db.invalid/karnak"
BROKER = "redis://127.0.0.1:6379/0"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def invoke(*arguments: str, env: dict[str, str] | None = None) -> Any:
    environment: dict[str, str | None] = {"COLUMNS": "200", **dict.fromkeys(CLUSTER_ENV)}
    environment.update(env or {})
    return CliRunner(env=environment).invoke(app, list(arguments))


def one_line_error(result: Any, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


@pytest.fixture
def uvicorn_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """uvicorn.run replaced: what it was asked to serve, and how. The variables a run with
    workers sets are put back afterwards."""
    for name in WORKER_ENV:
        monkeypatch.setenv(name, "")
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: calls.append((app, options)))
    return calls


# ---------------------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--workers", "0"], "--workers must be between 1 and 64, not 0"),
        (["--workers", "65"], "--workers must be between 1 and 64, not 65"),
        (["--workers", "2", "--broker", BROKER], "--workers 2 needs PostgreSQL"),
        (["--broker", BROKER], "--broker needs PostgreSQL"),
        (["--broker", "http://127.0.0.1:6379"], "--broker must be a Redis URL"),
        (["--broker", "redis://:hunter2@"], "--broker must be a Redis URL"),
        (["--forwarded-allow-ips", "balancer"], "'balancer' is not an IP address or network"),
    ],
)
def test_wrong_process_options_are_refused_on_sqlite(
    uvicorn_calls: list[Any], tmp_path: Path, options: list[str], said: str
) -> None:
    result = invoke(
        "serve", "--port", str(free_port()), "--database", str(tmp_path / "k"), *options
    )
    line = one_line_error(result)
    assert said in line
    if "PostgreSQL" in said:
        assert "postgresql+psycopg://" in line  # says how to name one
    assert "hunter2" not in result.output  # a broker's password is never shown
    assert not uvicorn_calls
    assert not (tmp_path / "k").exists()  # refused before the database was touched


def test_several_workers_need_a_broker(uvicorn_calls: list[Any]) -> None:
    result = invoke("serve", "--port", str(free_port()), "--database", NOWHERE, "--workers", "3")
    line = one_line_error(result)
    assert "--workers 3 needs --broker redis://" in line and "live updates" in line
    assert "secret" not in result.output
    assert not uvicorn_calls


def test_the_broker_comes_from_the_environment_too(
    uvicorn_calls: list[Any], tmp_path: Path
) -> None:
    result = invoke(
        "serve",
        "--database",
        str(tmp_path / "k"),
        env={"KARNAK_BROKER_URL": "amqp://rabbit.example.org"},
    )
    assert "--broker must be a Redis URL" in one_line_error(result)


# ---------------------------------------------------------------------------- uvicorn's options


def test_one_process_by_default_trusting_no_forwarded_header(
    uvicorn_calls: list[tuple[Any, dict[str, Any]]], tmp_path: Path
) -> None:
    result = invoke("serve", "--port", str(free_port()), "--database", str(tmp_path / "k"))
    assert result.exit_code == 0, result.output
    [(served, options)] = uvicorn_calls
    assert not isinstance(served, str)  # the application itself, built here
    assert options["workers"] == 1
    # uvicorn's own proxy headers stay off whatever is given (it would trust this machine)
    assert options["proxy_headers"] is False
    assert not any(m.cls is ProxyHeadersMiddleware for m in served.user_middleware)
    assert options["timeout_graceful_shutdown"] > 0


@pytest.mark.parametrize("given", ["option", "environment"])
def test_a_load_balancers_addresses_are_trusted_when_given(
    uvicorn_calls: list[tuple[Any, dict[str, Any]]], tmp_path: Path, given: str
) -> None:
    ips = "10.0.0.5, 10.1.0.0/16"
    command = ["serve", "--port", str(free_port()), "--database", str(tmp_path / "k")]
    if given == "option":
        result = invoke(*command, "--forwarded-allow-ips", ips)
    else:
        result = invoke(*command, env={"KARNAK_FORWARDED_ALLOW_IPS": ips})
    assert result.exit_code == 0, result.output
    [(served, options)] = uvicorn_calls
    assert options["proxy_headers"] is False  # Karnak's middleware reads the header instead
    [added] = [m for m in served.user_middleware if m.cls is ProxyHeadersMiddleware]
    trusted = added.kwargs["trusted"]
    assert "10.0.0.5" in trusted and "10.1.200.3" in trusted
    assert "127.0.0.1" not in trusted and "10.0.0.6" not in trusted
    assert added.kwargs["header"] == "x-forwarded-for"


def test_each_worker_builds_the_server_the_options_describe(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The workers build their app from the environment: the same settings and e-mail, the
    SMTP password read from its own variable (never written into another)."""
    settings = replace(ServerSettings(), max_think=2.5, moves_per_minute=77)
    mail = MailSettings(
        host="smtp.example.org",
        port=587,
        security="starttls",
        user="karnak",
        password="hunter2",
        sender="karnak@example.org",
        public_url="https://karnak.example.org",
        daily_hour=6,
    )
    database = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    environment = worker_environment(
        database=database, broker=None, bot_workers=0, settings=settings, mail=mail
    )
    assert "hunter2" not in str(environment)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("KARNAK_SMTP_PASSWORD", "hunter2")
    built = create_from_environment()
    assert built.state.settings == settings
    assert built.state.mail_settings == mail


# ---------------------------------------------------------------------------- db upgrade


def test_db_upgrade_on_a_new_sqlite_file(tmp_path: Path) -> None:
    database = tmp_path / "k.sqlite3"
    first = invoke("db", "upgrade", "--database", str(database))
    assert first.exit_code == 0, first.output
    assert first.output.startswith(f"sqlite:///{database}: created the schema, at revision ")
    again = invoke("db", "upgrade", "--database", str(database))
    assert again.exit_code == 0, again.output
    assert "already at the newest schema" in again.output


# ---------------------------------------------------------------------------- real servers


def serve(database: str, port: int, log: Path, *options: str) -> subprocess.Popen[bytes]:
    """``karnak serve`` in a process of its own, its bots in threads (no worker processes)."""
    environment = {k: v for k, v in os.environ.items() if k not in CLUSTER_ENV + WORKER_ENV}
    with log.open("ab") as out:
        return subprocess.Popen(
            [
                *KARNAK,
                "serve",
                "--port",
                str(port),
                "--database",
                database,
                "--bot-workers",
                "0",
                *options,
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=environment,
        )


def wait_up(port: int, server: subprocess.Popen[bytes], log: Path) -> None:
    end = time.monotonic() + 60
    while True:
        assert server.poll() is None, f"the server stopped: {log.read_text()}"
        with contextlib.suppress(httpx.TransportError):
            if answers(port):
                return
        assert time.monotonic() < end, f"the server did not start: {log.read_text()}"
        time.sleep(0.1)


def answers(port: int) -> bool:
    """Whether a request on a new connection is answered."""
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
        return client.get("/api/games").status_code == 200


def stop(server: subprocess.Popen[bytes]) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=10)


def test_a_second_server_on_a_served_sqlite_file_is_refused(
    uvicorn_calls: list[tuple[Any, dict[str, Any]]], tmp_path: Path
) -> None:
    """The first server is a real process (the one to kill); the others run here, with
    uvicorn's stand-in (a start takes seconds of imports, and the lock is the same)."""
    database = str(tmp_path / "karnak.sqlite3")
    log = tmp_path / "server.log"
    port = free_port()
    first = serve(database, port, log)
    try:
        wait_up(port, first, log)
        second = invoke("serve", "--port", str(free_port()), "--database", database)
        line = one_line_error(second, code=1)
        assert f"pid {first.pid} on {socket.gethostname()}, started " in line
        assert "PostgreSQL" in line and "--broker" in line
        assert not uvicorn_calls
        # a migration would change the file under the running server: refused the same way
        upgrade = invoke("db", "upgrade", "--database", database)
        assert f"pid {first.pid}" in one_line_error(upgrade, code=1)

        first.send_signal(signal.SIGKILL)  # no chance to clean anything up
        first.wait(timeout=10)
        assert Path(database + ".lock").read_text().startswith(f"pid {first.pid}\n")
        after = invoke("serve", "--port", str(free_port()), "--database", database)
        assert after.exit_code == 0, after.output  # the file left behind blocks nobody
        assert len(uvicorn_calls) == 1
        assert Path(database + ".lock").read_text() == ""  # given back when it stopped
    finally:
        if first.poll() is None:
            first.kill()
            first.wait(timeout=10)


@pytest.fixture
def database_and_broker(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A PostgreSQL database and a Redis server (on a free port, keeping nothing on disk) of
    this test's own: their URLs."""
    if not POSTGRES:
        pytest.skip("no PostgreSQL to test against: set KARNAK_TEST_POSTGRES_URL")
    with postgres_database() as database, running_redis(tmp_path) as redis:
        yield database, redis.url


def worker_processes(pid: int) -> list[int]:
    """The uvicorn workers below ``pid`` (its other child is multiprocessing's resource
    tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            command = (entry / "cmdline").read_bytes()
        except (OSError, ValueError, IndexError):
            continue
        if parent == pid and b"spawn_main" in command:
            found.append(int(entry.name))
    return sorted(found)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_workers_start_that_many_processes_which_all_answer(
    tmp_path: Path, database_and_broker: tuple[str, str]
) -> None:
    database, broker = database_and_broker
    port = free_port()
    log = tmp_path / "server.log"
    server = serve(database, port, log, "--workers", "2", "--broker", broker)
    workers: list[int] = []
    try:
        wait_up(port, server, log)
        end = time.monotonic() + 30
        while len(workers := worker_processes(server.pid)) < 2:
            assert time.monotonic() < end, f"workers: {workers}; {log.read_text()}"
            time.sleep(0.1)
        assert len(workers) == 2
        # Each worker alone: the other is paused (SIGSTOP), so only this one can take the
        # new connection. A pause stays well under uvicorn's 5 s health check.
        for answering in workers:
            paused = [pid for pid in workers if pid != answering]
            for pid in paused:
                os.kill(pid, signal.SIGSTOP)
            try:
                assert answers(port), f"worker {answering} did not answer"
            finally:
                for pid in paused:
                    os.kill(pid, signal.SIGCONT)
        assert worker_processes(server.pid) == workers  # none was replaced
        banner = log.read_text()
        assert "Processes: 2 here, sharing live updates through redis://127.0.0.1:" in banner
    finally:
        for pid in workers:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGCONT)
        stop(server)
    assert server.returncode is not None
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]

"""``/healthz`` (alive) and ``/readyz`` (can serve: the database answers, its schema is this
code's, the stored games are loaded) (karnak.server.observability.health)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from karnak.server.app import create_app
from karnak.server.db import MIGRATIONS
from karnak.server.limits import ServerSettings
from karnak.server.observability import health
from karnak.server.store import GameStore

from .conftest import create, humans, wait_for


def ready(client: TestClient) -> tuple[int, dict[str, Any]]:
    answer = client.get("/readyz")
    assert answer.headers["content-type"] == "application/json"
    body: dict[str, Any] = answer.json()
    return answer.status_code, body


def wait_ready(client: TestClient) -> dict[str, Any]:
    wait_for(lambda: ready(client)[0] == 200, timeout=30)
    return ready(client)[1]


@pytest.fixture
def started(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0)) as client:
        yield client


def test_healthz_needs_nothing_but_the_process(tmp_path: Path) -> None:
    # not started: no database opened, no game loaded, yet alive
    client = TestClient(create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}"))
    answer = client.get("/healthz")
    assert answer.status_code == 200 and answer.json() == {"status": "ok"}
    assert not (tmp_path / "k.sqlite3").exists()
    status, body = ready(client)
    assert status == 503 and body["status"] == "not ready"
    assert set(body["failed"]) == {"database", "migrations", "games"}
    assert body["checks"]["database"] == "the server is starting"


def test_ready_once_started(started: TestClient) -> None:
    body = wait_ready(started)
    assert body == {
        "status": "ready",
        "checks": {"database": "ok", "migrations": "ok", "games": "ok"},
    }
    assert started.get("/readyz").headers["cache-control"] == "no-store"


def test_not_ready_when_the_database_is_behind_this_code(
    started: TestClient, database: str
) -> None:
    wait_ready(started)
    [head] = ScriptDirectory(str(MIGRATIONS)).get_heads()
    previous = ScriptDirectory(str(MIGRATIONS)).get_revision(head).down_revision
    assert isinstance(previous, str)
    engine = create_engine(database)
    try:
        # the database says it is one migration behind (as one made by the release before)
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": previous})
        status, body = ready(started)
        assert status == 503 and body["failed"] == ["migrations"]
        assert body["checks"]["migrations"] == (
            f"the database is at {previous}, this code needs {head}"
        )
        assert started.get("/healthz").status_code == 200  # alive all the same
        with engine.begin() as connection:
            connection.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": head})
        assert ready(started)[0] == 200
    finally:
        engine.dispose()


def test_not_ready_while_the_stored_games_load(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        create(client, humans(3))
    release = threading.Event()
    load_many = GameStore.load_many

    def slow_load(self: GameStore, ids: list[str]) -> Any:
        release.wait(30)
        return load_many(self, ids)

    monkeypatch.setattr(GameStore, "load_many", slow_load)
    with TestClient(create_app(database, bot_workers=0)) as client:
        try:
            status, body = ready(client)
            assert status == 503 and body["failed"] == ["games"]
            assert body["checks"]["games"] == "the running games are still loading"
            assert body["checks"]["database"] == "ok"  # its own thread: not held up
        finally:
            release.set()
        wait_ready(client)


def test_not_ready_when_the_database_does_not_answer(started: TestClient, tmp_path: Path) -> None:
    wait_ready(started)
    readiness = started.app.state.readiness  # type: ignore[attr-defined]
    kept = readiness.engine
    secret_place = tmp_path / "no-such-folder" / "secret-name.sqlite3"
    readiness.engine = create_engine(f"sqlite:///{secret_place}")
    try:
        status, body = ready(started)
    finally:
        readiness.engine.dispose()
        readiness.engine = kept
    assert status == 503 and body["failed"] == ["database", "migrations"]
    assert body["checks"]["database"] == "no answer (OperationalError)"
    assert "secret-name" not in str(body) and str(tmp_path) not in str(body)
    assert ready(started)[0] == 200


def test_a_database_that_hangs_is_asked_once_at_a_time(
    started: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    wait_ready(started)
    release = threading.Event()
    calls = []

    def hanging(engine: Any) -> frozenset[str]:
        calls.append(engine)
        release.wait(10)
        return health.code_heads()

    monkeypatch.setattr(health, "database_heads", hanging)
    monkeypatch.setattr(health, "READY_TIMEOUT", 0.2)
    try:
        for _ in range(3):
            began = time.monotonic()
            status, body = ready(started)
            assert time.monotonic() - began < 5
            assert status == 503 and body["checks"]["database"] == "no answer within 0.2 s"
        assert len(calls) == 1  # the probes waited for the one check still running
    finally:
        release.set()
    wait_for(lambda: ready(started)[0] == 200)
    # the check that hung answers the probe waiting on it when released, or a new one does
    assert len(calls) in (1, 2)


def test_health_checks_are_not_rate_limited(tmp_path: Path) -> None:
    settings = ServerSettings(
        creates_per_minute=1, moves_per_minute=1, account_attempts_per_minute=1
    )
    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", bot_workers=0, settings=settings)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        wait_ready(client)
        for _ in range(30):
            assert client.get("/healthz").status_code == 200
            assert client.get("/readyz").status_code == 200
            assert client.get("/metrics").status_code == 200

"""A server on a fresh SQLite file per test, driven through FastAPI's TestClient."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, make_url, text

import karnak.server.app
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings

#: A PostgreSQL server to test against as well (``.ci/run`` starts one); its role must be
#: allowed to create databases: every test gets a database of its own.
POSTGRES = os.environ.get("KARNAK_TEST_POSTGRES_URL")
#: Without a PostgreSQL server the PostgreSQL half of each test is reported as skipped
#: (with the reason), not silently left out.
BACKENDS = [
    "sqlite",
    pytest.param(
        "postgresql",
        marks=pytest.mark.skipif(
            not POSTGRES,
            reason="no PostgreSQL to test against: set KARNAK_TEST_POSTGRES_URL "
            "(.ci/run starts one)",
        ),
    ),
]


#: Tests are one client that may create dozens of games in seconds; a server built here
#: without settings of its own gets this allowance instead of the default (tests of the
#: rate limits pass their own settings).
TEST_CREATES_PER_MINUTE = 10_000


@pytest.fixture(autouse=True)
def generous_creation_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    def settings(**given: Any) -> ServerSettings:
        return ServerSettings(**{"creates_per_minute": TEST_CREATES_PER_MINUTE, **given})

    monkeypatch.setattr(karnak.server.app, "ServerSettings", settings)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'karnak.sqlite3'}"
        return
    with postgres_database() as url:
        yield url


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped afterwards): its URL."""
    assert POSTGRES is not None
    name = f"karnak_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        drop_database(admin, name)
        admin.dispose()


def drop_database(admin: Any, name: str) -> None:
    """Drop a test's database, ending its connections. A role that is not a superuser cannot
    end an autovacuum worker's connection (InsufficientPrivilege), so a few tries a moment
    apart; a database left behind is only litter on a throwaway server, never a failure."""
    from sqlalchemy.exc import DBAPIError

    for attempt in range(20):
        try:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            return
        except DBAPIError:
            time.sleep(0.1 * (attempt + 1))
    print(f"left the test database {name} behind (it stayed in use)")


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0)) as test_client:
        yield test_client


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "amunre", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def humans(count: int) -> list[dict[str, Any]]:
    return [{"kind": "human"} for _ in range(count)]


def wait_for(check: Callable[[], bool], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the server")
        time.sleep(0.02)

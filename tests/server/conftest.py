"""A server on a database of its own per test, driven through FastAPI's TestClient.

Each test's database is a copy of a template migrated once per process (``templates``,
tests/conftest.py); a test that migrates from nothing is marked
``@pytest.mark.empty_database``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.app
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.postgres import POSTGRES, drop_database, postgres_database
from support.templates import Templates

#: Re-exported: the tests here take them from this module too. ``POSTGRES`` is the
#: PostgreSQL server to test against as well (support.postgres).
__all__ = ["POSTGRES", "drop_database", "postgres_database"]

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


#: Modules whose tests exercise HTTP and socket behaviour, views and limits rather than what
#: is stored: they run on SQLite only (a PostgreSQL run of them repeated the same requests
#: against the same code and doubled the suite's time). Everything that stores, reads back,
#: locks or migrates keeps its PostgreSQL half.
SQLITE_ONLY = frozenset(
    {
        "test_account_defenses.py",
        "test_aton_web.py",
        "test_bot_limits.py",
        "test_departures.py",
        "test_egyptia_web.py",
        "test_forced_moves.py",
        "test_http_limits.py",
        "test_http_security.py",
        "test_length_in_words.py",
        "test_lobby_api.py",
        "test_lobby_cards.py",
        "test_logging.py",
        "test_metrics.py",
        "test_socket_caps.py",
        "test_speeds.py",
    }
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Leave out the PostgreSQL half of the tests of :data:`SQLITE_ONLY` (deselected, so the
    summary counts them)."""
    here = Path(__file__).parent
    kept, left = [], []
    for item in items:
        in_list = item.path.parent == here and item.path.name in SQLITE_ONLY
        (left if in_list and "[postgresql" in item.nodeid else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


#: Tests are one client that may create dozens of games in seconds; a server built here
#: without settings of its own gets this allowance instead of the default (tests of the
#: rate limits pass their own settings), and may hold as many running games as the server
#: (tests of the per-client share, karnak.server.capacity, pass their own settings).
TEST_CREATES_PER_MINUTE = 10_000
GENEROUS = {"creates_per_minute": TEST_CREATES_PER_MINUTE, "running_games_per_client": 100_000}


@pytest.fixture(autouse=True)
def generous_creation_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    def settings(**given: Any) -> ServerSettings:
        return ServerSettings(**{**GENEROUS, **given})

    monkeypatch.setattr(karnak.server.app, "ServerSettings", settings)


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path, templates: Templates) -> Iterator[str]:
    """A database of the test's own on each backend: at the newest schema (a copy of the
    migrated template), or empty for a test marked ``empty_database`` (one that runs the
    migrations itself, from nothing)."""
    empty = request.node.get_closest_marker("empty_database") is not None
    if request.param == "sqlite":
        file = tmp_path / "karnak.sqlite3"
        yield f"sqlite:///{file}" if empty else templates.sqlite(file)
        return
    with postgres_database() if empty else templates.postgres() as url:
        yield url


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

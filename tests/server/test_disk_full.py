"""A full disk answers 503 naming the cause, never a bare 500, and a move that could not be
saved is not applied (karnak.server.disk).

SQLite is filled for real: ``PRAGMA max_page_count`` on every connection of the server's
engine stops the file from growing, as a full disk would, and SQLite answers "database or
disk is full" (SQLITE_FULL). PostgreSQL's DiskFull and the system's ENOSPC are checked
through the one mapping."""

from __future__ import annotations

import asyncio
import errno
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg.errors
import pytest
import sqlalchemy.exc
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event

from karnak.server.app import create_app
from karnak.server.disk import DISK_FULL, DiskFullError, is_disk_full
from karnak.server.errors import as_api_error, server_error
from karnak.server.limits import ServerSettings
from karnak.server.service import GameService

from .conftest import humans

SETTINGS = ServerSettings(
    creates_per_minute=10_000, chat_lines_per_minute=10_000, running_games_per_client=1000
)


def wrapped(error: BaseException) -> sqlalchemy.exc.OperationalError:
    """``error`` as SQLAlchemy raises a driver's error."""
    return sqlalchemy.exc.OperationalError("INSERT INTO actions ...", {}, error)  # type: ignore[arg-type]


def sqlite_full() -> sqlite3.OperationalError:
    error = sqlite3.OperationalError("database or disk is full")
    error.sqlite_errorcode = 13  # type: ignore[attr-defined]
    return error


FULL = [
    sqlite_full(),
    sqlite3.OperationalError("database or disk is full"),  # no code (older Pythons)
    wrapped(sqlite_full()),
    psycopg.errors.DiskFull("could not extend file: No space left on device"),
    wrapped(psycopg.errors.DiskFull("could not extend file")),
    OSError(errno.ENOSPC, "No space left on device"),
    OSError(errno.EDQUOT, "Disk quota exceeded"),
    DiskFullError(),
]
NOT_FULL = [
    sqlite3.OperationalError("database is locked"),
    wrapped(sqlite3.OperationalError("no such table: games")),
    psycopg.errors.OutOfMemory("out of memory"),
    OSError(errno.EACCES, "Permission denied"),
    ValueError("database or disk is full"),  # not a database's error
]


@pytest.mark.parametrize("error", FULL, ids=lambda e: type(e).__name__)
def test_every_form_of_a_full_disk_is_a_503_naming_it(error: BaseException) -> None:
    assert is_disk_full(error)
    answer = as_api_error(error)  # type: ignore[arg-type]
    assert answer.status == 503 and answer.message == DISK_FULL
    assert "disk is full" in DISK_FULL and "not saved" in DISK_FULL
    assert answer.retry_after is not None and answer.retry_after > 0
    # raised from something else (a rollback that failed after it): still the cause
    try:
        try:
            raise error
        except BaseException as inner:
            raise RuntimeError("the rollback failed too") from inner
    except RuntimeError as outer:
        assert is_disk_full(outer)


@pytest.mark.parametrize("error", NOT_FULL, ids=lambda e: f"{type(e).__name__}: {e}")
def test_other_errors_are_not_taken_for_a_full_disk(error: BaseException) -> None:
    assert not is_disk_full(error)


def test_the_catch_all_handler_answers_a_full_disk_with_503() -> None:
    """A full disk met by a module that calls the database itself (not through the game
    service) reaches the app's last handler as the driver raised it."""
    answer = asyncio.run(server_error(None, wrapped(sqlite_full())))  # type: ignore[arg-type]
    assert answer.status_code == 503 and b"disk is full" in answer.body
    assert int(answer.headers["Retry-After"]) > 0
    assert "content-security-policy" in answer.headers
    bug = asyncio.run(server_error(None, ValueError("a bug")))  # type: ignore[arg-type]
    assert bug.status_code == 500


#: SQLite's largest max_page_count (it clamps any larger value): no limit.
NO_LIMIT = 0xFFFFFFFE


@contextmanager
def disk_full(engine: Engine) -> Iterator[None]:
    """The database cannot grow past its size now: each connection is limited as it is
    taken from the pool (the setting is the connection's), and set free again after."""
    with engine.connect() as connection:
        pages = [connection.exec_driver_sql("PRAGMA page_count").scalar_one()]

    def limit(connection: Any, _record: Any, _proxy: Any) -> None:
        connection.execute(f"PRAGMA max_page_count = {pages[0]}")

    event.listen(engine, "checkout", limit)
    try:
        yield
    finally:
        pages[0] = NO_LIMIT  # connections taken until the listener goes are set free
        with engine.connect():
            pass
        event.remove(engine, "checkout", limit)
        engine.dispose()  # and any other connection is opened anew, without the limit


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def next_move(client: TestClient, game: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The token of the seat to move and its move (the first legal one)."""
    mover = client.get(f"/api/games/{game['id']}").json()["to_move"][0]
    token: str = game["seats"][mover]["token"]
    mine = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
    return token, {"version": mine["version"], "action": mine["legal"][0]["action"]}


def test_a_move_on_a_full_disk_is_refused_and_not_applied(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'full.sqlite3'}"
    with TestClient(create_app(database, bot_workers=0, settings=SETTINGS)) as client:
        service = service_of(client)
        game = client.post("/api/games", json={"seats": humans(3), "seed": 4}).json()
        room = service.rooms[game["id"]]
        refused = None
        with disk_full(service.store.engine):
            for _ in range(400):
                token, move = next_move(client, game)
                before = (room.version, len(room.accepted), room.state.clone())
                answer = client.post(
                    f"/api/games/{game['id']}/actions", params={"token": token}, json=move
                )
                if answer.status_code != 200:
                    refused = answer
                    break
            assert refused is not None, "the database never filled up"
            assert refused.status_code == 503, refused.text
            assert refused.json()["error"] == DISK_FULL
            assert int(refused.headers["Retry-After"]) > 0
            # nothing changed in memory, and memory agrees with the database
            assert (room.version, len(room.accepted)) == before[:2]
            assert room.state.to_json() == before[2].to_json()
            assert service.store.load(game["id"]).version == room.version
        # space again: the same move is played
        again = client.post(f"/api/games/{game['id']}/actions", params={"token": token}, json=move)
        assert again.status_code == 200, again.text


def test_creating_on_a_full_disk_is_refused_and_leaves_nothing(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'full.sqlite3'}"
    with TestClient(create_app(database, bot_workers=0, settings=SETTINGS)) as client:
        service = service_of(client)
        with disk_full(service.store.engine):
            made = 0
            for _ in range(400):
                answer = client.post("/api/games", json={"seats": humans(3)})
                if answer.status_code != 201:
                    break
                made += 1
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"] == DISK_FULL
            assert service.running == made == len(service.rooms)
        listed = client.get("/api/games").json()
        assert len(listed) == made


def test_a_full_disk_outside_the_game_service_is_a_503_too(tmp_path: Path) -> None:
    """Chat lines are written by the chat's own store: the driver's error reaches the app's
    last handler, which names the cause instead of a bare 500."""
    database = f"sqlite:///{tmp_path / 'full.sqlite3'}"
    app = create_app(database, bot_workers=0, settings=SETTINGS)
    with TestClient(app, raise_server_exceptions=False) as client:
        game = client.post("/api/games", json={"seats": humans(3)}).json()
        token = game["seats"][0]["token"]
        with disk_full(service_of(client).store.engine):
            for number in range(400):  # a few dozen fill this database
                answer = client.post(
                    f"/api/games/{game['id']}/chat",
                    params={"token": token},
                    json={"text": f"line {number} " + "x" * 180},
                )
                if answer.status_code != 201:
                    break
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"] == DISK_FULL

"""Every released schema upgrades to today's and serves: a database made by each commit that
changed the migrations (tests/fixtures/databases, made by that commit's own code) is copied,
upgraded through :func:`karnak.server.db.migrate`, and served: its games load and one takes a
legal move, the tables list answers and a new table opens, its accounts log in, and its
schema is the one a new database gets. A released migration edited in place (as 0005_tables
was in ea8131c) leaves some database of this matrix short of a column, and fails here.

On PostgreSQL (when ``KARNAK_TEST_POSTGRES_URL`` is set) the same repair is checked on a
schema in cef860d's state: today's migrations up to 0011_cluster, without the two columns
that ea8131c added to 0005_tables afterwards.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, inspect, text

from karnak.server.app import create_app
from karnak.server.db import make_engine, migrate, run_migrations
from karnak.server.limits import ServerSettings

from .conftest import POSTGRES, humans, postgres_database

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"
MANIFEST: list[dict[str, Any]] = json.loads((FIXTURES / "fixtures.json").read_text())
STORED = [entry for entry in MANIFEST if entry["file"]]
#: The newest released schema, and the two columns 0005_tables gained after its release.
RELEASED = "0011_cluster"
REPAIRED = {"time_per_move", "time_bank"}


def served_settings() -> ServerSettings:
    """The fixtures' games were last played when the fixtures were made: a server must not
    end them as idle before the test plays on (that is karnak.server.expiry's business)."""
    return ServerSettings(creates_per_minute=10_000, idle_game_expiry_days=0)


def schema(engine: Engine) -> dict[str, tuple[set[str], set[str]]]:
    """Each table's column names and index names."""
    found = inspect(engine)
    return {
        table: (
            {column["name"] for column in found.get_columns(table)},
            {index["name"] or "" for index in found.get_indexes(table)},
        )
        for table in found.get_table_names()
    }


def test_the_matrix_holds_a_database_of_the_newest_release() -> None:
    """A release adds its database here (make_fixtures.py): the newest one reaches it."""
    assert STORED[-1]["heads"] == [RELEASED]
    assert {entry["commit"] for entry in STORED} >= {"cef860d", "ea8131c"}
    for entry in STORED:
        assert (FIXTURES / entry["file"]).stat().st_size < 100_000  # kept small


@pytest.mark.parametrize("entry", STORED, ids=[entry["file"][:-8] for entry in STORED])
def test_a_database_of_every_release_upgrades_and_serves(
    entry: dict[str, Any], tmp_path: Path
) -> None:
    path = tmp_path / "karnak.sqlite3"
    shutil.copyfile(FIXTURES / entry["file"], path)
    url = f"sqlite:///{path}"
    engine = make_engine(url)
    migration = migrate(engine)
    assert migration.before == tuple(entry["heads"])
    upgraded = schema(engine)
    engine.dispose()
    fresh = make_engine(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    migrate(fresh)
    assert migration.after == migrate(fresh).after  # today's head
    assert upgraded == schema(fresh)
    fresh.dispose()

    with TestClient(create_app(url, bot_workers=0, settings=served_settings())) as client:
        for game in entry["games"]:
            seen = client.get(f"/api/games/{game['id']}", params={"token": game["tokens"][0]})
            assert seen.status_code == 200, seen.text
            assert seen.json()["status"] == "running"
        plays_on(client, entry["games"][0])
        serves_tables(client)
        for account in entry["accounts"]:
            client.cookies.clear()
            logged = client.post("/api/account/login", json=account)
            assert logged.status_code == 200, logged.text


def plays_on(client: TestClient, game: dict[str, Any]) -> None:
    """A seat to move takes its first legal move, and the game goes one version on."""
    for token in game["tokens"]:
        view = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
        if view["legal"]:
            move = client.post(
                f"/api/games/{game['id']}/actions",
                params={"token": token},
                json={"version": view["version"], "action": view["legal"][0]["text"]},
            )
            assert move.status_code == 200, move.text
            assert move.json()["version"] > view["version"]
            return
    raise AssertionError(f"nobody can move in {game['id']}")


def serves_tables(client: TestClient) -> None:
    client.cookies.clear()
    listed = client.get("/api/tables")
    assert listed.status_code == 200, listed.text
    opened = client.post(
        "/api/tables",
        json={
            "game": "amunre",
            "seats": [{"kind": "human", "name": "Ana"}, *[{"kind": "open"}] * 2],
        },
    )
    assert opened.status_code == 201, opened.text
    table = opened.json()["table"]["id"]
    assert table in {t["id"] for t in client.get("/api/tables").json()}


@pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL: set KARNAK_TEST_POSTGRES_URL")
@pytest.mark.parametrize("edited", [True, False], ids=["cef860d-state", "ea8131c-state"])
def test_a_postgresql_database_of_the_edited_migration_is_repaired(edited: bool) -> None:
    """cef860d's schema on PostgreSQL: 0011_cluster reached while 0005_tables lacked the two
    columns (imitated by dropping them); the upgrade adds them, and leaves a database that
    has them as it was."""
    with postgres_database() as url:
        engine = make_engine(url)
        run_migrations(engine, "upgrade", RELEASED)
        if edited:
            with engine.begin() as connection:
                for column in sorted(REPAIRED):
                    connection.execute(text(f"ALTER TABLE game_tables DROP COLUMN {column}"))
        migrate(engine)
        columns = {column["name"] for column in inspect(engine).get_columns("game_tables")}
        assert columns >= REPAIRED
        engine.dispose()
        with TestClient(create_app(url, bot_workers=0, settings=served_settings())) as client:
            created = client.post("/api/games", json={"game": "amunre", "seats": humans(3)})
            assert created.status_code == 201
            serves_tables(client)

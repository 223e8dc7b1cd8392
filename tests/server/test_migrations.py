"""Schema migrations keep existing games: upgrading a database of an older schema (on SQLite
and PostgreSQL) leaves every game loadable, with its moves, and fills the new columns."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from karnak.server.app import create_app
from karnak.server.db import make_engine, migrate, run_migrations

from .conftest import create, humans

#: These tests migrate for real, from an empty database (not the others' migrated copy).
pytestmark = pytest.mark.empty_database

#: The newest revision (one head: see the test below).
HEAD = "0023_tournament_options"


def test_a_database_of_the_first_schema_upgrades_with_its_games(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        amunre = create(client, humans(3), seed=2)
        egyptia = client.post(
            "/api/games", json={"game": "egyptia", "seats": humans(2), "seed": 5}
        ).json()
        tokens = [s["token"] for s in egyptia["seats"]]
        for seat, move in ((0, "choose grain"), (1, "choose stone"), (0, "ship 1")):
            mine = client.get(f"/api/games/{egyptia['id']}", params={"token": tokens[seat]})
            client.post(
                f"/api/games/{egyptia['id']}/actions",
                params={"token": tokens[seat]},
                json={"version": mine.json()["version"], "action": move},
            )
        views: dict[str, Any] = {
            g["id"]: client.get(f"/api/games/{g['id']}").json() for g in (amunre, egyptia)
        }
    engine = make_engine(database)
    run_migrations(engine, "downgrade", "0001")  # the database as the first release left it
    assert "public_version" not in {c["name"] for c in inspect(engine).get_columns("games")}
    migrate(engine)
    with engine.connect() as connection:
        rows = dict(connection.execute(text("SELECT id, public_version FROM games")).all())
    assert rows[egyptia["id"]] == 3  # taken as public until the game is loaded again
    engine.dispose()
    with TestClient(create_app(database, bot_workers=0)) as client:
        for game_id, before in views.items():
            assert client.get(f"/api/games/{game_id}").json() == before
        listed = {g["id"]: g["version"] for g in client.get("/api/games").json()}
        assert listed[egyptia["id"]] == views[egyptia["id"]]["version"] == 2  # the ship is private
    engine = make_engine(database)
    with engine.connect() as connection:
        rows = dict(connection.execute(text("SELECT id, public_version FROM games")).all())
    assert rows[egyptia["id"]] == 2  # written back once the game was rebuilt
    engine.dispose()


def test_the_history_has_one_head_and_every_revision_is_reached_from_it() -> None:
    """Modules may add their tables on branches of their own, but a merge joins them before a
    release: a second head would leave the next migration without one parent."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from karnak.server.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    scripts = ScriptDirectory.from_config(config)
    assert scripts.get_heads() == [HEAD]
    below = {r.revision for r in scripts.walk_revisions("base", HEAD)}
    assert below == {r.revision for r in scripts.walk_revisions()}


def test_the_newest_schema_goes_down_to_the_first_and_up_again(database: str) -> None:
    """Every module's downgrade works (through the merge point) and the upgrade after it
    gives the same tables as a fresh database."""
    engine = make_engine(database)
    migrate(engine)
    fresh = set(inspect(engine).get_table_names())
    run_migrations(engine, "downgrade", "0001")
    assert set(inspect(engine).get_table_names()) < fresh
    migrate(engine)
    assert set(inspect(engine).get_table_names()) == fresh
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == [
            (HEAD,)
        ]
    engine.dispose()

"""The tests' own databases (the ``database`` fixture, support.templates): each starts at the
newest schema, exactly as a migration from nothing leaves it, with nothing left to migrate
and no rows; copies are independent; PostgreSQL's database, emptied for the next test, comes
back with no rows and its sequences from 1, and is replaced when a test changed its schema
or left a session on it; a test marked ``empty_database`` starts empty."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, create_engine, inspect, make_url, text

from karnak.server.db import make_engine, migrate, schema_state
from support.templates import Templates

from .conftest import POSTGRES, postgres_database


def shape(engine: Engine) -> dict[str, Any]:
    """Every table's columns (type, nullability), indexes, unique and foreign keys."""
    found = inspect(engine)
    return {
        table: (
            sorted((c["name"], str(c["type"]), c["nullable"]) for c in found.get_columns(table)),
            sorted(
                (i["name"] or "", tuple(i["column_names"]), bool(i["unique"]))
                for i in found.get_indexes(table)
            ),
            sorted(tuple(u["column_names"]) for u in found.get_unique_constraints(table)),
            sorted(
                (tuple(f["constrained_columns"]), f["referred_table"], str(f["options"]))
                for f in found.get_foreign_keys(table)
            ),
        )
        for table in found.get_table_names()
    }


@contextlib.contextmanager
def fresh_like(database: str, folder: Path) -> Iterator[Engine]:
    """A new database of the same kind as ``database``, migrated from nothing."""
    with contextlib.ExitStack() as stack:
        if database.startswith("sqlite"):
            url = f"sqlite:///{folder / 'fresh.sqlite3'}"
        else:
            url = stack.enter_context(postgres_database())
        engine = make_engine(url)
        stack.callback(engine.dispose)
        migrate(engine)
        yield engine


def rows(engine: Engine) -> dict[str, int]:
    """How many rows each table other than Alembic's holds."""
    with engine.connect() as connection:
        return {
            table: connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one()
            for table in inspect(engine).get_table_names()
            if table != "alembic_version"
        }


def test_a_tests_database_is_a_fresh_migration_without_migrating(
    database: str, tmp_path: Path
) -> None:
    engine = make_engine(database)
    try:
        with engine.connect() as connection:
            state = schema_state(connection)
        assert state.current == state.heads and not state.pending
        copied = shape(engine)
        assert {"games", "seats", "actions", "accounts", "game_tables"} <= set(copied)
        assert set(rows(engine).values()) == {0}
        with fresh_like(database, tmp_path) as fresh:
            assert copied == shape(fresh)
        again = migrate(engine)  # a server starting on it has nothing to do
        assert again.steps == () and again.before == again.after == state.heads
    finally:
        engine.dispose()


@pytest.mark.empty_database
def test_a_test_marked_empty_database_gets_an_empty_one(database: str) -> None:
    engine = make_engine(database)
    try:
        assert inspect(engine).get_table_names() == []
        with engine.connect() as connection:
            assert schema_state(connection).current == ()
    finally:
        engine.dispose()


def test_copies_of_the_template_are_independent(templates: Templates, tmp_path: Path) -> None:
    one = make_engine(templates.sqlite(tmp_path / "one.sqlite3"))
    with one.begin() as connection:
        connection.execute(
            text(
                "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                "VALUES ('Ana', 'ana', 'x', CURRENT_TIMESTAMP)"
            )
        )
    one.dispose()
    two = make_engine(templates.sqlite(tmp_path / "two.sqlite3"))
    try:
        assert rows(two)["accounts"] == 0  # neither the template nor the next copy changed
    finally:
        two.dispose()


def add_account(engine: Engine, name: str) -> int:
    with engine.begin() as connection:
        added: int = connection.execute(
            text(
                "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                "VALUES (:name, :key, 'x', CURRENT_TIMESTAMP) RETURNING id"
            ),
            {"name": name, "key": name.casefold()},
        ).scalar_one()
    return added


@pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL to test against")
def test_postgresql_databases_come_back_empty_or_are_replaced(tmp_path: Path) -> None:
    templates = Templates(tmp_path)
    try:
        with templates.postgres() as url:
            engine = make_engine(url)
            fresh = shape(engine)
            assert [add_account(engine, n) for n in ("Ana", "Bes")] == [1, 2]
            engine.dispose()
        assert (templates.emptied, templates.replaced) == (1, 0)
        with templates.postgres() as again:
            assert again == url  # the same database, emptied
            engine = make_engine(again)
            assert set(rows(engine).values()) == {0}
            assert add_account(engine, "Ka") == 1  # its sequences restarted
            with engine.begin() as connection:  # a test that changes the schema
                connection.execute(text("ALTER TABLE accounts ADD COLUMN extra integer"))
            engine.dispose()
        assert (templates.emptied, templates.replaced) == (1, 1)
        with templates.postgres() as third:
            assert third != url  # a new copy of the template
            engine = make_engine(third)
            assert shape(engine) == fresh and set(rows(engine).values()) == {0}
            add_account(engine, "Ana")
            with templates.postgres() as inner:  # asked for twice at once: two databases
                assert inner != third
            left_open = engine.connect()  # a session left on it: not reused
        assert (templates.emptied, templates.replaced) == (1, 2)
        left_open.close()
        engine.dispose()
    finally:
        templates.close()
    admin = create_engine(str(POSTGRES), isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            names = connection.execute(text("SELECT datname FROM pg_database")).scalars().all()
    finally:
        admin.dispose()
    assert not {make_url(u).database for u in (url, third, inner)} & set(names)  # all dropped

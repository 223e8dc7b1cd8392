"""Databases at the newest schema for tests, without migrating each one.

A new database takes every Alembic migration when a server starts on it: about 0.15 s on
SQLite and over a second on PostgreSQL, once per test. Most tests need the schema, not the
migrations (tests/server/test_migrations.py, test_upgrade_matrix.py and the tests of each
migration run them for real, on empty databases). So each test process (each xdist worker)
migrates one template of each kind, the first time a test asks, and every test gets a
database at the newest schema with no rows:

- SQLite: the template's file copied to the test's own file (about 20 ms).
- PostgreSQL: one database of the process's own, a copy of its template
  (``CREATE DATABASE ... TEMPLATE``), emptied after each test for the next one: every row
  deleted and every sequence restarted, in one transaction (a few milliseconds, where making
  a database takes half a second on a busy machine). It is dropped and copied again instead
  when the test left it in any other state: its schema changed (a test of a migration), or
  another session still connected (a server that did not stop, an engine not disposed),
  or the emptying failed. Each process has its own: xdist workers never share one.

A server started on one of these finds the schema current and migrates nothing, as on a
restart::

    templates = Templates(folder)
    url = templates.sqlite(tmp_path / "karnak.sqlite3")
    with templates.postgres() as url:
        ...  # the test's database, emptied (or replaced) afterwards
    templates.close()
"""

from __future__ import annotations

import contextlib
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import Engine, MetaData, create_engine, make_url, text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.pool import NullPool

from karnak.server.db import make_engine, migrate
from support.postgres import POSTGRES, drop_database

#: One line that changes with anything in the schema (tables, columns, defaults, indexes,
#: constraints) or in Alembic's record of it.
FINGERPRINT = text(
    """
    SELECT md5(concat_ws('|',
      (SELECT string_agg(concat_ws(' ', table_name, column_name, data_type, is_nullable,
                                   column_default), ',' ORDER BY table_name, column_name)
         FROM information_schema.columns WHERE table_schema = 'public'),
      (SELECT string_agg(indexdef, ',' ORDER BY indexdef)
         FROM pg_indexes WHERE schemaname = 'public'),
      (SELECT string_agg(conname || ' ' || pg_get_constraintdef(oid), ',' ORDER BY conname)
         FROM pg_constraint WHERE connamespace = 'public'::regnamespace),
      (SELECT string_agg(version_num, ',' ORDER BY version_num) FROM alembic_version)))
    """
)
#: Other sessions on the current database (none may be left when a test ends).
OTHER_SESSIONS = text(
    "SELECT count(*) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)
SEQUENCES = text("SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")


def migrated(url: str) -> None:
    """Bring the (empty) database at ``url`` to the newest schema, leaving no connection."""
    engine = make_engine(url)
    try:
        migrate(engine, report=lambda _line: None)
    finally:
        engine.dispose()


def postgres_url(name: str) -> str:
    assert POSTGRES is not None
    return make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)


def admin_engine() -> Engine:
    assert POSTGRES is not None
    return create_engine(POSTGRES, isolation_level="AUTOCOMMIT", poolclass=NullPool)


class Templates:
    """The migrated templates of one test process, made on first use (``folder`` holds the
    SQLite one)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._sqlite: Path | None = None
        #: PostgreSQL: the migrated template (never connected to again), what its schema
        #: looks like, the order its tables are emptied in, its sequences, and the database
        #: tests use.
        self._template: str | None = None
        self._fingerprint = ""
        self._tables: list[str] = []
        self._sequences: list[str] = []
        self._current: str | None = None
        self._in_use = False
        #: How often a test's PostgreSQL database was emptied, and replaced.
        self.emptied = self.replaced = 0

    def sqlite(self, file: Path) -> str:
        """A new SQLite database at the newest schema in ``file``: its URL."""
        if self._sqlite is None:
            template = self.folder / "template.sqlite3"
            migrated(f"sqlite:///{template}")
            # the last connection closed: WAL checkpointed into the file, nothing beside it
            assert not template.with_name(template.name + "-wal").exists()
            self._sqlite = template
        shutil.copyfile(self._sqlite, file)
        return f"sqlite:///{file}"

    @contextlib.contextmanager
    def postgres(self) -> Iterator[str]:
        """A PostgreSQL database at the newest schema with no rows, for one test: its URL.
        Needs ``POSTGRES`` (support.postgres). Asked again before the first is given back,
        it makes a copy of the template of that use's own."""
        if self._in_use:
            name = self._copy()
            try:
                yield postgres_url(name)
            finally:
                self._drop(name)
            return
        if self._current is None:
            self._current = self._copy()
        url = postgres_url(self._current)
        self._in_use = True
        try:
            yield url
        finally:
            self._in_use = False
            if self._emptied(url):
                self.emptied += 1
            else:
                self.replaced += 1
                self._drop(self._current)
                self._current = None

    def close(self) -> None:
        """Drop this process's PostgreSQL databases, if any were made (the SQLite template
        is a file in ``folder``, which pytest cleans up)."""
        for name in (self._current, self._template):
            if name is not None:
                self._drop(name)
        self._current = self._template = None

    # ------------------------------------------------------------------ PostgreSQL
    def _copy(self) -> str:
        """A new database copied from the template (made and migrated the first time)."""
        if self._template is None:
            self._template = self._create()
            migrated(postgres_url(self._template))
            engine = create_engine(postgres_url(self._template), poolclass=NullPool)
            try:
                with engine.connect() as connection:
                    self._fingerprint = connection.execute(FINGERPRINT).scalar_one()
                    self._sequences = list(connection.execute(SEQUENCES).scalars())
                found = MetaData()
                found.reflect(engine)
                order = reversed(found.sorted_tables)  # a table before those it refers to
                self._tables = [t.name for t in order if t.name != "alembic_version"]
            finally:
                engine.dispose()
        return self._create(template=self._template)

    def _create(self, template: str | None = None) -> str:
        name = f"karnak_test_{uuid.uuid4().hex[:12]}"
        copy = f' TEMPLATE "{template}"' if template else ""
        admin = admin_engine()
        try:
            with admin.connect() as connection:
                connection.execute(text(f'CREATE DATABASE "{name}"{copy}'))
        finally:
            admin.dispose()
        return name

    def _drop(self, name: str) -> None:
        admin = admin_engine()
        try:
            drop_database(admin, name)
        finally:
            admin.dispose()

    def _emptied(self, url: str) -> bool:
        """Empty the test's database for the next test, if it is as the template left it
        but for its rows and nobody else is connected; False if it was not emptied."""
        engine = create_engine(url, poolclass=NullPool)
        try:
            with engine.begin() as connection:
                connection.exec_driver_sql("SET LOCAL lock_timeout = '2s'")
                if connection.execute(OTHER_SESSIONS).scalar_one():
                    return False
                if connection.execute(FINGERPRINT).scalar_one() != self._fingerprint:
                    return False
                for table in self._tables:
                    connection.exec_driver_sql(f'DELETE FROM "{table}"')
                for sequence in self._sequences:
                    connection.exec_driver_sql(f'ALTER SEQUENCE "{sequence}" RESTART')
            return True
        except SQLAlchemyError:
            return False
        finally:
            engine.dispose()

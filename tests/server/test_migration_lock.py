"""Migrations run once when several processes start together on a new PostgreSQL database.

Each server process migrates at start. Without a lock, processes starting at the same moment
on an empty database each created the same tables, and all but one died on a duplicate key;
under the advisory lock the others wait, then find nothing left to do.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.db import MIGRATION_LOCK, Migration, make_engine, migrate
from support.postgres import POSTGRES, postgres_database

pytestmark = pytest.mark.skipif(
    not POSTGRES,
    reason="no PostgreSQL to test against: set KARNAK_TEST_POSTGRES_URL (.ci/run starts one)",
)

#: Processes starting together.
STARTING = 4


def newest() -> tuple[str, ...]:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from karnak.server.db import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return tuple(sorted(ScriptDirectory.from_config(config).get_heads()))


@pytest.fixture
def fresh_postgres() -> Iterator[str]:
    """An empty PostgreSQL database of this test's own."""
    with postgres_database() as url:
        yield url


#: What each process runs: connect, wait for the common start, migrate, say what it did.
MIGRATE = """
import json, os, sys, time
from pathlib import Path
from karnak.server.db import make_engine, migrate
engine = make_engine(sys.argv[1])
with engine.connect():
    pass
ready = Path(sys.argv[2])
(ready / str(os.getpid())).touch()
end = time.monotonic() + 60
while len(list(ready.iterdir())) < int(sys.argv[3]) and time.monotonic() < end:
    time.sleep(0.01)
done = migrate(engine)
print(json.dumps([done.before, done.after]))
"""


def test_processes_starting_together_migrate_once(fresh_postgres: str, tmp_path: Path) -> None:
    """Processes, not threads: Alembic keeps its migration context in a global of the
    process, so threads of one process cannot migrate side by side at all."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", MIGRATE, fresh_postgres, str(tmp_path), str(STARTING)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(STARTING)
    ]
    results: list[Migration] = []
    for process in processes:
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, err[-2000:]
        before, after = json.loads(out)
        results.append(Migration(tuple(before), tuple(after)))
    head = newest()
    created = [result for result in results if not result.before]
    assert created == [Migration((), head)]  # one made the schema, the others waited
    assert all(result == Migration(head, head) for result in results if result.before)
    engine = make_engine(fresh_postgres)
    with engine.connect() as connection:
        found = connection.execute(text("SELECT version_num FROM alembic_version")).scalars()
        assert tuple(sorted(found)) == head
    engine.dispose()


def test_the_lock_is_given_back_while_the_connection_stays_open(fresh_postgres: str) -> None:
    """The pool keeps the migrating connection (and its session) open: the lock must be
    released by hand, or the next process to start would wait for ever."""
    engine = make_engine(fresh_postgres)
    other = make_engine(fresh_postgres)
    try:
        migrate(engine)
        # the migrating session stays open in the pool, and another one takes the lock
        with engine.connect(), other.connect() as connection:
            taken = connection.execute(
                text("SELECT pg_try_advisory_lock(:key)"), {"key": MIGRATION_LOCK}
            ).scalar_one()
            assert taken is True
            connection.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK})
    finally:
        engine.dispose()
        other.dispose()


def test_db_upgrade_says_what_it_did(fresh_postgres: str) -> None:
    runner = CliRunner(env={"COLUMNS": "200"})
    head = " + ".join(newest())
    shown = fresh_postgres.split("@")[-1]
    first = runner.invoke(app, ["db", "upgrade", "--database", fresh_postgres])
    assert first.exit_code == 0, first.output
    assert first.output.strip() == f"{shown}: created the schema, at revision {head}"
    assert "karnak_ci:" not in first.output  # never the password
    again = runner.invoke(app, ["db", "upgrade", "--database", fresh_postgres])
    assert again.exit_code == 0, again.output
    assert again.output.strip() == f"{shown}: already at the newest schema (revision {head})"

"""``karnak db status`` and ``karnak db upgrade``: the revision, what is pending and why, a
backup before migrating (kept, pruned, skipped, or refused with nothing migrated), a line per
migration, a database a newer release made refused everywhere (status, upgrade, serve), and
every bad input one line, never a traceback."""

from __future__ import annotations

import logging
import re
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import inspect
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.backup import backups_of
from karnak.server.db import (
    DatabaseAhead,
    check_database,
    make_engine,
    migrate,
    migration_scripts,
)
from support.postgres import POSTGRES, postgres_database

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"
#: A database cef860d made: 0005_tables without the time bank columns, at revision 0010.
CEF860D = FIXTURES / "11-cef860d-0010.sqlite3"
HEAD = " + ".join(sorted(migration_scripts().get_heads()))
#: "0012_tables_repair: Give open tables ... (0.01 s)"
STEP = re.compile(r"^(\w+): (\S.*) \((\d+\.\d\d) s\)$")


def invoke(*arguments: str) -> Any:
    return CliRunner(env={"COLUMNS": "200", "KARNAK_DATABASE_URL": None}).invoke(
        app, ["db", *arguments]
    )


def one_line_error(result: Any) -> str:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: ")
    return lines[0]


def revision_of(path: Path) -> list[str]:
    with sqlite3.connect(path) as connection:
        return [row[0] for row in connection.execute("SELECT version_num FROM alembic_version")]


@pytest.fixture
def old(tmp_path: Path) -> Path:
    """A copy of the database cef860d made."""
    path = tmp_path / "karnak.sqlite3"
    shutil.copyfile(CEF860D, path)
    return path


def test_status_lists_the_pending_migrations_with_their_descriptions(old: Path) -> None:
    result = invoke("status", "--database", str(old))
    assert result.exit_code == 0, result.output
    assert "revision: 0010\n" in result.output
    assert f"newest:   {HEAD} (this version of Karnak)" in result.output
    # (the column is as wide as the longest pending revision)
    assert re.search(r"0011_cluster +Several server processes", result.output)
    assert re.search(r"0012_tables_repair +Give open tables their time bank columns", result.output)
    assert revision_of(old) == ["0010"]  # only looked at
    assert invoke("upgrade", "--database", str(old)).exit_code == 0
    after = invoke("status", "--database", str(old))
    assert f"revision: {HEAD}\n" in after.output and "state:    up to date" in after.output


def test_upgrade_backs_up_first_then_says_each_migration(old: Path) -> None:
    result = invoke("upgrade", "--database", str(old))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    backups = backups_of(old, old.parent)
    assert len(backups) == 1
    assert re.fullmatch(
        r"karnak\.sqlite3\.backup-0010-\d{8}T\d{6}\.\d{3}Z\.sqlite3", backups[0].name
    )
    assert lines[0].startswith(f"backed up to {backups[0]} (")
    steps = [STEP.match(line) for line in lines[1:-1]]
    pending = [r.revision for r in migration_scripts().walk_revisions("0010", HEAD)][::-1][1:]
    assert [m.group(1) for m in steps if m] == pending
    assert pending[:6] == [
        "0011_cluster",
        "0012_tables_repair",
        *[r for r in ("0013_admin", "0014_defense", "0015_capacity", "0016_recovery")],
    ]
    assert all(steps)
    repair = next(m for m in steps if m and m.group(1) == "0012_tables_repair")
    assert repair.group(2).startswith("Give open tables their time bank columns")
    assert lines[-1].endswith(
        f"upgraded from revision 0010 to {HEAD} ({len(pending)} migration(s))"
    )
    # the backup is the database as it was: before 0011, without the repaired columns
    assert revision_of(backups[0]) == ["0010"]
    with sqlite3.connect(backups[0]) as copy:
        columns = {row[1] for row in copy.execute("PRAGMA table_info(game_tables)")}
    assert "time_bank" not in columns
    assert revision_of(old) == [HEAD]
    # nothing pending: no backup, no migration line
    again = invoke("upgrade", "--database", str(old))
    assert again.output.strip().endswith(f"already at the newest schema (revision {HEAD})")
    assert len(backups_of(old, old.parent)) == 1


def test_upgrade_keeps_the_newest_backups_and_can_go_elsewhere_or_skip(
    old: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "saved"
    elsewhere.mkdir()
    stale = [
        elsewhere / f"karnak.sqlite3.backup-0009_mail-2026010{day}T000000.000Z.sqlite3"
        for day in (1, 2, 3)
    ]
    for path in stale:
        path.write_bytes(b"")
    unrelated = elsewhere / "other.sqlite3.backup-0010-20260101T000000.000Z.sqlite3"
    unrelated.write_bytes(b"")
    result = invoke(
        "upgrade", "--database", str(old), "--backup-dir", str(elsewhere), "--keep", "2"
    )
    assert result.exit_code == 0, result.output
    kept = backups_of(old, elsewhere)
    assert kept[0] == stale[2] and len(kept) == 2 and "-0010-" in kept[1].name
    assert unrelated.exists() and not backups_of(old, old.parent)

    fresh = tmp_path / "second.sqlite3"
    shutil.copyfile(CEF860D, fresh)
    skipped = invoke("upgrade", "--database", str(fresh), "--no-backup")
    assert skipped.exit_code == 0, skipped.output
    assert not backups_of(fresh, tmp_path) and "backed up" not in skipped.output


def test_an_unwritable_backup_folder_stops_the_upgrade_before_it_starts(
    old: Path, tmp_path: Path
) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    for folder in (tmp_path / "missing", a_file):
        line = one_line_error(
            invoke("upgrade", "--database", str(old), "--backup-dir", str(folder))
        )
        assert str(folder) in line
    assert revision_of(old) == ["0010"]


def test_serve_backs_up_and_logs_each_migration_through_check_database(
    old: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """karnak serve calls check_database before it starts: the same backup and lines."""
    caplog.set_level(logging.INFO, logger="karnak.server.migrations")
    migration = check_database(f"sqlite:///{old}", str(old))
    assert migration.backup is not None and migration.backup.exists()
    assert migration.backup.parent == old.parent
    logged = [r.getMessage() for r in caplog.records if r.name == "karnak.server.migrations"]
    assert logged[0] == f"backed up to {migration.backup} (" + logged[0].split(" (", 1)[1]
    assert [STEP.match(line).group(1) for line in logged[1:]] == [  # type: ignore[union-attr]
        step.revision for step in migration.steps
    ]
    assert "0012_tables_repair" in {step.revision for step in migration.steps}


def test_a_new_database_gets_no_backup_and_no_line_per_migration(tmp_path: Path) -> None:
    database = tmp_path / "new.sqlite3"
    result = invoke("upgrade", "--database", str(database))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"sqlite:///{database}: created the schema, at revision {HEAD}"
    assert not backups_of(database, tmp_path)


# ------------------------------------------------------------------ a newer release
def from_the_future(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '0042_future'")


def test_a_database_a_newer_release_upgraded_is_refused_everywhere(old: Path) -> None:
    assert invoke("upgrade", "--database", str(old)).exit_code == 0
    from_the_future(old)
    backups = backups_of(old, old.parent)
    status = invoke("status", "--database", str(old))
    assert status.exit_code == 1
    assert "AHEAD: a newer release of Karnak upgraded this database" in status.output
    assert "0042_future, which this version of Karnak does not know" in status.output
    upgrade = one_line_error(invoke("upgrade", "--database", str(old)))
    assert "0042_future" in upgrade and "newer release" in upgrade
    with pytest.raises(DatabaseAhead, match="0042_future"):
        check_database(f"sqlite:///{old}", str(old))  # what karnak serve runs first
    engine = make_engine(f"sqlite:///{old}")
    with pytest.raises(DatabaseAhead):
        migrate(engine)  # what create_app runs
    engine.dispose()
    assert revision_of(old) == ["0042_future"]  # untouched
    assert backups_of(old, old.parent) == backups  # and no backup taken to migrate it


# ------------------------------------------------------------------ bad input
def test_a_database_file_that_does_not_exist_is_an_error_for_status_and_backup(
    tmp_path: Path,
) -> None:
    missing = tmp_path / "nowhere.sqlite3"
    for command in ("status", "backup"):
        line = one_line_error(invoke(command, "--database", str(missing)))
        assert line == f"Error: {missing}: no such database file"
    assert not missing.exists()
    folder = one_line_error(invoke("upgrade", "--database", str(tmp_path / "no" / "k.sqlite3")))
    assert "No such file or directory" in folder or "does not exist" in folder


def test_a_file_that_is_not_a_database_is_one_line(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database, only words " * 100)
    for command in ("status", "backup", "upgrade"):
        line = one_line_error(invoke(command, "--database", str(text)))
        assert "not a database" in line, line
    assert text.read_text().startswith("not a database")


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("postgres://karnak:secret@db.invalid/karnak", "does not know databases of the kind"),
        ("mysql://karnak:secret@db.invalid/karnak", "driver (MySQLdb) is not installed"),
    ],
)
def test_a_url_without_a_usable_driver_is_one_line(url: str, said: str) -> None:
    for command in ("status", "backup", "upgrade"):
        line = one_line_error(invoke(command, "--database", url))
        assert said in line and "secret" not in line


# ------------------------------------------------------------------ PostgreSQL
@pytest.mark.skipif(not POSTGRES, reason="no PostgreSQL: set KARNAK_TEST_POSTGRES_URL")
def test_postgresql_upgrade_dumps_first_when_given_a_folder(tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None:
        pytest.skip("pg_dump is not installed")
    from karnak.server.db import run_migrations

    for given in ([], ["--backup-dir", str(tmp_path)]):
        with postgres_database() as url:
            engine = make_engine(url)
            run_migrations(engine, "upgrade", "0011_cluster")
            engine.dispose()
            result = invoke("upgrade", "--database", url, *given)
            assert result.exit_code == 0, result.output
            assert "karnak_ci:" not in result.output  # never the password
            dumps = list(tmp_path.glob("*-0011_cluster-*.dump"))
            if not given:
                assert "no backup taken (PostgreSQL): run `karnak db backup`" in result.output
                assert not dumps
            else:
                assert len(dumps) == 1 and dumps[0].stat().st_size > 1000
                assert f"backed up to {dumps[0]}" in result.output
            engine = make_engine(url)
            assert "time_bank" in {c["name"] for c in inspect(engine).get_columns("game_tables")}
            engine.dispose()

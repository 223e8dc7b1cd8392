"""``karnak db backup`` (and the backup ``karnak db upgrade`` takes first): an online copy of
an SQLite database that is consistent while a writer goes on, a file that opens and serves
its games, never one overwritten, and a full disk or a folder that cannot be written is one
line with nothing left behind (and, for an upgrade, nothing migrated)."""

from __future__ import annotations

import os
import resource
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.app import create_app
from karnak.server.backup import BackupProblem, backup_sqlite, backups_of
from karnak.server.db import make_engine

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "databases"
CEF860D = FIXTURES / "11-cef860d-0010.sqlite3"
KARNAK = [sys.executable, "-c", "from karnak.cli.main import app; app()"]


def invoke(*arguments: str) -> Any:
    return CliRunner(env={"COLUMNS": "200", "KARNAK_DATABASE_URL": None}).invoke(
        app, ["db", *arguments]
    )


def test_a_backup_is_a_database_that_serves_the_same_games(tmp_path: Path) -> None:
    database = tmp_path / "karnak.sqlite3"
    shutil.copyfile(CEF860D, database)
    assert invoke("upgrade", "--database", str(database), "--no-backup").exit_code == 0
    result = invoke("backup", "--database", str(database))
    assert result.exit_code == 0, result.output
    (saved,) = backups_of(database, tmp_path)
    assert f"backed up to {saved} (" in result.output
    assert not list(tmp_path.glob("*.part")) and not Path(f"{saved}-wal").exists()
    chosen = tmp_path / "chosen.sqlite3"
    assert invoke("backup", "--database", str(database), "--to", str(chosen)).exit_code == 0
    again = invoke("backup", "--database", str(database), "--to", str(chosen))
    assert again.exit_code == 1 and "already exists" in again.output  # never overwritten
    with TestClient(create_app(str(saved), bot_workers=0)) as original_copy:
        listed = original_copy.get("/api/games").json()
    with TestClient(create_app(str(database), bot_workers=0)) as original:
        assert original.get("/api/games").json() == listed
    assert len(listed) == 2


# ------------------------------------------------------------------ while it is written
def writer(path: Path, stop: threading.Event, commits: list[int]) -> None:
    """Commit, again and again, one row and the running totals that must agree with it,
    through the engine the server uses (WAL, synchronous=FULL)."""
    engine = make_engine(f"sqlite:///{path}")
    number = 0
    try:
        while not stop.is_set():
            number += 1
            with engine.begin() as connection:
                connection.execute(
                    text("INSERT INTO ledger (amount, padding) VALUES (:a, :p)"),
                    {"a": number, "p": os.urandom(512)},
                )
                connection.execute(
                    text("UPDATE totals SET rows = rows + 1, total = total + :a"), {"a": number}
                )
            commits.append(number)
    finally:
        engine.dispose()


def consistent(path: Path) -> tuple[int, bool]:
    """The rows a copy holds, and whether its totals agree with them."""
    with sqlite3.connect(path) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        rows, total = copy.execute(
            "SELECT count(*), coalesce(sum(amount), 0) FROM ledger"
        ).fetchone()
        kept = copy.execute("SELECT rows, total FROM totals").fetchone()
    return rows, kept == (rows, total)


def test_an_sqlite_backup_is_consistent_while_a_writer_commits(tmp_path: Path) -> None:
    path = tmp_path / "busy.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    with engine.begin() as connection:
        connection.execute(
            text("CREATE TABLE ledger (id INTEGER PRIMARY KEY, amount INT, padding BLOB)")
        )
        connection.execute(text("CREATE TABLE totals (rows INT, total INT)"))
        connection.execute(text("INSERT INTO totals VALUES (0, 0)"))
        # enough pages that a copy takes a while: the writer commits during it
        connection.execute(
            text(
                "INSERT INTO ledger (amount, padding) SELECT 0, randomblob(4096) "
                "FROM (WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n "
                "WHERE i < 6000) SELECT i FROM n)"
            )
        )
        connection.execute(text("UPDATE totals SET rows = 6000"))
    engine.dispose()
    stop = threading.Event()
    commits: list[int] = []
    thread = threading.Thread(target=writer, args=(path, stop, commits))
    thread.start()
    try:
        overlapped = 0
        seen = []
        for attempt in range(4):
            while len(commits) < 5 * (attempt + 1):
                time.sleep(0.005)
            before = len(commits)
            made = backup_sqlite(path, tmp_path / f"copy-{attempt}.sqlite3")
            overlapped += len(commits) > before
            rows, agree = consistent(made.path)
            assert agree, f"copy {attempt}: the totals disagree with the {rows} rows"
            assert rows >= 6000 + before  # everything committed before it began
            seen.append(rows)
    finally:
        stop.set()
        thread.join(timeout=30)
    assert overlapped, "the writer never committed during a backup: the test proves nothing"
    assert seen == sorted(seen)


# ------------------------------------------------------------------ a full disk
def limit_file_size(limit: int) -> Any:
    """For a child: files may not grow past ``limit`` bytes (EFBIG, as on a full disk)."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


def padded(path: Path, megabytes: int) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE IF NOT EXISTS ballast (b BLOB)")
        for _ in range(megabytes):
            connection.execute("INSERT INTO ballast VALUES (randomblob(1048576))")


@pytest.mark.parametrize("command", ["backup", "upgrade"])
def test_a_full_disk_is_one_line_and_leaves_nothing_behind(command: str, tmp_path: Path) -> None:
    database = tmp_path / "karnak.sqlite3"
    shutil.copyfile(CEF860D, database)
    padded(database, 3)
    done = subprocess.run(
        [*KARNAK, "db", command, "--database", str(database)],
        capture_output=True,
        text=True,
        preexec_fn=limit_file_size(1024 * 1024),
        env={**os.environ, "COLUMNS": "200"},
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    assert len(lines) == 1 and "Traceback" not in done.stderr, lines
    assert "cannot write the backup in" in lines[0] and str(tmp_path) in lines[0]
    assert not backups_of(database, tmp_path) and not list(tmp_path.glob("*.part"))
    with sqlite3.connect(database) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [
            ("0010",)
        ]  # nothing migrated


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into any folder")
def test_a_folder_without_write_permission_is_one_line(tmp_path: Path) -> None:
    database = tmp_path / "karnak.sqlite3"
    shutil.copyfile(CEF860D, database)
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o500)
    try:
        with pytest.raises(BackupProblem, match="cannot"):
            backup_sqlite(database, closed / "copy.sqlite3")
        result = invoke("upgrade", "--database", str(database), "--backup-dir", str(closed))
        assert result.exit_code == 1 and "nothing was migrated" in result.output
    finally:
        closed.chmod(0o700)

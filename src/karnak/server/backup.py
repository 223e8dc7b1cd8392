"""Backups of the server's database: SQLite copied online, PostgreSQL through ``pg_dump``.

SQLite's backup API copies the pages of a live database inside one read transaction, so the
copy is the database as one moment left it, even while a server goes on writing (in WAL
mode, which karnak.server.db.make_engine sets, readers and the writer never wait for each
other). Copying the file with ``cp`` instead can catch a write half-way, and misses what is
still in the ``-wal`` file beside it.

A backup is written beside its final name, checked (``PRAGMA quick_check``), flushed to the
disk and only then renamed into place: a full disk or a crash leaves no file that looks like
a backup and is not one. ``karnak db upgrade`` (and ``karnak serve`` before it migrates)
keeps the newest few automatic backups of a database and deletes older ones.

PostgreSQL is backed up by its own tool, ``pg_dump``, in its custom format (restored with
``pg_restore``): it takes a consistent snapshot too, and only it knows every object of the
server's version. docs/upgrading.md has the commands.
"""

from __future__ import annotations

import datetime as dt
import errno
import os
import re
import shutil
import sqlite3
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

#: Automatic backups kept per database (the newest; older ones are deleted).
DEFAULT_KEEP = 5
#: The time in a backup's name (UTC, to the millisecond so that two never share a name).
_STAMP = re.compile(r"-(\d{8}T\d{6}\.\d{3}Z)\.sqlite3$")


class BackupProblem(Exception):
    """No backup was made; the message says why in one line."""


@dataclass(frozen=True)
class BackupPolicy:
    """Whether and where the backup before a migration goes (SQLite; see the module)."""

    enabled: bool = True
    #: None: the database's own folder.
    directory: Path | None = None
    keep: int = DEFAULT_KEEP


@dataclass(frozen=True)
class Backup:
    path: Path
    size: int
    seconds: float

    def describe(self) -> str:
        return f"backed up to {self.path} ({self.size / 1024:.0f} KiB, {self.seconds:.2f} s)"


def backup_name(database: Path, revision: str, when: dt.datetime) -> str:
    """``<file>.backup-<revision>-<UTC time>.sqlite3``: what it saved, and when."""
    when = when.astimezone(dt.UTC)
    stamp = f"{when:%Y%m%dT%H%M%S}.{when.microsecond // 1000:03d}Z"
    return f"{database.name}.backup-{revision or 'none'}-{stamp}.sqlite3"


def take_backup(database: Path, revision: str, policy: BackupPolicy) -> Backup:
    """Back ``database`` up into the policy's folder under :func:`backup_name`, then delete
    all but the newest ``policy.keep`` backups of it there."""
    folder = policy.directory or database.parent
    made = backup_sqlite(
        database, folder / backup_name(database, revision, dt.datetime.now(dt.UTC))
    )
    prune(database, folder, policy.keep)
    return made


def backup_sqlite(database: Path, target: Path) -> Backup:
    """Copy the SQLite ``database`` to ``target`` (a new file) online, consistently."""
    started = time.perf_counter()
    if not database.is_file():
        raise BackupProblem(f"{database}: no such database file")
    folder = target.parent
    if not folder.is_dir():
        raise BackupProblem(f"cannot write the backup in {folder}: no such folder")
    if target.exists():
        raise BackupProblem(f"{target} already exists: name a new file")
    partial = target.with_name(target.name + ".part")
    try:
        # mode=rw: a missing file is an error, never a new empty database
        source = sqlite3.connect(f"file:{quote(str(database))}?mode=rw", uri=True, timeout=30)
        try:
            copy = sqlite3.connect(partial)
            try:
                source.backup(copy)  # every page in one step: one read transaction
                copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
                found = [row[0] for row in copy.execute("PRAGMA quick_check")]
                if found != ["ok"]:
                    raise BackupProblem(f"the copy of {database} is damaged: {found[0]}")
            finally:
                copy.close()
        finally:
            source.close()
        _flush(partial)
        partial.replace(target)
        _flush(folder)
    except sqlite3.Error as exc:
        partial.unlink(missing_ok=True)
        raise BackupProblem(_sqlite_problem(exc, database, folder)) from None
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise BackupProblem(_os_problem(exc, folder)) from None
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    return Backup(target, target.stat().st_size, time.perf_counter() - started)


def _flush(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _sqlite_problem(exc: sqlite3.Error, database: Path, folder: Path) -> str:
    message = str(exc)
    if "disk is full" in message or "disk I/O error" in message:
        return f"cannot write the backup in {folder}: {message} (is the disk full?)"
    if "unable to open" in message:
        return f"cannot open {database} or write in {folder}: {message}"
    return f"cannot back up {database}: {message}"


def _os_problem(exc: OSError, folder: Path) -> str:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return f"cannot write the backup in {folder}: no space left ({exc.strerror})"
    return f"cannot write the backup in {folder}: {exc.strerror or exc}"


def backups_of(database: Path, folder: Path) -> list[Path]:
    """The automatic backups of ``database`` in ``folder``, oldest first."""
    found = []
    for path in folder.glob(f"{glob_escape(database.name)}.backup-*.sqlite3"):
        stamp = _STAMP.search(path.name)
        if stamp:
            found.append((stamp.group(1), path))
    return [path for _stamp, path in sorted(found)]


def glob_escape(name: str) -> str:
    return re.sub(r"([*?\[])", r"[\1]", name)


def prune(database: Path, folder: Path, keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` backups of ``database`` in ``folder`` (0: keep
    every one); the deleted ones."""
    if keep <= 0:
        return []
    old = backups_of(database, folder)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old


# ------------------------------------------------------------------------ PostgreSQL
def pg_dump_command(url: str, target: Path) -> tuple[list[str], dict[str, str]]:
    """The ``pg_dump`` command line for a SQLAlchemy PostgreSQL URL, and the environment it
    needs: the password goes in ``PGPASSWORD``, never on the command line (the process list
    shows every argument to every user of the machine)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    plain = parsed.set(drivername="postgresql", password=None)
    command = [
        "pg_dump",
        "--format=custom",
        f"--file={target}",
        f"--dbname={plain.render_as_string(hide_password=False)}",
    ]
    secret = {"PGPASSWORD": parsed.password} if parsed.password else {}
    return command, {str(k): str(v) for k, v in secret.items()}


def dump_postgresql(url: str, target: Path) -> Backup:
    """Run ``pg_dump`` into ``target`` (custom format); BackupProblem if it cannot."""
    started = time.perf_counter()
    command, secret = pg_dump_command(url, target)
    if shutil.which("pg_dump") is None:
        shown = " ".join(command)
        raise BackupProblem(
            f"pg_dump is not installed here: install PostgreSQL's client tools, or run "
            f"`{shown}` where they are (with the password in PGPASSWORD)"
        )
    if not target.parent.is_dir():
        raise BackupProblem(f"cannot write the backup in {target.parent}: no such folder")
    if target.exists():
        raise BackupProblem(f"{target} already exists: name a new file")
    done = subprocess.run(
        command, env={**os.environ, **secret}, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        target.unlink(missing_ok=True)
        lines = done.stderr.strip().splitlines() or [f"exit status {done.returncode}"]
        raise BackupProblem(f"pg_dump failed: {lines[0]}")
    return Backup(target, target.stat().st_size, time.perf_counter() - started)

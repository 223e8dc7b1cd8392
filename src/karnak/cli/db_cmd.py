"""``karnak db status | backup | upgrade``: the server's database, looked at, saved, upgraded.

``karnak serve`` migrates at start too (backing an SQLite file up first), under a lock, so
several processes starting together on one database do not race. A deployment may still
prefer to migrate once, as a step of its own, before it starts (or replaces) its servers:
then a failing migration stops the rollout before any server is touched, and it says what it
did, one line per migration. docs/upgrading.md walks through it.

Every problem (a file that does not exist, one that is not a database, a URL naming a driver
that is not installed, a backup folder that cannot be written, a full disk) is one line and
exit status 1, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from karnak.cli.common import CliError, flag_option, reported_errors

if TYPE_CHECKING:
    from karnak.server.db import Migration, SchemaState

db_app = typer.Typer(
    name="db",
    help="The game server's database: its schema's state, backups, upgrades.",
    no_args_is_help=True,
)

DatabaseOption = Annotated[
    str | None,
    typer.Option(
        help="Database URL or SQLite file (default: $KARNAK_DATABASE_URL, else "
        "karnak.sqlite3 here).",
    ),
]


def server_missing(missing: ModuleNotFoundError) -> CliError:
    return CliError(
        f"the game server is not installed ({missing.name} is missing): "
        "pip install 'karnak[server]'"
    )


def resolve(database: str | None) -> tuple[str, str, Path | None]:
    """The URL, how it is shown (never with a password), and the SQLite file it names."""
    try:
        from sqlalchemy.exc import ArgumentError

        from karnak.server.app import database_url
        from karnak.server.cluster.instance_lock import sqlite_file
    except ModuleNotFoundError as missing:
        raise server_missing(missing) from None
    url = database_url(database)
    shown = url.split("@")[-1] if "@" in url else url
    try:
        return url, shown, sqlite_file(url)
    except (ArgumentError, ValueError) as exc:
        raise CliError(f"cannot use the database {shown}: {exc}") from None


def existing(url: str, shown: str, file: Path | None) -> None:
    """Refuse an SQLite file that does not exist (looking at it must not create it)."""
    if file is not None and not file.is_file():
        raise CliError(f"{file}: no such database file")
    if file is None and url.startswith("sqlite"):
        raise CliError(f"{shown}: an in-memory database has nothing to look at or save")


# ---------------------------------------------------------------------------- status
@db_app.command("status")
def status_command(database: DatabaseOption = None) -> None:
    """Say the database's revision, this code's newest, and the migrations pending.

    Exit status 0 when this version of Karnak can serve it (after an upgrade if migrations
    are pending), 1 when a newer release upgraded it or it cannot be read.
    """
    with reported_errors():
        url, shown, file = resolve(database)
        existing(url, shown, file)
        from karnak.server.db import DatabaseProblem, ahead_message, read_schema_state

        try:
            state = read_schema_state(url, shown)
        except DatabaseProblem as exc:
            raise CliError(str(exc)) from None
        typer.echo(status_report(state, shown))
        if state.unknown:
            raise CliError(ahead_message(shown, state))


def status_report(state: SchemaState, shown: str) -> str:
    lines = [
        f"database: {shown}",
        f"revision: {revisions(state.current) if state.current else 'none (no schema yet)'}",
        f"newest:   {revisions(state.heads)} (this version of Karnak)",
    ]
    if state.unknown:
        lines.append("state:    AHEAD: a newer release of Karnak upgraded this database")
    elif not state.pending:
        lines.append("state:    up to date")
    else:
        lines.append(
            f"state:    {len(state.pending)} migration(s) pending (karnak db upgrade applies "
            "them, after a backup)"
        )
        width = max(len(revision) for revision, _ in state.pending)
        lines += [f"  {revision:<{width}}  {about}" for revision, about in state.pending]
    return "\n".join(lines)


# ---------------------------------------------------------------------------- backup
@db_app.command("backup")
def backup_command(
    database: DatabaseOption = None,
    to: Annotated[
        Path | None,
        typer.Option(
            "--to",
            help="The backup file to write (a new file). Default: beside the database, "
            "<file>.backup-<revision>-<UTC time>.sqlite3 (PostgreSQL: <name>-<UTC time>.dump "
            "here).",
        ),
    ] = None,
) -> None:
    """Back the database up while the server runs: SQLite through its online backup API
    (a consistent copy even mid-write), PostgreSQL through pg_dump (custom format, for
    pg_restore)."""
    with reported_errors():
        url, shown, file = resolve(database)
        existing(url, shown, file)
        import datetime as dt

        from karnak.server.backup import (
            BackupProblem,
            backup_name,
            backup_sqlite,
            dump_postgresql,
        )
        from karnak.server.db import DatabaseProblem, open_database, read_schema_state

        now = dt.datetime.now(dt.UTC)
        try:
            if file is None:
                open_database(url, shown).dispose()  # a kind or driver it cannot use: say so
            if file is not None:
                state = read_schema_state(url, shown)
                target = to or file.with_name(backup_name(file, "+".join(state.current), now))
                made = backup_sqlite(file, target)
            elif url.startswith("postgresql"):
                from sqlalchemy.engine import make_url

                name = make_url(url).database or "karnak"
                made = dump_postgresql(url, to or Path(f"{name}-{now:%Y%m%dT%H%M%SZ}.dump"))
            else:
                raise CliError(f"{shown}: karnak backs up SQLite and PostgreSQL databases only")
        except (BackupProblem, DatabaseProblem) as exc:
            raise CliError(str(exc)) from None
        typer.echo(f"{shown}: {made.describe()}")


# --------------------------------------------------------------------------- upgrade
@db_app.command("upgrade")
def upgrade_command(
    database: DatabaseOption = None,
    backup_dir: Annotated[
        Path | None,
        typer.Option(
            help="Where the backup taken before migrating goes (SQLite; default: beside the "
            "database). On PostgreSQL, naming it runs pg_dump into it first.",
        ),
    ] = None,
    no_backup: Annotated[
        bool, flag_option("--no-backup", help="Migrate without taking a backup first.")
    ] = False,
    keep: Annotated[
        int,
        typer.Option(
            min=0, max=1000, help="Automatic backups of this database kept (0: every one)."
        ),
    ] = 5,
) -> None:
    """Back the database up, bring it to the newest schema (a line per migration), and exit.

    karnak serve does the same at start; do it here first when several processes share one
    database, or to see it done before any server is touched.
    """
    with reported_errors():
        url, shown, file = resolve(database)
        try:
            from karnak.server.backup import BackupPolicy, BackupProblem
            from karnak.server.cluster.instance_lock import InstanceLockError, instance_lock
            from karnak.server.db import DatabaseProblem, check_database
        except ModuleNotFoundError as missing:
            raise server_missing(missing) from None
        if backup_dir is not None and not no_backup and not backup_dir.is_dir():
            raise CliError(f"--backup-dir {backup_dir}: no such folder")
        policy = BackupPolicy(enabled=not no_backup, directory=backup_dir, keep=keep)
        try:
            if file is None and url.startswith("postgresql") and not no_backup:
                before_postgresql(url, shown, backup_dir)
            # an SQLite file that a server is using is left alone: stop the server first
            with instance_lock(url):
                migration = check_database(url, shown, backup=policy, report=typer.echo)
        except (InstanceLockError, DatabaseProblem, BackupProblem) as exc:
            raise CliError(str(exc)) from None
        typer.echo(upgrade_report(migration, shown))


def before_postgresql(url: str, shown: str, folder: Path | None) -> None:
    """PostgreSQL with migrations pending: pg_dump into ``folder`` when it is named, else a
    reminder (a dump of a large database is the operator's call: docs/upgrading.md)."""
    import datetime as dt

    from sqlalchemy.engine import make_url

    from karnak.server.backup import dump_postgresql
    from karnak.server.db import read_schema_state

    state = read_schema_state(url, shown)
    if not state.current or not state.pending or state.unknown:
        return  # nothing to save yet, nothing to do, or refused by the upgrade itself
    if folder is None:
        typer.echo(
            f"{shown}: no backup taken (PostgreSQL): run `karnak db backup` (pg_dump) first, "
            "or pass --backup-dir to have it run here"
        )
        return
    name = make_url(url).database or "karnak"
    now = dt.datetime.now(dt.UTC)
    revision = "+".join(state.current) or "none"
    made = dump_postgresql(url, folder / f"{name}-{revision}-{now:%Y%m%dT%H%M%SZ}.dump")
    typer.echo(f"{shown}: {made.describe()}")


def upgrade_report(migration: Migration, shown: str) -> str:
    """What the upgrade did, in one line."""
    after = revisions(migration.after)
    if migration.before == migration.after:
        return f"{shown}: already at the newest schema (revision {after})"
    if not migration.before:
        return f"{shown}: created the schema, at revision {after}"
    return (
        f"{shown}: upgraded from revision {revisions(migration.before)} to {after} "
        f"({len(migration.steps)} migration(s))"
    )


def revisions(heads: tuple[str, ...]) -> str:
    return " + ".join(heads) if heads else "none"

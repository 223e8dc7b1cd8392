"""``karnak db upgrade``: bring the server's database to the newest schema, and stop.

``karnak serve`` migrates at start too, under a lock, so several processes starting together
on one database do not race. A deployment may still prefer to migrate once, as a step of its
own, before it starts (or replaces) its servers: then a failing migration stops the rollout
before any server is touched, and it says in one line what it did.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from karnak.cli.common import CliError, reported_errors

if TYPE_CHECKING:
    from karnak.server.db import Migration

db_app = typer.Typer(
    name="db",
    help="The game server's database: bring its schema up to date.",
    no_args_is_help=True,
)


@db_app.command("upgrade")
def upgrade_command(
    database: Annotated[
        str | None,
        typer.Option(
            help="Database URL or SQLite file (default: $KARNAK_DATABASE_URL, else "
            "karnak.sqlite3 here).",
        ),
    ] = None,
) -> None:
    """Bring the database to the newest schema and exit (karnak serve does it at start too)."""
    with reported_errors():
        try:
            from karnak.server.app import database_url
            from karnak.server.cluster.instance_lock import InstanceLockError, instance_lock
            from karnak.server.db import DatabaseProblem, check_database
        except ModuleNotFoundError as missing:
            raise CliError(
                f"the game server is not installed ({missing.name} is missing): "
                "pip install 'karnak[server]'"
            ) from None
        url = database_url(database)
        shown = url.split("@")[-1] if "@" in url else url  # never print a password
        try:
            # an SQLite file that a server is using is left alone: stop the server first
            with instance_lock(url):
                migration = check_database(url, shown)
        except (InstanceLockError, DatabaseProblem) as exc:
            raise CliError(str(exc)) from None
        typer.echo(upgrade_report(migration, shown))


def upgrade_report(migration: Migration, shown: str) -> str:
    """What the upgrade did, in one line."""
    after = revisions(migration.after)
    if migration.before == migration.after:
        return f"{shown}: already at the newest schema (revision {after})"
    if not migration.before:
        return f"{shown}: created the schema, at revision {after}"
    return f"{shown}: upgraded from revision {revisions(migration.before)} to {after}"


def revisions(heads: tuple[str, ...]) -> str:
    return " + ".join(heads) if heads else "none"

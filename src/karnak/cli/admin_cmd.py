"""``karnak admin``: make and list the game server's administrators.

The first administrator cannot be made from a web page (who would be allowed to?), so it is
made here, by whoever can run commands on the server's machine and reach its database:
``karnak admin create NAME`` makes a new account with the admin role (its password asked
twice on the terminal, never on the command line, where the shell's history and the process
list would keep it); ``grant`` and ``revoke`` give and take the role of an existing account;
``list`` shows who has it. Each change is written to the audit log as done by "command line".
A running server sees the change at its next request: nothing needs restarting.
"""

from __future__ import annotations

import getpass
from typing import TYPE_CHECKING, Annotated

import typer

from karnak.cli.common import CliError, reported_errors

if TYPE_CHECKING:
    from karnak.server.admin.store import AdminStore

admin_app = typer.Typer(
    name="admin",
    help="The game server's administrators: create the first one, grant, revoke, list.",
    no_args_is_help=True,
)

Database = Annotated[
    str | None,
    typer.Option(
        help="Database URL or SQLite file (default: $KARNAK_DATABASE_URL, else karnak.sqlite3 "
        "here).",
    ),
]
Name = Annotated[str, typer.Argument(help="The account's name.")]


def open_store(database: str | None) -> AdminStore:
    """The administration's store on the database, brought to the newest schema first."""
    try:
        from karnak.server.admin.store import AdminStore
        from karnak.server.app import database_url
        from karnak.server.db import DatabaseProblem, check_database, make_engine
    except ModuleNotFoundError as missing:
        raise CliError(
            f"the game server is not installed ({missing.name} is missing): "
            "pip install 'karnak[server]'"
        ) from None
    url = database_url(database)
    shown = url.split("@")[-1] if "@" in url else url  # never print a password
    try:
        check_database(url, shown)
    except DatabaseProblem as exc:
        raise CliError(str(exc)) from None
    return AdminStore(make_engine(url))


def ask_password() -> str:
    """The new password, typed twice without echo (its strength is judged at sign-up)."""
    first = getpass.getpass("Password: ")
    if getpass.getpass("The same password again: ") != first:
        raise CliError("the two passwords differ: nothing was created")
    return first


@admin_app.command("create")
def create_command(name: Name, database: Database = None) -> None:
    """Create a new account with the admin role (asks for its password twice)."""
    with reported_errors():
        store = open_store(database)
        try:
            from karnak.server.admin.store import COMMAND_LINE

            shown = store.check_free(name)  # a bad or taken name is told before the password
            password = ask_password()
            store.create_admin(COMMAND_LINE, shown, password)
        finally:
            store.engine.dispose()
        typer.echo(f"created {shown}, an administrator: log in and open /admin")


def set_role(name: str, database: str | None, role: str) -> None:
    with reported_errors():
        store = open_store(database)
        try:
            from karnak.server.admin.store import COMMAND_LINE

            shown, changed = store.set_role(COMMAND_LINE, name, role)
        finally:
            store.engine.dispose()
        if role == "admin":
            said = "is an administrator now" if changed else "is an administrator already"
        else:
            said = "is no longer an administrator" if changed else "was not an administrator"
        typer.echo(f"{shown} {said}")


@admin_app.command("grant")
def grant_command(name: Name, database: Database = None) -> None:
    """Make an existing account an administrator."""
    set_role(name, database, "admin")


@admin_app.command("revoke")
def revoke_command(name: Name, database: Database = None) -> None:
    """Take the admin role from an account (it stays a player)."""
    set_role(name, database, "player")


@admin_app.command("list")
def list_command(database: Database = None) -> None:
    """The administrators, one per line."""
    with reported_errors():
        store = open_store(database)
        try:
            admins = store.admins()
        finally:
            store.engine.dispose()
        if not admins:
            typer.echo("no administrators yet: make one with 'karnak admin create NAME'")
        for admin in admins:
            typer.echo(
                f"{admin['name']}\t(account created {admin['created_at']}, {admin['status']})"
            )

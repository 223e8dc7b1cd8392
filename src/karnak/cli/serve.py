"""``karnak serve``: the game server with its web pages, on uvicorn.

The database is an SQLite file in the current folder unless ``--database`` or
``KARNAK_DATABASE_URL`` names another (``postgresql+psycopg://user:pw@host/db`` for
PostgreSQL); migrations are applied at start, and running games resume where they stopped.
"""

from __future__ import annotations

import os
from typing import Annotated

import typer

from karnak.cli.common import CliError, reported_errors


def serve_command(
    host: Annotated[str, typer.Option(help="Interface to listen on (0.0.0.0: every one).")] = (
        "127.0.0.1"
    ),
    port: Annotated[int, typer.Option(help="TCP port.")] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            help="Database URL or SQLite file (default: $KARNAK_DATABASE_URL, else "
            "karnak.sqlite3 here).",
        ),
    ] = None,
    bot_workers: Annotated[
        int,
        typer.Option(help="Processes in which bots think (0: in a thread of the server)."),
    ] = max(1, min(4, (os.cpu_count() or 2))),
) -> None:
    """Serve Amun-Re in the browser: a lobby, games against friends and bots, replays."""
    with reported_errors():
        if not 0 < port < 65536:
            raise CliError(f"--port must be between 1 and 65535, not {port}")
        if bot_workers < 0:
            raise CliError("--bot-workers cannot be negative")
        import uvicorn

        from karnak.server.app import create_app, database_url

        url = database_url(database)
        app = create_app(url, bot_workers=bot_workers)
        shown = url.split("@")[-1] if "@" in url else url  # never print a password
        typer.echo(f"Karnak on http://{host}:{port}/  (database: {shown})", err=True)
        # No per-message compression on the WebSocket: every seat gets a complete view
        # (about 30 KB) after every move, and compressing each one for each listener was the
        # server's largest single cost under load (bench/server_load.py).
        # uvicorn logs warnings and errors only: its request and connection lines would
        # carry the seats' secret tokens (they travel in the links' query strings), and a
        # busy server makes several requests a move.
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            ws_per_message_deflate=False,
        )

"""The game server: the authority that orders moves, stores them, and talks to browsers.

A client layer over the core, the games and the bots; nothing below depends on it.

* :mod:`karnak.server.db`: tables and migrations (SQLite by default, PostgreSQL by URL).
* :mod:`karnak.server.rooms`: one game's in-memory authority: versions, sealed steps, checks.
* :mod:`karnak.server.store`: reading and writing games and actions.
* :mod:`karnak.server.views`: what one seat (or a spectator) is sent, and nothing more.
* :mod:`karnak.server.bot_runner`: bots thinking in worker processes.
* :mod:`karnak.server.service`: accepting moves: check, commit, then broadcast; bots.
* :mod:`karnak.server.api` and :mod:`karnak.server.app`: the HTTP and WebSocket interface.
"""

"""An acknowledged move survives a power cut, not only a killed process.

The server answers a move only after its transaction has committed. With SQLite in WAL mode,
``synchronous=NORMAL`` makes such a commit survive a crash of the process but not of the
machine; ``FULL`` waits for the disk at every commit. PostgreSQL is durable by default.
"""

from __future__ import annotations

from sqlalchemy import text

from karnak.server.db import make_engine


def test_every_commit_waits_for_the_disk(database: str) -> None:
    engine = make_engine(database)
    with engine.connect() as connection:
        if engine.dialect.name == "sqlite":
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA synchronous")).scalar() == 2  # FULL
        else:
            assert connection.execute(text("SHOW synchronous_commit")).scalar() == "on"
            assert connection.execute(text("SHOW fsync")).scalar() == "on"
    engine.dispose()

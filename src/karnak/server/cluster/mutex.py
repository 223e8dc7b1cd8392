"""A lock that holds across every server process: PostgreSQL's advisory locks.

Some decisions read several rows and then write (an open table's seats and the per-client
count of open tables, karnak.server.tables): one process keeps them exact with an asyncio
lock, and several processes with this one, which adds a PostgreSQL session-level advisory
lock to it. The lock is held on a connection of its own, taken with ``pg_try_advisory_lock``
and a short sleep in the event loop between tries, so waiting holds no database thread; it is
released
when the work is done, and by PostgreSQL itself if the process dies. With SQLite there is
one process, and the asyncio lock alone is the whole lock.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from karnak.core.errors import KarnakError

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

    from karnak.server.executor import DatabaseExecutor

#: Between two tries of a lock another process holds (seconds), and the most waited.
RETRY_EVERY = 0.01
MOST_WAITED = 10.0


class LockTimeoutError(KarnakError):
    """Another process held the lock for too long (the request may be sent again)."""

    status = 503


def lock_key(name: str) -> int:
    """A signed 64-bit key for ``name`` (what pg_advisory_lock takes)."""
    digest = hashlib.sha256(f"karnak:{name}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class ClusterMutex:
    def __init__(self, engine: Engine, executor: DatabaseExecutor, name: str):
        self.engine = engine
        self.executor = executor
        self.key = lock_key(name)
        self.shared = engine.dialect.name == "postgresql"
        self._local = asyncio.Lock()

    @asynccontextmanager
    async def hold(self) -> AsyncIterator[None]:
        """Hold the lock in this process and, with PostgreSQL, in every process."""
        async with self._local:
            if not self.shared:
                yield
                return
            connection = await self.executor.run(self.engine.connect)
            try:
                waited = 0.0
                while not await self.executor.run(self._try, connection):
                    if waited > MOST_WAITED:
                        raise LockTimeoutError("the server is busy with this table: try again")
                    await asyncio.sleep(RETRY_EVERY)
                    waited += RETRY_EVERY
                try:
                    yield
                finally:
                    await self.executor.run(self._unlock, connection)
            finally:
                await self.executor.run(connection.close)

    def _try(self, connection: Connection) -> bool:
        taken = bool(connection.scalar(select(func.pg_try_advisory_lock(self.key))))
        connection.commit()
        return taken

    def _unlock(self, connection: Connection) -> None:
        connection.scalar(select(func.pg_advisory_unlock(self.key)))
        connection.commit()

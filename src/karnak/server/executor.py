"""The threads every database call of the server runs in: one pool for every service.

Database calls are synchronous (SQLAlchemy) and run off the event loop. They all go through
one :class:`DatabaseExecutor`, sized for the database: SQLite takes one writer at a time, so
it gets one thread (several would only queue on its lock, sleeping between tries, and a
write of one service could wait behind a read of another for seconds); a database server
gets a few. The default thread pool (``asyncio.to_thread``) would bypass that single writer,
so no service uses it for the database.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from sqlalchemy import Engine

T = TypeVar("T")

#: Threads for a database server (PostgreSQL): its connection pool holds five by default.
SERVER_THREADS = 4


def threads_for(engine: Engine) -> int:
    """How many threads should use ``engine`` at once."""
    return 1 if engine.dialect.name == "sqlite" else SERVER_THREADS


class DatabaseExecutor:
    def __init__(self, engine: Engine, threads: int | None = None):
        self.threads = threads or threads_for(engine)
        self._pool = ThreadPoolExecutor(self.threads, thread_name_prefix="karnak-db")

    async def run(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``call(*args, **kwargs)`` in a database thread (the event loop never waits on
        the disk or the network). It runs in a copy of the caller's context, so that a
        refusal made there speaks the request's language (:mod:`karnak.i18n.context`)."""
        context = contextvars.copy_context()
        bound = functools.partial(context.run, call, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(self._pool, bound)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=True)

"""Which seats have a page of their game open: no "your turn" notice while one is.

A game page opens the game's socket (``/api/games/{id}/ws``) with its seat's link or its
account's session; the game service counts those sockets here per game and seat
(:meth:`Presence.opened`, :meth:`Presence.closed`). A spectator's socket counts for nobody.

In one process that count is the whole truth. Where several processes serve the games (a
database server, karnak.server.cluster), a page may be open on another process than the
one that holds the game's lease (and so tells its turns): each process then also writes
its open seats to the database every process shares, as rows of the ``leases`` table named
``here:<game>:<seat>:<process>`` (:data:`PRESENCE_SECONDS` long, renewed every
:data:`RENEW_EVERY` while the socket stays open, deleted when it closes). A process that
dies leaves rows that run out by themselves: a page is then thought open for at most
:data:`PRESENCE_SECONDS` too long, and its turn is told that much later (never lost: see
karnak.server.tables.turns, the turns owed).

Who has a page open says nothing hidden: the seat is public, and its page is its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import delete, select, update

from karnak.server.cluster.leases import insert_ignoring
from karnak.server.cluster.tables import LeaseRow

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.executor import DatabaseExecutor

log = logging.getLogger("karnak.server")

#: How long a shared presence row lasts unless renewed, and how often it is (seconds).
PRESENCE_SECONDS = 90.0
RENEW_EVERY = 30.0
PREFIX = "here:"

Key = tuple[str, int]
#: Told when a seat's first page opens here (game id, seat).
Watcher = Callable[[str, int], None]


def row_name(game_id: str, seat: int, holder: str) -> str:
    """The row of one process's open pages of one seat (at most 80 characters: the
    process's name is hashed)."""
    digest = hashlib.sha256(holder.encode()).hexdigest()[:12]
    return f"{PREFIX}{game_id[:48]}:{seat}:{digest}"


class Presence:
    """The open game pages per seat: this process's, and with ``shared``, every process's."""

    def __init__(
        self,
        engine: Engine | None = None,
        executor: DatabaseExecutor | None = None,
        holder: str = "",
        *,
        shared: bool = False,
    ) -> None:
        self.engine = engine
        self.executor = executor
        self.holder = f"{holder[:100]}~here"
        self.shared = shared and engine is not None and executor is not None
        self.counts: dict[Key, int] = {}
        #: Called when a seat's first page opens in this process (marks its notices read).
        self.on_open: list[Watcher] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._renewer: asyncio.Task[None] | None = None
        #: The database writes in the order the pages opened and closed: the executor has
        #: several threads, and a page's erasure run before its own late write would leave
        #: the seat "open" in every process until the row expired.
        self._in_order = asyncio.Lock()
        #: Seconds since the epoch (tests move it).
        self.clock: Callable[[], float] = time.time

    # ------------------------------------------------------------------ this process
    def opened(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        count = self.counts.get(key, 0)
        self.counts[key] = count + 1
        if count:
            return
        for watcher in list(self.on_open):
            try:
                watcher(game_id, seat)
            except Exception:  # a watcher's fault never closes a page
                log.exception("a presence watcher failed")
        if self.shared:
            self._in_background(self._write(key))

    def closed(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        count = self.counts.get(key, 0) - 1
        if count > 0:
            self.counts[key] = count
            return
        self.counts.pop(key, None)
        if self.shared:
            self._in_background(self._erase(key))

    def here(self, game_id: str, seat: int) -> bool:
        """Whether a page of the seat is open in this process."""
        return self.counts.get((game_id, seat), 0) > 0

    async def anywhere(self, game_id: str, seat: int) -> bool:
        """Whether a page of the seat is open in any process."""
        if self.here(game_id, seat):
            return True
        if not self.shared:
            return False
        assert self.executor is not None
        return bool(await self.executor.run(self._seen, game_id, seat, self.clock()))

    # ------------------------------------------------------------------ the database
    def _in_background(self, work: object) -> None:
        assert asyncio.iscoroutine(work)
        try:
            task = asyncio.get_running_loop().create_task(work)
        except RuntimeError:  # no loop (a test calling from outside one): nothing shared
            work.close()
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew())

    async def _write(self, key: Key) -> None:
        assert self.executor is not None
        async with self._in_order:
            with contextlib.suppress(Exception):
                await self.executor.run(self._upsert, [key], self.clock())

    async def _erase(self, key: Key) -> None:
        assert self.executor is not None
        async with self._in_order:
            with contextlib.suppress(Exception):
                await self.executor.run(self._delete, key)

    async def _renew(self) -> None:
        while self.counts:
            await asyncio.sleep(RENEW_EVERY)
            assert self.executor is not None
            async with self._in_order:  # the seats open now, not those closed meanwhile
                with contextlib.suppress(Exception):
                    await self.executor.run(self._upsert, list(self.counts), self.clock())

    def _upsert(self, keys: list[Key], now: float) -> None:
        assert self.engine is not None
        names = [row_name(game, seat, self.holder) for game, seat in keys]
        if not names:
            return
        until = now + PRESENCE_SECONDS
        with self.engine.begin() as connection:
            connection.execute(
                update(LeaseRow).where(LeaseRow.name.in_(names)).values(expires_at=until)
            )
            present = set(connection.scalars(select(LeaseRow.name).where(LeaseRow.name.in_(names))))
            missing = [name for name in names if name not in present]
            if missing:
                connection.execute(
                    insert_ignoring(connection.dialect.name, LeaseRow),
                    [{"name": n, "holder": self.holder, "expires_at": until} for n in missing],
                )

    def _delete(self, key: Key) -> None:
        assert self.engine is not None
        with self.engine.begin() as connection:
            connection.execute(delete(LeaseRow).where(LeaseRow.name == row_name(*key, self.holder)))

    def _seen(self, game_id: str, seat: int, now: float) -> bool:
        assert self.engine is not None
        escaped = re.sub(r"([\\%_])", r"\\\1", f"{PREFIX}{game_id[:48]}:{seat}:")
        pattern = escaped + "%"
        with self.engine.connect() as connection:
            found = connection.scalar(
                select(LeaseRow.name)
                .where(LeaseRow.name.like(pattern, escape="\\"), LeaseRow.expires_at >= now)
                .limit(1)
            )
        return found is not None

    async def stop(self) -> None:
        tasks = [*self._tasks, *([self._renewer] if self._renewer else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

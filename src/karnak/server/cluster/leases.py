"""Leases: each running game's background work runs in exactly one process.

A game's bots, its turn timer, its time bank's reminders and timeouts, and the notices and
e-mails its changes cause must happen once in the whole cluster, however many processes
serve the game's pages and take its moves. So each running game has a lease in the
database (``game:<id>``), held by one process, which renews every lease it holds every
:data:`RENEW_EVERY` seconds for :data:`LEASE_SECONDS` more. Only the holder runs the game's
background work (karnak.server.service checks :meth:`LeaseKeeper.holds`).

When the holder dies (even by SIGKILL, with nothing said), its leases run out: within
``LEASE_SECONDS + RENEW_EVERY`` another process finds the game without a live lease, takes
the lease, reloads the game from the database and carries on (its bots think again, its
timer counts on from the step's stored start). A holder that stops cleanly (SIGTERM) hands
its leases back at once, so the others take over at their next round.

Safety does not rest on the lease alone: every write to a game is a compare-and-set on the
game's version (karnak.server.store), so two processes can never both apply a move; and a
bot's or a timer's move is written only while its process still holds the lease (the write
checks it in the same statement), so a process that lost its lease (paused for longer than
the lease) does not play the move it was thinking about.

Processes also hold a lease each (``process:<id>``): the live ones are counted, and each
process takes at most its share of the games (rounded up, plus one), so that when a process
joins or leaves the work spreads over the live ones instead of piling on the first.

With SQLite there is one process (karnak.server.cluster.instance_lock), which takes every
lease at start: a game never waits for a lease left by a process that crashed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from sqlalchemy import String, delete, exists, func, literal, select, update

from karnak.server.cluster.tables import LeaseRow
from karnak.server.db import GameRow

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.executor import DatabaseExecutor

log = logging.getLogger("karnak.server")

#: How long a lease lasts unless renewed, and how often the holder renews (seconds).
LEASE_SECONDS = 5.0
RENEW_EVERY = 1.0
GAME, PROCESS = "game:", "process:"
#: The most games without a lease looked at in one round (a bounded query).
ORPHANS_PER_ROUND = 200


def game_lease(game_id: str) -> str:
    return f"{GAME}{game_id}"


def process_name() -> str:
    """This process's name among the holders: host, pid and a random part (a pid is
    reused after a restart; the random part tells the two lives apart)."""
    return f"{socket.gethostname()[:60]}:{os.getpid()}:{secrets.token_hex(4)}"


def insert_ignoring(dialect: str, table: type[LeaseRow]) -> Any:
    """An INSERT that skips rows whose key exists already (another process made the same
    lease at the same moment): PostgreSQL's and SQLite's ON CONFLICT DO NOTHING."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgres_insert

        return postgres_insert(table).on_conflict_do_nothing()
    from sqlalchemy.dialects.sqlite import insert as sqlite_insert

    return sqlite_insert(table).on_conflict_do_nothing()


class LeaseStore:
    """The ``leases`` table (synchronous calls, run in the database threads)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def acquire_many(
        self, names: list[str], holder: str, now: float, seconds: float = LEASE_SECONDS
    ) -> set[str]:
        """Take each of ``names`` that nobody else holds live; the ones now held by
        ``holder`` (one transaction: an expired lease is taken over, a missing one made)."""
        if not names:
            return set()
        until = now + seconds
        with self.engine.begin() as connection:
            connection.execute(
                update(LeaseRow)
                .where(
                    LeaseRow.name.in_(names),
                    (LeaseRow.holder == holder) | (LeaseRow.expires_at < now),
                )
                .values(holder=holder, expires_at=until)
            )
            present = set(connection.scalars(select(LeaseRow.name).where(LeaseRow.name.in_(names))))
            missing = [n for n in names if n not in present]
            if missing:
                connection.execute(
                    insert_ignoring(connection.dialect.name, LeaseRow),
                    [{"name": n, "holder": holder, "expires_at": until} for n in missing],
                )
            return set(
                connection.scalars(
                    select(LeaseRow.name).where(LeaseRow.name.in_(names), LeaseRow.holder == holder)
                )
            )

    def renew(self, holder: str, now: float, seconds: float = LEASE_SECONDS) -> set[str]:
        """Extend every lease ``holder`` still holds; their names. A lease that ran out and
        was taken by another process is no longer ``holder``'s and is not in the answer."""
        with self.engine.begin() as connection:
            connection.execute(
                update(LeaseRow).where(LeaseRow.holder == holder).values(expires_at=now + seconds)
            )
            return set(connection.scalars(select(LeaseRow.name).where(LeaseRow.holder == holder)))

    def release(self, holder: str, names: Iterable[str] | None = None) -> None:
        """Hand back ``names`` (None: every lease of ``holder``)."""
        statement = delete(LeaseRow).where(LeaseRow.holder == holder)
        if names is not None:
            listed = list(names)
            if not listed:
                return
            statement = statement.where(LeaseRow.name.in_(listed))
        with self.engine.begin() as connection:
            connection.execute(statement)

    def release_all(self) -> None:
        """Forget every lease (one process on SQLite: whoever held them is gone)."""
        with self.engine.begin() as connection:
            connection.execute(delete(LeaseRow))

    def orphans(self, now: float, limit: int) -> tuple[list[str], int, int]:
        """Running games without a live lease (the most recently active first, at most
        ``limit``), how many games run, and how many processes are live."""
        leased = (
            exists()
            .where(LeaseRow.name == literal(GAME, String) + GameRow.id, LeaseRow.expires_at >= now)
            .correlate(GameRow)
        )
        with self.engine.connect() as connection:
            running = connection.scalar(
                select(func.count()).select_from(GameRow).where(GameRow.status == "running")
            )
            processes = connection.scalar(
                select(func.count())
                .select_from(LeaseRow)
                .where(LeaseRow.name.startswith(PROCESS), LeaseRow.expires_at >= now)
            )
            ids = connection.scalars(
                select(GameRow.id)
                .where(GameRow.status == "running", ~leased)
                .order_by(GameRow.public_updated_at.desc(), GameRow.id)
                .limit(limit)
            ).all()
        return list(ids), int(running or 0), max(1, int(processes or 0))


#: What the keeper tells the game service: a game's lease was gained or lost.
LeaseEvent = Callable[[str], Awaitable[None]]


class LeaseKeeper:
    """Renews this process's leases, takes orphaned games, and says what was gained or lost.

    ``on_gain(game_id)`` runs after the lease of a game is taken (the service reloads the
    game and lets its bots and timers carry on); ``on_loss(game_id)`` after a lease was
    found lost (the service stops the game's bots and timers here at once).
    """

    def __init__(
        self,
        store: LeaseStore,
        executor: DatabaseExecutor,
        *,
        exclusive: bool,
        holder: str | None = None,
        seconds: float = LEASE_SECONDS,
        every: float = RENEW_EVERY,
    ):
        self.store = store
        self.executor = executor
        self.exclusive = exclusive
        self.holder = holder or process_name()
        self.seconds = seconds
        self.every = every
        self.held: set[str] = set()
        #: Held while the leases are renewed and taken, and while a game is created here.
        self.lock = asyncio.Lock()
        self.on_gain: LeaseEvent | None = None
        self.on_loss: LeaseEvent | None = None
        self._task: asyncio.Task[None] | None = None
        self._stopped = False

    # ------------------------------------------------------------------ asking
    def holds(self, game_id: str) -> bool:
        return game_lease(game_id) in self.held

    def new_game(self, game_id: str) -> tuple[str, str, float]:
        """The lease of a game being created here, stored in the game's own transaction
        (under :attr:`lock`, then :meth:`created`): a new game is never without a lease,
        so no other process takes it up as orphaned while it is being created."""
        return game_lease(game_id), self.holder, time.time() + self.seconds

    def created(self, game_id: str) -> None:
        self.held.add(game_lease(game_id))

    async def _take(self, names: list[str], now: float) -> set[str]:
        return await self.executor.run(
            self.store.acquire_many, names, self.holder, now, self.seconds
        )

    async def give_back(self, game_id: str) -> None:
        """A finished game needs no lease any more."""
        name = game_lease(game_id)
        if name in self.held:
            self.held.discard(name)
            await self.executor.run(self.store.release, self.holder, [name])

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Join (and, alone on SQLite, clear what a crashed process left), then keep the
        leases in the background."""
        if self.exclusive:
            await self.executor.run(self.store.release_all)
        self.held |= await self._take([PROCESS + self.holder], time.time())
        self._task = asyncio.create_task(self._keep())

    async def stop(self) -> None:
        """Hand every lease back (a clean stop: the others take over at once)."""
        self._stopped = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self.held.clear()
        try:
            await self.executor.run(self.store.release, self.holder, None)
        except Exception:  # the database is gone: the leases run out by themselves
            log.warning("could not hand the leases back; they expire in %.0f s", self.seconds)

    async def _keep(self) -> None:
        while not self._stopped:
            try:
                await self.round()
            except Exception:  # the database may be away for a moment: try again
                log.exception("the lease round failed")
            await asyncio.sleep(self.every)

    async def round(self) -> None:
        """Renew what is held, tell what was lost, take orphaned games up to the share."""
        async with self.lock:
            now = time.time()
            held = await self.executor.run(self.store.renew, self.holder, now, self.seconds)
            lost = sorted(n.removeprefix(GAME) for n in self.held - held if n.startswith(GAME))
            me = PROCESS + self.holder
            if me not in held:  # it had run out: join again
                held |= await self._take([me], now)
            self.held = held
            games = sum(1 for n in held if n.startswith(GAME))
            orphans, running, processes = await self.executor.run(
                self.store.orphans, now, ORPHANS_PER_ROUND
            )
            share = running if self.exclusive else math.ceil(running / processes) + 1
            wanted = [game_lease(game_id) for game_id in orphans[: max(0, share - games)]]
            taken = await self._take(wanted, now) if wanted else set()
            self.held |= taken
        for game_id in lost:
            log.warning("lost the lease of game %s (another process runs it now)", game_id)
            if self.on_loss is not None:
                await self.on_loss(game_id)
        for name in sorted(taken):
            if self.on_gain is not None:
                await self.on_gain(name.removeprefix(GAME))

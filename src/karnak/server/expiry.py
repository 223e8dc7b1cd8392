"""Idle games without a clock expire: a game nobody plays does not run for ever.

A game with a turn timer or a time bank never waits long: when a person's time runs out, a
bot moves or takes the seat (karnak.server.timebank). A game without either waits for its
players as long as they like, and one that everyone has forgotten would stay "running" for
good: in the players' lists, and in the count of running games. So such a game in which
nobody has moved for ``idle_game_expiry_days`` (5 by default; 0: never) ends unfinished:
its status becomes ``expired``, its result says why and holds no scores, and it is never
rated (karnak.server.ratings rates finished games only).

The seats are told first. When the game has been idle for the expiry time less
``idle_game_warning_hours`` (24 by default; at most half the expiry time), every account
holding a seat gets a notification (kind ``idle``, and an e-mail for those who asked for
"your turn" e-mails) naming the game and when it will expire unless someone moves. It
expires at that time, and never sooner than the warning period after the warning (a server
that was down, or a game older than this module, is warned first). A move after the
warning starts the wait again: the game is no longer idle, and a later idle spell is warned
anew.

What "idle" reads: ``games.updated_at``, which every write to a game moves (a move, an undo,
a seat taken over by a bot, a private step) and nothing else does (a notification, a claimed
seat, a chat line leave it); the warning is ``games.idle_warned_at``, and it counts only
while it is newer than ``updated_at``.

Once, across processes: the round runs in every process but looks only at the games whose
lease the process holds (karnak.server.cluster.leases), and each step is decided by the
database in one conditional statement: the warning is written only if no warning newer than
the last move is stored (so it is sent once, by whoever wrote it), and the expiry goes
through the game's one write path (``GameService.change``) as a compare-and-set on the
game's version that also checks, in the same statement, that the game is still idle, was
warned long enough ago, and that this process still holds the lease. A move that comes at
the same moment either lands first (the expiry then changes nothing) or finds the game
ended (409, "the game is over").
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import (
    ColumnElement,
    String,
    Table,
    and_,
    bindparam,
    exists,
    literal,
    or_,
    select,
    update,
)

from karnak.core.errors import KarnakError
from karnak.i18n import t, use_language
from karnak.server.cluster.leases import GAME, game_lease
from karnak.server.cluster.tables import LeaseRow
from karnak.server.conflicts import StaleWriteError
from karnak.server.db import GameRow, SeatRow, utcnow
from karnak.server.mail.compose import ago, when
from karnak.server.notifications.service import account_language
from karnak.server.rooms import HUMAN, Ending
from karnak.server.store import WriteGuard, guarded

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.limits import ServerSettings
    from karnak.server.notifications.service import Notifier
    from karnak.server.rooms import Room
    from karnak.server.service import GameService

log = logging.getLogger("karnak.server")

Clock = Callable[[], dt.datetime]

#: The status (and ``Ending.how``) of an expired game.
EXPIRED = "expired"
#: The most games looked at in one round (a bounded query; the oldest first).
PER_ROUND = 200
#: The longest and shortest time between two rounds (seconds); in between, a tenth of the
#: warning period, so that short settings (tests, a demonstration) are kept too.
LONGEST_ROUND, SHORTEST_ROUND = 300.0, 1.0

_games = cast(Table, GameRow.__table__)


@dataclass(frozen=True)
class Timing:
    """How long a game may wait (``expiry``) and how long before that it is warned
    (``lead``: the warning period, at most half the wait)."""

    expiry: dt.timedelta
    lead: dt.timedelta

    @classmethod
    def of(cls, settings: ServerSettings) -> Timing | None:
        """The settings' timing; None when idle games never expire."""
        if not settings.idle_game_expiry_days > 0:  # 0 (never), and a negative or NaN one
            return None
        expiry = dt.timedelta(days=settings.idle_game_expiry_days)
        lead = dt.timedelta(hours=max(0.0, settings.idle_game_warning_hours))
        return cls(expiry, min(lead, expiry / 2))  # never a warning right after a move

    def expires_at(self, idle_since: dt.datetime, warned_at: dt.datetime) -> dt.datetime:
        """When a game idle since then, warned then, expires."""
        return max(idle_since + self.expiry, warned_at + self.lead)

    @property
    def every(self) -> float:
        """Seconds between two rounds."""
        return min(LONGEST_ROUND, max(SHORTEST_ROUND, self.lead.total_seconds() / 10))


@dataclass(frozen=True)
class IdleGame:
    """A game that is due a warning or its expiry (as the database saw it)."""

    game_id: str
    idle_since: dt.datetime
    warned_at: dt.datetime | None

    @property
    def warned(self) -> bool:
        """Whether a warning about this idle spell was sent (one older than the last move
        was about an earlier one)."""
        return self.warned_at is not None and self.warned_at >= self.idle_since


@dataclass
class Swept:
    """What one round did: the games warned and the games expired."""

    warned: list[str] = field(default_factory=list)
    expired: list[str] = field(default_factory=list)


def aware(moment: dt.datetime) -> dt.datetime:
    """A time read back from the database, in UTC (SQLite gives naive times back)."""
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment


def clockless() -> ColumnElement[bool]:
    """A game without a turn timer or a time bank."""
    return and_(
        _games.c.turn_timer.is_(None),
        _games.c.time_per_move.is_(None),
        _games.c.time_bank.is_(None),
    )


def not_warned() -> ColumnElement[bool]:
    """No warning stored about the current idle spell."""
    return or_(_games.c.idle_warned_at.is_(None), _games.c.idle_warned_at < _games.c.updated_at)


def due(now: dt.datetime, timing: Timing) -> ColumnElement[bool]:
    """Idle for the whole wait, and warned of this idle spell a warning period ago."""
    return and_(
        _games.c.updated_at <= now - timing.expiry,
        _games.c.idle_warned_at.is_not(None),
        _games.c.idle_warned_at >= _games.c.updated_at,
        _games.c.idle_warned_at <= now - timing.lead,
    )


class IdleStore:
    """The database calls (synchronous and short; the service runs them in its threads).
    It writes two things of a game: the warning's column, and the expiry (as a change of the
    game's version, run inside the game's write path)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def candidates(
        self, now: dt.datetime, timing: Timing, holder: str | None, limit: int = PER_ROUND
    ) -> list[IdleGame]:
        """The running games without a clock that are due a warning or their expiry, the
        longest idle first; only those whose lease ``holder`` holds (None: every one)."""
        warn_from = now - (timing.expiry - timing.lead)
        query = select(_games.c.id, _games.c.updated_at, _games.c.idle_warned_at).where(
            _games.c.status == "running",
            clockless(),
            _games.c.updated_at <= warn_from,
            or_(not_warned(), due(now, timing)),
        )
        if holder is not None:
            lease = cast(Table, LeaseRow.__table__)
            query = query.where(
                exists().where(
                    lease.c.name == literal(GAME, String) + _games.c.id,
                    lease.c.holder == holder,
                )
            )
        query = query.order_by(_games.c.updated_at, _games.c.id).limit(limit)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        return [
            IdleGame(game_id, aware(since), aware(warned) if warned is not None else None)
            for game_id, since, warned in rows
        ]

    def accounts_of(self, game_id: str) -> list[int]:
        """The accounts holding a person's seat of the game, as the database says (another
        process may have given a seat to an account since this one loaded the game)."""
        seats = cast(Table, SeatRow.__table__)
        query = (
            select(seats.c.account_id)
            .where(
                seats.c.game_id == game_id,
                seats.c.account_id.is_not(None),
                seats.c.kind == HUMAN,
                seats.c.departure.is_(None),
            )
            .order_by(seats.c.seat)
        )
        with self.engine.connect() as connection:
            return [account for account in connection.scalars(query) if account is not None]

    def mark_warned(self, game_id: str, now: dt.datetime, timing: Timing) -> bool:
        """Store the warning of the game's current idle spell; whether this call did. Decided
        by the database: only a running game without a clock, idle long enough, and not
        warned since its last move is marked, so of several calls at once one wins."""
        statement = (
            update(_games)
            .where(
                _games.c.id == game_id,
                _games.c.status == "running",
                clockless(),
                _games.c.updated_at <= now - (timing.expiry - timing.lead),
                not_warned(),
            )
            .values(idle_warned_at=now)
        )
        with self.engine.begin() as connection:
            return connection.execute(statement).rowcount == 1

    def expire(
        self,
        game_id: str,
        expected: int,
        versions: tuple[int, int],
        result: dict[str, Any],
        now: dt.datetime,
        timing: Timing,
        guard: WriteGuard | None,
    ) -> bool:
        """End the game as expired with its new ``versions`` (the game's and the
        spectators'), if it is at version ``expected``, still running, idle and warned long
        enough ago, and (``guard``) its lease still held here; whether it did.
        StaleWriteError when the game moved on from ``expected`` (the write path reloads it
        and decides again)."""
        version, public_version = versions
        values: dict[str, Any] = {"p_id": game_id, "p_expected": expected}
        statement = (
            update(_games)
            .where(
                _games.c.id == bindparam("p_id"),
                _games.c.version == bindparam("p_expected"),
                _games.c.status == "running",
                clockless(),
                due(now, timing),
            )
            .values(
                status=EXPIRED,
                version=version,
                public_version=public_version,
                updated_at=now,
                public_updated_at=now,
                finished_at=now,
                result=result,
            )
        )
        statement = guarded(statement, values, guard)
        with self.engine.begin() as connection:
            if connection.execute(statement, values).rowcount == 1:
                return True
            stored = connection.scalar(select(_games.c.version).where(_games.c.id == game_id))
        if stored is not None and stored != expected:
            raise StaleWriteError(f"game {game_id} is at version {stored}, not {expected}")
        return False  # no longer idle, no longer running, gone, or the lease was lost


class IdleGames:
    """The round that warns the seats of idle games and expires them (one task)."""

    def __init__(
        self,
        engine: Engine,
        service: GameService,
        notifier: Notifier,
        settings: ServerSettings,
        clock: Clock = utcnow,
    ):
        self.store = IdleStore(engine)
        self.service = service
        self.notifier = notifier
        self.timing = Timing.of(settings)
        #: The time every rule reads (tests set a later one).
        self.clock = clock
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        if self.timing is not None:
            self._task = asyncio.create_task(self._run(), name="karnak-idle-games")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _run(self) -> None:
        assert self.timing is not None
        while True:
            await asyncio.sleep(self.timing.every)
            try:
                await self.sweep()
            except Exception:  # the next round tries again; a game never hears of it
                log.exception("the round of idle games failed")

    # ------------------------------------------------------------------ one round
    async def sweep(self) -> Swept:
        """Warn the seats of the games due a warning, expire those due their expiry."""
        swept = Swept()
        timing = self.timing
        if timing is None:
            return swept
        now = self.clock()
        leases = self.service.leases
        holder = leases.holder if leases is not None else None
        found = await self.service.database(self.store.candidates, now, timing, holder)
        for game in found:
            if not self.service.owns(game.game_id):
                continue  # another process runs this game's background work
            try:
                room = await self.service.room(game.game_id)
            except KarnakError:
                continue  # unknown or unavailable (logged where it was found)
            if room.is_over:
                continue
            if not game.warned:
                if await self.service.database(self.store.mark_warned, room.id, now, timing):
                    swept.warned.append(room.id)
                    expires = timing.expires_at(game.idle_since, now)
                    await self._tell(
                        room, functools.partial(warning_text, room, game.idle_since, expires)
                    )
            elif await self.expire(room, game, now, timing):
                swept.expired.append(room.id)
                await self._tell(room, functools.partial(expired_text, room, game.idle_since, now))
        return swept

    async def expire(self, room: Room, game: IdleGame, now: dt.datetime, timing: Timing) -> bool:
        """End ``room`` as expired through the game's write path; whether it did."""
        reason = f"nobody moved for {ago(game.idle_since, now)}"
        result = {"ended": EXPIRED, "reason": reason, "idle_since": game.idle_since.isoformat()}
        leases = self.service.leases

        async def attempt() -> tuple[bool, bool]:
            if room.is_over:
                return False, False
            version, public_version = room.version + 1, room.version_for(None) + 1
            guard = None
            if leases is not None:
                guard = WriteGuard(lease=(game_lease(room.id), leases.holder), now=time.time())
            done = await self.service.database(
                self.store.expire,
                room.id,
                room.version,
                (version, public_version),
                result,
                now,
                timing,
                guard,
            )
            if not done:
                return False, False
            room.ended = Ending(EXPIRED, reason)
            room.bump(version)
            return True, True

        return await self.service.change(room, attempt)

    async def _tell(self, room: Room, write: Callable[[], str]) -> None:
        """Notify every account holding a seat of the game (guests see it on the page),
        each in its own language (``write()`` makes the text in the current one)."""
        for account in await self.service.database(self.store.accounts_of, room.id):
            try:
                language = await self.service.database(
                    account_language, self.notifier.engine, account
                )
                with use_language(language):
                    text = write()
                await self.notifier.notify(account, "idle", text, f"/games/{room.id}")
            except Exception:  # one lost notification never stops the round
                log.exception("could not tell account %s of idle game %s", account, room.id)


def table_of(room: Room) -> str:
    """The game and its players, as every seat sees them, as a sentence."""
    names = ", ".join(info.name for info in room.seats)
    return t("{game} with {names}.", game=room.game.title, names=names)


def warning_text(room: Room, idle_since: dt.datetime, expires: dt.datetime) -> str:
    """The warning, in the current language: public facts only (the game, when it last
    moved, when it expires), the essential first (a notification holds 300 characters)."""
    waiting = [room.seats[s].name for s in room.state.to_move()]
    said = t(
        "Nobody has moved since {since}: unless someone moves before {expires}, this game "
        "ends unfinished and unrated.",
        since=when(idle_since),
        expires=when(expires),
    )
    if waiting:
        said += " " + t("It waits for {names}.", names=", ".join(waiting))
    return f"{said} {table_of(room)}"


def expired_text(room: Room, idle_since: dt.datetime, now: dt.datetime) -> str:
    """The expiry, in the current language."""
    said = t(
        "This game ended unfinished and unrated: nobody moved for {time}.",
        time=ago(idle_since, now),
    )
    return f"{said} {table_of(room)}"

"""Crowd tables: a game that starts at a set time with everyone who joined.

How a crowd goes:

- **The timetable.** Every ``crowd_every_minutes`` (60 by default; 0: none) the server
  schedules the next crowd of its crowd game (``crowd_game``; by default the game that
  seats the most players, Egyptia's 99 builders), at the next whole interval (on the hour),
  with ``crowd_seats`` seats and a turn timer of ``crowd_turn_timer`` seconds. An
  administrator may schedule others (``POST /api/admin/crowds``).
- **Joining.** Any account joins a scheduled crowd until it starts, or leaves it. The lobby
  shows the next crowds with a countdown.
- **The reminder.** :data:`REMIND_BEFORE` before the start, every member is notified once
  (kind "invitation": mailed too to those who asked for invitation e-mails).
- **The start.** At its time the crowd's game is created with its members' seats in the
  order they joined, bound to their accounts, with the turn timer: a builder who misses a
  round has the medium bot play it for them (the server's timer does that for any game) and
  is back in the next. Every member is notified with the game's link. A crowd nobody joined
  is cancelled.
- **Several processes.** Each runs this timetable; the database decides which process
  schedules, reminds and starts each crowd (karnak.server.crowds.store), so each happens
  once.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from karnak.core.registry import available_games, get_game
from karnak.i18n import N_, t
from karnak.server.crowds.store import Crowd, CrowdError, CrowdStore
from karnak.server.db import utcnow
from karnak.server.rooms import HUMAN
from karnak.server.service import GameService, SeatRequest
from karnak.server.ticker import Ticker

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor
    from karnak.server.limits import ServerSettings
    from karnak.server.notifications.service import Notifier

log = logging.getLogger("karnak.server")

#: How often each process looks at the timetable (seconds).
TICK = 5.0
#: How long before its start a crowd's members are reminded.
REMIND_BEFORE = dt.timedelta(minutes=5)
#: How far ahead an administrator may schedule a crowd.
FURTHEST = dt.timedelta(days=30)
#: The shortest and longest turn timer of a crowd (seconds).
TIMER_RANGE = (10.0, 3_600.0)
#: How many upcoming crowds the lobby is told of.
UPCOMING = 10

REMINDER = N_("The {game} crowd table you joined starts at {time} UTC")
STARTED = N_("The {game} crowd table has started: {players} players")
CANCELLED = N_("The {game} crowd table of {time} UTC could not start: {why}")


def crowd_game(settings: ServerSettings) -> str:
    """The game of the timetable's crowds; ValueError naming the setting if it is none."""
    if settings.crowd_game:
        if settings.crowd_game not in available_games():
            raise ValueError(
                f"crowd_game: {settings.crowd_game[:40]!r} is not a game "
                f"(games: {', '.join(available_games())})"
            )
        return settings.crowd_game
    return max(available_games(), key=lambda name: (get_game(name).max_players, name))


def check_settings(settings: ServerSettings) -> None:
    """ValueError naming the setting for a crowd value out of range (the server refuses to
    start with it, in one line)."""
    game = get_game(crowd_game(settings))
    if not 0 <= settings.crowd_every_minutes <= 7 * 24 * 60:
        raise ValueError("crowd_every_minutes: between 0 (no timetable) and 10080 (a week)")
    if settings.crowd_seats and not 2 <= settings.crowd_seats <= game.max_players:
        raise ValueError(
            f"crowd_seats: 0 (the game's most) or between 2 and {game.max_players} "
            f"({game.title}'s most)"
        )
    low, high = TIMER_RANGE
    if not low <= settings.crowd_turn_timer <= high:
        raise ValueError(f"crowd_turn_timer: between {low:g} and {high:g} seconds")


def next_start(now: dt.datetime, every_minutes: int) -> dt.datetime:
    """The next whole interval after ``now`` (on the hour for 60), counted from midnight."""
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    step = dt.timedelta(minutes=every_minutes)
    intervals = (now - midnight) // step + 1
    return midnight + step * intervals


class CrowdService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        games: GameService,
        notifier: Notifier,
        settings: ServerSettings,
    ):
        self.store = CrowdStore(engine)
        self.executor = executor
        self.games = games
        self.notifier = notifier
        self.settings = settings
        self.game_name = crowd_game(settings)
        #: What "now" is (tests move it on).
        self.clock: Callable[[], dt.datetime] = utcnow
        #: Crowd games this process started (tests and logs count them).
        self.started = 0
        self._ticker = Ticker(self.tick, TICK, "the crowd tables' timetable could not be kept")

    async def tick(self) -> None:
        """Schedule the next crowd, remind, and start what is due."""
        now = self.clock()
        if self.settings.crowd_every_minutes > 0:
            starts = next_start(now, self.settings.crowd_every_minutes)
            await self.executor.run(
                self.store.schedule,
                self.game_name,
                starts,
                self.settings.crowd_seats or get_game(self.game_name).max_players,
                self.settings.crowd_turn_timer,
                None,
                now,
            )
        for crowd in await self.executor.run(self.store.to_remind, now, REMIND_BEFORE):
            await self._remind(crowd)
        for crowd in await self.executor.run(self.store.to_start, now):
            await self._start(crowd)

    # ------------------------------------------------------------------ scheduling
    async def schedule(
        self,
        starts_at: dt.datetime,
        game_name: str | None,
        seats: int | None,
        turn_timer: float | None,
        by: int | None,
    ) -> Crowd:
        """An administrator's crowd (bounded: a game that seats that many, a start in the
        next 30 days, a turn timer of 10 s to an hour)."""
        name = game_name or self.game_name
        if name not in available_games():
            raise CrowdError(
                t(
                    "there is no game {game}; games: {games}",
                    game=repr(name[:40]),
                    games=", ".join(available_games()),
                ),
                404,
            )
        game = get_game(name)
        if seats is None:
            seats = min(self.settings.crowd_seats or game.max_players, game.max_players)
        if not max(2, game.min_players) <= seats <= game.max_players:
            raise CrowdError(
                t(
                    "a crowd table of {game} has {least} to {most} seats",
                    game=game.title,
                    least=max(2, game.min_players),
                    most=game.max_players,
                ),
                422,
            )
        timer = turn_timer if turn_timer is not None else self.settings.crowd_turn_timer
        low, high = TIMER_RANGE
        if not low <= timer <= high:
            raise CrowdError(
                t(
                    "a crowd's turn timer is {low} to {high} seconds",
                    low=format(low, "g"),
                    high=format(high, "g"),
                ),
                422,
            )
        now = self.clock()
        starts_at = starts_at if starts_at.tzinfo else starts_at.replace(tzinfo=dt.UTC)
        if not now < starts_at <= now + FURTHEST:
            raise CrowdError(t("a crowd table starts in the next 30 days, not in the past"), 422)
        crowd, made = await self.executor.run(
            self.store.schedule, name, starts_at, seats, timer, by, now
        )
        if not made:
            raise CrowdError(t("there is a crowd table of this game at that time already"), 409)
        return crowd

    # ------------------------------------------------------------------ members
    async def join(self, crowd_id: str, account: int) -> Crowd:
        return await self.executor.run(self.store.join, crowd_id, account, self.clock())

    async def leave(self, crowd_id: str, account: int) -> bool:
        return await self.executor.run(self.store.leave, crowd_id, account)

    async def upcoming(self, account: int | None) -> list[dict[str, Any]]:
        now = self.clock()
        crowds = await self.executor.run(self.store.upcoming, now, UPCOMING)
        mine = (
            await self.executor.run(self.store.joined, account, [c.id for c in crowds])
            if account is not None
            else set()
        )
        return [
            self.crowd_out(crowd, crowd.id in mine if account is not None else None)
            for crowd in crowds
        ]

    def crowd_out(self, crowd: Crowd, joined: bool | None = None) -> dict[str, Any]:
        now = self.clock()
        return {
            "id": crowd.id,
            "game": crowd.game,
            "title": get_game(crowd.game).title,
            "starts_at": crowd.starts_at.isoformat(),
            "seconds_left": max(0, int((crowd.starts_at - now).total_seconds())),
            "seats": crowd.seats,
            "members": crowd.members,
            "turn_timer": crowd.turn_timer,
            "status": crowd.status,
            "joined": joined,
            "url": f"/games/{crowd.game_id}" if crowd.game_id else None,
        }

    # ------------------------------------------------------------------ telling, starting
    async def _remind(self, crowd: Crowd) -> None:
        title = get_game(crowd.game).title
        when = crowd.starts_at.strftime("%H:%M")
        for member in await self.executor.run(self.store.members, crowd.id):
            with contextlib.suppress(Exception):
                await self.notifier.notify(
                    member.account, "invitation", t(REMINDER, game=title, time=when), "/"
                )

    async def _start(self, crowd: Crowd) -> None:
        members = await self.executor.run(self.store.members, crowd.id)
        if not members:
            await self.executor.run(self.store.settle, crowd.id, "cancelled", None)
            return
        title = get_game(crowd.game).title
        try:
            created = await self.games.create(
                crowd.game,
                [SeatRequest(HUMAN, m.name, None, account=m.account) for m in members],
                None,
                None,
                crowd.turn_timer,
            )
        except Exception as exc:  # too few for the game, a full server: said to each
            log.warning("crowd table %s could not start: %s", crowd.id, exc)
            await self.executor.run(self.store.settle, crowd.id, "cancelled", None)
            when = crowd.starts_at.strftime("%H:%M")
            for member in members:
                with contextlib.suppress(Exception):
                    await self.notifier.notify(
                        member.account,
                        "table",
                        t(CANCELLED, game=title, time=when, why=str(exc)),
                        "/",
                    )
            return
        game_id = created.room.id
        await self.executor.run(self.store.settle, crowd.id, "started", game_id)
        self.started += 1
        for member in members:
            with contextlib.suppress(Exception):
                await self.notifier.notify(
                    member.account,
                    "table",
                    t(STARTED, game=title, players=len(members)),
                    f"/games/{game_id}",
                )

    async def stop(self) -> None:
        await self._ticker.stop()

"""The game of the day: one deal a day for everybody, one ranked game per account.

How a day works:

- **The deal.** The day's seed is a keyed hash of the day under the server's secret
  (:func:`~karnak.server.daily.days.day_seed`), so no client can work it out, for today or
  any day to come. Each player's game is an ordinary game of the server, alone, on that
  seed: it is played, stored, replayed and recovered like any other, through the game
  service's one write path.
- **Sealed until the day is over.** Every game of today is created sealed
  (``Room.sealed_until``): nobody but its player may look at it, and its record and replay
  (which hold the seed) stay closed even for the player, until midnight UTC. A round's
  dice therefore show only to a player who has reached that round.
- **One ranked game.** An account's first game of today is its ranked one; asking again
  resumes it. A past day's game is practice. A guest plays as often as they like, never
  ranked. A result counts if the game finished before the day was over.
- **The bots to beat.** The first time a day is asked about, the levels of
  ``ServerSettings.daily_bots`` (expert and master) start a game each on the same deal, as
  bot-only games of the server, sealed like the others; their scores show beside the
  leaderboard once they finish (their sheets, like everyone's, after the day).
- **Results.** The service follows the hub like the ratings do: when a game of a day ends,
  the game's :class:`~karnak.core.daily.DailyGame` reads its record and the result is
  stored once (a restart catches up with any game that ended meanwhile).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from karnak.bots.levels import level_spec
from karnak.core.daily import DailyGame
from karnak.core.errors import KarnakError
from karnak.core.registry import get_game, plugins
from karnak.i18n import N_, ngettext, t
from karnak.server.bot_names import level_label
from karnak.server.capacity import Creator
from karnak.server.daily.days import (
    DayError,
    day_end,
    day_of,
    day_seed,
    day_text,
    parse_day,
    parse_iso,
)
from karnak.server.daily.store import MAX_HISTORY_DAYS, DailyStore, Secret, streaks
from karnak.server.daily.tables import DailyGameRow
from karnak.server.db import aware, utcnow
from karnak.server.hub import ALL_GAMES, Event, Hub
from karnak.server.limits import ServerSettings
from karnak.server.rooms import BOT, HUMAN
from karnak.server.service import GameService, SeatRequest

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

log = logging.getLogger("karnak.server")

#: Starts of a game held apart per (day, account) in this process, at most (idle ones go).
MAX_LOCKS = 10_000
#: The most days a calendar answer covers.
MAX_CALENDAR_DAYS = 366
#: Why a result cannot be shared yet.
NOT_OVER = N_("the result can be shared when the game is over")
NO_DAILY = N_("this server has no game of the day (no game offers one)")


@dataclass(frozen=True)
class Played:
    """A game of a day, as POST /api/daily/{day}/play answers it."""

    day: str
    game_id: str
    token: str | None
    ranked: bool
    resumed: bool


class NoDailyError(KarnakError, LookupError):
    """No game offers a daily on this server, or a game is not a day's: 404."""

    status = 404


def daily_levels(settings: ServerSettings) -> list[str]:
    """The levels of ``daily_bots``; ValueError naming the setting for one that is none
    (the server refuses to start with it, in one line)."""
    from karnak.bots.levels import LEVELS

    levels = [part.strip().lower() for part in settings.daily_bots.split(",") if part.strip()]
    for level in levels:
        if level not in LEVELS:
            raise ValueError(
                f"daily_bots: {level[:40]!r} is not a level (levels: {', '.join(LEVELS)}; "
                "an empty value plays no bot)"
            )
    return list(dict.fromkeys(levels))


def daily_game() -> tuple[str, DailyGame] | None:
    """The game of the day: the first game whose plugin offers one."""
    for name, plugin in sorted(plugins().items()):
        found = plugin.daily_game()
        if found is not None:
            return name, found
    return None


class DailyService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        hub: Hub,
        games: GameService,
        settings: ServerSettings,
    ):
        self.store = DailyStore(engine)
        self.executor = executor
        self.games = games
        self.settings = settings
        #: What "now" is (tests move it to another day).
        self.clock: Callable[[], dt.datetime] = utcnow
        found = daily_game()
        self.game_name = found[0] if found is not None else ""
        self.daily: DailyGame | None = found[1] if found is not None else None
        self._secret: Secret | None = None
        self._bots_asked: set[str] = set()
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        #: Results written by this process (tests wait on it).
        self.recorded = 0
        self._subscription = hub.subscribe(ALL_GAMES, self._changed)
        self._worker = asyncio.create_task(self._work())

    # ------------------------------------------------------------------ days
    def today(self) -> dt.date:
        return day_of(self.clock())

    async def secret(self) -> Secret:
        if self._secret is None:
            self._secret = await self.executor.run(self.store.secret)
        return self._secret

    async def first_day(self) -> dt.date:
        return min((await self.secret()).first_day, self.today())

    async def day(self, text: str) -> dt.date:
        """A day that can be played (DayError otherwise: the routes answer 404)."""
        self._check_offered()
        return parse_day(text, self.today(), await self.first_day())

    def _check_offered(self) -> None:
        if self.daily is None:
            raise NoDailyError(t(NO_DAILY))

    # ------------------------------------------------------------------ playing
    async def play(
        self, text: str, account: int | None, name: str | None, creator: Creator
    ) -> Played:
        """Start or resume the account's game of the day ``text`` (a guest: a new game)."""
        day = await self.day(text)
        today = self.today()
        if day == today:
            await self.ensure_bots(day)
        if account is None:  # a guest: a new game each time, never ranked, kept for sharing
            game_id, token = await self._create(day, None, name, creator)
            guest = DailyGameRow(
                game_id=game_id,
                game=self.game_name,
                day=day_text(day),
                ranked=False,
                started_at=self.clock(),
            )
            await self.executor.run(self.store.add, guest)
            return Played(day_text(day), game_id, token, False, False)
        if len(self._locks) > MAX_LOCKS:  # forget the idle ones
            self._locks = {k: v for k, v in self._locks.items() if v.locked()}
        lock = self._locks.setdefault((day_text(day), account), asyncio.Lock())
        async with lock:
            found = await self.executor.run(self.store.find, self.game_name, day_text(day), account)
            if found is not None:
                return Played(day_text(day), found.game_id, None, found.ranked, True)
            game_id, _ = await self._create(day, account, name, creator)
            row = DailyGameRow(
                game_id=game_id,
                game=self.game_name,
                day=day_text(day),
                account_id=account,
                ranked=day == today,
                started_at=self.clock(),
            )
            if not await self.executor.run(self.store.add, row):  # another process was first
                await self._drop(game_id)
                found = await self.executor.run(
                    self.store.find, self.game_name, day_text(day), account
                )
                if found is None:
                    raise DayError("the game of the day could not be started: try again")
                return Played(day_text(day), found.game_id, None, found.ranked, True)
        return Played(day_text(day), game_id, None, row.ranked, False)

    async def _create(
        self,
        day: dt.date,
        account: int | None,
        name: str | None,
        creator: Creator | None,
        bot: str | None = None,
    ) -> tuple[str, str | None]:
        """A new game on ``day``'s deal: a person's (``account``, or a guest) or a bot's."""
        seed = day_seed((await self.secret()).value, self.game_name, day)
        # sealed until the day is over; a past day's game is practice on a published deal
        until = day_end(day) if day_end(day) > self.clock() else None
        seat = (
            SeatRequest(BOT, None, bot)
            if bot is not None
            else SeatRequest(HUMAN, name, None, account=account)
        )
        created = await self.games.create(
            self.game_name, [seat], {}, seed, creator=creator, sealed_until=until
        )
        if account is None and bot is None:
            return created.room.id, created.tokens[0]
        return created.room.id, None

    async def _drop(self, game_id: str) -> None:
        with contextlib.suppress(Exception):
            room = await self.games.room(game_id)
            await self.games.delete(
                room, lambda: self.store.drop_game(game_id), "a second start of the same game"
            )

    async def ensure_bots(self, day: dt.date) -> None:
        """Start the day's bot games (once; several processes agree through the table)."""
        key = day_text(day)
        if key in self._bots_asked or self.daily is None:
            return
        self._bots_asked.add(key)
        levels = daily_levels(self.settings)
        have = {r.bot_level for r in await self.executor.run(self.store.bots, self.game_name, key)}
        for level in levels:
            if level in have:
                continue
            try:
                game_id, _ = await self._create(day, None, None, None, bot=level)
            except KarnakError as exc:  # a full server: tried again at the next start
                log.warning("the %s bot of the day %s could not start: %s", level, key, exc)
                self._bots_asked.discard(key)
                continue
            row = DailyGameRow(
                game_id=game_id,
                game=self.game_name,
                day=key,
                bot_level=level,
                ranked=False,
                started_at=self.clock(),
            )
            if not await self.executor.run(self.store.add, row):
                await self._drop(game_id)

    # ------------------------------------------------------------------ results
    def _changed(self, event: Event) -> None:
        """A game changed: if it is a sealed game that is over, look at it (quick)."""
        game_id = event.payload.get("game_id")
        if not isinstance(game_id, str) or game_id in self._queued:
            return
        room = self.games.rooms.get(game_id)
        if room is not None and room.is_over and room.sealed_until is not None:
            self._queued.add(game_id)
            self._queue.put_nowait(game_id)

    async def _work(self) -> None:
        with contextlib.suppress(Exception):
            for game_id in await self.executor.run(self.store.unfinished_over):
                await self.record(game_id, at=None)
        while True:
            game_id = await self._queue.get()
            try:
                await self.record(game_id, at=self.clock())
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("the result of the game of the day %s was not written", game_id)
            finally:
                self._queued.discard(game_id)

    async def record(self, game_id: str, at: dt.datetime | None) -> bool:
        """Write the result of the day's game ``game_id`` if it is over (once)."""
        if self.daily is None:
            return False
        room = await self.games.room(game_id)
        if not room.is_over or room.ended is not None:  # an expired game has no result
            return False
        daily = self.daily
        result = await asyncio.to_thread(daily.result, room.record())
        done = await self.executor.run(self.store.finish, game_id, result, at)
        self.recorded += int(done)
        return done

    async def stop(self) -> None:
        self._subscription.cancel()
        self._worker.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._worker

    # ------------------------------------------------------------------ reading
    def _attempt(self, row: DailyGameRow, place: int | None) -> dict[str, Any]:
        finished = row.finished_at is not None
        return {
            "day": row.day,
            "game_id": row.game_id,
            "url": f"/games/{row.game_id}",
            "ranked": row.ranked,
            "finished": finished,
            "score": row.score,
            "status": self._status(row.status),
            "plagues": row.penalty,
            "seconds": row.seconds,
            "place": place,
        }

    async def bots(self, day: dt.date) -> list[dict[str, Any]]:
        rows = {
            r.bot_level: r
            for r in await self.executor.run(self.store.bots, self.game_name, day_text(day))
        }
        levels = daily_levels(self.settings)
        answer = []
        game = get_game(self.game_name)
        for level in levels:
            row = rows.get(level)
            try:
                spec = level_spec(
                    level,
                    game,
                    max_think=self.settings.max_think,
                    max_game_think=self.settings.max_game_think,
                )
            except KarnakError:
                spec = level
            done = row is not None and row.finished_at is not None
            answer.append(
                {
                    "level": level,
                    "name": level_label(level),
                    "bot": spec,
                    "score": row.score if done and row is not None else None,
                    "status": self._status(row.status) if done and row is not None else None,
                }
            )
        return answer

    async def overview(self, account: int | None, name: str | None) -> dict[str, Any]:
        self._check_offered()
        today = self.today()
        key = day_text(today)
        await self.ensure_bots(today)
        attempt = None
        you = None
        if account is not None:
            row = await self.executor.run(self.store.find, self.game_name, key, account)
            if row is not None:
                place = await self.executor.run(self.store.place, row)
                attempt = self._attempt(row, place)
            days = await self.executor.run(self.store.ranked_days, self.game_name, account)
            current, best = streaks([parse_iso(r.day) for r in days], today)
            you = {"name": name, "streak": current, "best_streak": best}
        players = await self.executor.run(self.store.players, self.game_name, [key])
        ends = day_end(today)
        return {
            "game": self.game_name,
            "title": get_game(self.game_name).title,
            "day": key,
            "ends_at": ends.isoformat(),
            "seconds_left": max(0, int((ends - aware(self.clock())).total_seconds())),
            "first_day": day_text(await self.first_day()),
            "you": you,
            "attempt": attempt,
            "bots": await self.bots(today),
            "players": players[key],
        }

    async def leaderboard(self, text: str, offset: int, limit: int) -> dict[str, Any]:
        day = await self.day(text)
        if day == self.today():
            await self.ensure_bots(day)
        final = day_end(day) <= aware(self.clock())
        total, entries = await self.executor.run(
            self.store.leaderboard, self.game_name, day_text(day), offset, limit
        )
        rows = []
        for entry in entries:
            game_id = entry.pop("game_id", None)
            entry["status"] = self._status(entry["status"])
            rows.append({**entry, "game_id": game_id if final else None})
        return {
            "day": day_text(day),
            "final": final,
            "total": total,
            "offset": offset,
            "limit": limit,
            "entries": rows,
            "bots": await self.bots(day),
        }

    async def calendar(self, account: int | None, days: int) -> dict[str, Any]:
        self._check_offered()
        today = self.today()
        first = await self.first_day()
        wanted = [
            today - dt.timedelta(days=n)
            for n in range(days)
            if today - dt.timedelta(days=n) >= first
        ]
        keys = [day_text(d) for d in wanted]
        counts = await self.executor.run(self.store.players, self.game_name, keys)
        mine: dict[str, DailyGameRow] = {}
        if account is not None and keys:
            mine = await self.executor.run(
                self.store.account_games, self.game_name, account, keys[-1], keys[0]
            )
        listed = []
        for key in keys:
            row = mine.get(key)
            attempt = None
            if row is not None:
                attempt = self._attempt(row, await self.executor.run(self.store.place, row))
            listed.append({"day": key, "players": counts.get(key, 0), "attempt": attempt})
        return {"today": day_text(today), "days": listed}

    async def history(self, name: str) -> dict[str, Any] | None:
        self._check_offered()
        found = await self.executor.run(self.store.account_by_name, name)
        if found is None:
            return None
        account, shown = found
        rows = await self.executor.run(self.store.ranked_days, self.game_name, account)
        current, best = streaks([parse_iso(r.day) for r in rows], self.today())
        days = []
        for row in rows[:MAX_HISTORY_DAYS]:
            days.append(
                {
                    "day": row.day,
                    "score": row.score,
                    "status": self._status(row.status),
                    "plagues": row.penalty,
                    "place": await self.executor.run(self.store.place, row),
                }
            )
        return {
            "name": shown,
            "streak": current,
            "best_streak": best,
            "played": len(rows),
            "days": days,
        }

    async def share(self, game_id: str) -> str:
        """The text a player shares of their finished game of a day."""
        row = await self.executor.run(self.store.by_game, game_id)
        room = await self.games.room(game_id)
        if row is None:
            raise NoDailyError(t("this game is not a game of the day"))
        if not room.is_over or row.finished_at is None:
            raise NotOverError(t(NOT_OVER))
        title = get_game(self.game_name).title
        head = t("Karnak · {title} of the day · {day}", title=title, day=row.day)
        parts = [self._words(row.status)] if row.status else []
        score = row.score or 0
        parts.append(ngettext("{n} point", "{n} points", score).format(n=score))
        if self.daily is not None and row.penalty is not None:
            one, many = self.daily.penalty_words
            parts.append(self._words(one, many, row.penalty).format(n=row.penalty))
        return f"{head}\n{' · '.join(parts)}\n{row.marks or ''}"

    def _status(self, status: str | None) -> str | None:
        """A builder status (the game's word) in the reader's language."""
        return self._words(status) if status else status

    def _words(self, one: str, many: str | None = None, n: int = 1) -> str:
        """The game's own words (a builder status, "{n} plagues") in the reader's language."""
        from karnak.core.registry import get_plugin

        domain = get_plugin(self.game_name).text_domain()
        if many is None:
            return domain.gettext(one) if domain is not None else one
        if domain is not None:
            return domain.ngettext(one, many, n)
        return one if n == 1 else many


class NotOverError(KarnakError):
    """The game is still running: 409, ask again when it is over."""

    status = 409

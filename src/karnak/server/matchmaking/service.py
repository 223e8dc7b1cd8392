"""Quick match: "find me a game" for any game and table size.

How it goes:

- **Asking.** A logged-in person asks for a game and a table size; their ticket waits in the
  queue (one per account: asking for something else replaces it, asking again keeps the
  place). The ticket carries the account's rating in that game.
- **Matching.** Every server process runs the matchmaker once a second (and at once when a
  ticket arrives): tables form by rating within a window that widens while people wait, and
  never seat two people of whom one blocked the other (karnak.server.matchmaking.pairing).
  The queue is in the database, taken under one lock, so processes share it and a process
  that dies loses nobody's place (karnak.server.matchmaking.store).
- **Starting.** The game starts at once when the table is full: the seats in a random order,
  each bound to its account (the session opens the game), and every player is notified
  with its link; the waiting page sees the ticket matched on its next look.
- **Bots instead.** After ``quickmatch_bots_after_seconds`` in the queue the player may
  take bots for the other seats, at the player's level: the level whose bot's rating in
  this game is nearest to the player's (medium when no bot has a rating yet).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from karnak.bots.levels import DEFAULT_LEVELS, level_spec
from karnak.core.errors import KarnakError
from karnak.core.registry import available_games, get_game
from karnak.i18n import N_, t
from karnak.server.bot_names import level_label
from karnak.server.db import utcnow
from karnak.server.matchmaking.pairing import Waiting, Windows
from karnak.server.matchmaking.store import MatchStore, QueueError, Taken, Ticket
from karnak.server.rooms import BOT, HUMAN
from karnak.server.service import GameService, SeatRequest
from karnak.server.ticker import Ticker

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor
    from karnak.server.limits import ServerSettings
    from karnak.server.notifications.service import Notifier

log = logging.getLogger("karnak.server")

#: How often each process runs the matchmaker (seconds).
MATCH_INTERVAL = 1.0
#: The largest table quick match makes (bigger tables are for open tables and crowds).
MOST_PLAYERS = 5
STARTED = N_("Your quick match of {game} has started, with {others}")
#: How long the bots' ratings are taken as read (seconds).
BOT_RATINGS_FOR = 60.0
#: The level a player without rated bots to compare with is given.
DEFAULT_LEVEL = "medium"


def check_settings(settings: ServerSettings) -> None:
    """ValueError naming the setting for a quick-match value out of range (the server
    refuses to start with it, in one line)."""
    if not 0 <= settings.quickmatch_window <= 1_000:
        raise ValueError("quickmatch_window: between 0 and 1000 points")
    if not 0 <= settings.quickmatch_widen_per_second <= 1_000:
        raise ValueError("quickmatch_widen_per_second: between 0 and 1000 points a second")
    if not 0 <= settings.quickmatch_bots_after_seconds <= 86_400:
        raise ValueError("quickmatch_bots_after_seconds: between 0 and 86400 seconds")
    if not 1 <= settings.quickmatch_queue <= 1_000_000:
        raise ValueError("quickmatch_queue: between 1 and 1000000 tickets")


class MatchService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        games: GameService,
        notifier: Notifier,
        settings: ServerSettings,
    ):
        self.store = MatchStore(engine)
        self.executor = executor
        self.games = games
        self.notifier = notifier
        self.settings = settings
        self.windows = Windows(settings.quickmatch_window, settings.quickmatch_widen_per_second)
        #: What "now" is (tests move it on).
        self.clock: Callable[[], dt.datetime] = utcnow
        #: Games this process made from the queue (tests and logs count them).
        self.made = 0
        #: The bots' ratings by game, read at most every BOT_RATINGS_FOR seconds: every
        #: waiting page asks for its level every second or two.
        self._bot_ratings: dict[str, tuple[float, dict[str, float]]] = {}
        self._ticker = Ticker(
            self.match,
            MATCH_INTERVAL,
            "the quick-match queue could not be matched",
            first_at_once=False,
        )

    # ------------------------------------------------------------------ asking
    def check_table(self, game_name: str, players: int) -> None:
        if game_name not in available_games():
            raise QueueError(
                t(
                    "there is no game {game}; games: {games}",
                    game=repr(game_name[:40]),
                    games=", ".join(available_games()),
                ),
                404,
            )
        game = get_game(game_name)
        try:
            game.check_player_count(players)
        except KarnakError as exc:
            raise QueueError(str(exc), 422) from None
        if not 2 <= players <= MOST_PLAYERS:
            raise QueueError(
                t(
                    "a quick match is for 2 to {most} players: alone, just play; a bigger "
                    "table is an open table",
                    most=MOST_PLAYERS,
                ),
                422,
            )

    async def ask(self, account: int, game_name: str, players: int) -> dict[str, Any]:
        """Queue the account for ``game_name`` at a table of ``players``."""
        self.check_table(game_name, players)
        rating = await self.executor.run(self.store.rating, game_name, account)
        await self.executor.run(
            self.store.put,
            account,
            game_name,
            players,
            rating,
            self.settings.quickmatch_queue,
            self.clock(),
        )
        self._ticker.wake()
        return await self.state(account)

    async def cancel(self, account: int) -> bool:
        return bool(await self.executor.run(self.store.cancel, account, self.clock()))

    async def state(self, account: int) -> dict[str, Any]:
        """What the account's waiting page shows."""
        ticket = await self.executor.run(self.store.ticket, account)
        if ticket is None:
            return {"ticket": None}
        waited = max(0.0, (self.clock() - ticket.created_at).total_seconds())
        window = self.windows.of(
            Waiting(ticket.account, ticket.rating, ticket.created_at.timestamp()),
            self.clock().timestamp(),
        )
        after = self.settings.quickmatch_bots_after_seconds
        queue = await self.executor.run(self.store.waiting_count, ticket.game, ticket.players)
        game_id = ticket.game_id
        waiting = ticket.status == "waiting"
        level = await self.level(ticket.game, ticket.rating)
        return {
            "ticket": {
                "game": ticket.game,
                "title": get_game(ticket.game).title,
                "players": ticket.players,
                "status": ticket.status,
                "waited": round(waited, 1),
                "rating": round(ticket.rating, 1),
                "window": round(window, 1),
                "queue": queue,
                # the others waiting for the same table (the queue counts this ticket)
                "others": max(0, queue - 1) if waiting else None,
                "bots_in": max(0.0, round(after - waited, 1)) if waiting else None,
                "level": level,
                "level_name": level_label(level),
                "game_id": game_id,
                "url": f"/games/{game_id}" if game_id else None,
            }
        }

    async def level(self, game_name: str, rating: float) -> str:
        """The level whose bot's rating in ``game_name`` is nearest to ``rating``."""
        game = get_game(game_name)
        specs = {
            level: level_spec(
                level,
                game,
                max_think=self.settings.max_think,
                max_game_think=self.settings.max_game_think,
            )
            for level in DEFAULT_LEVELS
        }
        cached = self._bot_ratings.get(game_name)
        if cached is None or cached[0] < time.monotonic() - BOT_RATINGS_FOR:
            found = await self.executor.run(self.store.bot_ratings, game_name, list(specs.values()))
            cached = self._bot_ratings[game_name] = (time.monotonic(), found)
        rated = cached[1]
        known = [
            (abs(rated[spec] - rating), level) for level, spec in specs.items() if spec in rated
        ]
        return min(known)[1] if known else DEFAULT_LEVEL

    # ------------------------------------------------------------------ matching
    async def match(self) -> int:
        """Take every table the queue can form now and start its game; how many started."""
        taken = await self.executor.run(self.store.take_tables, self.clock(), self.windows)
        started = 0
        for table in taken:
            started += await self._start(table)
        return started

    async def _start(self, table: Taken) -> int:
        accounts = [ticket.account for ticket in table.accounts]
        seated = list(table.accounts)
        secrets.SystemRandom().shuffle(seated)  # who sits first is chance, as at a table
        try:
            created = await self.games.create(
                table.game,
                [
                    SeatRequest(HUMAN, ticket.name, None, account=ticket.account)
                    for ticket in seated
                ],
            )
        except Exception as exc:  # a full server: back to the queue, places kept
            log.warning("a quick match of %s could not start: %s", table.game, exc)
            await self.executor.run(self.store.settle, accounts, "waiting", None, self.clock())
            return 0
        game_id = created.room.id
        await self.executor.run(self.store.settle, accounts, "matched", game_id, self.clock())
        self.made += 1
        title = get_game(table.game).title
        for ticket in table.accounts:
            others = ", ".join(t.name for t in seated if t.account != ticket.account)
            with contextlib.suppress(Exception):
                await self.notifier.notify(
                    ticket.account,
                    "table",
                    t(
                        "Your quick match of {game} has started, with {others}",
                        game=title,
                        others=others,
                    ),
                    f"/games/{game_id}",
                )
        return 1

    async def with_bots(self, account: int) -> dict[str, Any]:
        """Take the account's ticket out of the queue into a game with bots at its level."""
        ticket: Ticket = await self.executor.run(
            self.store.take_for_bots,
            account,
            self.clock(),
            self.settings.quickmatch_bots_after_seconds,
        )
        level = await self.level(ticket.game, ticket.rating)
        seats = [SeatRequest(HUMAN, ticket.name, None, account=account)]
        seats += [SeatRequest(BOT, None, level) for _ in range(ticket.players - 1)]
        try:
            created = await self.games.create(ticket.game, seats)
        except Exception:
            await self.executor.run(self.store.settle, [account], "waiting", None, self.clock())
            raise
        await self.executor.run(self.store.settle, [account], "bots", created.room.id, self.clock())
        return await self.state(account)

    async def stop(self) -> None:
        await self._ticker.stop()

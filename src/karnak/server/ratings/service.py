"""Rating games as they end: the hub tells, one worker rates, in the order games finished.

The service subscribes to the hub's ``games`` topic (every game's changes). A change of a
game that is over puts the game in a queue; one task takes the queue in order and rates each
game in the server's database threads (karnak.server.executor). At start the same task first
catches up with every finished game that was never looked at (a server stopped between a
game's end and its rating, or a database from before ratings existed), oldest first. Whether
a game counts is decided in the database (see :mod:`karnak.server.ratings.store`), so the
live path and the catch-up may meet on one game, and a restart may see it again, without it
ever counting twice.

One worker means the ratings are updated one game at a time: an update reads and writes
several ratings, and the order in which games are rated is the order they finished.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from karnak.server.hub import ALL_GAMES, Event, Hub
from karnak.server.ratings.store import Outcome, RatingStore
from karnak.server.service import GameService

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

log = logging.getLogger("karnak.server")


class RatingService:
    def __init__(self, engine: Engine, executor: DatabaseExecutor, hub: Hub, games: GameService):
        self.store = RatingStore(engine)
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.games = games
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._queued: set[str] = set()
        #: Games rated (or found unrated) by this process: tests and the log count them.
        self.rated = 0
        self._caught_up = asyncio.Event()
        self._subscription = hub.subscribe(ALL_GAMES, self._changed)
        self._worker = asyncio.create_task(self._work())

    def _changed(self, event: Event) -> None:
        """A game changed: if it is over, rate it (quick: a look-up and a queue)."""
        game_id = event.payload.get("game_id")
        if not isinstance(game_id, str) or game_id in self._queued:
            return
        room = self.games.rooms.get(game_id)
        if room is not None and room.is_over:
            self._queued.add(game_id)
            self._queue.put_nowait(game_id)

    async def _work(self) -> None:
        await self.catch_up()
        self._caught_up.set()
        while True:
            game_id = await self._queue.get()
            await self._rate(game_id)
            self._queued.discard(game_id)

    async def catch_up(self) -> None:
        """Rate the finished games never looked at, oldest first (a game that fails is
        logged and tried again at the next start). Run at start; run again (as another
        process on the same database does), it rates no game twice."""
        for game_id in await self.executor.run(self.store.unrated):
            await self._rate(game_id)

    async def _rate(self, game_id: str) -> Outcome | None:
        try:
            outcome = await self.executor.run(self.store.rate, game_id)
        except Exception:  # one game's failure must not stop the ratings of the others
            log.exception("rating game %s failed", game_id)
            return None
        if outcome.done:
            self.rated += 1
        return outcome

    async def idle(self) -> None:
        """Wait until every game queued so far is rated (for tests and a clean stop)."""
        await self._caught_up.wait()
        while self._queued:
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        self._subscription.cancel()
        self._worker.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._worker

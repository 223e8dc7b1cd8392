"""Bots thinking on the server without blocking the event loop.

A search bot spends its whole think time computing, so it runs in a worker process; the
worker rebuilds the game from its record (the engine replays exactly) and hands the bot only
its seat's view, as everywhere else. With ``workers=0`` bots think in a thread instead (for
tests and tiny deployments: the event loop then shares the interpreter with the bot).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from typing import Any

from karnak.bots.base import SeatView, make_bot
from karnak.core.record import GameRecord, replay
from karnak.core.registry import get_game
from karnak.core.rng import Rng
from karnak.server.rooms import Room


def bot_seed(game_seed: int, version: int, seat: int) -> int:
    """A bot's generator seed for one decision: reproducible from the game's own facts."""
    return (game_seed * 1_000_003 + version * 7_919 + seat) % (1 << 63)


def think(record_json: dict[str, Any], seat: int, spec: str, seed: int) -> str:
    """Worker entry point: the text of the action the bot ``spec`` chooses for ``seat``."""
    record = GameRecord.from_json(record_json)
    state = replay(record, check_result=False)
    bot = make_bot(spec, get_game(record.game))
    return bot.choose(SeatView.of(state, seat), Rng(seed)).to_text()


class BotRunner:
    def __init__(self, workers: int = 2):
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        if workers > 0:
            # spawn, not fork: the server process has threads (the event loop's helpers)
            self._pool = ProcessPoolExecutor(workers, mp_context=get_context("spawn"))

    async def choose(self, room: Room, seat: int) -> str:
        spec = room.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} of game {room.id} is not a bot")
        args = (room.record().to_json(), seat, spec, bot_seed(room.seed, room.version, seat))
        if self._pool is None:
            return await asyncio.to_thread(think, *args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, think, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

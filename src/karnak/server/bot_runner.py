"""Bots thinking on the server without blocking the event loop, each within its limits.

A search bot spends its whole think time computing, so it runs in a worker process; the
worker is sent the position itself (``State.to_json``, hidden facts included: the worker
stands in for the server) and hands the bot only its seat's view, as everywhere else.
Rebuilding the game from its record instead would replay every move so far at each
decision, which over a table of 99 builders grows with the square of the game's length.
The position goes without its event log (:func:`position`): the log is words for people,
a bot's view never reads it, and at a big table it is most of the state's size. Over a
game of 99 heuristic builders the hand-offs cost about a third of what replaying did
(``bench/bot_handoff.py``, ``bench/results/bot_handoff.md``). With
``workers=0`` bots think in a thread instead (for tests and tiny deployments: the event
loop then shares the interpreter with the bot).

The workers are few and shared by every game, so three rules keep one game from holding
them (see :mod:`karnak.server.bot_limits` for the limits themselves):

* **Bounded thinks.** Every decision is bounded where it is computed: the bot's budget is
  cut to the seat's :func:`~karnak.server.bot_limits.think_limit` (at most ``max_think``),
  whatever its spec asks, so even a game stored before the limits moves again.
* **One seat of a game at a time.** A game's bot seats think one after the other (a lock
  per game), and the pool takes work in the order it is asked. So a game never has more
  than one think waiting or running, and a bot of any game waits for at most one think
  (of at most ``max_think``) of each other game with a bot to move, shared among the
  workers, before its own turn comes. Bots that move at the same step (a sealed offering)
  gain nothing by thinking at once: the step ends only when the last of them is done.
* **Stopping means stopping.** :meth:`BotRunner.close` ends thinks in progress instead of
  waiting for them: worker processes are terminated, a thread's search is told to stop.
  And a worker ends itself when its server is gone, even killed with no chance to clean
  up (a watchdog thread sees its parent change), so no worker outlives its server.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import os
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from karnak.bots.base import SeatView, game_style, make_bot, split_style
from karnak.core.knowledge import seat_style
from karnak.core.registry import get_game
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.server.bot_limits import bound, think_limit
from karnak.server.limits import ServerSettings
from karnak.server.observability.probe import SILENT, Probe
from karnak.server.rooms import Room

#: How often a worker checks that its server is still there (seconds).
PARENT_CHECK = 0.25
#: How long a terminated worker may take to end before it is killed (seconds).
TERMINATE_GRACE = 2.0


def bot_seed(game_seed: int, version: int, seat: int) -> int:
    """A bot's generator seed for one decision: reproducible from the game's own facts."""
    return (game_seed * 1_000_003 + version * 7_919 + seat) % (1 << 63)


def bot_style(game_seed: int, seat: int) -> int:
    """The style of the bot in ``seat`` (:func:`~karnak.core.knowledge.seat_style`): its
    own, for the whole game, so that two bots of one level at a table play differently; a
    spec that names a style (``heuristic@style=3``) keeps its own."""
    return seat_style(game_seed, seat)


def position(state: State) -> dict[str, Any]:
    """What a worker is sent of ``state``: all of it (``State.to_json``: the position, the
    hidden facts, the generator and the moves) but the event log."""
    return state.clone(log=False).to_json()


def think(
    state_json: dict[str, Any],
    seat: int,
    spec: str,
    seed: int,
    seconds: float,
    iterations: int,
    variant: dict[str, Any] | None = None,
    stop: Callable[[], bool] | None = None,
    style: int | None = None,
) -> str:
    """Worker entry point: the text of the action the bot ``spec`` chooses for ``seat`` in
    the position ``state_json`` (``State.to_json``; ``variant``: the game's variant data,
    if it is not the game as shipped), decided within ``seconds`` and ``iterations``
    whatever its own budget asks; ``stop()`` (in a thread only) ends the search early;
    ``style``: the seat's style (:func:`bot_style`) where the spec names none.

    The state stays here: the bot is given ``SeatView.of(state, seat)``, the seat's view."""
    game = get_game(str(state_json["game"]))
    if variant is not None:
        game = game.with_variant_data(variant)
    state = game.state_from_json(state_json)  # under the rules version the state names
    bot = make_bot(spec, state.game)
    if style and split_style(spec)[1] is None:  # a style written in the spec is its own
        bot = bot.with_style(game_style(state.game, style))
    bot = bound(bot, seconds=seconds, iterations=iterations, stop=stop)
    return bot.choose(SeatView.of(state, seat), Rng(seed)).to_text()


def watch_parent(parent: int) -> None:
    """Worker initializer: end this worker as soon as its server process ``parent`` is gone.

    A server killed outright (SIGKILL, the out-of-memory killer) cannot stop its workers,
    and a worker waiting for work would wait forever. When the parent dies the worker is
    handed to another parent, which a thread notices within :data:`PARENT_CHECK` seconds.
    (Polling the parent works on every platform with ``os.getppid``; a death signal from
    the kernel would follow the thread that started the worker, not the server.)
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="karnak-watch-server", daemon=True).start()


@dataclass
class _GameTurn:
    """The lock a game's bot seats take in turn, and how many seats hold or wait for it."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0


class BotRunner:
    #: What the metrics hear of thinks (karnak.server.observability); nothing by default.
    probe: Probe = SILENT

    def __init__(self, workers: int = 2):
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._closed = threading.Event()  # also the stop signal of searches in threads
        self._turns: dict[str, _GameTurn] = {}
        if workers > 0:
            # spawn, not fork: the server process has threads (the event loop's helpers)
            self._pool = ProcessPoolExecutor(
                workers,
                mp_context=get_context("spawn"),
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )

    @contextlib.asynccontextmanager
    async def _turn(self, game_id: str) -> AsyncIterator[None]:
        """Hold game ``game_id``'s turn to think (its seats take it one at a time)."""
        turn = self._turns.get(game_id)
        if turn is None:
            turn = self._turns[game_id] = _GameTurn()
        turn.users += 1
        try:
            async with turn.lock:
                yield
        finally:
            turn.users -= 1
            if turn.users == 0:
                del self._turns[game_id]

    async def decide(
        self, room: Room, seat: int, settings: ServerSettings | None = None
    ) -> tuple[int, str]:
        """The bot of ``seat`` decides within ``settings``' limits (the defaults if None):
        the seat's version of the position it saw, and the text of its action."""
        spec = room.seats[seat].bot
        if spec is None:
            raise ValueError(f"seat {seat} of game {room.id} is not a bot")
        limits = settings or ServerSettings()
        async with self._turn(room.id):
            if self._closed.is_set():
                raise RuntimeError("the bot runner is closed: the server is stopping")
            # Read together, with no await between: the version is that of the position.
            version = room.version_for(seat)
            seconds = think_limit([info.bot for info in room.seats], seat, room.game, limits)
            args = (
                position(room.state),
                seat,
                spec,
                bot_seed(room.seed, room.version, seat),
                seconds,
                limits.max_iterations,
                room.game.variant_data(),
            )
            style = bot_style(room.seed, seat)
            started = time.perf_counter()
            if self._pool is None:
                text = await asyncio.to_thread(think, *args, stop=self._closed.is_set, style=style)
            else:
                loop = asyncio.get_running_loop()
                work = functools.partial(think, *args, style=style)
                text = await loop.run_in_executor(self._pool, work)
            self.probe.bot_thought(room.game.name, time.perf_counter() - started)
        return version, text

    @property
    def in_flight(self) -> int:
        """Decisions asked and not answered yet (thinking, or waiting for their turn)."""
        return sum(turn.users for turn in self._turns.values())

    async def choose(self, room: Room, seat: int, settings: ServerSettings | None = None) -> str:
        """The text of the action the bot of ``seat`` chooses (see :meth:`decide`)."""
        return (await self.decide(room, seat, settings))[1]

    def close(self) -> None:
        """Stop every bot now: searches in threads are told to stop, worker processes are
        terminated (killed if they do not end within :data:`TERMINATE_GRACE` seconds).
        Waiting for them instead would make stopping the server wait for the longest think.
        """
        self._closed.set()
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # ProcessPoolExecutor cannot end a running call (Python 3.14 adds terminate_workers).
        processes = list(pool._processes.values())
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(TERMINATE_GRACE)
            if process.is_alive():
                process.kill()
                process.join(TERMINATE_GRACE)
        # With its workers gone the pool's manager thread ends at once.
        pool.shutdown(
            wait=not any(process.is_alive() for process in processes), cancel_futures=True
        )

"""Accepting moves: check, commit to the database, then tell everyone; bots and turn timers.

The one write path. Every change to a game (a move, a bot's or a timer's move, an undo, a
seat claimed, a person leaving or running out of time, a reminder sent) goes through
:meth:`GameService.change`, which takes the game's lock, checks the change against the
room, writes it to the database in one transaction, applies it in memory and then tells
everyone. The order is the contract: a crash between the write and the broadcast loses
nothing (the change is in the database); a crash before the write means nobody was told.

The database decides. Every write is a compare-and-set on the game's version: it happens
only if the game is still at the version this process holds. Several server processes may
hold the same game (karnak.server.cluster); when another one wrote first, the write changes
nothing, this process reloads the game from the database and decides again, so the client
gets what one process would have answered (its move applied, or a 409 for a stale version),
never a 500. Changes of other processes arrive through the hub as "changed" events; the
game is brought up to the database before its sockets hear of it, so a page never sees an
older version after a newer one.

Background work runs once: a game's bots and turn timer run only in the process that holds
the game's lease (karnak.server.cluster.leases), and a bot's or timer's move is written only
while that lease is held.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import datetime as dt
import functools
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from karnak.bots.base import Bot, SeatView, available_bots, make_bot
from karnak.bots.levels import is_level, level_spec
from karnak.core.actions import Action
from karnak.core.errors import KarnakError
from karnak.core.game import Game
from karnak.core.registry import get_game
from karnak.core.rng import Rng
from karnak.i18n import current_language, t
from karnak.server.bot_limits import check_bots
from karnak.server.bot_names import default_bot_names
from karnak.server.bot_runner import BotRunner, bot_seed
from karnak.server.capacity import Creator, Quota, ShareError
from karnak.server.capacity import refusal as capacity_refusal
from karnak.server.cluster.leases import game_lease
from karnak.server.conflicts import LeaseLostError, StaleWriteError
from karnak.server.departures import (
    departed_reader,
    reader_left,
    reader_seat,
    with_departure,
)
from karnak.server.disk import DiskFullError, is_disk_full
from karnak.server.disk import warn as warn_disk_full
from karnak.server.executor import DatabaseExecutor
from karnak.server.game_pages import page_for
from karnak.server.hub import ALL_GAMES, Event, Hub, Subscription, game_topic
from karnak.server.limits import ServerSettings
from karnak.server.notifications.presence import Presence
from karnak.server.observability.probe import SILENT, Probe
from karnak.server.replays import ReplayCache, move_counts
from karnak.server.room_cache import RoomCache
from karnak.server.rooms import (
    BOT,
    HUMAN,
    Accepted,
    Ending,
    Room,
    SeatInfo,
    StaleVersionError,
    SubmitError,
    UndoRefusedError,
    hash_token,
    new_token,
)
from karnak.server.store import (
    CapacityError,
    GameStore,
    StoredGameError,
    UnknownGameError,
    WriteGuard,
    result_of,
    seat_infos,
)
from karnak.server.timebank import clock as timebank_clock
from karnak.server.timebank.clock import TimeControl, TimeControlError
from karnak.server.timebank.store import restore
from karnak.server.views import CROWD_SEATS, is_crowd, player_sheet, seat_view

if TYPE_CHECKING:
    from karnak.server.cluster.leases import LeaseKeeper
    from karnak.server.db import ActionRow, GameRow

T = TypeVar("T")

#: The bot that plays a human seat's move when its turn timer runs out: quick and sensible.
TIMEOUT_BOTS = ("heuristic", "random")  # the first one the game has
#: The level of a bot seat that names none (a level or a spec may be asked for).
DEFAULT_LEVEL = "medium"
DEFAULT_BOT = DEFAULT_LEVEL  # (its old name: a bot seat without a spec)
MAX_TURN_TIMER = 24 * 3600.0
#: The most moves the timeout bot plays for one seat when its timer runs out.
MAX_TIMEOUT_MOVES = 20
#: Running games rebuilt per database call at start (a move's write waits for one batch).
LOAD_BATCH = 8
#: How often a change is decided again after another process changed the game first.
WRITE_ATTEMPTS = 5
#: The event on a game's topic when an administrator deleted the game.
DELETED = "deleted"

log = logging.getLogger("karnak.server")


def timeout_bot(game: Game) -> Bot:
    """The quick bot that moves for a seat whose time ran out (the heuristic if the game
    has one)."""
    names = available_bots(game)
    return make_bot(next(name for name in TIMEOUT_BOTS if name in names), game)


class GameUnavailableError(KarnakError):
    """A stored game that this server cannot rebuild; the message says why."""


class ClaimError(KarnakError):
    """A seat that cannot become the account's (the message says why)."""

    status = 409


class ForbiddenError(KarnakError, PermissionError):
    """A token that belongs to no seat of the game."""


class CreateError(KarnakError, ValueError):
    """A game that cannot be created as asked (the message says why)."""


class BusyError(KarnakError):
    """A change that lost the race to other processes' changes several times in a row."""

    status = 409


@dataclass(frozen=True)
class SeatRequest:
    kind: str = HUMAN
    name: str | None = None
    bot: str | None = None
    #: For karnak.server.tables: the account the seat is for (its session opens the game),
    #: and the hash of a secret given out already (an open table's guest ticket becomes the
    #: seat's link); without it the seat gets a new token, returned in Created.tokens.
    account: int | None = None
    token_hash: str | None = None


@dataclass(frozen=True)
class Created:
    room: Room
    #: Each seat's new token (None for a seat created with a token hash given).
    tokens: list[str | None]


@dataclass(frozen=True)
class SubmitOutcome:
    entry: Accepted
    duplicate: bool


#: Messages other than views (chat lines) a connection may have waiting; a client too slow
#: to take them loses the oldest (the page can fetch the whole chat again).
MAX_QUEUED_MESSAGES = 100
#: At a crowd (a table of more than CROWD_SEATS seats, karnak.server.views) a change that
#: leaves the step as it was (one more builder has chosen) reaches each page at most once in
#: CROWD_SETTLE seconds, with the changes since. Every choice changes every page, and each
#: page rebuilt at every choice made the work of a round grow with the cube of the table
#: (bench/crowd_round.py). A crowd's views carry the other players in short too.
CROWD_SETTLE = 1.0


@dataclass(eq=False)  # compared and hashed by identity: each is one connection
class Listener:
    """One open WebSocket: its seat, the newest view waiting to be sent, and other messages.

    A change does not build the view at once: it marks the listener stale with a way to
    build it, and the view is built when the connection is ready to send it. Views are
    complete, so a client only ever needs the newest one; when several moves come at once
    (a table of 99 builders), each connection builds one view for all of them instead of
    one per move. Other messages (a chat line) are queued as they come.
    """

    seat: int | None
    #: The seat's version and the turn deadline of the newest view offered.
    stamp: tuple[int, float | None, tuple[float, ...]] | None = None
    latest: str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    source: Callable[[], str] | None = None
    messages: deque[str] = field(default_factory=lambda: deque(maxlen=MAX_QUEUED_MESSAGES))
    #: Its subscription to the game's topic on the hub (cancelled when the socket closes).
    subscription: Subscription | None = None
    #: The seat whose page this is, counted as open (karnak.server.notifications.presence),
    #: and the seat its person left (a bot took it over: the page tells them why).
    present: int | None = None
    departed: int | None = None
    #: The step of the newest view offered (a new step is never held back), the moment
    #: before which a change of the same step may wait (monotonic seconds), and what wakes
    #: a connection that waits for it.
    step: int | None = None
    not_before: float = 0.0
    urgent: asyncio.Event = field(default_factory=asyncio.Event)

    def push(self, text: str) -> None:
        """A message to send as it is, after those already waiting."""
        self.messages.append(text)
        self.ready.set()

    def offer(self, view: str) -> None:
        """A view already built (the first one, or one the client asked for)."""
        self.latest = view
        self.source = None
        self.ready.set()

    def stale(self, source: Callable[[], str], settle: float = 0.0) -> None:
        """The position changed: ``source()`` builds the newest view when it is sent.

        ``settle`` (seconds): a change that may wait that long, so that the changes of a
        busy table in the meantime go out as one view (see :data:`CROWD_SETTLE`); a change
        with none (a new step) is sent as soon as the connection is ready, whatever waits.
        A change that may wait does not hold back one that may not and is not sent yet (at
        a crowd the first choices of a new round come while its view is still on its way
        to the last pages).
        """
        urgent_waiting = self.source is not None and self.not_before == 0.0
        self.latest = None
        self.source = source
        now = time.monotonic()
        if settle <= 0 or urgent_waiting:
            self.not_before = 0.0
            self.urgent.set()
        elif self.not_before <= now:  # a window opens; later changes join it
            self.not_before = now + settle
        self.ready.set()

    async def next_view(self) -> str:
        """The next message to send: a queued one, else the newest view."""
        while True:
            await self.ready.wait()
            if self.messages:
                text = self.messages.popleft()
                if not self.messages and self.latest is None and self.source is None:
                    self.ready.clear()
                return text
            self.ready.clear()
            wait = self.not_before - time.monotonic()
            if self.latest is None and self.source is not None and wait > 0:
                self.urgent.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.urgent.wait(), wait)
            view, self.latest = self.latest, None
            if view is None:
                source, self.source = self.source, None
                if source is None:
                    continue
                view = source()
            return view


@dataclass
class Position:
    """The views of one position, each computed and encoded once and then shared.

    Many requests ask for the same position (the mover's answer, the next mover's page,
    every spectator's socket), so the board is drawn once for all of them and each seat's
    view is built and encoded once.
    """

    key: tuple[int, int, float | None, tuple[float, ...]]
    #: The board, drawn once per language (its labels are words).
    boards: dict[str, str] = field(default_factory=dict)
    #: Only the encoded text is kept: a server holds one position per running game, and
    #: nested dicts would give the garbage collector many more objects to walk. Keyed by
    #: seat and language: a view holds words (the log, labels, the guide).
    views: dict[tuple[int | None, str], str] = field(default_factory=dict)
    #: A spectator's view for the person who left a seat (by seat and language): it says
    #: why (karnak.server.departures).
    departed_views: dict[tuple[int, str], str] = field(default_factory=dict)


def encode(value: Any) -> str:
    """JSON text (orjson: several times faster than the standard library on these views)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


Change = tuple[T, bool]
"""What one try of a change gives: its result, and whether the game changed (and so
everyone must be told)."""


class GameService:
    #: What the metrics hear of moves (karnak.server.observability); nothing by default.
    probe: Probe = SILENT

    def __init__(
        self,
        store: GameStore,
        bots: BotRunner,
        settings: ServerSettings | None = None,
        hub: Hub | None = None,
        executor: DatabaseExecutor | None = None,
        leases: LeaseKeeper | None = None,
    ):
        self.store = store
        self.bots = bots
        self.settings = settings or ServerSettings()
        self.cache = RoomCache(self.settings.finished_games_in_memory)
        #: Snapshots of finished games' replays (karnak.server.replays), bounded.
        self.replays = ReplayCache()
        #: The games in memory by id (every running game, recent finished ones).
        self.rooms = self.cache.rooms
        #: Running games on this server, loaded or not yet.
        self.running = 0
        self._loader: asyncio.Task[None] | None = None
        #: How long loading the running games took at start (seconds; None while it runs).
        self.loaded_in: float | None = None
        self._locks: dict[str, asyncio.Lock] = {}
        self.hub = hub or Hub()
        self._bot_tasks: dict[tuple[str, int], asyncio.Task[None]] = {}
        #: Per game: the step and deadline its timer is armed for, and the timer's task.
        self._timer_tasks: dict[str, tuple[tuple[int, float], asyncio.Task[None]]] = {}
        self._positions: dict[str, Position] = {}
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._refresh_again: set[str] = set()
        #: Short tasks started in passing (a finished game's lease handed back).
        self._background: set[asyncio.Task[None]] = set()
        # Database calls run in the server's database threads (karnak.server.executor); a
        # service built alone (tests, benchmarks) makes its own.
        self._own_executor = executor is None
        self.executor = executor or DatabaseExecutor(store.engine)
        #: The forced moves played for people after a pause (karnak.server.forced_turns).
        from karnak.server.forced_moves import ForcedMoveSettings  # (its API imports errors)
        from karnak.server.forced_turns import ForcedTurns

        self.forced = ForcedTurns(self, ForcedMoveSettings(store.engine, self.executor))
        #: Which games' background work runs here (None: every game's, one process alone).
        self.leases = leases
        #: Whether other processes may change the games too (a database server, not SQLite).
        self.shared = leases is not None and not leases.exclusive
        if leases is not None:
            leases.on_gain = self._gained
            leases.on_loss = self._lost
        self.hub.on_remote("game:", self._remote)
        #: The seats whose pages are open (no "your turn" notice meanwhile).
        self.presence = Presence(
            store.engine,
            self.executor,
            leases.holder if leases is not None else "",
            shared=self.shared,
        )

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Count the running games and start loading them in the background.

        The server answers at once, however many games are stored: the running games are
        rebuilt a few at a time (the most recently active first), each one's bots and timers
        carrying on as soon as it is loaded and its lease is held here, and a request for a
        game not loaded yet loads it on the spot. A game that cannot be rebuilt is logged
        in one line and shown as unavailable; it never stops the others.
        """
        if self.leases is not None:
            await self.leases.start()
        ids = await self.database(self.store.running_ids)
        self.running = len(ids)
        self._loader = asyncio.create_task(self._load_running(ids))

    async def _load_running(self, ids: list[str]) -> None:
        started = time.perf_counter()
        loaded = await self._load(ids)
        self.loaded_in = time.perf_counter() - started
        if ids:
            log.info("loaded %d running games in %.1f s", loaded, self.loaded_in)

    async def _load(self, ids: Iterable[str]) -> int:
        """Load the games of ``ids`` not held yet, a batch at a time; how many loaded."""
        listed = list(ids)
        loaded = 0
        for first in range(0, len(listed), LOAD_BATCH):
            batch = [i for i in listed[first : first + LOAD_BATCH] if i not in self.rooms]
            if not batch:
                continue
            rooms, failed = await self.database(self.store.load_many, batch)
            for room in rooms:
                self._adopt(room)
            for game_id, reason in failed.items():
                self._unavailable(game_id, reason, running=True)
            loaded += len(rooms)
        return loaded

    def _adopt(self, room: Room) -> Room:
        """Hold a loaded room (unless a copy is held already) and let it carry on."""
        held, new, evicted = self.cache.adopt(room)
        for game_id in evicted:
            self._forget(game_id)
        if new and not held.is_over:
            self._wake(held)
        return held

    def _unavailable(self, game_id: str, reason: str, *, running: bool) -> None:
        if game_id not in self.cache.unavailable:
            log.warning("game %s is unavailable: %s", game_id, reason)
            if running:
                self.running -= 1  # it can never run on: it does not hold a place
        self.cache.mark_unavailable(game_id, reason)
        self._forget(game_id)

    def _forget(self, game_id: str) -> None:
        """Drop what the service keeps of a game no longer held in memory."""
        self._positions.pop(game_id, None)
        self.replays.forget(game_id)
        self._stop_timer(game_id)
        self.forced.forget(game_id)
        lock = self._locks.get(game_id)
        if lock is not None and not lock.locked():
            del self._locks[game_id]

    async def database(self, call: Callable[..., T], *args: Any) -> T:
        """Run a store call in the database threads (the event loop never waits on disk).
        A full disk is refused as such (karnak.server.disk: 503), before anything changes in
        memory: every change writes first."""
        try:
            return await self.executor.run(call, *args)
        except Exception as exc:
            if not is_disk_full(exc):
                raise
            warn_disk_full(exc)
            raise DiskFullError() from exc

    async def stop(self) -> None:
        """Stop the background work and hand the leases back (the others take over)."""
        if self._loader is not None:
            self._loader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._loader
        tasks = [
            *self._bot_tasks.values(),
            *(task for _, task in self._timer_tasks.values()),
            *self._refreshing.values(),
            *self.forced.tasks.values(),
        ]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.presence.stop()
        if self.leases is not None:
            await self.leases.stop()
        self.bots.close()
        if self._own_executor:
            self.executor.shutdown()

    # ------------------------------------------------------------------ leases
    def owns(self, game_id: str) -> bool:
        """Whether this process runs the game's background work (bots, timers, notices)."""
        return self.leases is None or self.leases.holds(game_id)

    @property
    def bots_thinking(self) -> int:
        """Bot turns under way in this process."""
        return len(self._bot_tasks)

    @property
    def positions_held(self) -> int:
        """Games whose current position's views this process keeps encoded (bounded, as the
        games in memory are)."""
        return len(self._positions)

    def _lease(self, room: Room) -> tuple[str, str] | None:
        """The lease a bot's or timer's write of ``room`` needs (None: one process alone)."""
        if self.leases is None:
            return None
        return game_lease(room.id), self.leases.holder

    async def _gained(self, game_id: str) -> None:
        """This process now runs the game's background work: bring the game up to the
        database (its last holder may have written just before it died) and carry on."""
        try:
            room = await self.room(game_id)
        except GameUnavailableError:
            return  # logged once already; the lease stays here, so nobody churns on it
        except KarnakError as exc:
            log.warning("took the lease of game %s but cannot load it: %s", game_id, exc)
            return
        async with self._lock(room.id):
            await self._refresh(room)
        self._after_change(room, here=False)

    async def _lost(self, game_id: str) -> None:
        """Another process runs the game's background work now: stop ours at once."""
        for key in [k for k in self._bot_tasks if k[0] == game_id]:
            self._bot_tasks.pop(key).cancel()
        self._stop_timer(game_id)
        # the services that watch every game (the time bank) disarm what they had armed
        self.hub.publish(ALL_GAMES, "released", {"game_id": game_id})

    # ------------------------------------------------------------------ games
    async def create(
        self,
        game_name: str,
        seats: list[SeatRequest],
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        turn_timer: float | None = None,
        time_control: TimeControl | Mapping[str, Any] | None = None,
        *,
        creator: Creator | None = None,
        sealed_until: dt.datetime | None = None,
    ) -> Created:
        """A new game. ``time_control``: a time per move and a bank for each person
        (karnak.server.timebank), ``{"per_move": s, "bank": s}``; a game has a turn timer
        or a time control, not both. ``creator``: who asks (their share of the running
        games is checked: karnak.server.capacity). ``sealed_until``: until then only the
        seats may look at the game (see ``Room.sealed_until``)."""
        game = get_game(game_name)
        game.check_player_count(len(seats))
        resolved = game.resolve_options(options or {})
        if turn_timer is not None and not 1 <= turn_timer <= MAX_TURN_TIMER:
            raise CreateError(
                t(
                    "a turn timer is between 1 second and {most} seconds",
                    most=format(MAX_TURN_TIMER, "g"),
                )
            )
        try:
            control = timebank_clock.control_of(time_control)
        except TimeControlError as exc:
            raise CreateError(str(exc)) from exc
        if control is not None and turn_timer is not None:
            raise CreateError(t("a game has a turn timer or a time control, not both"))
        infos: list[SeatInfo] = []
        tokens: list[str | None] = []
        accounts: set[int | None] = set()
        default_names = game.seat_names(len(seats))
        # bots named by their level ("Medium bot"; karnak.server.bot_names) unless named
        specs = [self._bot_spec(game, request, seats) for request in seats]
        bot_names = default_bot_names(
            [None if r.name and r.name.strip() else s for r, s in zip(seats, specs, strict=True)],
            game,
            taken=[r.name.strip() for r in seats if r.name and r.name.strip()],
        )
        used: set[str] = set()
        for index, request in enumerate(seats):
            kind = request.kind.strip().lower()
            if kind not in (HUMAN, BOT):
                raise CreateError(
                    t(
                        "seat {seat}: a seat is 'human' or 'bot', not {kind}",
                        seat=index + 1,
                        kind=repr(kind),
                    )
                )
            bot = None
            if kind == BOT:
                bot = specs[index] or ""  # (a bot seat always has one: _bot_spec)
                make_bot(bot, game)  # a bad name or budget is refused here, with the list
            name = (
                (request.name or "").strip()
                or (bot_names[index] if kind == BOT else None)
                or default_names[index]
            )
            if len(name) > 40:
                raise CreateError(
                    t("seat {seat}: a name has at most 40 characters", seat=index + 1)
                )
            if name.casefold() in used:
                raise CreateError(
                    t("two seats are named {name}; names must differ", name=repr(name))
                )
            used.add(name.casefold())
            if request.account is not None and (kind == BOT or request.account in accounts):
                raise CreateError(
                    t("seat {seat}: an account holds one person's seat of a game", seat=index + 1)
                )
            accounts.add(request.account)
            token = None if request.token_hash else new_token()
            tokens.append(token)
            digest = hash_token(token) if token is not None else request.token_hash or ""
            infos.append(SeatInfo(index, name, kind, bot, digest, account=request.account))
        check_bots([info.bot for info in infos], game, self.settings)  # think time: LimitError
        seed = secrets.randbits(62) if seed is None else seed
        state = game.new_state([info.name for info in infos], seed=seed, options=resolved)
        room = Room(secrets.token_urlsafe(9), game, state, infos, seed, turn_timer)
        room.time_control = control
        room.clocks = timebank_clock.first_clocks(room, timebank_clock.now())
        room.step_started_at = time.time()
        room.sealed_until = sealed_until
        try:
            await self._store_new(room, Quota.of(self.settings, creator))
        except (CapacityError, ShareError) as exc:
            raise capacity_refusal(exc, self.settings) from None
        self.running += 1
        self._adopt(room)
        return Created(room, tokens)

    def _bot_spec(self, game: Game, request: SeatRequest, seats: list[SeatRequest]) -> str | None:
        """A bot seat's spec: the one asked for, a level's (a level's name is taken too, as
        the lobby sends it), or the default level's (Medium); None for a person's seat."""
        if request.kind.strip().lower() != BOT:
            return None
        wanted = (request.bot or DEFAULT_LEVEL).strip().lower()
        if not is_level(wanted):
            return wanted
        bots = sum(1 for r in seats if r.kind.strip().lower() == BOT)
        limits = {
            "max_think": self.settings.max_think,
            "max_game_think": self.settings.max_game_think,
        }
        return level_spec(wanted, game, max(1, bots), **limits)

    async def _store_new(self, room: Room, quota: Quota) -> None:
        """Store a new game with its lease (held here from the start)."""
        most = self.settings.max_running_games
        if self.leases is None:
            await self.database(self.store.create, room, most, None, quota)
            return
        async with self.leases.lock:
            lease = self.leases.new_game(room.id)
            await self.database(self.store.create, room, most, lease, quota)
            self.leases.created(room.id)

    async def room(self, game_id: str) -> Room:
        """The game, from memory or loaded now; UnknownGameError if there is none,
        GameUnavailableError (with the reason) if it cannot be rebuilt."""
        room = self.cache.get(game_id)
        if room is not None:
            return room
        reason = self.cache.unavailable.get(game_id)
        if reason is None:
            try:
                return self._adopt(await self.database(self.store.load, game_id))
            except StoredGameError as exc:
                reason = exc.reason
                self._unavailable(game_id, reason, running=exc.running)
        raise GameUnavailableError(
            t("game {game} is unavailable: {reason}", game=game_id, reason=reason)
        )

    async def summaries(self, limit: int) -> list[dict[str, Any]]:
        """The public list of games, newest public activity first; a game that cannot be
        loaded shows as unavailable, with the reason."""
        rows = await self.database(self.store.summaries, limit)
        # a finished game's moves, counted as its replay counts them (karnak.server.replays)
        finished = [summary.id for summary in rows if summary.status == "finished"]
        moves = await self.database(move_counts, self.store, finished) if finished else {}
        listed = []
        for summary in rows:
            line = dict(summary.__dict__)
            if summary.status == "finished":
                line["moves"] = moves.get(summary.id, 0)
            reason = self.cache.unavailable.get(summary.id)
            if reason is not None:
                line["status"] = "unavailable"
                line["reason"] = reason
            listed.append(line)
        return listed

    def seat_of(self, room: Room, token: str | None, account: int | None = None) -> int | None:
        """The seat of ``token``, else the seat ``account`` holds; None for neither (a
        spectator); ForbiddenError for a token of no seat."""
        if not token:
            found = room.seat_for_account(account)
            reader_left(room, None if found is not None else account)
            return found
        seat = room.seat_for_token(token)
        if seat is None:
            raise ForbiddenError(t("this link's token does not belong to any seat of the game"))
        if room.seats[seat].left is not None:  # karnak.server.timebank.abandonment
            raise ForbiddenError(
                t(
                    "this seat's player left the game and a bot plays it now: its link opens "
                    "nothing any more (watch the game at {address})",
                    address="/games/" + room.id,
                )
            )
        reader_seat(room, seat)
        return seat

    async def release_account(self, account: int) -> None:
        """An account was deleted (karnak.server.admin; the database has its seats as
        guests' already): the seats it held in the games in memory become guests' too, and
        every process hears of it (each reads the seats again)."""
        for room in list(self.cache.rooms.values()):
            if not any(info.account == account for info in room.seats):
                continue

            async def attempt(room: Room = room) -> Change[None]:
                room.seats = [
                    dataclasses.replace(info, account=None) if info.account == account else info
                    for info in room.seats
                ]
                self._positions.pop(room.id, None)  # the views say which seats are held
                return None, True

            await self.change(room, attempt)

    async def claim_seat(self, room: Room, seat: int, account: int) -> None:
        """Make a guest's seat the account's (one seat per account and game)."""

        async def attempt() -> Change[None]:
            info = room.seats[seat]
            if room.is_over:  # its seats are its record: nobody's profile gains it now
                raise ClaimError(t("the game is over: a finished game's seats cannot be claimed"))
            if info.is_bot:
                raise ClaimError(t("a bot's seat cannot be claimed"))
            if info.account == account:
                return None, False
            if info.account is not None:
                raise ClaimError(t("another account holds this seat already"))
            held = room.seat_for_account(account)
            if held is not None:
                raise ClaimError(
                    t(
                        "your account holds seat {seat} of this game already; one seat each",
                        seat=held + 1,
                    )
                )
            await self.database(self.store.claim_seat, room.id, seat, account)
            room.seats[seat] = dataclasses.replace(info, account=account)
            # the views say which seats are held (karnak.server.tables): drop the cached ones
            self._positions.pop(room.id, None)
            return None, True

        await self.change(room, attempt)

    async def delete(self, room: Room, remove: Callable[[], object], reason: str) -> None:
        """Delete a game (karnak.server.admin): ``remove`` deletes its rows (run in the
        database threads, under the game's lock, so no change of it is written meanwhile);
        then the game leaves this process's memory and every other's (``deleted`` on its
        topic), and its sockets hear ``{"event": "deleted", "reason": ...}``. A request for
        it then answers 410 with ``reason`` here, 404 after a restart."""
        async with self._lock(room.id):
            await self.database(remove)
            self._drop_deleted(room, reason)
        message = {"game_id": room.id, "reason": reason}
        self.hub.publish(game_topic(room.id), DELETED, {"message": message})

    def _drop_deleted(self, room: Room, reason: str = "it was deleted") -> None:
        """Forget a deleted game here: its bots, timer, cached views, lease and place."""
        for key in [k for k in self._bot_tasks if k[0] == room.id]:
            self._bot_tasks.pop(key).cancel()
        self._unavailable(room.id, reason, running=not room.is_over)
        self.hub.publish_here(ALL_GAMES, "released", {"game_id": room.id})  # timebank
        if self.leases is not None and self.leases.holds(room.id):
            task = asyncio.get_running_loop().create_task(self.leases.give_back(room.id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def view_json(self, room: Room, seat: int | None, departed: int | None = None) -> str:
        """The seat's view of the current position as JSON, built and encoded once per
        language (the request's, :func:`karnak.i18n.current_language`). ``departed``: a
        spectator's view for the person who left that seat (by default, the reader found
        by :meth:`seat_of` in this request, karnak.server.departures)."""
        if seat is None and departed is None:
            departed = departed_reader(room)
        if seat is None and departed is not None and departed >= 0:
            return self._departed_view(room, departed)
        deadline = self.deadline(room)
        plans = self.forced.waiting(room)
        key = (room.version, id(room.state), deadline, tuple(p.at for p in plans))
        position = self._positions.get(room.id)
        if position is None or position.key != key:
            position = self._positions[room.id] = Position(key)
        language = current_language()
        text = position.views.get((seat, language))
        if text is None:
            parts = page_for(room.game.name)
            board_svg = position.boards.get(language)
            if parts is not None and board_svg is None:
                board_svg = parts.board_svg(room.game, room.state.observation(None))
                position.boards[language] = board_svg
            view = seat_view(room, seat, deadline=deadline, board_svg=board_svg)
            if plans:  # public: decided from the public view (karnak.server.forced_moves)
                mine = [p for p in plans if p.seat == seat]
                view["forced"] = (mine or plans)[0].view()
            text = position.views[(seat, language)] = encode(view)
        return text

    def sheet_json(self, room: Room, reader: int | None, seat: int) -> str | None:
        """One player's part in full as ``reader`` sees it (None: a spectator), as JSON in
        the request's language (:func:`karnak.server.views.player_sheet`); None where the
        game has no such seat or its page no such part."""
        found = player_sheet(room, reader, seat)
        return None if found is None else encode(found)

    def _departed_view(self, room: Room, departed: int) -> str:
        """A spectator's view with the banner for the person who left ``departed``."""
        text = self.view_json(room, None, departed=-1)  # the position's spectator view
        position = self._positions[room.id]
        key = (departed, current_language())
        found = position.departed_views.get(key)
        if found is None:
            found = position.departed_views[key] = with_departure(room, departed, text)
        return found

    def deadline(self, room: Room) -> float | None:
        """When the turn timer of the current step runs out (None: no timer runs). Counted
        from the step's stored start, so every process shows the same deadline."""
        if room.turn_timer is None or room.is_over or not room.humans_to_move():
            return None
        if room.step_started_at is None:  # a game stored before steps' starts were kept
            room.step_started_at = time.time()
        return room.step_started_at + room.turn_timer

    # ------------------------------------------------------------------ moves
    def parse(self, room: Room, action: str | Mapping[str, Any]) -> Action:
        if isinstance(action, str):
            return room.game.parse_action(action)
        return room.game.action_from_json(action)

    # ------------------------------------------------------------------ the write path
    async def change(self, room: Room, attempt: Callable[[], Awaitable[Change[T]]]) -> T:
        """The one write path: run ``attempt`` (check against the room, write to the
        database, apply in memory) under the game's lock, then tell everyone.

        ``attempt`` raises StaleWriteError when its compare-and-set found the game changed
        by another process: the room is brought up to the database and ``attempt`` runs
        again, deciding against the new position (a stale move is then refused as one
        process would refuse it). Any other error is the change's refusal.
        """
        async with self._lock(room.id):
            refreshed = False
            for _ in range(WRITE_ATTEMPTS):
                try:
                    result, changed = await attempt()
                    break
                except StaleWriteError:
                    await self._refresh(room)
                    refreshed = True
                except StaleVersionError:
                    if refreshed or not self.shared:
                        raise
                    # other processes may have moved the game further than this copy: the
                    # refusal names the version the database holds, so one retry will do
                    await self._refresh(room)
                    refreshed = True
            else:
                raise BusyError(
                    t("the game changed several times while this was written: try again")
                )
        if changed:
            self._after_change(room, here=True)
        return result

    async def submit(
        self,
        room: Room,
        seat: int,
        version: int,
        action: Action,
        *,
        by_timeout: bool = False,
        automatic: bool = False,
    ) -> SubmitOutcome:
        """Accept ``action`` for ``seat`` if it is fresh and legal; raise SubmitError if not.

        ``automatic``: a bot's or a timer's move, written only while this process holds the
        game's lease (LeaseLostError if it no longer does: the move is not played).
        """

        ahead = AheadCheck()

        async def attempt() -> Change[SubmitOutcome]:
            ahead.check(room, seat, version)
            earlier = room.check(seat, version, action)
            if earlier is not None:
                return SubmitOutcome(earlier, duplicate=True), False
            # Checked once (room.check), applied to a copy and classified once (prepare):
            # the room changes only once the write is done, and accept reuses the move.
            move = room.prepare(seat, action)
            number, new_version = len(room.accepted), room.version + 1
            entry = Accepted(number, new_version, seat, action.to_text(), by_timeout)
            public_version = None if move.private else room.version_for(None) + 1
            # the seats' clocks this move stops and starts, written with it (timebank)
            clocks = timebank_clock.after_change(room, move.after)
            result = result_of(move.after, room.departed())
            now = time.time()
            guard = WriteGuard(
                step_started_at=None if move.same_step else now,
                lease=self._lease(room) if automatic else None,
                now=now,
            )
            await self.database(
                self.store.append, room, entry, result, public_version, clocks, guard
            )
            accepted = room.accept(seat, action, by_timeout=by_timeout, move=move)
            if not move.same_step:
                room.step_started_at = now
            room.clocks.update(clocks)
            return SubmitOutcome(accepted, duplicate=False), True

        outcome = await self.change(room, attempt)
        if not outcome.duplicate:
            self.probe.move_applied(room.game.name, automatic=automatic, by_timeout=by_timeout)
        return outcome

    async def undo(self, room: Room, seat: int, version: int) -> Accepted:
        """Take back ``seat``'s last move if the rules of undo allow it (see rooms.Room)."""

        ahead = AheadCheck()

        async def attempt() -> Change[Accepted]:
            ahead.check(room, seat, version)
            mine = room.version_for(seat)
            if version != mine:
                raise StaleVersionError(
                    t(
                        "the game has moved on since version {version} (now {now})",
                        version=version,
                        now=mine,
                    ),
                    version=mine,
                )
            reason = await asyncio.to_thread(room.undo_refusal, seat)  # CPU, not the database
            if reason is not None:
                raise UndoRefusedError(
                    t("cannot take the move back: {reason}", reason=t(reason)), version=version
                )
            last = room.accepted[-1]
            # after the undo: one version more, and one private move fewer if it was one
            public_version = room.version_for(None) + 1 + (1 if last.private else 0)
            # the clocks it stops and starts (timebank); the refusal check computed the
            # state before the last move, the room keeps it
            before = room.previous or room.replayed(len(room.accepted) - 1).state
            clocks = timebank_clock.after_change(room, before)
            now = time.time()
            await self.database(
                self.store.remove_last,
                room,
                last,
                room.version + 1,
                public_version,
                clocks,
                WriteGuard(step_started_at=now, now=now),
            )
            room.undo()
            room.step_started_at = now
            room.clocks.update(clocks)
            return last, True

        return await self.change(room, attempt)

    # ------------------------------------------------------------------ other processes
    async def _refresh(self, room: Room) -> None:
        """Bring the room up to the database (under the game's lock): the moves made since
        by other processes are applied in order; an undo or anything unexpected reloads the
        whole game. Its cached views are dropped either way."""
        self._positions.pop(room.id, None)
        row, actions = await self.database(self.store.changes_since, room.id, len(room.accepted))
        if not _caught_up(room, row, actions):
            try:
                room.take_over(await self.database(self.store.load, room.id))
            except StoredGameError as exc:
                self._unavailable(room.id, exc.reason, running=exc.running)
                raise GameUnavailableError(
                    t("game {game} is unavailable: {reason}", game=room.id, reason=exc.reason)
                ) from exc
        self._positions.pop(room.id, None)

    def _remote(self, event: Event) -> None:
        """An event of another process on a game's topic: a change is first brought in from
        the database (in a task of its own per game: several events in a row make one or
        two refreshes), then told to this process's sockets; any other event (a chat line)
        is delivered as it is."""
        if event.kind == DELETED:  # by an administrator, in another process
            held = self.cache.rooms.get(event.topic.removeprefix("game:"))
            told = (event.payload.get("message") or {}).get("reason")
            if held is not None:
                self._drop_deleted(held, told if isinstance(told, str) else "it was deleted")
        if self.forced.heard(event):  # a forced move's plan or a person's choice
            return
        if event.kind != "changed":
            self.hub.deliver(event)
            return
        room = self.cache.rooms.get(event.topic.removeprefix("game:"))
        if room is not None:
            self._schedule_refresh(room)

    def _schedule_refresh(self, room: Room) -> None:
        if room.id in self._refreshing:
            self._refresh_again.add(room.id)
            return
        self._refreshing[room.id] = asyncio.create_task(self._refresh_from_remote(room))

    async def _refresh_from_remote(self, room: Room) -> None:
        try:
            while True:
                self._refresh_again.discard(room.id)
                async with self._lock(room.id):
                    await self._refresh(room)
                self._after_change(room, here=False)
                if room.id not in self._refresh_again:
                    return
        except Exception:  # logged; the next event or a resync tries again
            log.exception("could not bring game %s up to the database", room.id)
        finally:
            self._refreshing.pop(room.id, None)

    async def resync(self) -> None:
        """After a gap in the broker's events: bring every game held here up to the
        database (a missed event would otherwise leave a page behind)."""
        for room in list(self.cache.rooms.values()):
            self._schedule_refresh(room)

    # ------------------------------------------------------------------ listeners
    def subscribe(self, room: Room, seat: int | None) -> Listener:
        """A socket of ``seat`` (None: a spectator) on the game: it gets the view now, and
        whatever the hub publishes on the game's topic from now on."""
        listener = Listener(seat, stamp=self._stamp(room, seat))
        listener.subscription = self.hub.subscribe(
            game_topic(room.id), functools.partial(self._deliver, room, listener)
        )
        listener.departed = departed_reader(room) if seat is None else None
        if seat is not None:
            listener.present = seat
            self.presence.opened(room.id, seat)
        listener.offer(self.view_json(room, seat, departed=listener.departed))
        return listener

    def unsubscribe(self, room: Room, listener: Listener) -> None:
        if listener.subscription is not None:
            listener.subscription.cancel()
            listener.subscription = None
        if listener.present is not None:
            self.presence.closed(room.id, listener.present)
            listener.present = None

    def _deliver(self, room: Room, listener: Listener, event: Event) -> None:
        """What one socket makes of an event on its game's topic.

        A change is sent only to a socket whose seat saw it: a private step of another seat
        sends nothing (even an identical message would tell that something happened). Any
        other event carries a message for clients (a chat line), sent to every socket of the
        game or, with ``seats_only``, to the seats' sockets and not the spectators'.
        A socket of a seat whose person left (karnak.server.timebank.abandonment) becomes a
        spectator's at the next change: the bot's hand is nobody's to see.
        """
        if event.kind == "changed":
            if listener.seat is not None and room.seats[listener.seat].left is not None:
                # its person left (timebank): a bot's seat is only watched, and the page
                # says why (karnak.server.departures)
                listener.departed, listener.seat = listener.seat, None
                if listener.present is not None:
                    self.presence.closed(room.id, listener.present)
                    listener.present = None
            stamp = self._stamp(room, listener.seat)
            if stamp != listener.stamp:
                listener.stamp = stamp
                # at a crowd, a change inside a step (one more builder has chosen) may
                # wait a moment and go out with the next ones; a new step goes at once
                same_step = listener.step == room.step_started
                settle = CROWD_SETTLE if same_step and is_crowd(room) else 0.0
                listener.step = room.step_started
                listener.stale(
                    functools.partial(
                        self.view_json, room, listener.seat, departed=listener.departed
                    ),
                    settle,
                )
            return
        message = event.payload.get("message")
        if message is None or (event.payload.get("seats_only") and listener.seat is None):
            return
        listener.push(encode({"event": event.kind, **message}))

    # ------------------------------------------------------------------ after a change
    def _after_change(self, room: Room, *, here: bool) -> None:
        """Tell everyone of a change: this process's sockets, the other processes (for a
        change made ``here``), and, where this process holds the game's lease, the services
        that watch every game; then let the bots and the timer carry on."""
        if room.is_over and not self.cache.is_finished(room.id):
            self.running -= 1
            for game_id in self.cache.finished(room):
                self._forget(game_id)
            if self.leases is not None and self.leases.holds(room.id):
                task = asyncio.get_running_loop().create_task(self.leases.give_back(room.id))
                self._background.add(task)
                task.add_done_callback(self._background.discard)
        if here:
            self.hub.publish(game_topic(room.id), "changed")
        else:
            self.hub.publish_here(game_topic(room.id), "changed")
        self._wake(room, announce=False)
        if self.owns(room.id) or (room.is_over and here):
            self.hub.publish(ALL_GAMES, "changed", {"game_id": room.id})

    def _wake(self, room: Room, *, announce: bool = True) -> None:
        """Start the turn timer and wake the bots (where this process runs the game's
        background work); ``announce``: tell the game's sockets too."""
        if self.owns(room.id):
            self._arm_timer(room)
            for seat in room.bots_to_move():
                key = (room.id, seat)
                if key not in self._bot_tasks:
                    self._bot_tasks[key] = asyncio.create_task(self._bot_turns(room, seat))
            self.forced.schedule(room)
        if announce:
            self.hub.publish_here(game_topic(room.id), "changed")
            if self.owns(room.id):
                self.hub.publish(ALL_GAMES, "changed", {"game_id": room.id})

    async def _bot_turns(self, room: Room, seat: int) -> None:
        """Let the bot decide for as long as its seat is to move (market turns are several)
        and this process holds the game's lease."""
        try:
            while not room.is_over and seat in room.state.to_move() and self.owns(room.id):
                version, text = await self.bots.decide(room, seat, self.settings)
                if not self.owns(room.id):
                    return  # the lease was lost while it thought: the new holder plays
                try:
                    await self.submit(
                        room, seat, version, room.game.parse_action(text), automatic=True
                    )
                except SubmitError:
                    continue  # the position changed while it thought: think again
                except LeaseLostError:
                    return
        finally:
            self._bot_tasks.pop((room.id, seat), None)

    def _stamp(self, room: Room, seat: int | None) -> tuple[int, float | None, tuple[float, ...]]:
        """What a socket's view depends on beyond the position: the seat's version, the
        timer's deadline and the forced moves waiting (all public but the version)."""
        plans = tuple(plan.at for plan in self.forced.waiting(room))
        return room.version_for(seat), self.deadline(room), plans

    def _arm_timer(self, room: Room) -> None:
        deadline = self.deadline(room)
        armed = self._timer_tasks.get(room.id)
        if deadline is None:
            self._stop_timer(room.id)
            return
        key = (room.step_started, deadline)
        if armed is not None and armed[0] == key and not armed[1].done():
            return  # this step's timer is already running
        self._stop_timer(room.id)
        task = asyncio.create_task(self._timeout(room, room.step_started, deadline))
        self._timer_tasks[room.id] = (key, task)

    def _stop_timer(self, game_id: str) -> None:
        armed = self._timer_tasks.pop(game_id, None)
        if armed is not None and armed[1] is not asyncio.current_task():
            armed[1].cancel()

    async def _timeout(self, room: Room, step: int, deadline: float) -> None:
        """When the timer runs out, a quick bot plays every human seat still to move."""
        await asyncio.sleep(max(0.0, deadline - time.time()))
        armed = self._timer_tasks.get(room.id)
        if armed is not None and armed[1] is asyncio.current_task():
            del self._timer_tasks[room.id]
        if room.step_started != step or room.is_over or not self.owns(room.id):
            return
        bot = timeout_bot(room.game)
        for seat in room.humans_to_move():
            # A seat may owe several private steps of the same sealed step (Egyptia: a
            # plague, a building, its payment): the bot plays them all, so the seat is not
            # left waiting in a step whose timer has already run out.
            for _ in range(MAX_TIMEOUT_MOVES):
                if room.is_over or room.step_started != step:
                    break
                if seat not in room.state.to_move():
                    break
                action = bot.choose(
                    SeatView.of(room.state, seat), Rng(bot_seed(room.seed, room.version, seat))
                )
                try:
                    await self.submit(
                        room,
                        seat,
                        room.version_for(seat),
                        action,
                        by_timeout=True,
                        automatic=True,
                    )
                except (SubmitError, LeaseLostError):
                    break

    # ------------------------------------------------------------------ locks
    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock


class AheadCheck:
    """A client's version ahead of this process's copy of the game: another process may
    have made the change the client saw (a balancer sends each request anywhere), so the
    copy is brought up to the database once (by raising StaleWriteError inside a change)
    before the version is judged; a version still ahead after that is refused as before."""

    def __init__(self) -> None:
        self.refreshed = False

    def check(self, room: Room, seat: int, version: int) -> None:
        if not self.refreshed and version > room.version_for(seat):
            self.refreshed = True
            raise StaleWriteError(f"version {version} of game {room.id} is not here yet")


def _caught_up(room: Room, row: GameRow, actions: list[ActionRow]) -> bool:
    """Apply to ``room`` what the database holds beyond it (``row`` and the ``actions`` from
    the last one the room knows); False when that cannot be done move by move (the last
    known move is gone or changed: an undo; or anything fails), and the game must be
    reloaded whole."""
    known = len(room.accepted)
    new = actions
    if known:
        last = room.accepted[-1]
        first = actions[0] if actions else None
        if first is None or first.number != known - 1:
            return False
        if (first.version, first.seat, first.text) != (last.version, last.seat, last.text):
            return False
        new = actions[1:]
    if row.version < room.version:
        return False
    try:
        for action in new:
            if action.number != len(room.accepted):
                return False
            room.accept(
                action.seat,
                room.game.parse_action(action.text),
                by_timeout=action.by_timeout,
                version=action.version,
            )
        if row.version > room.version:  # an undo or a departure was the last change
            room.bump(row.version)
    except Exception:  # the whole reload says what is wrong, if anything is
        return False
    if row.version != room.version:
        return False
    room.seats = seat_infos(row)
    restore(room, row)
    room.step_started_at = row.step_started_at
    room.ended = Ending.stored(row.status, row.result)  # an idle game expired (expiry)
    return True


__all__ = [
    "CROWD_SEATS",
    "BusyError",
    "CreateError",
    "Created",
    "ForbiddenError",
    "GameService",
    "GameUnavailableError",
    "Listener",
    "SeatRequest",
    "SubmitOutcome",
    "UnknownGameError",
]

"""The server's Prometheus metrics, in a registry of the application's own.

Each application has its own :class:`~prometheus_client.CollectorRegistry` (never the
library's global one), so several servers in one process (the tests, a benchmark) do not
clash, and each process of ``karnak serve --workers N`` serves its own figures (see
docs/monitoring.md on scraping several processes).

Three sources:

- events, counted as they happen: moves (the game service's :class:`~.probe.Probe`), bot
  thinks (the bot runner's), answers, refusals and sockets (the request middleware),
  database statements (SQLAlchemy's cursor events on the engine);
- the server's state, read when ``/metrics`` is asked (:class:`ServerState`): games in
  memory, the bot queue, the e-mail queue and its counts;
- the database, asked once per scrape (:meth:`Metrics.refresh`): the stored games by kind
  and status.

Only counts and durations, labelled by a few fixed words (game kinds, statuses, reasons):
never a game's id or state, a name, an address or a token.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter as Tally
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    Info,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine, event, func, select

from karnak import __version__
from karnak.core.registry import available_games
from karnak.server.observability.context import current_request
from karnak.server.observability.probe import Probe
from karnak.server.observability.refusals import ALWAYS, reason_of_close, reason_of_status

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor
    from karnak.server.service import GameService

log = logging.getLogger("karnak.server")

#: Every metric's name starts with it.
PREFIX = "karnak"
#: Buckets (seconds) of the latencies people feel: a move's way to every screen, a request.
FAST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: A database statement: most take well under a millisecond on SQLite.
DATABASE_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                    0.25, 0.5, 1.0, 2.5)  # fmt: skip
#: A bot's decision: up to the longest think allowed (``max_think``, 10 s by default).
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 60.0)
#: The statement kinds of ``karnak_db_statement_seconds`` (others are "other").
STATEMENTS = ("select", "insert", "update", "delete")
#: How long a scrape waits for the stored games' count (seconds); past it they are left out.
STORED_TIMEOUT = 2.0
#: The attribute on SQLAlchemy's execution context that holds the statement's start.
STARTED = "_karnak_started"


STATUS_CLASSES = ("1xx", "2xx", "3xx", "4xx", "5xx", "other")


def status_class(status: int) -> str:
    return STATUS_CLASSES[status // 100 - 1] if 100 <= status <= 599 else "other"


def statement_kind(statement: str) -> str:
    word = statement.lstrip()[:6].lower()
    return word if word in STATEMENTS else "other"


class Metrics(Probe):
    """The metrics of one application; also the probe of its game service and bot runner."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        registry = self.registry
        self.moves = Counter(
            f"{PREFIX}_moves",
            "Moves applied (rate(): moves a second), by game kind and by whom: person, bot, "
            "or timeout (a turn timer ran out)",
            ["game", "by"],
            registry=registry,
        )
        self.broadcast = Histogram(
            f"{PREFIX}_move_broadcast_seconds",
            "From a person's move reaching the server to its change being published to "
            "every watcher (checked, written, applied, told)",
            ["game"],
            buckets=FAST_BUCKETS,
            registry=registry,
        )
        self.bot_think = Histogram(
            f"{PREFIX}_bot_think_seconds",
            "A bot's decision, from its seat's turn to think to its answer (waiting for a "
            "free worker process included)",
            ["game"],
            buckets=THINK_BUCKETS,
            registry=registry,
        )
        self.sockets = Gauge(
            f"{PREFIX}_sockets_open",
            "WebSockets open in this process, by kind: game (a game's page), account (a "
            "logged-in page's notifications)",
            ["kind"],
            registry=registry,
        )
        self.refusals = Counter(
            f"{PREFIX}_refusals",
            "Requests refused (4xx answers, sockets closed with 44xx), by reason: rate, cap, "
            "share, size, limit, stale, move, sockets, invalid, forbidden, not_found...",
            ["reason"],
            registry=registry,
        )
        self.responses = Counter(
            f"{PREFIX}_http_responses",
            "HTTP answers by status class (2xx, 3xx, 4xx, 5xx)",
            ["status"],
            registry=registry,
        )
        self.request_seconds = Histogram(
            f"{PREFIX}_http_request_seconds",
            "HTTP requests, from arrival to the end of the answer",
            buckets=FAST_BUCKETS,
            registry=registry,
        )
        self.statements = Histogram(
            f"{PREFIX}_db_statement_seconds",
            "Database statements, by kind (select, insert, update, delete, other), as the "
            "driver ran them",
            ["statement"],
            buckets=DATABASE_BUCKETS,
            registry=registry,
        )
        Info(f"{PREFIX}_build", "The version of Karnak serving", registry=registry).info(
            {"version": __version__}
        )
        ProcessCollector(namespace=PREFIX, registry=registry)
        self.state = ServerState()
        registry.register(self.state)
        for kind in ("game", "account"):
            self.sockets.labels(kind)
        #: Each status class's counter, found once (a request pays no label lookup).
        self._answers = {name: self.responses.labels(name) for name in STATUS_CLASSES}
        for reason in ALWAYS:
            self.refusals.labels(reason)
        for game in available_games():
            self.moves.labels(game, "person")

    # ------------------------------------------------------------------ the probe
    def move_applied(self, game: str, *, automatic: bool, by_timeout: bool) -> None:
        by = "timeout" if by_timeout else "bot" if automatic else "person"
        self.moves.labels(game, by).inc()
        request = current_request()
        if not automatic and request is not None:
            self.broadcast.labels(game).observe(time.perf_counter() - request.started)

    def bot_thought(self, game: str, seconds: float) -> None:
        self.bot_think.labels(game).observe(seconds)

    # ------------------------------------------------------------------ requests
    def socket_opened(self, kind: str) -> None:
        self.sockets.labels(kind).inc()

    def socket_closed(self, kind: str) -> None:
        self.sockets.labels(kind).dec()

    def answered(
        self,
        kind: str,
        status: int,
        seconds: float,
        *,
        refusal: str | None = None,
        close_code: int | None = None,
    ) -> None:
        """A request answered (or a socket closed): its status, duration and refusal."""
        if kind == "http":
            self._answers[status_class(status)].inc()
            self.request_seconds.observe(seconds)
            if 400 <= status <= 499:
                self.refusals.labels(refusal or reason_of_status(status)).inc()
            return
        reason = reason_of_close(close_code) if status == 101 else None
        if status == 403 and close_code is not None:  # refused before its handshake
            reason = reason_of_close(close_code) or "forbidden"
        if reason is not None:
            self.refusals.labels(reason).inc()

    # ------------------------------------------------------------------ the database
    def watch_engine(self, engine: Engine) -> None:
        """Time every statement the engine runs (SQLAlchemy's cursor events)."""

        @event.listens_for(engine, "before_cursor_execute")
        def _started(
            _conn: Any, _cursor: Any, _statement: str, _params: Any, context: Any, _many: bool
        ) -> None:
            if context is not None:
                setattr(context, STARTED, time.perf_counter())

        @event.listens_for(engine, "after_cursor_execute")
        def _done(
            _conn: Any, _cursor: Any, statement: str, _params: Any, context: Any, _many: bool
        ) -> None:
            started = getattr(context, STARTED, None)
            if started is not None:
                elapsed = time.perf_counter() - started
                self.statements.labels(statement_kind(statement)).observe(elapsed)

    async def refresh(self, executor: DatabaseExecutor, engine: Engine) -> None:
        """Count the stored games for this scrape (left out if the database is slow)."""
        try:
            counted = await asyncio.wait_for(
                executor.run(stored_games, engine), timeout=STORED_TIMEOUT
            )
        except Exception as exc:  # the scrape goes on without them; readyz says why
            log.debug("metrics: the stored games were not counted: %s", type(exc).__name__)
            self.state.stored = None
            return
        self.state.stored = counted


def stored_games(engine: Engine) -> dict[tuple[str, str], int]:
    """The stored games by kind and status."""
    from karnak.server.db import GameRow

    query = select(GameRow.game, GameRow.status, func.count()).group_by(
        GameRow.game, GameRow.status
    )
    with engine.connect() as connection:
        return {(game, status): count for game, status, count in connection.execute(query)}


class ServerState(Collector):
    """The metrics read from the server when ``/metrics`` is asked."""

    def __init__(self) -> None:
        self.service: GameService | None = None
        #: The application's state, where the e-mail service is found once it has started.
        self.app_state: Any = None
        #: The stored games of the last scrape (None: not counted).
        self.stored: dict[tuple[str, str], int] | None = None

    def describe(self) -> Iterable[Metric]:
        return []  # built at each scrape: nothing to check against the registry's names

    def collect(self) -> Iterator[Metric]:
        yield from self._games()
        yield from self._bots()
        yield from self._mail()

    def _games(self) -> Iterator[Metric]:
        running = GaugeMetricFamily(
            f"{PREFIX}_games_running",
            "Running games held in this process's memory, by game kind",
            labels=["game"],
        )
        held: Tally[str] = Tally({game: 0 for game in available_games()})
        if self.service is not None:
            held.update(
                room.game.name for room in list(self.service.rooms.values()) if not room.is_over
            )
        for game, count in sorted(held.items()):
            running.add_metric([game], count)
        yield running
        if self.service is not None:
            yield GaugeMetricFamily(
                f"{PREFIX}_games_loaded",
                "1 once the running games stored at start are loaded (0 while they load)",
                value=1 if self.service.loaded_in is not None else 0,
            )
        if self.stored is not None:
            stored = GaugeMetricFamily(
                f"{PREFIX}_games_stored",
                "Games in the database (every process sees the same), by game kind and status",
                labels=["game", "status"],
            )
            for (game, status), count in sorted(self.stored.items()):
                stored.add_metric([game, status], count)
            yield stored

    def _bots(self) -> Iterator[Metric]:
        bots = self.service.bots if self.service is not None else None
        yield GaugeMetricFamily(
            f"{PREFIX}_bot_queue_length",
            "Bot decisions asked and not answered yet: thinking, or waiting for their "
            "game's turn or a free worker",
            value=bots.in_flight if bots is not None else 0,
        )
        yield GaugeMetricFamily(
            f"{PREFIX}_bot_workers",
            "Processes in which bots think (0: a thread of the server)",
            value=bots.workers if bots is not None else 0,
        )

    def _mail(self) -> Iterator[Metric]:
        mail = getattr(self.app_state, "mail", None) if self.app_state is not None else None
        sender = mail.sender if mail is not None and mail.enabled else None
        yield GaugeMetricFamily(
            f"{PREFIX}_mail_queue_length",
            "E-mails waiting for the SMTP server",
            value=sender.waiting if sender is not None else 0,
        )
        mails = CounterMetricFamily(
            f"{PREFIX}_mails",
            "E-mails handed to the SMTP server (sent), or lost: refused, failed or dropped "
            "with the queue full (failed)",
            labels=["outcome"],
        )
        mails.add_metric(["sent"], sender.sent if sender is not None else 0)
        mails.add_metric(["failed"], sender.failed if sender is not None else 0)
        yield mails

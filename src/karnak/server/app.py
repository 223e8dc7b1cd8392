"""The web application: the API, the WebSocket and the pages, over one service.

``create_app`` is a factory so tests and the benchmark can build servers on their own
databases; ``karnak serve`` builds one from the command line or ``KARNAK_DATABASE_URL``.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from karnak import __version__
from karnak.core.errors import KarnakError
from karnak.server.accounts.recovery_routes import router as recovery_router
from karnak.server.accounts.routes import router as accounts_router
from karnak.server.accounts.service import AccountService
from karnak.server.admin.routes import router as admin_router
from karnak.server.admin.service import AdminService
from karnak.server.api import ApiError, as_api_error, router
from karnak.server.bot_runner import BotRunner
from karnak.server.chat.routes import router as chat_router
from karnak.server.chat.service import ChatService
from karnak.server.cluster.broker import RedisBroker
from karnak.server.cluster.leases import LeaseKeeper, LeaseStore
from karnak.server.crowds.routes import router as crowds_router
from karnak.server.crowds.service import CrowdService
from karnak.server.crowds.service import check_settings as check_crowds
from karnak.server.daily.routes import router as daily_router
from karnak.server.daily.service import DailyService, daily_levels
from karnak.server.db import make_engine, migrate
from karnak.server.docs import ASSETS_URL, swagger_assets
from karnak.server.docs import router as docs_router
from karnak.server.errors import http_error, server_error, validation_error
from karnak.server.executor import DatabaseExecutor
from karnak.server.expiry import IdleGames
from karnak.server.friends.routes import router as friends_router
from karnak.server.friends.service import FriendService, friend_limits
from karnak.server.game_pages import mount_game_static
from karnak.server.http_limits import BodyLimit, RateLimits
from karnak.server.hub import Hub
from karnak.server.integer_bounds import publish_integer_bounds
from karnak.server.language import LanguageMiddleware
from karnak.server.language import router as language_router
from karnak.server.limits import ServerSettings
from karnak.server.mail.routes import router as mail_router
from karnak.server.matchmaking.routes import router as quickmatch_router
from karnak.server.matchmaking.service import MatchService
from karnak.server.matchmaking.service import check_settings as check_quickmatch
from karnak.server.methods import AllowedMethods
from karnak.server.notifications.bounds import NotificationLimits
from karnak.server.notifications.routes import router as notifications_router
from karnak.server.notifications.service import Notifier
from karnak.server.observability.install import note_refusal, observe_app
from karnak.server.pages import router as pages_router
from karnak.server.pages import static_files
from karnak.server.ratings.routes import router as ratings_router
from karnak.server.ratings.service import RatingService
from karnak.server.security import SecurityHeaders
from karnak.server.service import GameService
from karnak.server.store import GameStore
from karnak.server.tables.routes import router as tables_router
from karnak.server.tables.service import TableService
from karnak.server.timebank.routes import router as timebank_router
from karnak.server.timebank.service import TimeBank
from karnak.server.tournaments.routes import router as tournaments_router
from karnak.server.tournaments.service import TournamentService

DATABASE_ENV = "KARNAK_DATABASE_URL"
DEFAULT_DATABASE = "karnak.sqlite3"
GC_YOUNG_THRESHOLD = 20_000
SWITCH_INTERVAL = 0.001  # seconds


def database_url(given: str | None = None) -> str:
    """``given``, else ``KARNAK_DATABASE_URL``, else an SQLite file in the current folder.

    A bare path is taken as an SQLite file.
    """
    url = given or os.environ.get(DATABASE_ENV) or DEFAULT_DATABASE
    if "://" not in url:
        url = f"sqlite:///{Path(url).expanduser().resolve()}"
    return url


def tune_interpreter() -> None:
    """Keep pauses short once the server has started (each measured by bench/server_load.py).

    - Everything alive after start (modules, the loaded games) is moved out of the garbage
      collector's sight, and young objects are collected less often: reference counting
      frees nearly all of a move's garbage, while full collections had stopped every
      request for up to about 140 ms.
    - The database thread gets the interpreter back sooner after each SQLite call (every
      millisecond instead of every five): a write makes several such calls, and while the
      event loop was busy building views each one could wait the whole interval.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG_THRESHOLD, 20, 20)
    sys.setswitchinterval(SWITCH_INTERVAL)


def create_app(
    database: str | None = None,
    *,
    bot_workers: int = 2,
    settings: ServerSettings | None = None,
    broker: str | None = None,
) -> FastAPI:
    url = database_url(database)
    limits = settings or ServerSettings()
    daily_levels(limits)  # a level that is none is refused now, in one line
    check_quickmatch(limits)
    check_crowds(limits)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(url)
        migrate(engine)
        #: every service's database calls run in these threads (karnak.server.executor)
        executor = app.state.executor = DatabaseExecutor(engine)
        hub = Hub()
        leases = LeaseKeeper(
            LeaseStore(engine), app.state.executor, exclusive=engine.dialect.name == "sqlite"
        )
        service = GameService(
            GameStore(engine), BotRunner(bot_workers), limits, hub, app.state.executor, leases
        )
        relay = None
        if broker is not None:
            relay = RedisBroker(broker, hub, leases.holder, on_resync=service.resync)
            await relay.start()
        app.state.broker = relay
        app.state.hub = hub
        app.state.service = service
        app.state.accounts = AccountService(engine, executor, hub, shared=broker is not None)
        app.state.notifier = Notifier(engine, executor, hub, NotificationLimits.of(limits))
        app.state.tables = TableService(
            engine, executor, service, app.state.accounts, app.state.notifier
        )
        app.state.timebank = TimeBank(engine, service, app.state.notifier, hub)
        app.state.friends = FriendService(
            engine,
            executor,
            app.state.notifier,
            friend_limits(limits),
            limiter=app.state.rate_limits.limiter,
        )
        app.state.chat = ChatService(engine, executor, hub)
        app.state.ratings = RatingService(engine, executor, hub, service)
        app.state.daily = DailyService(engine, executor, hub, service, limits)
        app.state.matches = MatchService(engine, executor, service, app.state.notifier, limits)
        app.state.crowds = CrowdService(engine, executor, service, app.state.notifier, limits)
        app.state.tournaments = TournamentService(
            engine, executor, service, app.state.notifier, limits
        )
        app.state.admin = AdminService(
            engine, executor, hub, service, reports_per_hour=limits.reports_per_hour
        )
        #: idle games without a clock: their seats warned, then the games expired
        app.state.idle_games = IdleGames(engine, service, app.state.notifier, limits)
        await service.start()
        await app.state.idle_games.start()
        tune_interpreter()
        try:
            yield
        finally:
            await app.state.idle_games.stop()
            await app.state.timebank.stop()
            await app.state.ratings.stop()
            await app.state.daily.stop()
            await app.state.matches.stop()
            await app.state.crowds.stop()
            await app.state.tournaments.stop()
            await service.stop()
            if relay is not None:
                await relay.stop()
            # every service has stopped: the database calls still running finish on a live
            # engine, then its connections close
            executor.shutdown()
            engine.dispose()

    app = FastAPI(
        title="Karnak",
        version=__version__,
        summary="Play Amun-Re (and more Egyptian board games) against friends and bots.",
        lifespan=lifespan,
        docs_url=None,  # served by karnak.server.docs, without a CDN
        redoc_url=None,
    )

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return exc.response()

    @app.exception_handler(KarnakError)
    async def _domain_error(_request: Request, exc: KarnakError) -> JSONResponse:
        """Every domain refusal (the client's, by definition): the routes let them rise to
        here, and karnak.server.errors.as_api_error gives each its status."""
        note_refusal(exc)  # the refusals metric names why (karnak.server.observability)
        return as_api_error(exc).response()

    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, server_error)
    # The last added is the outermost: the headers go on the body limit's refusals too.
    # OPTIONS and methods an address does not take are answered before the router
    # (karnak.server.methods), with every method of the address in Allow.
    # The request's language (karnak.server.language): innermost, so every route, error
    # handler and socket task runs in it.
    app.add_middleware(LanguageMiddleware)
    app.add_middleware(AllowedMethods)
    app.add_middleware(BodyLimit, max_bytes=limits.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    # request ids, the access log, /healthz, /readyz, /metrics: outermost, sees every answer
    observe_app(app, limits)

    app.state.settings = limits
    app.state.rate_limits = RateLimits(limits, broker)
    app.include_router(router)
    app.include_router(accounts_router)
    app.include_router(notifications_router)
    app.include_router(tables_router)
    app.include_router(timebank_router)
    app.include_router(friends_router)
    app.include_router(chat_router)
    app.include_router(ratings_router)
    app.include_router(daily_router)
    app.include_router(quickmatch_router)
    app.include_router(crowds_router)
    app.include_router(tournaments_router)
    app.include_router(mail_router)
    app.include_router(admin_router)
    app.include_router(recovery_router)  # after the e-mail's: its service sends the links
    app.include_router(language_router)
    app.include_router(pages_router)
    app.include_router(docs_router)
    mount_game_static(app)  # before /static, which would otherwise answer its paths
    app.mount("/static", static_files(), name="static")
    app.mount(ASSETS_URL, swagger_assets(), name="docs-assets")
    publish_integer_bounds(app)
    return app

"""How an application gets its health checks, metrics, request ids and access log.

``create_app`` calls :func:`observe_app` once its other middleware is added (the request
tracking must be the outermost, to see every answer, the body limit's refusals included),
and its handler of domain refusals calls :func:`~.context.note_refusal`. The rest is wired
when the server starts, by the lifespan of the router added here (it runs after the app's
own, once the game service exists).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, FastAPI

from karnak.server.limits import ServerSettings
from karnak.server.observability.context import note_refusal
from karnak.server.observability.health import Readiness, allowed_networks
from karnak.server.observability.health import router as health_router
from karnak.server.observability.metrics import Metrics
from karnak.server.observability.requests import RequestTracking

__all__ = ["note_refusal", "observe_app"]


@asynccontextmanager
async def observed(app: FastAPI) -> AsyncIterator[None]:
    """The server has started: its game service, bots and database report to the metrics,
    and readiness asks its database."""
    metrics: Metrics = app.state.metrics
    service = app.state.service
    engine = service.store.engine
    metrics.watch_engine(engine)
    service.probe = metrics
    service.bots.probe = metrics
    metrics.state.service = service
    metrics.state.app_state = app.state
    readiness: Readiness = app.state.readiness
    readiness.engine = engine
    try:
        yield
    finally:
        readiness.close()
        metrics.state.service = None


def observe_app(app: FastAPI, settings: ServerSettings) -> None:
    """Add the request tracking (outermost), ``/healthz``, ``/readyz`` and ``/metrics``.
    ValueError for a ``metrics_allow`` that is not a list of networks."""
    metrics = Metrics()
    app.state.metrics = metrics
    app.state.metrics_networks = allowed_networks(settings.metrics_allow)
    app.state.readiness = Readiness()
    app.add_middleware(RequestTracking, metrics=metrics)
    router = APIRouter(lifespan=observed)
    router.include_router(health_router)
    app.include_router(router)

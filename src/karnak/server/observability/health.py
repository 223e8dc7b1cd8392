"""``/healthz``, ``/readyz`` and ``/metrics``.

- ``GET /healthz``: the process is alive and its event loop answers. Nothing else is looked
  at (no database): a supervisor restarts a process that stops answering this, and a
  database outage is no reason to restart every process.
- ``GET /readyz``: the process can serve. 200 only when the database answers a short query
  within :data:`READY_TIMEOUT`, its schema is at the head of this code's migrations (Alembic's
  current revisions equal the heads), and the running games stored at start are loaded;
  else 503 naming the checks that failed. A balancer sends players only to ready processes.
  The answer names no address, user or error text (only the kind of error), so it may face
  the internet.
- ``GET /metrics``: the Prometheus text format, to the networks of ``metrics_allow`` only
  (by default this machine), 403 to others.

None of them is rate-limited, and the access log writes them at DEBUG only.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.observability.metrics import Metrics

log = logging.getLogger("karnak.server")

#: How long ``/readyz`` waits for the database (seconds).
READY_TIMEOUT = 2.0
#: ``metrics_allow``'s word for every address.
EVERYONE = "*"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


# ---------------------------------------------------------------------- who may scrape
def allowed_networks(setting: str) -> tuple[Network, ...] | None:
    """The networks of ``metrics_allow`` (comma-separated addresses or networks); None for
    ``*`` (everyone). ValueError naming an entry that is neither."""
    entries = [entry.strip() for entry in setting.split(",") if entry.strip()]
    if EVERYONE in entries:
        return None
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"metrics_allow: {entry!r} is not an IP address or network (write them like "
                "127.0.0.1,10.0.0.0/8, or * for every address)"
            ) from None
    return tuple(networks)


def may_scrape(networks: tuple[Network, ...] | None, host: str | None) -> bool:
    """Whether a client at ``host`` may read the metrics. A client that is not an IP
    address (a Unix socket, a test client) is refused unless everyone may."""
    if networks is None:
        return True
    if not host:
        return False
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return any(address in network for network in networks)


# ---------------------------------------------------------------------- readiness
@functools.cache
def code_heads() -> frozenset[str]:
    """The heads of this code's migrations (read once: the scripts do not change)."""
    from alembic.script import ScriptDirectory

    from karnak.server.db import MIGRATIONS

    return frozenset(ScriptDirectory(str(MIGRATIONS)).get_heads())


def database_heads(engine: Engine) -> frozenset[str]:
    """The revisions the database is at (a short query; raises if it does not answer)."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return frozenset(MigrationContext.configure(connection).get_current_heads())


@dataclass
class Readiness:
    """The readiness checks of one application, with a thread of their own: a database
    that hangs holds that thread, never the server's database threads nor a pile of
    them (a check still waiting is not started again)."""

    engine: Engine | None = None
    _pool: ThreadPoolExecutor | None = None
    _pending: asyncio.Future[frozenset[str]] | None = None
    _was_ready: bool | None = None

    async def checks(self, service: Any) -> dict[str, str]:
        """Each check's outcome: "ok", or what is wrong (no secret in it)."""
        results = {"database": "ok", "migrations": "ok", "games": "ok"}
        if self.engine is None or service is None:
            return dict.fromkeys(results, "the server is starting")
        try:
            heads = await self._database_heads(self.engine)
        except TimeoutError:
            results["database"] = f"no answer within {READY_TIMEOUT:g} s"
            results["migrations"] = "unknown: the database did not answer"
        except Exception as exc:
            results["database"] = f"no answer ({type(exc).__name__})"
            results["migrations"] = "unknown: the database did not answer"
        else:
            expected = code_heads()
            if heads != expected:
                results["migrations"] = (
                    f"the database is at {', '.join(sorted(heads)) or 'no revision'}, this "
                    f"code needs {', '.join(sorted(expected))}"
                )
        if service.loaded_in is None:
            results["games"] = "the running games are still loading"
        return results

    async def _database_heads(self, engine: Engine) -> frozenset[str]:
        if self._pending is None or self._pending.done():
            if self._pool is None:
                self._pool = ThreadPoolExecutor(1, thread_name_prefix="karnak-ready")
            loop = asyncio.get_running_loop()
            self._pending = loop.run_in_executor(self._pool, database_heads, engine)
        return await asyncio.wait_for(asyncio.shield(self._pending), READY_TIMEOUT)

    def tell(self, failed: list[str], results: dict[str, str]) -> None:
        """Log a change of readiness (once, not at every probe)."""
        ready = not failed
        if ready != self._was_ready:
            if ready:
                log.info("ready: the database answers, its schema is current, games loaded")
            elif self._was_ready is not None or results.get("database") != "ok":
                shown = "; ".join(f"{name}: {results[name]}" for name in failed)
                log.warning("not ready: %s", shown)
            self._was_ready = ready

    def close(self) -> None:
        """The server stops: no more checks (a check still waiting ends on its own)."""
        self.engine = None
        self._pending = None
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


# ---------------------------------------------------------------------- the routes
router = APIRouter()


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, str]:
    """Alive: the event loop answers."""
    return {"status": "ok"}


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """Ready to serve (200), or 503 naming the checks that failed."""
    readiness: Readiness = request.app.state.readiness
    results = await readiness.checks(getattr(request.app.state, "service", None))
    failed = [name for name, outcome in results.items() if outcome != "ok"]
    readiness.tell(failed, results)
    if failed:
        body = {"status": "not ready", "failed": failed, "checks": results}
        return JSONResponse(body, status_code=503, headers={"Cache-Control": "no-store"})
    return JSONResponse(
        {"status": "ready", "checks": results}, headers={"Cache-Control": "no-store"}
    )


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """The metrics in Prometheus' text format, to the networks allowed."""
    state = request.app.state
    client = request.client.host if request.client else None
    if not may_scrape(state.metrics_networks, client):
        return JSONResponse(
            {"error": "the metrics are not served to this address (see metrics_allow)"},
            status_code=403,
        )
    found: Metrics = state.metrics
    executor = getattr(state, "executor", None)
    readiness: Readiness = state.readiness
    if executor is not None and readiness.engine is not None:
        await found.refresh(executor, readiness.engine)
    return Response(generate_latest(found.registry), media_type=CONTENT_TYPE_LATEST)

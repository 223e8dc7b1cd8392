"""The request being answered, for whatever runs while it is: its id for the log, when it
arrived for the move latency, and why it was refused for the refusals metric.

A context variable: each request runs in a task of its own, and a task started during a
request (a bot's turn woken by a move) starts with a copy of it, so its log lines carry the
id of the request that started it.
"""

from __future__ import annotations

from contextvars import ContextVar, Token
from dataclasses import dataclass

from karnak.server.observability.refusals import reason_of


@dataclass
class RequestInfo:
    """What the server knows of the request it is answering."""

    id: str
    #: ``time.perf_counter()`` when the request reached the server.
    started: float
    #: Why the app refused it (karnak.server.observability.refusals), if it did.
    refusal: str | None = None


_CURRENT: ContextVar[RequestInfo | None] = ContextVar("karnak_request", default=None)


def current_request() -> RequestInfo | None:
    """The request being answered (None outside a request: start-up, a background task)."""
    return _CURRENT.get()


def request_id() -> str | None:
    info = _CURRENT.get()
    return info.id if info is not None else None


def note_refusal(exc: BaseException) -> None:
    """Name why the current request is refused (the app's handler of domain refusals calls
    it): ``karnak_refusals_total`` counts it under that reason rather than its status."""
    info = _CURRENT.get()
    if info is not None:
        info.refusal = reason_of(exc)


def enter(info: RequestInfo) -> Token[RequestInfo | None]:
    """Make ``info`` the current request, until :func:`leave` (the request middleware)."""
    return _CURRENT.set(info)


def leave(token: Token[RequestInfo | None]) -> None:
    _CURRENT.reset(token)

"""Bounds on what one request and one client may ask: body size and request rates.

The body limit is an ASGI middleware of its own rather than Starlette's
``RequestBodyLimitMiddleware`` (which FastAPI's ``max_body_size`` uses): that one answers in
plain text, or as ``{"detail": ...}``, and does not say what the limit is; the API answers
every refusal as ``{"error": ...}`` naming the bound.

Rate limits use the ``limits`` library (the one behind slowapi) with its in-memory storage
and the sliding-window-counter strategy: constant memory per client (two counters), where a
moving window keeps one entry per request. Clients are told apart by their IP address, as
the server is meant to face the internet itself (behind a reverse proxy every client would
share the proxy's address and its allowance). An IPv6 client counts by its /64 network, the
block one subscriber is usually given, so that it cannot rotate addresses within it.
"""

from __future__ import annotations

import ipaddress
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
from limits import RateLimitItem, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from karnak.server.limits import LimitError, ServerSettings

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[MutableMapping[str, Any], Receive, Send], Awaitable[None]]

DIGITS = re.compile(rb"[0-9]{1,18}")


async def answer(send: Send, status: int, message: str) -> None:
    """A complete JSON refusal, sent by the middleware itself."""
    body = orjson.dumps({"error": message})
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BadContentLength(ValueError):
    pass


def declared_length(headers: list[tuple[bytes, bytes]]) -> int | None:
    """The body length the request declares; None if it declares none (chunked)."""
    values = {value.strip() for name, value in headers if name.lower() == b"content-length"}
    if not values:
        return None
    if len(values) > 1 or not DIGITS.fullmatch(next(iter(values))):
        raise BadContentLength
    return int(next(iter(values)))


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413, before reading them if possible.

    A declared Content-Length over the limit is refused at once and the app never runs; a
    body without one (chunked) is counted as the app reads it, and at the first chunk past
    the limit the middleware answers 413 itself, tells the app that the client has gone
    (so it stops reading) and drops whatever the app then tries to answer.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    @property
    def refusal(self) -> str:
        return f"the request body is too large: this server accepts at most {self.max_bytes} bytes"

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            declared = declared_length(scope.get("headers", []))
        except BadContentLength:
            await answer(send, 400, "the Content-Length header is not a number of bytes")
            return
        if declared is not None and declared > self.max_bytes:
            await answer(send, 413, self.refusal)
            return

        received = 0
        started = answered = False

        async def counted() -> Message:
            nonlocal received, answered
            if answered:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    if not started:
                        answered = True
                        await answer(send, 413, self.refusal)
                    return {"type": "http.disconnect"}
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if answered:
                return  # the 413 went out: the app's own answer has nobody to go to
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted, tracked)


def client_key(host: str | None) -> str:
    """Who a request counts against: its IP address, an IPv6 address by its /64."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host  # a test client's name, a Unix socket
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class RateLimits:
    """Per-client allowances for the requests that cost the server the most: creating
    games, and moves with undos (bots move inside the server and never pass here)."""

    def __init__(self, settings: ServerSettings) -> None:
        self.limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.creates = RateLimitItemPerMinute(settings.creates_per_minute)
        self.moves = RateLimitItemPerMinute(settings.moves_per_minute)
        self.accounts = RateLimitItemPerMinute(settings.account_attempts_per_minute)
        self.chat = RateLimitItemPerMinute(settings.chat_lines_per_minute)

    def create(self, host: str | None) -> None:
        self._hit(self.creates, "games", host)

    def move(self, host: str | None) -> None:
        self._hit(self.moves, "moves", host)

    def account(self, host: str | None) -> None:
        self._hit(self.accounts, "account attempts (sign-ups, log-ins, password changes)", host)

    def chat_line(self, host: str | None) -> None:
        self._hit(self.chat, "chat lines", host)

    def _hit(self, item: RateLimitItem, what: str, host: str | None) -> None:
        """Count one request; LimitError (429, with when to retry) past the allowance."""
        key = client_key(host)
        if self.limiter.hit(item, what, key):
            return
        reset = self.limiter.get_window_stats(item, what, key).reset_time
        wait = min(60.0, max(1.0, reset - time.time()))
        raise LimitError(
            f"too many requests from your address: at most {item.amount} {what} a minute; "
            f"try again in {math.ceil(wait)} s",
            status=429,
            retry_after=wait,
        )

"""Bounds on what one request and one client may ask: body size and request rates.

The body limit is an ASGI middleware of its own rather than Starlette's
``RequestBodyLimitMiddleware`` (which FastAPI's ``max_body_size`` uses): that one answers in
plain text, or as ``{"detail": ...}``, and does not say what the limit is; the API answers
every refusal as ``{"error": ...}`` naming the bound.

Rate limits use the ``limits`` library (the one behind slowapi) with the sliding-window-counter
strategy: constant memory per client (two counters), where a moving window keeps one entry per
request. Clients are told apart by their IP address, as the server is meant to face the
internet itself (behind a reverse proxy every client would share the proxy's address and its
allowance). An IPv6 client counts by its /64 network, the block one subscriber is usually
given, so that it cannot rotate addresses within it.

Where the counters live:

- one process (no broker): in its memory;
- several processes (a broker URL, ``redis://``): in that Redis, so that the processes share
  one allowance per client: behind a load balancer, two processes allow what one allows, not
  twice as much.

When Redis cannot be reached (down, restarting, too slow), a request is neither refused nor
answered 500 nor kept waiting: it is counted in the process's own memory, as if the process
were alone, until Redis answers again. An outage of the broker must not take the game down
with it, and counting locally still bounds a client (at worst the allowance once per
process) where letting everything through would not. So that an outage costs little time:

- each call to Redis waits at most :data:`REDIS_TIMEOUT` (connecting or answering), with no
  retries: a check runs in the event loop's thread, which must not wait long on anything;
- after a failure, Redis is left alone for :data:`REDIS_PAUSE` seconds (the counting stays
  local meanwhile), so that a dead or hanging Redis costs one wait per pause, not one a
  request;
- the failure is logged as one warning a minute at most (:data:`WARN_EVERY`), and the return
  of Redis as one line of information.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson
from limits import RateLimitItem, RateLimitItemPerMinute
from limits.errors import StorageError
from limits.storage import MemoryStorage, RedisStorage
from limits.strategies import SlidingWindowCounterRateLimiter

from karnak.i18n import N_, _, t, use_language
from karnak.server.limits import LimitError, ServerSettings

log = logging.getLogger("karnak.server")

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


def early_language(scope: MutableMapping[str, Any]) -> str:
    """The language of a request refused before the language's middleware runs: its
    ``?lang``, cookie or ``Accept-Language`` (an account's setting is not looked up for a
    request refused unread)."""
    from karnak.server.language import _cookies, _header, _query_language, choose

    language, _source = choose(
        query=_query_language(scope),
        cookie=_cookies(scope).get("karnak_lang"),
        accept_language=_header(scope, b"accept-language"),
    )
    return language


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

    def refusal(self, scope: MutableMapping[str, Any]) -> str:
        with use_language(early_language(scope)):
            return t(
                "the request body is too large: this server accepts at most {limit} bytes",
                limit=self.max_bytes,
            )

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            declared = declared_length(scope.get("headers", []))
        except BadContentLength:
            with use_language(early_language(scope)):
                refused = _("the Content-Length header is not a number of bytes")
            await answer(send, 400, refused)
            return
        if declared is not None and declared > self.max_bytes:
            await answer(send, 413, self.refusal(scope))
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
                        await answer(send, 413, self.refusal(scope))
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


#: The longest a rate-limit check waits on Redis, to connect or for an answer (seconds):
#: Redis answers in well under a millisecond on a local network.
REDIS_TIMEOUT = 0.2
#: After Redis fails, how long the counting stays in memory before Redis is tried again.
REDIS_PAUSE = 5.0
#: At most one warning this often (seconds) while Redis cannot be reached.
WARN_EVERY = 60.0
#: The prefix of the counters' keys in Redis (the broker's database holds other things).
KEY_PREFIX = "karnak:limits"


def redis_storage(url: str) -> RedisStorage:
    """The ``limits`` library's Redis storage on ``url``, with short timeouts and no retries
    whatever redis-py's defaults (a ``redis.Redis`` built without a URL retries ten times
    with back-off: seconds of a stalled event loop)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    pool = redis.ConnectionPool.from_url(
        url,
        socket_timeout=REDIS_TIMEOUT,
        socket_connect_timeout=REDIS_TIMEOUT,
        retry=Retry(NoBackoff(), 0),
    )
    return RedisStorage(url, connection_pool=pool, key_prefix=KEY_PREFIX, wrap_exceptions=True)


class Limiter:
    """Sliding-window counters shared through Redis when there is one, else in memory.

    Redis's failures never leave here: the counting falls back on memory (see the module's
    docstring). The counters of the fallback are the process's own and start empty: while
    Redis is away, each process allows each client its whole allowance.
    """

    def __init__(self, broker: str | None = None) -> None:
        self.local = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.shared = (
            None if broker is None else SlidingWindowCounterRateLimiter(redis_storage(broker))
        )
        self._paused_until = 0.0  # time.monotonic() before which Redis is left alone
        self._warned_at = -math.inf
        self._failing = False

    def hit(self, item: RateLimitItem, *identifiers: str) -> float | None:
        """Count one request: None if ``item`` allows it, else the seconds until it would."""
        limiter = self._limiter()
        if limiter is not self.local:
            try:
                return self._count(limiter, item, identifiers)
            except StorageError as exc:
                self._failed(exc.storage_error)
        return self._count(self.local, item, identifiers)

    def _limiter(self) -> SlidingWindowCounterRateLimiter:
        if self.shared is None or time.monotonic() < self._paused_until:
            return self.local
        return self.shared

    def _count(
        self, limiter: SlidingWindowCounterRateLimiter, item: RateLimitItem, ids: tuple[str, ...]
    ) -> float | None:
        allowed = limiter.hit(item, *ids)
        if limiter is self.shared and self._failing:
            self._failing = False
            log.info("the rate limits reach Redis again: counted across the processes")
        if allowed:
            return None
        reset = limiter.get_window_stats(item, *ids).reset_time
        return reset - time.time()

    def _failed(self, error: Exception) -> None:
        now = time.monotonic()
        self._paused_until = now + REDIS_PAUSE
        self._failing = True
        if now - self._warned_at >= WARN_EVERY:
            self._warned_at = now
            log.warning(
                "the rate limits cannot reach Redis (%s: %s): each process counts its own "
                "requests until it answers again",
                type(error).__name__,
                error,
            )


#: The refusal of each counter, one whole sentence each (``{most}`` a minute, ``{seconds}``).
TOO_MANY = {
    "games": N_(
        "too many requests from your address: at most {most} games a minute; "
        "try again in {seconds} s"
    ),
    "moves": N_(
        "too many requests from your address: at most {most} moves a minute; "
        "try again in {seconds} s"
    ),
    "accounts": N_(
        "too many requests from your address: at most {most} account attempts (sign-ups, "
        "log-ins, password changes) a minute; try again in {seconds} s"
    ),
    "chat": N_(
        "too many requests from your address: at most {most} chat lines a minute; "
        "try again in {seconds} s"
    ),
}


class RateLimits:
    """Per-client allowances for the requests that cost the server the most: creating
    games, and moves with undos (bots move inside the server and never pass here), account
    attempts and chat lines. With a ``broker`` (a Redis URL) the allowances hold across
    every process that uses it."""

    def __init__(self, settings: ServerSettings, broker: str | None = None) -> None:
        self.limiter = Limiter(broker)
        self.creates = RateLimitItemPerMinute(settings.creates_per_minute)
        self.moves = RateLimitItemPerMinute(settings.moves_per_minute)
        self.accounts = RateLimitItemPerMinute(settings.account_attempts_per_minute)
        self.chat = RateLimitItemPerMinute(settings.chat_lines_per_minute)

    def create(self, host: str | None) -> None:
        self._hit(self.creates, "games", TOO_MANY["games"], host)

    def move(self, host: str | None) -> None:
        self._hit(self.moves, "moves", TOO_MANY["moves"], host)

    def account(self, host: str | None) -> None:
        self._hit(self.accounts, "accounts", TOO_MANY["accounts"], host)

    def chat_line(self, host: str | None) -> None:
        self._hit(self.chat, "chat", TOO_MANY["chat"], host)

    def _hit(self, item: RateLimitItem, name: str, refusal: str, host: str | None) -> None:
        """Count one request against the counter ``name``; LimitError (429, with when to
        retry, in the words of ``refusal``) past the allowance."""
        wait = self.limiter.hit(item, name, client_key(host))
        if wait is None:
            return
        wait = min(60.0, max(1.0, wait))
        raise LimitError(
            t(refusal, most=item.amount, seconds=math.ceil(wait)),
            status=429,
            retry_after=wait,
            reason="rate",
        )

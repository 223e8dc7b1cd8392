"""The broker: carries the hub's events to every other server process, over Redis pub/sub.

Why Redis pub/sub (and not PostgreSQL's LISTEN/NOTIFY): the processes already share Redis
for their rate limits, a publish costs one round trip with no transaction, and a payload is
not squeezed into NOTIFY's 8000 bytes. Pub/sub delivers at most once: a message sent while a
process was disconnected is lost to it. That is safe here because no event is the truth: a
"changed" event only says "look again", and the game service re-reads the game from the
database (karnak.server.service). So after any gap (a reconnect to Redis, a Redis restart,
a consumer too slow for Redis's output buffer, which then drops it) the process reloads
every game it holds from the database (``on_resync``) and carries on.

One channel carries every event; each message names the process that sent it, which skips
its own. A process sends its events in the order it published them (one sending task), so
the events of one process arrive in order; the events of two processes about one game may
cross, which the service's refresh (it only ever moves a game forward to what the database
holds) makes harmless.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from karnak.server.hub import Event, Hub

log = logging.getLogger("karnak.server")

CHANNEL = "karnak:events"
#: Events waiting to be sent; past it the oldest are dropped and the others resync.
OUTBOX = 10_000
#: Waits between reconnection tries (seconds), doubling up to the last.
BACKOFF = (0.1, 0.2, 0.5, 1.0, 2.0)
#: Redis answers within this, or the connection is taken as broken (seconds).
SOCKET_TIMEOUT = 5.0
#: What a process sends when others may have missed its events: "reload what you hold".
RESYNC = Event("cluster", "resync")


def encode_event(origin: str, event: Event) -> bytes:
    return orjson.dumps(
        {"origin": origin, "topic": event.topic, "kind": event.kind, "payload": event.payload},
        option=orjson.OPT_NON_STR_KEYS,
    )


def decode_event(data: bytes | str) -> tuple[str, Event] | None:
    """The sender and the event of a message; None for a message that is not one."""
    try:
        found: Any = orjson.loads(data)
        origin, topic, kind = found["origin"], found["topic"], found["kind"]
        payload = found.get("payload") or {}
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return None
    if not all(isinstance(v, str) for v in (origin, topic, kind)) or not isinstance(payload, dict):
        return None
    return origin, Event(topic, kind, payload)


class RedisBroker:
    def __init__(
        self,
        url: str,
        hub: Hub,
        origin: str,
        on_resync: Callable[[], Awaitable[None]] | None = None,
    ):
        self.url = url
        self.hub = hub
        self.origin = origin
        self.on_resync = on_resync
        self._redis: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=None, socket_connect_timeout=SOCKET_TIMEOUT
        )
        self._publisher: aioredis.Redis = aioredis.from_url(
            url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT
        )
        self._outbox: asyncio.Queue[bytes] = asyncio.Queue(OUTBOX)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscribed = asyncio.Event()
        self._resyncing: set[asyncio.Task[None]] = set()
        #: Counters for the operator (and the tests).
        self.sent = self.received = self.resyncs = self.dropped = 0

    async def start(self) -> None:
        """Subscribe (waiting a few seconds for Redis at most), then carry events both ways."""
        self.hub.connect(self.send)
        self._tasks = [asyncio.create_task(self._listen()), asyncio.create_task(self._send())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), SOCKET_TIMEOUT)
        if not self._subscribed.is_set():
            log.warning("the broker %s does not answer yet; live updates wait for it", self.url)

    async def stop(self) -> None:
        self.hub.connect(None)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for client in (self._redis, self._publisher):
            with contextlib.suppress(Exception):
                await client.aclose()

    # ------------------------------------------------------------------ sending
    def send(self, event: Event) -> None:
        """Queue ``event`` for the other processes (the hub calls it at publication)."""
        message = encode_event(self.origin, event)
        while True:
            try:
                self._outbox.put_nowait(message)
                return
            except asyncio.QueueFull:  # Redis has been away long: the others will resync
                self._outbox.get_nowait()
                self.dropped += 1

    async def _send(self) -> None:
        failures = dropped_before = 0
        message: bytes | None = None
        while True:
            if message is None:
                message = await self._outbox.get()
            try:
                await self._publisher.publish(CHANNEL, message)
            except (RedisError, OSError) as exc:
                wait = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("cannot publish to the broker (%s); retrying", exc)
                await asyncio.sleep(wait)
                continue
            self.sent += 1
            if failures or self.dropped != dropped_before:
                # the others may have missed what this process sent: they reload
                dropped_before = self.dropped
                with contextlib.suppress(RedisError, OSError):
                    await self._publisher.publish(CHANNEL, encode_event(self.origin, RESYNC))
            failures, message = 0, None

    # ------------------------------------------------------------------ receiving
    async def _listen(self) -> None:
        failures = 0
        first = True
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self._subscribed.set()
                if not first:  # whatever was sent in the gap is lost to us: reload
                    await self._resync()
                first, failures = False, 0
                while True:
                    message = await pubsub.get_message(timeout=None)
                    if message is not None:
                        self._receive(message.get("data"))
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except (RedisError, OSError) as exc:
                first = False
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                wait = BACKOFF[min(failures, len(BACKOFF) - 1)]
                failures += 1
                if failures == 1:
                    log.warning("lost the broker (%s); reconnecting", exc)
                await asyncio.sleep(wait)

    def _receive(self, data: Any) -> None:
        if not isinstance(data, bytes | str):
            return
        decoded = decode_event(data)
        if decoded is None:
            log.warning("the broker carried a message that is not an event; ignored")
            return
        origin, event = decoded
        if origin == self.origin:
            return
        self.received += 1
        if event.topic == RESYNC.topic:
            task = asyncio.get_running_loop().create_task(self._resync())
            self._resyncing.add(task)
            task.add_done_callback(self._resyncing.discard)
            return
        self.hub.receive(event)

    async def _resync(self) -> None:
        self.resyncs += 1
        started = time.perf_counter()
        if self.on_resync is not None:
            try:
                await self.on_resync()
            except Exception:
                log.exception("reloading the games after a broker gap failed")
        log.info("broker back: games reloaded in %.2f s", time.perf_counter() - started)

"""The one seam every live update goes through: topics, publishers and subscribers.

A move, a chat line, a notification: whatever must reach people who are connected is
*published* on a topic, and whatever delivers it (a game's WebSockets, an account's socket,
the e-mail sender) *subscribes* to topics. Nothing else in the server calls a socket directly.
Events are small, plain values (a topic and a JSON-able payload) because they may travel:
when several server processes share a database, a broker (karnak.server.cluster.broker, Redis
pub/sub) carries every event to every other process, where :meth:`Hub.receive` delivers it.
Two topics never travel (:data:`LOCAL_TOPICS`): ``games`` and ``notifications`` feed the
background services (turn notices, e-mail, ratings, time banks), which must act once in the
whole cluster, so only the process that holds a game's lease publishes them (see
karnak.server.cluster.leases).

Topics:

- ``game:<id>``: the game changed (``changed``), a chat line was posted (``chat``);
- ``account:<id>``: a notification for that account (``notification``);
- ``games``: every game's changes, for services that watch them all (turns, e-mail,
  ratings), with the game id in the payload.

Subscribers are plain callables run in the event loop's thread at publication; they must be
quick (mark something to do, queue a task) and must not raise: an error in one is logged and
never reaches the publisher or the other subscribers.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("karnak.server")

#: The topic that carries every game's changes.
ALL_GAMES = "games"
#: Every notification of every account (karnak.server.notifications; the e-mail listens).
ALL_NOTIFICATIONS = "notifications"
#: Topics that stay in the process that publishes them (see the module's docstring).
LOCAL_TOPICS = frozenset({ALL_GAMES, ALL_NOTIFICATIONS})


def game_topic(game_id: str) -> str:
    return f"game:{game_id}"


def account_topic(account_id: int) -> str:
    return f"account:{account_id}"


@dataclass(frozen=True)
class Event:
    """What happened (``kind``) on a topic, with what its subscribers need to know."""

    topic: str
    kind: str
    payload: dict[str, Any] = field(default_factory=dict)


Subscriber = Callable[[Event], None]
#: What sends an event to the other processes (the broker's outbox).
Outbox = Callable[[Event], None]


class Subscription:
    """What :meth:`Hub.subscribe` returns: cancel it to stop receiving."""

    def __init__(self, hub: Hub, topic: str, subscriber: Subscriber):
        self._hub, self.topic, self.subscriber = hub, topic, subscriber

    def cancel(self) -> None:
        self._hub._remove(self)


class Hub:
    def __init__(self) -> None:
        self._subscribers: dict[str, list[Subscription]] = {}
        self._outbox: Outbox | None = None
        self._remote: list[tuple[str, Subscriber]] = []

    def connect(self, outbox: Outbox | None) -> None:
        """Send every event published from now on (but those of :data:`LOCAL_TOPICS`) to the
        other processes too (None: stop)."""
        self._outbox = outbox

    def on_remote(self, prefix: str, handler: Subscriber) -> None:
        """Let ``handler`` take the events of other processes on topics starting with
        ``prefix`` instead of the local subscribers (the game service refreshes its copy of
        a game from the database before its sockets hear of the change)."""
        self._remote.append((prefix, handler))

    def receive(self, event: Event) -> None:
        """An event published by another process (the broker calls it)."""
        for prefix, handler in self._remote:
            if event.topic.startswith(prefix):
                try:
                    handler(event)
                except Exception:
                    log.exception("the remote handler of %s failed on %s", prefix, event.kind)
                return
        self.deliver(event)

    def subscribe(self, topic: str, subscriber: Subscriber) -> Subscription:
        subscription = Subscription(self, topic, subscriber)
        self._subscribers.setdefault(topic, []).append(subscription)
        return subscription

    def publish(self, topic: str, kind: str, payload: dict[str, Any] | None = None) -> None:
        """Deliver to this process's subscribers, and send to the other processes."""
        event = Event(topic, kind, payload or {})
        self.deliver(event)
        if self._outbox is not None and topic not in LOCAL_TOPICS:
            self._outbox(event)

    def publish_here(self, topic: str, kind: str, payload: dict[str, Any] | None = None) -> None:
        """Deliver to this process's subscribers only."""
        self.deliver(Event(topic, kind, payload or {}))

    def deliver(self, event: Event) -> None:
        """Hand ``event`` to this process's subscribers of its topic."""
        topic, kind = event.topic, event.kind
        for subscription in list(self._subscribers.get(topic, ())):
            try:
                subscription.subscriber(event)
            except Exception:  # one subscriber's fault is not the publisher's
                log.exception("a subscriber of %s failed on %s", topic, kind)

    def subscribers(self, topic: str) -> int:
        """How many subscribe to ``topic`` (for tests and the memory bookkeeping)."""
        return len(self._subscribers.get(topic, ()))

    def _remove(self, subscription: Subscription) -> None:
        listed = self._subscribers.get(subscription.topic)
        if listed is None:
            return
        if subscription in listed:
            listed.remove(subscription)
        if not listed:
            del self._subscribers[subscription.topic]

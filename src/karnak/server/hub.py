"""The one seam every live update goes through: topics, publishers and subscribers.

A move, a chat line, a notification: whatever must reach people who are connected is
*published* on a topic, and whatever delivers it (a game's WebSockets, an account's socket,
the e-mail sender) *subscribes* to topics. Nothing else in the server calls a socket directly.
Today the hub lives in the process; carrying events across several server processes is a
change of this module alone (PostgreSQL's LISTEN/NOTIFY or Redis pub/sub behind the same two
calls), which is why events are small, plain values: a topic and a JSON-able payload.

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


class Subscription:
    """What :meth:`Hub.subscribe` returns: cancel it to stop receiving."""

    def __init__(self, hub: Hub, topic: str, subscriber: Subscriber):
        self._hub, self.topic, self.subscriber = hub, topic, subscriber

    def cancel(self) -> None:
        self._hub._remove(self)


class Hub:
    def __init__(self) -> None:
        self._subscribers: dict[str, list[Subscription]] = {}

    def subscribe(self, topic: str, subscriber: Subscriber) -> Subscription:
        subscription = Subscription(self, topic, subscriber)
        self._subscribers.setdefault(topic, []).append(subscription)
        return subscription

    def publish(self, topic: str, kind: str, payload: dict[str, Any] | None = None) -> None:
        event = Event(topic, kind, payload or {})
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

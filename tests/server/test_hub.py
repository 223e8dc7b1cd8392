"""The broadcast seam: topics, subscribers, cancellation, and one subscriber's fault kept
from the others."""

from __future__ import annotations

import logging

import pytest

from karnak.server.hub import ALL_GAMES, Event, Hub, account_topic, game_topic


def test_subscribers_get_what_is_published_on_their_topic() -> None:
    hub = Hub()
    seen: list[Event] = []
    other: list[Event] = []
    hub.subscribe(game_topic("g1"), seen.append)
    hub.subscribe(account_topic(7), other.append)
    hub.publish(game_topic("g1"), "chat", {"message": {"text": "hello"}})
    hub.publish(game_topic("g2"), "changed")
    assert [(e.topic, e.kind, e.payload) for e in seen] == [
        ("game:g1", "chat", {"message": {"text": "hello"}})
    ]
    assert other == []


def test_a_cancelled_subscription_gets_nothing_more() -> None:
    hub = Hub()
    seen: list[Event] = []
    subscription = hub.subscribe(ALL_GAMES, seen.append)
    hub.publish(ALL_GAMES, "changed", {"game_id": "a"})
    subscription.cancel()
    subscription.cancel()  # twice is harmless
    hub.publish(ALL_GAMES, "changed", {"game_id": "b"})
    assert [e.payload["game_id"] for e in seen] == ["a"]
    assert hub.subscribers(ALL_GAMES) == 0


def test_a_failing_subscriber_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    hub = Hub()
    seen: list[str] = []

    def broken(_event: Event) -> None:
        raise RuntimeError("boom")

    hub.subscribe("t", broken)
    hub.subscribe("t", lambda event: seen.append(event.kind))
    with caplog.at_level(logging.ERROR, logger="karnak.server"):
        hub.publish("t", "changed")
    assert seen == ["changed"]
    assert any("a subscriber of t failed" in r.getMessage() for r in caplog.records)


def test_a_subscriber_may_cancel_itself_while_being_told() -> None:
    hub = Hub()
    seen: list[str] = []
    subscriptions = []

    def once(event: Event) -> None:
        seen.append(event.kind)
        subscriptions[0].cancel()

    subscriptions.append(hub.subscribe("t", once))
    hub.publish("t", "first")
    hub.publish("t", "second")
    assert seen == ["first"]

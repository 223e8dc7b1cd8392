"""The event log: audiences, and lines formatted once however often they are read."""

from __future__ import annotations

from karnak.core.events import Event, EventLog


def test_each_seat_reads_only_its_events() -> None:
    log = EventLog()
    log.add("{who} bids {amount}", who="Ann", amount=3)
    log.add("{who} draws {card}", audience=(1,), who="Bob", card="a camel")
    assert log.lines(0) == ["Ann bids 3"]
    assert log.lines(1) == ["Ann bids 3", "Bob draws a camel"]
    assert log.lines(None) == ["Ann bids 3"]
    assert log.lines(everything=True) == log.lines(1)


def test_a_line_is_formatted_once_and_shared_by_copies() -> None:
    log = EventLog()
    log.add("{who} bids {amount}", who="Ann", amount=3)
    copy = log.copy()
    assert log.lines(0) == ["Ann bids 3"]
    event = copy.events[0]
    assert event is log.events[0]
    assert event._text == "Ann bids 3"  # the copy reads the line formatted above
    assert copy.lines(0) == ["Ann bids 3"]


def test_remembered_text_does_not_change_equality_or_records() -> None:
    fresh = Event("{x}", {"x": 1})
    read = Event("{x}", {"x": 1})
    assert read.text() == "1"
    assert read == fresh
    assert (
        read.to_json() == fresh.to_json() == {"template": "{x}", "args": {"x": 1}, "audience": None}
    )
    assert Event.from_json(read.to_json()) == read

"""The event log: plain-words lines, each with the seats allowed to read it.

Events are stored as a template and arguments and formatted only when someone reads the
log, so random play and search pay almost nothing for logging. Each event has an audience:
``None`` for everyone, or a tuple of seats (a seat sees its own card draws, nobody else does).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

Audience = tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class Event:
    template: str
    args: dict[str, Any]
    audience: Audience = None
    #: The formatted line, once someone has read it. Copies of a state share their events,
    #: so a server that shows the log after every move formats each line only once.
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` may read this event (``None`` means a spectator)."""
        if self.audience is None:
            return True
        return seat is not None and seat in self.audience

    def text(self) -> str:
        if self._text is None:
            object.__setattr__(self, "_text", self.template.format(**self.args))
        assert self._text is not None
        return self._text

    def to_json(self) -> dict[str, Any]:
        return {"template": self.template, "args": self.args, "audience": self.audience}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Event:
        audience = data.get("audience")
        return Event(
            data["template"], dict(data["args"]), None if audience is None else tuple(audience)
        )


class EventLog:
    """An append-only list of events that can be switched off for fast search copies."""

    __slots__ = ("enabled", "events")

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.events: list[Event] = []

    def add(self, template: str, audience: Audience = None, **args: Any) -> None:
        if self.enabled:
            self.events.append(Event(template, args, audience))

    def lines(self, seat: int | None = None, *, everything: bool = False) -> list[str]:
        """The log as ``seat`` may read it; ``everything=True`` is the omniscient view."""
        return [e.text() for e in self.events if everything or e.visible_to(seat)]

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def seen_by(self, seat: int) -> EventLog:
        """A log of only the events ``seat`` may read, logging on: the history a world
        re-dealt for ``seat`` carries, so that it holds nothing the seat did not witness."""
        log = EventLog(True)
        log.events = [e for e in self.events if e.visible_to(seat)]
        return log

    def copy(self, enabled: bool | None = None) -> EventLog:
        log = EventLog(self.enabled if enabled is None else enabled)
        if log.enabled:
            log.events = list(self.events)
        return log

"""A game's log in the reader's language.

The rules write each log line once, in English, as a template with arguments
(:mod:`karnak.core.events`); research adapters and records read that English. A client that
shows the log to a person calls :func:`log_lines` instead of ``state.log_lines``: in English it
is the same list, in another language each line is translated through the game's domain as it
is read (the audience of each event, who may read it, is unchanged).
"""

from __future__ import annotations

from karnak.core.events import Event
from karnak.core.registry import plugin_for
from karnak.core.state import State
from karnak.i18n.context import current_language
from karnak.i18n.languages import ENGLISH


def log_lines(
    state: State, seat: int | None = None, *, everything: bool = False, last: int | None = None
) -> list[str]:
    """The lines of ``state``'s log that ``seat`` may read, in the current language;
    ``last``: only the last that many of them (read from the end, so a long log costs no
    more than its tail)."""
    if last is not None:
        return _tail(state, seat, everything, last)
    if current_language() == ENGLISH:
        return state.log_lines(seat, everything=everything)
    domain = plugin_for(state.game).text_domain()
    if domain is None:
        return state.log_lines(seat, everything=everything)
    return [
        domain.event_text(event.template, event.args)
        for event in state.log
        if everything or event.visible_to(seat)
    ]


def _tail(state: State, seat: int | None, everything: bool, last: int) -> list[str]:
    events: list[Event] = []
    for event in reversed(state.log.events):
        if len(events) >= last:
            break
        audience = event.audience  # Event.visible_to, without a call per event
        if everything or audience is None or (seat is not None and seat in audience):
            events.append(event)
    events.reverse()
    domain = None if current_language() == ENGLISH else plugin_for(state.game).text_domain()
    if domain is None:
        return [event.text() for event in events]
    return [domain.event_text(event.template, event.args) for event in events]

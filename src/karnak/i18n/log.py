"""A game's log in the reader's language.

The rules write each log line once, in English, as a template with arguments
(:mod:`karnak.core.events`); research adapters and records read that English. A client that
shows the log to a person calls :func:`log_lines` instead of ``state.log_lines``: in English it
is the same list, in another language each line is translated through the game's domain as it
is read (the audience of each event, who may read it, is unchanged).
"""

from __future__ import annotations

from karnak.core.registry import plugin_for
from karnak.core.state import State
from karnak.i18n.context import current_language
from karnak.i18n.languages import ENGLISH


def log_lines(state: State, seat: int | None = None, *, everything: bool = False) -> list[str]:
    """The lines of ``state``'s log that ``seat`` may read, in the current language."""
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

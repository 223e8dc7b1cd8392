"""Bots play any game on the core through what a seat may see, never the hidden state.

A bot is given a :class:`SeatView` (the seat, its observation, its legal actions and an
information-set handle for sampling worlds) and its own seeded generator; it returns one of
the legal actions. Build bots from specs with :func:`make_bot` (``random``, ``heuristic``,
``ismcts:1s``, ``ismcts:2000``), each optionally with a style (``heuristic@style=3``: a
mild, seeded variation of the game's weights, so that bots of one level differ).
"""

from karnak.bots.base import (
    Bot,
    BotSpecError,
    Budget,
    SeatView,
    UnknownBotError,
    available_bots,
    make_bot,
    parse_budget,
    play_out,
    takes_budget,
)

__all__ = [
    "Bot",
    "BotSpecError",
    "Budget",
    "SeatView",
    "UnknownBotError",
    "available_bots",
    "make_bot",
    "parse_budget",
    "play_out",
    "takes_budget",
]

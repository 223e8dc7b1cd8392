"""Bots play any game on the core through what a seat may see, never the hidden state.

A bot is given a :class:`SeatView` (the seat, its observation and its legal actions) and
its own seeded generator; it returns one of the legal actions.
"""

from karnak.bots.base import Bot, SeatView, available_bots, make_bot
from karnak.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot", "SeatView", "available_bots", "make_bot"]

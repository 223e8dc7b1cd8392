"""A game played as the game of the day: alone, on the same deal for everyone.

A game offers a daily by naming a :class:`DailyGame` in its plugin (``GamePlugin.daily``).
The server deals every player of a day the same seed (a secret of its own, never shown
before the day is over) and asks the game, once a player's game is over, for a
:class:`DailyResult`: what the day's leaderboard ranks and what a player may share. The
core knows nothing of servers or days: a daily is just a one-seat game and a way to read
its result from the finished game's record.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from karnak.core.record import GameRecord


@dataclass(frozen=True)
class DailyResult:
    """A finished daily game, as the leaderboard ranks it and a player shares it.

    Best first: a higher ``score``, then a lower ``penalty`` (the game's own tie-break:
    Egyptia's plagues), then (the server's) less time. ``marks`` is one symbol a round,
    chosen by the game so that it tells how the game went without telling the deal (no
    dice, no cards): it is what a player pastes to compare with friends.
    """

    score: int
    status: str | None
    penalty: int
    marks: str


@dataclass(frozen=True)
class DailyGame:
    """How a game is played as the game of the day.

    ``result`` reads a finished one-seat game's record. ``penalty_words`` name the
    tie-break, singular and plural with ``{n}`` for the count ("{n} plague", "{n} plagues"),
    in English: the server translates them with the game's own catalogue.
    """

    result: Callable[[GameRecord], DailyResult]
    penalty_words: tuple[str, str] = ("{n} penalty", "{n} penalties")

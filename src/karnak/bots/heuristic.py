"""The ``heuristic`` bot: fast rules of thumb written for each game.

Each game's heuristic lives in its own package (``karnak.games.<game>.bot``), named by the
game's plugin as part of its :class:`~karnak.core.knowledge.Knowledge`, and is imported only
when asked for. A game whose plugin names none is not offered this bot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from karnak.bots.base import Bot, Budget, UnknownBotError, register_bot
from karnak.core.registry import plugin_for

if TYPE_CHECKING:
    from karnak.core.game import Game


def has_heuristic(game: Game) -> bool:
    """Whether the game's plugin names a bot module (without importing it)."""
    return plugin_for(game).knowledge is not None


def make_heuristic(game: Game) -> Bot:
    knowledge = plugin_for(game).load_knowledge()
    if knowledge is None or knowledge.heuristic is None:
        raise UnknownBotError(f"there is no heuristic bot for {game.title} yet")
    return knowledge.heuristic(game)


def _make(game: Game, budget: Budget | None) -> Bot:
    return make_heuristic(game)


register_bot(
    "heuristic",
    _make,
    help="fast rules of thumb written for the game",
    available=has_heuristic,
)

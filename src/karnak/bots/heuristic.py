"""The ``heuristic`` bot: fast rules of thumb written for each game.

Each game's heuristic lives in its own module (``karnak.bots.<game>_heuristic``) and is
imported only when asked for.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from karnak.bots.base import Bot, Budget, UnknownBotError, register_bot

if TYPE_CHECKING:
    from karnak.core.game import Game

#: Game name -> module that defines ``make_heuristic() -> Bot``.
HEURISTIC_MODULES = {
    "amunre": "karnak.bots.amunre_heuristic",
    "aton": "karnak.bots.aton_heuristic",
    "egyptia": "karnak.bots.egyptia_heuristic",
}


def make_heuristic(game: Game) -> Bot:
    module_name = HEURISTIC_MODULES.get(game.name)
    if module_name is None:
        raise UnknownBotError(f"there is no heuristic bot for {game.title} yet")
    module = importlib.import_module(module_name)
    bot: Bot = module.make_heuristic(game)
    return bot


def _make(game: Game, budget: Budget | None) -> Bot:
    return make_heuristic(game)


register_bot(
    "heuristic",
    _make,
    help="fast rules of thumb written for the game",
    games=tuple(HEURISTIC_MODULES),
)

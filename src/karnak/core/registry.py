"""The games Karnak knows, imported lazily so a client loads only what it plays."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from karnak.core.errors import KarnakError

if TYPE_CHECKING:
    from karnak.core.game import Game

_GAMES: dict[str, str] = {
    "amunre": "karnak.games.amunre:GAME",
    "aton": "karnak.games.aton:GAME",
    "egyptia": "karnak.games.egyptia:GAME",
}
_ALIASES = {"amun-re": "amunre", "amun_re": "amunre"}


class UnknownGameError(KarnakError, LookupError):
    pass


def available_games() -> list[str]:
    return sorted(_GAMES)


def get_game(name: str) -> Game:
    key = _ALIASES.get(name.lower(), name.lower())
    if key not in _GAMES:
        raise UnknownGameError(f"unknown game {name!r}; Karnak has: {', '.join(available_games())}")
    module_name, attr = _GAMES[key].split(":")
    game: Game = getattr(importlib.import_module(module_name), attr)
    return game

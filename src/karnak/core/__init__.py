"""The game core shared by every Karnak game.

A game is a :class:`~karnak.core.game.Game` (metadata, options, a way to start) and a
:class:`~karnak.core.state.State` (a deterministic state machine). Records, the event log,
the seeded generator and the registry of games live here too.
"""

from karnak.core.errors import (
    IllegalActionError,
    InvalidActionTextError,
    InvalidOptionError,
    KarnakError,
    RecordError,
)
from karnak.core.game import Game, OptionSpec
from karnak.core.record import GameRecord, replay
from karnak.core.registry import available_games, get_game
from karnak.core.rng import Rng
from karnak.core.state import State

__all__ = [
    "Game",
    "GameRecord",
    "IllegalActionError",
    "InvalidActionTextError",
    "InvalidOptionError",
    "KarnakError",
    "OptionSpec",
    "RecordError",
    "Rng",
    "State",
    "available_games",
    "get_game",
    "replay",
]

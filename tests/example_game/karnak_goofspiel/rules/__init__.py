"""Goofspiel's rules: the moves, the state machine and the game. Pure Python over the core."""

from karnak_goofspiel.rules.game import GAME, Goofspiel

__all__ = ["GAME", "Goofspiel"]

"""Aton's rules: the board, the cards, the state machine. Pure Python over the core."""

from karnak.games.aton.rules.game import GAME, Aton

__all__ = ["GAME", "Aton"]

"""Egyptia's rules: the sheet, the market, the Pharaoh cards, the state machine. Pure Python
over the core."""

from karnak.games.egyptia.rules.game import GAME, Egyptia

__all__ = ["GAME", "Egyptia"]

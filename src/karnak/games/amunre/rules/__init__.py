"""Amun-Re's rules: the board, the power cards, scoring, the state machine. Pure Python over
the core."""

from karnak.games.amunre.rules.game import GAME, AmunRe

__all__ = ["GAME", "AmunRe"]

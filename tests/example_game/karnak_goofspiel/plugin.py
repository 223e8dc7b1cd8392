"""Goofspiel's one registration: what Karnak's generic layers find of the game.

Only the rules and the observation's declared shape are named; every other part of a
:class:`~karnak.core.plugin.GamePlugin` is left to Karnak's fallbacks. A distribution makes
it known through the ``karnak.games`` entry point (see the ``pyproject.toml`` beside it).
"""

from __future__ import annotations

from karnak.core.plugin import GamePlugin, TableDefaults

PLUGIN = GamePlugin(
    name="goofspiel",
    rules="karnak_goofspiel.rules:GAME",
    aliases=("goof",),
    observation="karnak_goofspiel.view:GoofspielObservation",
    table=TableDefaults(players=2, opponent="random"),
)

"""Aton's one registration: where Karnak's generic layers find each part of the game."""

from __future__ import annotations

from karnak.core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="aton",
    rules="karnak.games.aton.rules:GAME",
    observation="karnak.games.aton.view:AtonObservation",
    knowledge="karnak.games.aton.bot:KNOWLEDGE",
    terminal="karnak.games.aton.terminal:AtonRenderer",
    web="karnak.games.aton.web:PAGE",
    texts="karnak.games.aton.i18n:DOMAIN",
    board_data="karnak.games.aton.rules.board",
    forced_move="karnak.games.aton.autopass:forced_move",
    compiled=(
        "karnak.games.aton.rules.board",
        "karnak.games.aton.rules.actions",
        "karnak.games.aton.rules.state",
        "karnak.games.aton.research.tensors",
        "karnak.games.aton.bot",
    ),
)

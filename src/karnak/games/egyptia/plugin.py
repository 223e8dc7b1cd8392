"""Egyptia's one registration: where Karnak's generic layers find each part of the game."""

from __future__ import annotations

from karnak.core.plugin import GamePlugin, TableDefaults

PLUGIN = GamePlugin(
    name="egyptia",
    rules="karnak.games.egyptia.rules:GAME",
    observation="karnak.games.egyptia.view:EgyptiaObservation",
    # Played alone by default: builders never touch each other's sheets, the rule book rates
    # a solo score (Apprentice to Legendary), and a table of bots would only add waiting; a
    # person's opponents, when asked for, are the instant heuristic for the same reason.
    table=TableDefaults(players=1, opponent="heuristic"),
    knowledge="karnak.games.egyptia.bot:KNOWLEDGE",
    terminal="karnak.games.egyptia.terminal:EgyptiaRenderer",
    web="karnak.games.egyptia.web:PAGE",
    texts="karnak.games.egyptia.i18n:DOMAIN",
    board_data="karnak.games.egyptia.rules.sheet",
    forced_move="karnak.games.egyptia.autopass:forced_move",
    daily="karnak.games.egyptia.daily:DAILY",
    compiled=(
        "karnak.games.egyptia.rules.market",
        "karnak.games.egyptia.rules.sheet",
        "karnak.games.egyptia.rules.actions",
        "karnak.games.egyptia.rules.pharaoh",
        "karnak.games.egyptia.rules.state",
        "karnak.games.egyptia.research.tensors",
        "karnak.games.egyptia.bot",
    ),
)

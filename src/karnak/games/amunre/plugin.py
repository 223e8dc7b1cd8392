"""Amun-Re's one registration: where Karnak's generic layers find each part of the game."""

from __future__ import annotations

from karnak.core.plugin import GamePlugin

PLUGIN = GamePlugin(
    name="amunre",
    rules="karnak.games.amunre.rules:GAME",
    aliases=("amun-re", "amun_re"),
    observation="karnak.games.amunre.view:AmunReObservation",
    knowledge="karnak.games.amunre.bot:KNOWLEDGE",
    terminal="karnak.games.amunre.terminal:AmunReRenderer",
    web="karnak.games.amunre.web:PAGE",
    texts="karnak.games.amunre.i18n:DOMAIN",
    board_data="karnak.games.amunre.rules.board",
    forced_move="karnak.games.amunre.autopass:forced_move",
    compiled=(
        "karnak.games.amunre.rules.board",
        "karnak.games.amunre.rules.scoring",
        "karnak.games.amunre.rules.state",
        "karnak.games.amunre.research.tensors",
        "karnak.games.amunre.bot",
    ),
)

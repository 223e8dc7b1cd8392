"""A Karnak game played in integer ids, one seat at a time: the ground every adapter stands on.

The classes live in :mod:`karnak.core.id_play` (integer play belongs to the core, beside
:mod:`karnak.core.action_ids`, and is compiled with it for speed); this module keeps the
name the adapters and their users import them by.
"""

from __future__ import annotations

from karnak.core.id_play import (
    OBSERVATION_KINDS,
    TERMINAL,
    IdGame,
    IdState,
    ObservationKind,
    default_players,
)

__all__ = [
    "OBSERVATION_KINDS",
    "TERMINAL",
    "IdGame",
    "IdState",
    "ObservationKind",
    "default_players",
]

"""Goofspiel's integer action space: one id a move, ``bid c`` is id ``c - 1``.

A game is one bid per seat per prize, so it lasts exactly ``prizes x players`` ids.
"""

from __future__ import annotations

from karnak.core.action_ids import ActionIdError, ActionSpace, Spelling
from karnak_goofspiel.rules.actions import Bid


class GoofspielActionSpace(ActionSpace):
    def __init__(self, players: int, prizes: int):
        self.size = prizes
        self.max_game_length = prizes * players

    def spell(self, action: object) -> Spelling:
        if not isinstance(action, Bid):
            raise ActionIdError(f"{action!r} is not a Goofspiel move")
        return (action.card - 1,)

    def id_name(self, action_id: int) -> str:
        self.check_id(action_id)
        return f"bid {action_id + 1}"

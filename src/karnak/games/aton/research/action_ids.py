"""Aton's fixed integer action space: every move is one id.

The ids, for a board of ``S`` squares a temple (12 on the printed board):

| ids | move |
|---|---|
| 0 | ``exchange`` |
| 1 .. 256 | ``allocate c1 c2 c3 c4``: ``1 + 64(c1-1) + 16(c2-1) + 4(c3-1) + (c4-1)`` |
| 257 .. 257+4S-1 | ``remove t.s``: ``257 + S(t-1) + (s-1)`` |
| then 4S more | ``place t.s``, in the same order |

A lay-out is the four card values in cartouche order (values 1 to 4, so 4^4 = 256 ids), not
which physical card goes where: cards of one value are alike, which is also how the engine
lists the moves.

Game length. A round takes at most 18 ids: a lay-out per priest, and per priest up to four
removals and four placements (an exchange, once a game per priest, adds 2 ids in all). The
rules do not bound the number of rounds: cartouche 1 can score nothing round after round, and a
pile is reshuffled when it is used up. The longest of 3,000 random games took 168 ids in 18
rounds, so :data:`MAX_GAME_LENGTH` caps a game at 1,000 ids (about 55 rounds), which an
environment treats as a truncation.
"""

from __future__ import annotations

from typing import cast

from karnak.core.action_ids import ActionIdError, ActionSpace, Spelling
from karnak.games.aton.rules.actions import Allocate, AtonAction, Exchange, Place, Remove
from karnak.games.aton.rules.board import CARD_VALUES, TEMPLES, Board

EXCHANGE_ID = 0
ALLOCATE_BASE = 1
LAY_OUTS = len(CARD_VALUES) ** 4
MAX_GAME_LENGTH = 1000
MOVE_KINDS = frozenset({Exchange, Allocate, Remove, Place})


class AtonActionSpace(ActionSpace):
    def __init__(self, board: Board):
        self.squares = len(board.temples[0])  # every temple has as many squares
        self.remove_base = ALLOCATE_BASE + LAY_OUTS
        self.place_base = self.remove_base + TEMPLES * self.squares
        self.size = self.place_base + TEMPLES * self.squares
        self.max_game_length = MAX_GAME_LENGTH
        self._spelled: dict[object, Spelling] = {}

    def id_of(self, action: AtonAction) -> int:
        if isinstance(action, Exchange):
            return EXCHANGE_ID
        if isinstance(action, Allocate):
            c1, c2, c3, c4 = (c - 1 for c in action.cards)
            return ALLOCATE_BASE + 64 * c1 + 16 * c2 + 4 * c3 + c4
        square: int = self.squares * (action.temple - 1) + action.square - 1
        return (self.remove_base if isinstance(action, Remove) else self.place_base) + square

    def action_of_id(self, action_id: int) -> AtonAction:
        self.check_id(action_id)
        if action_id == EXCHANGE_ID:
            return Exchange()
        if action_id < self.remove_base:
            code = action_id - ALLOCATE_BASE
            cards = (code // 64 + 1, code // 16 % 4 + 1, code // 4 % 4 + 1, code % 4 + 1)
            return Allocate(cards)
        base = self.remove_base if action_id < self.place_base else self.place_base
        temple, square = divmod(action_id - base, self.squares)
        kind = Remove if base == self.remove_base else Place
        return kind(temple + 1, square + 1)

    def spell(self, action: object) -> Spelling:
        """The move's one id. Remembered per move (moves are frozen values, at most
        ``size`` of them), since a mask spells every legal move of every position."""
        if type(action) not in MOVE_KINDS:
            raise ActionIdError(f"{action!r} is not an Aton move")
        known = self._spelled.get(action)
        if known is not None:
            return known
        spelling = self._spelled[action] = (self.id_of(cast(AtonAction, action)),)
        return spelling

    def id_name(self, action_id: int) -> str:
        return self.action_of_id(action_id).to_text()

"""A game's fixed integer action space, and moves spelled as sequences of ids.

Learning code wants a small, fixed set of action ids and a mask of the legal ones. Most of
Karnak's moves are one id each (a square, a bid of an amount on a province), but some are
combinatorial: an Amun-Re offering with cards is an amount and any subset of a hand, an
Egyptia payment is any minimal mix of resources. Numbering every such combination would make
the space huge, so a move is *spelled*: a short sequence of ids (its parts, say "offer 5",
"card 3", "card 7", "done"), each chosen from a small vocabulary, and the move is played when
its spelling is complete. The rules never change: the legal moves are the engine's own
:meth:`~karnak.core.state.State.legal_actions`, and the ids legal next are the next parts of
the legal moves that begin with what the seat has spelled so far. So every legal move can be
reached, and nothing illegal can.

A game supplies an :class:`ActionSpace` (its vocabulary and the spelling of each of its
moves); :class:`Speller` does the rest, the same for every game and every adapter.

Spellings must be *prefix-free*: no legal move's spelling may begin another's (a final "done"
part makes that so); :class:`Speller` refuses a position where it is not.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.state import State

Spelling = tuple[int, ...]
BoolVector = npt.NDArray[np.bool_]


class ActionIdError(ValueError):
    """An id that is out of range, or not legal for the seat at this point of its spelling."""


class ActionSpace(ABC):
    """The ids of one game at one table size and options: ``size`` of them, numbered from
    0, each with a name; and how each move is spelled in them."""

    #: How many distinct ids there are (OpenSpiel's ``num_distinct_actions``).
    size: int
    #: The most ids one whole game takes at this table, every seat's spelled moves counted
    #: (OpenSpiel's ``max_game_length``). Where the rules bound a game, this is that bound;
    #: where they do not (Aton's rounds can in principle go on), it is a cap far above any
    #: game seen, and an environment that reaches it cuts the game off (a truncation).
    max_game_length: int

    @abstractmethod
    def spell(self, action: Action) -> Spelling:
        """The ids that make up ``action``, in order (one id for most moves)."""

    @abstractmethod
    def id_name(self, action_id: int) -> str:
        """A short name of an id, for people and logs ("place 2.5", "card 7", "done")."""

    def check_id(self, action_id: int) -> None:
        if isinstance(action_id, bool) or not 0 <= int(action_id) < self.size:
            raise ActionIdError(f"an action id is from 0 to {self.size - 1}, not {action_id!r}")


class Speller:
    """Integer play over a state: which ids a seat may choose next, and what they spell.

    ``prefix`` is what the seat has chosen so far of a move not yet complete (``()`` at the
    start of each move). A caller (an environment) keeps it per seat, and resets it to
    ``()`` whenever a move is played.
    """

    __slots__ = ("space",)

    def __init__(self, space: ActionSpace):
        self.space = space

    def _continuations(
        self, state: State, seat: int, prefix: Spelling
    ) -> dict[int, list[tuple[Spelling, Action]]]:
        depth = len(prefix)
        found: dict[int, list[tuple[Spelling, Action]]] = {}
        for action in state.legal_actions(seat):
            spelling = self.space.spell(action)
            if len(spelling) > depth and spelling[:depth] == prefix:
                found.setdefault(spelling[depth], []).append((spelling, action))
        return found

    def next_ids(self, state: State, seat: int, prefix: Spelling = ()) -> set[int]:
        """The ids ``seat`` may choose next, unordered (the fast path of masks: at the start
        of a move, which is nearly every step, only first ids are collected)."""
        spell = self.space.spell
        actions = state.legal_actions(seat)
        if not prefix:
            return {spell(action)[0] for action in actions}
        depth = len(prefix)
        found: set[int] = set()
        for action in actions:
            spelling = spell(action)
            if len(spelling) > depth and spelling[:depth] == prefix:
                found.add(spelling[depth])
        return found

    def legal_ids(self, state: State, seat: int, prefix: Spelling = ()) -> list[int]:
        """The ids ``seat`` may choose next, in increasing order ([] when it is not to
        move, or when ``prefix`` begins no legal move)."""
        return sorted(self.next_ids(state, seat, prefix))

    def mask(self, state: State, seat: int, prefix: Spelling = ()) -> BoolVector:
        """``legal_ids`` as a boolean vector of the space's size."""
        mask = np.zeros(self.space.size, dtype=np.bool_)
        ids = self.next_ids(state, seat, prefix)
        if ids:
            mask[list(ids)] = True
        return mask

    def choose(
        self, state: State, seat: int, prefix: Spelling, action_id: int
    ) -> tuple[Spelling, Action | None]:
        """Add ``action_id`` to ``prefix``: the move it completes (and ``()``, the start of
        the next), or the longer prefix and None. The state is not changed: the caller
        applies the move. ActionIdError if the id is not legal here."""
        self.space.check_id(action_id)
        options = self._continuations(state, seat, prefix).get(int(action_id))
        if not options:
            legal = ", ".join(self.space.id_name(i) for i in self.legal_ids(state, seat, prefix))
            raise ActionIdError(
                f"{self.space.id_name(int(action_id))} ({action_id}) is not legal here; "
                f"legal: {legal or 'nothing'}"
            )
        spelled = (*prefix, int(action_id))
        complete = [action for spelling, action in options if spelling == spelled]
        if complete and len(options) > 1:
            raise ActionIdError(
                f"the spelling {spelled} is complete for one move and begins another: "
                "a game's spellings must be prefix-free"
            )
        if complete:
            return (), complete[0]
        return spelled, None

    def action_of(self, state: State, seat: int, ids: Sequence[int]) -> Action:
        """The move that ``ids`` spell from the start, for ``seat`` now."""
        prefix: Spelling = ()
        for position, action_id in enumerate(ids):
            prefix, action = self.choose(state, seat, prefix, action_id)
            if action is not None:
                if position != len(ids) - 1:
                    raise ActionIdError(f"{list(ids)} spells a move before its last id")
                return action
        raise ActionIdError(f"{list(ids)} does not spell a whole move")

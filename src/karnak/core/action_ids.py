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
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, SupportsInt, TypeVar, cast

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.state import State

Spelling = tuple[int, ...]
BoolVector = npt.NDArray[np.bool_]


class ActionIdError(ValueError):
    """An id that is out of range, or not legal for the seat at this point of its spelling."""


_C = TypeVar("_C", bound=type)


def _open_class(cls: _C) -> _C:
    """Nothing at run time. When mypyc compiles this module (``karnak.native``), a class with
    a decorator it does not know stays an ordinary Python class, so games and tests outside
    the compiled set can subclass :class:`ActionSpace` as before."""
    return cls


@_open_class
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
    #: The ids that can stand in an unfinished spelling (every id of a spelled move but its
    #: last), in a fixed order: an observation counts the ones a seat has chosen so far, so
    #: a game whose moves are all one id declares none and its vectors carry no such part.
    spelling_ids: tuple[int, ...] = ()
    #: The most times one of ``spelling_ids`` can occur in one spelling (the bound of its
    #: count in an observation).
    spelling_repeats: int = 1

    @abstractmethod
    def spell(self, action: Action) -> Spelling:
        """The ids that make up ``action``, in order (one id for most moves)."""

    @abstractmethod
    def id_name(self, action_id: int) -> str:
        """A short name of an id, for people and logs ("place 2.5", "card 7", "done")."""

    def check_id(self, action_id: SupportsInt) -> None:
        # SupportsInt, not int: a NumPy integer is an id too (and compiled, an ``int``
        # annotation would refuse it).
        if isinstance(action_id, bool) or not 0 <= int(action_id) < self.size:
            raise ActionIdError(f"an action id is from 0 to {self.size - 1}, not {action_id!r}")


#: Spellings a :class:`Speller` remembers by move identity before it starts afresh.
MEMO_LIMIT = 50_000


class Spelled:
    """A move with its spelling, as a :class:`Speller` remembers it and lists it in its
    options (one object a move, shared by every position that offers it: compiled, reading
    its fields costs no new tuple)."""

    __slots__ = ("action", "first", "spelling")

    def __init__(self, spelling: Spelling, action: Action):
        self.spelling = spelling
        self.action = action
        #: The spelling's first id (-1 for an empty spelling, which no choice can complete).
        self.first = spelling[0] if spelling else -1


#: The ids a seat may choose next, each with the legal moves whose spelling continues the
#: prefix with it.
Options = dict[int, list[Spelled]]


class Speller:
    """Integer play over a state: which ids a seat may choose next, and what they spell.

    ``prefix`` is what the seat has chosen so far of a move not yet complete (``()`` at the
    start of each move). A caller (an environment) keeps it per seat, and resets it to
    ``()`` whenever a move is played.

    Spellings are remembered by the identity of the move object (every game hands out the
    same frozen move objects position after position, so a mask costs a dictionary look-up
    a legal move, not a spelling and a hash of the move's fields). A remembered move is held,
    so its identity cannot be reused while it is remembered; the memory starts afresh past
    :data:`MEMO_LIMIT` moves.
    """

    __slots__ = ("_memo", "memo_limit", "space")

    def __init__(self, space: ActionSpace):
        self.space = space
        #: How many moves' spellings are remembered before the memory starts afresh.
        self.memo_limit = MEMO_LIMIT
        self._memo: dict[int, Spelled] = {}

    def _remember(self, action: Action) -> Spelled:
        memo = self._memo
        if len(memo) >= self.memo_limit:
            memo.clear()
        entry = Spelled(self.space.spell(action), action)
        memo[id(action)] = entry
        return entry

    def spelling(self, action: Action) -> Spelling:
        """``action``'s spelling (``space.spell``, remembered)."""
        entry = self._memo.get(id(action))
        if entry is None or entry.action is not action:
            entry = self._remember(action)
        return entry.spelling

    def spellings(self, actions: Sequence[Action]) -> list[Spelling]:
        """Each of ``actions``' spelling, in order (``space.spell``, remembered)."""
        memo = self._memo
        found: list[Spelling] = []
        for action in actions:
            entry = memo.get(id(action))
            if entry is None or entry.action is not action:
                entry = self._remember(action)
            found.append(entry.spelling)
        return found

    def options(self, state: State, seat: int, prefix: Spelling = ()) -> Options:
        """The ids ``seat`` may choose next, each with the legal moves whose spelling
        continues ``prefix`` with it (their whole spellings and the moves)."""
        memo = self._memo
        depth = len(prefix)
        found: Options = {}
        if not depth:  # the start of a move (nearly every step): only the first ids
            for action in state.legal_actions(seat):
                entry = memo.get(id(action))
                if entry is None or entry.action is not action:
                    entry = self._remember(action)
                first = entry.first
                if first < 0:
                    continue  # an empty spelling (refused when chosen: prefix-free)
                listed = found.get(first)
                if listed is None:
                    found[first] = [entry]
                else:
                    listed.append(entry)
            return found
        for action in state.legal_actions(seat):
            entry = memo.get(id(action))
            if entry is None or entry.action is not action:
                entry = self._remember(action)
            spelling = entry.spelling
            if len(spelling) <= depth or spelling[:depth] != prefix:
                continue
            following = spelling[depth]
            listed = found.get(following)
            if listed is None:
                found[following] = [entry]
            else:
                listed.append(entry)
        return found

    def next_ids(self, state: State, seat: int, prefix: Spelling = ()) -> set[int]:
        """The ids ``seat`` may choose next, unordered (the fast path of masks: at the start
        of a move, which is nearly every step, only first ids are collected)."""
        spellings = self.spellings(state.legal_actions(seat))
        if not prefix:
            return {spelling[0] for spelling in spellings if spelling}
        depth = len(prefix)
        return {
            spelling[depth]
            for spelling in spellings
            if len(spelling) > depth and spelling[:depth] == prefix
        }

    def legal_ids(self, state: State, seat: int, prefix: Spelling = ()) -> list[int]:
        """The ids ``seat`` may choose next, in increasing order ([] when it is not to
        move, or when ``prefix`` begins no legal move)."""
        return sorted(self.next_ids(state, seat, prefix))

    def mask(self, state: State, seat: int, prefix: Spelling = ()) -> BoolVector:
        """``legal_ids`` as a boolean vector of the space's size."""
        return self.mask_of(self.next_ids(state, seat, prefix))

    def mask_of(self, ids: Collection[int]) -> BoolVector:
        """A boolean vector of the space's size, True at ``ids``."""
        mask = np.zeros(self.space.size, dtype=np.bool_)
        # Item by item through a memoryview: cheaper than fancy indexing for a few dozen
        # ids, and than NumPy's own item assignment.
        cells = cast("memoryview[bool]", mask.data)
        for action_id in ids:
            cells[action_id] = True
        return mask

    def choose(
        self, state: State, seat: int, prefix: Spelling, action_id: SupportsInt
    ) -> tuple[Spelling, Action | None]:
        """Add ``action_id`` to ``prefix``: the move it completes (and ``()``, the start of
        the next), or the longer prefix and None. The state is not changed: the caller
        applies the move. ActionIdError if the id is not legal here."""
        self.space.check_id(action_id)
        return self.choose_from(self.options(state, seat, prefix), prefix, action_id)

    def choose_from(
        self, options: Options, prefix: Spelling, action_id: SupportsInt
    ) -> tuple[Spelling, Action | None]:
        """:meth:`choose` with the :meth:`options` of the position already at hand (an
        environment that showed the mask keeps them for the step)."""
        chosen = int(action_id)
        found = options.get(chosen) if not isinstance(action_id, bool) else None
        if not found:
            self.space.check_id(action_id)
            legal = ", ".join(self.space.id_name(i) for i in sorted(options))
            raise ActionIdError(
                f"{self.space.id_name(chosen)} ({action_id}) is not legal here; "
                f"legal: {legal or 'nothing'}"
            )
        if len(found) == 1 and len(found[0].spelling) == len(prefix) + 1:
            return (), found[0].action  # the common case: one move, complete
        spelled = (*prefix, chosen)
        complete = [entry.action for entry in found if entry.spelling == spelled]
        if complete and len(found) > 1:
            raise ActionIdError(
                f"the spelling {spelled} is complete for one move and begins another: "
                "a game's spellings must be prefix-free"
            )
        if complete:
            return (), complete[0]
        return spelled, None

    def action_of(self, state: State, seat: int, ids: Sequence[SupportsInt]) -> Action:
        """The move that ``ids`` spell from the start, for ``seat`` now."""
        prefix: Spelling = ()
        for position, action_id in enumerate(ids):
            prefix, action = self.choose(state, seat, prefix, action_id)
            if action is not None:
                if position != len(ids) - 1:
                    raise ActionIdError(f"{list(ids)} spells a move before its last id")
                return action
        raise ActionIdError(f"{list(ids)} does not spell a whole move")

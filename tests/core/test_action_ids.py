"""Moves spelled as ids: a toy offering (an amount, then any subset of four cards, then
"done") beside one-id moves. Every legal move is reached by its spelling and by nothing
else; masks follow the prefix; bad ids and ambiguous spellings are refused clearly."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, cast

import pytest

from karnak.core.action_ids import ActionIdError, ActionSpace, Speller, Spelling
from karnak.core.state import State

PASS, DONE = 0, 10


@dataclass(frozen=True)
class Offer:
    amount: int  # 1 to 5
    cards: frozenset[int]  # of 0 to 3


class ToySpace(ActionSpace):
    size = 11  # pass, offer 1-5, card 0-3, done

    def spell(self, action: Any) -> Spelling:
        if action == "pass":
            return (PASS,)
        return (action.amount, *(6 + c for c in sorted(action.cards)), DONE)

    def id_name(self, action_id: int) -> str:
        if action_id == PASS:
            return "pass"
        if action_id == DONE:
            return "done"
        return f"offer {action_id}" if action_id <= 5 else f"card {action_id - 6}"


class ToyState:
    """Legal: pass, or an offer of 2 or 3 with any subset of cards 0, 1 and 3."""

    def __init__(self, moves: list[Any] | None = None):
        hand = (0, 1, 3)
        subsets = [frozenset(s) for r in range(4) for s in itertools.combinations(hand, r)]
        self.moves = (
            moves
            if moves is not None
            else ["pass"] + [Offer(a, s) for a in (2, 3) for s in subsets]
        )

    def legal_actions(self, seat: int) -> list[Any]:
        return list(self.moves) if seat == 0 else []


def speller_and_state(moves: list[Any] | None = None) -> tuple[Speller, State]:
    return Speller(ToySpace()), cast(State, ToyState(moves))


def test_every_legal_move_is_reached_by_its_spelling_and_only_by_it() -> None:
    speller, state = speller_and_state()
    legal = state.legal_actions(0)
    for action in legal:
        assert speller.action_of(state, 0, speller.space.spell(action)) == action
    # walking every path of legal ids reaches each move exactly once
    reached: list[Any] = []

    def walk(prefix: Spelling) -> None:
        for action_id in speller.legal_ids(state, 0, prefix):
            longer, action = speller.choose(state, 0, prefix, action_id)
            if action is not None:
                reached.append(action)
            else:
                walk(longer)

    walk(())
    assert sorted(map(repr, reached)) == sorted(map(repr, legal))


def test_masks_follow_the_prefix() -> None:
    speller, state = speller_and_state()
    assert speller.legal_ids(state, 0) == [PASS, 2, 3]
    assert speller.legal_ids(state, 0, (2,)) == [6, 7, 9, DONE]  # cards 0, 1, 3 or done
    assert speller.legal_ids(state, 0, (2, 7)) == [9, DONE]  # cards in order: 3 or done
    mask = speller.mask(state, 0, (2, 7))
    assert mask.dtype == bool and mask.shape == (11,)
    assert [i for i in range(11) if mask[i]] == [9, DONE]
    assert speller.legal_ids(state, 1) == [] and not speller.mask(state, 1).any()
    assert speller.choose(state, 0, (), 3) == ((3,), None)
    assert speller.choose(state, 0, (3, 6), DONE) == ((), Offer(3, frozenset({0})))


def test_bad_ids_and_spellings_are_refused_clearly() -> None:
    speller, state = speller_and_state()
    with pytest.raises(ActionIdError, match="from 0 to 10"):
        speller.choose(state, 0, (), 11)
    with pytest.raises(ActionIdError, match="from 0 to 10"):
        speller.choose(state, 0, (), -1)
    with pytest.raises(ActionIdError, match=r"card 2 \(8\) is not legal here; legal: card 0"):
        speller.choose(state, 0, (2,), 8)
    with pytest.raises(ActionIdError, match="does not spell a whole move"):
        speller.action_of(state, 0, [2, 6])
    with pytest.raises(ActionIdError, match="before its last id"):
        speller.action_of(state, 0, [PASS, 2])


def test_a_spelling_that_begins_another_is_refused() -> None:
    class NoDone(ToySpace):
        def spell(self, action: Any) -> Spelling:
            return super().spell(action)[:-1]  # no final "done": {} begins {0}

    speller = Speller(NoDone())
    state = cast(State, ToyState())
    with pytest.raises(ActionIdError, match="prefix-free"):
        speller.choose(state, 0, (), 2)

"""Aton's integer actions: 353 ids on the printed board, one a move; every legal move has its
own id and comes back from it; masks are the legal moves; whole games play by ids."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karnak.core import Rng
from karnak.core.action_ids import ActionIdError, Speller
from karnak.games.aton import GAME

SPACE = GAME.action_space(2)


def test_the_space_of_the_printed_board() -> None:
    assert SPACE.size == 1 + 256 + 48 + 48
    assert SPACE.id_name(0) == "exchange"
    assert SPACE.id_name(1) == "allocate 1 1 1 1"
    assert SPACE.id_name(256) == "allocate 4 4 4 4"
    assert SPACE.id_name(1 + 64 * 2 + 16 * 0 + 4 * 3 + 1) == "allocate 3 1 4 2"
    assert SPACE.id_name(257) == "remove 1.1"
    assert SPACE.id_name(257 + 12 + 4) == "remove 2.5"
    assert SPACE.id_name(305 + 47) == "place 4.12"
    for action_id in range(SPACE.size):  # every name is a move's text, and back
        action = GAME.parse_action(SPACE.id_name(action_id))
        assert SPACE.spell(action) == (action_id,)
    for bad in (-1, SPACE.size, True):
        with pytest.raises(ActionIdError):
            SPACE.id_name(bad)
    with pytest.raises(Exception, match="players"):
        GAME.action_space(3)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_whole_games_play_by_ids_and_masks_are_the_legal_moves(seed: int) -> None:
    state = GAME.new_state(2, seed=seed)
    speller = Speller(SPACE)
    rng = Rng(seed)
    while not state.is_over():
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        ids = [SPACE.spell(a)[0] for a in legal]
        assert len(set(ids)) == len(ids)  # one id a move
        mask = speller.mask(state, seat)
        assert mask.dtype == np.bool_ and int(mask.sum()) == len(legal)
        assert sorted(ids) == list(np.flatnonzero(mask))
        for other in range(2):
            if other not in state.to_move():
                assert not speller.mask(state, other).any()
        chosen = ids[rng.below(len(ids))]
        prefix, action = speller.choose(state, seat, (), chosen)
        assert prefix == () and action is not None and SPACE.spell(action) == (chosen,)
        state.apply(seat, action)

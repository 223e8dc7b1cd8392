"""The memory of Amun-Re's tensor module (karnak.games.amunre.research.tensors).

A plan (layouts, part offsets, templates) is remembered per board and table, and the last
one used is tried first. Tensors of tables and boards taken in turn must equal the tensors
computed with that memory emptied, and the templates must never take a position's values.
"""

from __future__ import annotations

import tomllib
from typing import Any

import numpy as np

from karnak.core import Rng, get_game
from karnak.games.amunre.research import tensors as T
from karnak.games.amunre.rules.board import default_board_text, parse_board
from karnak.games.amunre.rules.state import AmunReState

GAME = get_game("amunre")


def corrected_game() -> Any:
    """The game on a board whose first province has one field more (a template entry)."""
    data = tomllib.loads(default_board_text())
    data["provinces"]["ABU"]["fields"] += 1
    return GAME.with_board(parse_board(data, "test"))  # type: ignore[attr-defined]


def played(game: Any, n: int, options: dict[str, Any], seed: int, moves: int) -> AmunReState:
    state = game.new_state(n, seed=seed, options=options)
    rng = Rng(seed)
    for _ in range(moves):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply_unchecked(seat, legal[rng.below(len(legal))])
    assert isinstance(state, AmunReState)
    return state


def afresh(state: AmunReState, seat: int) -> tuple[bytes, bytes]:
    T._CACHE.clear()
    T._LAST[0] = None
    return (
        T.observation_tensor(state, seat).tobytes(),
        T.information_state_tensor(state, seat).tobytes(),
    )


def test_tables_and_boards_in_turn_equal_fresh_tensors() -> None:
    other = corrected_game()
    states = [
        played(game, n, options, seed, moves)
        for seed, moves in ((1, 40), (2, 160))
        for game in (GAME, other)
        for n in (3, 4, 5)
        for options in ({}, {"expert_provinces": True, "edition": "2016"})
    ]
    fresh = {
        (i, seat): afresh(state, seat) for i, state in enumerate(states) for seat in range(state.n)
    }
    every = list(range(len(states)))
    for order in (every, every[::-1], every[::2] + every[1::2]):
        for i in order:
            state = states[i]
            for seat in range(state.n):
                observation = T.observation_tensor(state, seat)
                information = T.information_state_tensor(state, seat)
                assert observation.dtype == information.dtype == np.float32
                assert (observation.tobytes(), information.tobytes()) == fresh[i, seat]
                # The plan's layouts are the ones the game hands out for this table.
                layout = GAME.information_state_layout(state.n, {"expert_provinces": state.expert})
                assert information.size == layout.size


def test_templates_keep_their_values() -> None:
    state = played(GAME, 4, {}, 3, 200)
    plan = T._state_plan(state)
    before = plan.info_template.tobytes(), plan.obs_template.tobytes()
    clone = state.clone()
    for s in (state, clone):
        for seat in range(s.n):
            vector = T.information_state_tensor(s, seat)
            vector[:] = 7.0  # a caller may write into what it was handed
            T.observation_tensor(s, seat)[:] = 7.0
    assert (plan.info_template.tobytes(), plan.obs_template.tobytes()) == before
    assert T.information_state_tensor(clone, 0).tobytes() == afresh(state, 0)[1]

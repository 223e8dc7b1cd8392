"""The bot that moves for a seat whose turn timer ran out exists for every game."""

from __future__ import annotations

import pytest

from karnak.bots.base import SeatView
from karnak.core import Rng, available_games, get_game
from karnak.server.service import timeout_bot


@pytest.mark.parametrize("name", available_games())
def test_every_game_has_a_timeout_bot_that_plays_legally(name: str) -> None:
    game = get_game(name)
    state = game.new_state(game.min_players, seed=3)
    for step in range(30):
        if state.is_over():
            break
        seat = state.to_move()[0]
        action = timeout_bot(game).choose(SeatView.of(state, seat), Rng(step))
        state.apply(seat, action)  # raises if illegal

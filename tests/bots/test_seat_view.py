"""What a bot is handed (karnak.bots.base.SeatView): the seat's view, its observation built
only when a bot reads it, and the same whichever way it is read."""

from __future__ import annotations

from typing import Any

import pytest

from karnak.bots.base import SeatView
from karnak.core import State, available_games, get_game


class CountingState:
    """Wraps a state and counts the observations built through it."""

    def __init__(self, state: State):
        self.state = state
        self.built = 0

    def observation(self, seat: int) -> dict[str, Any]:
        self.built += 1
        return self.state.observation(seat)


@pytest.mark.parametrize("name", available_games())
def test_the_observation_is_built_at_the_first_read_and_only_once(name: str) -> None:
    game = get_game(name)
    state = game.new_state(game.min_players, seed=5)
    seat = state.to_move()[0]
    counting = CountingState(state)
    view = SeatView.of(state, seat)
    view.infoset._state = counting  # type: ignore[assignment]  # counts the builds
    assert counting.built == 0  # a bot that never reads it pays nothing
    assert list(view.legal_actions) == list(state.legal_actions(seat))
    first = view.observation
    assert counting.built == 1
    assert view.observation is first and counting.built == 1
    assert first == state.observation(seat)


def test_a_view_stays_read_only() -> None:
    state = get_game("aton").new_state(2, seed=1)
    view = SeatView.of(state, 0)
    with pytest.raises(AttributeError):
        view.seat = 1  # type: ignore[misc]

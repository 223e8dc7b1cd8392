"""A bot's choice from a seat, asked on several truths the seat cannot tell apart: the tests
that a bot reads only what its seat sees collect these and expect one move."""

from __future__ import annotations

from collections.abc import Callable

from karnak.bots import SeatView
from karnak.core import Rng
from karnak.core.agent import Bot
from karnak.core.state import State


def choices_over_truths(
    state: State, seat: int, make: Callable[[], Bot], truths: int, first_seed: int, bot_seed: int
) -> set[object]:
    """The moves a fresh bot from ``make`` chooses on ``truths`` resamplings of ``state`` for
    ``seat`` (each checked to show the seat the same observation), with the same generator."""
    choices: set[object] = set()
    for k in range(truths):
        truth = state.resample(seat, Rng(first_seed + k))  # another truth, the same information
        view = SeatView.of(truth, seat)
        assert view.observation == state.observation(seat)
        choices.add(make().choose(view, Rng(bot_seed)))
    return choices

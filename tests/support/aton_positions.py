"""Hand-built Aton positions for the rules tests."""

from __future__ import annotations

from karnak.games.aton import GAME
from karnak.games.aton.rules.actions import Allocate
from karnak.games.aton.rules.state import AtonState

RED, BLUE = 0, 1


def position(
    *,
    round: int = 2,
    red: tuple[int, ...] = (1, 2, 3, 4),
    blue: tuple[int, ...] = (1, 2, 3, 4),
    temples: dict[tuple[int, int], int] | None = None,
) -> AtonState:
    """A game at the start of ``round`` with the given hands and counters on the board.

    ``temples`` maps (temple, square), both numbered from 1, to the seat whose counter is
    there; counters on the board come out of their owner's stock.
    """
    state = GAME.new_state(["Red", "Blue"], seed=1)
    state.round = round
    for seat, hand in ((RED, red), (BLUE, blue)):
        state.piles[seat].extend(state.hands[seat])
        state.hands[seat] = list(hand)
    for (temple, square), seat in (temples or {}).items():
        state.temples[temple - 1][square - 1] = seat
        state.stock[seat] -= 1
    return state


def lay(state: AtonState, red: tuple[int, int, int, int], blue: tuple[int, int, int, int]) -> None:
    state.apply(RED, Allocate(red))
    state.apply(BLUE, Allocate(blue))


def counters(state: AtonState, seat: int) -> int:
    return sum(temple.count(seat) for temple in state.temples)

"""The tensors remember the plan of the board used last (``_LAST``) besides the plans by
board (``_PLANS``): calls that switch boards must still use each state's own board."""

from __future__ import annotations

import numpy as np
from test_aton_tensors import GAMES, positions

from karnak.games.aton.research import tensors
from karnak.games.aton.rules.state import AtonState


def _fresh(state: AtonState, seat: int, name: str) -> np.ndarray:
    """The tensor computed with no plan remembered."""
    tensors._PLANS.clear()
    tensors._LAST.clear()
    result: np.ndarray = getattr(tensors, name)(state, seat)
    return result


def test_tensors_switching_boards_equal_tensors_computed_afresh() -> None:
    printed = positions(GAMES["printed"], 7, every=9)
    small = positions(GAMES["small"], 7, every=9)
    assert printed[0].board is not small[0].board
    mixed = [s for pair in zip(printed, small, strict=False) for s in pair]
    names = ("information_state_tensor", "observation_tensor")
    # Interleaved: every call finds the other board's plan remembered last.
    seen = [[getattr(tensors, n)(s, seat) for n in names for seat in (0, 1)] for s in mixed]
    for state, got in zip(mixed, seen, strict=True):
        want = [_fresh(state, seat, n) for n in names for seat in (0, 1)]
        for a, b in zip(got, want, strict=True):
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    # A copy of a state shares its board, so it shares the plan too.
    for state in mixed[:6]:
        twin = state.clone()
        assert tensors.information_state_tensor(twin, 0).tobytes() == (
            _fresh(state, 0, "information_state_tensor").tobytes()
        )

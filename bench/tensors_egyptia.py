"""The cost of Egyptia's tensors next to ``observation()``, on the same positions.

Positions come from seeded random games (every few moves); each is asked for every seat's
view (at most 8 seats a position). Two figures per table size:

cold   each position a fresh copy with no cached public sheets: what the first seat to ask
       after a reveal or a round's end pays (the published sheets are encoded then, once,
       for every seat and copy; ``observation()`` caches its own views the same way)
warm   the same asked again: what every later seat, and every private step, pays

Run: ``.venv/bin/python bench/tensors_egyptia.py [--positions 300]``
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from karnak.core import Rng, get_game
from karnak.games.egyptia.rules.state import EgyptiaState

GAME = get_game("egyptia")


def positions(players: int, count: int, seed: int = 1) -> list[EgyptiaState]:
    found: list[EgyptiaState] = []
    game = 0
    while len(found) < count:
        state = GAME.new_state(players, seed=seed + game)
        rng = Rng(seed + game)
        step = 0
        while not state.is_over() and len(found) < count:
            if step % 5 == 0:
                found.append(state.clone(log=True))
            seat = state.to_move()[rng.below(len(state.to_move()))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
            step += 1
        game += 1
    return found


def timed(states: list[EgyptiaState], ask: Callable[[EgyptiaState, int], Any]) -> float:
    """Seconds per call of ``ask`` over every position and its first 8 seats."""
    calls = 0
    start = time.perf_counter()
    for state in states:
        for seat in range(min(state.n, 8)):
            ask(state, seat)
            calls += 1
    return (time.perf_counter() - start) / calls


def fresh(states: list[EgyptiaState]) -> list[EgyptiaState]:
    copies = []
    for state in states:
        copy = state.clone()
        copy.public_cache = {}
        copies.append(copy)
    return copies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=300)
    args = parser.parse_args()
    asks: dict[str, Callable[[EgyptiaState, int], Any]] = {
        "observation()": lambda s, seat: s.observation(seat),
        "observation_tensor": lambda s, seat: s.observation_tensor(seat),
        "information_state_tensor": lambda s, seat: s.information_state_tensor(seat),
        "observation_string": lambda s, seat: s.observation_string(seat),
    }
    print(f"{args.positions} positions per table size, microseconds per call (ratio to obs)")
    print(f"{'players':>7} {'call':<26} {'cold':>9} {'ratio':>6} {'warm':>9} {'ratio':>6}")
    for players in (1, 2, 4, 20, 99):
        states = positions(players, args.positions)
        base: dict[str, float] = {}
        for name, ask in asks.items():
            cold_states = fresh(states)
            cold = timed(cold_states, ask)
            warm = timed(cold_states, ask)
            if name == "observation()":
                base = {"cold": cold, "warm": warm}
            print(
                f"{players:>7} {name:<26} {cold * 1e6:>9.1f} {cold / base['cold']:>6.2f} "
                f"{warm * 1e6:>9.1f} {warm / base['warm']:>6.2f}"
            )


if __name__ == "__main__":
    main()

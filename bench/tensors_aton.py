"""What Aton's tensors cost next to ``observation()``: a few hundred positions from random
games, each seat, timed in one process.

    .venv/bin/python bench/tensors_aton.py [--games 10] [--repeat 5]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from karnak.core import Rng, get_game
from karnak.core.state import State


def positions(games: int) -> list[State]:
    game = get_game("aton")
    found: list[State] = []
    for seed in range(games):
        state = game.new_state(2, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
            found.append(state.clone(log=False))
    return found


def per_call(states: list[State], call: Callable[[State, int], Any], repeat: int) -> float:
    """The best of ``repeat`` passes, in microseconds a call."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for state in states:
            call(state, 0)
            call(state, 1)
        best = min(best, time.perf_counter() - start)
    return best / (2 * len(states)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    states = positions(args.games)
    observation = per_call(states, lambda s, seat: s.observation(seat), args.repeat)
    tensor = per_call(states, lambda s, seat: s.observation_tensor(seat), args.repeat)
    info = per_call(states, lambda s, seat: s.information_state_tensor(seat), args.repeat)
    text = per_call(states, lambda s, seat: s.observation_string(seat), args.repeat)
    print(f"Aton, {len(states)} positions from {args.games} random games, both seats")
    print(f"observation()               {observation:7.2f} us")
    rows = (
        ("observation_tensor", tensor),
        ("information_state_tensor", info),
        ("observation_string", text),
    )
    for name, cost in rows:
        print(f"{name + '()':27s} {cost:7.2f} us   {cost / observation:.2f} x observation()")


if __name__ == "__main__":
    main()

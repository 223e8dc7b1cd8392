"""The cost of Amun-Re's tensors against ``observation()``, over positions of random games.

What is measured
    ``--positions`` positions (default 400) taken from random games (``--players`` seats,
    default 4, seeds from ``--seed``; ``--expert`` for expert provinces). At each, for the
    seat to move, the time of ``observation(seat)``, ``observation_tensor(seat)``,
    ``information_state_tensor(seat)`` and ``observation_string(seat)``, each timed as the
    fastest of ``--repeat`` passes (default 20) over all positions, the calls
    taking turns pass by pass; and the ratio of each time to the observation's.

Usage::

    python bench/tensors_amunre.py [--positions 400] [--players 4] [--seed 1] [--expert]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from karnak.core import Rng, get_game
from karnak.games.amunre.rules.state import AmunReState


def positions(count: int, players: int, seed: int, expert: bool) -> list[AmunReState]:
    game = get_game("amunre")
    found: list[AmunReState] = []
    rng = Rng(seed)
    while len(found) < count:
        state = game.new_state(
            players, seed=rng.next_u64() % 2**63, options={"expert_provinces": expert}
        )
        assert isinstance(state, AmunReState)
        while not state.is_over() and len(found) < count:
            seat = rng.choice(state.to_move())
            if rng.below(8) == 0:
                found.append(state.clone(log=False))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return found


def best_us(
    calls: dict[str, Callable[[AmunReState, int], Any]], states: list[AmunReState], repeat: int
) -> dict[str, float]:
    """Per call, the fastest of ``repeat`` passes over every position, in microseconds a
    call; the calls take turns pass by pass, so a busy machine slows them alike."""
    pairs = [(s, s.to_move()[0]) for s in states if s.to_move()]
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(repeat):
        for name, call in calls.items():
            begin = time.perf_counter()
            for state, seat in pairs:
                call(state, seat)
            best[name] = min(best[name], (time.perf_counter() - begin) / len(pairs) * 1e6)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--expert", action="store_true")
    args = parser.parse_args()
    states = positions(args.positions, args.players, args.seed, args.expert)
    layout = get_game("amunre").observation_layout(args.players, {"expert_provinces": args.expert})
    best = best_us(
        {
            "observation": lambda s, seat: s.observation(seat),
            "tensor": lambda s, seat: s.observation_tensor(seat),
            "info": lambda s, seat: s.information_state_tensor(seat),
            "text": lambda s, seat: s.observation_string(seat),
        },
        states,
        args.repeat,
    )
    obs, tensor, info, text = best["observation"], best["tensor"], best["info"], best["text"]
    print(
        f"Amun-Re, {args.players} players{' (expert provinces)' if args.expert else ''}, "
        f"{len(states)} positions, observation tensor of {layout.size} floats"
    )
    print(f"observation()              {obs:8.1f} us")
    print(f"observation_tensor()       {tensor:8.1f} us  ({tensor / obs:.2f} x observation())")
    print(f"information_state_tensor() {info:8.1f} us  ({info / obs:.2f} x observation())")
    print(f"observation_string()       {text:8.1f} us  ({text / obs:.2f} x observation())")


if __name__ == "__main__":
    main()

"""Steps per second of random play through the PettingZoo and Gymnasium adapters and the batch
stepper, next to the same loop on :class:`karnak.envs.IdState` (the adapters' ground).

Every loop does, at every step, what a learning loop does: it reads the acting seat's
observation vector (the information state tensor plus its spelling) and legal-id mask, draws
a uniformly random legal id from the mask, and applies it; games follow one another (new
seeds) until the time is up. One core, one process.

Rows per game:

- ``idstate``: ``state.observation(seat)``, ``state.mask()``, ``state.apply_id`` (engine
  step + tensor + mask: the baseline);
- ``aec``: :class:`KarnakAECEnv` (``env.last()``, ``env.step``, the dead steps at the end
  not counted);
- ``idstate_all``: the same with every seat's observation at every id;
- ``parallel``: :class:`KarnakParallelEnv`, one id per acting seat (ids counted);
- ``gym``: :class:`KarnakGymEnv` against random opponents, every id counted (the learner's
  and the bots', whose moves are spelled into ids too).

``overhead`` is ``idstate steps/s / row steps/s - 1``: what the adapter adds to the engine's
own step + tensor + mask (the issue's target: under 30%). The Parallel env hands every agent
its observation at every step, so its baseline is ``idstate_all``: the IdState loop with
every seat's observation at every id. The gym row's bots read no tensors and no masks, so it
can beat the baseline per id.

Then :class:`BatchStepper` on Aton with N = 1, 16, 64 games, random masked actions drawn with
NumPy over the stacked mask (steps summed over the games).

Usage::

    python bench/envs.py [--seconds 1] [--repeat 3] [--games aton,amunre,egyptia]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

try:
    from karnak.core import Rng
except ModuleNotFoundError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    from karnak.core import Rng
from karnak.envs import IdGame
from karnak.envs.batch import BatchStepper
from karnak.envs.gymnasium import KarnakGymEnv
from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv

TABLES = {"aton": 2, "amunre": 3, "egyptia": 2}


def timed(loop: Callable[[float], int], seconds: float) -> float:
    """Steps per second of ``loop(deadline)``, which plays until the deadline and returns
    the steps it took."""
    start = time.perf_counter()
    steps = loop(start + seconds)
    return steps / (time.perf_counter() - start)


def pick(mask: np.ndarray, rng: Rng) -> int:
    ids = np.flatnonzero(mask)
    return int(ids[rng.below(len(ids))])


def idstate_loop(game: str, players: int) -> Callable[[float], int]:
    def loop(deadline: float) -> int:
        idgame = IdGame(game, players)
        rng, steps, seed = Rng(1), 0, 0
        while time.perf_counter() < deadline:
            state = idgame.new_state(seed)
            seed += 1
            while not state.is_terminal():
                seat = state.current_player()
                state.observation(seat)
                state.apply_id(pick(state.mask(), rng))
                steps += 1
        return steps

    return loop


def idstate_all_loop(game: str, players: int) -> Callable[[float], int]:
    """IdState with every seat's observation at every id: the work a Parallel env must do,
    since it hands every agent its observation at every step."""

    def loop(deadline: float) -> int:
        idgame = IdGame(game, players)
        rng, steps, seed = Rng(1), 0, 0
        while time.perf_counter() < deadline:
            state = idgame.new_state(seed)
            seed += 1
            while not state.is_terminal():
                for seat in range(players):
                    state.observation(seat)
                state.apply_id(pick(state.mask(), rng))
                steps += 1
        return steps

    return loop


def aec_loop(game: str, players: int) -> Callable[[float], int]:
    def loop(deadline: float) -> int:
        env = KarnakAECEnv(game, players)
        rng, steps, seed = Rng(1), 0, 0
        while time.perf_counter() < deadline:
            env.reset(seed=seed)
            seed += 1
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(pick(observation["action_mask"], rng))
                steps += 1
        return steps

    return loop


def parallel_loop(game: str, players: int) -> Callable[[float], int]:
    def loop(deadline: float) -> int:
        env = KarnakParallelEnv(game, players)
        rng, steps, seed = Rng(1), 0, 0
        while time.perf_counter() < deadline:
            observations, _ = env.reset(seed=seed)
            seed += 1
            while env.agents:
                actions = {
                    agent: pick(o["action_mask"], rng)
                    for agent, o in observations.items()
                    if o["action_mask"].any()
                }
                observations, *_ = env.step(actions)
                steps += len(actions)
        return steps

    return loop


def gym_loop(game: str, players: int) -> Callable[[float], int]:
    def loop(deadline: float) -> int:
        env = KarnakGymEnv(game, players=players)
        rng, steps, seed = Rng(1), 0, 0
        while time.perf_counter() < deadline:
            observation, _ = env.reset(seed=seed)
            seed += 1
            done = False
            while not done:
                observation, _, terminated, truncated, _ = env.step(
                    pick(observation["action_mask"], rng)
                )
                done = terminated or truncated
            steps += len(env.id_state.ids)
        return steps

    return loop


def batch_loop(n: int) -> Callable[[float], int]:
    def loop(deadline: float) -> int:
        stepper = BatchStepper("aton", n, seed=0)
        batch = stepper.reset()
        rng = np.random.default_rng(0)
        steps = 0
        while time.perf_counter() < deadline:
            noise = rng.random(batch.legal_action_mask.shape)
            actions = np.argmax(np.where(batch.legal_action_mask, noise, -1.0), axis=1)
            batch = stepper.step(actions)
            steps += n
        return steps

    return loop


def best(loops: dict[str, Callable[[float], int]], seconds: float, repeat: int) -> dict[str, float]:
    """Each loop's best steps/s of ``repeat`` rounds, the loops taking turns (so a busy
    moment of the machine does not fall on one row only)."""
    rates = dict.fromkeys(loops, 0.0)
    for _ in range(repeat):
        for name, loop in loops.items():
            rates[name] = max(rates[name], timed(loop, seconds))
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row and round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the best is kept)")
    parser.add_argument("--games", default=",".join(TABLES), help="comma-separated games")
    args = parser.parse_args()
    print("| game | players | loop | steps/s | overhead |")
    print("|---|---|---|---|---|")
    for game in args.games.split(","):
        players = TABLES[game]
        makers = {
            "idstate": idstate_loop,
            "aec": aec_loop,
            "idstate_all": idstate_all_loop,
            "parallel": parallel_loop,
            "gym": gym_loop,
        }
        rates = best(
            {name: make(game, players) for name, make in makers.items()},
            args.seconds,
            args.repeat,
        )
        for name, rate in rates.items():
            base = rates["idstate_all" if name == "parallel" else "idstate"]
            overhead = "-" if name.startswith("idstate") else f"{base / rate - 1:+.0%}"
            print(f"| {game} | {players} | {name} | {rate:,.0f} | {overhead} |")
    print()
    print("| BatchStepper, Aton | steps/s |")
    print("|---|---|")
    sizes = (1, 16, 64)
    rates = best({str(n): batch_loop(n) for n in sizes}, args.seconds, args.repeat)
    for n in sizes:
        print(f"| N={n} | {rates[str(n)]:,.0f} |")


if __name__ == "__main__":
    main()

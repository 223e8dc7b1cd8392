"""Steps per second through every research adapter, next to the same loop on
:class:`karnak.envs.IdState` (the adapters' ground) and to OpenSpiel's own games, in one run.

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
  and the bots', whose moves are spelled into ids too);
- ``openspiel``: the game registered with pyspiel, the tensor read through OpenSpiel's Python
  observer (``make_observation``, what Python algorithms use) and the legal ids from
  ``legal_actions()`` (the mask's content, without turning pyspiel's list into an array);
- ``openspiel_cpp``: the same with ``state.information_state_tensor()``, pyspiel's C++
  entry (what ``rl_environment`` calls), which adds pyspiel's own cost of building a list
  and working out the tensor's shape at every call.

The references: ``oh_hell`` (C++, default parameters) and ``goofspiel`` (C++, loaded turn-based)
through pyspiel, the same loop with ``information_state_tensor()`` and ``legal_actions()``
at every decision (chance nodes sampled and counted as steps), and ``plain`` without them.
``vs oh_hell`` divides a row by oh_hell's loop with tensors, measured in the same rounds. The
issue's target for Amun-Re's AEC loop: at least 0.25 x oh_hell.

``overhead`` is ``idstate steps/s / row steps/s - 1``: what the adapter adds to the engine's
own step + tensor + mask (the issue's target: under 30%). The Parallel env hands every agent
its observation at every step, so its baseline is ``idstate_all``: the IdState loop with
every seat's observation at every id. The gym row's bots read no tensors and no masks, so it
can beat the baseline per id.

Then :class:`BatchStepper` on Aton with N = 1, 16, 64 games, random masked actions drawn with
NumPy over the stacked mask (steps summed over the games).

Last, the cost of single calls on positions of random games (every third decision of 30
games, the least of three passes): ``observation()`` (the engine's dictionary view), the
observation and information state tensors, ``legal_actions`` and the id mask.

Usage::

    python bench/research.py [--seconds 1] [--repeat 3] [--games aton,amunre,egyptia] [--out F]
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.core import Rng, get_game  # noqa: E402
from karnak.core.action_ids import Speller  # noqa: E402
from karnak.envs import IdGame, register_openspiel  # noqa: E402
from karnak.envs.batch import BatchStepper  # noqa: E402
from karnak.envs.gymnasium import KarnakGymEnv  # noqa: E402
from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv  # noqa: E402
from karnak.native import engines  # noqa: E402

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
                actions = {}
                for agent, o in observations.items():
                    ids = np.flatnonzero(o["action_mask"])  # empty for a seat not acting
                    if len(ids):
                        actions[agent] = int(ids[rng.below(len(ids))])
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


def openspiel_loop(game: str, players: int, *, cpp: bool) -> Callable[[float], int]:
    import pyspiel
    from open_spiel.python.observation import make_observation

    register_openspiel()
    loaded = pyspiel.load_game(f"karnak_{game}(players={players})")
    observer = make_observation(loaded, pyspiel.IIGObservationType(perfect_recall=True))

    def loop(deadline: float) -> int:
        rng, steps = Rng(1), 0
        while time.perf_counter() < deadline:
            state = loaded.new_initial_state()
            while not state.is_terminal():
                if cpp:
                    state.information_state_tensor()
                else:
                    observer.set_from(state, state.current_player())
                legal = state.legal_actions()
                state.apply_action(legal[rng.below(len(legal))])
                steps += 1
        return steps

    return loop


def reference_loop(name: str, *, tensors: bool) -> Callable[[float], int]:
    import pyspiel

    loaded = (
        pyspiel.load_game_as_turn_based(name) if name == "goofspiel" else pyspiel.load_game(name)
    )

    def loop(deadline: float) -> int:
        rng, steps = Rng(1), 0
        while time.perf_counter() < deadline:
            state = loaded.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.below(len(outcomes))][0])
                else:
                    if tensors:
                        state.information_state_tensor()
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.below(len(legal))])
                steps += 1
        return steps

    return loop


def positions(game: str, players: int) -> list[tuple[object, int]]:
    found = []
    for seed in range(30):
        state = get_game(game).new_state(players, seed=seed)
        rng = Rng(seed)
        step = 0
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            if step % 3 == 0:
                found.append((state.clone(), seat))
            state.apply_unchecked(seat, legal[rng.below(len(legal))])
            step += 1
    return found


def per_call(found: list[tuple[Any, int]], call: Callable[[Any, int], object]) -> float:
    """The least of three passes, in microseconds a call."""
    least = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        for state, seat in found:
            call(state, seat)
        least = min(least, (time.perf_counter() - start) / len(found))
    return least * 1e6


def call_costs(game: str, players: int) -> dict[str, float]:
    found = positions(game, players)
    speller = Speller(get_game(game).action_space(players))
    return {
        "observation()": per_call(found, lambda s, seat: s.observation(seat)),
        "observation tensor": per_call(found, lambda s, seat: s.observation_tensor(seat)),
        "information state tensor": per_call(
            found, lambda s, seat: s.information_state_tensor(seat)
        ),
        "legal_actions": per_call(found, lambda s, seat: s.legal_actions(seat)),
        "id mask": per_call(found, lambda s, seat: speller.mask(s, seat)),
    }


def pettingzoo_benchmark(game: str, players: int) -> float:
    """Turns per second as PettingZoo's ``performance_benchmark`` prints them."""
    import contextlib
    import io
    import re

    from pettingzoo.test import performance_benchmark

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        performance_benchmark(KarnakAECEnv(game, players))
    found = re.search(r"([\d.]+) turns per second", printed.getvalue())
    return float(found.group(1)) if found else 0.0


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
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    args = parser.parse_args()
    if not 0 < args.seconds <= 60 or not 1 <= args.repeat <= 20:
        parser.error("--seconds is above 0 and at most 60; --repeat from 1 to 20")
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in games if g not in TABLES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(TABLES)}")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        parser.error("OpenSpiel is not installed: pip install 'karnak[rl]'")

    loops: dict[str, Callable[[float], int]] = {}
    for name in ("oh_hell", "goofspiel"):
        loops[f"{name} with tensors"] = reference_loop(name, tensors=True)
        loops[f"{name} plain"] = reference_loop(name, tensors=False)
    for game in games:
        players = TABLES[game]
        loops[f"{game} idstate"] = idstate_loop(game, players)
        loops[f"{game} aec"] = aec_loop(game, players)
        loops[f"{game} idstate_all"] = idstate_all_loop(game, players)
        loops[f"{game} parallel"] = parallel_loop(game, players)
        loops[f"{game} gym"] = gym_loop(game, players)
        loops[f"{game} openspiel"] = openspiel_loop(game, players, cpp=False)
        loops[f"{game} openspiel_cpp"] = openspiel_loop(game, players, cpp=True)
    rates = best(loops, args.seconds, args.repeat)
    oh_hell = rates["oh_hell with tensors"]

    lines = [
        "# Research adapters: steps per second",
        "",
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, engines {engines()}, one process; each row the best of "
        f"{args.repeat} rounds of {args.seconds:g} s, the rows taking turns. Random legal "
        "ids; the acting seat's information state tensor and mask at every step.",
        "",
        "| game | players | loop | steps/s | vs oh_hell | overhead |",
        "|---|---|---|---|---|---|",
    ]
    for game in games:
        players = TABLES[game]
        for loop in ("idstate", "aec", "idstate_all", "parallel", "gym", "openspiel"):
            for name in (loop, "openspiel_cpp") if loop == "openspiel" else (loop,):
                rate = rates[f"{game} {name}"]
                base = rates[f"{game} {'idstate_all' if name == 'parallel' else 'idstate'}"]
                overhead = "-" if name.startswith("idstate") else f"{base / rate - 1:+.0%}"
                lines.append(
                    f"| {game} | {players} | {name} | {rate:,.0f} | {rate / oh_hell:.2f} "
                    f"| {overhead} |"
                )
    for name in ("oh_hell", "goofspiel"):
        for kind in ("with tensors", "plain"):
            rate = rates[f"{name} {kind}"]
            lines.append(f"| {name} | 2+ | {kind} | {rate:,.0f} | {rate / oh_hell:.2f} | - |")
    if "amunre" in games:
        ratio = rates["amunre aec"] / oh_hell
        verdict = "met" if ratio >= 0.25 else "NOT met"
        lines += ["", f"Amun-Re's AEC loop: {ratio:.2f} x oh_hell (target 0.25: {verdict})."]

    lines += ["", "PettingZoo's own `performance_benchmark` (5 s of masked random play each):", ""]
    lines += ["| game | turns/s |", "|---|---|"]
    for game in games:
        lines.append(f"| {game} | {pettingzoo_benchmark(game, TABLES[game]):,.0f} |")

    lines += ["", "| BatchStepper, Aton | steps/s |", "|---|---|"]
    sizes = (1, 16, 64)
    batch = best({str(n): batch_loop(n) for n in sizes}, args.seconds, args.repeat)
    lines += [f"| N={n} | {batch[str(n)]:,.0f} |" for n in sizes]

    lines += ["", "Microseconds a call:", ""]
    for index, game in enumerate(games):
        costs = call_costs(game, TABLES[game])
        if index == 0:
            lines.append("| game | " + " | ".join(costs) + " |")
            lines.append("|---" * (len(costs) + 1) + "|")
        lines.append(f"| {game} | " + " | ".join(f"{v:.1f}" for v in costs.values()) + " |")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")


if __name__ == "__main__":
    main()

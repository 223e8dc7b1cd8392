"""Steps per second through every research adapter, next to the engine's own step and to
OpenSpiel's games, pure Python and compiled, in one run.

Every adapter loop does, at every step, what a learning loop does: it reads the acting
seat's observation vector (the information state tensor plus its spelling) and legal-id
mask, draws a uniformly random legal id from the mask, and applies it; games follow one
another (new seeds) until the time is up. One core, one process (but the batch rows).

Rows per game:

- ``engine``: the engine's own step, the yardstick: ``legal_actions`` of the seat to
  move, a random move, ``apply_unchecked`` (no tensor, no mask, no ids);
- ``idstate``: :class:`IdState`: ``observation(seat)``, ``mask()``, ``apply_id``;
- ``aec``: :class:`KarnakAECEnv` (``env.last()``, ``env.step``; the dead steps at the end
  not counted);
- ``idstate_all``: IdState with every seat's observation at every id (the work of a
  Parallel env, which hands every agent its observation at every step);
- ``parallel``: :class:`KarnakParallelEnv`, one id per acting seat (ids counted);
- ``gym``: :class:`KarnakGymEnv` against random bots, every id counted (the learner's and
  the bots', whose moves are spelled into ids too);
- ``gym_ref``: the Gymnasium env's fair baseline: the same work on IdState (the learner's
  observation and mask only at its own decisions, the bots' moves chosen by the same random
  bot from their seat's view, spelled and applied), where the old baseline built a tensor
  for every id;
- ``openspiel``: the game registered with pyspiel, the tensor read through OpenSpiel's Python
  observer and the legal ids from ``legal_actions()``; ``openspiel_cpp``: the same with
  ``state.information_state_tensor()``, pyspiel's C++ entry.

**The caller's choice is left out of every row**: the loops draw a random legal id from
the mask with NumPy (or a move from the engine's list, in the engine and OpenSpiel loops),
and that draw is timed (:class:`Chooser`) and taken off the row's time. A step is what the
environment does for its caller; the caller's choice (a policy's forward pass in a learning
loop) is not, and a NumPy draw from a mask (~4 µs) would charge an adapter more for it than
the engine loop's draw from a list (~0.2 µs). The report gives what the choosing cost.

``x engine`` is a row's cost of a step in engine steps (``engine steps/s / row steps/s``):
our target is at most 2 for the PettingZoo (``aec``) and Gymnasium (``gym``) steps in
the compiled build. ``overhead`` is what the adapter adds to its IdState baseline
(``idstate``; ``idstate_all`` for ``parallel``; ``gym_ref`` for ``gym``).

The references: ``oh_hell`` (C++, default parameters) and ``goofspiel`` (C++, loaded
turn-based) through pyspiel, the same loop with ``information_state_tensor()`` and
``legal_actions()`` at every decision (chance nodes sampled and counted as steps), and
``plain`` (their engine step: ``legal_actions`` and ``apply_action``); their own ``x engine``
is the same ratio for OpenSpiel. ``vs oh_hell`` divides a row by oh_hell's loop with tensors.

Then the batch stepper on Aton, N = 16 and 64 games, in this process and in 2 worker
processes (random masked actions drawn with NumPy; steps summed over the games); and the
cost of single calls on positions of random games.

The pure Python rows and the compiled rows come from two child processes of this script
(``KARNAK_NATIVE=0`` and ``1``); a build that is missing or stale makes the "compiled" child
pure Python, and the report says so. Timings on a shared machine are noisy: each row is the
best of ``--repeat`` rounds, the rows taking turns.

Usage::

    python bench/research.py [--seconds 1] [--repeat 3] [--games aton,amunre,egyptia]
                             [--engines compiled,pure] [--out F]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve()
TABLES = {"aton": 2, "amunre": 3, "egyptia": 2}
ENGINES = {"compiled": "1", "pure": "0"}
#: Our target: an adapter step at most this many engine steps, compiled.
TARGET = 2.0
#: The adapters the target is stated for.
TARGETED = ("aec", "gym")
LOOPS = ("engine", "idstate", "aec", "idstate_all", "parallel", "gym", "gym_ref", "openspiel")
BASELINES = {"aec": "idstate", "parallel": "idstate_all", "gym": "gym_ref"}
BATCH_SIZES = (16, 64)
BATCH_WORKERS = 2


#: A loop plays until its deadline and returns the steps it took and the seconds its caller
#: spent choosing (a :class:`Chooser`'s, left out of the rate). It plays at least one whole
#: game whatever the deadline: building an environment can outlast a short round on a busy
#: machine, and a row of no steps has no rate.
Loop = Callable[[float], tuple[int, float]]


class Chooser:
    """The caller's part of a step: drawing a random legal id from a mask (or a move from a
    list), timed so that every row leaves it out. A step of an environment is what the
    environment does; the caller's choice (a policy's forward pass in a learning loop) is
    not, and a NumPy draw from a mask costs several microseconds where the engine loop's
    draw from a list costs a fraction of one, so counting it would charge the adapters for
    the caller's NumPy."""

    __slots__ = ("rng", "seconds")

    def __init__(self, rng: Any):
        self.rng = rng
        self.seconds = 0.0

    def from_mask(self, mask: np.ndarray) -> int:
        start = time.perf_counter()
        ids = np.flatnonzero(mask)
        chosen = int(ids[self.rng.below(len(ids))])
        self.seconds += time.perf_counter() - start
        return chosen

    def from_mask_if_any(self, mask: np.ndarray) -> int | None:
        """A legal id of ``mask``, or None when it has none (a seat not acting)."""
        start = time.perf_counter()
        ids = np.flatnonzero(mask)
        chosen = int(ids[self.rng.below(len(ids))]) if len(ids) else None
        self.seconds += time.perf_counter() - start
        return chosen

    def from_list(self, legal: Any) -> Any:
        start = time.perf_counter()
        chosen = legal[self.rng.below(len(legal))]
        self.seconds += time.perf_counter() - start
        return chosen


def timed(loop: Loop, seconds: float) -> tuple[float, float]:
    """Steps per second of ``loop(deadline)``, the caller's choosing left out, and what the
    choosing cost a step (µs)."""
    start = time.perf_counter()
    steps, choosing = loop(start + seconds)
    if steps <= 0:
        raise ValueError("the loop took no step, so it has no rate")
    return steps / (time.perf_counter() - start - choosing), choosing / steps * 1e6


#: Each row's cost of the caller's choice, µs a step (from its best round), for the report.
CHOICE_US: dict[str, float] = {}


def best(loops: dict[str, Loop], seconds: float, repeat: int) -> dict[str, float]:
    """Each loop's best steps/s of ``repeat`` rounds, the loops taking turns (so a busy
    moment of the machine does not fall on one row only)."""
    rates = dict.fromkeys(loops, 0.0)
    for _ in range(repeat):
        for name, loop in loops.items():
            if rates[name] != rates[name]:  # failed before: NaN
                continue
            try:
                rate, choice = timed(loop, seconds)
            except Exception as error:  # reported as a failed row, the others still run
                print(f"{name}: {type(error).__name__}: {error}", file=sys.stderr)
                rates[name] = float("nan")
                continue
            if rate > rates[name]:
                rates[name], CHOICE_US[name] = rate, choice
    return rates


# ---------------------------------------------------------------------------- the child
def child(args: argparse.Namespace) -> dict[str, Any]:
    """Measure everything with the engines this process was started with (KARNAK_NATIVE)."""
    try:
        import karnak.native
    except ImportError:  # a checkout without the package installed
        sys.path.insert(0, str(HERE.parents[1] / "src"))
        import karnak.native

    karnak.native.install()  # honours KARNAK_NATIVE=0; before any engine is imported

    from karnak.bots.base import SeatView, make_bot
    from karnak.core import Rng, get_game
    from karnak.core.action_ids import Speller
    from karnak.envs import IdGame, register_openspiel
    from karnak.envs.batch import BatchStepper
    from karnak.envs.gymnasium import KarnakGymEnv
    from karnak.envs.pettingzoo import KarnakAECEnv, KarnakParallelEnv

    def engine_loop(game: str, players: int) -> Loop:
        def loop(deadline: float) -> tuple[int, float]:
            rules = get_game(game)
            chooser, steps, seed = Chooser(Rng(1)), 0, 0
            while steps == 0 or time.perf_counter() < deadline:
                state = rules.new_state(players, seed=seed)
                seed += 1
                while not state.is_over():
                    seat = state.to_move()[0]
                    legal = state.legal_actions(seat)
                    state.apply_unchecked(seat, chooser.from_list(legal))
                    steps += 1
            return steps, chooser.seconds

        return loop

    def idstate_loop(game: str, players: int, every_seat: bool) -> Loop:
        def loop(deadline: float) -> tuple[int, float]:
            idgame = IdGame(game, players)
            chooser, steps, seed = Chooser(Rng(1)), 0, 0
            while steps == 0 or time.perf_counter() < deadline:
                state = idgame.new_state(seed)
                seed += 1
                while not state.is_terminal():
                    seat = state.current_player()
                    for viewer in range(players) if every_seat else (seat,):
                        state.observation(viewer)
                    state.apply_id(chooser.from_mask(state.mask()))
                    steps += 1
            return steps, chooser.seconds

        return loop

    def aec_loop(game: str, players: int) -> Loop:
        def loop(deadline: float) -> tuple[int, float]:
            env = KarnakAECEnv(game, players)
            chooser, steps, seed = Chooser(Rng(1)), 0, 0
            while steps == 0 or time.perf_counter() < deadline:
                env.reset(seed=seed)
                seed += 1
                for _ in env.agent_iter():
                    observation, _, terminated, truncated, _ = env.last()
                    if terminated or truncated:
                        env.step(None)
                        continue
                    env.step(chooser.from_mask(observation["action_mask"]))
                    steps += 1
            return steps, chooser.seconds

        return loop

    def parallel_loop(game: str, players: int) -> Loop:
        def loop(deadline: float) -> tuple[int, float]:
            env = KarnakParallelEnv(game, players)
            chooser, steps, seed = Chooser(Rng(1)), 0, 0
            while steps == 0 or time.perf_counter() < deadline:
                observations, _ = env.reset(seed=seed)
                seed += 1
                while env.agents:
                    actions = {}
                    for agent, o in observations.items():
                        chosen = chooser.from_mask_if_any(o["action_mask"])  # not acting: None
                        if chosen is not None:
                            actions[agent] = chosen
                    observations, *_ = env.step(actions)
                    steps += len(actions)
            return steps, chooser.seconds

        return loop

    def gym_loop(game: str, players: int) -> Loop:
        def loop(deadline: float) -> tuple[int, float]:
            env = KarnakGymEnv(game, players=players)
            chooser, steps, seed = Chooser(Rng(1)), 0, 0
            while steps == 0 or time.perf_counter() < deadline:
                observation, _ = env.reset(seed=seed)
                seed += 1
                done = False
                while not done:
                    observation, _, terminated, truncated, _ = env.step(
                        chooser.from_mask(observation["action_mask"])
                    )
                    done = terminated or truncated
                steps += len(env.id_state.ids)
            return steps, chooser.seconds

        return loop

    def gym_ref_loop(game: str, players: int) -> Loop:
        """The Gymnasium env's work on IdState: the learner (seat 0) reads its observation
        and mask at its own decisions; the others are random bots, spelled into ids."""

        def loop(deadline: float) -> tuple[int, float]:
            idgame = IdGame(game, players)
            bot = make_bot("random", idgame.game)
            chooser, steps, seed = Chooser(Rng(1)), 0, 0
            while steps == 0 or time.perf_counter() < deadline:
                state = idgame.new_state(seed)
                bot_rngs = [Rng(seed * 10 + s) for s in range(players)]
                seed += 1
                while not state.is_terminal():
                    seat = state.current_player()
                    if seat == 0:
                        state.observation(0)
                        state.apply_id(chooser.from_mask(state.mask(0)))
                    else:
                        view = SeatView.of(state.state, seat)
                        move = bot.choose(view, bot_rngs[seat])
                        state.apply_move(move, view.legal_actions)
                steps += state.length
            return steps, chooser.seconds

        return loop

    def openspiel_loop(game: str, players: int, *, cpp: bool) -> Loop:
        import pyspiel
        from open_spiel.python.observation import make_observation

        register_openspiel()
        loaded = pyspiel.load_game(f"karnak_{game}(players={players})")
        observer = make_observation(loaded, pyspiel.IIGObservationType(perfect_recall=True))

        def loop(deadline: float) -> tuple[int, float]:
            chooser, steps = Chooser(Rng(1)), 0
            while steps == 0 or time.perf_counter() < deadline:
                state = loaded.new_initial_state()
                while not state.is_terminal():
                    if cpp:
                        state.information_state_tensor()
                    else:
                        observer.set_from(state, state.current_player())
                    legal = state.legal_actions()
                    state.apply_action(chooser.from_list(legal))
                    steps += 1
            return steps, chooser.seconds

        return loop

    def reference_loop(name: str, *, tensors: bool) -> Loop:
        import pyspiel

        loaded = (
            pyspiel.load_game_as_turn_based(name)
            if name == "goofspiel"
            else pyspiel.load_game(name)
        )

        def loop(deadline: float) -> tuple[int, float]:
            chooser, steps = Chooser(Rng(1)), 0
            while steps == 0 or time.perf_counter() < deadline:
                state = loaded.new_initial_state()
                while not state.is_terminal():
                    if state.is_chance_node():
                        outcomes = state.chance_outcomes()
                        state.apply_action(chooser.from_list(outcomes)[0])
                    else:
                        if tensors:
                            state.information_state_tensor()
                        legal = state.legal_actions()
                        state.apply_action(chooser.from_list(legal))
                    steps += 1
            return steps, chooser.seconds

        return loop

    def batch_rate(n: int, workers: int, seconds: float) -> float:
        """Steps/s of the batch stepper, its workers' start-up and the reset not counted."""
        with BatchStepper("aton", n, seed=0, workers=workers) as stepper:
            batch = stepper.reset()
            rng = np.random.default_rng(0)
            steps = 0
            start = time.perf_counter()
            while time.perf_counter() < start + seconds:
                noise = rng.random(batch.legal_action_mask.shape)
                actions = np.argmax(np.where(batch.legal_action_mask, noise, -1.0), axis=1)
                batch = stepper.step(actions)
                steps += n
            return steps / (time.perf_counter() - start)

    def positions(game: str, players: int) -> list[tuple[Any, int]]:
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

    games = args.games
    loops: dict[str, Loop] = {}
    for name in ("oh_hell", "goofspiel"):
        loops[f"{name} with tensors"] = reference_loop(name, tensors=True)
        loops[f"{name} plain"] = reference_loop(name, tensors=False)
    for game in games:
        players = TABLES[game]
        loops[f"{game} engine"] = engine_loop(game, players)
        loops[f"{game} idstate"] = idstate_loop(game, players, every_seat=False)
        loops[f"{game} aec"] = aec_loop(game, players)
        loops[f"{game} idstate_all"] = idstate_loop(game, players, every_seat=True)
        loops[f"{game} parallel"] = parallel_loop(game, players)
        loops[f"{game} gym"] = gym_loop(game, players)
        loops[f"{game} gym_ref"] = gym_ref_loop(game, players)
        loops[f"{game} openspiel"] = openspiel_loop(game, players, cpp=False)
        loops[f"{game} openspiel_cpp"] = openspiel_loop(game, players, cpp=True)
    rates = best(loops, args.seconds, args.repeat)
    batch: dict[str, float] = {}
    for _ in range(args.repeat):
        for n in BATCH_SIZES:
            for mode, workers in (("in-process", 0), ("workers", BATCH_WORKERS)):
                rate = batch_rate(n, workers, max(args.seconds, 1.0))
                batch[f"N={n} {mode}"] = max(batch.get(f"N={n} {mode}", 0.0), rate)
    calls = {game: call_costs(game, TABLES[game]) for game in games}
    pettingzoo = (
        {game: pettingzoo_benchmark(game, TABLES[game]) for game in games}
        if args.pettingzoo
        else {}
    )
    return {
        "engines": karnak.native.engines(),
        "reason": karnak.native.status().reason,
        "rates": rates,
        "choice_us": CHOICE_US,
        "batch": batch,
        "calls": calls,
        "pettingzoo": pettingzoo,
    }


# --------------------------------------------------------------------------- the report
def run_child(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    command = [
        sys.executable,
        str(HERE),
        "--child",
        "--seconds",
        str(args.seconds),
        "--repeat",
        str(args.repeat),
        "--games",
        ",".join(args.games),
    ]
    wanted = args.pettingzoo and kind == "compiled"
    command.append("--pettingzoo" if wanted else "--no-pettingzoo")
    env = {**os.environ, "KARNAK_NATIVE": ENGINES[kind]}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the {kind} run failed:\n{done.stderr[-3000:]}")
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def report(args: argparse.Namespace, results: dict[str, dict[str, Any]]) -> str:
    lines = [
        "# Research adapters: steps per second",
        "",
        f"{platform.python_implementation()} {platform.python_version()} on "
        f"{platform.machine()}, {os.cpu_count()} CPUs; each row the best of {args.repeat} "
        f"rounds of {args.seconds:g} s, the rows taking turns, one process a run. Random "
        "legal ids; the acting seat's information state tensor and mask at every step. "
        "Timings on a shared machine are noisy.",
        "",
    ]
    verdicts: list[str] = []
    for kind, result in results.items():
        rates = result["rates"]
        engines = result["engines"]
        title = f"## {kind}: engines {engines}"
        lines += [title, ""]
        if kind == "compiled" and engines != "compiled":
            lines += [f"The compiled build is not in use: {result['reason']}", ""]
        oh_hell = rates["oh_hell with tensors"]
        choice = result.get("choice_us", {})
        lines += [
            "| game | players | loop | steps/s | x engine | overhead | vs oh_hell | choice µs |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for game in args.games:
            players = TABLES[game]
            engine = rates[f"{game} engine"]
            for loop in LOOPS:
                for name in (loop, "openspiel_cpp") if loop == "openspiel" else (loop,):
                    rate = rates[f"{game} {name}"]
                    base = BASELINES.get(name)
                    overhead = "-" if base is None else f"{rates[f'{game} {base}'] / rate - 1:+.0%}"
                    ratio = "1" if name == "engine" else f"{engine / rate:.2f}"
                    lines.append(
                        f"| {game} | {players} | {name} | {rate:,.0f} | {ratio} | {overhead} "
                        f"| {rate / oh_hell:.2f} | {choice.get(f'{game} {name}', 0.0):.2f} |"
                    )
                    if name in TARGETED:
                        met = engine / rate <= TARGET
                        verdicts.append(
                            f"- {kind} ({engines}), {game}, {name}: {engine / rate:.2f} x the "
                            f"engine step (target {TARGET:g}: {'met' if met else 'NOT met'})"
                        )
        for name in ("oh_hell", "goofspiel"):
            plain = rates[f"{name} plain"]
            for variant in ("with tensors", "plain"):
                rate = rates[f"{name} {variant}"]
                lines.append(
                    f"| {name} | 2+ | {variant} | {rate:,.0f} | {plain / rate:.2f} | - "
                    f"| {rate / oh_hell:.2f} | {choice.get(f'{name} {variant}', 0.0):.2f} |"
                )
        batch = result["batch"]
        lines += ["", f"| BatchStepper, Aton | in this process | {BATCH_WORKERS} workers |"]
        lines += ["|---|---|---|"]
        for n in BATCH_SIZES:
            lines.append(
                f"| N={n} | {batch[f'N={n} in-process']:,.0f} | {batch[f'N={n} workers']:,.0f} |"
            )
        lines += ["", "Microseconds a call:", ""]
        calls = result["calls"]
        for index, game in enumerate(args.games):
            costs = calls[game]
            if index == 0:
                lines.append("| game | " + " | ".join(costs) + " |")
                lines.append("|---" * (len(costs) + 1) + "|")
            lines.append(f"| {game} | " + " | ".join(f"{v:.1f}" for v in costs.values()) + " |")
        if result["pettingzoo"]:
            lines += ["", "PettingZoo's own `performance_benchmark` (5 s each):", ""]
            lines += ["| game | turns/s |", "|---|---|"]
            for game, turns in result["pettingzoo"].items():
                lines.append(f"| {game} | {turns:,.0f} |")
        lines.append("")
    lines += ["## The target: an adapter step at most twice the engine's own step", ""]
    lines += verdicts
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per row and round")
    parser.add_argument("--repeat", type=int, default=3, help="rounds (the best is kept)")
    parser.add_argument("--games", default=",".join(TABLES), help="comma-separated games")
    parser.add_argument(
        "--engines", default=",".join(ENGINES), help="compiled, pure or both (comma-separated)"
    )
    parser.add_argument(
        "--pettingzoo",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="also run PettingZoo's performance_benchmark (compiled run only)",
    )
    parser.add_argument("--out", type=Path, help="also write the report to this file")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if not 0 < args.seconds <= 60 or not 1 <= args.repeat <= 20:
        parser.error("--seconds is above 0 and at most 60; --repeat from 1 to 20")
    args.games = [g.strip() for g in args.games.split(",") if g.strip()]
    unknown = [g for g in args.games if g not in TABLES]
    if unknown:
        parser.error(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(TABLES)}")
    if args.child:
        print(json.dumps(child(args)))
        return
    kinds = [k.strip() for k in args.engines.split(",") if k.strip()]
    if not kinds or any(k not in ENGINES for k in kinds):
        parser.error(f"--engines is a comma-separated list of {', '.join(ENGINES)}")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        parser.error("OpenSpiel is not installed: pip install 'karnak[rl]'")
    results = {kind: run_child(kind, args) for kind in kinds}
    text = report(args, results)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

"""ISMCTS iterations per second on every game, at positions sampled from seeded random games.

What is measured
    For each game (Amun-Re with 4 players, Aton, Egyptia with 2 builders) ``--positions``
    positions are taken from seeded random games, each at a random depth with a real choice
    to make (more than one legal action for a seat to move). At each, a fresh
    ``ismcts:<think>`` bot (the game's heuristic policy, evaluator and move filter, as the
    ``ismcts`` bot is registered) thinks for ``--think`` seconds of wall-clock time for that
    seat, on one core; the rate is iterations completed divided by the time ``choose`` took.
    Reported are the mean, least and greatest rate over the positions. Positions where the
    bot answers without searching (one candidate move) are skipped and counted.

    The targets of issue 16: 2,000 iterations/s on Amun-Re, 1,000 on Aton, 500 on Egyptia.

Checking that a change is speed only
    ``--moves FILE`` plays an iteration-budgeted bot (``--iterations``, deterministic for a
    seed) at the same positions and writes the chosen moves to FILE as JSON; when FILE
    already exists it compares instead and fails on any difference. Run it before a change,
    then after.

Profiling
    ``--profile GAME`` runs cProfile over ``choose`` at the sampled positions of one game and
    prints the top functions by cumulative and by own time.

Usage::

    python bench/ismcts_speed.py [--think 0.25] [--positions 20] [--games amunre,aton,egyptia]
    python bench/ismcts_speed.py --moves /tmp/moves.json --iterations 300
    python bench/ismcts_speed.py --profile aton
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.bots import SeatView  # noqa: E402
from karnak.bots.base import Budget  # noqa: E402
from karnak.bots.ismcts import make_ismcts  # noqa: E402
from karnak.core import Rng, State, get_game  # noqa: E402

PLAYERS = {"amunre": 4, "aton": 2, "egyptia": 2}
TARGETS = {"amunre": 2000, "aton": 1000, "egyptia": 500}
MAX_DEPTH = {"amunre": 160, "aton": 200, "egyptia": 160}


def sample_positions(name: str, count: int, seed: int) -> list[tuple[State, int]]:
    """(position, seat to decide) pairs from random games, spread over the game."""
    game = get_game(name)
    players = PLAYERS[name]
    positions: list[tuple[State, int]] = []
    rng = Rng(seed)
    game_index = 0
    while len(positions) < count:
        state = game.new_state(players, seed=seed + game_index)
        game_index += 1
        stop = rng.below(MAX_DEPTH[name])
        for _ in range(stop):
            if state.is_over():
                break
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply_unchecked(seat, actions[rng.below(len(actions))])
        if state.is_over():
            continue
        seats = [s for s in state.to_move() if len(state.legal_actions(s)) > 1]
        if seats:
            positions.append((state, seats[0]))
    return positions


def rates(name: str, positions: list[tuple[State, int]], think: float) -> tuple[list[float], int]:
    game = get_game(name)
    found = []
    skipped = 0
    for i, (state, seat) in enumerate(positions):
        bot = make_ismcts(game, Budget(seconds=think))
        start = time.perf_counter()
        bot.choose(SeatView.of(state, seat), Rng(i))
        elapsed = time.perf_counter() - start
        if bot.last_iterations == 0:
            skipped += 1
            continue
        found.append(bot.last_iterations / elapsed)
    return found, skipped


def moves(name: str, positions: list[tuple[State, int]], iterations: int) -> list[str]:
    game = get_game(name)
    chosen = []
    for i, (state, seat) in enumerate(positions):
        bot = make_ismcts(game, Budget(iterations=iterations))
        chosen.append(repr(bot.choose(SeatView.of(state, seat), Rng(i))))
    return chosen


def profile(name: str, positions: list[tuple[State, int]], think: float) -> None:
    game = get_game(name)
    profiler = cProfile.Profile()
    total = 0
    for i, (state, seat) in enumerate(positions):
        bot = make_ismcts(game, Budget(seconds=think))
        profiler.enable()
        bot.choose(SeatView.of(state, seat), Rng(i))
        profiler.disable()
        total += bot.last_iterations
    print(f"{name}: {total} iterations over {len(positions)} positions (profiled)")
    for key in ("cumulative", "tottime"):
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats(key).print_stats(35)
        print(out.getvalue())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="amunre,aton,egyptia")
    parser.add_argument("--think", type=float, default=0.25, help="seconds per position")
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--moves", type=Path, help="write or compare iteration-budgeted moves")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--profile", metavar="GAME")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    names = [n for n in args.games.split(",") if n]

    if args.profile:
        positions = sample_positions(args.profile, args.positions, args.seed)
        profile(args.profile, positions, args.think)
        return 0

    if args.moves:
        found = {
            n: moves(n, sample_positions(n, args.positions, args.seed), args.iterations)
            for n in names
        }
        if not args.moves.exists():
            args.moves.write_text(json.dumps(found, indent=1), encoding="utf-8")
            print(f"wrote {sum(map(len, found.values()))} moves to {args.moves}")
            return 0
        before = json.loads(args.moves.read_text(encoding="utf-8"))
        differ = 0
        for n in names:
            for i, (old, new) in enumerate(zip(before[n], found[n], strict=True)):
                if old != new:
                    differ += 1
                    print(f"{n} position {i}: {old} before, {new} now")
        print(f"{differ} of {sum(map(len, found.values()))} moves differ")
        return 1 if differ else 0

    rows: list[dict[str, Any]] = []
    for n in names:
        positions = sample_positions(n, args.positions, args.seed)
        measured, skipped = rates(n, positions, args.think)
        rows.append(
            {
                "game": n,
                "players": PLAYERS[n],
                "positions": len(measured),
                "skipped": skipped,
                "mean": statistics.fmean(measured),
                "min": min(measured),
                "max": max(measured),
                "target": TARGETS[n],
            }
        )
    if args.json:
        print(json.dumps(rows))
    machine = (
        f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    )
    print(
        f"ISMCTS iterations per second (`bench/ismcts_speed.py`, {machine}): a fresh "
        f"`ismcts:{args.think:g}s` bot per position, positions from seeded random games "
        f"(seed {args.seed}), one core.\n"
    )
    print("| game | players | positions | mean it/s | min | max | target |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['game']} | {r['players']} | {r['positions']} (+{r['skipped']} skipped) | "
            f"{r['mean']:.0f} | {r['min']:.0f} | {r['max']:.0f} | {r['target']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

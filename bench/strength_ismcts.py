"""How fast ISMCTS searches Amun-Re and how its strength grows with think time.

Two measurements, both printed and written as a Markdown table (``--out``):

1. Iterations per second: ISMCTS thinks for ``--probe`` seconds at positions sampled from
   seeded random games (every phase, 4 players); we report the mean and the range.
2. Strength: one ``ismcts:<think>`` against three ``heuristic`` bots, 4 players, seats
   rotated, for each think time (default 0.25 s, 1 s, 4 s), with the number of games given
   per think time. Win rates carry 95% Wilson intervals; chance is 25%.

Think budgets are wall-clock time, so run this on an otherwise idle machine with ``--jobs``
no larger than the number of cores: a loaded core thinks less in the same second.

    python bench/strength_ismcts.py --games 0.25=100,1=200,4=40 --jobs 2
"""

from __future__ import annotations

import argparse
import json
import platform
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
from karnak.bots.arena import run_arena  # noqa: E402
from karnak.bots.base import Budget  # noqa: E402
from karnak.bots.ismcts import make_ismcts  # noqa: E402
from karnak.core import Rng, State, get_game  # noqa: E402

GAME = get_game("amunre")


def sample_positions(count: int, seed: int) -> list[State]:
    """Positions from random games with a real choice to make, spread over the game."""
    positions: list[State] = []
    rng = Rng(seed)
    game_index = 0
    while len(positions) < count:
        state = GAME.new_state(4, seed=seed + game_index)
        game_index += 1
        stop = rng.below(160)
        for _ in range(stop):
            if state.is_over():
                break
            seat = state.to_move()[0]
            actions = state.legal_actions(seat)
            state.apply_unchecked(seat, actions[rng.below(len(actions))])
        if not state.is_over() and len(state.legal_actions(state.to_move()[0])) > 1:
            positions.append(state)
    return positions


def iterations_per_second(positions: list[State], probe: float) -> list[float]:
    rates = []
    for i, state in enumerate(positions):
        bot = make_ismcts(GAME, Budget(seconds=probe))
        seat = state.to_move()[0]
        start = time.perf_counter()
        bot.choose(SeatView.of(state, seat), Rng(i))
        elapsed = time.perf_counter() - start
        rates.append(bot.last_iterations / elapsed)
    return rates


def parse_games(text: str) -> dict[str, int]:
    plan = {}
    for part in text.split(","):
        think, _, games = part.partition("=")
        plan[f"{float(think):g}s"] = int(games)
    return plan


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="0.25=100,1=200,4=40", help="think=games,...")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--probe", type=float, default=0.5, help="seconds per probe position")
    parser.add_argument("--out", type=Path, default=Path("bench/results/ismcts_strength.md"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()

    rates = iterations_per_second(sample_positions(args.positions, args.seed), args.probe)
    speed = {
        "positions": len(rates),
        "mean": statistics.fmean(rates),
        "min": min(rates),
        "max": max(rates),
    }
    print(
        f"ISMCTS iterations/s over {len(rates)} positions: mean {speed['mean']:.0f} "
        f"(min {speed['min']:.0f}, max {speed['max']:.0f})",
        flush=True,
    )

    rows: list[dict[str, Any]] = []
    for think, games in parse_games(args.games).items():
        spec = f"ismcts:{think}"
        start = time.perf_counter()
        result = run_arena(
            GAME, [spec, "heuristic", "heuristic", "heuristic"], games, args.seed, {}, args.jobs
        )
        row = result.row(spec)
        low, high = row.win_interval
        rows.append(
            {
                "think": think,
                "games": games,
                "wins": row.wins,
                "win_rate": row.win_rate,
                "interval": [low, high],
                "mean_score": row.mean_score,
                "heuristic_mean_score": result.row("heuristic").mean_score,
                "minutes": (time.perf_counter() - start) / 60,
            }
        )
        print(
            f"{spec} vs 3 heuristic: {row.wins:g}/{games} wins = {row.win_rate:.1%} "
            f"[{low:.1%}, {high:.1%}], mean score {row.mean_score:.1f} "
            f"(heuristic {rows[-1]['heuristic_mean_score']:.1f}), "
            f"{rows[-1]['minutes']:.1f} min",
            flush=True,
        )

    report = {
        "machine": f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, jobs {args.jobs}",
        "iterations_per_second": speed,
        "strength": rows,
    }
    if args.json:
        print(json.dumps(report))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    lines = [
        "# ISMCTS on Amun-Re: speed and strength by think time",
        "",
        f"Measured by `bench/strength_ismcts.py` ({report['machine']}).",
        "",
        f"Iterations per second over {speed['positions']} sampled positions: "
        f"mean {speed['mean']:.0f}, min {speed['min']:.0f}, max {speed['max']:.0f}.",
        "",
        "One ISMCTS against three heuristic bots, 4 players, seats rotated (chance: 25%).",
        "",
        "| think | games | wins | win rate | 95% interval | mean score | heuristic mean |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['think']} | {r['games']} | {r['wins']:g} | {r['win_rate']:.1%} | "
            f"{r['interval'][0]:.1%}-{r['interval'][1]:.1%} | {r['mean_score']:.1f} | "
            f"{r['heuristic_mean_score']:.1f} |"
        )
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

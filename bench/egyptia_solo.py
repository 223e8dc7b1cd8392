"""Egyptia alone: today's solo reward against the one it replaced, paired on the same seeds.

Issue 35 found that the search gained nothing alone from 1 s to 4 s a move and traced it to
the reward: a logistic of the score centred on 55 points with width 8, nearly flat at the
66-72 points the search scores. This bench plays the same seeds with the
search judged both ways (``logistic``: the old curve, for the finished game and for the
leaves; ``linear``: today's) at each budget given, and prints each one's mean score and
the paired difference with its 95% interval (a t interval over the seeds' differences,
:func:`karnak.bots.arena.mean_interval`).

Budgets are think times (``1s``, ``4s``: the issue's measure, about 3 and 11 minutes a
game on one core) or iteration budgets (``250``: deterministic, and fair on a busy
machine). The issue asks for 200 seeds at 1 s and 4 s; ``--jobs`` plays seeds side by side.

    python bench/egyptia_solo.py --budgets 1s,4s --seeds 200 --jobs 8 \\
        --out bench/results/egyptia_solo.md
"""

from __future__ import annotations

import argparse
import math
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.bots.arena import bot_rngs, mean_interval  # noqa: E402
from karnak.bots.base import parse_budget, play_out  # noqa: E402
from karnak.bots.ismcts import make_ismcts  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.games.egyptia import bot as egyptia_bot  # noqa: E402
from karnak.native import engines  # noqa: E402

#: The linear reward issue 35 proposed: 0 at ``LOW`` points, 1 at ``HIGH``, clamped.
LOW = 40.0
HIGH = 100.0
REWARDS = ("logistic", "linear")


def linear_solo_reward(points: float) -> float:
    return min(1.0, max(0.0, (points - LOW) / (HIGH - LOW)))


def _linear_reward(state: object) -> list[float]:
    return [linear_solo_reward(state.scores()[0])]  # type: ignore[attr-defined]


def _linear_evaluate(state: object) -> list[float]:
    if state.is_over():  # type: ignore[attr-defined]
        return _linear_reward(state)
    ending = any(state.red) and all(s in ("done", "chosen") for s in state.stage)  # type: ignore[attr-defined]
    return [linear_solo_reward(egyptia_bot._estimate(state, 0, ending))]  # type: ignore[arg-type]


def play(seed: int, budget: str, reward: str) -> tuple[int, float, float]:
    """The score of one solo game on ``seed``, the search judged by ``reward``; its seconds."""
    game = get_game("egyptia")
    bot = make_ismcts(game, parse_budget(budget))
    if reward == "linear":
        bot.reward = _linear_reward
        bot.evaluator = _linear_evaluate
    state = game.new_state(1, seed=seed)
    start = time.perf_counter()
    play_out(state, [bot], bot_rngs(seed, 1))
    return seed, float(state.scores()[0]), time.perf_counter() - start


def summary(diffs: Sequence[float]) -> str:
    mean, half = mean_interval(diffs)
    if math.isnan(half):
        return f"{mean:+.2f}"
    return f"{mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}]"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--budgets", default="1s,4s", help="comma-separated: 1s, 4s, 250 ...")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first", type=int, default=1, help="the first seed")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None, help="also write the table here")
    args = parser.parse_args()
    budgets = [b.strip() for b in args.budgets.split(",") if b.strip()]
    for budget in budgets:
        parse_budget(budget)  # a bad budget fails before any game
    if args.seeds < 1 or args.jobs < 1:
        parser.error("--seeds and --jobs are positive")
    seeds = range(args.first, args.first + args.seeds)
    started = time.perf_counter()
    lines = [
        "## Egyptia alone: the solo reward, the game's (logistic around 55) and a linear one",
        "",
        f"`ismcts` alone on seeds {seeds.start}-{seeds.stop - 1}, both rewards on every seed; "
        f"CPython {platform.python_version()}, {platform.machine()}, {args.jobs} process(es), "
        f"{engines()}.",
        "",
        "| budget | seeds | mean, logistic | mean, linear | linear - logistic (95%) | s a game |",
        "|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for budget in budgets:
            scores: dict[str, dict[int, float]] = {r: {} for r in REWARDS}
            seconds: list[float] = []
            for reward in REWARDS:
                futures = [pool.submit(play, s, budget, reward) for s in seeds]
                for future in futures:
                    seed, score, took = future.result()
                    scores[reward][seed] = score
                    seconds.append(took)
            diffs = [scores["linear"][s] - scores["logistic"][s] for s in seeds]
            row = (
                f"| {budget} | {len(diffs)} | {statistics.fmean(scores['logistic'].values()):.2f} "
                f"| {statistics.fmean(scores['linear'].values()):.2f} | {summary(diffs)} "
                f"| {statistics.fmean(seconds):.0f} |"
            )
            lines.append(row)
            print(row, flush=True)
    lines += ["", f"{(time.perf_counter() - started) / 60:.1f} minutes in all."]
    print(lines[-1])
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

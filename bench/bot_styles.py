"""Bots with a character: the variety styles bring and the strength they keep.

What is measured
    *Variety.* A table of ``--builders`` (default 30) Egyptia builders, every one the medium
    level (``heuristic``), played to the end for each of ``--tables`` seeds: once as before
    (no style: every builder plays the plain weights) and once as a server seats them (each
    seat its own style, :func:`~karnak.core.knowledge.seat_style` of the game seed and the
    seat). Reported: the distinct final cities (the buildings on each hex) and sheets
    (city, circled dots, crossed plagues, ships) among the builders.

    *Strength.* Per game and per level, the same arena twice (seeds ``--seed`` onwards,
    seats rotated, :func:`karnak.bots.arena.run_arena`): the level's bot against plain
    heuristic opponents (``heuristic@style=0``, the medium level without a style), once
    without styles (the reference, measured in the same run) and once with the level's
    bot playing its seat's style in every game. Reported: each win rate with its 95% Wilson
    interval, the ratio of the styled rate to the reference, and whether the styled rate
    lies inside the reference's interval. Medium is ``heuristic``; hard stands in as
    ``ismcts:<--iterations>`` (an iteration budget: deterministic for a seed and cheap
    enough for a shared machine; the hard level itself searches 0.25 s a move). Against
    its own plain self the medium level's reference is about one game in the number of
    seats: that is the figure a styled medium bot must keep. The easy level (``random``)
    reads no weights; a style changes nothing in it. Egyptia's solo score (its only
    measure alone) is compared the same way over ``--solo`` seeds.

Usage::

    python bench/bot_styles.py [--builders 30] [--tables 5] [--medium 400] [--hard 40]
                               [--iterations 50] [--solo 200] [--jobs 2] [--seed 1]
                               [--out bench/results/bot_styles.md]
"""

from __future__ import annotations

import argparse
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

from karnak.bots import SeatView, make_bot
from karnak.bots.arena import bot_rngs, run_arena, wilson_interval
from karnak.core.knowledge import seat_style
from karnak.core.registry import get_game

PLAIN = "heuristic@style=0"
#: Players of each game's arena (Amun-Re's usual four; Aton is for two; Egyptia two
#: builders, as in bench/results/think_time.md).
PLAYERS = {"amunre": 4, "aton": 2, "egyptia": 2}


def variety(builders: int, seed: int, styled: bool) -> tuple[int, int, list[int]]:
    """(distinct cities, distinct sheets, scores) of one table of medium builders."""
    game = get_game("egyptia")
    state: Any = game.new_state(game.seat_names(builders), seed=seed, options={})
    bots = [
        make_bot("heuristic", game, style=seat_style(seed, seat) if styled else None)
        for seat in range(builders)
    ]
    rngs = bot_rngs(seed, builders)
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(SeatView.of(state, seat), rngs[seat]))
    cities = {tuple(state.city[s]) for s in range(builders)}
    sheets = {
        (
            tuple(state.city[s]),
            tuple(state.circled[s]),
            tuple(sorted(state.crossed[s])),
            tuple(state.ships[s]),
        )
        for s in range(builders)
    }
    return len(cities), len(sheets), list(state.scores())


def solo_scores(games: int, seed: int, styled: bool) -> list[int]:
    game = get_game("egyptia")
    out = []
    for game_seed in range(seed, seed + games):
        state = game.new_state(game.seat_names(1), seed=game_seed, options={})
        bot = make_bot("heuristic", game, style=seat_style(game_seed, 0) if styled else None)
        rng = bot_rngs(game_seed, 1)[0]
        while not state.is_over():
            state.apply(0, bot.choose(SeatView.of(state, 0), rng))
        out.append(state.scores()[0])
    return out


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def strength(name: str, spec: str, games: int, seed: int, jobs: int) -> list[str]:
    game = get_game(name)
    specs = [spec] + [PLAIN] * (PLAYERS[name] - 1)
    rates = []
    for styled in ((), (spec,)):
        started = time.perf_counter()
        result = run_arena(game, specs, games, seed, {}, jobs=jobs, styled=styled)
        row = result.row(spec)
        low, high = wilson_interval(row.wins, row.games)
        rates.append((row.win_rate, low, high, row.mean_score, time.perf_counter() - started))
    (ref, ref_lo, ref_hi, ref_score, t0), (sty, sty_lo, sty_hi, sty_score, t1) = rates
    inside = "yes" if ref_lo <= sty <= ref_hi else "**no**"
    ratio = f"{sty / ref:.2f}" if ref else "-"
    line = (
        f"| {name} | {spec} | {PLAYERS[name]} | {games} | "
        f"{percent(ref)} [{percent(ref_lo)}, {percent(ref_hi)}] | "
        f"{percent(sty)} [{percent(sty_lo)}, {percent(sty_hi)}] | {ratio} | {inside} | "
        f"{ref_score:.1f} / {sty_score:.1f} | {(t0 + t1) / 60:.1f} |"
    )
    print(line, flush=True)
    return [line]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builders", type=int, default=30)
    parser.add_argument("--tables", type=int, default=5)
    parser.add_argument("--medium", type=int, default=400, help="games per medium arena")
    parser.add_argument("--hard", type=int, default=40, help="games per hard arena")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--solo", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    began = time.perf_counter()
    native = karnak.native.status() if hasattr(karnak.native, "status") else None
    compiled = "compiled" if native is not None and native.active else "pure Python"
    lines = [
        "# Bots with a character: styles (bench/bot_styles.py)",
        "",
        f"CPython {platform.python_version()}, {platform.machine()}, {args.jobs} process(es), "
        f"{compiled}; a machine shared with other work (timings are indicative only).",
        "",
        f"## Variety: {args.builders} medium builders at one Egyptia table",
        "",
        "| seed | cities, no style | sheets, no style | cities, styles | sheets, styles "
        "| mean score, no style / styles |",
        "|---|---|---|---|---|---|",
    ]
    print("\n".join(lines), flush=True)
    for table_seed in range(args.seed, args.seed + args.tables):
        c0, s0, p0 = variety(args.builders, table_seed, False)
        c1, s1, p1 = variety(args.builders, table_seed, True)
        line = (
            f"| {table_seed} | {c0} | {s0} | {c1} | {s1} | "
            f"{statistics.mean(p0):.1f} / {statistics.mean(p1):.1f} |"
        )
        print(line, flush=True)
        lines.append(line)

    head = [
        "",
        "## Strength: each level against plain heuristic opponents, without and with styles",
        "",
        f"Opponents `{PLAIN}` (medium without a style); seats rotated; seeds "
        f"{args.seed} onwards, the same in both runs. Hard stands in as "
        f"`ismcts:{args.iterations}` (iterations a decision).",
        "",
        "| game | level's bot | players | games | win rate, no style (Wilson 95%) "
        "| win rate, styled (Wilson 95%) | ratio | inside the reference's interval "
        "| mean score (ref / styled) | minutes |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    print("\n".join(head), flush=True)
    lines += head
    for name in ("amunre", "aton", "egyptia"):
        lines += strength(name, "heuristic", args.medium, args.seed, args.jobs)
    for name in ("amunre", "aton", "egyptia"):
        lines += strength(name, f"ismcts:{args.iterations}", args.hard, args.seed, args.jobs)

    plain = solo_scores(args.solo, args.seed, False)
    styled = solo_scores(args.solo, args.seed, True)
    diffs = [b - a for a, b in zip(plain, styled, strict=True)]
    se = statistics.stdev(diffs) / len(diffs) ** 0.5
    solo = [
        "",
        f"## Egyptia alone: the medium level's score over {args.solo} seeds",
        "",
        "| no style | styled | styled - no style (paired, 95%) |",
        "|---|---|---|",
        f"| {statistics.mean(plain):.2f} | {statistics.mean(styled):.2f} | "
        f"{statistics.mean(diffs):+.2f} ± {1.96 * se:.2f} |",
        "",
        f"Whole run: {(time.perf_counter() - began) / 60:.1f} minutes.",
    ]
    print("\n".join(solo), flush=True)
    lines += solo
    if args.out is not None:
        args.out.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()

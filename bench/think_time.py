"""How the search bot's strength grows with think time, per game, against the heuristic.

What is played
    For each think time ``T`` of ``--think`` (seconds a decision), ``ismcts:Ts`` plays
    ``--games`` games against the game's heuristic, seats rotated, seeds ``seed + i``
    (:func:`karnak.bots.arena.run_arena`):

    - Aton: one ``ismcts`` against one ``heuristic`` (chance 50%);
    - Amun-Re: one ``ismcts`` against three ``heuristic`` (4 players, chance 25%);
    - Egyptia: one ``ismcts`` against one ``heuristic`` builder (2 players, chance 50%);
    - Egyptia solo (``egyptia-solo``): no opponent, so ``ismcts`` and the heuristic each play
      the same seeds alone and the mean score difference is reported with a 95% interval
      (paired by seed).

    A shared victory counts 1/k. Win rates carry Wilson 95% intervals.

Issue 16's targets, checked in the report: Aton 65% at 0.25 s and 80% at 1 s; Egyptia (2)
65% and 75%; Amun-Re 60% and 75%; Egyptia solo 5 points above the heuristic at 1 s. Think
budgets are wall-clock time: run on an idle machine with ``--jobs`` no larger than its cores.

    python bench/think_time.py aton --think 0.25,1,4 --games 200 --jobs 2 \\
        --json bench/results/think_aton.json --out bench/results/think_aton.md
    python bench/think_time.py --plot bench/results/think_time.png \\
        --results bench/results/think_time_runs.json --report bench/results/think_time.md

A long run can be made in seeded chunks (``--seed 61 --games 140`` after ``--games 60``;
with more than two players, chunks of a multiple of the table size keep the rotation): the
plot and the report pool rows of one game, build and think time that played different seeds
into one sample, and list the seeds each row played.

``--results`` takes the JSON files the runs wrote (``--json``) and archives of them: a file
holding a list of such results. ``bench/results/think_time_runs.json`` is the archive of
every run behind ``think_time.md`` and ``think_time.png`` (``--archive`` writes one from
the files given to ``--results``).
"""

from __future__ import annotations

import argparse
import json
import math
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

from karnak.bots.arena import play_game, run_arena, wilson_interval  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.native import engines  # noqa: E402

#: game key -> (engine game, opponents of the search bot, chance of a win)
SETUPS: dict[str, tuple[str, list[str], float]] = {
    "aton": ("aton", ["heuristic"], 0.5),
    "amunre": ("amunre", ["heuristic"] * 3, 0.25),
    "egyptia": ("egyptia", ["heuristic"], 0.5),
    "egyptia-solo": ("egyptia", [], 0.0),
}
#: Games a think time needs before its row counts against a target (issue 16).
MIN_GAMES = 200
#: Issue 16's targets: think time -> win rate (or mean points above the heuristic, solo).
TARGETS: dict[str, dict[float, float]] = {
    "aton": {0.25: 0.65, 1.0: 0.80},
    "amunre": {0.25: 0.60, 1.0: 0.75},
    "egyptia": {0.25: 0.65, 1.0: 0.75},
    "egyptia-solo": {1.0: 5.0},
}


def _seed_ranges(row: dict[str, Any], seed: int) -> list[list[int]]:
    """The seeds a row played, as ``[first, last]`` ranges (older files name only the run's
    first seed: their row played ``games`` seeds from there)."""
    return row.get("seeds") or [[seed, seed + row["games"] - 1]]


def _overlaps(a: list[list[int]], b: list[list[int]]) -> bool:
    return any(x[0] <= y[1] and y[0] <= x[1] for x in a for y in b)


def _pool(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Rows of one think time on disjoint seeds as one sample: wins and games added up and
    the interval taken again (solo: the paired differences put together)."""
    if len(rows) == 1:
        return rows[0]
    games = sum(r["games"] for r in rows)
    seeds = sorted(rng for r in rows for rng in r["seeds"])
    pooled: dict[str, Any] = {
        "think": rows[0]["think"],
        "games": games,
        "seeds": seeds,
        "minutes": sum(r["minutes"] for r in rows),
    }
    if "differences" in rows[0]:  # Egyptia solo
        differences = [d for r in rows for d in r["differences"]]
        mean = statistics.fmean(differences)
        half = 1.96 * statistics.stdev(differences) / math.sqrt(len(differences))
        searched = sum(r["mean_score"] * r["games"] for r in rows) / games
        return {
            **pooled,
            "differences": differences,
            "mean_score": searched,
            "rate": mean,
            "low": mean - half,
            "high": mean + half,
        }
    wins = sum(r["wins"] for r in rows)
    low, high = wilson_interval(wins, games)
    thinks = [(r["think_per_decision"], r["games"]) for r in rows]
    think = (
        None
        if any(t is None for t, _ in thinks)
        else sum(t * n for t, n in thinks) / games  # weighted by games: an approximation
    )
    return {
        **pooled,
        "wins": wins,
        "rate": wins / games,
        "low": low,
        "high": high,
        "think_per_decision": think,
    }


def merged(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Runs of one game and build pooled into one result, rows ordered by think time (runs
    made at different times, a think time each, are one curve). Rows of one think time that
    played different seeds (a long run made in seeded chunks) are pooled into one sample;
    rows that repeat seeds are kept apart, as separate samples. A solo row is pooled only
    if it kept its per-seed differences."""
    pooled: dict[tuple[str, str], dict[str, Any]] = {}
    for result in results:
        key = (result["game"], result.get("build", "pure Python"))
        into = pooled.setdefault(key, {**result, "rows": [], "build": key[1]})
        for row in result["rows"]:
            into["rows"].append({**row, "seeds": _seed_ranges(row, result["seed"])})
    for run in pooled.values():
        groups: list[list[dict[str, Any]]] = []
        for row in sorted(run["rows"], key=lambda r: (r["think"], -r["games"], r["seeds"])):
            fits = (
                g
                for g in groups
                if g[0]["think"] == row["think"]
                and ("differences" in g[0]) == ("differences" in row)
                and not any(_overlaps(m["seeds"], row["seeds"]) for m in g)
                and (run["game"] != "egyptia-solo" or "differences" in row)
            )
            group = next(fits, None)
            if group is None:
                groups.append([row])
            else:
                group.append(row)
        run["rows"] = sorted((_pool(g) for g in groups), key=lambda r: r["think"])
    return list(pooled.values())


def read_results(paths: list[Path]) -> list[dict[str, Any]]:
    """The results of the files ``paths``: each a run's JSON, or an archive (a list of runs'
    results, as :func:`archive` writes it)."""
    results: list[dict[str, Any]] = []
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        results.extend(data if isinstance(data, list) else [data])
    return results


def archive(results: list[dict[str, Any]], out: Path) -> None:
    """Keep ``results`` in one file, one run a line, in their order (the pooled report and
    plot drawn from it are those drawn from the files it came from)."""
    lines = ",\n".join(json.dumps(r) for r in results)
    out.write_text(f"[\n{lines}\n]\n", encoding="utf-8")


def seeds_text(ranges: list[list[int]]) -> str:
    """``[[1, 60], [61, 200]]`` as ``1-200``: contiguous ranges joined."""
    joined: list[list[int]] = []
    for first, last in sorted(ranges):
        if joined and first == joined[-1][1] + 1:
            joined[-1][1] = last
        else:
            joined.append([first, last])
    return ", ".join(f"{a}-{b}" if a != b else f"{a}" for a, b in joined)


def duel(key: str, think: float, games: int, seed: int, jobs: int) -> dict[str, Any]:
    name, opponents, _chance = SETUPS[key]
    spec = f"ismcts:{think:g}s"
    started = time.perf_counter()
    result = run_arena(get_game(name), [spec, *opponents], games, seed, {}, jobs=jobs)
    row = result.row(spec)
    low, high = row.win_interval
    return {
        "think": think,
        "games": games,
        "seeds": [[seed, seed + games - 1]],
        "wins": row.wins,
        "rate": row.win_rate,
        "low": low,
        "high": high,
        "think_per_decision": row.think_per_decision,
        "minutes": (time.perf_counter() - started) / 60,
    }


def solo(think: float, games: int, seed: int) -> dict[str, Any]:
    game = get_game("egyptia")
    started = time.perf_counter()
    differences = []
    searched = []
    for i in range(games):
        heuristic = play_game(game, ["heuristic"], seed + i, {}).scores[0]
        search = play_game(game, [f"ismcts:{think:g}s"], seed + i, {}).scores[0]
        differences.append(search - heuristic)
        searched.append(search)
    mean = statistics.fmean(differences)
    spread = statistics.stdev(differences) if games > 1 else 0.0
    half = 1.96 * spread / math.sqrt(games)
    return {
        "think": think,
        "games": games,
        "seeds": [[seed, seed + games - 1]],
        "differences": differences,
        "mean_score": statistics.fmean(searched),
        "rate": mean,  # the mean difference, plotted like a rate
        "low": mean - half,
        "high": mean + half,
        "minutes": (time.perf_counter() - started) / 60,
    }


def markdown(result: dict[str, Any]) -> str:
    key = result["game"]
    is_solo = key == "egyptia-solo"
    lines = [
        f"## Think time: {key}, {result.get('build', 'pure Python')}",
        "",
        f"`ismcts:<T>s` against {', '.join(SETUPS[key][1]) or 'the heuristic on the same seeds'}"
        f"; seats rotated; {result['conditions']}.",
        "",
    ]
    if is_solo:
        lines += [
            "| think | games | seeds | mean score | above the heuristic (95%) | target | minutes |"
        ]
    else:
        lines += [
            "| think | games | seeds | win rate (Wilson 95%) | think a decision | target "
            "| minutes |"
        ]
    lines.append("|---|---|---|---|---|---|---|")
    for row in result["rows"]:
        target = TARGETS[key].get(row["think"])
        seeds = seeds_text(_seed_ranges(row, result["seed"]))
        if is_solo:
            verdict = "-" if target is None else ("met" if row["low"] >= target else "not met")
            if target is not None and row["games"] < MIN_GAMES:  # too few seeds to count
                verdict += f" on {row['games']} seeds (needs {MIN_GAMES})"
            lines.append(
                f"| {row['think']:g} s | {row['games']} | {seeds} | {row['mean_score']:.1f} "
                f"| {row['rate']:+.1f} [{row['low']:+.1f}, {row['high']:+.1f}] "
                f"| {'' if target is None else f'+{target:g} '}{verdict} | {row['minutes']:.0f} |"
            )
        else:
            verdict = "-" if target is None else ("met" if row["rate"] >= target else "not met")
            if target is not None and row["games"] < MIN_GAMES:  # too few to count
                verdict += f" on {row['games']} games (needs {MIN_GAMES})"
            think = row["think_per_decision"]
            lines.append(
                f"| {row['think']:g} s | {row['games']} | {seeds} | {row['rate']:.1%} "
                f"[{row['low']:.1%}, {row['high']:.1%}] "
                f"| {'-' if think is None else f'{think:.2f} s'} "
                f"| {'' if target is None else f'{target:.0%} '}{verdict} | {row['minutes']:.0f} |"
            )
    return "\n".join(lines) + "\n"


def plot(results: list[dict[str, Any]], out: Path) -> None:
    """One panel per game, one curve per build (compiled, pure Python), targets marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = merged(results)
    games = sorted({run["game"] for run in runs}, key=list(SETUPS).index)
    fig, axes = plt.subplots(1, len(games), figsize=(3.8 * len(games), 3.4), squeeze=False)
    colours = {"compiled": "#8a5a1f", "pure Python": "#4a6fa5"}
    for ax, key in zip(axes[0], games, strict=True):
        scale = 1 if key == "egyptia-solo" else 100
        thinks: set[float] = set()
        for run in (r for r in runs if r["game"] == key):
            rows = run["rows"]
            xs = [r["think"] for r in rows]
            thinks.update(xs)
            errors = [
                [(r["rate"] - r["low"]) * scale for r in rows],
                [(r["high"] - r["rate"]) * scale for r in rows],
            ]
            games_a_point = "/".join(str(r["games"]) for r in rows)
            ax.errorbar(
                xs,
                [r["rate"] * scale for r in rows],
                yerr=errors,
                marker="o",
                capsize=3,
                color=colours.get(run["build"], "#555"),
                label=f"{run['build']} ({games_a_point} games)",
            )
        chance = SETUPS[key][2] * scale
        ax.axhline(chance, ls="--", color="grey", lw=1)
        for think, target in TARGETS[key].items():
            ax.plot([think], [target * scale], marker="_", ms=18, color="#2a7", mew=2)
            thinks.add(think)
        ax.set_xscale("log")
        ax.minorticks_off()
        ticks = sorted(thinks)
        ax.set_xticks(ticks, [f"{x:g}" for x in ticks])
        ax.set_xlabel("think time a decision (s)")
        ax.set_ylabel("points above the heuristic" if scale == 1 else "win rate (%)")
        ax.set_title(key + (" (level: dashed)" if scale == 1 else " (chance: dashed)"))
        ax.legend(fontsize=7, loc="lower right")
        ax.grid(alpha=0.3)
    fig.suptitle("ismcts against the heuristic; green bars: issue 16's targets", fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=sorted(SETUPS))
    parser.add_argument("--think", default="0.25,1,4", help="seconds a decision, comma-separated")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--plot", type=Path, help="draw the --results files")
    parser.add_argument("--results", nargs="+", type=Path, default=[])
    parser.add_argument("--report", type=Path, help="with --plot: the pooled tables, Markdown")
    parser.add_argument("--archive", type=Path, help="the --results files as one archive")
    args = parser.parse_args()
    if args.archive:
        if not args.results:
            parser.error("--archive needs --results")
        archive(read_results(args.results), args.archive)
        return
    if args.plot:
        if not args.results:
            parser.error("--plot needs --results")
        results = read_results(args.results)
        plot(results, args.plot)
        if args.report:
            runs = sorted(
                merged(results), key=lambda r: (list(SETUPS).index(r["game"]), r["build"])
            )
            args.report.write_text("\n".join(markdown(r) for r in runs), encoding="utf-8")
        return
    if args.game is None:
        parser.error("name a game, or --plot with --results")
    try:
        thinks = [float(t) for t in args.think.split(",") if t.strip()]
    except ValueError:
        parser.error(f"--think takes seconds, comma-separated, not {args.think!r}")
    if not thinks or any(not 0 < t <= 60 for t in thinks):
        parser.error("each think time is above 0 and at most 60 seconds")
    if not 1 <= args.games <= 10_000 or not 1 <= args.jobs <= 64:
        parser.error("--games is from 1 to 10000, --jobs from 1 to 64")
    rows = [
        solo(t, args.games, args.seed)
        if args.game == "egyptia-solo"
        else duel(args.game, t, args.games, args.seed, args.jobs)
        for t in thinks
    ]
    result = {
        "game": args.game,
        "seed": args.seed,
        "build": engines(),
        "conditions": f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {args.jobs} process(es), {engines()}",
        "rows": rows,
    }
    report = markdown(result)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

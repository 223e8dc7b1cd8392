"""The bot ladder: every bot's openskill rating in one game, from one arena run, with a plot.

What is played
    The bots given (``--bots``, default: the game's named levels, see
    :mod:`karnak.bots.levels`) meet at every table the pool allows: at a table of two, every
    pair; at a bigger table, every choice of distinct bots (bots repeat when the pool is
    smaller than the table). Each table plays ``--games`` games with the seats rotated, on
    seeds ``seed + 1000 * table + i``. Every game's ranks update one Plackett-Luce rating per
    bot (:class:`karnak.bots.arena.RatingBook`, in the order of tables and games whatever the
    order the processes finish in), so the ladder is one scale for every bot of the game.

What is written
    ``--out``: a Markdown table (bot, level, mu, sigma, the conservative mu - 3 sigma, games,
    mean think per decision) and the win rate of each pairing with its Wilson interval, the
    conditions written at the top. ``--json`` keeps the figures; ``--plot`` draws every game
    found in the JSON files given to it (one panel a game: mu with a 2-sigma bar, the named
    levels marked).

Think budgets in seconds depend on the machine: run on an idle machine, ``--jobs`` no larger
than its cores.

    python bench/ladder.py aton --games 20 --jobs 2 --json bench/results/ladder_aton.json \\
        --out bench/results/ladder_aton.md
    python bench/ladder.py --plot bench/results/ladder.png --results bench/results/ladder_*.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.bots.arena import GameOutcome, RatingBook, normalise_spec, play_game, wilson_interval  # noqa: E402
from karnak.bots.levels import LEVELS, game_levels  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.native import engines  # noqa: E402

TABLE_SIZE = {"aton": 2, "amunre": 4, "egyptia": 2}


def default_bots(game: str) -> list[str]:
    return [game_levels(game)[level] for level in LEVELS]


def tables(bots: list[str], seats: int) -> list[tuple[str, ...]]:
    """Every pair at a table of two; every choice of distinct bots at a bigger table (with
    the pool repeated when it is smaller than the table)."""
    if seats == 2:
        return list(itertools.combinations(bots, 2))
    if len(bots) >= seats:
        return list(itertools.combinations(bots, seats))
    return [
        tuple(bots[(start + k) % len(bots)] for k in range(seats)) for start in range(len(bots))
    ]


def _play(job: tuple[str, tuple[str, ...], int, int]) -> GameOutcome:
    game_name, seats, seed, index = job
    return play_game(get_game(game_name), seats, seed, {}, index)


def run(game_name: str, bots: list[str], games: int, seed: int, jobs: int) -> dict[str, Any]:
    game = get_game(game_name)
    seats = TABLE_SIZE[game_name]
    labels = list(dict.fromkeys(normalise_spec(b) for b in bots))
    plan: list[tuple[str, tuple[str, ...], int, int]] = []
    for t, table in enumerate(tables(labels, seats)):
        for i in range(games):
            rotated = tuple(table[(s + i) % seats] for s in range(seats))
            plan.append((game_name, rotated, seed + 1000 * t + i, len(plan)))
    started = time.perf_counter()
    if jobs > 1:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            outcomes = list(pool.map(_play, plan))
    else:
        outcomes = [_play(job) for job in plan]
    elapsed = time.perf_counter() - started
    book = RatingBook(labels)
    played = dict.fromkeys(labels, 0)
    decisions = dict.fromkeys(labels, 0)
    thinking = dict.fromkeys(labels, 0.0)
    pairs: dict[tuple[str, str], list[float]] = {}
    for outcome in sorted(outcomes, key=lambda o: o.index):
        book.update(outcome.seats, outcome.ranks)
        for s, label in enumerate(outcome.seats):
            played[label] += 1
            decisions[label] += outcome.decisions[s]
            thinking[label] += outcome.think_seconds[s]
        for a, b in itertools.permutations(range(seats), 2):
            key = (outcome.seats[a], outcome.seats[b])
            if key[0] == key[1]:
                continue
            won = (
                1.0
                if outcome.ranks[a] < outcome.ranks[b]
                else 0.5
                if outcome.ranks[a] == outcome.ranks[b]
                else 0.0
            )
            pairs.setdefault(key, []).append(won)
    levels = {spec: level for level, spec in game_levels(game_name).items()}
    return {
        "game": game_name,
        "title": game.title,
        "seats": seats,
        "games_per_table": games,
        "games": len(plan),
        "seed": seed,
        "seconds": elapsed,
        "conditions": f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {jobs} process(es), engines {engines()}",
        "bots": [
            {
                "bot": label,
                "level": levels.get(label, ""),
                "mu": book.ratings[label][0],
                "sigma": book.ratings[label][1],
                "games": played[label],
                "think_per_decision": thinking[label] / decisions[label]
                if decisions[label]
                else None,
            }
            for label in labels
        ],
        "pairs": [
            {"bot": a, "against": b, "score": sum(r), "games": len(r)}
            for (a, b), r in sorted(pairs.items())
        ],
    }


def markdown(result: dict[str, Any]) -> str:
    lines = [
        f"# Bot ladder: {result['title']}",
        "",
        f"{result['games']} games ({result['games_per_table']} a table, seats rotated, tables of "
        f"{result['seats']}), seed {result['seed']}, {result['conditions']}, "
        f"{result['seconds'] / 60:.1f} min. Openskill Plackett-Luce, every bot starting at "
        "mu 25, sigma 8.33; ordinal = mu - 3 sigma.",
        "",
        "| bot | level | mu | sigma | ordinal | games | think a decision |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in sorted(result["bots"], key=lambda r: -r["mu"]):
        think = row["think_per_decision"]
        shown = "-" if think is None else f"{think * 1000:.0f} ms"
        lines.append(
            f"| `{row['bot']}` | {row['level'] or '-'} | {row['mu']:.2f} | {row['sigma']:.2f} "
            f"| {row['mu'] - 3 * row['sigma']:.2f} | {row['games']} | {shown} |"
        )
    lines += ["", "Head to head (a win 1, a tie 1/2; Wilson 95%):", ""]
    lines += ["| bot | against | score | games | rate |", "|---|---|---|---|---|"]
    for pair in result["pairs"]:
        low, high = wilson_interval(pair["score"], pair["games"])
        lines.append(
            f"| `{pair['bot']}` | `{pair['against']}` | {pair['score']:g} | {pair['games']} "
            f"| {pair['score'] / pair['games']:.0%} [{low:.0%}, {high:.0%}] |"
        )
    return "\n".join(lines) + "\n"


def plot(results: list[dict[str, Any]], out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(4.2 * len(results), 3.4), squeeze=False)
    for ax, result in zip(axes[0], results, strict=True):
        rows = sorted(result["bots"], key=lambda r: r["mu"])
        names = [f"{r['level']}\n{r['bot']}" if r["level"] else r["bot"] for r in rows]
        ax.barh(
            names,
            [r["mu"] for r in rows],
            xerr=[2 * r["sigma"] for r in rows],
            color="#c8a45a",
            ecolor="#444",
        )
        ax.set_title(f"{result['title']} ({result['games']} games)")
        ax.set_xlabel("openskill mu (bar: 2 sigma)")
        ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", choices=sorted(TABLE_SIZE))
    parser.add_argument("--bots", help="comma-separated bot specs (default: the named levels)")
    parser.add_argument(
        "--games", type=int, default=20, help="games a table (a multiple of its seats)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--out", type=Path, help="the Markdown report")
    parser.add_argument("--json", type=Path, help="the figures, for --plot")
    parser.add_argument("--plot", type=Path, help="draw the ladders of the --results files")
    parser.add_argument("--results", nargs="+", type=Path, default=[], help="JSON files to plot")
    args = parser.parse_args()
    if args.plot:
        if not args.results:
            parser.error("--plot needs --results: the JSON files of the ladders to draw")
        plot([json.loads(f.read_text(encoding="utf-8")) for f in args.results], args.plot)
        return
    if args.game is None:
        parser.error("name a game, or --plot with --results")
    if not 1 <= args.games <= 10_000 or not 1 <= args.jobs <= 64:
        parser.error("--games is from 1 to 10000, --jobs from 1 to 64")
    bots = args.bots.split(",") if args.bots else default_bots(args.game)
    result = run(
        args.game, [b.strip() for b in bots if b.strip()], args.games, args.seed, args.jobs
    )
    report = markdown(result)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

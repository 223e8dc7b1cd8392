"""Baselines: every bot of a pool against every other, per game, with Wilson intervals.

What is played
    The bots given (``--bots``; default: ``random``, ``heuristic``, ``ismcts:50``,
    ``ismcts:200``, iteration budgets so the figures do not depend on the machine) meet at
    tables of the game's ``--players`` (default: the research adapters' table, 2 for Aton
    and Egyptia, 3 for Amun-Re). At a table of two every pair plays; at a bigger one every
    choice of distinct bots. Each table is one run of the project's arena
    (:func:`karnak.bots.arena.run_arena`, what ``karnak arena GAME --bots A,B --games N
    --seed S`` plays: seats rotated, seeds ``S .. S + N - 1``), so any table can be played
    again from the command line the report prints for it.

What is counted
    For every two bots at a table, each game counts once: 1 when the first finished ranked
    above the second, 1/2 when they tied, 0 otherwise (at a table of two: the arena's win
    share). A cell of the table is that score over the games, with its Wilson 95% interval
    (:func:`karnak.bots.arena.wilson_interval`); at a bigger table the third seat's bot
    varies (every choice is played) and is part of the conditions.

Learned policies
    ``policy`` is the policy shipped for a game (Aton: MaskablePPO, ``karnak train aton``);
    ``--policy FILE`` seats another exported policy (``.npz``) under the name ``ppo`` (the
    short runs for Amun-Re and Egyptia), registered before the arena's worker processes
    start (Linux's fork hands them the registry).

Results accumulate
    ``--json`` keeps every table played; a table already in the file is not played again
    (``--replay`` plays it anew), so a run can be stopped and taken up again, and tables can
    be added later (``--with ppo`` plays only the tables where ``ppo`` sits). Another
    ``--seed`` plays more games of the same tables, kept beside the first; ``--merge`` joins
    the files of runs made in parallel. ``--out`` writes the Markdown report of everything
    in the JSON file.

    python bench/baselines.py aton --games 20 --json bench/results/baselines_aton.json \\
        --out bench/results/baselines_aton.md
    python bench/baselines.py aton --bots random,heuristic,ismcts:50,ismcts:200,policy \\
        --with policy --games 20 --json bench/results/baselines_aton.json \\
        --out bench/results/baselines_aton.md
    python bench/baselines.py --report --json bench/results/baselines_aton.json
    python bench/baselines.py --json all.json --merge part1.json part2.json --out all.md
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import sys
import time
import zlib
from pathlib import Path
from typing import Any

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.bots.arena import normalise_spec, run_arena, wilson_interval  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.envs.idgame import default_players  # noqa: E402
from karnak.native import engines  # noqa: E402

DEFAULT_BOTS = ("random", "heuristic", "ismcts:50", "ismcts:200")


def tables(bots: list[str], seats: int) -> list[tuple[str, ...]]:
    """Every pair at a table of two; every choice of ``seats`` distinct bots otherwise."""
    if len(bots) < seats:
        raise ValueError(f"a table of {seats} needs at least {seats} distinct bots")
    return list(itertools.combinations(bots, seats))


def table_key(table: tuple[str, ...]) -> str:
    return ",".join(table)


def table_seed(seed: int, table: tuple[str, ...]) -> int:
    """The first seed of a table: from the run's seed and the table's bots alone, so adding
    bots to the pool later leaves the tables already played as they were."""
    return seed + 1000 * (zlib.crc32(table_key(table).encode()) % 100_000)


def conditions(jobs: int) -> str:
    return (
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs (shared), {jobs} process(es), "
        f"engines {engines()}"
    )


def play_table(
    game_name: str, table: tuple[str, ...], games: int, seed: int, jobs: int
) -> dict[str, Any]:
    """One arena run of ``table``: the figures kept for the report."""
    game = get_game(game_name)
    first = table_seed(seed, table)
    started = time.perf_counter()
    result = run_arena(game, list(table), games, first, {}, jobs=jobs)
    elapsed = time.perf_counter() - started
    return {
        "bots": list(table),
        "games": games,
        "seed": first,
        "command": f"karnak arena {game_name} --bots {','.join(table)} --games {games} "
        f"--seed {first}",
        "seconds": elapsed,
        "conditions": conditions(jobs),
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "outcomes": [{"seats": list(o.seats), "ranks": list(o.ranks)} for o in result.outcomes],
        "think_per_decision": {
            row.bot: row.think_per_decision for row in result.rows if row.decisions
        },
    }


def pair_scores(results: dict[str, Any]) -> dict[tuple[str, str], tuple[float, int]]:
    """(bot, against) -> (score, games) over every table where both sat."""
    scores: dict[tuple[str, str], list[float]] = {}
    for table in results["tables"].values():
        for outcome in table["outcomes"]:
            seats, ranks = outcome["seats"], outcome["ranks"]
            for a, b in itertools.permutations(range(len(seats)), 2):
                if seats[a] == seats[b]:
                    continue
                won = 1.0 if ranks[a] < ranks[b] else 0.5 if ranks[a] == ranks[b] else 0.0
                scores.setdefault((seats[a], seats[b]), []).append(won)
    return {key: (sum(values), len(values)) for key, values in scores.items()}


def cell(score: float, games: int) -> str:
    low, high = wilson_interval(score, games)
    return f"{score / games:.0%} [{low:.0%}, {high:.0%}] ({games})"


def markdown(results: dict[str, Any]) -> str:
    seated = {bot for table in results["tables"].values() for bot in table["bots"]}
    bots = [bot for bot in results["bots"] if bot in seated]
    scores = pair_scores(results)
    tables_played = results["tables"].values()
    counts = sorted({t["games"] for t in tables_played})
    minutes = sum(t["seconds"] for t in tables_played) / 60
    lines = [
        f"### {results['title']}",
        "",
        f"Tables of {results['players']}, {'/'.join(map(str, counts))} games a run of a table "
        f"(seats rotated), {len(results['tables'])} runs, {minutes:.0f} min of play; "
        f"{sorted({t['conditions'] for t in tables_played})[0]}. A cell: the row bot's score "
        "against the column bot (ranked above 1, tied 1/2), Wilson 95% interval, games.",
        "",
        "| bot | " + " | ".join(f"vs `{b}`" for b in bots) + " |",
        "|---|" + "---|" * len(bots),
    ]
    for bot in bots:
        row = [f"`{bot}`"]
        for other in bots:
            if other == bot:
                row.append("-")
            elif (bot, other) in scores:
                row.append(cell(*scores[(bot, other)]))
            else:
                row.append("not played")
        lines.append("| " + " | ".join(row) + " |")
    think: dict[str, list[float]] = {}
    for table in tables_played:
        for bot, seconds in table["think_per_decision"].items():
            if seconds is not None:
                think.setdefault(bot, []).append(seconds)
    lines += [
        "",
        "Mean think a decision: "
        + ", ".join(
            f"`{bot}` {1000 * sum(think[bot]) / len(think[bot]):.1f} ms"
            for bot in bots
            if bot in think
        )
        + " (the machine's shared load included).",
        "",
        "Each table again: "
        + "; ".join(f"`{t['command']}`" for t in results["tables"].values())
        + ".",
    ]
    if "ppo" in bots:
        lines += [
            "",
            f"`ppo` is the exported policy {results.get('policy', 'given by --policy')}: "
            "its tables are played again by `bench/baselines.py --policy FILE` (the "
            "`karnak arena` commands above name it as the script registers it).",
        ]
    return "\n".join(lines) + "\n"


def register_policy(path: Path, name: str = "ppo") -> None:
    """Seat the exported policy at ``path`` under the spec ``name``."""
    from karnak.bots.learned import register_policy_bot

    register_policy_bot(name, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", help="aton, amunre or egyptia")
    parser.add_argument("--bots", help=f"comma-separated specs (default {','.join(DEFAULT_BOTS)})")
    parser.add_argument("--players", type=int, help="the table (default: the adapters' table)")
    parser.add_argument("--games", type=int, default=20, help="games a table (rotate the seats)")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed")
    parser.add_argument("--jobs", type=int, default=1, help="arena processes")
    parser.add_argument("--with", dest="with_bot", help="play only the tables with this bot")
    parser.add_argument("--without", help="play only the tables without this bot")
    parser.add_argument("--policy", type=Path, help="an exported policy (.npz) seated as ppo")
    parser.add_argument("--replay", action="store_true", help="play tables already in --json")
    parser.add_argument("--json", type=Path, help="the results, kept and added to")
    parser.add_argument("--out", type=Path, help="the Markdown report")
    parser.add_argument("--report", action="store_true", help="only write the report")
    parser.add_argument(
        "--merge",
        nargs="+",
        type=Path,
        default=[],
        help="add the tables of these JSON files (runs made in parallel) to --json",
    )
    args = parser.parse_args(argv)
    results: dict[str, Any] | None = None
    if args.json is not None and args.json.exists():
        results = json.loads(args.json.read_text(encoding="utf-8"))
    if args.merge:
        if args.json is None:
            parser.error("--merge needs --json, the file to merge into")
        for path in args.merge:
            other = json.loads(path.read_text(encoding="utf-8"))
            if results is None:
                results = {**other, "tables": {}, "bots": []}
            if (other["game"], other["players"]) != (results["game"], results["players"]):
                parser.error(f"{path} holds another game or table size")
            results["tables"].update(other["tables"])
            results["bots"] = list(dict.fromkeys([*results["bots"], *other["bots"]]))
            if "policy" in other:
                results["policy"] = other["policy"]
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        args.report = True
    if args.report:
        if results is None:
            parser.error("--report needs --json with results")
        report = markdown(results)
        print(report)
        if args.out:
            args.out.write_text(report, encoding="utf-8")
        return 0
    if args.game is None:
        parser.error("name a game")
    if args.policy is not None:
        register_policy(args.policy)
    game = get_game(args.game)
    players = args.players or default_players(game)
    bots = [normalise_spec(b) for b in (args.bots.split(",") if args.bots else DEFAULT_BOTS)]
    bots = [b for b in dict.fromkeys(bots) if b]
    if results is None or results["game"] != game.name or results["players"] != players:
        if results is not None:
            parser.error(f"{args.json} holds another game or table size")
        results = {"game": game.name, "title": game.title, "players": players, "tables": {}}
    results["bots"] = list(dict.fromkeys([*results.get("bots", []), *bots]))
    if args.policy is not None:
        results["policy"] = str(args.policy)
    for table in tables(bots, players):
        # Another --seed plays other games of the same table, kept beside the first ones.
        key = table_key(table) + ("" if args.seed == 1 else f" seed {args.seed}")
        if args.with_bot and normalise_spec(args.with_bot) not in table:
            continue
        if args.without and normalise_spec(args.without) in table:
            continue
        if key in results["tables"] and not args.replay:
            print(f"{key}: already played", flush=True)
            continue
        entry = play_table(game.name, table, args.games, args.seed, args.jobs)
        results["tables"][key] = entry
        print(f"{key}: {args.games} games in {entry['seconds']:.0f} s", flush=True)
        if args.json is not None:
            args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    report = markdown(results)
    print(report)
    if args.out:
        args.out.write_text(report, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

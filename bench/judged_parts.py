"""Which part of the ``judged`` bot costs it strength: the learned judge, or regret matching?

``judged`` is the search (``ismcts``) with two changes at once: the learned judge where the
rollouts are cut short, and regret matching at a sealed root (``sealed="regret"``). At equal
iterations it lost to the plain search in Aton (``bench/results/judged_aton.md``). This script
plays each change alone against the plain search, with the same seeds, seats rotated, an
iteration budget (so each game is deterministic for its seed and the rows are comparable):

* ``ismcts-judge:N``: the plain search with the judge at its leaves, sealed steps pure;
* ``ismcts-regret:N``: the plain search with regret matching at sealed roots, the hand-made
  evaluator at its leaves;
* ``ismcts-respond:N``: the plain search with only the others' sealed moves mixed by regret
  matching, its own move the tree's (``sealed="respond"``);
* ``judged:N``: both, as shipped (optional, ``--parts both``).

Each row is ``variant:N`` against ``ismcts:N``; the variant's win rate with a Wilson 95%
interval, printed as a Markdown table and, with ``--json``, written as one JSON object.

    python bench/judged_parts.py aton --iterations 300 --games 80 --parts judge
    python bench/judged_parts.py aton --iterations 300 --games 80 --parts regret
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
try:
    import karnak
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))

import karnak.native  # noqa: E402

karnak.native.install()

from karnak.bots import Budget  # noqa: E402
from karnak.bots.arena import run_arena  # noqa: E402
from karnak.bots.base import register_bot  # noqa: E402
from karnak.bots.ismcts import ISMCTSBot, make_ismcts  # noqa: E402
from karnak.bots.judge import make_judged  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.core.game import Game  # noqa: E402


def judge_only(game: Game, budget: Budget | None = None) -> ISMCTSBot:
    bot = make_judged(game, budget, sealed="pure")
    bot.name = "ismcts-judge"
    return bot


def regret_only(game: Game, budget: Budget | None = None) -> ISMCTSBot:
    bot = make_ismcts(game, budget, sealed="regret")
    bot.name = "ismcts-regret"
    return bot


def respond_only(game: Game, budget: Budget | None = None) -> ISMCTSBot:
    bot = make_ismcts(game, budget, sealed="respond")
    bot.name = "ismcts-respond"
    return bot


PARTS = {
    "judge": "ismcts-judge",
    "regret": "ismcts-regret",
    "respond": "ismcts-respond",
    "both": "judged",
}
register_bot("ismcts-judge", judge_only, help="ismcts + the learned judge", takes_budget=True)
register_bot("ismcts-regret", regret_only, help="ismcts + regret matching", takes_budget=True)
register_bot("ismcts-respond", respond_only, help="ismcts, others mixed", takes_budget=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--iterations", type=int, default=300)
    parser.add_argument("--games", type=int, default=80)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--parts", default="judge,regret", help="of " + ", ".join(PARTS))
    parser.add_argument("--jobs", type=int, default=1, help="processes to play in")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    game = get_game(args.game)
    parts = [part.strip() for part in args.parts.split(",") if part.strip()]
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        parser.error(f"unknown part {', '.join(unknown)}; choose from {', '.join(PARTS)}")

    print(
        f"{args.game}, {args.players} seats, {args.iterations} iterations a decision, "
        f"{args.games} games from seed {args.seed}, seats rotated, {args.jobs} process(es); "
        f"engines "
        f"{karnak.native.engines()}; {platform.python_implementation()} "
        f"{platform.python_version()} on {platform.machine()}"
    )
    print()
    print("| variant | against | games | wins | win rate (Wilson 95%) | mean score | minutes |")
    print("|---|---|---|---|---|---|---|")
    rows: list[dict[str, Any]] = []
    for part in parts:
        variant = f"{PARTS[part]}:{args.iterations}"
        plain = f"ismcts:{args.iterations}"
        specs = [variant] + [plain] * (args.players - 1)
        started = time.perf_counter()
        result = run_arena(game, specs, args.games, args.seed, {}, jobs=args.jobs)
        minutes = (time.perf_counter() - started) / 60
        row = result.row(variant)
        low, high = row.win_interval
        print(
            f"| `{variant}` | `{plain}` | {row.games} | {row.wins:g} | "
            f"{row.win_rate:.1%} [{low:.1%}, {high:.1%}] | {row.mean_score:.1f} | "
            f"{minutes:.0f} |",
            flush=True,
        )
        rows.append({"part": part, "minutes": minutes, **result.to_json()})
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

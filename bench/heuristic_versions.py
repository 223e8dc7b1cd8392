"""A game's heuristic against an earlier version of itself: did a change of its rules of thumb
make it stronger, weaker, or neither?

The earlier version is the game's ``bot.py`` at a git revision (``--before``, default
``HEAD``: the last commit, against the working tree's edit). It is loaded from that source
as a module of its own and registered as the bot ``heuristic-before``; the current module
plays as ``heuristic``. One seat plays the current heuristic and the others the earlier one
(at two seats: one each), seats rotated, game ``i`` on seed ``--seed + i``; the current
heuristic's wins (a shared win counts as a fraction) with a Wilson 95% interval, against
the share a seat would win by chance.

The earlier module is plain Python; the current one may be compiled. Both decide the same
moves either way (the compiled build is the same code), so only the time differs, and time
is not measured here.

    python bench/heuristic_versions.py amunre --players 4 --games 400
    python bench/heuristic_versions.py aton --before 1fb0726 --games 600
"""

from __future__ import annotations

import argparse
import runpy
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
try:
    import karnak
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))

import karnak.native  # noqa: E402

karnak.native.install()

from karnak.bots.arena import run_arena  # noqa: E402
from karnak.bots.base import register_bot  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.core.agent import Bot  # noqa: E402
from karnak.core.game import Game  # noqa: E402


def load_before(game: str, revision: str) -> Callable[[Game], Bot]:
    """The ``make_heuristic`` of the game's bot module as it was at ``revision``, the module
    run from that source under a name of its own."""
    source = subprocess.run(
        ["git", "show", f"{revision}:src/karnak/games/{game}/bot.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = Path(tempfile.mkdtemp(prefix="karnak_before_")) / f"{game}_bot_before.py"
    path.write_text(source, encoding="utf-8")
    namespace = runpy.run_path(str(path), run_name=f"karnak_bench_{game}_bot_before")
    make: Callable[[Game], Bot] = namespace["make_heuristic"]
    return make


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--before", default="HEAD", help="git revision of the earlier version")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    game = get_game(args.game)
    make_before = load_before(args.game, args.before)
    register_bot(
        "heuristic-before",
        lambda played, _budget: make_before(played),
        help=f"the heuristic at {args.before}",
    )
    specs = ["heuristic"] + ["heuristic-before"] * (args.players - 1)
    result = run_arena(game, specs, args.games, args.seed, {}, jobs=args.jobs)
    row = result.row("heuristic")
    low, high = row.win_interval
    other = result.row("heuristic-before")
    print(
        f"{args.game}, {args.players} seats, {args.games} games from seed {args.seed}, seats "
        f"rotated; the current heuristic against {args.players - 1} of {args.before}'s; "
        f"engines {karnak.native.engines()}; {result.elapsed_seconds / 60:.1f} minutes"
    )
    print()
    print("| bot | seat-games | wins | win rate (Wilson 95%) | chance | mean score |")
    print("|---|---|---|---|---|---|")
    print(
        f"| heuristic (now) | {row.games} | {row.wins:g} | {row.win_rate:.1%} "
        f"[{low:.1%}, {high:.1%}] | {1 / args.players:.1%} | {row.mean_score:.1f} |"
    )
    print(
        f"| heuristic ({args.before}) | {other.games} | {other.wins:g} | "
        f"{other.win_rate:.1%} | {1 / args.players:.1%} | {other.mean_score:.1f} |"
    )


if __name__ == "__main__":
    main()

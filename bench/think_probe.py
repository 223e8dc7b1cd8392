"""Where a longer think time changes the search's moves: one game's decisions asked twice.

``think_time.py`` found Egyptia alone flat from 1 s to 4 s a move. This probe looks at why:
it plays games with ``ismcts`` at the long think time and, at each of the search's
decisions, also asks a fresh ``ismcts`` at the short think time (with a generator of its
own, so the game played is the long search's). Per decision it records whether the two
chose the same move, the iterations each ran and the seconds each used (a search stops
before its deadline once the leading move cannot be overtaken). A decision with one
candidate move runs no search and is counted apart.

    python bench/think_probe.py egyptia-solo --short 1 --long 4 --games 3 --seed 1 \\
        --out bench/results/think_probe_egyptia_solo.md

Run it on an idle core: the budgets are wall-clock time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.bots.arena import bot_rngs  # noqa: E402
from karnak.bots.base import SeatView, make_bot  # noqa: E402
from karnak.bots.ismcts import ISMCTSBot  # noqa: E402
from karnak.core import get_game  # noqa: E402
from karnak.core.rng import Rng  # noqa: E402
from karnak.native import engines  # noqa: E402

#: probe key -> (engine game, seats: the probed seat first, then its opponents)
SETUPS: dict[str, tuple[str, list[str]]] = {
    "egyptia-solo": ("egyptia", []),
    "egyptia": ("egyptia", ["heuristic"]),
    "aton": ("aton", ["heuristic"]),
    "amunre": ("amunre", ["heuristic"] * 3),
}


def probe(key: str, short: float, long: float, games: int, seed: int) -> list[dict[str, float]]:
    """One record per decision of the probed seat (seat 0) over ``games`` games."""
    name, opponents = SETUPS[key]
    game = get_game(name)
    records: list[dict[str, float]] = []
    for g in range(games):
        s = seed + g
        specs = [f"ismcts:{long:g}s", *opponents]
        bots = [make_bot(spec, game) for spec in specs]
        quick = make_bot(f"ismcts:{short:g}s", game)
        assert isinstance(bots[0], ISMCTSBot) and isinstance(quick, ISMCTSBot)
        rngs = bot_rngs(s, len(specs))
        quick_rng = Rng(s ^ 0x0BE5_0BE5)
        state = game.new_state(game.seat_names(len(specs)), seed=s, options={})
        while not state.is_over():
            seat = state.to_move()[0]
            view = SeatView.of(state, seat)
            if seat != 0 or len(view.legal_actions) == 1:
                state.apply(seat, bots[seat].choose(view, rngs[seat]))
                continue
            t0 = time.perf_counter()
            slow_move = bots[0].choose(view, rngs[0])
            t1 = time.perf_counter()
            quick_move = quick.choose(view, quick_rng)
            t2 = time.perf_counter()
            records.append(
                {
                    "seed": s,
                    "searched": float(bots[0].last_iterations > 0),
                    "same": float(slow_move == quick_move),
                    "long_iterations": bots[0].last_iterations,
                    "short_iterations": quick.last_iterations,
                    "long_seconds": t1 - t0,
                    "short_seconds": t2 - t1,
                }
            )
            state.apply(0, slow_move)
    return records


def markdown(key: str, short: float, long: float, seeds: str, rows: list[dict[str, float]]) -> str:
    searched = [r for r in rows if r["searched"]]
    n = len(searched)
    lines = [
        f"# Think-time probe: {key}, {short:g} s against {long:g} s",
        "",
        f"Seeds {seeds}; {engines()}; {len(rows)} decisions of the probed seat with more than "
        f"one legal move, {n} of them searched (the rest had one candidate).",
        "",
        "| measure | figure |",
        "|---|---|",
    ]
    if n:
        same = sum(r["same"] for r in searched)
        long_full = sum(1 for r in searched if r["long_seconds"] >= 0.95 * long)
        short_full = sum(1 for r in searched if r["short_seconds"] >= 0.95 * short)

        def med(field: str) -> float:
            return statistics.median(r[field] for r in searched)

        lines += [
            f"| same move at {short:g} s and {long:g} s | {same:.0f} of {n} ({same / n:.0%}) |",
            f"| searches that used their whole {long:g} s | {long_full} of {n} |",
            f"| searches that used their whole {short:g} s | {short_full} of {n} |",
            f"| median iterations at {long:g} s | {med('long_iterations'):.0f} |",
            f"| median iterations at {short:g} s | {med('short_iterations'):.0f} |",
            f"| median seconds used at {long:g} s | {med('long_seconds'):.2f} |",
            f"| median seconds used at {short:g} s | {med('short_seconds'):.2f} |",
        ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(SETUPS))
    parser.add_argument("--short", type=float, default=1.0, help="seconds a move (default 1)")
    parser.add_argument("--long", type=float, default=4.0, help="seconds a move (default 4)")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="write the report here too")
    args = parser.parse_args()
    if not 0 < args.short < args.long <= 60:
        parser.error("--short and --long must satisfy 0 < short < long <= 60")
    if not 1 <= args.games <= 1000:
        parser.error("--games must be between 1 and 1000")
    rows = probe(args.game, args.short, args.long, args.games, args.seed)
    seeds = f"{args.seed}-{args.seed + args.games - 1}"
    text = markdown(args.game, args.short, args.long, seeds, rows)
    print(text, end="")
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()

"""ISMCTS at sealed steps that follow one another: Goofspiel and Egyptia.

In Goofspiel (the example game in ``tests/example_game``) every round is a sealed bid, and in
Egyptia every builder's whole round is private, so the game never leaves its sealed step.
This script measures the search there with an iteration budget (deterministic for a seed),
for the current ``karnak.bots.ismcts`` and, with ``--compare FILE``, for another version of
that module (for example the one before a change: ``git show REV:src/karnak/bots/ismcts.py``).

Three tables:

* ``goofspiel``: ``ismcts:<n>`` (no game knowledge: every seat searched in the tree) against
  ``random``, 2 players, seats alternated; wins (a shared win counts half) with a 95% Wilson
  interval.
* ``egyptia-solo``: one builder's final score, mean with a 95% t interval, over seeds
  ``seed .. seed + games - 1``.
* ``egyptia-duel``: ``ismcts:<n>`` against ``heuristic``, 2 builders, seats alternated; wins.

``--mode plain`` searches every seat in the tree (``model_opponents=False``: the path the
sealed-step fix changes); ``--mode policy`` is the bot as built for play (the heuristic moves
the others and the tree branches on the bot's own decisions only). Each result is printed and
appended as one JSON line to ``--json``.

    python bench/ismcts_sealed.py goofspiel --iterations 60,300 --games 40 --compare old.py
    python bench/ismcts_sealed.py egyptia-solo --iterations 200 --games 12 --which current
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
try:
    import karnak  # noqa: F401
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(ROOT / "src"))

from karnak.bots import Budget, SeatView, make_bot  # noqa: E402
from karnak.bots import ismcts as current_ismcts  # noqa: E402
from karnak.bots.arena import mean_interval, wilson_interval  # noqa: E402
from karnak.core import Rng, State, get_game  # noqa: E402
from karnak.core.agent import Bot  # noqa: E402
from karnak.core.game import Game  # noqa: E402


def load_module(path: Path) -> ModuleType:
    """Another version of ``karnak/bots/ismcts.py``, loaded under its own name.

    Its ``register_bot`` call replaces the registry's ``ismcts`` entry, so the current
    module's entry is put back afterwards (this script builds its search bots itself).
    """
    name = f"ismcts_compare_{abs(hash(str(path)))}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    importlib.reload(current_ismcts)
    return module


def search_bot(module: ModuleType, game: Game, iterations: int, mode: str) -> Bot:
    bot = module.make_ismcts(game, Budget(iterations=iterations))
    if mode == "plain":
        bot.model_opponents = False
    return bot  # type: ignore[no-any-return]


def play(state: State, bots: list[Bot], seed: int) -> State:
    rngs = [Rng(seed * 100 + seat) for seat in range(len(bots))]
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bots[seat].choose(SeatView.of(state, seat), rngs[seat]))
    return state


def duel(
    game: Game,
    searcher: Callable[[], Bot],
    other: str,
    games: int,
    seed: int,
) -> dict[str, Any]:
    """``games`` two-seat games, the searcher in seat ``g % 2``; its wins (shared: half)."""
    wins = 0.0
    for g in range(games):
        me = g % 2
        bots = [searcher(), make_bot(other, game)]
        if me == 1:
            bots.reverse()
        state = play(game.new_state(2, seed=seed + g), bots, seed + g)
        winners = state.winners()
        wins += 1 / len(winners) if me in winners else 0.0
    low, high = wilson_interval(wins, games)
    return {"wins": wins, "games": games, "rate": wins / games, "low": low, "high": high}


def solo(game: Game, searcher: Callable[[], Bot], games: int, seed: int) -> dict[str, Any]:
    scores = [
        float(play(game.new_state(1, seed=seed + g), [searcher()], seed + g).scores()[0])
        for g in range(games)
    ]
    mean, half = mean_interval(scores)
    return {"mean": mean, "half": half, "games": games, "scores": scores}


@contextmanager
def goofspiel() -> Iterator[Game]:
    sys.path.insert(0, str(ROOT / "tests"))
    from support.example_game import NAME, installed  # type: ignore[import-not-found]

    with tempfile.TemporaryDirectory() as site, installed(Path(site)):
        yield get_game(NAME)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("table", choices=["goofspiel", "egyptia-solo", "egyptia-duel"])
    parser.add_argument("--iterations", default="200", help="comma-separated budgets")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=["plain", "policy"], default="plain")
    parser.add_argument("--compare", type=Path, help="another version of ismcts.py")
    parser.add_argument("--which", choices=["current", "compare", "both"], default="both")
    parser.add_argument("--json", type=Path, help="append each result as a JSON line")
    args = parser.parse_args()

    versions: dict[str, ModuleType] = {}
    if args.which in ("current", "both"):
        versions["current"] = current_ismcts
    if args.compare is not None and args.which in ("compare", "both"):
        versions["compare"] = load_module(args.compare)

    @contextmanager
    def the_game() -> Iterator[Game]:
        if args.table == "goofspiel":
            with goofspiel() as game:
                yield game
        else:
            yield get_game("egyptia")

    with the_game() as game:
        for iterations in (int(n) for n in args.iterations.split(",")):
            for label, module in versions.items():

                def searcher(module: ModuleType = module, n: int = iterations) -> Bot:
                    return search_bot(module, game, n, args.mode)

                start = time.perf_counter()
                if args.table == "egyptia-solo":
                    result = solo(game, searcher, args.games, args.seed)
                else:
                    other = "random" if args.table == "goofspiel" else "heuristic"
                    result = duel(game, searcher, other, args.games, args.seed)
                row = {
                    "table": args.table,
                    "version": label,
                    "mode": args.mode,
                    "iterations": iterations,
                    "seed": args.seed,
                    "seconds": round(time.perf_counter() - start, 1),
                    **result,
                }
                print(json.dumps(row), flush=True)
                if args.json is not None:
                    with args.json.open("a") as out:
                        out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()

"""Strength of the Amun-Re heuristic against random players, and the speed of its ``act``.

What is measured
    ``--games`` games (default 400) of one ``heuristic`` bot against ``--players - 1``
    (default 3) ``random`` bots. Game ``i`` uses seed ``--seed + i`` and puts the heuristic in
    seat ``i % players``, so every seat is played equally often over a multiple of the player
    count. Every bot decides through the real bot interface (``Bot.choose`` on a
    :class:`~karnak.bots.base.SeatView`) with its own generator derived from the game seed
    and its seat, so any single game can be replayed on its own and the result does not
    depend on how the games are spread over the ``--processes`` worker processes.

    Reported: the games, the heuristic's wins (a shared victory counts as a fraction), its
    win rate with a 95% Wilson score interval, the mean final score of each kind of bot, the
    wall-clock time, and the mean time of one :func:`karnak.games.amunre.bot.act` call
    (timed on the true state at each of the heuristic's decisions; ``act`` reads only what
    its seat may see, so this is the call a search bot makes in its rollouts).

The target is a win rate of at least 90% over 400 games.

Usage::

    python bench/strength_heuristic.py [--games 400] [--seed 1] [--players 4] [--processes 2]
                                       [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import asdict, dataclass
from multiprocessing import Pool
from pathlib import Path

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # the compiled hot paths where built, before any engine is imported

from karnak.bots.base import Bot, SeatView  # noqa: E402
from karnak.bots.random_bot import RandomBot  # noqa: E402
from karnak.core import Rng, get_game  # noqa: E402
from karnak.games.amunre.bot import AmunReHeuristic, act  # noqa: E402
from karnak.games.amunre.rules.state import AmunReState  # noqa: E402

TARGET_WIN_RATE = 0.90
Z95 = 1.959963984540054


@dataclass
class GameResult:
    """One game: where the heuristic sat, its share of the victory, every score, timings."""

    seed: int
    heuristic_seat: int
    heuristic_win: float
    scores: list[int]
    act_seconds: float
    act_calls: int


def play_game(task: tuple[int, int, int]) -> GameResult:
    """Play one seeded game (``seed``, heuristic seat, player count) to the end."""
    seed, hseat, players = task
    game = get_game("amunre")
    state = game.new_state(players, seed=seed)
    assert isinstance(state, AmunReState)
    bots: list[Bot] = [AmunReHeuristic() if s == hseat else RandomBot() for s in range(players)]
    rngs = [Rng(seed * 1_000_003 + 7919 * (s + 1)) for s in range(players)]
    act_seconds = 0.0
    act_calls = 0
    clock = time.perf_counter
    while not state.is_over():
        seat = state.to_move()[0]
        if seat == hseat:
            probe = rngs[seat].copy()
            start = clock()
            act(state, seat, probe)
            act_seconds += clock() - start
            act_calls += 1
        action = bots[seat].choose(SeatView.of(state, seat), rngs[seat])
        state.apply(seat, action)
    winners = state.winners()
    share = 1.0 / len(winners) if hseat in winners else 0.0
    return GameResult(seed, hseat, share, state.scores(), act_seconds, act_calls)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes allowed)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class Summary:
    games: int
    players: int
    seed: int
    processes: int
    heuristic_wins: float
    win_rate: float
    interval_95: tuple[float, float]
    heuristic_mean_score: float
    random_mean_score: float
    seconds: float
    act_microseconds: float
    act_calls: int
    target: float
    target_met: bool


def run(games: int, seed: int, players: int, processes: int) -> Summary:
    tasks = [(seed + i, i % players, players) for i in range(games)]
    start = time.perf_counter()
    if processes > 1:
        with Pool(processes) as pool:
            results = pool.map(play_game, tasks, chunksize=max(1, games // (processes * 8)))
    else:
        results = [play_game(task) for task in tasks]
    seconds = time.perf_counter() - start
    wins = sum(r.heuristic_win for r in results)
    heuristic_scores = [r.scores[r.heuristic_seat] for r in results]
    random_scores = [
        score for r in results for s, score in enumerate(r.scores) if s != r.heuristic_seat
    ]
    calls = sum(r.act_calls for r in results)
    act_seconds = sum(r.act_seconds for r in results)
    rate = wins / games if games else 0.0
    return Summary(
        games=games,
        players=players,
        seed=seed,
        processes=processes,
        heuristic_wins=wins,
        win_rate=rate,
        interval_95=wilson(wins, games),
        heuristic_mean_score=sum(heuristic_scores) / max(1, len(heuristic_scores)),
        random_mean_score=sum(random_scores) / max(1, len(random_scores)),
        seconds=seconds,
        act_microseconds=1e6 * act_seconds / max(1, calls),
        act_calls=calls,
        target=TARGET_WIN_RATE,
        target_met=rate >= TARGET_WIN_RATE,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = parser.parse_args(argv)
    summary = run(args.games, args.seed, args.players, args.processes)
    if args.json:
        print(json.dumps(asdict(summary)))
        return 0
    low, high = summary.interval_95
    print(
        f"Amun-Re: 1 heuristic vs {summary.players - 1} random, {summary.players} players, "
        f"seeds {summary.seed}..{summary.seed + summary.games - 1}, seats rotated, "
        f"{summary.processes} process(es)"
    )
    print(f"games                 {summary.games}")
    print(f"heuristic wins        {summary.heuristic_wins:g}")
    print(f"win rate              {summary.win_rate:.1%}  (95% Wilson {low:.1%} - {high:.1%})")
    print(f"mean score heuristic  {summary.heuristic_mean_score:.1f}")
    print(f"mean score random     {summary.random_mean_score:.1f}")
    print(f"time                  {summary.seconds:.1f} s")
    print(
        f"act                   {summary.act_microseconds:.1f} us per call "
        f"({summary.act_calls} calls)"
    )
    verdict = "met" if summary.target_met else "NOT met"
    print(f"target                win rate >= {summary.target:.0%}: {verdict}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

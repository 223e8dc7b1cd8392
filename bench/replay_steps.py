"""What one step of a finished game's replay costs the server, with and without snapshots.

A replay page asks for the position after each move in turn (``/api/games/{id}/replay/
{step}``). Without snapshots each step is replayed from the first move
(``Room.replayed``); with them (``karnak.server.replays.ReplayCache``) it is played on
from the nearest snapshot. Measured on one long Egyptia game of heuristic builders:
``--window`` steps in a row from each of several points of the game, as someone stepping
through it asks them, and the first step asked at each point (a jump there, nothing
cached near it yet). Processor time, the game's position only (no page drawn).

    python bench/replay_steps.py --seats 99 --window 40 --out bench/results/replay_steps.md
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path
from typing import Any

try:
    import karnak.native
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
    import karnak.native

karnak.native.install()  # before the engines are imported: the server runs compiled too

from karnak.bots.base import SeatView, make_bot  # noqa: E402
from karnak.core import Rng, get_game  # noqa: E402
from karnak.native import engines  # noqa: E402
from karnak.server.replays import ReplayCache  # noqa: E402
from karnak.server.rooms import HUMAN, Room, SeatInfo  # noqa: E402


def finished_game(seats: int, seed: int) -> Room:
    game = get_game("egyptia")
    names = game.seat_names(seats)
    infos = [SeatInfo(s, names[s], HUMAN, None, "h") for s in range(seats)]
    room = Room("bench", game, game.new_state(names, seed=seed), infos, seed)
    bot = make_bot("heuristic", game)
    rng = Rng(seed)
    while not room.is_over:
        seat = room.state.to_move()[0]
        room.accept(seat, bot.choose(SeatView.of(room.state, seat), rng))
    return room


def per_step(call: Any, steps: range) -> tuple[float, float]:
    """Processor seconds of the first step and the mean of the others."""
    times = []
    for step in steps:
        started = time.process_time()
        call(step)
        times.append(time.process_time() - started)
    return times[0], sum(times[1:]) / max(1, len(times) - 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=99)
    parser.add_argument("--window", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    room = finished_game(args.seats, args.seed)
    moves = len(room.accepted)
    lines = [
        "## Replay steps: snapshots against replaying from the first move",
        "",
        f"`python bench/replay_steps.py --seats {args.seats} --window {args.window}`: one "
        f"Egyptia game of {args.seats} heuristic builders, {moves} moves; CPython "
        f"{platform.python_version()}, {platform.machine()}, {engines()}. Processor time "
        f"of one step; {args.window} steps in a row from each point.",
        "",
        "| from step | from the start: a step | snapshots: first step | snapshots: a step |",
        "|---|---|---|---|",
    ]
    cache = ReplayCache()
    for fraction in (0.25, 0.5, 0.75, 1.0):
        first = min(int(moves * fraction), moves - args.window)
        steps = range(first, first + args.window)
        _, plain = per_step(room.replayed, steps)
        jump, cached = per_step(lambda step: cache.room_at(room, step), steps)
        lines.append(
            f"| {first} | {plain * 1000:.1f} ms | {jump * 1000:.1f} ms | {cached * 1000:.2f} ms |"
        )
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

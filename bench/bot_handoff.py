"""What a server bot's decision costs beyond its thinking: handing the position to a worker.

The server's bots decide in worker processes (karnak.server.bot_runner). This measures one
decision's whole path there, for an instant bot (the "medium" level: the heuristic) at a
big Egyptia table, where that path is all a decision costs, two ways:

- ``record``: the game's record is sent and the worker replays every move so far (how the
  server did it until issue 32);
- ``state``: the position is sent (``State.to_json`` of a copy without the event log,
  ``karnak.server.bot_runner.position``) and the worker restores it
  (``Game.state_from_json``), as it does now.

Each way: the server encodes (``record().to_json()`` or ``position(state)``), the arguments
are pickled and unpickled as the process pool does, the worker rebuilds the state and the
bot chooses from its seat's view. Timed (processor time, the least of three calls) at every
``--every``-th decision of one game of heuristic bots, and summed over the whole game from
those samples; both ways must choose the same move.

    python bench/bot_handoff.py --seats 60 99 --every 100 --out bench/results/bot_handoff.md
"""

from __future__ import annotations

import argparse
import pickle
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
from karnak.core.record import GameRecord, replay  # noqa: E402
from karnak.core.state import State  # noqa: E402
from karnak.native import engines  # noqa: E402
from karnak.server.bot_runner import position, think  # noqa: E402

SPEC = "heuristic"
#: Each sample is the quickest of this many calls.
REPEATS = 3


def by_record(state: State, seat: int, seed: int) -> str:
    """The old hand-off: the record, replayed in the worker."""
    sent = pickle.loads(pickle.dumps((state.record().to_json(), seat)))
    rebuilt = replay(GameRecord.from_json(sent[0]), check_result=False)
    bot = make_bot(SPEC, rebuilt.game)
    return bot.choose(SeatView.of(rebuilt, seat), Rng(seed)).to_text()


def by_state(state: State, seat: int, seed: int) -> str:
    """The hand-off now: the position, restored in the worker (the server's own ``think``)."""
    sent = pickle.loads(pickle.dumps((position(state), seat)))
    return think(sent[0], sent[1], SPEC, seed, 600.0, 10_000)


def timed(call: Any, *args: Any) -> tuple[float, str]:
    """The least processor time of :data:`REPEATS` calls (the hand-off runs on one core;
    processor time is what other work on the machine disturbs least), and the answer."""
    best = float("inf")
    for _ in range(REPEATS):
        started = time.process_time()
        answer = call(*args)
        best = min(best, time.process_time() - started)
    return best, answer


def measure(seats: int, every: int, seed: int) -> dict[str, Any]:
    game = get_game("egyptia")
    state = game.new_state(seats, seed=seed)
    bot = make_bot(SPEC, game)
    rng = Rng(seed)
    samples: list[tuple[int, float, float]] = []
    decisions = 0
    while not state.is_over():
        seat = state.to_move()[0]
        if decisions % every == 0:
            old, old_text = timed(by_record, state, seat, decisions)
            new, new_text = timed(by_state, state, seat, decisions)
            if old_text != new_text:
                raise AssertionError(f"decision {decisions}: {old_text!r} != {new_text!r}")
            samples.append((decisions, old, new))
        state.apply(seat, bot.choose(SeatView.of(state, seat), rng))
        decisions += 1
    return {"seats": seats, "decisions": decisions, "every": every, "samples": samples}


def report(runs: list[dict[str, Any]]) -> str:
    lines = [
        "## Bot hand-off: the position instead of the record",
        "",
        f"`python bench/bot_handoff.py`: one Egyptia game of `{SPEC}` bots (the medium level) "
        f"per table size; CPython {platform.python_version()}, {platform.machine()}, "
        f"{engines()}. Per decision (processor time): encode, pickle both ways, rebuild in the "
        "worker, choose; the whole game is summed from every "
        f"{runs[0]['every']}th decision.",
        "",
        "| seats | decisions | at decision | record replayed | state sent | faster |",
        "|---|---|---|---|---|---|",
    ]
    for run in runs:
        samples = run["samples"]
        picks = sorted({0, len(samples) // 4, len(samples) // 2, 3 * len(samples) // 4})
        picks.append(len(samples) - 1)
        for index in dict.fromkeys(picks):
            at, old, new = samples[index]
            lines.append(
                f"| {run['seats']} | {run['decisions']} | {at} | {old * 1000:.1f} ms "
                f"| {new * 1000:.1f} ms | {old / new:.1f}x |"
            )
        # each sample stands for ``every`` decisions
        old_total = sum(s[1] for s in samples) * run["every"]
        new_total = sum(s[2] for s in samples) * run["every"]
        lines.append(
            f"| {run['seats']} | {run['decisions']} | **whole game** | **{old_total:.0f} s** "
            f"| **{new_total:.1f} s** | **{old_total / new_total:.1f}x** |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[60, 99])
    parser.add_argument("--every", type=int, default=100, help="time every N-th decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    runs = [measure(seats, args.every, args.seed) for seats in args.seats]
    text = report(runs)
    print(text)
    if args.out:
        args.out.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()

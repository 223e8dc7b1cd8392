"""Regenerate the golden Amun-Re games that ``test_golden.py`` replays.

Run ``python tests/golden/regenerate.py`` ONLY when a change of the engine's behaviour is
intended and the game's version (``AmunRe.version``) has been bumped; review the diff of the
regenerated files before committing them. Goldens of older rules versions are kept as they
are: the engine still plays those versions, and the files prove that an old record replays
exactly as it was played. Only the goldens of the newest version are written again (add
them to ``GOLDENS`` under the new version's number).

Each golden game is played by random bots (seat ``s`` uses ``Rng(seed * 10 + s)``) and stored as
  <name>.record.json    the game record (replayable with ``karnak.core.replay``)
  <name>.log.txt        the omniscient log, one line per event
  <name>.seat0.log.txt  the log as seat 0 sees it

The golden playthroughs of every game (playthroughs/generate.py) and the rules for writing
any golden file again are described in tests/golden/README.md.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from karnak.bots.base import play_out
from karnak.bots.random_bot import RandomBot
from karnak.core import GameRecord, Rng, get_game
from karnak.core.state import State

HERE = Path(__file__).resolve().parent
SEAT_LOGS = (0,)


@dataclass(frozen=True)
class Golden:
    name: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    #: The rules version the game was played under.
    version: str = "1.0"

    def path(self, suffix: str) -> Path:
        return HERE / f"{self.name}.{suffix}"

    def seat_log(self, seat: int) -> Path:
        return self.path(f"seat{seat}.log.txt")


# Seeds chosen for coverage (searched over 1-399): the random bots play 15 of the 17 action
# kinds in the plain game (all but pick and bonus) and 16 in the expert game (all but bonus).
EXPERT_2016 = {"edition": "2016", "expert_provinces": True}
GOLDENS = (
    # rules version 1.0 (rewards past the second by offer size; harvest increase on farmers)
    Golden("amunre-4p-seed9", 4, 9),
    Golden("amunre-4p-expert-2016-seed26", 4, 26, EXPERT_2016),
    # rules version 1.1
    Golden("amunre-1.1-4p-seed9", 4, 9, version="1.1"),
    Golden("amunre-1.1-4p-expert-2016-seed26", 4, 26, EXPERT_2016, version="1.1"),
)


def play(golden: Golden) -> State:
    game = get_game("amunre").at_version(golden.version)
    state = game.new_state(golden.players, seed=golden.seed, options=golden.options)
    bots = [RandomBot() for _ in range(golden.players)]
    play_out(state, bots, [Rng(golden.seed * 10 + s) for s in range(golden.players)])
    return state


def record_of(state: State) -> GameRecord:
    record = state.record()
    record.result = {"scores": state.scores(), "winners": state.winners()}
    return record


def write_lines(path: Path, lines: list[str]) -> None:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def regenerate(golden: Golden) -> None:
    state = play(golden)
    record_of(state).save(golden.path("record.json"))
    write_lines(golden.path("log.txt"), state.log_lines(everything=True))
    for seat in SEAT_LOGS:
        write_lines(golden.seat_log(seat), state.log_lines(seat))
    print(f"{golden.name}: {len(state.history)} actions, scores {state.scores()}")


def main() -> int:
    newest = get_game("amunre").version
    for golden in GOLDENS:
        if golden.version == newest:
            regenerate(golden)
    return 0


if __name__ == "__main__":
    sys.exit(main())

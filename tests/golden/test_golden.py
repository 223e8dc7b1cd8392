"""Golden playthroughs: recorded Amun-Re games must replay to the same logs and scores.

Each golden game replays under the rules version it was recorded with, so the goldens of
older versions prove that old records still replay exactly. A mismatch means the engine now
plays differently. If that is intended, bump ``AmunRe.version``
(``src/karnak/games/amunre/rules/game.py``), add goldens for the new version and run
``python tests/golden/regenerate.py``; otherwise it is a regression.
"""

from __future__ import annotations

import difflib
import importlib.util
import sys
from pathlib import Path

import pytest

from karnak.core import GameRecord, RecordError, get_game, replay

_spec = importlib.util.spec_from_file_location(
    "amunre_golden_regenerate", Path(__file__).with_name("regenerate.py")
)
assert _spec is not None and _spec.loader is not None
regen = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = regen
_spec.loader.exec_module(regen)

GAME = get_game("amunre")
HOW_TO_FIX = (
    "If this change of behaviour is intended, bump AmunRe.version in "
    "src/karnak/games/amunre/rules/game.py, add goldens for it in tests/golden/regenerate.py and "
    "run `python tests/golden/regenerate.py` (then review the regenerated files); otherwise "
    "the engine has a regression."
)
SHOWN_DIFF_LINES = 60


def load_record(golden: regen.Golden) -> GameRecord:
    path = golden.path("record.json")
    if not path.exists():
        pytest.fail(f"{path.name} is missing: run `python tests/golden/regenerate.py`")
    return GameRecord.load(path)


def replayed(golden: regen.Golden):  # type: ignore[no-untyped-def]
    record = load_record(golden)
    assert record.version == golden.version, f"{golden.name} names another rules version"
    try:
        return record, replay(record, check_result=False)
    except RecordError as exc:
        pytest.fail(
            f"{golden.name} no longer replays: {exc}.\n"
            "The engine now refuses an action it accepted when the game was recorded. " + HOW_TO_FIX
        )


def compare_lines(golden: regen.Golden, what: str, path: Path, actual: list[str]) -> None:
    expected = regen.read_lines(path)
    if actual == expected:
        return
    first = next(
        (i for i, (e, a) in enumerate(zip(expected, actual, strict=False)) if e != a),
        min(len(expected), len(actual)),
    )
    diff = list(
        difflib.unified_diff(
            expected, actual, fromfile=f"{path.name} (golden)", tofile="replay (now)", lineterm=""
        )
    )
    shown = "\n".join(diff[:SHOWN_DIFF_LINES])
    if len(diff) > SHOWN_DIFF_LINES:
        shown += f"\n... ({len(diff) - SHOWN_DIFF_LINES} more diff lines)"
    pytest.fail(
        f"{golden.name}: {what} differs from the golden file from line {first + 1} on "
        f"(golden {len(expected)} lines, replay {len(actual)} lines).\n{shown}\n\n{HOW_TO_FIX}",
        pytrace=False,
    )


@pytest.mark.parametrize("golden", regen.GOLDENS, ids=lambda g: g.name)
def test_golden_game_replays_identically(golden: regen.Golden) -> None:
    record, state = replayed(golden)
    assert state.game.version == golden.version
    assert record.seed == golden.seed and len(record.seats) == golden.players
    assert GAME.resolve_options(record.options) == GAME.resolve_options(golden.options)
    assert state.is_over(), f"{golden.name}: the replayed game did not end. {HOW_TO_FIX}"
    compare_lines(
        golden, "the omniscient log", golden.path("log.txt"), state.log_lines(everything=True)
    )
    for seat in regen.SEAT_LOGS:
        compare_lines(golden, f"seat {seat}'s log", golden.seat_log(seat), state.log_lines(seat))
    assert record.result is not None, f"{golden.name}: the record has no result"
    assert state.scores() == record.result["scores"], (
        f"{golden.name}: final scores {state.scores()} differ from the golden "
        f"{record.result['scores']}. {HOW_TO_FIX}"
    )
    assert state.winners() == record.result["winners"], (
        f"{golden.name}: winners {state.winners()} differ from the golden "
        f"{record.result['winners']}. {HOW_TO_FIX}"
    )


@pytest.mark.parametrize("golden", regen.GOLDENS, ids=lambda g: g.name)
def test_golden_seat_log_hides_what_the_seat_may_not_see(golden: regen.Golden) -> None:
    """The stored seat log is the omniscient log minus the other seats' private lines."""
    omniscient = regen.read_lines(golden.path("log.txt"))
    for seat in regen.SEAT_LOGS:
        seen = regen.read_lines(golden.seat_log(seat))
        it = iter(omniscient)
        assert all(line in it for line in seen), "a seat log is a subsequence of the full log"
        hidden = len(omniscient) - len(seen)
        assert hidden > 0, "other seats' draws and sealed commitments are not in the seat log"


def test_the_newest_rules_version_has_goldens() -> None:
    assert {g.version for g in regen.GOLDENS} >= {GAME.version}


def test_a_newer_rules_version_plays_these_games_differently() -> None:
    """The 1.1 goldens are not copies of the 1.0 ones: the change of rules shows."""
    by_name = {g.name: g for g in regen.GOLDENS}
    old = regen.read_lines(by_name["amunre-4p-seed9"].path("log.txt"))
    new = regen.read_lines(by_name["amunre-1.1-4p-seed9"].path("log.txt"))
    assert old != new

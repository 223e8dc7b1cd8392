"""The sheet data file: what it holds, a corrected copy loaded and carried by records, and
malformed files refused with the place of the mistake."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from karnak.core import replay
from karnak.core.errors import BoardDataError
from karnak.core.record import GameRecord
from karnak.games.egyptia import GAME, Egyptia
from karnak.games.egyptia.rules.actions import Build, Choose
from karnak.games.egyptia.rules.sheet import DEFAULT_SHEET, load_sheet, parse_sheet

RAW = tomllib.loads(DEFAULT_SHEET.read_text(encoding="utf-8"))


def raw() -> dict[str, Any]:
    return copy.deepcopy(RAW)


def test_the_shipped_sheet_and_its_confidences() -> None:
    sheet = load_sheet()
    assert [d.sides for d in sheet.dice] == [4, 6, 8, 10, 12, 20]
    assert sheet.confidence["dice.d4"] == "printed"
    assert sheet.confidence["dice.d20"] == "reconstructed"
    assert (
        sheet.costs["quarry"] == (2, 1, 0, 0) and sheet.confidence["buildings.quarry"] == "printed"
    )
    assert sheet.costs["mine"] == (1, 0, 2, 0)
    assert sheet.confidence["buildings.pyramid"] == "reconstructed"
    assert len(sheet.hexes) == 19 and len(sheet.buildable) == 18
    assert sheet.confidence["map"] == "reconstructed"
    assert len(sheet.ships) == 3 and sheet.dots == (18, 18, 18, 12)
    assert sorted({c.letter for c in sheet.cards}) == list("ABCDE") and len(sheet.cards) == 15
    assert (
        sheet.card("D2").confidence == "reconstructed" and sheet.card("A2").confidence == "printed"
    )
    # each die's columns cover its faces exactly once, favor on the top faces
    for die in sheet.dice:
        assert len(die.columns) == die.sides and die.columns[-1] == 3 and die.columns[0] == 0


def test_a_corrected_sheet_plays_and_its_record_replays_elsewhere(tmp_path: Path) -> None:
    # what a player with the printed sheet does: copy the file and correct some lines
    text = DEFAULT_SHEET.read_text(encoding="utf-8")
    text = text.replace("cost = { stone = 1, diamond = 2 }", "cost = { stone = 2, diamond = 1 }")
    start, end = text.index("rows = ["), text.index("river =")
    text = text[:start] + 'rows = [" S . .", ". O . S", " . . ."]\n' + text[end:]
    path = tmp_path / "sheet.toml"
    path.write_text(text, encoding="utf-8")
    sheet = load_sheet(path)
    assert sheet.costs["obelisk"] == (0, 1, 2, 0)
    assert [h.label for h in sheet.hexes if h.sacred] == ["A1", "B4"]
    game = GAME.with_sheet(sheet)
    state = game.new_state(2, seed=1)
    for seat in range(2):
        state.apply(seat, Choose(0))
    for seat in range(2):
        if state.stage[seat] == "plague":
            state.apply_text(seat, "plague death")
        state.apply(seat, Build("mound", "A2"))
        state.apply_text(seat, "gain 1f")
    record = state.record()
    assert record.variant is not None
    again = GameRecord.from_json(record.to_json())
    assert replay(again, check_result=False) == state


def test_the_shipped_sheet_needs_no_variant() -> None:
    assert GAME.variant_data() is None
    assert Egyptia(load_sheet()).variant_data() is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "'format' must be"),
        (lambda d: d["dice"][1].update(grain="1-3"), "d6: the value 3 is in two columns"),
        (lambda d: d["dice"][1].update(favor="7"), "d6: the columns must cover the values 1 to 6"),
        (lambda d: d["dice"][0].update(building="temple"), "d4: building must be one of"),
        (lambda d: d["dice"][0].update(grain="x-2"), "d4.grain: cannot read 'x-2'"),
        (lambda d: d["buildings"].pop("field"), r"\[buildings.field\] is missing"),
        (lambda d: d["buildings"]["mine"].update(cost={"gold": 1}), "mine.cost: unknown resource"),
        (lambda d: d["buildings"]["mine"].update(productivity="favor"), "productivity must be"),
        (lambda d: d["map"].update(rows=[". . .", " O O"]), "exactly one Oasis"),
        (lambda d: d["map"].update(rows=[". . O", ". . ."]), "map row 2: hexes must sit"),
        (lambda d: d["map"].update(rows=[". X O"]), "map row 1 has 'X'"),
        (lambda d: d["ships"][1].update(number=5), "ships must be numbered"),
        (lambda d: d["tracks"]["grain"].update(start=17), "tracks.grain: the starting dots"),
        (lambda d: d["tracks"].pop("favor"), "tracks.favor must be a table"),
        (lambda d: d["cards"][0].update(rule="nonsense"), "card A1: rule must be one of"),
        (lambda d: d["cards"][0].update(rule=[1]), "card A1: rule must be one of"),
        (lambda d: d["cards"][0].update(points=[5]), "card A1: the rule pyramid_by_oasis takes 2"),
        (lambda d: d.update(cards=[c for c in d["cards"] if c["id"][0] != "E"]), "letter E"),
        (lambda d: d["ranks"].reverse(), "ranks must be listed from the lowest"),
        (lambda d: d["scoring"].update(favor_per_point=0), "scoring.favor_per_point"),
    ],
)
def test_malformed_sheets_are_refused_with_the_place(change: Any, message: str) -> None:
    data = raw()
    change(data)
    with pytest.raises(BoardDataError, match=message):
        parse_sheet(data, source="my-sheet.toml")


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError, match="cannot read the sheet file"):
        load_sheet(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("format = ", encoding="utf-8")
    with pytest.raises(BoardDataError, match="is not valid TOML"):
        load_sheet(bad)


def test_the_columns_of_a_roll_are_each_dies_column() -> None:
    # columns_of reads each die's column from a table into a key and remembers the answer
    # by it: it must agree with the dice themselves for every roll, new or seen before,
    # and with values set by hand that the dice read (0 and negatives) or refuse.
    from karnak.core import Rng

    sheet = load_sheet(DEFAULT_SHEET)
    rng = Rng(11)
    for _ in range(3000):
        roll = [rng.below(d.sides + 3) - 1 for d in sheet.dice]  # -1 to sides + 1
        expected: list[list[int]] = [[], [], [], []]
        try:
            for i, (die, value) in enumerate(zip(sheet.dice, roll, strict=True)):
                expected[die.column_of(value)].append(i)
        except IndexError:
            with pytest.raises(IndexError):
                sheet.columns_of(roll)
            continue
        assert sheet.columns_of(roll) == tuple(tuple(c) for c in expected)
        assert sheet.columns_of(tuple(roll)) == sheet.columns_of(roll)
    with pytest.raises(IndexError):
        sheet.columns_of([1, 2])

"""Board data: the shipped figures satisfy what the rule books imply; bad files fail clearly."""

import tomllib
from pathlib import Path
from typing import Any

import pytest

from karnak.core.errors import BoardDataError
from karnak.games.amunre.rules.board import (
    CONFIDENCES,
    default_board,
    default_board_text,
    load_board,
    parse_board,
)


def _raw() -> dict[str, Any]:
    return tomllib.loads(default_board_text())


def test_shipped_board_matches_the_books_bounds() -> None:
    board = default_board()
    provinces = {p.name: p for p in board.provinces}
    assert len(provinces) == 15
    assert sum(p.half == "lower" for p in board.provinces) == 7  # 2016 board: 7 lower, 8 upper
    assert board.total_cards == 39
    assert board.bid_spaces == (0, 1, 3, 6, 10, 15, 21, 28, 36)
    # Worked examples: Memphis limit 3, Buto and Mendes 0, Thebes 2, Baharya 2 printed farmers
    # and 2 empty fields, Berenike no fields, Damanhur 2 temples, Edfu west, Abu/Berenike east.
    assert provinces["MEMPHIS"].card_limit == 3
    assert provinces["BUTO"].card_limit == provinces["MENDES"].card_limit == 0
    assert provinces["THEBES"].card_limit == 2
    assert (provinces["BAHARYA"].printed_farmers, provinces["BAHARYA"].fields) == (2, 2)
    assert provinces["BERENIKE"].fields == 0
    assert provinces["DAMANHUR"].temples == 2
    assert provinces["EDFU"].side == "west"
    assert provinces["ABU"].side == provinces["BERENIKE"].side == "east"
    assert provinces["BUTO"].fields >= 5 and provinces["MENDES"].fields >= 4
    assert max(p.card_symbols for p in board.provinces) >= 4  # someone can buy 4 cards
    # The power-card bonus (7 symbols over 3 provinces) is reachable.
    best_three = sorted((p.card_symbols for p in board.provinces), reverse=True)[:3]
    assert sum(best_three) >= 7


def test_every_figure_has_a_known_confidence() -> None:
    for province in default_board().provinces:
        assert set(province.confidence.values()) <= set(CONFIDENCES)
        assert "half" in province.confidence


def test_temple_track_boundaries() -> None:
    board = default_board()
    assert [board.temple_space(t) for t in (-12, 2, 3, 12, 13, 22, 23, 60)] == [
        1,
        1,
        2,
        2,
        3,
        3,
        4,
        4,
    ]


def test_corrected_board_file_loads(tmp_path: Path) -> None:
    text = default_board_text().replace("fields = 5", "fields = 6", 1)
    path = tmp_path / "board.toml"
    path.write_text(text)
    board = load_board(path)
    assert board.province("BUTO").fields == 6
    assert board.source == str(path)


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["provinces"]["ABU"].pop("fields"), r"\[provinces.ABU\]: missing 'fields'"),
        (lambda d: d["provinces"]["ABU"].update(fields=-1), "between 0 and 20, not -1"),
        (lambda d: d["provinces"]["ABU"].update(side="north"), "'side' must be"),
        (lambda d: d["provinces"]["ABU"].update(nile="yes"), "'nile' must be true or false"),
        (lambda d: d["provinces"]["ABU"].update(colour=1), "unknown field"),
        (lambda d: d["provinces"]["ABU"].update(reconstructed=["size"]), "unknown field 'size'"),
        (lambda d: d["provinces"].pop("ABU"), "needs 15 provinces"),
        (lambda d: d["power_cards"].pop(), "12 kinds"),
        (lambda d: d["power_cards"][0].update(id="joker"), "unknown card id"),
        (lambda d: d["constants"].update(bid_spaces=[0, 3, 1]), "rise strictly"),
        (lambda d: d.update(format="v0"), "'format' must be"),
    ],
)
def test_bad_boards_fail_with_the_place_named(mutate: Any, message: str) -> None:
    data = _raw()
    mutate(data)
    with pytest.raises(BoardDataError, match=message):
        parse_board(data, source="mine.toml")


def test_unreadable_files_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(BoardDataError, match="cannot read"):
        load_board(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("provinces = [")
    with pytest.raises(BoardDataError, match="not valid TOML"):
        load_board(bad)


def test_games_on_different_boards_keep_their_own_moves() -> None:
    """Each game owns the action catalogue of its board; boards never share or swap them."""
    from karnak.games.amunre import GAME

    for _ in range(50):  # boards come and go, as in a server loading corrected files
        data = _raw()
        data["constants"]["bid_spaces"] = [0, 2, 4, 6, 10, 15, 21, 28, 36]
        odd = GAME.with_board(parse_board(data, source="odd.toml"))
        state = odd.new_state(3, seed=1)
        amounts = {a.amount for a in state.legal_actions(state.current) if hasattr(a, "amount")}
        assert amounts <= {0, 2, 4, 6, 10, 15}
        plain = GAME.new_state(3, seed=1)
        amounts = {a.amount for a in plain.legal_actions(plain.current) if hasattr(a, "amount")}
        assert amounts <= {0, 1, 3, 6, 10, 15}

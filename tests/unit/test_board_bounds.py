"""Every number of every game's data file has bounds, and so has the file itself.

A corrected board file is trusted data, but a typo such as ``card_limit = 100000000`` used
to be accepted and then cost gigabytes. Each figure now has a generous range; a value
outside it is refused naming the key, the value and the range; and a board with every
figure at the edge of its range still plays a whole game quickly.
"""

from __future__ import annotations

import copy
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from karnak.bots import make_bot
from karnak.bots.base import SeatView
from karnak.core import Game, Rng
from karnak.core.datafile import MAX_DATA_FILE_BYTES, MAX_LINE_CHARS, read_toml
from karnak.core.errors import BoardDataError
from karnak.games.amunre import GAME as AMUNRE
from karnak.games.amunre.rules import board as amunre
from karnak.games.aton import GAME as ATON
from karnak.games.aton.rules import board as aton
from karnak.games.egyptia import GAME as EGYPTIA
from karnak.games.egyptia.rules import sheet as egyptia

Data = dict[str, Any]


def amunre_raw() -> Data:
    return tomllib.loads(amunre.default_board_text())


def aton_raw() -> Data:
    return tomllib.loads(aton.DEFAULT_BOARD.read_text(encoding="utf-8"))


def egyptia_raw() -> Data:
    return tomllib.loads(egyptia.DEFAULT_SHEET.read_text(encoding="utf-8"))


def refused(parse: Callable[[Data], object], data: Data, *parts: str) -> str:
    """``parse(data)`` fails with one message naming every one of ``parts``."""
    with pytest.raises(BoardDataError) as caught:
        parse(data)
    message = str(caught.value)
    for part in parts:
        assert part in message, message
    return message


# ---------------------------------------------------------------------- Amun-Re
def test_the_briefs_examples_are_refused() -> None:
    data = amunre_raw()
    data["provinces"]["THEBES"]["card_limit"] = 100_000_000
    refused(amunre.parse_board, data, "[provinces.THEBES]", "'card_limit'", "100000000", "0 and 10")
    data = amunre_raw()
    data["constants"]["start_gold"] = 1_000_000_000
    refused(amunre.parse_board, data, "[constants]", "'start_gold'", "1000000000", "0 and 100")


@pytest.mark.parametrize("key", sorted(amunre.PROVINCE_BOUNDS))
def test_amunre_province_figures_are_bounded(key: str) -> None:
    low, high = amunre.PROVINCE_BOUNDS[key]
    for bad in (low - 1, high + 1):
        data = amunre_raw()
        data["provinces"]["ABU"][key] = bad
        refused(amunre.parse_board, data, f"'{key}'", str(bad), f"between {low} and {high}")
    data = amunre_raw()
    data["provinces"]["ABU"][key] = high
    assert getattr(amunre.parse_board(data).province("ABU"), key) == high


@pytest.mark.parametrize("key", sorted(amunre.CONSTANT_BOUNDS))
def test_amunre_constants_are_bounded(key: str) -> None:
    low, high = amunre.CONSTANT_BOUNDS[key]
    for bad in (low - 1, high + 1, 10**60):
        data = amunre_raw()
        data["constants"][key] = bad
        refused(amunre.parse_board, data, f"'{key}'", str(bad)[:20], f"between {low} and {high}")


def test_amunre_supplies_and_card_counts_are_bounded() -> None:
    data = amunre_raw()
    data["constants"]["farmers"]["2016"] = amunre.FARMER_BOUNDS[1] + 1
    refused(amunre.parse_board, data, "'2016'", "between 1 and")
    data = amunre_raw()
    data["power_cards"][3]["count"] = 10**9
    refused(amunre.parse_board, data, "power_cards[3]", "'count'", "1000000000", "between 1 and")
    data = amunre_raw()
    data["power_cards"] *= 1000
    refused(amunre.parse_board, data, "12 kinds", "12,000 entries")


@pytest.mark.parametrize("key", sorted(amunre.LIST_BOUNDS))
def test_amunre_lists_are_bounded(key: str) -> None:
    fewest, most, low, high = amunre.LIST_BOUNDS[key]
    data = amunre_raw()
    data["constants"][key] = list(range(most + 1))
    refused(amunre.parse_board, data, f"'{key}'", f"{fewest} to {most} values", str(most + 1))
    data = amunre_raw()
    data["constants"][key] = [*data["constants"][key][:-1], high + 1]
    refused(amunre.parse_board, data, f"'{key}'", str(high + 1), f"between {low} and {high}")


def test_amunre_province_count_is_bounded() -> None:
    data = amunre_raw()
    abu = data["provinces"]["ABU"]
    data["provinces"].update({f"P{i}": dict(abu) for i in range(amunre.PROVINCE_COUNT_BOUNDS[1])})
    refused(amunre.parse_board, data, "at most 40 provinces", "55")


def test_amunre_rounds_need_provinces_enough() -> None:
    # Five players each take a province a round; a kingdom's provinces do not come back.
    data = amunre_raw()
    data["constants"]["rounds_per_kingdom"] = 4
    refused(amunre.parse_board, data, "'rounds_per_kingdom' = 4 needs 20 provinces", "has 15")


# ---------------------------------------------------------------------- Aton
@pytest.mark.parametrize("key", sorted(aton.CONSTANT_BOUNDS))
def test_aton_constants_are_bounded(key: str) -> None:
    low, high = aton.CONSTANT_BOUNDS[key]
    expected = f"must be {low}," if low == high else f"between {low} and {high}"
    for bad in (low - 1, high + 1):
        data = aton_raw()
        data["constants"][key] = bad
        refused(aton.parse_board, data, f"constants.{key}", str(bad), expected)


def test_aton_bonus_points_are_bounded() -> None:
    data = aton_raw()
    data["temples"][0]["bonus"]["12"] = 10**12
    refused(aton.parse_board, data, "bonus square 12", str(10**12), "between 1 and 20")
    data = aton_raw()
    data["temples"][0]["bonus"]["1" * 5000] = 1
    message = refused(aton.parse_board, data, "is not a square number")
    assert len(message) < 200


# ---------------------------------------------------------------------- Egyptia
EGYPTIA_CASES: list[tuple[str, Callable[[Data], object], tuple[str, ...]]] = [
    ("dice count", lambda d: d["dice"].extend([d["dice"][0]] * 12), ("[[dice]]", "1 to 12")),
    ("die sides", lambda d: d["dice"][5].update(die=10**8), ("dice.die", "100000000", "4 and")),
    (
        "a range past the die",
        lambda d: d["dice"][5].update(favor="18-100000000"),
        ("d20: the columns must cover the values 1 to 20", "favor = '18-100000000' goes past"),
    ),
    (
        "a face past the die",
        lambda d: d["dice"][0].update(favor=9),
        ("d4: the columns must cover the values 1 to 4", "favor = 9 goes past"),
    ),
    (
        "a cost",
        lambda d: d["buildings"]["mine"]["cost"].update(stone=10**6),
        ("buildings.mine.cost.stone", "1000000", "between 0 and 20"),
    ),
    (
        "productivity steps",
        lambda d: d["productivity"].update(steps=list(range(1, 100))),
        ("productivity.steps", "1 to 10 entries", "99"),
    ),
    (
        "a productivity step",
        lambda d: d["productivity"].update(steps=[1, 2, 3, 4000]),
        ("productivity.steps", "4000", "between 1 and 20"),
    ),
    (
        "a surcharge",
        lambda d: d["surcharges"].update(burial_mound_basic=10**5),
        ("surcharges.burial_mound_basic", "100000", "between 0 and 10"),
    ),
    (
        "the map's hexes",
        lambda d: d["map"].update(rows=[". " * 60 + "O", " ." * 60]),
        ("at most 100 hexes",),
    ),
    (
        "the map's rows",
        lambda d: d["map"].update(rows=[". O", *[". ."] * 30]),
        ("at most 26 rows",),
    ),
    ("ships", lambda d: d["ships"].extend([d["ships"][0]] * 20), ("[[ships]]", "0 to 10")),
    (
        "a ship's gift",
        lambda d: d["ships"][0]["gives"].update(favor=999),
        ("ship 1.gives.favor", "999", "between 0 and 20"),
    ),
    (
        "a track",
        lambda d: d["tracks"]["grain"].update(dots=10**7),
        ("tracks.grain.dots", "10000000", "between 1 and 100"),
    ),
    (
        "a track's start",
        lambda d: d["tracks"]["stone"].update(start=19),
        ("tracks.stone.start", "19", "between 0 and 18"),
    ),
    (
        "scoring",
        lambda d: d["scoring"].update(ship_points=10**9),
        ("scoring.ship_points", "1000000000", "between 0 and 100"),
    ),
    ("ranks", lambda d: d["ranks"].extend([d["ranks"][-1]] * 30), ("[[ranks]]", "1 to 20")),
    (
        "a rank",
        lambda d: d["ranks"][-1].update({"from": 10**6}),
        ("ranks.from", "1000000", "between 0 and 10000"),
    ),
    ("cards", lambda d: d["cards"].extend(d["cards"] * 10), ("[[cards]]", "5 to 100")),
    (
        "a card's points",
        lambda d: d["cards"][10].update(points=[2] * 1000),
        ("card D2.points", "1 to 100 entries", "1,000"),
    ),
    (
        "a card's point",
        lambda d: d["cards"][0].update(points=[5, 10**6]),
        ("card A1.points", "1000000", "between 0 and 1000"),
    ),
]


@pytest.mark.parametrize(
    ("what", "change", "parts"), EGYPTIA_CASES, ids=[c[0] for c in EGYPTIA_CASES]
)
def test_egyptia_figures_are_bounded(
    what: str, change: Callable[[Data], object], parts: tuple[str, ...]
) -> None:
    data = egyptia_raw()
    change(data)
    refused(egyptia.parse_sheet, data, *parts)


# ---------------------------------------------------------------------- the files themselves
@pytest.mark.parametrize("load", [amunre.load_board, aton.load_board, egyptia.load_sheet])
def test_a_huge_data_file_is_refused_without_being_read(
    load: Callable[[Path], object], tmp_path: Path
) -> None:
    path = tmp_path / "huge.toml"
    with open(path, "wb") as handle:
        handle.truncate(1_000_000_000)  # sparse: costs no disk, and is never read
    start = time.perf_counter()
    with pytest.raises(BoardDataError, match=r"holds 1,000,000,000 bytes; .* at most 1 MB"):
        load(path)
    assert time.perf_counter() - start < 1


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_stream_is_read_only_to_the_limit() -> None:
    with pytest.raises(BoardDataError, match=f"more than {MAX_DATA_FILE_BYTES:,} bytes"):
        read_toml("/dev/zero")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "is not a text file in UTF-8"),
        (b'format = "caf\xe9"', "is not a text file in UTF-8"),
        (b"a = " + b"[" * 100_000 + b"]" * 100_000, "line 1 has 200,004 characters"),
        (b"a = " + b"[" * 900 + b"]" * 900, "nested too deeply"),
        (b"a." * 100_000 + b"b = 1", f"may have at most {MAX_LINE_CHARS:,}"),
        (b"a = 1" + b"9" * 5000, "line 1 has 5,005 characters"),
    ],
)
def test_data_files_that_are_not_toml_are_refused(
    content: bytes, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.toml"
    path.write_bytes(content)
    with pytest.raises(BoardDataError, match=message):
        read_toml(path)


# ---------------------------------------------------------------------- the edges still play
def play_to_the_end(game: Game, players: int, seconds: float) -> None:
    """Random bots finish a game of ``game`` well within ``seconds``."""
    state = game.new_state(players, seed=3)
    bot, rng = make_bot("random", game), Rng(3)
    start = time.perf_counter()
    while not state.is_over():
        seat = state.to_move()[0]
        state.apply(seat, bot.choose(SeatView.of(state, seat), rng))
        assert time.perf_counter() - start < seconds
    assert state.is_over()


def amunre_edge(high: bool) -> amunre.Board:
    data = amunre_raw()
    constants = data["constants"]
    pick = 1 if high else 0
    for key, bounds in amunre.CONSTANT_BOUNDS.items():
        constants[key] = bounds[pick]
    constants["farmers"] = dict.fromkeys(("2003", "2016"), amunre.FARMER_BOUNDS[pick])
    for key, (fewest, most, low, top) in amunre.LIST_BOUNDS.items():
        count = most if high else fewest
        step = max(1, (top - low) // count)
        values = [top - step * i for i in range(count)][::-1] if high else [max(low, 0)]
        constants[key] = values
    constants["bid_spaces"] = [0, *constants["bid_spaces"][1:]]
    for card in data["power_cards"]:
        card["count"] = amunre.CARD_COUNT_BOUNDS[pick]
    if high:
        abu = data["provinces"]["ABU"]
        extra = amunre.PROVINCE_COUNT_BOUNDS[1] - len(data["provinces"])
        data["provinces"].update({f"EXTRA{i}": copy.deepcopy(abu) for i in range(extra)})
    for province in data["provinces"].values():
        for key, bounds in amunre.PROVINCE_BOUNDS.items():
            province[key] = bounds[pick]
    return amunre.parse_board(data, source="edge.toml")


def aton_edge(high: bool) -> aton.Board:
    data = aton_raw()
    pick = 1 if high else 0
    for key, bounds in aton.CONSTANT_BOUNDS.items():
        data["constants"][key] = bounds[pick]
    size = data["constants"]["squares_per_temple"]
    for temple in data["temples"]:
        for colour in aton.COLOURS:
            temple[colour] = [n for n in range(1, size) if n % 4 == aton.COLOURS.index(colour)]
        temple["bonus"] = {str(size): aton.BONUS_BOUNDS[pick]}
    return aton.parse_board(data, source="edge.toml")


def egyptia_edge() -> egyptia.Sheet:
    """Every figure at its highest: twelve dice up to a d100, a map of 100 hexes, ..."""
    data = egyptia_raw()
    kinds = [*egyptia.BUILDINGS, egyptia.WILD]
    data["dice"] = []
    for i in range(egyptia.DICE_BOUNDS[1]):
        sides = egyptia.SIDES_BOUNDS[1] - i
        q = sides // 4
        data["dice"].append(
            {
                "die": sides,
                "building": kinds[i % len(kinds)],
                "grain": f"1-{q}",
                "diamond": f"{q + 1}-{2 * q}",
                "stone": f"{2 * q + 1}-{3 * q}",
                "favor": f"{3 * q + 1}-{sides}",
            }
        )
    top = egyptia.SURCHARGE_BOUNDS[1]
    data["surcharges"] = {
        key: top
        for key in ("wild_favor", "sacred_site_favor", "burial_mound_basic", "burial_mound_favor")
    }
    data["productivity"]["steps"] = [egyptia.STEP_BOUNDS[1]] * egyptia.STEP_COUNT_BOUNDS[1]
    rows = [(" " if r % 2 else "") + " ".join(["."] * 10) for r in range(10)]
    rows[4] = rows[4][:4] + "O" + rows[4][5:]
    data["map"]["rows"] = rows
    gift = egyptia.RESOURCE_BOUNDS[1]
    data["ships"] = [
        {"number": n, "gives": dict.fromkeys(egyptia.RESOURCES, gift)}
        for n in range(1, egyptia.SHIP_BOUNDS[1] + 1)
    ]
    dots = egyptia.DOT_BOUNDS[1]
    data["tracks"] = {r: {"dots": dots, "start": 1, "red": 2} for r in egyptia.RESOURCES}
    data["scoring"] = {key: bounds[1] for key, bounds in egyptia.SCORING_BOUNDS.items()}
    most = egyptia.CARD_POINTS_BOUNDS[1]
    for card in data["cards"]:
        count = egyptia.CARD_POINTS_COUNT if card["rule"] == "obelisk_count" else None
        card["points"] = [most] * (count or len(card["points"]))
    return egyptia.parse_sheet(data, source="edge.toml")


def test_amunre_plays_at_the_edges_of_its_bounds() -> None:
    for high in (False, True):
        game = AMUNRE.with_board(amunre_edge(high))
        for players in (3, 5):
            play_to_the_end(game, players, seconds=30)


def test_aton_plays_at_the_edges_of_its_bounds() -> None:
    for high in (False, True):
        play_to_the_end(ATON.with_board(aton_edge(high)), 2, seconds=30)


def test_egyptia_plays_at_the_top_of_its_bounds() -> None:
    game = EGYPTIA.with_sheet(egyptia_edge())
    for players in (1, 20):
        play_to_the_end(game, players, seconds=30)

"""Board and card figures of Amun-Re, loaded from a data file with their confidences.

The figures are data, not code: ``data/board.toml`` ships our best reading, and a user with
a printed board can load a corrected copy. Loading validates everything the rules rely on and
names the file, the province and the field in any error.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from karnak.core.datafile import out_of_range, read_toml
from karnak.core.errors import BoardDataError

BOARD_FORMAT: Final = "karnak-amunre-board/1"
CONFIDENCES: Final = ("printed", "one source", "reconstructed")

#: The twelve power-card kinds whose effects the rules implement, in display order.
CARD_KINDS: Final = (
    "blockade",
    "overbid",
    "free_farmer",
    "builder",
    "correction",
    "eight_gold",
    "harvest_increase",
    "card_bonus",
    "farmer_bonus",
    "egypt_bonus",
    "side_bonus",
    "bank_bonus",
)
BONUS_KINDS: Final = ("card_bonus", "farmer_bonus", "egypt_bonus", "side_bonus", "bank_bonus")
PHASES: Final = ("auction", "market", "offering", "harvest", "scoring")

PROVINCE_INT_FIELDS: Final = (
    "card_limit",
    "fields",
    "printed_farmers",
    "bonus_cards",
    "bonus_stones",
    "bonus_gold",
    "gold",
    "caravan",
    "temples",
)
PROVINCE_FIELDS: Final = ("half", "side", "nile", *PROVINCE_INT_FIELDS)

# The bounds of every figure, (lowest, highest). A corrected board is trusted data, but the
# engine builds moves, decks and offers from these numbers (a card limit of 10**8 is 10**8
# purchase moves, a starting gold of 10**9 as many offers), so each is held to a range
# several times what any printing of the game could need (the shipped value is in the
# comment). Together they keep a game's gold, and so its longest move list, in the
# thousands.
PROVINCE_BOUNDS: Final = {
    "card_limit": (0, 10),  # 4 at most
    "fields": (0, 20),  # 5
    "printed_farmers": (0, 20),  # 2
    "bonus_cards": (0, 10),  # 2
    "bonus_stones": (0, 10),  # 2
    "bonus_gold": (0, 50),  # 12
    "gold": (0, 30),  # 8
    "caravan": (0, 30),  # 8
    "temples": (0, 10),  # 2
}
CONSTANT_BOUNDS: Final = {
    "start_gold": (0, 100),  # 20
    "start_builders": (0, 5),  # 1
    "stones": (1, 200),  # 15
    "kingdoms": (1, 3),  # 2
    "rounds_per_kingdom": (1, 5),  # 3
    "bonus_card_points": (0, 100),  # 3
    "nile_side_points": (0, 100),  # 5
    "complete_set_points": (0, 100),  # 3
    "power_card_bonus_symbols": (0, 100),  # 7
    "farmer_bonus_farmers": (0, 200),  # 9
    "treasury_gold": (0, 50),  # 8
    "theft_gold": (0, 30),  # 3
    "sell_price": (0, 10),  # 1
}
#: Farmers in the supply, per edition (45 and 48).
FARMER_BOUNDS: Final = (1, 200)
#: Cards of one power-card kind (8 at most).
CARD_COUNT_BOUNDS: Final = (1, 30)
#: The lists of numbers: (fewest entries, most entries, lowest value, highest value).
LIST_BOUNDS: Final = {
    "bid_spaces": (1, 20, 0, 200),  # 9 spaces, 0 to 36
    # Offering totals can be negative (corrections), so the thresholds may be too.
    "temple_thresholds": (1, 10, -200, 200),  # 3 thresholds, 2 to 22
    "caravan_spaces": (1, 11, 1, 11),  # spaces 1 and 2 of the 4
    "gold_ranking_points": (1, 5, 0, 100),  # 6, 4, 2
}
#: Provinces on the board: 15 are printed, and 15 is also what 5 players need.
PROVINCE_COUNT_BOUNDS: Final = (15, 40)


@dataclass(frozen=True)
class Province:
    """One province of the board, as printed (or reconstructed)."""

    name: str
    half: str  # "lower" or "upper" Egypt
    side: str  # "west" or "east" of the Nile
    nile: bool  # on the bank of the Nile
    card_limit: int
    fields: int
    printed_farmers: int
    bonus_cards: int
    bonus_stones: int
    bonus_gold: int
    gold: int
    caravan: int
    temples: int
    confidence: Mapping[str, str] = field(default_factory=dict, compare=False)

    @property
    def card_symbols(self) -> int:
        """Power-card symbols shown: the purchase limit plus the free-card box."""
        return self.card_limit + self.bonus_cards


@dataclass(frozen=True)
class CardKind:
    id: str
    name_2003: str
    name_2016: str
    count: int
    phase: str

    def name(self, edition: str) -> str:
        return self.name_2016 if edition == "2016" else self.name_2003


@dataclass(frozen=True)
class Board:
    """Everything printed on the board and the cards that the rules consult."""

    provinces: tuple[Province, ...]
    cards: tuple[CardKind, ...]
    bid_spaces: tuple[int, ...]
    start_gold: int
    start_builders: int
    stones: int
    farmers: Mapping[str, int]
    kingdoms: int
    rounds_per_kingdom: int
    temple_thresholds: tuple[int, ...]
    caravan_spaces: tuple[int, ...]
    bonus_card_points: int
    nile_side_points: int
    complete_set_points: int
    gold_ranking_points: tuple[int, ...]
    power_card_bonus_symbols: int
    farmer_bonus_farmers: int
    treasury_gold: int
    theft_gold: int
    sell_price: int
    source: str = "built-in"
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def province_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.provinces)

    def province(self, name: str) -> Province:
        for p in self.provinces:
            if p.name == name:
                return p
        raise KeyError(name)

    def card(self, kind: str) -> CardKind:
        for c in self.cards:
            if c.id == kind:
                return c
        raise KeyError(kind)

    @property
    def total_cards(self) -> int:
        return sum(c.count for c in self.cards)

    def temple_space(self, total: int) -> int:
        """Temple-track space (1-4) reached by an offering total."""
        for space, upper in enumerate(self.temple_thresholds, start=1):
            if total <= upper:
                return space
        return len(self.temple_thresholds) + 1


def _fail(where: str, message: str) -> BoardDataError:
    return BoardDataError(f"{where}: {message}")


def _int(where: str, data: Mapping[str, Any], key: str, bounds: tuple[int, int]) -> int:
    """The whole number ``data[key]``, which must lie within ``bounds``."""
    if key not in data:
        raise _fail(where, f"missing {key!r}")
    value = data[key]
    problem = out_of_range(value, *bounds)
    if problem is not None:
        raise _fail(where, f"{key!r} {problem}")
    result: int = value
    return result


def _int_list(where: str, data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """The list of whole numbers ``data[key]``, its length and values within
    :data:`LIST_BOUNDS`."""
    fewest, most, low, high = LIST_BOUNDS[key]
    value = data.get(key)
    if not isinstance(value, list) or not value:
        raise _fail(where, f"{key!r} must be a non-empty list of whole numbers")
    if not fewest <= len(value) <= most:
        raise _fail(where, f"{key!r} must have {fewest} to {most} values, not {len(value):,}")
    for item in value:
        problem = out_of_range(item, low, high)
        if problem is not None:
            raise _fail(where, f"each value of {key!r} {problem}")
    return tuple(value)


def _province(where: str, name: str, data: Any) -> Province:
    if not isinstance(data, Mapping):
        raise _fail(where, "must be a table of figures")
    unknown = set(data) - set(PROVINCE_FIELDS) - {"reconstructed", "one_source"}
    if unknown:
        raise _fail(where, f"unknown field(s) {', '.join(sorted(unknown))}")
    half = data.get("half")
    if half not in ("lower", "upper"):
        raise _fail(where, f'\'half\' must be "lower" or "upper", not {half!r}')
    side = data.get("side")
    if side not in ("west", "east"):
        raise _fail(where, f'\'side\' must be "west" or "east", not {side!r}')
    nile = data.get("nile")
    if not isinstance(nile, bool):
        raise _fail(where, f"'nile' must be true or false, not {nile!r}")
    ints = {key: _int(where, data, key, PROVINCE_BOUNDS[key]) for key in PROVINCE_INT_FIELDS}
    confidence = {key: "printed" for key in PROVINCE_FIELDS}
    for level_key, level in (("one_source", "one source"), ("reconstructed", "reconstructed")):
        listed = data.get(level_key, [])
        if not isinstance(listed, list):
            raise _fail(where, f"{level_key!r} must be a list of field names")
        for item in listed:
            if item not in PROVINCE_FIELDS:
                raise _fail(where, f"{level_key!r} names unknown field {item!r}")
            confidence[item] = level
    return Province(name=name, half=half, side=side, nile=nile, confidence=confidence, **ints)


def parse_board(data: Mapping[str, Any], source: str = "built-in") -> Board:
    """Validate raw board data (as read from TOML) and build a :class:`Board`."""
    fmt = data.get("format")
    if fmt != BOARD_FORMAT:
        raise _fail(source, f"'format' must be {BOARD_FORMAT!r}, not {fmt!r}")
    constants = data.get("constants")
    if not isinstance(constants, Mapping):
        raise _fail(source, "missing the [constants] table")
    where = f"{source} [constants]"
    bid_spaces = _int_list(where, constants, "bid_spaces")
    if list(bid_spaces) != sorted(set(bid_spaces)) or bid_spaces[0] != 0:
        raise _fail(where, "'bid_spaces' must start at 0 and rise strictly")
    thresholds = _int_list(where, constants, "temple_thresholds")
    if list(thresholds) != sorted(set(thresholds)):
        raise _fail(where, "'temple_thresholds' must rise strictly")
    farmers = constants.get("farmers")
    if not isinstance(farmers, Mapping) or set(farmers) != {"2003", "2016"}:
        raise _fail(where, '\'farmers\' must give the supply for editions "2003" and "2016"')
    farmer_supply = {ed: _int(where, farmers, ed, FARMER_BOUNDS) for ed in ("2003", "2016")}

    def constant(key: str) -> int:
        return _int(where, constants, key, CONSTANT_BOUNDS[key])

    raw_cards = data.get("power_cards")
    if not isinstance(raw_cards, list):
        raise _fail(source, "missing the [[power_cards]] list")
    if len(raw_cards) > len(CARD_KINDS):  # fewer are named kind by kind below
        raise _fail(
            source,
            f"power cards must list each of the {len(CARD_KINDS)} kinds once, not "
            f"{len(raw_cards):,} entries",
        )
    cards: list[CardKind] = []
    for index, raw in enumerate(raw_cards):
        cwhere = f"{source} power_cards[{index}]"
        if not isinstance(raw, Mapping):
            raise _fail(cwhere, "must be a table")
        kind = raw.get("id")
        if kind not in CARD_KINDS:
            raise _fail(cwhere, f"unknown card id {kind!r}; known: {', '.join(CARD_KINDS)}")
        phase = raw.get("phase")
        if phase not in PHASES:
            raise _fail(cwhere, f"'phase' must be one of {', '.join(PHASES)}")
        names = [raw.get("name_2003"), raw.get("name_2016")]
        if not all(isinstance(n, str) and n for n in names):
            raise _fail(cwhere, "needs 'name_2003' and 'name_2016'")
        cards.append(
            CardKind(
                id=kind,
                name_2003=str(names[0]),
                name_2016=str(names[1]),
                count=_int(cwhere, raw, "count", CARD_COUNT_BOUNDS),
                phase=phase,
            )
        )
    ids = [c.id for c in cards]
    if sorted(ids) != sorted(CARD_KINDS):
        missing = sorted(set(CARD_KINDS) - set(ids))
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        raise _fail(
            source,
            f"power cards must list each of the 12 kinds once (missing: {missing or 'none'}, "
            f"doubled: {doubled or 'none'})",
        )
    cards.sort(key=lambda c: CARD_KINDS.index(c.id))

    raw_provinces = data.get("provinces")
    if not isinstance(raw_provinces, Mapping) or not raw_provinces:
        raise _fail(source, "missing the [provinces.*] tables")
    fewest, most = PROVINCE_COUNT_BOUNDS
    if len(raw_provinces) < fewest:
        raise _fail(
            source, f"the board needs {fewest} provinces for 5 players, it has {len(raw_provinces)}"
        )
    if len(raw_provinces) > most:
        raise _fail(
            source, f"the board may have at most {most} provinces, not {len(raw_provinces):,}"
        )
    provinces = tuple(
        _province(f"{source} [provinces.{name}]", str(name), raw)
        for name, raw in raw_provinces.items()
    )
    rounds_per_kingdom = constant("rounds_per_kingdom")
    if len(provinces) < 5 * rounds_per_kingdom:
        # Each round brings out a province per player, and a kingdom's are not drawn again.
        raise _fail(
            where,
            f"'rounds_per_kingdom' = {rounds_per_kingdom} needs {5 * rounds_per_kingdom} "
            f"provinces for 5 players (one each a round), and the board has {len(provinces)}",
        )

    start_builders = constant("start_builders")
    builder = next(c for c in cards if c.id == "builder")
    if builder.count < 5 * start_builders:
        raise _fail(source, "there must be enough builder cards to deal to 5 players")
    return Board(
        provinces=tuple(sorted(provinces, key=lambda p: p.name)),
        cards=tuple(cards),
        bid_spaces=bid_spaces,
        start_gold=constant("start_gold"),
        start_builders=start_builders,
        stones=constant("stones"),
        farmers=farmer_supply,
        kingdoms=constant("kingdoms"),
        rounds_per_kingdom=rounds_per_kingdom,
        temple_thresholds=thresholds,
        caravan_spaces=_int_list(where, constants, "caravan_spaces"),
        bonus_card_points=constant("bonus_card_points"),
        nile_side_points=constant("nile_side_points"),
        complete_set_points=constant("complete_set_points"),
        gold_ranking_points=_int_list(where, constants, "gold_ranking_points"),
        power_card_bonus_symbols=constant("power_card_bonus_symbols"),
        farmer_bonus_farmers=constant("farmer_bonus_farmers"),
        treasury_gold=constant("treasury_gold"),
        theft_gold=constant("theft_gold"),
        sell_price=constant("sell_price"),
        source=source,
        raw=data,
    )


def load_board(path: str | Path | None = None) -> Board:
    """The built-in board, or the corrected board file at ``path``."""
    if path is None:
        return default_board()
    data = read_toml(path, "board file")
    return parse_board(data, source=str(path))


@cache
def default_board() -> Board:
    text = resources.files("karnak.games.amunre").joinpath("data/board.toml").read_text("utf-8")
    return parse_board(tomllib.loads(text))


def default_board_text() -> str:
    """The shipped data file, for users who want a copy to correct."""
    return resources.files("karnak.games.amunre").joinpath("data/board.toml").read_text("utf-8")

"""Egyptia's printed material as data: the dice table, costs, the player sheet and the cards.

Much of the sheet is reconstructed (see ``data/sheet.toml``), so nothing here is hard-coded:
a player with the printed sheet loads a corrected file and every rule follows it. The map is
read from rows of text so that any hex shape can be drawn; hexes get doubled coordinates
(column counted in half hexes), from which neighbours and straight lines follow.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from karnak.core.datafile import out_of_range, read_toml, shipped, shown
from karnak.core.errors import BoardDataError

DEFAULT_SHEET: Final = shipped("karnak.games.egyptia", "sheet.toml")
FORMAT: Final = "karnak-egyptia-sheet/1"

RESOURCES: Final = ("grain", "diamond", "stone", "favor")
GRAIN, DIAMOND, STONE, FAVOR = range(4)
BASIC: Final = (GRAIN, DIAMOND, STONE)
LETTERS: Final = "gdsf"  # short names of the resources in move texts: 2g, 1d+1f

BUILDINGS: Final = ("pyramid", "quarry", "mine", "obelisk", "field")
MOUND: Final = "mound"
WILD: Final = "any"
LETTERS_OF_CARDS: Final = ("A", "B", "C", "D", "E")
HEX_KINDS: Final = {".": "plain", "S": "sacred", "O": "oasis"}

Bundle = tuple[int, int, int, int]  # grain, diamond, stone, favor

# The bounds of every figure, (lowest, highest), the shipped value in the comment. The engine
# rolls the dice, lists the moves and sizes the sheets from these numbers, so each is held
# to a range several times the printed one; a game ends at the latest when the map is full,
# so the map's size bounds its length.
DICE_BOUNDS: Final = (1, 12)  # 6 dice
SIDES_BOUNDS: Final = (4, 100)  # d4 to d20; a face for each of the four columns at least
RESOURCE_BOUNDS: Final = (0, 20)  # one resource of a cost or a ship's gift: 2 at most
STEP_COUNT_BOUNDS: Final = (1, 10)  # 4 steps of productivity
STEP_BOUNDS: Final = (1, 20)  # +1 to +4
SURCHARGE_BOUNDS: Final = (0, 10)  # 1 or 2
HEX_BOUNDS: Final = (2, 100)  # 19 hexes
MAP_ROWS: Final = 26  # rows are lettered A to Z
SHIP_BOUNDS: Final = (0, 10)  # 3 ships
DOT_BOUNDS: Final = (1, 100)  # 18 or 12 dots on a track
SCORING_BOUNDS: Final = {
    "favor_per_point": (1, 20),  # 2
    "basic_per_favor": (1, 20),  # 3
    "ship_points": (0, 100),  # 2
    "pestilence_points": (0, 100),  # 2
}
RANK_COUNT_BOUNDS: Final = (1, 20)  # 5 ranks
RANK_BOUNDS: Final = (0, 10_000)  # from 0 to 70 points
CARD_COUNT_BOUNDS: Final = (5, 100)  # 15 cards, at least one of each letter
CARD_POINTS_BOUNDS: Final = (0, 1_000)  # up to 189
CARD_POINTS_COUNT: Final = 100  # values of one card: 18 at most


@dataclass(frozen=True)
class Die:
    """One die of the resource board: its sides, the building it stands for and, for each
    value, the column (resource index) it goes to."""

    sides: int
    building: str
    columns: tuple[int, ...]  # columns[value - 1]
    confidence: str = "printed"

    def column_of(self, value: int) -> int:
        return self.columns[value - 1]


@dataclass(frozen=True)
class Hex:
    label: str
    col: int  # doubled coordinates: neighbours differ by (±2, 0) or (±1, ±1)
    row: int
    kind: str  # plain, sacred, oasis

    @property
    def sacred(self) -> bool:
        return self.kind == "sacred"


@dataclass(frozen=True)
class Card:
    id: str
    rule: str
    points: tuple[int, ...]
    text: str
    confidence: str

    @property
    def letter(self) -> str:
        return self.id[0]


@dataclass(frozen=True)
class Rank:
    name: str
    low: int


@dataclass(frozen=True)
class Sheet:
    dice: tuple[Die, ...]
    costs: Mapping[str, Bundle]
    productivity: Mapping[str, int]  # building -> resource index of its track
    steps: tuple[int, ...]
    wild_favor: int
    sacred_favor: int
    mound_basic: int
    mound_favor: int
    hexes: tuple[Hex, ...]
    river: str
    ships: tuple[Bundle, ...]
    dots: Bundle
    start: Bundle
    red: Bundle
    favor_per_point: int
    basic_per_favor: int
    ship_points: int
    pestilence_points: int
    ranks: tuple[Rank, ...]
    cards: tuple[Card, ...]
    confidence: Mapping[str, str] = field(default_factory=dict, compare=False)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    source: str = field(default="", compare=False)
    # derived geometry (filled in by __post_init__)
    oasis: int = field(default=-1, init=False, compare=False)
    neighbours: tuple[tuple[int, ...], ...] = field(default=(), init=False, compare=False)
    lines: tuple[tuple[int, ...], ...] = field(default=(), init=False, compare=False)
    by_label: Mapping[str, int] = field(default_factory=dict, init=False, compare=False)
    cards_by_id: Mapping[str, Card] = field(default_factory=dict, init=False, compare=False)
    buildable: tuple[int, ...] = field(default=(), init=False, compare=False)
    #: Derived tables that readers of the sheet build once (e.g. the observation's layout).
    memo: dict[str, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    #: per die, by value (0 to sides), its column shifted to the die's two bits of a key
    _column_bits: tuple[tuple[int, ...], ...] = field(
        default=(), init=False, compare=False, repr=False
    )
    #: the columns' dice by that key (4 ** dice keys at most)
    _by_key: dict[int, tuple[tuple[int, ...], ...]] = field(
        default_factory=dict, init=False, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        where = {(h.col, h.row): i for i, h in enumerate(self.hexes)}
        steps = ((2, 0), (-2, 0), (1, 1), (-1, 1), (1, -1), (-1, -1))
        neighbours = tuple(
            tuple(
                sorted(
                    where[(h.col + dc, h.row + dr)]
                    for dc, dr in steps
                    if (h.col + dc, h.row + dr) in where
                )
            )
            for h in self.hexes
        )
        groups: dict[tuple[int, int], list[int]] = {}
        for i, h in enumerate(self.hexes):
            for axis, key in enumerate((h.row, h.col - h.row, h.col + h.row)):
                groups.setdefault((axis, key), []).append(i)
        object.__setattr__(self, "neighbours", neighbours)
        object.__setattr__(self, "lines", tuple(tuple(g) for g in groups.values() if len(g) > 1))
        object.__setattr__(self, "by_label", {h.label: i for i, h in enumerate(self.hexes)})
        object.__setattr__(self, "cards_by_id", {c.id: c for c in self.cards})
        buildable = tuple(i for i, h in enumerate(self.hexes) if h.kind != "oasis")
        object.__setattr__(self, "buildable", buildable)
        object.__setattr__(
            self, "oasis", next(i for i, h in enumerate(self.hexes) if h.kind == "oasis")
        )
        bits = tuple(
            tuple(d.column_of(v) << (2 * i) for v in range(d.sides + 1))
            for i, d in enumerate(self.dice)
        )
        object.__setattr__(self, "_column_bits", bits)

    def columns_of(self, values: Sequence[int]) -> tuple[tuple[int, ...], ...]:
        """For a roll (a value per die), the dice (indexes) in each of the four columns.

        Asked every round, and a roll rarely comes again (the six dice fall in hundreds of
        thousands of ways), but the columns they land in do (4 ** dice ways at most): each
        die's column is read from a table by value into two bits of a key, and the answer
        is remembered by that key."""
        if len(values) < len(self.dice):
            raise IndexError(f"a roll of {len(self.dice)} dice, not {len(values)}")
        key = 0
        for i, table in enumerate(self._column_bits):
            value = values[i]
            if 0 <= value < len(table):
                key |= table[value]
            else:  # a value set by hand: read as the die reads it (or refused by it)
                key |= self.dice[i].column_of(value) << (2 * i)
        found = self._by_key.get(key)
        if found is None:
            columns: list[list[int]] = [[], [], [], []]
            for i in range(len(self.dice)):
                columns[(key >> (2 * i)) & 3].append(i)
            if len(self._by_key) > 65536:
                self._by_key.clear()
            found = self._by_key[key] = tuple(tuple(c) for c in columns)
        return found

    def card(self, card_id: str) -> Card:
        return self.cards_by_id[card_id]

    def cards_of(self, letter: str) -> list[Card]:
        return [c for c in self.cards if c.letter == letter]

    def rank(self, points: int) -> str:
        """The solo builder status for ``points``."""
        name = self.ranks[0].name
        for rank in self.ranks:
            if points >= rank.low:
                name = rank.name
        return name


# ------------------------------------------------------------------------------ parsing
def _int(value: Any, where: str, bounds: tuple[int, int]) -> int:
    """``value`` as a whole number within ``bounds``; ``where`` names it in the error."""
    problem = out_of_range(value, *bounds)
    if problem is not None:
        raise BoardDataError(f"{where} {problem}")
    result: int = value
    return result


def _count(items: list[Any] | Mapping[str, Any], where: str, bounds: tuple[int, int]) -> None:
    """Refuse a list (or table) with fewer or more entries than ``bounds`` allow."""
    low, high = bounds
    if not low <= len(items) <= high:
        raise BoardDataError(f"{where} must have {low} to {high} entries, not {len(items):,}")


def _bundle(data: Any, where: str) -> Bundle:
    if not isinstance(data, Mapping):
        raise BoardDataError(f"{where} must be a table such as {{ stone = 2, grain = 1 }}")
    unknown = set(data) - set(RESOURCES)
    if unknown:
        raise BoardDataError(f"{where}: unknown resource(s) {', '.join(sorted(unknown))}")
    g, d, s, f = (_int(data.get(name, 0), f"{where}.{name}", RESOURCE_BOUNDS) for name in RESOURCES)
    return (g, d, s, f)


def _range(text: Any, where: str) -> tuple[int, int]:
    """The lowest and highest die value ``text`` names (``4`` or ``"1-3"``)."""
    if isinstance(text, int) and not isinstance(text, bool):
        return text, text
    if not isinstance(text, str) or not text.strip():
        raise BoardDataError(f'{where} must be a value or a range such as "1-3"')
    low, dash, high = text.strip().partition("-")
    try:
        a = int(low)
        b = int(high) if dash else a
    except ValueError as exc:
        raise BoardDataError(
            f'{where}: cannot read {shown(text)} as a range such as "1-3"'
        ) from exc
    if b < a:
        raise BoardDataError(f"{where}: the range {shown(text)} runs backwards")
    return a, b


def _dice(data: Any, source: str, confidence: dict[str, str]) -> tuple[Die, ...]:
    if not isinstance(data, list) or not data:
        raise BoardDataError(f"{source}: [[dice]] entries are needed, one per die")
    _count(data, f"{source}: [[dice]]", DICE_BOUNDS)
    dice = []
    for entry in data:
        if not isinstance(entry, Mapping):
            raise BoardDataError(f"{source}: each [[dice]] entry must be a table")
        sides = _int(entry.get("die"), f"{source}: dice.die", SIDES_BOUNDS)
        where = f"{source}: d{sides}"
        building = entry.get("building")
        if building != WILD and building not in BUILDINGS:
            raise BoardDataError(
                f"{where}: building must be one of {', '.join((*BUILDINGS, WILD))}"
            )
        columns: dict[int, int] = {}
        for index, name in enumerate(RESOURCES):
            text = entry.get(name)
            low, high = _range(text, f"{where}.{name}")
            if low < 1 or high > sides:  # checked before the values are listed one by one
                raise BoardDataError(
                    f"{where}: the columns must cover the values 1 to {sides} once, and "
                    f"{name} = {shown(text)} goes past them"
                )
            for value in range(low, high + 1):
                if value in columns:
                    raise BoardDataError(f"{where}: the value {value} is in two columns")
                columns[value] = index
        if sorted(columns) != list(range(1, sides + 1)):
            raise BoardDataError(f"{where}: the columns must cover the values 1 to {sides} once")
        confidence[f"dice.d{sides}"] = str(entry.get("confidence", "printed"))
        dice.append(Die(sides, str(building), tuple(columns[v] for v in range(1, sides + 1))))
    if len({d.sides for d in dice}) != len(dice):
        raise BoardDataError(f"{source}: two [[dice]] entries have the same die")
    return tuple(dice)


def _map(data: Any, source: str) -> tuple[tuple[Hex, ...], str]:
    if not isinstance(data, Mapping) or not isinstance(data.get("rows"), list):
        raise BoardDataError(f"{source}: [map] needs rows = [ ... ] drawn with O, S and .")
    if len(data["rows"]) > MAP_ROWS:
        raise BoardDataError(f"{source}: the map may have at most {MAP_ROWS} rows")
    hexes: list[Hex] = []
    parity: int | None = None
    for row, line in enumerate(data["rows"]):
        if not isinstance(line, str):
            raise BoardDataError(f"{source}: map row {row + 1} must be a string")
        place = 0
        for col, char in enumerate(line):
            if char == " ":
                continue
            if char not in HEX_KINDS:
                raise BoardDataError(
                    f"{source}: map row {row + 1} has {char!r}; use O (Oasis), S (Sacred Site), "
                    ". (hex) and spaces"
                )
            if parity is None:
                parity = (col + row) % 2
            elif (col + row) % 2 != parity:
                raise BoardDataError(
                    f"{source}: map row {row + 1}: hexes must sit one space apart, and each row "
                    "half a hex (one character) from the next"
                )
            place += 1
            if len(hexes) == HEX_BOUNDS[1]:
                raise BoardDataError(
                    f"{source}: the map may have at most {HEX_BOUNDS[1]} hexes; it has more"
                )
            label = f"{chr(ord('A') + row)}{place}"
            hexes.append(Hex(label, col, row, HEX_KINDS[char]))
    oases = [h for h in hexes if h.kind == "oasis"]
    if len(oases) != 1:
        raise BoardDataError(f"{source}: the map needs exactly one Oasis (O), not {len(oases)}")
    if len(hexes) < HEX_BOUNDS[0]:
        raise BoardDataError(f"{source}: the map needs hexes to build on")
    river = data.get("river", "top")
    if river not in ("top", "bottom"):
        raise BoardDataError(f'{source}: map.river must be "top" or "bottom"')
    return tuple(hexes), str(river)


def _cards(data: Any, source: str, confidence: dict[str, str]) -> tuple[Card, ...]:
    from karnak.games.egyptia.rules.pharaoh import RULES

    if not isinstance(data, list):
        raise BoardDataError(f"{source}: [[cards]] entries are needed")
    _count(data, f"{source}: [[cards]]", CARD_COUNT_BOUNDS)
    cards = []
    for entry in data:
        if not isinstance(entry, Mapping):
            raise BoardDataError(f"{source}: each [[cards]] entry must be a table")
        card_id = entry.get("id")
        if not isinstance(card_id, str) or not card_id or card_id[0] not in LETTERS_OF_CARDS:
            raise BoardDataError(f"{source}: a card id must start with a letter A to E")
        where = f"{source}: card {card_id}"
        rule = entry.get("rule")
        if not isinstance(rule, str) or rule not in RULES:
            raise BoardDataError(f"{where}: rule must be one of {', '.join(sorted(RULES))}")
        points = entry.get("points")
        if not isinstance(points, list) or not points:
            raise BoardDataError(f"{where}: points must be a list of whole numbers")
        needed = RULES[rule].points
        if needed and len(points) != needed:
            raise BoardDataError(f"{where}: the rule {rule} takes {needed} point value(s)")
        _count(points, f"{where}.points", (1, CARD_POINTS_COUNT))
        values = tuple(_int(p, f"{where}.points", CARD_POINTS_BOUNDS) for p in points)
        confidence[f"card.{card_id}"] = str(entry.get("confidence", "printed"))
        cards.append(Card(card_id, str(rule), values, str(entry.get("text", "")), ""))
    ids = [c.id for c in cards]
    if len(set(ids)) != len(ids):
        raise BoardDataError(f"{source}: two cards have the same id")
    for letter in LETTERS_OF_CARDS:
        if not any(c.letter == letter for c in cards):
            raise BoardDataError(f"{source}: there must be at least one card of letter {letter}")
    return tuple(Card(c.id, c.rule, c.points, c.text, confidence[f"card.{c.id}"]) for c in cards)


def parse_sheet(data: Mapping[str, Any], source: str = "data") -> Sheet:
    """A sheet from the data file's contents; every mistake is named with where it is."""
    if data.get("format") != FORMAT:
        raise BoardDataError(f"{source}: 'format' must be {FORMAT!r}")
    confidence: dict[str, str] = {}
    dice = _dice(data.get("dice"), source, confidence)
    buildings = data.get("buildings")
    if not isinstance(buildings, Mapping):
        raise BoardDataError(f"{source}: a [buildings.NAME] table is needed for each building")
    costs: dict[str, Bundle] = {}
    productivity: dict[str, int] = {}
    for name in BUILDINGS:
        entry = buildings.get(name)
        if not isinstance(entry, Mapping):
            raise BoardDataError(f"{source}: [buildings.{name}] is missing")
        costs[name] = _bundle(entry.get("cost"), f"{source}: buildings.{name}.cost")
        track = entry.get("productivity")
        if track is not None:
            if track not in RESOURCES[:3]:
                raise BoardDataError(
                    f"{source}: buildings.{name}.productivity must be grain, diamond or stone"
                )
            productivity[name] = RESOURCES.index(track)
        confidence[f"buildings.{name}"] = str(entry.get("confidence", "printed"))
    unknown = set(buildings) - set(BUILDINGS)
    if unknown:
        raise BoardDataError(f"{source}: unknown building(s) {', '.join(sorted(unknown))}")
    sur = data.get("surcharges")
    if not isinstance(sur, Mapping):
        raise BoardDataError(f"{source}: a [surcharges] table is needed")
    prod = data.get("productivity")
    if not isinstance(prod, Mapping) or not isinstance(prod.get("steps"), list):
        raise BoardDataError(f"{source}: [productivity] needs steps = [1, 2, 3, 4]")
    _count(prod["steps"], f"{source}: productivity.steps", STEP_COUNT_BOUNDS)
    steps = tuple(_int(s, f"{source}: productivity.steps", STEP_BOUNDS) for s in prod["steps"])
    hexes, river = _map(data.get("map"), source)
    confidence["map"] = str((data.get("map") or {}).get("confidence", "printed"))
    ships_data = data.get("ships", [])
    if not isinstance(ships_data, list):
        raise BoardDataError(f"{source}: [[ships]] entries must be tables")
    _count(ships_data, f"{source}: [[ships]]", SHIP_BOUNDS)
    ships = []
    for number, entry in enumerate(ships_data, start=1):
        if not isinstance(entry, Mapping) or entry.get("number") != number:
            raise BoardDataError(f"{source}: the ships must be numbered 1, 2, 3 ... in order")
        ships.append(_bundle(entry.get("gives"), f"{source}: ship {number}.gives"))
        confidence[f"ship.{number}"] = str(entry.get("confidence", "printed"))
    tracks = data.get("tracks")
    if not isinstance(tracks, Mapping):
        raise BoardDataError(f"{source}: a [tracks] table is needed")
    dots, start, red = [], [], []
    for name in RESOURCES:
        track = tracks.get(name)
        where = f"{source}: tracks.{name}"
        if not isinstance(track, Mapping):
            raise BoardDataError(f"{where} must be a table such as {{ dots = 18, start = 1 }}")
        n = _int(track.get("dots"), f"{where}.dots", DOT_BOUNDS)
        s = _int(track.get("start", 0), f"{where}.start", (0, n))
        r = _int(track.get("red", 0), f"{where}.red", (0, n))
        if s >= n - r + 1 and r:
            raise BoardDataError(f"{where}: the starting dots may not reach the red dots")
        if s > n or r > n:
            raise BoardDataError(f"{where}: start and red must fit on the {n} dots")
        dots.append(n)
        start.append(s)
        red.append(r)
    confidence["tracks"] = str(tracks.get("confidence", "printed"))
    scoring = data.get("scoring")
    if not isinstance(scoring, Mapping):
        raise BoardDataError(f"{source}: a [scoring] table is needed")
    ranks_data = data.get("ranks", [])
    if not isinstance(ranks_data, list) or not ranks_data:
        raise BoardDataError(f"{source}: [[ranks]] entries are needed (solo builder status)")
    _count(ranks_data, f"{source}: [[ranks]]", RANK_COUNT_BOUNDS)
    ranks = []
    for entry in ranks_data:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("name"), str):
            raise BoardDataError(f"{source}: each [[ranks]] entry needs a name and from")
        low = _int(entry.get("from"), f"{source}: ranks.from", RANK_BOUNDS)
        ranks.append(Rank(entry["name"], low))
    if [r.low for r in ranks] != sorted(r.low for r in ranks):
        raise BoardDataError(f"{source}: the ranks must be listed from the lowest score up")
    cards = _cards(data.get("cards"), source, confidence)

    def figure(table: Mapping[str, Any], name: str, where: str, bounds: tuple[int, int]) -> int:
        return _int(table.get(name), f"{source}: {where}.{name}", bounds)

    return Sheet(
        dice=dice,
        costs=costs,
        productivity=productivity,
        steps=steps,
        wild_favor=figure(sur, "wild_favor", "surcharges", SURCHARGE_BOUNDS),
        sacred_favor=figure(sur, "sacred_site_favor", "surcharges", SURCHARGE_BOUNDS),
        mound_basic=figure(sur, "burial_mound_basic", "surcharges", SURCHARGE_BOUNDS),
        mound_favor=figure(sur, "burial_mound_favor", "surcharges", SURCHARGE_BOUNDS),
        hexes=hexes,
        river=river,
        ships=tuple(ships),
        dots=(dots[0], dots[1], dots[2], dots[3]),
        start=(start[0], start[1], start[2], start[3]),
        red=(red[0], red[1], red[2], red[3]),
        favor_per_point=figure(
            scoring, "favor_per_point", "scoring", SCORING_BOUNDS["favor_per_point"]
        ),
        basic_per_favor=figure(
            scoring, "basic_per_favor", "scoring", SCORING_BOUNDS["basic_per_favor"]
        ),
        ship_points=figure(scoring, "ship_points", "scoring", SCORING_BOUNDS["ship_points"]),
        pestilence_points=figure(
            scoring, "pestilence_points", "scoring", SCORING_BOUNDS["pestilence_points"]
        ),
        ranks=tuple(ranks),
        cards=cards,
        confidence=confidence,
        raw=dict(data),
        source=source,
    )


def load_sheet(path: str | Path | None = None) -> Sheet:
    """The sheet in ``path`` (default: the shipped data file)."""
    target = Path(path) if path is not None else DEFAULT_SHEET
    data = read_toml(target, "sheet file")
    return parse_sheet(data, source=str(target))


_DEFAULT: Sheet | None = None


def default_sheet() -> Sheet:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_sheet()
    return _DEFAULT


# The names every game's board module offers to the command line (``--board FILE``).
DEFAULT_BOARD: Final = DEFAULT_SHEET
load_board = load_sheet

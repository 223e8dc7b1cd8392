"""Aton's board: four temples of coloured squares, loaded from a data file with confidences.

The colours of the squares are reconstructed (see ``data/board.toml``); only how many squares
of each colour a temple has matters to the rules, so a temple is a list of squares. A player
with the printed board can load a corrected file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from karnak.core.datafile import out_of_range, read_toml, shipped, shown
from karnak.core.errors import BoardDataError

DEFAULT_BOARD: Final = shipped("karnak.games.aton", "board.toml")
FORMAT: Final = "karnak-aton-board/1"
COLOURS: Final = ("yellow", "green", "black", "blue")
CONSTANTS: Final = (
    "counters",
    "cards_per_value",
    "hand_size",
    "kingdom_squares",
    "win_points",
    "squares_per_temple",
)
CARD_VALUES: Final = (1, 2, 3, 4)
TEMPLES: Final = 4
#: The bounds of each constant, (lowest, highest), the shipped value in the comment. The
#: engine builds piles, stocks and temples from these numbers, so each is held to a range
#: several times the printed one. The hand is exactly four cards: one for each cartouche.
CONSTANT_BOUNDS: Final = {
    "counters": (1, 100),  # 29 per player
    "cards_per_value": (2, 50),  # 9; a tie at cartouche 2 needs cards left in the piles
    "hand_size": (4, 4),  # 4
    "kingdom_squares": (1, 50),  # 8
    "win_points": (1, 200),  # 40
    "squares_per_temple": (1, 50),  # 12
}
#: Points of a bonus square (1 or 2).
BONUS_BOUNDS: Final = (1, 20)


@dataclass(frozen=True)
class Square:
    """One square of a temple: its colour (``bonus`` for a bonus square) and bonus points."""

    colour: str
    bonus: int = 0


@dataclass(frozen=True)
class Board:
    counters: int
    cards_per_value: int
    hand_size: int
    kingdom_squares: int
    win_points: int
    temples: tuple[tuple[Square, ...], ...]
    confidence: Mapping[str, str] = field(default_factory=dict, compare=False)
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    source: str = field(default="", compare=False)
    #: The squares of each colour present, worked out once: the engine asks for the yellow
    #: and green ones after every turn (instant wins) and a board never changes.
    colour_squares: Mapping[str, tuple[tuple[int, int], ...]] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        found: dict[str, list[tuple[int, int]]] = {}
        for t, temple in enumerate(self.temples):
            for s, square in enumerate(temple):
                found.setdefault(square.colour, []).append((t, s))
        # frozen: the one write of a derived field, at construction
        object.__setattr__(
            self, "colour_squares", {colour: tuple(spots) for colour, spots in found.items()}
        )

    def squares_of(self, colour: str) -> list[tuple[int, int]]:
        """(temple index, square index) of every square of ``colour``, zero-based (a fresh
        list: callers may keep or change it)."""
        return list(self.colour_squares.get(colour, ()))


def parse_board(data: Mapping[str, Any], source: str = "data") -> Board:
    """A board from the data file's contents; every mistake is named with where it is."""
    if data.get("format") != FORMAT:
        raise BoardDataError(f"{source}: 'format' must be {FORMAT!r}")
    constants = data.get("constants")
    if not isinstance(constants, Mapping):
        raise BoardDataError(f"{source}: a [constants] table is needed")
    values: dict[str, int] = {}
    for name in CONSTANTS:
        value: Any = constants.get(name)
        problem = out_of_range(value, *CONSTANT_BOUNDS[name])
        if problem is not None:
            raise BoardDataError(f"{source}: constants.{name} {problem}")
        values[name] = value
    given = constants.get("confidence", {})
    if not isinstance(given, Mapping):
        raise BoardDataError(f"{source}: constants.confidence must be a table")
    confidence = {f"constants.{k}": str(v) for k, v in given.items()}
    temples = data.get("temples")
    if not isinstance(temples, list) or len(temples) != TEMPLES:
        raise BoardDataError(f"{source}: exactly {TEMPLES} [[temples]] are needed")
    size = values["squares_per_temple"]
    built = []
    for index, temple in enumerate(temples, start=1):
        where = f"{source}: temple {index}"
        if not isinstance(temple, Mapping):
            raise BoardDataError(f"{where}: each [[temples]] entry must be a table")
        if temple.get("number") != index:
            raise BoardDataError(f"{where}: the temples must be numbered 1 to {TEMPLES} in order")
        squares: dict[int, Square] = {}
        listed: list[tuple[Any, Square]] = []
        for colour in COLOURS:
            numbers = temple.get(colour, [])
            if not isinstance(numbers, list):
                raise BoardDataError(f"{where}: {colour} must be a list of square numbers")
            listed.extend((number, Square(colour)) for number in numbers)
        bonus = temple.get("bonus", {})
        if not isinstance(bonus, Mapping):
            raise BoardDataError(f"{where}: bonus must be a table such as {{ 12 = 2 }}")
        for number, points in bonus.items():
            digits = str(number)
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 6):
                raise BoardDataError(
                    f"{where}: bonus square {shown(number)} is not a square number"
                )
            problem = out_of_range(points, *BONUS_BOUNDS)
            if problem is not None:
                raise BoardDataError(f"{where}: the points of bonus square {number} {problem}")
            listed.append((int(number), Square("bonus", points)))
        for number, square in listed:
            if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= size:
                raise BoardDataError(f"{where}: square {shown(number)} is not between 1 and {size}")
            if number in squares:
                raise BoardDataError(f"{where}: square {number} is listed twice")
            squares[number] = square
        missing = sorted(set(range(1, size + 1)) - set(squares))
        if missing:
            raise BoardDataError(f"{where}: squares {missing} have no colour")
        built.append(tuple(squares[n] for n in range(1, size + 1)))
        confidence[f"temple.{index}"] = str(temple.get("confidence", "printed"))
    return Board(
        counters=values["counters"],
        cards_per_value=values["cards_per_value"],
        hand_size=values["hand_size"],
        kingdom_squares=values["kingdom_squares"],
        win_points=values["win_points"],
        temples=tuple(built),
        confidence=confidence,
        raw=dict(data),
        source=source,
    )


def load_board(path: str | Path | None = None) -> Board:
    """The board in ``path`` (default: the shipped data file)."""
    target = Path(path) if path is not None else DEFAULT_BOARD
    data = read_toml(target, "board file")
    return parse_board(data, source=str(target))


_DEFAULT: Board | None = None


def default_board() -> Board:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_board()
    return _DEFAULT

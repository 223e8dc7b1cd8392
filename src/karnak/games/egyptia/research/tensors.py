"""Egyptia's fixed-size tensors: what one builder sees, as float32 slices (karnak.core.tensors).

Seats are relative: row 0 is the viewer, row k the builder k places after it in seat order,
so a policy learned in one seat plays any seat. The viewer's own sheet is read live; every
other sheet is read from its last publication (``state.public``: the reveal or a round's
end), exactly as :meth:`EgyptiaState.observation` shows it; of the others' progress since,
only the public stage (choosing, chosen, building, done) is used. The others' sealed columns
appear only once revealed. The tensor is built from the state's fields, not from
``observation()``: what a publication fixes (every published sheet, the cards, the dice,
the reveal tally) is encoded once per publication and viewer, as a background shared by
every copy of the state (kept in ``state.public_cache``, which a publication replaces); a
tensor is a copy of its viewer's background, its own row patched where the live sheet
differs from the published one, and the few live numbers written through a ``memoryview``.

Scales: resources on hand and circled ``/ dots of their track``; productivity
``/ steps of the track``; the round and Deaths ``/ buildable hexes`` (the longest game);
points ``/ 100``; costs ``/ 10``; a die's value ``/ its sides``.

The information state is the observation followed by what the builder witnessed at the
reveals and no longer sees on the board: how often each builder took each column, and each
builder's column at the latest reveal. It is read from the builder's own view of the log (the
reveal events, public to all), so a copy without a log (a search copy) has zeros there.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final, cast

import numpy as np

from karnak.core.events import Event
from karnak.core.tensors import FloatVector, Part, TensorLayout
from karnak.games.egyptia.rules.actions import PLAGUES
from karnak.games.egyptia.rules.market import end_favor
from karnak.games.egyptia.rules.pharaoh import EMPTY, card_parts
from karnak.games.egyptia.rules.sheet import BUILDINGS, FAVOR, RESOURCES, Sheet
from karnak.games.egyptia.view import public_sheet

if TYPE_CHECKING:
    from karnak.games.egyptia.rules.state import EgyptiaState

#: The viewer's own stage, in this order (the state's stage names).
STAGES: Final = ("choose", "chosen", "plague", "plague_pay", "build", "build_pay", "gain", "done")
#: What the others may know of a builder's stage (``EgyptiaState.public_stage``).
PUBLIC_STAGES: Final = ("choosing", "chosen", "building", "done")
#: The plagues that restrict a round's building.
RESTRICTIONS: Final = ("darkness", "boils", "death")
#: The plagues crossed off a sheet (Death may come again and is counted instead).
CROSSABLE: Final = tuple(p for p in PLAGUES if p != "death")
#: What a hex holds: empty, then the building codes 0 to 5 (pyramid ... field, Burial Mound).
CITY_KINDS: Final = ("empty", *BUILDINGS, "mound")
SHIP_KINDS: Final = ("unused", "used", "lost")
POINTS_SCALE: Final = 100.0
COST_SCALE: Final = 10.0
#: The template of the public reveal event (``EgyptiaState._reveal``), one per builder in
#: seat order: the information state counts them.
REVEAL_PREFIX: Final = "{who} takes the {column} column"

#: The documented range of each part, where it is not [0, 1] (checked by the tests).
RANGES: Final[dict[str, tuple[float, float]]] = {
    "seat_score": (-1.0, 4.0),
    "seat_card_points": (0.0, 2.0),
}
_STAGE_INDEX: Final = {name: i for i, name in enumerate(STAGES)}
#: The public stage of each stage (``EgyptiaState.public_stage``), as its index.
_PUBLIC_INDEX: Final = {
    name: PUBLIC_STAGES.index(
        "chosen"
        if name == "chosen"
        else "done"
        if name == "done"
        else "choosing"
        if name == "choose"
        else "building"
    )
    for name in STAGES
}
_DECIDING: Final = frozenset(("choose", "plague", "plague_pay", "build", "build_pay", "gain"))
SHIP_UNUSED: Final = 0


def _observation_parts(players: int, sheet: Sheet) -> list[Part]:
    n, hexes, dice = players, len(sheet.hexes), len(sheet.dice)
    ships, cards = len(sheet.ships), len(sheet.cards)
    rounds = len(sheet.buildable)
    card_ids = " ".join(c.id for c in sheet.cards)
    return [
        Part("round", (1,), f"the round / {rounds} (the buildable hexes: the longest game)"),
        Part("over", (1,), "1 once the game is over"),
        Part("revealed", (1,), "1 once this round's columns are revealed"),
        Part("cards", (cards,), f"1 for each Pharaoh card in play, cards in order {card_ids}"),
        Part("dice_columns", (dice, 4), "each die's column, one-hot (grain diamond stone favor)"),
        Part("dice_values", (dice,), "each die's value / its sides"),
        Part("column_sizes", (4,), f"dice in each column / {dice} (3 or more: a plague)"),
        Part("to_move", (n,), "1 for each builder with a decision now (relative seats)"),
        Part("stage", (len(STAGES),), "your stage, one-hot: " + " ".join(STAGES)),
        Part("restriction", (3,), "this round's restricting plague: darkness boils death"),
        Part("market", (1,), "1 while the market is open to you (not under Darkness)"),
        Part("pending_kind", (2,), "what you are paying for: a plague, a building"),
        Part("pending_plague", (len(PLAGUES),), "the plague you pay for, one-hot in rules order"),
        Part("pending_building", (len(BUILDINGS),), "the building you pay for, one-hot"),
        Part("pending_hex", (hexes,), "the hex of the building you pay for, one-hot"),
        Part("pending_wild", (1,), "1 if that building comes through the wild d20"),
        Part("pending_cost", (4,), f"its cost / {COST_SCALE:g} (grain diamond stone favor)"),
        Part("offered", (len(BUILDINGS),), "at the build step: 1 for each building offered"),
        Part("offered_wild", (len(BUILDINGS),), "1 where it is offered only through the d20"),
        Part("seat_stage", (n, 4), "each builder's public stage: " + " ".join(PUBLIC_STAGES)),
        Part("seat_column", (n, 4), "each builder's column where you see it (yours; revealed)"),
        Part("seat_have", (n, 4), "resources on hand (circled - spent) / the track's dots"),
        Part("seat_circled", (n, 4), "dots circled / the track's dots"),
        Part("seat_productivity", (n, 3), f"productivity steps / {len(sheet.steps)} (g d s)"),
        Part("seat_plagues", (n, len(CROSSABLE)), "plagues crossed off: " + " ".join(CROSSABLE)),
        Part("seat_deaths", (n,), f"Deaths suffered / {rounds}"),
        Part("seat_ships", (n, ships, 3), "each ship: unused, used, lost (one-hot)"),
        Part(
            "seat_city",
            (n, hexes, len(CITY_KINDS)),
            "each hex (the Oasis stays empty): " + " ".join(CITY_KINDS),
        ),
        Part("seat_red", (n,), "1 if the builder circled a red dot (the game ends this round)"),
        Part(
            "seat_card_points",
            (n, 5),
            f"points from each card in play (A to E) / {POINTS_SCALE:g}",
            *RANGES["seat_card_points"],
        ),
        Part(
            "seat_score",
            (n,),
            f"the score if the game ended now / {POINTS_SCALE:g}",
            *RANGES["seat_score"],
        ),
    ]


def _history_parts(players: int, sheet: Sheet) -> list[Part]:
    n, rounds = players, len(sheet.buildable)
    return [
        Part("columns_taken", (n, 4), f"rounds each builder took each column / {rounds}"),
        Part("last_columns", (n, 4), "each builder's column at the latest reveal, one-hot"),
    ]


def observation_layout(
    players: int, options: Mapping[str, Any] | None = None, sheet: Sheet | None = None
) -> TensorLayout:
    """The observation tensor's slices at a table of ``players`` (the options change nothing:
    every card of the sheet has its place)."""
    from karnak.games.egyptia.rules.sheet import default_sheet

    sheet = sheet or default_sheet()
    key = f"observation_layout/{players}"
    made = sheet.memo.get(key)
    if made is None:
        made = sheet.memo[key] = TensorLayout(_observation_parts(players, sheet))
    assert isinstance(made, TensorLayout)
    return made


def information_state_layout(
    players: int, options: Mapping[str, Any] | None = None, sheet: Sheet | None = None
) -> TensorLayout:
    """The observation's slices followed by the summary of past reveals."""
    from karnak.games.egyptia.rules.sheet import default_sheet

    sheet = sheet or default_sheet()
    key = f"information_state_layout/{players}"
    made = sheet.memo.get(key)
    if made is None:
        parts = _observation_parts(players, sheet) + _history_parts(players, sheet)
        made = sheet.memo[key] = TensorLayout(parts)
    assert isinstance(made, TensorLayout)
    return made


# ------------------------------------------------------------------------------ the plan
#: The per-builder sheet parts, consecutive in the layout (one row per relative seat).
_SHEET_PARTS: Final = (
    "seat_have",
    "seat_circled",
    "seat_productivity",
    "seat_plagues",
    "seat_deaths",
    "seat_ships",
    "seat_city",
    "seat_red",
    "seat_card_points",
    "seat_score",
)
_CARD_CACHE: Final = 8_192  # cities remembered with their card points (cleared when full)
_MARK_CACHE: Final = 4_096  # reveal tallies remembered by the last event counted (ditto)
#: The key of what a publication fixes (``_Published``) in ``state.public_cache``.
_PUBLISHED_KEY: Final = -3
_RESTRICTION_INDEX: Final = {name: i for i, name in enumerate(RESTRICTIONS)}
_PLAGUE_INDEX: Final = {name: i for i, name in enumerate(PLAGUES)}
_BUILDING_INDEX: Final = {name: i for i, name in enumerate(BUILDINGS)}
_CROSS_INDEX: Final = {name: i for i, name in enumerate(CROSSABLE)}
_RESOURCE_INDEX: Final = {name: i for i, name in enumerate(RESOURCES)}
_KINDS: Final = len(CITY_KINDS)


class Places:
    """Where one sheet's parts start (in the tensor for row 0, or in a row of
    ``_Published.rows``), by name: a native class when compiled, so reading a place is a
    field access, not a look-up."""

    __slots__ = (
        "circled",
        "city",
        "deaths",
        "have",
        "plagues",
        "points",
        "productivity",
        "red",
        "score",
        "ships",
    )

    def __init__(self, at: list[int]) -> None:
        (
            self.have,
            self.circled,
            self.productivity,
            self.plagues,
            self.deaths,
            self.ships,
            self.city,
            self.red,
            self.points,
            self.score,
        ) = at


class _Fill:
    """Where every part starts at a table of ``n`` (made once per sheet and table size), the
    zero information state, and how the published rows land in a viewer's relative rows."""

    __slots__ = (
        "cards",
        "column_sizes",
        "dice",
        "dice_values",
        "last",
        "market",
        "n",
        "observation_size",
        "offered",
        "offered_wild",
        "over",
        "pending_building",
        "pending_cost",
        "pending_hex",
        "pending_kind",
        "pending_plague",
        "pending_wild",
        "places",
        "region",
        "region_end",
        "restriction",
        "revealed",
        "round",
        "row",
        "row_places",
        "rows_of",
        "seat_column",
        "seat_stage",
        "stage",
        "taken",
        "template",
        "to_move",
    )

    def __init__(self, sheet: Sheet, n: int) -> None:
        layout = information_state_layout(n, None, sheet)
        start = {p.part.name: p.start for p in layout.parts}
        self.n = n
        self.observation_size = observation_layout(n, None, sheet).size
        self.template: FloatVector = layout.zeros()
        self.round, self.over, self.revealed = start["round"], start["over"], start["revealed"]
        self.cards = start["cards"]
        self.dice, self.dice_values = start["dice_columns"], start["dice_values"]
        self.column_sizes = start["column_sizes"]
        assert self.dice_values == self.dice + 4 * len(sheet.dice)
        self.to_move, self.stage = start["to_move"], start["stage"]
        self.restriction, self.market = start["restriction"], start["market"]
        self.pending_kind, self.pending_plague = start["pending_kind"], start["pending_plague"]
        self.pending_building, self.pending_hex = start["pending_building"], start["pending_hex"]
        self.pending_wild, self.pending_cost = start["pending_wild"], start["pending_cost"]
        self.offered, self.offered_wild = start["offered"], start["offered_wild"]
        self.seat_stage, self.seat_column = start["seat_stage"], start["seat_column"]
        self.taken, self.last = start["columns_taken"], start["last_columns"]
        widths = [layout.place(name).part.size // n for name in _SHEET_PARTS]
        local = [sum(widths[:i]) for i in range(len(widths))]
        self.places: Places = Places([start[name] for name in _SHEET_PARTS])
        self.row_places: Places = Places(local)
        self.row = sum(widths)  # one published sheet's numbers, in a row of its own
        # the sheet parts follow each other, each with its n rows: the rows of seats seat,
        # seat + 1, ... are ``rows[seat * row : (seat + n) * row][rows_of]``
        self.region = start[_SHEET_PARTS[0]]
        self.region_end = self.region + n * self.row
        at = self.region
        for name, width in zip(_SHEET_PARTS, widths, strict=True):
            assert start[name] == at
            at += n * width
        self.rows_of = np.array(
            [
                r * self.row + local[p] + j
                for p, width in enumerate(widths)
                for r in range(n)
                for j in range(width)
            ],
            dtype=np.intp,
        )


def _fill_plan(sheet: Sheet, n: int) -> _Fill:
    fills = sheet.memo.get("tensor_fills")
    if fills is None:
        fills = sheet.memo["tensor_fills"] = {}
    made = fills.get(n)
    if made is None:
        made = fills[n] = _Fill(sheet, n)
    found: _Fill = made
    return found


def _cells(vector: FloatVector) -> memoryview[float]:
    """``vector``'s items as a writable view (format ``f``, one dimension): the cheapest item
    write CPython offers from Python or compiled code."""
    return cast("memoryview[float]", vector.data)


# ------------------------------------------------------------------------------ sheets
def _card_points(state: EgyptiaState, city: list[int]) -> tuple[int, ...]:
    """Each Pharaoh card's points for ``city`` (remembered: a city changes once a round)."""
    memo = state.sheet.memo.get("tensor_card_points_by_city")
    if memo is None:
        memo = state.sheet.memo["tensor_card_points_by_city"] = {}
    key = (*state.cards, *city)
    found = memo.get(key)
    if found is None:
        if len(memo) >= _CARD_CACHE:
            memo.clear()
        sheet = state.sheet
        found = memo[key] = tuple(
            sum(card_parts(sheet, sheet.cards_by_id[c], city)) for c in state.cards
        )
    points: tuple[int, ...] = found
    return points


def _capped_favor(state: EgyptiaState) -> bool:
    """Whether the end-of-game trade stops at the end of the favor track (rules 1.1)."""
    key = f"tensor_capped_favor/{state.game.version}"
    capped = state.sheet.memo.get(key)
    if capped is None:
        capped = state.sheet.memo[key] = state.game.rules_at_least("1.1")
    return bool(capped)


def _score(
    state: EgyptiaState,
    capped: bool,
    circled: list[int],
    spent: list[int],
    card_total: int,
    ships: list[int],
    crossed: list[str],
) -> float:
    """The score if the game ended now, as ``score_sheet`` scores it, / POINTS_SCALE."""
    sheet = state.sheet
    have = (
        circled[0] - spent[0],
        circled[1] - spent[1],
        circled[2] - spent[2],
        circled[3] - spent[3],
    )
    room = sheet.dots[FAVOR] - circled[FAVOR] if capped else None
    favor = end_favor(have, sheet.basic_per_favor, room)
    total = (
        card_total
        + favor // sheet.favor_per_point
        + ships.count(SHIP_UNUSED) * sheet.ship_points
        - (sheet.pestilence_points if "pestilence" in crossed else 0)
    )
    return total / POINTS_SCALE


def _write_sheet(
    state: EgyptiaState,
    cells: memoryview[float],
    places: Places,
    shift: int,
    src: dict[str, Any],
) -> int:
    """One sheet (``src`` as ``EgyptiaState._sheet_of`` gives it) written at ``places`` +
    ``shift`` over zeros; its cards' points in all."""
    sheet = state.sheet
    circled: list[int] = src["circled"]
    spent: list[int] = src["spent"]
    dots = sheet.dots
    for i in range(4):
        cells[shift + places.have + i] = (circled[i] - spent[i]) / dots[i]
        cells[shift + places.circled + i] = circled[i] / dots[i]
    steps = len(sheet.steps)
    at = shift + places.productivity
    for p in src["productivity"]:
        cells[at] = p / steps
        at += 1
    crossed: list[str] = src["crossed"]
    for name in crossed:
        cells[shift + places.plagues + _CROSS_INDEX[name]] = 1.0
    cells[shift + places.deaths] = src["deaths"] / len(sheet.buildable)
    ships: list[int] = src["ships"]
    at = shift + places.ships
    for kind in ships:
        cells[at + kind] = 1.0
        at += 3
    city: list[int] = src["city"]
    at = shift + places.city - EMPTY
    for code in city:
        cells[at + code] = 1.0
        at += _KINDS
    cells[shift + places.red] = float(src["red"])
    points = _card_points(state, city)
    at = shift + places.points
    for x in points:
        cells[at] = x / POINTS_SCALE
        at += 1
    total = sum(points)
    capped = _capped_favor(state)
    cells[shift + places.score] = _score(state, capped, circled, spent, total, ships, crossed)
    return total


def _patch_own(
    state: EgyptiaState,
    cells: memoryview[float],
    places: Places,
    seat: int,
    ref: dict[str, Any],
    ref_points: int,
    capped: bool,
) -> None:
    """Make row 0, which holds ``ref`` (the seat's published sheet, its cards' points
    ``ref_points``), the seat's live sheet: only what differs from ``ref`` is written."""
    sheet = state.sheet
    changed = False
    circled = state.circled[seat]
    spent = state.spent[seat]
    if circled != ref["circled"] or spent != ref["spent"]:
        dots = sheet.dots
        for i in range(4):
            cells[places.have + i] = (circled[i] - spent[i]) / dots[i]
            cells[places.circled + i] = circled[i] / dots[i]
        changed = True
    productivity = state.productivity[seat]
    if productivity != ref["productivity"]:
        steps = len(sheet.steps)
        at = places.productivity
        for p in productivity:
            cells[at] = p / steps
            at += 1
    crossed = state.crossed[seat]
    if crossed != ref["crossed"]:
        for i in range(len(CROSSABLE)):
            cells[places.plagues + i] = 0.0
        for name in crossed:
            cells[places.plagues + _CROSS_INDEX[name]] = 1.0
        changed = True
    deaths = state.deaths[seat]
    if deaths != ref["deaths"]:
        cells[places.deaths] = deaths / len(sheet.buildable)
    ships = state.ships[seat]
    if ships != ref["ships"]:
        at = places.ships
        for kind in ships:
            cells[at] = 0.0
            cells[at + 1] = 0.0
            cells[at + 2] = 0.0
            cells[at + kind] = 1.0
            at += 3
        changed = True
    city = state.city[seat]
    card_total = ref_points
    was: list[int] = ref["city"]
    if city != was:
        at = places.city - EMPTY
        for h in range(len(city)):
            code = city[h]
            old = was[h]
            if code != old:
                cells[at + old] = 0.0
                cells[at + code] = 1.0
            at += _KINDS
        points = _card_points(state, city)
        at = places.points
        for x in points:
            cells[at] = x / POINTS_SCALE
            at += 1
        card_total = sum(points)
        changed = True
    red = state.red[seat]
    if red != ref["red"]:
        cells[places.red] = float(red)
    if changed:
        cells[places.score] = _score(state, capped, circled, spent, card_total, ships, crossed)


def _write_dice(state: EgyptiaState, fill: _Fill, cells: memoryview[float], clear: bool) -> None:
    """The dice's columns (over zeros unless ``clear``), values and the column sizes."""
    sheet = state.sheet
    dice = state.dice
    columns, values = fill.dice, fill.dice_values
    if clear:
        for at in range(columns, values):
            cells[at] = 0.0
    sizes = [0, 0, 0, 0]
    for i, die in enumerate(sheet.dice):
        value = dice[i]
        column = die.columns[value - 1]
        cells[columns + 4 * i + column] = 1.0
        cells[values + i] = value / die.sides
        sizes[column] += 1
    at, count = fill.column_sizes, len(sheet.dice)
    for column in range(4):
        cells[at + column] = sizes[column] / count


def _card_index(sheet: Sheet, card_id: str) -> int:
    index = sheet.memo.get("card_index")
    if index is None:
        index = sheet.memo["card_index"] = {c.id: i for i, c in enumerate(sheet.cards)}
    found: int = index[card_id]
    return found


# ------------------------------------------------------------------------------ the reveals
class _Mark:
    """The reveal events of a log up to ``event`` (the ``index``-th, counted from 1), in
    seat order at a table of ``n``: the columns each builder took, as counts (4 a builder),
    and its column at the latest reveal (-1: none yet). ``public``: every one of them was
    public (then they are the same for every seat)."""

    __slots__ = ("count", "event", "index", "latest", "n", "public", "taken")

    def __init__(
        self,
        event: Event,
        index: int,
        n: int,
        taken: list[int],
        latest: list[int],
        count: int,
        public: bool,
    ) -> None:
        self.event = event
        self.index = index
        self.n = n
        self.taken = taken
        self.latest = latest
        self.count = count
        self.public = public


#: Tallies by ``id`` of the last event counted (the mark holds the event: its id stays its
#: own). Logs are only appended to, and copies of a state share their events, so the events
#: before an event that stands ``index``-th in any log are those it had when it was
#: logged: a mark found at the same place is the tally of the same events.
_MARKS: Final[dict[int, _Mark]] = {}


def _tally(events: list[Event], n: int) -> _Mark:
    """The tally of the reveal events of ``events`` (not empty): from the latest mark on."""
    size = len(events)
    i = size
    found: _Mark | None = None
    while i > 0:
        event = events[i - 1]
        mark = _MARKS.get(id(event))
        if mark is not None and mark.event is event and mark.index == i and mark.n == n:
            found = mark
            break
        i -= 1
    if found is not None and i == size:
        return found
    if found is None:
        taken, latest, count, public = [0] * (4 * n), [-1] * n, 0, True
    else:
        taken, latest, count = found.taken[:], found.latest[:], found.count
        public = found.public
    while i < size:
        event = events[i]
        i += 1
        if not event.template.startswith(REVEAL_PREFIX):
            continue
        if event.audience is not None:
            public = False
        s = count % n  # reveals come in seat order, one per builder
        column = _RESOURCE_INDEX[event.args["column"]]
        taken[4 * s + column] += 1
        latest[s] = column
        count += 1
    made = _Mark(events[size - 1], size, n, taken, latest, count, public)
    if len(_MARKS) >= _MARK_CACHE:
        _MARKS.clear()
    _MARKS[id(made.event)] = made
    return made


def _walk(state: EgyptiaState, seat: int) -> tuple[list[int], list[int]]:
    """The tally of the reveal events ``seat`` may read, counted afresh."""
    n = state.n
    taken, latest = [0] * (4 * n), [-1] * n
    count = 0
    for event in state.log.events:
        if not event.template.startswith(REVEAL_PREFIX) or not event.visible_to(seat):
            continue
        s = count % n
        column = _RESOURCE_INDEX[event.args["column"]]
        taken[4 * s + column] += 1
        latest[s] = column
        count += 1
    return taken, latest


def _write_history(
    state: EgyptiaState,
    fill: _Fill,
    cells: memoryview[float],
    seat: int,
    taken: list[int],
    latest: list[int],
) -> None:
    """The summary parts, rows in relative seat order, over zeros."""
    n, rounds = fill.n, len(state.sheet.buildable)
    s = seat
    for row in range(n):
        at = fill.taken + 4 * row
        for column in range(4):
            times = taken[4 * s + column]
            if times:
                cells[at + column] = times / rounds
        column = latest[s]
        if column >= 0:
            cells[fill.last + 4 * row + column] = 1.0
        s += 1
        if s == n:
            s = 0


# ------------------------------------------------------------------------------ publications
class _Seen:
    """One viewer's backgrounds of a publication (made when first asked): ``blank`` with
    zero history (a state without a log), ``logged`` with the reveal tally of a logged
    state."""

    __slots__ = ("blank", "logged")

    def __init__(self) -> None:
        self.blank: FloatVector | None = None
        self.logged: FloatVector | None = None


class _Published:
    """What one publication fixes, shared by every seat and every copy of the state (kept in
    ``state.public_cache``, which a publication replaces): ``sheets``, whether the sheets are
    published (then each background holds them, the viewer's own in row 0), every published
    sheet encoded (``rows``: one row each, seat order, twice over; ``None`` alone at the
    table, where ``common`` holds the one sheet) and its cards' points; ``common``, the zero
    information state with the cards in play and the dice of ``dice``; each viewer's
    backgrounds (``common`` with the published sheets in relative rows) and the reveal
    tally of a logged state."""

    __slots__ = (
        "capped",
        "common",
        "dice",
        "fill",
        "points",
        "rows",
        "seen",
        "sheets",
        "tally",
    )

    def __init__(
        self,
        fill: _Fill,
        sheets: bool,
        rows: FloatVector | None,
        points: list[int],
        common: FloatVector,
        dice: list[int],
        capped: bool,
    ) -> None:
        self.fill = fill
        self.sheets = sheets
        self.rows = rows
        self.points = points
        self.common = common
        self.dice = dice
        self.capped = capped
        self.seen = [_Seen() for _ in range(fill.n)]
        self.tally: _Mark | None = None


def _published(state: EgyptiaState) -> _Published:
    """What the state's latest publication fixes (made when first asked)."""
    cache = state.public_cache.get(_PUBLISHED_KEY)
    if cache is not None:
        found: _Published = cache["tensors"]
        return found
    fill = _fill_plan(state.sheet, state.n)
    n, row = fill.n, fill.row
    public = state.public
    common = fill.template.copy()
    cells = _cells(common)
    sheet = state.sheet
    for card in state.cards:
        cells[fill.cards + _card_index(sheet, card)] = 1.0
    _write_dice(state, fill, cells, False)
    sheets = len(public) == n
    rows: FloatVector | None = None
    points: list[int] = []
    if sheets and n == 1:  # alone: the sheet goes into ``common``, the one background
        points.append(_write_sheet(state, cells, fill.places, 0, public[0]))
    elif sheets:
        rows = np.zeros(2 * n * row, dtype=np.float32)
        rows_cells = _cells(rows)
        for s in range(n):
            points.append(_write_sheet(state, rows_cells, fill.row_places, s * row, public[s]))
        rows[n * row :] = rows[: n * row]
    capped = _capped_favor(state)
    made = _Published(fill, sheets, rows, points, common, state.dice[:], capped)
    state.public_cache[_PUBLISHED_KEY] = {"tensors": made}
    return made


def _background(fill: _Fill, published: _Published, seat: int) -> FloatVector:
    """A new copy of ``published.common`` with the published sheets in ``seat``'s rows."""
    made = published.common.copy()
    rows = published.rows
    if rows is not None:
        row = fill.row
        made[fill.region : fill.region_end] = rows[seat * row : (seat + fill.n) * row][fill.rows_of]
    return made


def _blank(fill: _Fill, published: _Published, seat: int) -> FloatVector:
    """``seat``'s background with zero history (only ever copied)."""
    seen = published.seen[seat]
    found = seen.blank
    if found is None:
        rows = published.rows
        found = seen.blank = (
            published.common if rows is None else _background(fill, published, seat)
        )
    return found


def _logged(
    state: EgyptiaState, fill: _Fill, published: _Published, seat: int
) -> FloatVector | None:
    """``seat``'s background with the reveal tally of a logged state (``None``: the reveals
    were not all public, then each seat counts what it may read)."""
    seen = published.seen[seat]
    found = seen.logged
    if found is not None:
        return found
    tally = published.tally
    if tally is None:
        tally = _tally(state.log.events, fill.n)
        if not tally.public:
            return None
        published.tally = tally
    made = seen.logged = _background(fill, published, seat)
    _write_history(state, fill, _cells(made), seat, tally.taken, tally.latest)
    return made


# ------------------------------------------------------------------------------ tensors
def _fill(
    state: EgyptiaState, seat: int, fill: _Fill, published: _Published, cells: memoryview[float]
) -> None:
    """Write over a copy of a background of ``published`` the live numbers of the
    observation."""
    n = fill.n
    cells[fill.round] = state.round / len(state.sheet.buildable)
    over, revealed = state.over, state.revealed
    if over:
        cells[fill.over] = 1.0
    if revealed:
        cells[fill.revealed] = 1.0
    if state.dice != published.dice:
        _write_dice(state, fill, cells, True)
    # each builder's public stage, whether it decides now, its column where seen
    to_move, stages, shown = fill.to_move, fill.seat_stage, fill.seat_column
    stage_of, column_of = state.stage, state.column
    s = seat
    for row in range(n):
        stage = stage_of[s]
        if not over and stage in _DECIDING:
            cells[to_move + row] = 1.0
        cells[stages + 4 * row + _PUBLIC_INDEX[stage]] = 1.0
        column = column_of[s]
        if column >= 0 and (row == 0 or revealed):
            cells[shown + 4 * row + column] = 1.0
        s += 1
        if s == n:
            s = 0
    # the viewer's own sheet, live
    if published.sheets:
        ref, points = state.public[seat], published.points[seat]
        _patch_own(state, cells, fill.places, seat, ref, points, published.capped)
    else:
        _write_sheet(state, cells, fill.places, 0, state._sheet_of(seat))
    # the viewer's own decision
    stage = stage_of[seat]
    cells[fill.stage + _STAGE_INDEX[stage]] = 1.0
    restriction = state.restriction[seat]
    if restriction is not None:
        cells[fill.restriction + _RESTRICTION_INDEX[restriction]] = 1.0
    if restriction != "darkness":
        cells[fill.market] = 1.0
    pending = state.pending[seat]
    if pending is not None:
        if pending[0] == "plague":
            cells[fill.pending_kind] = 1.0
            cells[fill.pending_plague + _PLAGUE_INDEX[pending[1]]] = 1.0
        else:
            building: str = pending[1]
            hex_index: int = pending[2]
            wild = pending[3]
            cells[fill.pending_kind + 1] = 1.0
            cells[fill.pending_building + _BUILDING_INDEX[building]] = 1.0
            cells[fill.pending_hex + hex_index] = 1.0
            cells[fill.pending_wild] = float(wild)
            cost = state.build_cost(building, hex_index, wild)
            at = fill.pending_cost
            for i in range(4):
                cells[at + i] = cost[i] / COST_SCALE
    if stage == "build":
        offered, through = fill.offered, fill.offered_wild
        for name, by_wild in state.offered_buildings(seat).items():
            index = _BUILDING_INDEX[name]
            cells[offered + index] = 1.0
            cells[through + index] = float(by_wild)


def observation_tensor(state: EgyptiaState, seat: int) -> FloatVector:
    """What ``seat`` sees now, laid out by :func:`observation_layout`."""
    published = _published(state)
    fill = published.fill
    base = published.seen[seat].logged  # the observation's part of both backgrounds is one
    if base is None:
        base = _blank(fill, published, seat)
    out = base[: fill.observation_size].copy()
    _fill(state, seat, fill, published, _cells(out))
    return out


def information_state_tensor(state: EgyptiaState, seat: int) -> FloatVector:
    """The observation followed by the summary of the reveals the seat witnessed: how often
    each builder took each column and its column at the latest reveal, from the reveal
    events of the log (a copy without a log has zeros there). Reveals come only with a
    publication, so a logged state's tally is kept with the published sheets (a copy without
    a log, which shares them, counts for itself)."""
    published = _published(state)
    fill = published.fill
    log = state.log
    if not log.events:
        out = _blank(fill, published, seat).copy()
        cells = _cells(out)
    else:
        logged = _logged(state, fill, published, seat) if log.enabled else None
        if logged is not None:
            out = logged.copy()
            cells = _cells(out)
        else:  # a log switched off after some events, or reveals not all public
            out = _blank(fill, published, seat).copy()
            cells = _cells(out)
            taken, latest = _walk(state, seat)
            _write_history(state, fill, cells, seat, taken, latest)
    _fill(state, seat, fill, published, cells)
    return out


# ------------------------------------------------------------------------------ strings
def _bundle(values: list[int] | tuple[int, ...]) -> str:
    return " ".join(f"{v}{RESOURCES[i][0]}" for i, v in enumerate(values))


def observation_string(state: EgyptiaState, seat: int) -> str:
    """What ``seat`` sees, in a few lines: the round, the dice, the cards, the seat's own
    decision, then one line per builder (relative order, the viewer first)."""
    sheet, n = state.sheet, state.n
    flags = " (over)" if state.over else " (revealed)" if state.revealed else ""
    columns = sheet.columns_of(tuple(state.dice))
    dice = " | ".join(
        f"{RESOURCES[c]}: "
        + (" ".join(f"d{sheet.dice[i].sides}={state.dice[i]}" for i in columns[c]) or "-")
        for c in range(4)
    )
    lines = [
        f"round {state.round}{flags}; cards {' '.join(state.cards)}",
        f"dice {dice}",
    ]
    you = f"you: seat {seat}, {state.stage[seat]}"
    if state.restriction[seat]:
        you += f", {state.restriction[seat]}"
    pending = state.pending[seat]
    if pending is not None and pending[0] == "plague":
        you += f", paying for {pending[1]}"
    elif pending is not None:
        _, building, hex_index, wild = pending
        cost = state.build_cost(building, hex_index, wild)
        you += f", paying {_bundle(cost)} for {building} on {sheet.hexes[hex_index].label}"
    if state.stage[seat] == "build":
        you += ", offered " + " ".join(
            b + ("*" if wild else "") for b, wild in state.offered_buildings(seat).items()
        )
    lines.append(you)
    to_move = set(state.to_move())
    for k in range(n):
        s = (seat + k) % n
        src = state._sheet_of(s) if s == seat else state.public[s]
        score = state.score_sheet(s) if s == seat else public_sheet(state, s)["score"]
        column = state.column[s]
        shown = RESOURCES[column] if column >= 0 and (s == seat or state.revealed) else "?"
        have = [c - x for c, x in zip(src["circled"], src["spent"], strict=True)]
        city = " ".join(
            f"{sheet.hexes[i].label}={CITY_KINDS[b - EMPTY][:3]}"
            for i, b in enumerate(src["city"])
            if b != EMPTY
        )
        lines.append(
            f"+{k} {state.players[s]}: {state.public_stage(s)}"
            + ("*" if s in to_move else "")
            + f", column {shown}, have {_bundle(have)}, circled {_bundle(src['circled'])}, "
            + f"productivity {'/'.join(str(p) for p in src['productivity'])}, "
            + f"plagues {','.join(src['crossed']) or '-'}, deaths {src['deaths']}, "
            + f"ships {''.join(SHIP_KINDS[x][0] for x in src['ships'])}"
            + (", red" if src["red"] else "")
            + f", score {score['total']}; city {city or '-'}"
        )
    return "\n".join(lines)


__all__ = [
    "RANGES",
    "information_state_layout",
    "information_state_tensor",
    "observation_layout",
    "observation_string",
    "observation_tensor",
]

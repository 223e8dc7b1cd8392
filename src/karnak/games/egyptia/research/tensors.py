"""Egyptia's fixed-size tensors: what one builder sees, as float32 slices (karnak.core.tensors).

Seats are relative: row 0 is the viewer, row k the builder k places after it in seat order,
so a policy learned in one seat plays any seat. The viewer's own sheet is read live; every
other sheet is read from its last publication (``state.public``: the reveal or a round's
end), exactly as :meth:`EgyptiaState.observation` shows it; of the others' progress since,
only the public stage (choosing, chosen, building, done) is used. The others' sealed columns
appear only once revealed. The tensor is built from the state's fields, not from
``observation()``: the published sheets are encoded once per publication and shared by every
seat and every copy of the state (kept in ``state.public_cache``, which a publication
replaces).

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
from typing import TYPE_CHECKING, Any, Final

import numpy as np

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
_PUBLIC_KEY: Final = -1  # the key of the encoded published sheets in ``state.public_cache``
_REVEALS_KEY: Final = -2  # and of the tally of the reveal events, kept with them


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


# ------------------------------------------------------------------------------ sheets
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


class _Plan:
    """Where each part starts and how wide a row of each sheet part is: made once per
    sheet and table size."""

    __slots__ = ("start", "width")

    def __init__(self, layout: TensorLayout, n: int):
        self.start = {p.part.name: p.start for p in layout.parts}
        self.width = {name: layout.place(name).part.size // n for name in _SHEET_PARTS}


def _plan(sheet: Sheet, n: int) -> _Plan:
    key = f"tensor_plan/{n}"
    made = sheet.memo.get(key)
    if made is None:
        made = sheet.memo[key] = _Plan(observation_layout(n, None, sheet), n)
    assert isinstance(made, _Plan)
    return made


def _published(state: EgyptiaState) -> list[FloatVector]:
    """Every published sheet encoded, once per publication: each part's rows in seat order
    twice over, so that the rows seat, seat + 1, ... of any viewer are one slice."""
    cache = state.public_cache.get(_PUBLIC_KEY)
    if cache is None:
        n = state.n
        plan = _plan(state.sheet, n)
        put: dict[int, float] = {}
        for s in range(n):
            _sheet_values(state, state.public[s], s, plan, put)
        scratch = np.zeros(observation_layout(n, None, state.sheet).size, dtype=np.float32)
        scratch[np.fromiter(put, np.int64, len(put))] = np.fromiter(
            put.values(), np.float32, len(put)
        )
        sheets = []
        for name in _SHEET_PARTS:
            at, w = plan.start[name], plan.width[name]
            rows = scratch[at : at + n * w]
            sheets.append(np.concatenate([rows, rows]))
        cache = {"sheets": sheets}
        state.public_cache[_PUBLIC_KEY] = cache
    found: list[FloatVector] = cache["sheets"]
    return found


def _card_points(state: EgyptiaState, city: list[int]) -> tuple[int, ...]:
    """Each Pharaoh card's points for ``city`` (remembered: a city changes once a round)."""
    memo = state.sheet.memo.get("tensor_card_points")
    if memo is None:
        memo = state.sheet.memo["tensor_card_points"] = {}
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


def _live_sheet(state: EgyptiaState, seat: int) -> dict[str, Any]:
    """The viewer's own sheet as it stands (the lists themselves: only read)."""
    return {
        "circled": state.circled[seat],
        "spent": state.spent[seat],
        "productivity": state.productivity[seat],
        "crossed": state.crossed[seat],
        "deaths": state.deaths[seat],
        "ships": state.ships[seat],
        "city": state.city[seat],
        "red": state.red[seat],
    }


def _sheet_values(
    state: EgyptiaState, src: dict[str, Any], row: int, plan: _Plan, put: dict[int, float]
) -> None:
    """One sheet (``src`` as ``EgyptiaState._sheet_of`` gives it) into ``row`` of every
    sheet part, scored as ``score_sheet`` scores it (the cards' points remembered by city)."""
    sheet = state.sheet
    start, width = plan.start, plan.width
    circled, spent = src["circled"], src["spent"]
    have = (
        circled[0] - spent[0],
        circled[1] - spent[1],
        circled[2] - spent[2],
        circled[3] - spent[3],
    )
    dots = sheet.dots
    at = start["seat_have"] + 4 * row
    at2 = start["seat_circled"] + 4 * row
    for i in range(4):
        put[at + i] = have[i] / dots[i]
        put[at2 + i] = circled[i] / dots[i]
    at, steps = start["seat_productivity"] + 3 * row, len(sheet.steps)
    for i, p in enumerate(src["productivity"]):
        put[at + i] = p / steps
    at = start["seat_plagues"] + width["seat_plagues"] * row
    crossed = src["crossed"]
    for name in crossed:
        put[at + CROSSABLE.index(name)] = 1.0
    put[start["seat_deaths"] + row] = src["deaths"] / len(sheet.buildable)
    at = start["seat_ships"] + width["seat_ships"] * row
    ships = src["ships"]
    for i, kind in enumerate(ships):
        put[at + 3 * i + kind] = 1.0
    at, kinds = start["seat_city"] + width["seat_city"] * row, len(CITY_KINDS)
    city = src["city"]
    for h, code in enumerate(city):
        put[at + kinds * h + code - EMPTY] = 1.0
    put[start["seat_red"] + row] = float(src["red"])
    cards = _card_points(state, city)
    at = start["seat_card_points"] + 5 * row
    for i, points in enumerate(cards):
        put[at + i] = points / POINTS_SCALE
    room = dots[FAVOR] - circled[FAVOR] if _capped_favor(state) else None
    favor = end_favor(have, sheet.basic_per_favor, room)
    total = (
        sum(cards)
        + favor // sheet.favor_per_point
        + ships.count(SHIP_UNUSED) * sheet.ship_points
        - (sheet.pestilence_points if "pestilence" in crossed else 0)
    )
    put[start["seat_score"] + row] = total / POINTS_SCALE


# ------------------------------------------------------------------------------ tensors
def _fill_observation(state: EgyptiaState, seat: int, out: FloatVector) -> None:
    sheet, n = state.sheet, state.n
    plan = _plan(sheet, n)
    start = plan.start
    # the sheets: the others' as published (relative rows), then the viewer's own, live
    if n > 1:
        for name, doubled in zip(_SHEET_PARTS, _published(state), strict=True):
            at, w = start[name], plan.width[name]
            out[at + w : at + n * w] = doubled[(seat + 1) * w : (seat + n) * w]
    put: dict[int, float] = {}  # single numbers, written at the end in one go
    _sheet_values(state, _live_sheet(state, seat), 0, plan, put)
    put[start["round"]] = state.round / len(sheet.buildable)
    put[start["over"]] = float(state.over)
    put[start["revealed"]] = float(state.revealed)
    at = start["cards"]
    for card in state.cards:
        put[at + _card_index(sheet, card)] = 1.0
    columns, values = start["dice_columns"], start["dice_values"]
    sizes = [0, 0, 0, 0]
    for i, die in enumerate(sheet.dice):
        value = state.dice[i]
        column = die.columns[value - 1]
        put[columns + 4 * i + column] = 1.0
        put[values + i] = value / die.sides
        sizes[column] += 1
    at, count = start["column_sizes"], len(sheet.dice)
    for column in range(4):
        put[at + column] = sizes[column] / count
    # each builder's public stage, whether it decides now, its column where seen
    to_move, stages, seen = start["to_move"], start["seat_stage"], start["seat_column"]
    over, revealed = state.over, state.revealed
    stage_of, column_of = state.stage, state.column
    for row in range(n):
        s = (seat + row) % n
        stage = stage_of[s]
        if stage in _DECIDING and not over:
            put[to_move + row] = 1.0
        put[stages + 4 * row + _PUBLIC_INDEX[stage]] = 1.0
        column = column_of[s]
        if column >= 0 and (row == 0 or revealed):
            put[seen + 4 * row + column] = 1.0
    _fill_you(state, seat, start, put)
    out[np.fromiter(put, np.int64, len(put))] = np.fromiter(put.values(), np.float32, len(put))


def _card_index(sheet: Sheet, card_id: str) -> int:
    index = sheet.memo.get("card_index")
    if index is None:
        index = sheet.memo["card_index"] = {c.id: i for i, c in enumerate(sheet.cards)}
    found: int = index[card_id]
    return found


def _fill_you(state: EgyptiaState, seat: int, start: dict[str, int], put: dict[int, float]) -> None:
    stage = state.stage[seat]
    put[start["stage"] + _STAGE_INDEX[stage]] = 1.0
    restriction = state.restriction[seat]
    if restriction is not None:
        put[start["restriction"] + RESTRICTIONS.index(restriction)] = 1.0
    put[start["market"]] = float(restriction != "darkness")
    pending = state.pending[seat]
    if pending is not None and pending[0] == "plague":
        put[start["pending_kind"]] = 1.0
        put[start["pending_plague"] + PLAGUES.index(pending[1])] = 1.0
    elif pending is not None:
        _, building, hex_index, wild = pending
        put[start["pending_kind"] + 1] = 1.0
        put[start["pending_building"] + BUILDINGS.index(building)] = 1.0
        put[start["pending_hex"] + hex_index] = 1.0
        put[start["pending_wild"]] = float(wild)
        cost = state.build_cost(building, hex_index, wild)
        at = start["pending_cost"]
        for i in range(4):
            put[at + i] = cost[i] / COST_SCALE
    if stage == "build":
        offered, through = start["offered"], start["offered_wild"]
        for building, wild in state.offered_buildings(seat).items():
            put[offered + BUILDINGS.index(building)] = 1.0
            put[through + BUILDINGS.index(building)] = float(wild)


def observation_tensor(state: EgyptiaState, seat: int) -> FloatVector:
    """What ``seat`` sees now, laid out by :func:`observation_layout`."""
    out = np.zeros(observation_layout(state.n, None, state.sheet).size, dtype=np.float32)
    _fill_observation(state, seat, out)
    return out


def _reveals(state: EgyptiaState, seat: int) -> tuple[FloatVector, FloatVector]:
    """The two summary parts in seat order, twice over (so that any viewer's rows are one
    slice): how often each builder took each column / the longest game, and its column at
    the latest reveal, one-hot; from the reveal events the seat may read. Reveals come only
    with a publication, so the tally is kept with the published sheets (a copy without a
    log, which shares them, counts for itself)."""
    logged = state.log.enabled and len(state.log) > 0
    cache = state.public_cache.get(_REVEALS_KEY) if logged else None
    if cache is not None:
        found: tuple[FloatVector, FloatVector] = cache["reveals"]
        return found
    n = state.n
    taken = np.zeros((n, 4), dtype=np.float32)
    latest = np.zeros((n, 4), dtype=np.float32)
    count = 0
    for event in state.log:
        if not event.template.startswith(REVEAL_PREFIX) or not event.visible_to(seat):
            continue
        s = count % n  # reveals come in seat order, one per builder
        column = RESOURCES.index(event.args["column"])
        taken[s, column] += 1.0
        latest[s] = 0.0
        latest[s, column] = 1.0
        count += 1
    taken /= len(state.sheet.buildable)
    flat = (
        np.concatenate([taken.reshape(-1), taken.reshape(-1)]),
        np.concatenate([latest.reshape(-1), latest.reshape(-1)]),
    )
    if logged:
        state.public_cache[_REVEALS_KEY] = {"reveals": flat}
    return flat


def information_state_tensor(state: EgyptiaState, seat: int) -> FloatVector:
    """The observation followed by the summary of the reveals the seat witnessed."""
    layout = information_state_layout(state.n, state.options, state.sheet)
    out = layout.zeros()
    _fill_observation(state, seat, out)
    n = state.n
    taken, latest = _reveals(state, seat)
    at, last = layout.place("columns_taken").start, layout.place("last_columns").start
    out[at : at + 4 * n] = taken[4 * seat : 4 * (seat + n)]
    out[last : last + 4 * n] = latest[4 * seat : 4 * (seat + n)]
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

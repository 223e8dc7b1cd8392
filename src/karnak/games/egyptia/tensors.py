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
from typing import TYPE_CHECKING, Any

import numpy as np

from karnak.core.tensors import FloatVector, Part, TensorLayout
from karnak.games.egyptia.actions import PLAGUES
from karnak.games.egyptia.pharaoh import EMPTY
from karnak.games.egyptia.sheet import BUILDINGS, RESOURCES, Sheet
from karnak.games.egyptia.view import public_sheet

if TYPE_CHECKING:
    from karnak.games.egyptia.state import EgyptiaState

#: The viewer's own stage, in this order (the state's stage names).
STAGES = ("choose", "chosen", "plague", "plague_pay", "build", "build_pay", "gain", "done")
#: What the others may know of a builder's stage (``EgyptiaState.public_stage``).
PUBLIC_STAGES = ("choosing", "chosen", "building", "done")
#: The plagues that restrict a round's building.
RESTRICTIONS = ("darkness", "boils", "death")
#: The plagues crossed off a sheet (Death may come again and is counted instead).
CROSSABLE = tuple(p for p in PLAGUES if p != "death")
#: What a hex holds: empty, then the building codes 0 to 5 (pyramid ... field, Burial Mound).
CITY_KINDS = ("empty", *BUILDINGS, "mound")
SHIP_KINDS = ("unused", "used", "lost")
POINTS_SCALE = 100.0
COST_SCALE = 10.0
#: The template of the public reveal event (``EgyptiaState._reveal``), one per builder in
#: seat order: the information state counts them.
REVEAL_PREFIX = "{who} takes the {column} column"

#: The documented range of each part, where it is not [0, 1] (checked by the tests).
RANGES: dict[str, tuple[float, float]] = {
    "seat_score": (-1.0, 4.0),
    "seat_card_points": (0.0, 2.0),
}
_PUBLIC_KEY = -1  # the key of the encoded published sheets in ``state.public_cache``


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
        Part("seat_city", (n, hexes, len(CITY_KINDS)), "each hex: " + " ".join(CITY_KINDS)),
        Part("seat_red", (n,), "1 if the builder circled a red dot (the game ends this round)"),
        Part("seat_card_points", (n, 5), f"points from each Pharaoh card / {POINTS_SCALE:g}"),
        Part("seat_score", (n,), f"the score if the game ended now / {POINTS_SCALE:g}"),
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
    from karnak.games.egyptia.sheet import default_sheet

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
    from karnak.games.egyptia.sheet import default_sheet

    sheet = sheet or default_sheet()
    key = f"information_state_layout/{players}"
    made = sheet.memo.get(key)
    if made is None:
        parts = _observation_parts(players, sheet) + _history_parts(players, sheet)
        made = sheet.memo[key] = TensorLayout(parts)
    assert isinstance(made, TensorLayout)
    return made


# ------------------------------------------------------------------------------ sheets
_SHEET_PARTS = (
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


def _encode_sheets(
    state: EgyptiaState, sources: list[dict[str, Any]], scores: list[dict[str, Any]]
) -> dict[str, FloatVector]:
    """The sheet parts for ``sources`` (one row each, in the order given)."""
    sheet = state.sheet
    rows = len(sources)
    dots = np.array(sheet.dots, dtype=np.float32)
    rounds = float(len(sheet.buildable))
    circled = np.array([s["circled"] for s in sources], dtype=np.float32).reshape(rows, 4)
    spent = np.array([s["spent"] for s in sources], dtype=np.float32).reshape(rows, 4)
    prod = np.array([s["productivity"] for s in sources], dtype=np.float32).reshape(rows, 3)
    plagues = np.zeros((rows, len(CROSSABLE)), dtype=np.float32)
    ships = np.zeros((rows, len(sheet.ships), 3), dtype=np.float32)
    city = np.zeros((rows, len(sheet.hexes), len(CITY_KINDS)), dtype=np.float32)
    codes = np.array([s["city"] for s in sources], dtype=np.int64).reshape(rows, -1)
    hex_index = np.arange(len(sheet.hexes))
    for r, src in enumerate(sources):
        for name in src["crossed"]:
            plagues[r, CROSSABLE.index(name)] = 1.0
        for i, kind in enumerate(src["ships"]):
            ships[r, i, kind] = 1.0
        city[r, hex_index, codes[r] - EMPTY] = 1.0
    return {
        "seat_have": (circled - spent) / dots,
        "seat_circled": circled / dots,
        "seat_productivity": prod / float(len(sheet.steps)),
        "seat_plagues": plagues,
        "seat_deaths": np.array([s["deaths"] for s in sources], dtype=np.float32) / rounds,
        "seat_ships": ships,
        "seat_city": city,
        "seat_red": np.array([1.0 if s["red"] else 0.0 for s in sources], dtype=np.float32),
        "seat_card_points": np.array(
            [[c["points"] for c in sc["cards"]] for sc in scores], dtype=np.float32
        ).reshape(rows, 5)
        / POINTS_SCALE,
        "seat_score": np.array([sc["total"] for sc in scores], dtype=np.float32) / POINTS_SCALE,
    }


def _published(state: EgyptiaState) -> dict[str, FloatVector]:
    """Every published sheet encoded (absolute seat order), once per publication."""
    cache = state.public_cache.get(_PUBLIC_KEY)
    if cache is None:
        scores = [state.score_sheet(s, state.public[s]) for s in range(state.n)]
        cache = {"parts": _encode_sheets(state, state.public, scores)}
        state.public_cache[_PUBLIC_KEY] = cache
    parts: dict[str, FloatVector] = cache["parts"]
    return parts


# ------------------------------------------------------------------------------ tensors
def _fill_observation(
    state: EgyptiaState, seat: int, layout: TensorLayout, out: FloatVector
) -> None:
    from karnak.games.egyptia.state import DECIDING

    sheet, n = state.sheet, state.n
    view = layout.view
    order = [(seat + k) % n for k in range(n)]
    view(out, "round")[0] = state.round / len(sheet.buildable)
    view(out, "over")[0] = float(state.over)
    view(out, "revealed")[0] = float(state.revealed)
    cards = view(out, "cards")
    for card in state.cards:
        cards[_card_index(sheet, card)] = 1.0
    dice_columns, dice_values = view(out, "dice_columns"), view(out, "dice_values")
    sizes = view(out, "column_sizes")
    for i, die in enumerate(sheet.dice):
        column = die.column_of(state.dice[i])
        dice_columns[i, column] = 1.0
        dice_values[i] = state.dice[i] / die.sides
        sizes[column] += 1.0
    sizes /= len(sheet.dice)
    to_move, seat_stage, seat_column = (
        view(out, "to_move"),
        view(out, "seat_stage"),
        view(out, "seat_column"),
    )
    for row, s in enumerate(order):
        stage = state.stage[s]
        to_move[row] = float(stage in DECIDING and not state.over)
        seat_stage[row, PUBLIC_STAGES.index(state.public_stage(s))] = 1.0
        column = state.column[s]
        if column >= 0 and (s == seat or state.revealed):
            seat_column[row, column] = 1.0
    _fill_you(state, seat, layout, out)
    # the sheets: the others' as published, then the viewer's own, live
    published = _published(state)
    own = _encode_sheets(state, [state._sheet_of(seat)], [state.score_sheet(seat)])
    for name in _SHEET_PARTS:
        part = view(out, name)
        if n > 1:
            part[:] = np.roll(published[name], -seat, axis=0)
        part[0] = own[name][0]


def _card_index(sheet: Sheet, card_id: str) -> int:
    index = sheet.memo.get("card_index")
    if index is None:
        index = sheet.memo["card_index"] = {c.id: i for i, c in enumerate(sheet.cards)}
    found: int = index[card_id]
    return found


def _fill_you(state: EgyptiaState, seat: int, layout: TensorLayout, out: FloatVector) -> None:
    view = layout.view
    stage = state.stage[seat]
    view(out, "stage")[STAGES.index(stage)] = 1.0
    restriction = state.restriction[seat]
    if restriction is not None:
        view(out, "restriction")[RESTRICTIONS.index(restriction)] = 1.0
    view(out, "market")[0] = float(state.market_open(seat))
    pending = state.pending[seat]
    if pending is not None and pending[0] == "plague":
        view(out, "pending_kind")[0] = 1.0
        view(out, "pending_plague")[PLAGUES.index(pending[1])] = 1.0
    elif pending is not None:
        _, building, hex_index, wild = pending
        view(out, "pending_kind")[1] = 1.0
        view(out, "pending_building")[BUILDINGS.index(building)] = 1.0
        view(out, "pending_hex")[hex_index] = 1.0
        view(out, "pending_wild")[0] = float(wild)
        cost = state.build_cost(building, hex_index, wild)
        view(out, "pending_cost")[:] = np.array(cost, dtype=np.float32) / COST_SCALE
    if stage == "build":
        offered, through = view(out, "offered"), view(out, "offered_wild")
        for building, wild in state.offered_buildings(seat).items():
            offered[BUILDINGS.index(building)] = 1.0
            through[BUILDINGS.index(building)] = float(wild)


def observation_tensor(state: EgyptiaState, seat: int) -> FloatVector:
    """What ``seat`` sees now, laid out by :func:`observation_layout`."""
    layout = observation_layout(state.n, state.options, state.sheet)
    out = layout.zeros()
    _fill_observation(state, seat, layout, out)
    return out


def information_state_tensor(state: EgyptiaState, seat: int) -> FloatVector:
    """The observation followed by the summary of the reveals the seat witnessed."""
    layout = information_state_layout(state.n, state.options, state.sheet)
    out = layout.zeros()
    _fill_observation(state, seat, layout, out)
    n = state.n
    taken, last = layout.view(out, "columns_taken"), layout.view(out, "last_columns")
    count = 0
    latest: list[int] = [-1] * n
    for event in state.log:
        if not event.template.startswith(REVEAL_PREFIX) or not event.visible_to(seat):
            continue
        row = (count % n - seat) % n  # reveals come in seat order, one per builder
        column = RESOURCES.index(event.args["column"])
        taken[row, column] += 1.0
        latest[row] = column
        count += 1
    taken /= len(state.sheet.buildable)
    for row, column in enumerate(latest):
        if column >= 0:
            last[row, column] = 1.0
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

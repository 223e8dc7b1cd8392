"""What one seat of Egyptia may see: the dice, the cards, its own sheet as it stands, and
every other sheet as it was at the last public moment (the reveal or the end of a round).

Between those moments a builder's choices are their own: others learn only whether the
builder is still choosing, building or done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from karnak.games.egyptia.rules.actions import PLAGUE_TITLES, PLAGUES, bundle_words
from karnak.games.egyptia.rules.pharaoh import EMPTY
from karnak.games.egyptia.rules.sheet import RESOURCES

if TYPE_CHECKING:
    from karnak.games.egyptia.rules.state import EgyptiaState

SHIP_STATES = ("unused", "used", "lost")


def layout(state: EgyptiaState) -> dict[str, Any]:
    """The printed parts of the sheet and board, the same for every seat all game (made
    once per sheet and shared: observations are read, never changed)."""
    made = state.sheet.memo.get("layout")
    if made is None:
        made = state.sheet.memo["layout"] = _layout(state)
    return cast(dict[str, Any], made)


def _layout(state: EgyptiaState) -> dict[str, Any]:
    sheet = state.sheet
    return {
        "hexes": [
            {"label": h.label, "col": h.col, "row": h.row, "kind": h.kind} for h in sheet.hexes
        ],
        "river": sheet.river,
        "ships": [dict(zip(RESOURCES, s, strict=True)) for s in sheet.ships],
        "tracks": [
            {"resource": r, "dots": sheet.dots[i], "start": sheet.start[i], "red": sheet.red[i]}
            for i, r in enumerate(RESOURCES)
        ],
        "costs": {b: dict(zip(RESOURCES, c, strict=True)) for b, c in sheet.costs.items()},
        "productivity": {b: RESOURCES[t] for b, t in sheet.productivity.items()},
        "steps": list(sheet.steps),
        "dice": [
            {"die": d.sides, "building": d.building, "columns": [RESOURCES[c] for c in d.columns]}
            for d in sheet.dice
        ],
        "wild_favor": sheet.wild_favor,
        "sacred_favor": sheet.sacred_favor,
        "ranks": [{"name": r.name, "from": r.low} for r in sheet.ranks],
    }


def sheet_view(state: EgyptiaState, src: dict[str, Any]) -> dict[str, Any]:
    from karnak.games.egyptia.rules.state import NAMES

    have = [c - s for c, s in zip(src["circled"], src["spent"], strict=True)]
    steps = state.sheet.steps
    return {
        "resources": {
            r: {"have": have[i], "circled": src["circled"][i], "spent": src["spent"][i]}
            for i, r in enumerate(RESOURCES)
        },
        "productivity": {
            r: {
                "steps": src["productivity"][i],
                "bonus": steps[src["productivity"][i] - 1] if src["productivity"][i] else 0,
            }
            for i, r in enumerate(RESOURCES[:3])
        },
        "plagues": {p: (p in src["crossed"]) for p in PLAGUES if p != "death"},
        "deaths": src["deaths"],
        "ships": [SHIP_STATES[s] for s in src["ships"]],
        "city": {
            state.sheet.hexes[i].label: NAMES[b] for i, b in enumerate(src["city"]) if b != EMPTY
        },
        "buildings": sum(1 for b in src["city"] if b != EMPTY),
        "red": src["red"],
    }


def public_sheet(state: EgyptiaState, seat: int) -> dict[str, Any]:
    """A builder's sheet as published, with its score: made once per publication, since a
    view for each of 99 builders would otherwise redraw 99 sheets."""
    cached = state.public_cache.get(seat)
    if cached is None:
        src = state.public[seat]
        cached = {"sheet": sheet_view(state, src), "score": state.score_sheet(seat, src)}
        state.public_cache[seat] = cached
    return cached


def observe(state: EgyptiaState, seat: int | None) -> dict[str, Any]:
    from karnak.games.egyptia.rules.state import STAGE_NAMES

    players = []
    for s in range(state.n):
        if seat == s:
            src = state._sheet_of(s)
            shown = {"sheet": sheet_view(state, src), "score": state.score_sheet(s)}
        else:
            shown = public_sheet(state, s)
        entry: dict[str, Any] = {
            "seat": s,
            "name": state.players[s],
            "stage": state.public_stage(s),
            "column": RESOURCES[state.column[s]]
            if (seat == s or state.revealed) and state.column[s] >= 0
            else None,
            **shown,
        }
        players.append(entry)
    obs: dict[str, Any] = {
        "game": "egyptia",
        "seat": seat,
        "round": state.round,
        "over": state.over,
        "revealed": state.revealed,
        "dice": [
            {
                "die": die.sides,
                "value": state.dice[i],
                "building": die.building,
                "column": RESOURCES[die.column_of(state.dice[i])],
            }
            for i, die in enumerate(state.sheet.dice)
        ],
        "columns": [
            {
                "resource": r,
                "dice": [state.sheet.dice[i].sides for i in state.dice_in(c)],
                "plague": state.column_size(c) >= 3,
            }
            for c, r in enumerate(RESOURCES)
        ],
        "cards": [
            {
                "id": c,
                "letter": c[0],
                "text": state.sheet.card(c).text,
                "confidence": state.sheet.card(c).confidence,
            }
            for c in state.cards
        ],
        "players": players,
        "to_move": list(state.to_move()),
        "layout": layout(state),
        "decision": decision_text(state, seat),
    }
    if seat is not None:
        stage = state.stage[seat]
        pending = state.pending[seat]
        you: dict[str, Any] = {
            "stage": stage,
            "stage_name": STAGE_NAMES[stage],
            "restriction": state.restriction[seat],
            "market": state.market_open(seat),
            "pending": None,
        }
        if pending is not None and pending[0] == "plague":
            you["pending"] = {"kind": "plague", "plague": pending[1]}
        elif pending is not None:
            _, building, hex_index, wild = pending
            cost = state.build_cost(building, hex_index, wild)
            you["pending"] = {
                "kind": "build",
                "building": building,
                "hex": state.sheet.hexes[hex_index].label,
                "wild": wild,
                "cost": dict(zip(RESOURCES, cost, strict=True)),
            }
        if stage == "build":
            you["offered"] = state.offered_buildings(seat)
        obs["you"] = you
    if state.over and state.final is not None:
        ranks = state.ranks()
        obs["final"] = [
            {**result, "seat": s, "name": state.players[s], "rank": ranks[s]}
            for s, result in enumerate(state.final)
        ]
        obs["solo_rank"] = state.solo_rank()
    return obs


def decision_text(state: EgyptiaState, seat: int | None) -> str:
    if state.over:
        winners = state.winners()
        names = ", ".join(state.players[s] for s in winners)
        if state.n == 1:
            total = state.scores()[0]
            return f"The game is over: {total} points, builder status {state.solo_rank()}."
        if len(winners) > 1:
            return f"The game is over: {names} share the victory."
        return f"The game is over: {names} wins."
    waiting = len(state.to_move())
    if seat is None or state.stage[seat] not in (
        "choose",
        "plague",
        "plague_pay",
        "build",
        "build_pay",
        "gain",
    ):
        if not state.revealed:
            return f"Waiting for {waiting} builder(s) to choose a column (sealed)."
        return f"Waiting for {waiting} builder(s) to finish the round."
    stage = state.stage[seat]
    if stage == "choose":
        if state.n == 1:
            return "Choose a column to produce from."
        return "Choose a column to produce from (sealed until every builder has chosen)."
    if stage == "plague":
        return "Your column held 3 dice or more: choose a plague to suffer."
    if stage == "plague_pay":
        pending = state.pending[seat]
        assert pending is not None
        return f"Choose what to lose to {PLAGUE_TITLES[pending[1]]}."
    if stage == "build":
        rule = state.restriction[seat]
        extra = f" ({PLAGUE_TITLES[rule]} this round)" if rule else ""
        return f"Build one building on an empty hex{extra}."
    if stage == "build_pay":
        pending = state.pending[seat]
        assert pending is not None
        cost = state.build_cost(pending[1], pending[2], pending[3])
        return f"Choose how to pay {bundle_words(cost)} (market ratios allowed)."
    return "Choose the Burial Mound's resources: 2 basic or 1 favor."

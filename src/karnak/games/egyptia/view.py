"""What one seat of Egyptia may see: the dice, the cards, its own sheet as it stands, and
every other sheet as it was at the last public moment (the reveal or the end of a round).

Between those moments a builder's choices are their own: others learn only whether the
builder is still choosing, building or done.

:class:`EgyptiaObservation` declares the shape :func:`observe` returns; every client (the
terminal, the web board and guide, the heuristic, the page script) reads that shape and
nothing else of a position.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

from karnak.games.egyptia import words
from karnak.games.egyptia.i18n import _, ngettext, pgettext, t
from karnak.games.egyptia.rules.actions import PLAGUES, Build
from karnak.games.egyptia.rules.pharaoh import EMPTY
from karnak.games.egyptia.rules.sheet import RESOURCES

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.games.egyptia.rules.sheet import Sheet
    from karnak.games.egyptia.rules.state import EgyptiaState


# ---------------------------------------------------------------------- the printed parts
class HexLayout(TypedDict):
    """A hex of the map: its label (row letter and place), where it is drawn (columns in
    half hexes) and its kind (``plain``, ``sacred`` or ``oasis``)."""

    label: str
    col: int
    row: int
    kind: str


class TrackLayout(TypedDict):
    """A resource track: its dots, those circled at the start, and the red ones at its end."""

    resource: str
    dots: int
    start: int
    red: int


class DieLayout(TypedDict):
    """A die of the resource board: its sides, the building it names (``any``: the wild
    d20) and the column of each value (index 0 for a roll of 1)."""

    die: int
    building: str
    columns: list[str]


#: A solo builder status and the least score that reaches it (``from`` is a Python keyword).
RankLayout = TypedDict("RankLayout", {"name": str, "from": int})


class Layout(TypedDict):
    """The printed sheet and board: the same for every seat all game."""

    hexes: list[HexLayout]
    #: Where the river runs along the map (``top`` or ``bottom``).
    river: str
    #: What each ship carries, by resource.
    ships: list[dict[str, int]]
    tracks: list[TrackLayout]
    #: Each building's cost, by resource.
    costs: dict[str, dict[str, int]]
    #: The resource whose productivity each building raises.
    productivity: dict[str, str]
    #: The productivity bonus of each step.
    steps: list[int]
    dice: list[DieLayout]
    wild_favor: int
    sacred_favor: int
    ranks: list[RankLayout]


# ---------------------------------------------------------------------- a sheet
class ResourceView(TypedDict):
    have: int
    circled: int
    spent: int


class ProductivityView(TypedDict):
    steps: int
    bonus: int


class SheetView(TypedDict):
    """A builder's sheet (its own as it stands, another's as last published)."""

    resources: dict[str, ResourceView]
    #: Grain, diamond and stone only.
    productivity: dict[str, ProductivityView]
    #: Each plague but Death: whether it is crossed off.
    plagues: dict[str, bool]
    deaths: int
    #: Each ship: ``unused``, ``used`` or ``lost`` (to Hail-fire).
    ships: list[str]
    #: The building on each built hex, by label.
    city: dict[str, str]
    buildings: int
    #: A red dot is circled: the game ends after the round.
    red: bool


class CardScore(TypedDict):
    """What one Pharaoh card gives a city, with one part per building it scores."""

    card: str
    parts: list[int]
    points: int


class ScoreView(TypedDict):
    """A sheet's score if the game ended now (the final score once it has)."""

    cards: list[CardScore]
    favor: int
    favor_points: int
    ships_unused: int
    ship_points: int
    #: Points Pestilence takes off (0 if not suffered).
    pestilence: int
    #: Plagues crossed off (the first tie-break: fewer is better).
    plagues: int
    total: int


class PublicSheet(TypedDict):
    """A published sheet and its score (made once per publication)."""

    sheet: SheetView
    score: ScoreView


class BuilderBrief(TypedDict):
    """Another builder in short, as a crowd table's page gets it: the figures of the sheet
    as last published (the page fetches the whole sheet when asked)."""

    #: The score if the game ended now (the final score once it has).
    total: int
    #: Plagues crossed off (Death counted apart).
    plagues: int
    deaths: int
    buildings: int
    #: Ships never used.
    ships: int
    #: A red dot is circled: the game ends after the round.
    red: bool


class PlayerView(TypedDict):
    """One builder as the seat sees it.

    The engine's observation always has every builder's ``sheet`` and ``score``. A page's
    view at a crowd table (more than 12 seats) has them for the seat itself only, and every
    other builder in short (``brief``): ``GET /api/games/{id}/sheets/{seat}`` gives one
    builder in full."""

    seat: int
    name: str
    #: What the others may know: ``choosing``, ``chosen``, ``building`` or ``done``.
    stage: str
    #: The builder's column, once revealed (the seat's own always); None before.
    column: str | None
    sheet: NotRequired[SheetView]
    score: NotRequired[ScoreView]
    brief: NotRequired[BuilderBrief]


# ---------------------------------------------------------------------- the round
class DieView(TypedDict):
    """A die as it lies this round: its value, the building it names, its column."""

    die: int
    value: int
    building: str
    column: str


class ColumnView(TypedDict):
    resource: str
    #: The sides of the dice lying in it.
    dice: list[int]
    #: Three dice or more: whoever takes it suffers a plague.
    plague: bool


class CardView(TypedDict):
    """A Pharaoh card of the game: id (letter and number), its words and how sure its
    figures are (``printed``, ``one source``, ``reconstructed``)."""

    id: str
    letter: str
    text: str
    confidence: str


class PendingPlague(TypedDict):
    kind: Literal["plague"]
    plague: str


class PendingBuild(TypedDict):
    kind: Literal["build"]
    building: str
    hex: str
    #: Built through the wild d20 (its favor is in the cost).
    wild: bool
    cost: dict[str, int]


class YouView(TypedDict):
    """The seat's own round: only the seat sees it."""

    stage: str
    #: The seat's step, in the reader's language.
    stage_name: str
    #: The plague that restricts this round's building (``darkness``, ``boils``, ``death``).
    restriction: str | None
    #: Whether the market is open to the seat (Darkness closes it).
    market: bool
    #: What the seat is paying for, if anything.
    pending: PendingPlague | PendingBuild | None
    #: At the build: each building the column offers, and whether through the wild d20.
    offered: NotRequired[dict[str, bool]]
    #: At the build: the hexes each building (the Burial Mound included) may go on now,
    #: paid for, in map order.
    builds: NotRequired[dict[str, list[str]]]


class FinalResult(ScoreView):
    """A builder's final score, with its place."""

    seat: int
    name: str
    rank: int


class EgyptiaObservation(TypedDict):
    """One seat's view of a game of Egyptia (a spectator's: seat None)."""

    game: Literal["egyptia"]
    seat: int | None
    round: int
    over: bool
    #: This round's columns have been revealed.
    revealed: bool
    #: The part of the round, in the reader's words (the page's title shows it).
    phase_name: str
    dice: list[DieView]
    columns: list[ColumnView]
    cards: list[CardView]
    players: list[PlayerView]
    to_move: list[int]
    layout: Layout
    #: Who must decide what now, for this seat, in the reader's language.
    decision: str
    #: The seat's own round (absent from a spectator's view).
    you: NotRequired[YouView]
    #: Once the game is over: every builder's final score and rank.
    final: NotRequired[list[FinalResult]]
    #: Once the game is over: the solo builder status (None with others).
    solo_rank: NotRequired[str | None]


def sheet_of(game: Game) -> Sheet:
    """The printed sheet of an Egyptia game: public, the same for every seat and position,
    so the drawings read it beside the view."""
    from karnak.games.egyptia.rules.game import Egyptia

    if not isinstance(game, Egyptia):
        raise TypeError(f"not an Egyptia game: {game!r}")
    return game.sheet


def as_observation(view: Mapping[str, Any]) -> EgyptiaObservation:
    """A view handed to a client, read as Egyptia's observation (checked to be one)."""
    if view.get("game") != "egyptia":
        raise TypeError(f"not an Egyptia observation: game {view.get('game')!r}")
    return cast(EgyptiaObservation, view)


SHIP_STATES = ("unused", "used", "lost")


def layout(state: EgyptiaState) -> Layout:
    """The printed parts of the sheet and board, the same for every seat all game (made
    once per sheet and shared: observations are read, never changed)."""
    made = state.sheet.memo.get("layout")
    if made is None:
        made = state.sheet.memo["layout"] = _layout(state)
    return cast(Layout, made)


def _layout(state: EgyptiaState) -> Layout:
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


def sheet_view(state: EgyptiaState, src: Mapping[str, Any]) -> SheetView:
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


def public_sheet(state: EgyptiaState, seat: int) -> PublicSheet:
    """A builder's sheet as published, with its score: made once per publication, since a
    view for each of 99 builders would otherwise redraw 99 sheets."""
    cached = state.public_cache.get(seat)
    if cached is None:
        src = state.public[seat]
        made: PublicSheet = {
            "sheet": sheet_view(state, src),
            "score": cast(ScoreView, state.score_sheet(seat, src)),
        }
        state.public_cache[seat] = cast(dict[str, Any], made)
        return made
    return cast(PublicSheet, cached)


def _builds(state: EgyptiaState, seat: int) -> dict[str, list[str]]:
    """The hexes each building may go on now (the seat's legal builds), in map order."""
    where: dict[str, list[str]] = {}
    for action in state.legal_actions(seat):
        if isinstance(action, Build):
            where.setdefault(action.building, []).append(action.hex)
    return where


def observe(state: EgyptiaState, seat: int | None) -> EgyptiaObservation:
    players: list[PlayerView] = []
    for s in range(state.n):
        if seat == s:
            shown: PublicSheet = {
                "sheet": sheet_view(state, state._sheet_of(s)),
                "score": cast(ScoreView, state.score_sheet(s)),
            }
        else:
            shown = public_sheet(state, s)
        players.append(
            {
                "seat": s,
                "name": state.players[s],
                "stage": state.public_stage(s),
                "column": RESOURCES[state.column[s]]
                if (seat == s or state.revealed) and state.column[s] >= 0
                else None,
                "sheet": shown["sheet"],
                "score": shown["score"],
            }
        )
    obs: EgyptiaObservation = {
        "game": "egyptia",
        "seat": seat,
        "round": state.round,
        "over": state.over,
        "revealed": state.revealed,
        "phase_name": pgettext("phase", "game over")
        if state.over
        else pgettext("phase", "building")
        if state.revealed
        else pgettext("phase", "choosing columns"),
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
        you: YouView = {
            "stage": stage,
            "stage_name": words.own_stage(stage),
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
            you["builds"] = _builds(state, seat)
        obs["you"] = you
    if state.over and state.final is not None:
        ranks = state.ranks()
        obs["final"] = [
            cast(
                FinalResult,
                {**result, "seat": s, "name": state.players[s], "rank": ranks[s]},
            )
            for s, result in enumerate(state.final)
        ]
        obs["solo_rank"] = state.solo_rank()
    return obs


def decision_text(state: EgyptiaState, seat: int | None) -> str:
    """Who must decide what now, for ``seat``, in the reader's language."""
    if state.over:
        winners = state.winners()
        names = ", ".join(state.players[s] for s in winners)
        if state.n == 1:
            total = state.scores()[0]
            rank = state.solo_rank()
            return ngettext(
                "The game is over: {n} point, builder status {rank}.",
                "The game is over: {n} points, builder status {rank}.",
                total,
            ).format(n=total, rank=words.rank(rank) if rank else "")
        if len(winners) > 1:
            return t("The game is over: {names} share the victory.", names=names)
        return t("The game is over: {name} wins.", name=names)
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
            return ngettext(
                "Waiting for {n} builder to choose a column (sealed).",
                "Waiting for {n} builders to choose a column (sealed).",
                waiting,
            ).format(n=waiting)
        return ngettext(
            "Waiting for {n} builder to finish the round.",
            "Waiting for {n} builders to finish the round.",
            waiting,
        ).format(n=waiting)
    stage = state.stage[seat]
    if stage == "choose":
        if state.n == 1:
            return _("Choose a column to produce from.")
        return _("Choose a column to produce from (sealed until every builder has chosen).")
    if stage == "plague":
        return _("Your column held 3 dice or more: choose a plague to suffer.")
    if stage == "plague_pay":
        pending = state.pending[seat]
        assert pending is not None
        return t("Choose what to lose to {plague}.", plague=words.plague(pending[1]))
    if stage == "build":
        rule = state.restriction[seat]
        if rule:
            return t(
                "Build one building on an empty hex ({plague} this round).",
                plague=words.plague(rule),
            )
        return _("Build one building on an empty hex.")
    if stage == "build_pay":
        pending = state.pending[seat]
        assert pending is not None
        cost = state.build_cost(pending[1], pending[2], pending[3])
        return t("Choose how to pay {cost} (market ratios allowed).", cost=words.bundle(cost))
    return _("Choose the Burial Mound's resources: 2 basic or 1 favor.")

"""The Egyptia heuristic: every choice judged by the points it makes now and the city it
prepares, with resources valued by what they can still build.

The city plan
    For the five Pharaoh cards drawn, the exact change of each card's points when a building
    goes on an empty hex is the engine's (``pharaoh.add_gains``: the rules' own scoring of
    the hexes a building touches, no re-scoring of the city). On top comes the future: every
    empty hex is a *spot* for each card's own building, worth what the engine's rule would
    score that building there (with partial credit for a spot one building short, such as a
    hex next to one Pyramid under C3). Of a card's spots only the best few count, as
    many as the builds of its kind still expected; a placement is credited with the rise of
    the spots around it above that cut (a Pyramid that makes two Mine spots under C3) and
    charged with the spots it spoils or covers (a Mine on the only Sacred Site a Pyramid
    needs under A2, a Pyramid next to the Oasis under E3). D2 and E2, whose points grow
    faster than their buildings, are judged by the count or line they can still reach.

Resources
    A resource is worth ``ETA`` points while the rounds left can build with it (``CBAR`` a
    round), counting the production still to come (``P_BASE`` a round plus a share of the
    productivity, no more than the dots left before the red ones). A kind held beyond
    ``HORIZON`` rounds of its need counts ``SURPLUS`` (the market trades 2 for 1); what the
    rounds cannot use, and everything once the game ends, is worth what the end gives (3
    basic a favor, 2 favor a point). So productivity is worth the resources it adds in the
    rounds left, a Burial Mound its resources, and a payment is chosen to lose the least of
    that worth, keeping what is scarce.

The round
    A column is judged by what it leads to: the production (capped by the track), the
    cheapest plague when it holds 3 dice or more (Pestilence, the resources lost, the ship
    Hail-fire takes, the building Death or a restriction forbids), and the best building the
    column then offers (or a Burial Mound). A ship is used when the round it pays for is
    worth more than the 2 points it keeps.

The end
    The rounds left are the empty hexes, cut short by the other builders' tracks (each one's
    production rate so far against its dots before the red ones, and before the reveal the
    chance that it takes a column circling one). A column, ship or Burial Mound that would
    circle a red dot ends the game after the round, and its resources are judged at what
    the end gives. Solo, that is all: the rounds given up are lost. With others, they are
    given up by everyone, so their worth is kept and what counts is the chance of winning
    now against later, from the published scores (``WIN_VALUE``, ``LOSS_VALUE``).

What it may look at
    Only what its seat may see: its own sheet, the dice, the cards, and the other sheets as
    published at the last reveal or end of round. :class:`EgyptiaHeuristic` reads the seat's
    observation (it draws no world, which with 99 builders would cost more than deciding);
    :func:`act` reads the same things from a state, for ISMCTS rollouts, and never the other
    builders' sealed columns or their steps since the last public moment.

For the search: :func:`candidates` (the best few moves), :func:`evaluate` (a position's
rewards) and :func:`reward` (a finished game's; solo by the score), ``ROLLOUT_DEPTH``.
Constants were set by self-play; see ``bench/results/egyptia_bots.md``.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

from karnak.core.actions import Action
from karnak.core.agent import Bot, SeatView
from karnak.core.knowledge import (
    Candidates,
    Evaluator,
    Knowledge,
    Policy,
    Reward,
    current_style,
    pick,
    tastes,
    weight,
)
from karnak.core.rng import Rng
from karnak.games.egyptia.rules.actions import PLAGUES, Build, Choose, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.market import any_three, payments
from karnak.games.egyptia.rules.pharaoh import (
    EMPTY,
    RULES,
    PartFn,
    Places,
    add_gains,
    card_points,
    neighbour_counts,
    places,
)
from karnak.games.egyptia.rules.sheet import BUILDINGS, MOUND, RESOURCES, WILD, Sheet
from karnak.games.egyptia.rules.state import (
    BUILD,
    BUILD_PAY,
    CHOOSE,
    GAIN,
    PLAGUE,
    PLAGUE_COST,
    PLAGUE_PAY,
    SHIP_UNUSED,
    EgyptiaState,
)

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.games.egyptia.view import EgyptiaObservation

# ------------------------------------------------------------------ tuning constants
#: Points a resource is worth while the rounds left can build with it.
ETA: Final = 1.0
#: Resources a round of building uses, on average.
CBAR: Final = 3.3
#: Resources a round produces, on average, before productivity, and the share of the
#: productivity bonuses that a round brings (the column of a track is not always taken).
P_BASE: Final = 2.2
MOD_SHARE: Final = 0.35
#: Basic resources of each kind (grain, diamond, stone) a round of building uses; holdings
#: beyond this times the rounds left (at most ``HORIZON``) plus one are a surplus, worth
#: ``SURPLUS`` as much.
NEED: Final = (1.0, 1.1, 1.4)
SURPLUS: Final = 0.5
HORIZON: Final = 6.0
#: Width of the smooth minimum between resources and what the rounds can use.
SMOOTH: Final = 2.0
SMOOTH2: Final = SMOOTH * SMOOTH
HALF_SMOOTH: Final = 0.5 * SMOOTH
#: Extra worth of a favor kept (it pays Sacred Sites and the wild die; it scores more).
FAVOR_KEEP: Final = 0.15
#: Least gain over keeping a ship for which it is used.
SHIP_MARGIN: Final = 0.25
#: Weight of the future (spots made or spoiled) against points scored at once.
W_FUTURE: Final = 0.15
#: Weight of the count or line a card that grows faster than its buildings (D2, E2) can
#: still reach.
W_PLAN: Final = 0.7
#: Share of the rounds left expected to build each card's own building.
SHARE: Final = 0.3
#: Weight of the second and further spots one building makes (they compete for the same
#: few builds of their kind).
DIMINISH: Final = 0.3
#: The builds expected of a card's building, counted for the cards whose points grow faster
#: than the buildings (D2, E2), as a multiple of the share above.
CONVEX: Final = 1.0
#: Credit of a spot one neighbour short of scoring (C3's second Pyramid, B3's second
#: production building, B1's Pyramid).
PARTIAL: Final = 0.35
#: Cost of crossing off a plague (it cannot be chosen again; one more plague for ties).
CROSS_COST: Final = 0.4
#: Points-worth of winning, against the points themselves, in games with others.
WIN_VALUE: Final = 3.0
#: The same for the chance of winning that ending the game would throw away.
LOSS_VALUE: Final = 12.0
#: Share of the worth of going on that ending the game does not lose (with others).
KEEP_FUTURE: Final = 1.0
#: Width (points) of the margin's logistic when the game ends now, and its growth per
#: round still to come.
WIN_WIDTH: Final = 3.0
WIN_WIDTH_PER_ROUND: Final = 1.5
#: What an opponent is expected to add to its score in the round being played.
ROUND_GAIN: Final = 0.0
#: Chance that an opponent takes a column that circles its red dot, per such column (of 4).
HAZARD: Final = 0.5
#: Prior production per round and track for an opponent (weighted as this many rounds).
PRIOR_RATE: Final = 1.3
PRIOR_ROUNDS: Final = 2.0

#: The weights a bot's style varies (:class:`~karnak.core.knowledge.Style`), each with the
#: largest relative change: the balance of points now against the city's future, what a
#: surplus and a kept favor are worth, and how readily ships, plagues and the end are
#: chosen. Mild, so that a styled heuristic keeps the level's strength: the worth of
#: resources themselves (``ETA``, ``CBAR``, ``P_BASE``) is left alone, since varying it by
#: a tenth already cost a solo builder about a point (``bench/results/bot_styles.md``).
STYLE_WEIGHTS: Final = {
    "SURPLUS": 0.15,
    "FAVOR_KEEP": 0.3,
    "W_FUTURE": 0.25,
    "W_PLAN": 0.2,
    "SHIP_MARGIN": 0.3,
    "CROSS_COST": 0.3,
    "WIN_VALUE": 0.2,
    "LOSS_VALUE": 0.2,
}
#: Points a style's taste for a hex may add or take (:func:`~karnak.core.knowledge.tastes`):
#: hexes the rules of thumb rate alike (the sheet is symmetric, and every builder sees the
#: same dice) are settled by each style's own preference instead of the first in order.
HEX_TASTE: Final = 0.3

PY, QU, MI, OB, FI, MD = range(6)  # building codes (pharaoh.py: PYRAMID ... MOUND)
KINDS: Final = 5
CODE: Final = {name: i for i, name in enumerate(BUILDINGS)}
CODE[MOUND] = MD
WILD_DIE: Final = -1


# ------------------------------------------------------------------ sheet tables
@dataclass(frozen=True)
class _Tables:
    """Per-sheet figures as tuples of plain numbers (attribute lookups are slow)."""

    hexes: int
    buildable: tuple[int, ...]
    labels: tuple[str, ...]
    nbrs: tuple[tuple[int, ...], ...]
    sacred: tuple[bool, ...]
    near_oasis: tuple[bool, ...]
    sacred_near: tuple[int, ...]
    #: the straight lines of two hexes or more, and the indexes of those through each hex
    lines: tuple[tuple[int, ...], ...]
    lines_at: tuple[tuple[int, ...], ...]
    #: category of each hex: 2 * sacred + near the oasis (for the plagues' restrictions)
    cat: tuple[int, ...]
    costs: tuple[tuple[int, int, int, int], ...]  # per building code 0..4
    track: tuple[int, ...]  # productivity track per building code (-1: none)
    steps: tuple[int, ...]
    die_building: tuple[int, ...]  # per die: building code or WILD_DIE
    die_columns: tuple[tuple[int, ...], ...]
    limit: tuple[int, int, int, int]  # dots circled at most before a red one
    dots: tuple[int, int, int, int]
    start: tuple[int, int, int, int]
    ships: tuple[tuple[int, int, int, int], ...]
    wild_favor: int
    sacred_favor: int
    mound_gains: tuple[tuple[int, int, int, int], ...]
    favor_per_point: int
    basic_per_favor: int
    ship_points: int
    pestilence: int


_TABLES: Final[dict[int, tuple[Sheet, _Tables]]] = {}


def _tables(sheet: Sheet) -> _Tables:
    found = _TABLES.get(id(sheet))
    if found is not None and found[0] is sheet:
        return found[1]
    n = len(sheet.hexes)
    where = places(sheet)
    sacred = where.sacred
    near_oasis = where.near_oasis
    amount = sheet.mound_basic
    gains = [
        (g, d, amount - g - d, 0) for g in range(amount, -1, -1) for d in range(amount - g, -1, -1)
    ]
    if sheet.mound_favor:
        gains.append((0, 0, 0, sheet.mound_favor))
    tables = _Tables(
        hexes=n,
        buildable=sheet.buildable,
        labels=tuple(h.label for h in sheet.hexes),
        nbrs=where.neighbours,
        sacred=sacred,
        near_oasis=near_oasis,
        sacred_near=where.sacred_near,
        lines=where.lines,
        lines_at=where.lines_at,
        cat=tuple(2 * sacred[i] + near_oasis[i] for i in range(n)),
        costs=tuple(sheet.costs[b] for b in BUILDINGS),
        track=tuple(sheet.productivity.get(b, -1) for b in BUILDINGS),
        steps=sheet.steps,
        die_building=tuple(
            WILD_DIE if d.building == WILD else CODE[d.building] for d in sheet.dice
        ),
        die_columns=tuple(d.columns for d in sheet.dice),
        limit=(
            sheet.dots[0] - sheet.red[0],
            sheet.dots[1] - sheet.red[1],
            sheet.dots[2] - sheet.red[2],
            sheet.dots[3] - sheet.red[3],
        ),
        dots=sheet.dots,
        start=sheet.start,
        ships=sheet.ships,
        wild_favor=sheet.wild_favor,
        sacred_favor=sheet.sacred_favor,
        mound_gains=tuple(gains),
        favor_per_point=sheet.favor_per_point,
        basic_per_favor=sheet.basic_per_favor,
        ship_points=sheet.ship_points,
        pestilence=sheet.pestilence_points,
    )
    _TABLES[id(sheet)] = (sheet, tables)
    return tables


def _table(points: Sequence[int], count: int) -> int:
    if count <= 0:
        return 0
    return points[min(count, len(points)) - 1]


# ------------------------------------------------------------------ what the seat knows
@dataclass
class _Others:
    """The other builders as last published, summed up for one seat."""

    count: int
    #: fewest rounds before one of them circles a red dot, at its rate of production so far
    soonest: float
    #: chance that none of them circles a red dot this round (before the reveal)
    keep: float
    #: one of them has circled a red dot
    red: bool
    #: the best published score among them, worked out on demand
    best: Callable[[], float]


def _player_outlook(
    tab: _Tables,
    circled: Sequence[int],
    steps: Sequence[int],
    sizes: Sequence[int],
    done: float,
    revealed: bool,
) -> tuple[float, float]:
    """Rounds before a builder circles a red dot at its rate so far (a prior of
    ``PRIOR_RATE`` a round weighs ``PRIOR_ROUNDS``), and the chance it does not this round
    (``HAZARD`` per column of the four that would make it)."""
    soonest = math.inf
    keep = 1.0
    lim, start = tab.limit, tab.start
    bad = 0
    for t in range(4):
        room = lim[t] - circled[t]
        rate = (circled[t] - start[t] + PRIOR_RATE * PRIOR_ROUNDS) / (done + PRIOR_ROUNDS)
        if t == 3:
            rate *= 0.5
        if rate > 0.0 and room / rate < soonest:
            soonest = room / rate
        if not revealed:
            step = steps[t] if t < 3 else 0
            amount = sizes[t] + (tab.steps[step - 1] if step else 0)
            if circled[t] + amount > lim[t]:
                bad += 1
    if bad:
        keep = 1.0 - HAZARD * bad / 4
    return soonest, keep


@dataclass
class _Me:
    """Everything the deciding seat may see, read from a state or from an observation."""

    sheet: Sheet
    tab: _Tables
    rules: tuple[tuple[str, tuple[int, ...]], ...]
    card_ids: tuple[str, ...]
    city: list[int]
    have: list[int]
    circled: list[int]
    steps: list[int]
    crossed: frozenset[str]
    ships: list[int]
    red: bool
    dice: tuple[int, ...]  # value of each die
    columns: tuple[tuple[int, ...], ...]  # the dice in each column
    stage: str
    column: int
    restriction: str | None
    pending: Any
    round: int
    revealed: bool
    others: _Others


def _columns(tab: _Tables, dice: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    return tuple(
        tuple(i for i, cols in enumerate(tab.die_columns) if cols[dice[i] - 1] == c)
        for c in range(4)
    )


class _Public:
    """Every builder's outlook from one published snapshot of a state (shared by its
    clones until the next reveal or end of round), and the scores, worked out on demand."""

    def __init__(self, state: EgyptiaState, tab: _Tables, sizes: Sequence[int]):
        self.public = state.public
        self.state = state
        self.key = _public_key(state)
        done = max(0.0, state.round - (0.5 if state.revealed else 1.0))
        self.soonest: list[float] = []
        self.keep: list[float] = []
        self.red: list[bool] = []
        for snap in state.public:
            est, keep = _player_outlook(
                tab, snap["circled"], snap["productivity"], sizes, done, state.revealed
            )
            self.soonest.append(est)
            self.keep.append(keep)
            self.red.append(bool(snap["red"]))
        order = sorted(range(len(self.soonest)), key=self.soonest.__getitem__)
        self.first_two = order[:2]
        self.all_keep = math.prod(self.keep)
        self.reds = sum(self.red)
        self._scores: list[float] | None = None

    def others(self, seat: int) -> _Others:
        first = self.first_two
        nearest = [self.soonest[p] for p in first if p != seat]
        return _Others(
            count=len(self.soonest) - 1,
            soonest=nearest[0] if nearest else math.inf,
            keep=self.all_keep / self.keep[seat],
            red=self.reds - self.red[seat] > 0,
            best=lambda: self.best_score(seat),
        )

    def best_score(self, seat: int) -> float:
        if self._scores is None:
            state = self.state
            self._scores = [
                float(state.score_sheet(p, snap)["total"]) for p, snap in enumerate(self.public)
            ]
        return max((v for p, v in enumerate(self._scores) if p != seat), default=-math.inf)


#: The outlook of the last published snapshot seen (ISMCTS rollouts reuse it many times).
#: Replaced whole, never changed in place, so bots thinking in threads cannot mix two.
_PUBLIC: Final[list[_Public | None]] = [None]


def _public_key(state: EgyptiaState) -> tuple[Any, ...]:
    return (state.round, state.revealed, id(state.sheet), *state.cards, *state.dice)


def _public(state: EgyptiaState, tab: _Tables, sizes: Sequence[int]) -> _Public:
    found = _PUBLIC[0]
    if found is not None and found.public is state.public and found.key == _public_key(state):
        return found
    found = _Public(state, tab, sizes)
    _PUBLIC[0] = found
    return found


def _me_from_state(state: EgyptiaState, seat: int) -> _Me:
    sheet = state.sheet
    tab = _tables(sheet)
    c, s = state.circled[seat], state.spent[seat]
    columns = _columns(tab, state.dice)
    others = _public(state, tab, [len(col) for col in columns]).others(seat)
    return _Me(
        sheet=sheet,
        tab=tab,
        rules=_rules(sheet, tuple(state.cards)),
        card_ids=tuple(state.cards),
        city=state.city[seat],
        have=[c[0] - s[0], c[1] - s[1], c[2] - s[2], c[3] - s[3]],
        circled=list(c),
        steps=list(state.productivity[seat]),
        crossed=frozenset(state.crossed[seat]),
        ships=list(state.ships[seat]),
        red=state.red[seat],
        dice=tuple(state.dice),
        columns=columns,
        stage=state.stage[seat],
        column=state.column[seat],
        restriction=state.restriction[seat],
        pending=state.pending[seat],
        round=state.round,
        revealed=state.revealed,
        others=others,
    )


RuleList = tuple[tuple[str, tuple[int, ...]], ...]
_RULES: Final[dict[tuple[int, tuple[str, ...]], tuple[Sheet, RuleList]]] = {}


def _rules(sheet: Sheet, cards: tuple[str, ...]) -> tuple[tuple[str, tuple[int, ...]], ...]:
    key = (id(sheet), cards)
    found = _RULES.get(key)
    if found is not None and found[0] is sheet:
        return found[1]
    rules = tuple((sheet.card(c).rule, sheet.card(c).points) for c in cards)
    _RULES[key] = (sheet, rules)
    return rules


def _me_from_observation(obs: EgyptiaObservation, seat: int, sheet: Sheet) -> _Me:
    tab = _tables(sheet)
    mine = obs["players"][seat]["sheet"]
    res = mine["resources"]
    city = [EMPTY] * tab.hexes
    by_label = sheet.by_label
    for label, name in mine["city"].items():
        city[by_label[label]] = CODE[name]
    you = obs["you"]
    pending = you["pending"]
    pend: Any = None
    if pending is not None:
        if pending["kind"] == "plague":
            pend = ["plague", pending["plague"]]
        else:
            pend = ["build", pending["building"], by_label[pending["hex"]], pending["wild"]]
    dice = tuple(d["value"] for d in obs["dice"])
    columns = _columns(tab, dice)
    sizes = [len(col) for col in columns]
    revealed = bool(obs["revealed"])
    done = max(0.0, int(obs["round"]) - (0.5 if revealed else 1.0))
    soonest, keep, red, best = math.inf, 1.0, False, -math.inf
    for entry in obs["players"]:
        if entry["seat"] == seat:
            continue
        sh = entry["sheet"]
        r = sh["resources"]
        prod = sh["productivity"]
        est, chance = _player_outlook(
            tab,
            (
                r["grain"]["circled"],
                r["diamond"]["circled"],
                r["stone"]["circled"],
                r["favor"]["circled"],
            ),
            (prod["grain"]["steps"], prod["diamond"]["steps"], prod["stone"]["steps"]),
            sizes,
            done,
            revealed,
        )
        soonest = min(soonest, est)
        keep *= chance
        red = red or bool(sh["red"])
        best = max(best, float(entry["score"]["total"]))
    others = _Others(len(obs["players"]) - 1, soonest, keep, red, lambda: best)
    cards = tuple(c["id"] for c in obs["cards"])
    column = obs["players"][seat]["column"]
    return _Me(
        sheet=sheet,
        tab=tab,
        rules=_rules(sheet, cards),
        card_ids=cards,
        city=city,
        have=[res[name]["have"] for name in RESOURCES],
        circled=[res[name]["circled"] for name in RESOURCES],
        steps=[mine["productivity"][name]["steps"] for name in RESOURCES[:3]],
        crossed=frozenset(p for p, crossed in mine["plagues"].items() if crossed),
        ships=[SHIP_UNUSED if s == "unused" else 1 for s in mine["ships"]],
        red=bool(mine["red"]),
        dice=dice,
        columns=columns,
        stage=you["stage"],
        column=RESOURCES.index(column) if column is not None else -1,
        restriction=you["restriction"],
        pending=pend,
        round=int(obs["round"]),
        revealed=revealed,
        others=others,
    )


# ------------------------------------------------------------------ the model of one decision
BestRows = dict[str | None, list[tuple[tuple[float, int], ...]]]
Grid = list[list[float]]
#: :meth:`_Model._city_values` by (tables, rounds kept, cards, city): a function of these
#: alone, and a search meets the same few cities in thousands of rollouts. The tables are
#: kept with each entry (the key holds only their id). Entries are never changed once
#: stored; the whole cache is dropped when it reaches ``CITY_VALUES_KEPT`` entries.
_CITY_VALUES: Final[
    dict[tuple[Any, ...], tuple[_Tables, Grid, Grid, Grid, BestRows, BestRows]]
] = {}
CITY_VALUES_KEPT: Final = 4096


class _Model:
    """The tables one decision needs: the value of each building on each empty hex, the
    rounds expected to remain, and the worth of resources."""

    def __init__(self, me: _Me, with_city: bool = True):
        self.me = me
        tab = self.tab = me.tab
        # the weights of the style being played (the constants themselves without one)
        self.eta = weight("ETA", ETA)
        self.cbar = weight("CBAR", CBAR)
        self.p_base = weight("P_BASE", P_BASE)
        self.surplus = weight("SURPLUS", SURPLUS)
        self.favor_keep = weight("FAVOR_KEEP", FAVOR_KEEP)
        self.w_future = weight("W_FUTURE", W_FUTURE)
        self.w_plan = weight("W_PLAN", W_PLAN)
        self.ship_margin = weight("SHIP_MARGIN", SHIP_MARGIN)
        self.cross_cost = weight("CROSS_COST", CROSS_COST)
        self.win_value = weight("WIN_VALUE", WIN_VALUE)
        self.loss_value = weight("LOSS_VALUE", LOSS_VALUE)
        style = current_style().number
        self.style = style
        self.taste = [HEX_TASTE * t for t in tastes(style, "hex", tab.hexes)] if style else None
        city = me.city
        self.empty = [h for h in tab.buildable if city[h] == EMPTY]
        #: the game ends with this round whatever the seat does
        self.last = self._last_round()
        self.rounds = 0.0 if self.last else self._rounds_after()
        self.end_basic = 1.0 / (tab.basic_per_favor * tab.favor_per_point)
        self.end_favor = 1.0 / tab.favor_per_point
        self._resource_tables()
        if with_city:
            self._city_values()
        self._win: float | None = None

    # -------------------------------------------------------------- rounds
    def _last_round(self) -> bool:
        me = self.me
        if len(self.empty) - (0 if me.stage == GAIN else 1) <= 0 or me.red:
            return True
        return me.revealed and me.others.red

    def _rounds_after(self) -> float:
        """Rounds expected after the one being played: the empty hexes, or fewer when
        another builder's tracks are near their red dots."""
        me = self.me
        left = float(len(self.empty) - (0 if me.stage == GAIN else 1))
        others = me.others
        if not others.count:
            return left
        return max(0.0, min(left, others.soonest) * others.keep)

    # -------------------------------------------------------------- resources
    def _resource_tables(self) -> None:
        tab, me = self.tab, self.me
        r = self.rounds
        near = min(r, HORIZON)
        self.caps = (NEED[0] * near + 1.0, NEED[1] * near + 1.0, NEED[2] * near + 1.0)
        self.flow = r * self.p_base
        self.flow_per_mod = r * MOD_SHARE
        self.absorb = self.cbar * r
        mods = 0
        for t in range(3):
            if me.steps[t]:
                mods += tab.steps[me.steps[t] - 1]
        self.mods = mods
        #: the productivity bonus each building adds (0 once its track is at the top)
        self.mod_gain = [0] * (KINDS + 1)
        for b in range(KINDS):
            t = tab.track[b]
            if t >= 0 and me.steps[t] < len(tab.steps):
                k = me.steps[t]
                self.mod_gain[b] = tab.steps[k] - (tab.steps[k - 1] if k else 0)
        self._mound_cache: dict[tuple[int, ...], tuple[float, int]] = {}

    def worth(
        self, have: Sequence[int], circled: Sequence[int], mods: int, final: bool = False
    ) -> float:
        """Points-worth of holding ``have`` with ``circled`` dots and productivity bonuses
        ``mods`` (their sum over the tracks).

        At the end: what the end of the game gives for them. Before: ``ETA`` points per
        resource that the rounds left can build with (``CBAR`` per round), counting the
        holdings (a kind beyond what the rounds left need counts ``SURPLUS``: the market
        trades 2 for 1) and the production still to come (``P_BASE`` a round plus a share of
        the productivity, no more than the dots left before the red ones); what the rounds
        cannot use is worth what the end gives for it.
        """
        if final or self.rounds <= 0.0:
            return self.end_favor * (have[3] + (have[0] + have[1] + have[2]) * self.end_basic * 2)
        caps = self.caps
        surplus = self.surplus
        eff = float(have[3])
        x, cap = have[0], caps[0]
        eff += x if x <= cap else cap + surplus * (x - cap)
        x, cap = have[1], caps[1]
        eff += x if x <= cap else cap + surplus * (x - cap)
        x, cap = have[2], caps[2]
        eff += x if x <= cap else cap + surplus * (x - cap)
        lim = self.tab.limit
        room = 0
        for t in range(4):
            if lim[t] > circled[t]:
                room += lim[t] - circled[t]
        # smooth minima, within SMOOTH / 2 of the true ones (inlined: the hottest function)
        a, b = float(room), self.flow + self.flow_per_mod * mods
        d = a - b
        production = 0.5 * (a + b - math.sqrt(d * d + SMOOTH2)) + HALF_SMOOTH
        a, b = eff + production, self.absorb
        d = a - b
        usable = 0.5 * (a + b - math.sqrt(d * d + SMOOTH2)) + HALF_SMOOTH
        leftover = eff + production - usable
        if leftover > eff:
            leftover = eff
        elif leftover < 0.0:
            leftover = 0.0
        return self.eta * usable + self.end_basic * leftover + self.favor_keep * have[3]

    def pay(self, have: Sequence[int], cost: Sequence[int], market: bool) -> list[int] | None:
        """What is left after paying ``cost`` from ``have`` the way that keeps what is scarce
        (greedy through the market), or None if it cannot be paid."""
        g, d, s, f = have
        cg, cd, cs, cf = cost
        if g >= cg and d >= cd and s >= cs and f >= cf:
            return [g - cg, d - cd, s - cs, f - cf]
        if not market:
            return None
        # the market's ratios (market.covers, inlined)
        mg = g if g < cg else cg
        md = d if d < cd else cd
        ms = s if s < cs else cs
        mf = f if f < cf else cf
        spare_basic = g - mg + d - md + s - ms
        short = cg - mg + cd - md + cs - ms
        short_favor = cf - mf
        spare_favor = f - mf
        by_favor = spare_favor if spare_favor < short else short
        if 2 * (short - by_favor) + 3 * short_favor > spare_basic:
            return None
        left = [g - mg, d - md, s - ms, f - mf]
        caps = self.caps
        while short > 0:
            # two of the kind furthest beyond its need, unless a favor is cheaper
            t = 0
            if left[1] - caps[1] > left[t] - caps[t]:
                t = 1
            if left[2] - caps[2] > left[t] - caps[t]:
                t = 2
            if left[3] > 0 and (left[t] < 2 or left[t] - caps[t] < 2):
                left[3] -= 1
            elif left[t] >= 2:
                left[t] -= 2
            else:  # one each of two kinds (the ratios allow it)
                for _ in range(2):
                    k = max(range(3), key=left.__getitem__)
                    left[k] -= 1
            short -= 1
        for _ in range(3 * short_favor):
            t = 0
            if left[1] - caps[1] > left[t] - caps[t]:
                t = 1
            if left[2] - caps[2] > left[t] - caps[t]:
                t = 2
            if left[t] <= 0:
                t = max(range(3), key=left.__getitem__)
            left[t] -= 1
        if left[0] < 0 or left[1] < 0 or left[2] < 0 or left[3] < 0:
            return None
        return left

    # -------------------------------------------------------------- the end
    def win_shift(self) -> float:
        """With others: what ending the game after this round is worth beyond its points.

        The rounds the seat gives up are given up by the others too, so their worth (the
        seat's resources now, judged going on rather than at the end) is not lost; what
        counts is ``WIN_VALUE`` times the chance of winning now less the chance of winning
        later, from the margin over the best published score."""
        if self._win is not None:
            return self._win
        me = self.me
        if not me.others.count or self.last:
            self._win = 0.0
            return 0.0
        margin = self.points_now() - me.others.best()
        end_win = _logistic((margin - ROUND_GAIN) / WIN_WIDTH)
        later_win = _logistic(margin / (WIN_WIDTH + WIN_WIDTH_PER_ROUND * self.rounds))
        kept = self.worth(me.have, me.circled, self.mods) - self.worth(
            me.have, me.circled, self.mods, True
        )
        change = end_win - later_win
        stake = self.win_value if change > 0 else self.loss_value
        self._win = stake * change + KEEP_FUTURE * kept
        return self._win

    def points_now(self) -> float:
        """The seat's points if the game ended now (cards, favor, ships, pestilence)."""
        me, tab = self.me, self.tab
        pts = 0.0
        for card in me.card_ids:
            pts += card_points(me.sheet, me.sheet.card(card), me.city)
        h = me.have
        favor = h[3] + (h[0] + h[1] + h[2]) // tab.basic_per_favor
        pts += favor // tab.favor_per_point
        pts += tab.ship_points * sum(1 for s in me.ships if s == SHIP_UNUSED)
        if "pestilence" in me.crossed:
            pts -= tab.pestilence
        return pts

    def ends(self, circled: Sequence[int]) -> bool:
        """Whether these dots end the game after this round."""
        if self.last:
            return True
        lim = self.tab.limit
        return (
            circled[0] > lim[0] or circled[1] > lim[1] or circled[2] > lim[2] or circled[3] > lim[3]
        )

    def outcome(
        self,
        points: float,
        have: Sequence[int],
        circled: Sequence[int],
        mods: int,
    ) -> float:
        """Worth of ending the round with these resources, ``points`` made by the building."""
        if self.ends(circled):
            shift = 0.0 if self.last else self.win_shift()
            return points + self.worth(have, circled, mods, True) + shift
        return points + self.worth(have, circled, mods)

    # -------------------------------------------------------------- the city
    def _city_values(self) -> None:
        """``gain[b][h]``: the points building ``b`` (0..4, 5 = Burial Mound) on empty ``h``
        makes at once; ``future`` and ``plan`` the change of the spots and of the count or
        line a card can still reach (see :func:`_rule_future`)."""
        me, tab = self.me, self.tab
        city = me.city
        keep = math.ceil(self.rounds * SHARE) if self.rounds > 0 else 0
        key = (id(tab), keep, me.rules, self.style, *city)
        found = _CITY_VALUES.get(key)
        if found is not None and found[0] is tab:
            _, self.gain, self.future, self.plan, self.best_on, self.best_end = found
            return
        n = tab.hexes
        sheet = me.sheet
        cnt = neighbour_counts(sheet, city)
        ctx = _City(tab, places(sheet), city, cnt, self.empty)
        gain = [[0.0] * n for _ in range(KINDS + 1)]
        future = [[0.0] * n for _ in range(KINDS + 1)]
        plan = [[0.0] * n for _ in range(KINDS + 1)]
        taken = [[0.0] * n for _ in range(KINDS + 1)]
        for rule, pts in me.rules:
            # the points each building adds at once: the engine's own scoring
            add_gains(sheet, rule, pts, city, cnt, self.empty, gain)
            if keep > 0:
                _rule_future(rule, pts, ctx, future, plan, taken, keep)
        if keep > 0:
            # a hex taken by one building is lost to the spots of the others
            total = [sum(col) for col in zip(*taken[:KINDS], strict=True)]
            for b in range(KINDS + 1):
                row, mine = future[b], taken[b]
                for h in self.empty:
                    row[h] -= total[h] - mine[h]
        self.gain = gain
        self.future = future
        self.plan = plan
        # the best hex of each kind of building in each category of hex, with the future
        # (the game goes on) and without (it ends with this round)
        self.best_on = self._best(gain, future, plan, self.w_future, self.w_plan)
        self.best_end = self._best(gain, future, plan, 0.0, 0.0) if keep > 0 else self.best_on
        if len(_CITY_VALUES) >= CITY_VALUES_KEPT:
            _CITY_VALUES.clear()
        _CITY_VALUES[key] = (tab, gain, future, plan, self.best_on, self.best_end)

    def _best(
        self,
        gain: list[list[float]],
        future: list[list[float]],
        plan: list[list[float]],
        weight: float,
        plan_weight: float,
    ) -> dict[str | None, list[tuple[tuple[float, int], ...]]]:
        """Per restriction (none, Darkness, Boils), per building: the best hex off the Sacred
        Sites, and the best on one when it is worth more (it costs a favor more)."""
        cat = self.tab.cat
        empty = self.empty
        taste = self.taste
        none = (-math.inf, -1)
        rows: dict[str | None, list[tuple[tuple[float, int], ...]]] = {
            None: [],
            "darkness": [],
            "boils": [],
        }
        for b in range(KINDS + 1):
            g, fu, pl = gain[b], future[b], plan[b]
            bb = [none, none, none, none]
            for h in empty:
                v = g[h] + weight * fu[h] + plan_weight * pl[h]
                if taste is not None:
                    v += taste[h]
                c = cat[h]
                if v > bb[c][0]:
                    bb[c] = (v, h)
            plain = bb[0] if bb[0][0] >= bb[1][0] else bb[1]
            sacred = bb[2] if bb[2][0] >= bb[3][0] else bb[3]
            far = bb[0]  # Boils: neither next to the Oasis
            far_sacred = bb[2]
            for key, p, q in (
                (None, plain, sacred),
                ("darkness", plain, none),
                ("boils", far, far_sacred),
            ):
                if b == MD:  # no surcharge: only the best hex matters
                    best = p if p[0] >= q[0] else q
                    rows[key].append((best,) if best[1] >= 0 else ())
                elif q[1] >= 0 and q[0] > p[0]:
                    rows[key].append((p, q) if p[1] >= 0 else (q,))
                else:
                    rows[key].append((p,) if p[1] >= 0 else ())
        return rows

    # -------------------------------------------------------------- building
    def build_options(
        self,
        have: Sequence[int],
        circled: Sequence[int],
        restriction: str | None,
        offered: Mapping[int, bool],
    ) -> list[tuple[float, int, int]]:
        """(worth, building, hex) of the best hex of each building the seat may build, the
        Burial Mound (with its best resources) included."""
        tab = self.tab
        market = restriction != "darkness"
        ending = self.ends(circled)
        rows = (self.best_end if ending else self.best_on)[
            restriction if restriction in ("darkness", "boils") else None
        ]
        sacred = tab.sacred
        mods = self.mods
        out: list[tuple[float, int, int]] = []
        for b, wild in offered.items():
            g, d, s, f = tab.costs[b]
            if wild:
                f += tab.wild_favor
            m = mods + self.mod_gain[b]
            for v, h in rows[b]:
                left = self.pay(have, (g, d, s, f + tab.sacred_favor if sacred[h] else f), market)
                if left is None:
                    continue
                out.append((self.outcome(v, left, circled, m), b, h))
        for v, h in rows[MD]:
            out.append((self.mound_gain(have, circled, v)[0], MD, h))
        return out

    def mound_gain(
        self, have: Sequence[int], circled: Sequence[int], points: float = 0.0
    ) -> tuple[float, int]:
        """Worth of the round after a Burial Mound's best resources, and their index."""
        key = (*have, *circled)
        found = self._mound_cache.get(key)
        if found is None:
            tab = self.tab
            dots = tab.dots
            best, best_i = -math.inf, 0
            for i, g in enumerate(tab.mound_gains):
                got = [
                    g[t] if g[t] <= dots[t] - circled[t] else dots[t] - circled[t] for t in range(4)
                ]
                after = [have[0] + got[0], have[1] + got[1], have[2] + got[2], have[3] + got[3]]
                ring = [
                    circled[0] + got[0],
                    circled[1] + got[1],
                    circled[2] + got[2],
                    circled[3] + got[3],
                ]
                v = self.outcome(0.0, after, ring, self.mods)
                if v > best:
                    best, best_i = v, i
            found = self._mound_cache[key] = (best, best_i)
        return points + found[0], found[1]

    def ship_worth(self) -> float:
        return float(self.tab.ship_points)


def _logistic(z: float) -> float:
    z = max(-30.0, min(30.0, z))
    return 1.0 / (1.0 + math.exp(-z))


class _City:
    """A city seen by one decision: the sheet's places, neighbour counts (as
    :func:`~karnak.games.egyptia.rules.pharaoh.neighbour_counts` gives them), and the lines
    of Fields, worked out on first use."""

    def __init__(
        self,
        tab: _Tables,
        where: Places,
        city: Sequence[int],
        cnt: list[list[int]],
        empty: list[int],
    ):
        self.tab = tab
        self.places = where
        self.city = city
        self.cnt = cnt
        self.empty = empty
        self.obelisks = sum(1 for b in city if b == OB)
        self._lines: tuple[int, list[int], list[int], list[int]] | None = None

    def lines(self) -> tuple[int, list[int], list[int], list[int]]:
        """Most fields on one line; per line its fields and empty hexes; per hex the most
        fields on a line through it."""
        if self._lines is None:
            tab, city = self.tab, self.city
            free = set(self.empty)
            fields = [sum(1 for x in line if city[x] == FI) for line in tab.lines]
            room = [sum(1 for x in line if x in free) for line in tab.lines]
            best = max([1 if FI in city else 0, *fields])
            through = [
                max((fields[i] for i in tab.lines_at[h]), default=0) for h in range(tab.hexes)
            ]
            self._lines = (best, fields, room, through)
        return self._lines


#: The building each card scores (the engine's rule says).
OWN: Final = {rule: found.kind for rule, found in RULES.items()}
#: The buildings whose arrival next to a spot changes what the card's building scores there
#: (the engine's rule reads them).
SENSITIVE: Final = {rule: found.reads for rule, found in RULES.items() if found.reads}
#: Cards whose building scores only with enough neighbours of one kind, and that kind: a
#: spot one neighbour short of scoring gets ``PARTIAL`` credit.
ONE_SHORT: Final = {
    "quarry_pyramid_no_obelisk": PY,
    "quarry_production": QU,
    "mine_two_pyramids": PY,
}

#: What a card's own building would score on hex ``h`` with neighbours counted by ``c``
#: (``o``: Obelisks built): (points, places, h, c, o) -> points.
SpotFn = Callable[[tuple[int, ...], Places, int, list[int], int], float]


def _spot_largest_group(pts: tuple[int, ...], where: Places, h: int, c: list[int], o: int) -> float:
    """B1's largest group of Obelisks: a spot joins a group (or starts the first one)."""
    return float(pts[0] if c[OB] or not o else pts[1])


def _spot(rule: str) -> SpotFn:
    """The spot of a card: what the engine's rule scores its building there, a spot one
    neighbour short (``ONE_SHORT``) credited with ``PARTIAL`` of what it would score with
    that neighbour. D2 and E2 are judged by :func:`_count_future` and :func:`_lines_future`
    instead."""
    found = RULES[rule].part
    if found is None:
        return _spot_largest_group
    part: PartFn = found  # not optional: the closure below calls it
    short = ONE_SHORT.get(rule, -1)

    def spot(pts: tuple[int, ...], where: Places, h: int, c: list[int], o: int) -> float:
        got = part(where, h, c, pts)
        if got or short < 0:
            return float(got)
        c[short] += 1
        got = part(where, h, c, pts)
        c[short] -= 1
        return PARTIAL * got

    return spot


SPOTS: Final[dict[str, SpotFn]] = {
    rule: _spot(rule) for rule in RULES if rule not in ("obelisk_count", "fields_in_line")
}


def _rule_future(
    rule: str,
    pts: tuple[int, ...],
    ctx: _City,
    future: list[list[float]],
    plan: list[list[float]],
    taken: list[list[float]],
    keep: int,
) -> None:
    """The change of this card's best spots when a building goes on a hex.

    Of the card's spots only the best ``keep`` count (the builds of its kind the rounds left
    are expected to bring): each spot counts by how much it beats the best one beyond them
    (the cut). ``future[b][h]`` gets the rise and fall of the spots around ``h`` when ``b``
    arrives there; ``taken[own][h]`` what the hex itself is worth to the card, lost when
    another building takes it. D2 and E2 go to ``plan`` instead."""
    if rule == "fields_in_line":
        _lines_future(pts, ctx, plan, taken, keep * CONVEX)
        return
    if rule == "obelisk_count":
        _count_future(pts, ctx, plan, keep * CONVEX)
        return
    spot = SPOTS[rule]
    # where the spot is the engine's part itself, it is called directly (the hot path)
    direct = RULES[rule].part if rule not in ONE_SHORT else None
    tab, where, cnt, empty, obelisks = ctx.tab, ctx.places, ctx.cnt, ctx.empty, ctx.obelisks
    if direct is not None:
        values = [float(direct(where, h, cnt[h], pts)) for h in empty]
    else:
        values = [spot(pts, where, h, cnt[h], obelisks) for h in empty]
    ranked = sorted(values, reverse=True)
    cut = ranked[keep] if keep < len(ranked) else 0.0
    over = {}
    row = taken[OWN[rule]]
    for h, v in zip(empty, values, strict=True):
        over[h] = v - cut if v > cut else 0.0
        row[h] += over[h]
    sensitive = SENSITIVE.get(rule)
    if not sensitive:
        return
    nbrs = tab.nbrs
    for b in sensitive:
        row = future[b]
        more = obelisks + (b == OB)
        # the change of each empty spot when one more ``b`` arrives next to it
        rise: dict[int, float] = {}
        for n in empty:
            c = cnt[n]
            c[b] += 1
            if direct is not None:
                after = direct(where, n, c, pts) - cut
            else:
                after = spot(pts, where, n, c, more) - cut
            c[b] -= 1
            if after < 0.0:
                after = 0.0
            if after != over[n]:
                rise[n] = after - over[n]
        if not rise:
            continue
        for h in empty:
            # spots made next to each other compete for the same few builds: the best
            # counts in full, the others at ``DIMINISH``; spots spoiled count in full
            total = top = 0.0
            for n in nbrs[h]:
                r = rise.get(n)
                if r is not None:
                    if r > 0.0:
                        if r > top:
                            total += DIMINISH * top
                            top = r
                        else:
                            total += DIMINISH * r
                    else:
                        total += r
            total += top
            if total:
                row[h] += total


def _planned(pts: tuple[int, ...], count: int, more: float) -> float:
    """The table's points at ``count`` plus ``more`` (a fraction interpolates)."""
    low = int(more)
    part = more - low
    if not part:
        return float(_table(pts, count + low))
    return (1 - part) * _table(pts, count + low) + part * _table(pts, count + low + 1)


def _lines_future(
    pts: tuple[int, ...],
    ctx: _City,
    plan: list[list[float]],
    taken: list[list[float]],
    expected: float,
) -> None:
    """E2 (fields on one line) is judged by the line it can become: up to ``expected``
    more Fields on it, as far as its empty hexes allow. A Field is credited with its share
    of the best line through it at that count (beyond its exact gain); anything else on a
    hex of the best line is charged with what the line can then no longer become."""
    tab = ctx.tab
    best, fields, room, through = ctx.lines()
    exact_now = _table(pts, best)
    top_line, top = -1, float(exact_now)
    share = []
    for i in range(len(tab.lines)):
        f, e = fields[i], room[i]
        value = _planned(pts, f, min(float(e), expected)) + 0.01 * f  # ties: the line begun
        if value > top:
            top, top_line = value, i
        more = min(float(e - 1), expected)
        share.append(_planned(pts, f + 1, more) - _planned(pts, f, more) if e else 0.0)
    row = plan[FI]
    for h in ctx.empty:
        got = max((share[i] for i in tab.lines_at[h]), default=0.0)
        row[h] += got - (_table(pts, max(best, through[h] + 1)) - exact_now)
    if top_line >= 0:
        f, e = fields[top_line], room[top_line]
        loss = _planned(pts, f, min(float(e), expected)) - _planned(
            pts, f, min(float(e - 1), expected)
        )
        if loss:
            free = set(ctx.empty)
            for h in tab.lines[top_line]:
                if h in free:
                    for b in range(KINDS + 1):
                        if b != FI:
                            plan[b][h] -= loss


def _count_future(
    pts: tuple[int, ...], ctx: _City, plan: list[list[float]], expected: float
) -> None:
    """D2 (points by the number of Obelisks) is judged by the count it can become: an
    Obelisk is credited with its share of the table at ``expected`` more Obelisks, beyond its
    exact gain."""
    n = ctx.obelisks
    bonus = (
        _planned(pts, n + 1, expected)
        - _planned(pts, n, expected)
        - (_table(pts, n + 1) - _table(pts, n))
    )
    row = plan[OB]
    for h in ctx.empty:
        row[h] += bonus


# ------------------------------------------------------------------ the decisions
def _offered(me: _Me, restriction: str | None, column: int) -> dict[int, bool]:
    """Building code -> through the wild die, for ``column``."""
    if restriction == "death" or column < 0:
        return {}
    tab = me.tab
    direct: set[int] = set()
    wild = False
    for i in me.columns[column]:
        b = tab.die_building[i]
        if b == WILD_DIE:
            wild = True
        else:
            direct.add(b)
    offered = {b: False for b in range(KINDS) if b in direct}
    if wild:
        for b in range(KINDS):
            offered.setdefault(b, True)
    return offered


def _plague_options(
    model: _Model, have: Sequence[int], crossed: frozenset[str], ships: Sequence[int]
) -> list[tuple[float, str, int, list[int], str | None]]:
    """(points lost, plague, ship, resources left, restriction) of each plague the seat may
    suffer; a restriction's cost is the building it forbids, judged by the caller."""
    tab = model.tab
    out: list[tuple[float, str, int, list[int], str | None]] = []
    for name in PLAGUES:
        if name in crossed:
            continue
        cross = model.cross_cost if name != "death" else 0.0
        if name in PLAGUE_COST:
            left = model.pay(have, PLAGUE_COST[name], True)
            if left is None:
                continue
            out.append((cross, name, 0, left, None))
        elif name == "frogs":
            if sum(have) < 3:
                continue
            left = list(have)
            for _ in range(3):
                # the kind furthest beyond its need, favor last
                t = max(
                    (k for k in range(4) if left[k] > 0),
                    key=lambda k: (k < 3, left[k] - model.caps[k] if k < 3 else 0.0),
                )
                left[t] -= 1
            out.append((cross, name, 0, left, None))
        elif name == "pestilence":
            out.append((tab.pestilence + cross, name, 0, list(have), None))
        elif name == "hail-fire":
            for i, s in enumerate(ships):
                if s == SHIP_UNUSED:
                    out.append((model.ship_worth() + cross, name, i + 1, list(have), None))
                    break
        else:  # darkness, boils, death
            out.append((cross, name, 0, list(have), name))
    return out


def _allowed_somewhere(model: _Model, restriction: str) -> bool:
    tab = model.tab
    if restriction == "darkness":
        return any(not tab.sacred[h] for h in model.empty)
    if restriction == "boils":
        return any(not tab.near_oasis[h] for h in model.empty)
    return True


def _round_value(
    model: _Model,
    have: Sequence[int],
    circled: Sequence[int],
    restriction: str | None,
    offered: Mapping[int, bool],
) -> float:
    """Worth of the best build this round from ``have``, resources included."""
    best = -math.inf
    for v, _b, _h in model.build_options(have, circled, restriction, offered):
        if v > best:
            best = v
    return best


def _plague_values(
    model: _Model, have: Sequence[int], circled: Sequence[int], column: int
) -> list[tuple[float, Action]]:
    """Each plague the seat may suffer with the worth of the round after it (build
    included)."""
    me = model.me
    out: list[tuple[float, Action]] = []
    # plagues that leave the same resources and restriction lead to the same round (the
    # free ones all leave ``have``): judge each such round once
    rounds: dict[tuple[Any, ...], float] = {}
    for cost, name, ship, left, restriction in _plague_options(model, have, me.crossed, me.ships):
        if restriction is not None and not _allowed_somewhere(model, restriction):
            continue
        key = (restriction, *left)
        found = rounds.get(key)
        if found is None:
            offered = _offered(me, restriction, column)
            found = rounds[key] = _round_value(model, left, circled, restriction, offered)
        out.append((found - cost, Plague(name, ship)))
    return out


def _best_plague(
    model: _Model, have: Sequence[int], circled: Sequence[int], column: int
) -> tuple[float, Action]:
    """Worth of the round after the best plague (build included) and that plague."""
    return max(_plague_values(model, have, circled, column), key=lambda m: m[0])


def column_values(me: _Me, model: _Model) -> list[float]:
    """Worth of each column: production, plague and the best build it leads to."""
    tab = model.tab
    values = []
    for c in range(4):
        size = len(me.columns[c])
        step = me.steps[c] if c < 3 else 0
        amount = size + (tab.steps[step - 1] if step else 0)
        take = min(amount, tab.dots[c] - me.circled[c])
        have = list(me.have)
        have[c] += take
        circled = list(me.circled)
        circled[c] += take
        if size >= 3:
            value, _ = _best_plague(model, have, circled, c)
        else:
            value = _round_value(model, have, circled, None, _offered(me, None, c))
        values.append(value)
    return values


def _build_values(me: _Me, model: _Model) -> list[tuple[float, Action]]:
    """The seat's moves at the build: the best hex of each building, and each ship whose
    resources make the round worth more than the ship's points."""
    offered = _offered(me, me.restriction, me.column)
    moves: list[tuple[float, Action]] = []
    for v, b, h in model.build_options(me.have, me.circled, me.restriction, offered):
        name = BUILDINGS[b] if b < KINDS else MOUND
        moves.append((v + _ships_kept(me, model), Build(name, me.tab.labels[h])))
    tab = model.tab
    for i, state in enumerate(me.ships):
        if state != SHIP_UNUSED:
            continue
        gives = tab.ships[i]
        got = [min(gives[t], tab.dots[t] - me.circled[t]) for t in range(4)]
        have = [me.have[t] + got[t] for t in range(4)]
        circled = [me.circled[t] + got[t] for t in range(4)]
        value = _round_value(model, have, circled, me.restriction, offered)
        value += _ships_kept(me, model) - model.ship_worth() - model.ship_margin
        moves.append((value, UseShip(i + 1)))
    return moves


def _ships_kept(me: _Me, model: _Model) -> float:
    return model.ship_worth() * sum(1 for s in me.ships if s == SHIP_UNUSED)


def rated(me: _Me) -> list[tuple[float, Action]]:
    """The moves the heuristic weighs at the seat's decision, each with its worth in points
    (ships only at the build, where they can pay for it)."""
    stage = me.stage
    model = _Model(me, with_city=stage in (CHOOSE, PLAGUE, BUILD))
    if stage == CHOOSE:
        return [(v, Choose(c)) for c, v in enumerate(column_values(me, model))]
    if stage == PLAGUE:
        return _plague_values(model, me.have, me.circled, me.column)
    if stage == BUILD:
        return _build_values(me, model)
    if stage == GAIN:
        out: list[tuple[float, Action]] = []
        tab = model.tab
        for g in tab.mound_gains:
            got = [min(g[t], tab.dots[t] - me.circled[t]) for t in range(4)]
            after = [me.have[t] + got[t] for t in range(4)]
            ring = [me.circled[t] + got[t] for t in range(4)]
            out.append((model.outcome(0.0, after, ring, model.mods), Gain(g)))
        return out
    if stage in (PLAGUE_PAY, BUILD_PAY):
        final = model.ends(me.circled)
        return [
            (
                model.worth([me.have[t] - way[t] for t in range(4)], me.circled, model.mods, final),
                Pay(way),
            )
            for way in _pending_ways(me)
        ]
    raise ValueError(f"no decision at stage {stage!r}")


def decide(me: _Me, rng: Rng | None = None) -> Action:
    """The heuristic's move for the seat described by ``me``: the first of the best, or with
    a style being played and ``rng``, one of the best at random."""
    if rng is None:
        return max(rated(me), key=lambda m: m[0])[1]
    return pick(rated(me), rng)


def _pending_ways(me: _Me) -> tuple[tuple[int, int, int, int], ...]:
    pending = me.pending
    have = (me.have[0], me.have[1], me.have[2], me.have[3])
    if pending[0] == "plague":
        if pending[1] == "frogs":
            return any_three(have)
        return payments(PLAGUE_COST[pending[1]], have, True)
    _, building, hex_index, wild = pending
    tab = me.tab
    g, d, s, f = tab.costs[CODE[building]]
    f += (tab.wild_favor if wild else 0) + (tab.sacred_favor if tab.sacred[hex_index] else 0)
    return payments((g, d, s, f), have, me.restriction != "darkness")


def act(state: EgyptiaState, seat: int, rng: Rng) -> Action:
    """The heuristic's action for ``seat`` (one of ``state.to_move()``) in ``state``.

    Cheap enough for rollouts: no copies, no observation, no list of legal actions. It reads
    only what ``seat`` may see (its own sheet, the dice, the cards and the published sheets
    of the others), so it can be called on any world sampled for that seat. ``rng`` is
    used only to break exact ties under a style; without one the rules are deterministic.
    """
    return pick(_rated_in(state, seat), rng)


#: The last state, position (actions so far, the seat's stage and tracks) and rating:
#: ISMCTS asks for the policy's move and for the candidates of the same decision one after
#: the other. Replaced whole, never changed in place (bots may think in threads).
_LAST: Final[list[tuple[Any, tuple[Any, ...], list[tuple[float, Action]]]]] = [(None, (), [])]


def _rated_in(state: EgyptiaState, seat: int) -> list[tuple[float, Action]]:
    key = (
        len(state.history),
        seat,
        current_style().number,
        state.stage[seat],
        *state.circled[seat],
        *state.spent[seat],
    )
    last = _LAST[0]
    if last[0] is state and last[1] == key:
        return last[2]
    moves = rated(_me_from_state(state, seat))
    _LAST[0] = (state, key, moves)
    return moves


# ------------------------------------------------------------------ for the search
#: Moves a search considers at one decision (the best by the heuristic's worth), and how far
#: below the best a move may be rated and still be searched.
SEARCH_MOVES: Final = 3
SEARCH_MARGIN: Final = 4.0
#: Actions a rollout plays before :func:`evaluate` judges the position.
ROLLOUT_DEPTH: Final = 8
#: Solo: the score that counts as an even result and the width of the reward's logistic.
#: Issue 35 suspected this curve, flat at the 66-72 points the search scores, of keeping
#: longer searches from gaining; a reward linear in the score (0 at 40, 1 at 100) measured
#: worse on the same seeds (bench/egyptia_solo.py, bench/results/egyptia_solo.md), so the
#: logistic stays.
SOLO_MID: Final = 55.0
SOLO_WIDTH: Final = 8.0
#: Points-worth of a resource in :func:`evaluate` while the game goes on, and the width
#: (points) of the logistic that turns a lead into a chance of winning.
EVAL_RESOURCE: Final = 0.6
EVAL_WIDTH: Final = 4.0
#: What an ordinary build of the rounds left scores, against which D2's and E2's growth is
#: counted in :func:`evaluate`.
GROWTH_BASE: Final = 4.0


def candidates(state: EgyptiaState, seat: int, actions: Sequence[Action]) -> list[Action]:
    """The moves a search should spend its time on: the ``SEARCH_MOVES`` best by the
    heuristic's worth, leaving out those rated more than ``SEARCH_MARGIN`` points below the
    best (ships only where they can pay for the building)."""
    moves = sorted(_rated_in(state, seat), key=lambda m: -m[0])
    floor = moves[0][0] - SEARCH_MARGIN
    keep = [a for v, a in moves[:SEARCH_MOVES] if v >= floor]
    legal = set(actions)
    return [a for a in keep if a in legal] or list(actions)


def _estimate(state: EgyptiaState, seat: int, ending: bool) -> float:
    """A seat's points if the game ended now, its resources counted at ``EVAL_RESOURCE``
    each while the game goes on."""
    sheet = state.sheet
    tab = _tables(sheet)
    city = state.city[seat]
    pts = 0.0
    for card in state.cards:
        pts += card_points(sheet, sheet.card(card), city)
    h = state.have(seat)
    if ending:
        pts += (h[3] + (h[0] + h[1] + h[2]) // tab.basic_per_favor) // tab.favor_per_point
    else:
        pts += EVAL_RESOURCE * (h[0] + h[1] + h[2] + h[3])
    pts += tab.ship_points * sum(1 for x in state.ships[seat] if x == SHIP_UNUSED)
    if "pestilence" in state.crossed[seat]:
        pts -= tab.pestilence
    if not ending:
        pts += _growth(state, seat, tab)
    return pts


def _growth(state: EgyptiaState, seat: int, tab: _Tables) -> float:
    """What the cards that grow faster than their buildings (D2, E2) add when the rounds
    left bring their share of Obelisks or Fields, beyond the same builds' usual points: a
    city on the way to many Obelisks is worth more than its count scores yet."""
    rules = _rules(state.sheet, tuple(state.cards))
    city = state.city[seat]
    empty = sum(1 for h in tab.buildable if city[h] == EMPTY)
    more = SHARE * CONVEX * empty
    if not more:
        return 0.0
    extra = 0.0
    for rule, pts in rules:
        if rule == "obelisk_count":
            n = sum(1 for b in city if b == OB)
            extra += _planned(pts, n, more) - _table(pts, n) - GROWTH_BASE * more
        elif rule == "fields_in_line":
            best = 0.0
            now = 1 if FI in city else 0
            for line in tab.lines:
                f = sum(1 for x in line if city[x] == FI)
                now = max(now, f)
                e = sum(1 for x in line if city[x] == EMPTY and x != state.sheet.oasis)
                best = max(best, _planned(pts, f, min(float(e), more)))
            extra += max(0.0, best - _table(pts, now) - GROWTH_BASE * more)
    return max(0.0, extra)


def solo_reward(points: float) -> float:
    """A lone builder's reward for ``points``: a logistic around ``SOLO_MID``."""
    return _logistic((points - SOLO_MID) / SOLO_WIDTH)


def _rewards(points: Sequence[float], width: float) -> list[float]:
    """Rewards like ISMCTS's ``rank_rewards`` from estimated points: half the share of
    seats beaten, half the chance of winning (a softmax of the points)."""
    n = len(points)
    if n == 1:
        return [solo_reward(points[0])]
    order = sorted(points)
    top = order[-1]
    weights = [math.exp(max(-30.0, (p - top) / width)) for p in points]
    total = sum(weights)
    out = []
    for p, w in zip(points, weights, strict=True):
        below = bisect_left(order, p)
        tied = bisect_right(order, p) - below - 1
        out.append(0.5 * (below + 0.5 * tied) / (n - 1) + 0.5 * w / total)
    return out


def evaluate(state: EgyptiaState) -> list[float]:
    """Each seat's reward in [0, 1] from its points if the game ended now plus its
    resources (ISMCTS's judge of a rollout cut short). Solo: :func:`solo_reward` of the
    points, as a finished game is judged, so leaves and finished rollouts agree."""
    if state.is_over():
        return reward(state)
    ending = any(state.red) and all(s in ("done", "chosen") for s in state.stage)
    points = [_estimate(state, s, ending) for s in range(state.n)]
    return _rewards(points, EVAL_WIDTH)


def reward(state: EgyptiaState) -> list[float]:
    """The rewards of a finished game: ISMCTS's rank rewards with others; solo, where the
    rank is always first, :func:`solo_reward` of the score."""
    if state.n == 1:
        return [solo_reward(state.scores()[0])]
    from karnak.core.knowledge import final_rewards

    return list(final_rewards(state))


# ------------------------------------------------------------------ the bot
class EgyptiaHeuristic(Bot):
    """Rules of thumb for Egyptia, deciding from its seat's observation."""

    name = "heuristic"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        game = view.game
        sheet: Sheet = game.sheet  # type: ignore[attr-defined]
        from karnak.games.egyptia.view import as_observation

        me = _me_from_observation(as_observation(view.observation), view.seat, sheet)
        action = decide(me, rng)
        if action in view.legal_actions:
            return action
        # Never expected (the tests check every stage); stay legal rather than fail a game.
        return view.legal_actions[-1]


def make_heuristic(game: Game) -> Bot:
    """The heuristic bot for Egyptia (the ``heuristic`` bot, found through the plugin)."""
    return EgyptiaHeuristic()


#: What the search borrows from these rules of thumb (found through the game's plugin).
KNOWLEDGE: Final = Knowledge(
    heuristic=make_heuristic,
    policy=cast("Policy", act),
    evaluator=cast("Evaluator", evaluate),
    candidates=cast("Candidates", candidates),
    reward=cast("Reward", reward),
    rollout_depth=ROLLOUT_DEPTH,
    style_weights=STYLE_WEIGHTS,
)

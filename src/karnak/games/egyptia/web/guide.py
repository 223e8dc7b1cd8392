"""The guide of Egyptia's game page: the phases of a round in our own words, the current one,
what comes next, what the seat is to do, and why its decision matters, with the figures of
its own sheet (see karnak.core.plugin.WebPage).

Everything here is read from the seat's observation and legal moves, plus the printed
figures of the sheet (costs, tracks, ships, card rules: ``game.sheet`` is the same for
every seat and every position). No state reaches it, so a builder's guide cannot tell what
another builder chose or did in private. What a building or a payment would change of the
score is the engine's scoring (``rules/pharaoh.py``), never worked out again here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.games.egyptia.rules.actions import (
    PLAGUE_TITLES,
    Build,
    Gain,
    Pay,
    Plague,
    UseShip,
    bundle_words,
)
from karnak.games.egyptia.rules.market import affordable, any_three, payments
from karnak.games.egyptia.rules.pharaoh import EMPTY, card_points, city_gains, end_extras
from karnak.games.egyptia.rules.sheet import BUILDINGS, MOUND, RESOURCES, WILD, Bundle
from karnak.games.egyptia.rules.sheet import Sheet as PrintedSheet
from karnak.games.egyptia.rules.state import CODES, PLAGUE_COST, TITLES
from karnak.games.egyptia.view import (
    EgyptiaObservation,
    PendingBuild,
    PendingPlague,
    YouView,
    as_observation,
    sheet_of,
)

#: How many payments the guide lists one by one (the page folds the dearer ones too).
SHOWN_PAYMENTS = 8


# ---------------------------------------------------------------------- the seat's sheet
@dataclass(frozen=True)
class Mine:
    """The seat's own sheet as its observation shows it, in the engine's terms."""

    sheet: PrintedSheet
    cards: tuple[str, ...]
    have: Bundle
    circled: Bundle
    city: tuple[int, ...]
    ships: tuple[str, ...]
    crossed: frozenset[str]
    bonus: Mapping[str, int]
    steps: Mapping[str, int]
    card_total: int
    total: int
    pestilence: bool
    red: bool
    trade_capped: bool  # rules 1.1: the end-of-game trade stops where the favor track ends

    @property
    def ships_unused(self) -> int:
        return sum(1 for s in self.ships if s == "unused")

    def points(
        self,
        have: Bundle | None = None,
        circled: Bundle | None = None,
        ships_unused: int | None = None,
        pestilence: bool | None = None,
    ) -> int:
        """The score if the game ended now, with some of the sheet changed (the engine's
        scoring of what lies beyond the cards)."""
        _, favor_points, ship_points, pestilence_points = end_extras(
            self.sheet,
            self.have if have is None else have,
            self.circled if circled is None else circled,
            self.ships_unused if ships_unused is None else ships_unused,
            self.pestilence if pestilence is None else pestilence,
            self.trade_capped,
        )
        return self.card_total + favor_points + ship_points - pestilence_points

    @cached_property
    def gains(self) -> list[list[int]]:
        """What each building (by code) on each empty hex adds to the Pharaoh cards now
        (the engine's :func:`~karnak.games.egyptia.rules.pharaoh.city_gains`)."""
        sheet = self.sheet
        return city_gains(sheet, [sheet.card(c) for c in self.cards], self.city)

    def cards_with(self, building: str, label: str) -> int:
        """What drawing ``building`` on ``label`` adds to the Pharaoh cards now."""
        index = self.sheet.by_label[label]
        if self.city[index] == EMPTY:
            return self.gains[CODES[building]][index]
        city = list(self.city)  # a hex built on: the cards scored again
        city[index] = CODES[building]
        sheet = self.sheet
        return sum(card_points(sheet, sheet.card(c), city) for c in self.cards) - self.card_total

    def paid(self, pending: PendingPlague | PendingBuild | None, way: Bundle) -> int:
        """The score if the game ended after paying ``way`` for ``pending`` (a building
        then stands on its hex, so its cards count too)."""
        after = self.points(have=minus(self.have, way))
        if pending is not None and pending["kind"] == "build":
            after += self.cards_with(pending["building"], pending["hex"])
        return after

    def gain(self, bundle: Bundle) -> tuple[Bundle, Bundle, list[str]]:
        """Circling ``bundle``: what is then on hand and circled, and what to know about it
        (what does not fit on a track is lost; a red dot ends the game)."""
        sheet = self.sheet
        have, circled, notes = list(self.have), list(self.circled), []
        for i, amount in enumerate(bundle):
            if not amount:
                continue
            room = sheet.dots[i] - circled[i]
            take = min(amount, room)
            if take < amount:
                notes.append(f"only {take} fit on the {RESOURCES[i]} track")
            first_red = sheet.dots[i] - sheet.red[i]
            if sheet.red[i] and circled[i] <= first_red < circled[i] + take:
                notes.append("a red dot: the game ends after this round")
            have[i] += take
            circled[i] += take
        return _bundle(have), _bundle(circled), notes


def _bundle(values: Sequence[int]) -> Bundle:
    return (values[0], values[1], values[2], values[3])


def mine(sheet: PrintedSheet, obs: EgyptiaObservation, seat: int, capped: bool) -> Mine:
    """The seat's sheet from its observation (``capped``: rules 1.1's end-of-game trade)."""
    me = obs["players"][seat]
    own = me["sheet"]
    city = [EMPTY] * len(sheet.hexes)
    for label, building in own["city"].items():
        city[sheet.by_label[label]] = CODES[building]
    resources = own["resources"]
    cards = tuple(c["id"] for c in obs["cards"])
    return Mine(
        sheet=sheet,
        cards=cards,
        have=_bundle([resources[r]["have"] for r in RESOURCES]),
        circled=_bundle([resources[r]["circled"] for r in RESOURCES]),
        city=tuple(city),
        ships=tuple(own["ships"]),
        crossed=frozenset(p for p, crossed in own["plagues"].items() if crossed),
        bonus={r: entry["bonus"] for r, entry in own["productivity"].items()},
        steps={r: entry["steps"] for r, entry in own["productivity"].items()},
        card_total=sum(c["points"] for c in me["score"]["cards"]),
        total=me["score"]["total"],
        pestilence=bool(me["score"]["pestilence"]),
        red=bool(own["red"]),
        trade_capped=capped,
    )


# ---------------------------------------------------------------------- words
def words(bundle: Bundle) -> str:
    return bundle_words(bundle)


def holdings(have: Bundle) -> str:
    """All four resources, zeros included: ``3 grain, 0 diamond, 2 stone, 1 favor``."""
    return ", ".join(f"{n} {RESOURCES[i]}" for i, n in enumerate(have))


def minus(have: Bundle, paid: Bundle) -> Bundle:
    return _bundle([h - p for h, p in zip(have, paid, strict=True)])


def score_change(before: int, after: int) -> str:
    return f"score if the game ended now {before} → {after}"


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def names(items: Sequence[str]) -> str:
    """``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


# ---------------------------------------------------------------------- the phases
def phases(sheet: PrintedSheet, solo: bool) -> list[dict[str, str]]:
    """The round and the game in order, in our own words, with the sheet's figures."""
    making = [TITLES[b] for b in BUILDINGS if b in sheet.productivity]
    steps = sheet.steps
    sealed = "" if solo else ", at the same time as everyone and in secret"
    return [
        {
            "key": "roll",
            "name": "The roll",
            "text": f"The {len(sheet.dice)} dice are rolled. A die's value puts it in the "
            "grain, diamond, stone or favor column; the die itself names a building (the "
            f"d20: any building, for {sheet.wild_favor} favor more).",
        },
        {
            "key": "choose",
            "name": "Choose a column" + ("" if solo else " (sealed)"),
            "text": f"Each builder picks one column{sealed}; several may pick the same one.",
        },
        {
            "key": "produce",
            "name": "Reveal and produce",
            "text": "The choices are shown. Each builder circles one resource of the "
            "column's kind per die in it, plus their productivity for that resource; an "
            "empty column gives the productivity alone.",
        },
        {
            "key": "plague",
            "name": "Plague (3+ dice)",
            "text": "Whoever took a column of 3 dice or more suffers one plague they can pay "
            "for or keep to, and crosses it off for the rest of the game. Death is never "
            "crossed off and may come again.",
        },
        {
            "key": "build",
            "name": "Build",
            "text": "Draw one building that a die of your column shows on an empty hex (never "
            f"the Oasis); a Sacred Site costs {sheet.sacred_favor} favor more. A Burial Mound "
            f"is always allowed instead: free, and it gives {sheet.mound_basic} basic "
            f"resources or {sheet.mound_favor} favor.",
        },
        {
            "key": "pay",
            "name": "Pay (the market)",
            "text": "Scribble out the cost. Through the market, 2 basic resources pay for 1 "
            "other basic one, 3 basic for 1 favor, 1 favor for 1 basic. "
            f"{names(making)} each move their resource's productivity one step, up to "
            f"+{steps[-1]}.",
        },
        {
            "key": "ships",
            "name": "Ships, at any time",
            "text": f"Each of your {len(sheet.ships)} ships may be used once a game for the "
            f"resources beside it; each one never used scores {sheet.ship_points} points at "
            "the end.",
        },
        {
            "key": "round_end",
            "name": "The round ends",
            "text": "When every builder has built, every sheet is shown to all and the dice "
            "are rolled again.",
        },
        {
            "key": "game_end",
            "name": "The end",
            "text": "Circling a red dot (the last dots of a track) ends the game after that "
            "round, for everyone; so does a full map. Resources that do not fit on their "
            "track are lost.",
        },
        {
            "key": "scoring",
            "name": "Final scoring",
            "text": "The five Pharaoh cards score each city; then 1 point per "
            f"{sheet.favor_per_point} favor ({sheet.basic_per_favor} basic resources left "
            f"over trade for 1 favor), {sheet.ship_points} points per unused ship, minus "
            f"{sheet.pestilence_points} for Pestilence. A tie goes to the fewest plagues "
            "crossed off, then the most favor.",
        },
    ]


PHASE_OF_STAGE = {
    "choose": "choose",
    "chosen": "choose",
    "plague": "plague",
    "plague_pay": "pay",
    "build": "build",
    "build_pay": "pay",
    "gain": "build",
    "done": "round_end",
}


# ---------------------------------------------------------------------- the guide
def guide(
    game: Game, view: Mapping[str, Any], seat: int | None, legal: Sequence[Action]
) -> dict[str, Any]:
    """Built from the seat's observation and legal moves only, with the game's printed
    figures."""
    sheet = sheet_of(game)
    obs = as_observation(view)
    builders = len(obs["players"])
    result: dict[str, Any] = {
        "phases": phases(sheet, builders == 1),
        "phase": None,
        "next": None,
        "task": None,
        "explain": [],
    }
    if obs["over"]:
        result["phase"] = "scoring"
        return result
    if seat is None:
        result["phase"] = "build" if obs["revealed"] else "choose"
        result["next"] = (
            "The round's end, when every builder has built: then every sheet is shown."
            if obs["revealed"]
            else "The reveal, when every builder has chosen a column."
        )
        return result
    you = obs["you"]
    stage = you["stage"]
    me = mine(sheet, obs, seat, game.rules_at_least("1.1"))
    result["phase"] = PHASE_OF_STAGE.get(stage)
    result["next"] = _next(stage, obs, me)
    result["task"] = _task(stage, you, legal, builders)
    explain: list[dict[str, Any]] = []
    if stage == "choose":
        explain.append(_columns(obs, me))
    elif stage == "chosen":
        explain.append(_chosen(obs, seat, me))
    elif stage == "plague":
        explain.append(_plagues(obs, seat, me, legal))
    elif stage in ("plague_pay", "build_pay"):
        explain.append(_payments(you, me, legal))
    elif stage == "build":
        explain.extend(_buildings(obs, you, me, legal))
    elif stage == "gain":
        explain.append(_gains(me, legal))
    if stage in ("chosen", "build", "done"):
        ships = _ships(me, legal)
        if ships is not None:
            explain.append(ships)
    result["explain"] = explain
    return result


def _next(stage: str, obs: EgyptiaObservation, me: Mine) -> str:
    solo = len(obs["players"]) == 1
    waiting = len(obs["to_move"])
    if me.red:
        ending = "This is the last round: you circled a red dot, so the game ends with it."
    else:
        ending = ""
    if stage == "choose":
        text = (
            "Production from the column you choose, then building."
            if solo
            else "The reveal: when every builder has chosen, all the columns are shown and "
            "each builder produces."
        )
    elif stage == "chosen":
        text = (
            "The reveal, once the last builder still choosing has chosen."
            if waiting == 1
            else f"The reveal, once the {waiting} builders still choosing have chosen."
        )
    elif stage == "plague":
        text = "Pay for the plague if it takes resources, then build one building."
    elif stage == "plague_pay":
        text = "Then build one building."
    elif stage == "build":
        text = (
            "Pay for it (you choose how when there is more than one way); a Burial Mound "
            "gives its reward instead."
        )
    elif stage == "done" and not solo:
        text = (
            "The round ends when the last builder still building is done"
            if waiting == 1
            else f"The round ends when the {waiting} builders still building are done"
        ) + "; then every sheet is shown."
    else:
        text = (
            "The round ends: a new roll."
            if solo
            else "The round ends when every builder has built; then every sheet is shown."
        )
    return f"{text} {ending}".strip()


def _task(stage: str, you: YouView, legal: Sequence[Action], builders: int) -> str | None:
    pending = you["pending"]
    ships = any(isinstance(a, UseShip) for a in legal)
    if stage == "choose":
        return "Choose a column" + (" (sealed)" if builders > 1 else "")
    if stage == "plague":
        return "Choose a plague"
    if stage == "plague_pay" and pending is not None and pending["kind"] == "plague":
        return f"Choose what to lose to {PLAGUE_TITLES[pending['plague']]}"
    if stage == "build":
        if you["restriction"] == "death":
            return "Build a Burial Mound (Death)"
        return "Build one building"
    if stage == "build_pay" and pending is not None and pending["kind"] == "build":
        return f"Pay for your {TITLES[pending['building']]}"
    if stage == "gain":
        return "Choose the Burial Mound's reward"
    return "Waiting: you may use a ship" if ships else None


# ---------------------------------------------------------------------- the column
def _column_buildings(obs: EgyptiaObservation, resource: str) -> tuple[list[str], bool]:
    """The buildings the dice of a column show, and whether the d20 (any) is among them."""
    direct: list[str] = []
    wild = False
    for die in obs["dice"]:
        if die["column"] != resource:
            continue
        if die["building"] == WILD:
            wild = True
        elif die["building"] not in direct:
            direct.append(die["building"])
    return direct, wild


def _affordable_after(me: Mine, have: Bundle, direct: list[str], wild: bool) -> list[str]:
    sheet = me.sheet
    found = []
    for building in BUILDINGS:
        if building in direct:
            cost = sheet.costs[building]
        elif wild:
            g, d, s, f = sheet.costs[building]
            cost = (g, d, s, f + sheet.wild_favor)
        else:
            continue
        if affordable(cost, have, True):
            found.append(TITLES[building])
    return found


def _columns(obs: EgyptiaObservation, me: Mine) -> dict[str, Any]:
    lines = []
    for column in obs["columns"]:
        resource = column["resource"]
        index = RESOURCES.index(resource)
        count = len(column["dice"])
        bonus = me.bonus.get(resource, 0)
        amount = count + bonus
        bundle = [0, 0, 0, 0]
        bundle[index] = amount
        have, _, notes = me.gain(_bundle(bundle))
        direct, wild = _column_buildings(obs, resource)
        shown = [TITLES[b] for b in direct] + (
            [f"d20: any building for {me.sheet.wild_favor} favor more"] if wild else []
        )
        dice = plural(count, "die", "dice")
        made = f"+{amount} {resource}"
        if bonus:
            made += f" ({count} + {bonus} productivity)"
        line = (
            f"{resource.capitalize()}: {dice}"
            + (f" ({', '.join(shown)})" if shown else "")
            + f" → {made}, {me.have[index]} → {have[index]} on hand"
        )
        if notes:
            line += f" ({'; '.join(notes)})"
        if column["plague"]:
            line += "; a plague first"
        if not direct and not wild:
            line += "; only a Burial Mound to build"
        else:
            can = _affordable_after(me, have, direct, wild)
            line += (
                f"; you could then pay for {names(can)}"
                if can
                else "; you could pay for none of them: a Burial Mound"
            )
        lines.append(line + ".")
    lines.append(
        f"A Sacred Site costs {me.sheet.sacred_favor} favor more; a column of 3 dice or more "
        "brings a plague before you build."
    )
    return {"title": "What each column gives you", "lines": lines}


def _chosen(obs: EgyptiaObservation, seat: int, me: Mine) -> dict[str, Any]:
    resource = obs["players"][seat]["column"]
    assert resource is not None, "the seat sees its own column once chosen"
    column = next(c for c in obs["columns"] if c["resource"] == resource)
    count = len(column["dice"])
    amount = count + me.bonus.get(resource, 0)
    lines = [
        f"You chose the {resource} column: +{amount} {resource} at the reveal"
        + ("; then a plague (3 dice or more)." if column["plague"] else "."),
        "The others see only that you have chosen, until every builder has.",
    ]
    return {"title": "Your sealed choice", "lines": lines}


# ---------------------------------------------------------------------- plagues
def _empty(me: Mine) -> list[int]:
    return [i for i in me.sheet.buildable if me.city[i] == EMPTY]


def _best_payment(me: Mine, ways: Sequence[Bundle]) -> Bundle:
    """The way of paying that keeps the most points, then the fewest resources."""
    return max(ways, key=lambda way: (me.points(have=minus(me.have, way)), -sum(way)))


def _plagues(
    obs: EgyptiaObservation, seat: int, me: Mine, legal: Sequence[Action]
) -> dict[str, Any]:
    sheet = me.sheet
    offered = [a for a in legal if isinstance(a, Plague)]
    resource = obs["players"][seat]["column"]
    assert resource is not None, "a plague comes with a column chosen"
    direct, wild = _column_buildings(obs, resource)
    empty = _empty(me)
    lines = []
    for plague in offered:
        name = plague.name
        title = PLAGUE_TITLES[name]
        if name in PLAGUE_COST or name == "frogs":
            ways = any_three(me.have) if name == "frogs" else payments(PLAGUE_COST[name], me.have)
            way = _best_payment(me, ways)
            left = minus(me.have, way)
            what = "3 resources of your choice" if name == "frogs" else words(PLAGUE_COST[name])
            how = "" if way == PLAGUE_COST.get(name) else f", e.g. {words(way)}"
            lines.append(
                f"{title}: lose {what}{how}, leaving {holdings(left)}; "
                f"{score_change(me.total, me.points(have=left))}."
            )
        elif name == "pestilence":
            lines.append(
                f"{title}: nothing now, {sheet.pestilence_points} points off at the end; "
                f"{score_change(me.total, me.points(pestilence=True))}."
            )
        elif name == "darkness":
            closed = [i for i in empty if sheet.hexes[i].sacred]
            exact = [
                TITLES[b]
                for b in BUILDINGS
                if (b in direct or wild)
                and all(
                    h >= c for h, c in zip(me.have, _cost(sheet, b, b not in direct), strict=True)
                )
            ]
            can = f"you could still pay for {names(exact)}" if exact else "only a Burial Mound"
            lines.append(
                f"{title}: no market and no Sacred Site this round: closes {len(closed)} of "
                f"your {len(empty)} empty hexes (the Sacred Sites); paying the exact cost, {can}."
            )
        elif name == "boils":
            near = set(sheet.neighbours[sheet.oasis])
            closed = [i for i in empty if i in near]
            lines.append(
                f"{title}: no building next to your Oasis this round: closes {len(closed)} of "
                f"your {len(empty)} empty hexes (those next to the Oasis)."
            )
        elif name == "hail-fire":
            gives = sheet.ships[plague.ship - 1]
            lines.append(
                f"{title}, ship {plague.ship}: lose it ({words(gives)}) and the "
                f"{sheet.ship_points} points it scores unused; "
                f"{score_change(me.total, me.points(ships_unused=me.ships_unused - 1))}."
            )
        elif name == "death":
            lines.append(
                f"{title}: build a Burial Mound this round (free, then {sheet.mound_basic} basic "
                f"or {sheet.mound_favor} favor) instead of your column's buildings; never crossed "
                "off, so it may come again and does not count in a tie."
            )
    lines.append(
        "Each plague but Death is crossed off for good, and a tie goes to the builder with "
        f"the fewest crossed off (you have {len(me.crossed)})."
    )
    return {"title": "What each plague costs you now", "lines": lines}


def _cost(sheet: PrintedSheet, building: str, wild: bool, sacred: bool = False) -> Bundle:
    g, d, s, f = sheet.costs[building]
    return (
        g,
        d,
        s,
        f + (sheet.wild_favor if wild else 0) + (sheet.sacred_favor if sacred else 0),
    )


# ---------------------------------------------------------------------- paying
def _payments(you: YouView, me: Mine, legal: Sequence[Action]) -> dict[str, Any]:
    pending = you["pending"]
    assert pending is not None, "a payment is always for something pending"
    ways = [a.bundle for a in legal if isinstance(a, Pay)]
    plague = ""
    if pending["kind"] == "build":
        cost = _bundle([pending["cost"][r] for r in RESOURCES])
        title = f"Paying {words(cost)} for your {TITLES[pending['building']]} on {pending['hex']}"
    else:
        plague = pending["plague"]
        cost = PLAGUE_COST.get(plague, (0, 0, 0, 0))
        what = "3 resources of your choice" if plague == "frogs" else words(cost)
        title = f"Losing {what} to {PLAGUE_TITLES[plague]}"
    lines = [f"You have {holdings(me.have)}; score if the game ended now {me.total}."]
    if pending["kind"] == "build":
        adds = me.cards_with(pending["building"], pending["hex"])
        lines[0] = lines[0][:-1] + f"; the {TITLES[pending['building']]} adds {adds} to your cards."
    for way in ways[:SHOWN_PAYMENTS]:
        left = minus(me.have, way)
        lines.append(
            f"Pay {words(way)}: leaves {holdings(left)}; "
            f"{score_change(me.total, me.paid(pending, way))}."
        )
    if len(ways) > SHOWN_PAYMENTS:
        more = len(ways) - SHOWN_PAYMENTS
        lines.append(f"… and {plural(more, 'dearer way')}.")
    if pending["kind"] == "build" or plague != "frogs":
        lines.append(
            "The market: 2 basic pay for 1 other basic, 3 basic for 1 favor, 1 favor for 1 basic."
        )
    return {"title": title, "lines": lines}


# ---------------------------------------------------------------------- building
def _buildings(
    obs: EgyptiaObservation, you: YouView, me: Mine, legal: Sequence[Action]
) -> list[dict[str, Any]]:
    sheet = me.sheet
    offered: Mapping[str, bool] = you.get("offered") or {}
    where: dict[str, list[str]] = {}
    for action in legal:
        if isinstance(action, Build):
            where.setdefault(action.building, []).append(action.hex)
    lines = []
    for building in [*offered, MOUND]:
        hexes = where.get(building, [])
        title = TITLES[building]
        if building == MOUND:
            head = (
                f"{title}: free on any of {plural(len(hexes), 'hex', 'hexes')}, then "
                f"{sheet.mound_basic} basic or {sheet.mound_favor} favor"
            )
        else:
            wild = offered[building]
            cost = words(_cost(sheet, building, wild))
            extra = " through the d20" if wild else ""
            head = f"{title}{extra}: {cost} (+{sheet.sacred_favor} favor on a Sacred Site)"
            if not hexes:
                lines.append(f"{head}: you cannot pay for it now.")
                continue
            head += f", on {plural(len(hexes), 'hex', 'hexes')}"
        if hexes:
            gains = [(me.cards_with(building, h), h) for h in hexes]
            top = max(g for g, _ in gains)
            best = [h for g, h in gains if g == top]
            if len(best) == len(hexes):
                head += f"; your cards {signed(top)} wherever it goes"
            else:
                shown = ", ".join(best[:4]) + (f" (+{len(best) - 4} more)" if len(best) > 4 else "")
                head += f"; best for your cards now: {signed(top)} on {shown}"
        track = sheet.productivity.get(building)
        if track is not None:
            resource = RESOURCES[track]
            steps = me.steps.get(resource, 0)
            if steps < len(sheet.steps):
                head += (
                    f"; {resource} productivity +{me.bonus.get(resource, 0)} → "
                    f"+{sheet.steps[steps]}"
                )
        lines.append(head + ".")
    items = [{"title": "What you may build", "lines": lines}]
    restriction = you["restriction"]
    if restriction:
        rule = {
            "darkness": "no market (only the exact cost pays) and no Sacred Site",
            "boils": "no building next to your Oasis",
            "death": "only a Burial Mound",
        }[restriction]
        items.insert(
            0, {"title": f"{PLAGUE_TITLES[restriction]} this round", "lines": [f"{rule}."]}
        )
    return items


def _gains(me: Mine, legal: Sequence[Action]) -> dict[str, Any]:
    lines = []
    for action in legal:
        if not isinstance(action, Gain):
            continue
        have, circled, notes = me.gain(action.bundle)
        changed = ", ".join(
            f"{RESOURCES[i]} {me.have[i]} → {have[i]}" for i in range(4) if action.bundle[i]
        )
        line = f"{words(action.bundle)}: {changed}"
        if notes:
            line += f" ({'; '.join(notes)})"
        lines.append(f"{line}; {score_change(me.total, me.points(have=have, circled=circled))}.")
    basic = me.sheet.basic_per_favor
    lines.append(
        f"At the end {basic} basic resources trade for 1 favor, and "
        f"{me.sheet.favor_per_point} favor score 1 point."
    )
    return {"title": "What the Burial Mound gives", "lines": lines}


def _ships(me: Mine, legal: Sequence[Action]) -> dict[str, Any] | None:
    usable = [a for a in legal if isinstance(a, UseShip)]
    if not usable:
        return None
    sheet = me.sheet
    lines = []
    for action in usable:
        gives = sheet.ships[action.ship - 1]
        have, circled, notes = me.gain(gives)
        after = me.points(have=have, circled=circled, ships_unused=me.ships_unused - 1)
        line = f"Ship {action.ship}: {words(gives)} now"
        if notes:
            line += f" ({'; '.join(notes)})"
        lines.append(f"{line}; {score_change(me.total, after)}.")
    lines.append(
        f"A ship is used once a game; each one never used scores {sheet.ship_points} points at "
        "the end."
    )
    return {"title": "Your ships", "lines": lines}


__all__ = ["guide", "phases"]

"""The guide of Egyptia's game page: the phases of a round in our own words, the current one,
what comes next, what the seat is to do, and why its decision matters, with the figures of
its own sheet (see karnak.core.plugin.WebPage).

Everything here is read from the seat's observation and legal moves, plus the printed
figures of the sheet (costs, tracks, ships, card rules: ``game.sheet`` is the same for
every seat and every position). No state reaches it, so a builder's guide cannot tell what
another builder chose or did in private. What a building or a payment would change of the
score is the engine's scoring (``rules/pharaoh.py``), never worked out again here.

Every sentence is one message of the ``egyptia`` domain, in the reader's language
(:mod:`karnak.games.egyptia.i18n`); only lists (names, figures, clauses of a line) are joined
here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.games.egyptia import words as w
from karnak.games.egyptia.i18n import N_, _, ngettext, pgettext, t
from karnak.games.egyptia.rules.actions import Build, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.market import affordable, any_three, payments
from karnak.games.egyptia.rules.pharaoh import EMPTY, card_points, city_gains, end_extras
from karnak.games.egyptia.rules.sheet import BUILDINGS, MOUND, RESOURCES, WILD, Bundle
from karnak.games.egyptia.rules.sheet import Sheet as PrintedSheet
from karnak.games.egyptia.rules.state import CODES, PLAGUE_COST
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
        _trade, favor_points, ship_points, pestilence_points = end_extras(
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
                notes.append(
                    ngettext(
                        "only {n} fits on the {resource} track",
                        "only {n} fit on the {resource} track",
                        take,
                    ).format(n=take, resource=w.resource(RESOURCES[i]))
                )
            first_red = sheet.dots[i] - sheet.red[i]
            if sheet.red[i] and circled[i] <= first_red < circled[i] + take:
                notes.append(_("a red dot: the game ends after this round"))
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
    """Some resources in the reader's language: ``1 grain, 2 diamond``."""
    return w.bundle(bundle)


def holdings(have: Bundle) -> str:
    """All four resources, zeros included: ``3 grain, 0 diamond, 2 stone, 1 favor``."""
    return w.holdings(have)


def minus(have: Bundle, paid: Bundle) -> Bundle:
    return _bundle([h - p for h, p in zip(have, paid, strict=True)])


def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def title(building: str) -> str:
    """A building's name in the reader's language."""
    return w.building(building)


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def semicolon() -> str:
    """What stands between two clauses of a line (French puts a space before it)."""
    return pgettext("between two clauses", "; ")


def clauses(head: str, parts: Sequence[str]) -> str:
    """A line of the guide: its head, then each clause after a semicolon, then a full stop."""
    return semicolon().join([head, *parts]) + "."


# ---------------------------------------------------------------------- the phases
def phases(sheet: PrintedSheet, solo: bool) -> list[dict[str, str]]:
    """The round and the game in order, in our own words, with the sheet's figures."""
    making = [title(b) for b in BUILDINGS if b in sheet.productivity]
    steps = sheet.steps
    return [
        {
            "key": "roll",
            "name": _("The roll"),
            "text": t(
                "The {n} dice are rolled. A die's value puts it in the grain, diamond, stone "
                "or favor column; the die itself names a building (the d20: any building, for "
                "{favor} favor more).",
                n=len(sheet.dice),
                favor=sheet.wild_favor,
            ),
        },
        {
            "key": "choose",
            "name": _("Choose a column") if solo else _("Choose a column (sealed)"),
            "text": _("Each builder picks one column; several may pick the same one.")
            if solo
            else _(
                "Each builder picks one column, at the same time as everyone and in secret; "
                "several may pick the same one."
            ),
        },
        {
            "key": "produce",
            "name": _("Reveal and produce"),
            "text": _(
                "The choices are shown. Each builder circles one resource of the column's "
                "kind per die in it, plus their productivity for that resource; an empty "
                "column gives the productivity alone."
            ),
        },
        {
            "key": "plague",
            "name": _("Plague (3+ dice)"),
            "text": _(
                "Whoever took a column of 3 dice or more suffers one plague they can pay for "
                "or keep to, and crosses it off for the rest of the game. Death is never "
                "crossed off and may come again."
            ),
        },
        {
            "key": "build",
            "name": _("Build"),
            "text": t(
                "Draw one building that a die of your column shows on an empty hex (never the "
                "Oasis); a Sacred Site costs {sacred} favor more. A Burial Mound is always "
                "allowed instead: free, and it gives {basic} basic resources or {favor} favor.",
                sacred=sheet.sacred_favor,
                basic=sheet.mound_basic,
                favor=sheet.mound_favor,
            ),
        },
        {
            "key": "pay",
            "name": _("Pay (the market)"),
            "text": t(
                "Scribble out the cost. Through the market, 2 basic resources pay for 1 other "
                "basic one, 3 basic for 1 favor, 1 favor for 1 basic. {buildings} each move "
                "their resource's productivity one step, up to +{top}.",
                buildings=w.names(making),
                top=steps[-1],
            ),
        },
        {
            "key": "ships",
            "name": _("Ships, at any time"),
            "text": ngettext(
                "Each of your {ships} ships may be used once a game for the resources beside "
                "it; each one never used scores {n} point at the end.",
                "Each of your {ships} ships may be used once a game for the resources beside "
                "it; each one never used scores {n} points at the end.",
                sheet.ship_points,
            ).format(ships=len(sheet.ships), n=sheet.ship_points),
        },
        {
            "key": "round_end",
            "name": _("The round ends"),
            "text": _(
                "When every builder has built, every sheet is shown to all and the dice are "
                "rolled again."
            ),
        },
        {
            "key": "game_end",
            "name": _("The end"),
            "text": _(
                "Circling a red dot (the last dots of a track) ends the game after that round, "
                "for everyone; so does a full map. Resources that do not fit on their track "
                "are lost."
            ),
        },
        {
            "key": "scoring",
            "name": _("Final scoring"),
            "text": t(
                "The five Pharaoh cards score each city; then 1 point per {per_point} favor "
                "({per_favor} basic resources left over trade for 1 favor), {ship} points per "
                "unused ship, minus {pestilence} for Pestilence. A tie goes to the fewest "
                "plagues crossed off, then the most favor.",
                per_point=sheet.favor_per_point,
                per_favor=sheet.basic_per_favor,
                ship=sheet.ship_points,
                pestilence=sheet.pestilence_points,
            ),
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
            _("The round's end, when every builder has built: then every sheet is shown.")
            if obs["revealed"]
            else _("The reveal, when every builder has chosen a column.")
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
        ending = _("This is the last round: you circled a red dot, so the game ends with it.")
    else:
        ending = ""
    if stage == "choose":
        text = (
            _("Production from the column you choose, then building.")
            if solo
            else _(
                "The reveal: when every builder has chosen, all the columns are shown and "
                "each builder produces."
            )
        )
    elif stage == "chosen":
        text = ngettext(
            "The reveal, once the last builder still choosing has chosen.",
            "The reveal, once the {n} builders still choosing have chosen.",
            waiting,
        ).format(n=waiting)
    elif stage == "plague":
        text = _("Pay for the plague if it takes resources, then build one building.")
    elif stage == "plague_pay":
        text = _("Then build one building.")
    elif stage == "build":
        text = _(
            "Pay for it (you choose how when there is more than one way); a Burial Mound "
            "gives its reward instead."
        )
    elif stage == "done" and not solo:
        text = ngettext(
            "The round ends when the last builder still building is done; then every sheet "
            "is shown.",
            "The round ends when the {n} builders still building are done; then every sheet "
            "is shown.",
            waiting,
        ).format(n=waiting)
    else:
        text = (
            _("The round ends: a new roll.")
            if solo
            else _("The round ends when every builder has built; then every sheet is shown.")
        )
    return f"{text} {ending}".strip()


def _task(stage: str, you: YouView, legal: Sequence[Action], builders: int) -> str | None:
    pending = you["pending"]
    ships = any(isinstance(a, UseShip) for a in legal)
    if stage == "choose":
        return _("Choose a column (sealed)") if builders > 1 else _("Choose a column")
    if stage == "plague":
        return _("Choose a plague")
    if stage == "plague_pay" and pending is not None and pending["kind"] == "plague":
        return t("Choose what to lose to {plague}", plague=w.plague(pending["plague"]))
    if stage == "build":
        if you["restriction"] == "death":
            return _("Build a Burial Mound (Death)")
        return _("Build one building")
    if stage == "build_pay" and pending is not None and pending["kind"] == "build":
        return t("Pay for your {building}", building=title(pending["building"]))
    if stage == "gain":
        return _("Choose the Burial Mound's reward")
    return _("Waiting: you may use a ship") if ships else None


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
            found.append(title(building))
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
        have, _circled, notes = me.gain(_bundle(bundle))
        direct, wild = _column_buildings(obs, resource)
        shown = [title(b) for b in direct] + (
            [t("d20: any building for {favor} favor more", favor=me.sheet.wild_favor)]
            if wild
            else []
        )
        name = w.resource(resource)
        made = (
            t(
                "+{amount} {resource} ({count} + {bonus} productivity)",
                amount=amount,
                resource=name,
                count=count,
                bonus=bonus,
            )
            if bonus
            else t("+{amount} {resource}", amount=amount, resource=name)
        )
        figures = {
            "column": capitalized(name),
            "dice": w.dice(count),
            "made": made,
            "before": me.have[index],
            "after": have[index],
        }
        if shown:
            head = t(
                "{column}: {dice} ({buildings}) → {made}, {before} → {after} on hand",
                buildings=", ".join(shown),
                **figures,
            )
        else:
            head = t("{column}: {dice} → {made}, {before} → {after} on hand", **figures)
        if notes:
            head += f" ({semicolon().join(notes)})"
        parts = []
        if column["plague"]:
            parts.append(_("a plague first"))
        if not direct and not wild:
            parts.append(_("only a Burial Mound to build"))
        else:
            can = _affordable_after(me, have, direct, wild)
            parts.append(
                t("you could then pay for {buildings}", buildings=w.names(can))
                if can
                else _("you could pay for none of them: a Burial Mound")
            )
        lines.append(clauses(head, parts))
    lines.append(
        t(
            "A Sacred Site costs {favor} favor more; a column of 3 dice or more brings a "
            "plague before you build.",
            favor=me.sheet.sacred_favor,
        )
    )
    return {"title": _("What each column gives you"), "lines": lines}


def _chosen(obs: EgyptiaObservation, seat: int, me: Mine) -> dict[str, Any]:
    resource = obs["players"][seat]["column"]
    assert resource is not None, "the seat sees its own column once chosen"
    column = next(c for c in obs["columns"] if c["resource"] == resource)
    count = len(column["dice"])
    amount = count + me.bonus.get(resource, 0)
    name = w.resource(resource)
    lines = [
        t(
            "You chose the {column} column: +{amount} {resource} at the reveal; then a "
            "plague (3 dice or more).",
            column=name,
            amount=amount,
            resource=name,
        )
        if column["plague"]
        else t(
            "You chose the {column} column: +{amount} {resource} at the reveal.",
            column=name,
            amount=amount,
            resource=name,
        ),
        _("The others see only that you have chosen, until every builder has."),
    ]
    return {"title": _("Your sealed choice"), "lines": lines}


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
        shown = w.plague(name)
        if name in PLAGUE_COST or name == "frogs":
            ways = any_three(me.have) if name == "frogs" else payments(PLAGUE_COST[name], me.have)
            way = _best_payment(me, ways)
            left = minus(me.have, way)
            what = _("3 resources of your choice") if name == "frogs" else words(PLAGUE_COST[name])
            figures = {
                "plague": shown,
                "what": what,
                "left": holdings(left),
                "before": me.total,
                "after": me.points(have=left),
            }
            if way == PLAGUE_COST.get(name):
                lines.append(
                    t(
                        "{plague}: lose {what}, leaving {left}; score if the game ended now "
                        "{before} → {after}.",
                        **figures,
                    )
                )
            else:
                lines.append(
                    t(
                        "{plague}: lose {what}, e.g. {way}, leaving {left}; score if the game "
                        "ended now {before} → {after}.",
                        way=words(way),
                        **figures,
                    )
                )
        elif name == "pestilence":
            lines.append(
                ngettext(
                    "{plague}: nothing now, {n} point off at the end; score if the game ended "
                    "now {before} → {after}.",
                    "{plague}: nothing now, {n} points off at the end; score if the game ended "
                    "now {before} → {after}.",
                    sheet.pestilence_points,
                ).format(
                    plague=shown,
                    n=sheet.pestilence_points,
                    before=me.total,
                    after=me.points(pestilence=True),
                )
            )
        elif name == "darkness":
            closed = [i for i in empty if sheet.hexes[i].sacred]
            exact = [
                title(b)
                for b in BUILDINGS
                if (b in direct or wild)
                and all(
                    h >= c for h, c in zip(me.have, _cost(sheet, b, b not in direct), strict=True)
                )
            ]
            figures = {"plague": shown, "closed": len(closed), "n": len(empty)}
            if exact:
                said = ngettext(
                    "{plague}: no market and no Sacred Site this round: closes {closed} of your "
                    "{n} empty hex (the Sacred Sites); paying the exact cost, you could still "
                    "pay for {buildings}.",
                    "{plague}: no market and no Sacred Site this round: closes {closed} of your "
                    "{n} empty hexes (the Sacred Sites); paying the exact cost, you could still "
                    "pay for {buildings}.",
                    len(empty),
                ).format(buildings=w.names(exact), **figures)
            else:
                said = ngettext(
                    "{plague}: no market and no Sacred Site this round: closes {closed} of your "
                    "{n} empty hex (the Sacred Sites); paying the exact cost, only a Burial "
                    "Mound.",
                    "{plague}: no market and no Sacred Site this round: closes {closed} of your "
                    "{n} empty hexes (the Sacred Sites); paying the exact cost, only a Burial "
                    "Mound.",
                    len(empty),
                ).format(**figures)
            lines.append(said)
        elif name == "boils":
            near = set(sheet.neighbours[sheet.oasis])
            closed = [i for i in empty if i in near]
            lines.append(
                ngettext(
                    "{plague}: no building next to your Oasis this round: closes {closed} of "
                    "your {n} empty hex (those next to the Oasis).",
                    "{plague}: no building next to your Oasis this round: closes {closed} of "
                    "your {n} empty hexes (those next to the Oasis).",
                    len(empty),
                ).format(plague=shown, closed=len(closed), n=len(empty))
            )
        elif name == "hail-fire":
            gives = sheet.ships[plague.ship - 1]
            lines.append(
                ngettext(
                    "{plague}, ship {ship}: lose it ({gives}) and the {n} point it scores "
                    "unused; score if the game ended now {before} → {after}.",
                    "{plague}, ship {ship}: lose it ({gives}) and the {n} points it scores "
                    "unused; score if the game ended now {before} → {after}.",
                    sheet.ship_points,
                ).format(
                    plague=shown,
                    ship=plague.ship,
                    gives=words(gives),
                    n=sheet.ship_points,
                    before=me.total,
                    after=me.points(ships_unused=me.ships_unused - 1),
                )
            )
        elif name == "death":
            lines.append(
                t(
                    "{plague}: build a Burial Mound this round (free, then {basic} basic or "
                    "{favor} favor) instead of your column's buildings; never crossed off, so "
                    "it may come again and does not count in a tie.",
                    plague=shown,
                    basic=sheet.mound_basic,
                    favor=sheet.mound_favor,
                )
            )
    lines.append(
        t(
            "Each plague but Death is crossed off for good, and a tie goes to the builder with "
            "the fewest crossed off (you have {n}).",
            n=len(me.crossed),
        )
    )
    return {"title": _("What each plague costs you now"), "lines": lines}


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
        heading = t(
            "Paying {cost} for your {building} on {hex}",
            cost=words(cost),
            building=title(pending["building"]),
            hex=pending["hex"],
        )
        first = t(
            "You have {have}; score if the game ended now {total}; the {building} adds {n} to "
            "your cards.",
            have=holdings(me.have),
            total=me.total,
            building=title(pending["building"]),
            n=me.cards_with(pending["building"], pending["hex"]),
        )
    else:
        plague = pending["plague"]
        cost = PLAGUE_COST.get(plague, (0, 0, 0, 0))
        what = _("3 resources of your choice") if plague == "frogs" else words(cost)
        heading = t("Losing {what} to {plague}", what=what, plague=w.plague(plague))
        first = t(
            "You have {have}; score if the game ended now {total}.",
            have=holdings(me.have),
            total=me.total,
        )
    lines = [first]
    for way in ways[:SHOWN_PAYMENTS]:
        left = minus(me.have, way)
        lines.append(
            t(
                "Pay {way}: leaves {left}; score if the game ended now {before} → {after}.",
                way=words(way),
                left=holdings(left),
                before=me.total,
                after=me.paid(pending, way),
            )
        )
    if len(ways) > SHOWN_PAYMENTS:
        more = len(ways) - SHOWN_PAYMENTS
        lines.append(
            ngettext("… and {n} dearer way.", "… and {n} dearer ways.", more).format(n=more)
        )
    if pending["kind"] == "build" or plague != "frogs":
        lines.append(
            _(
                "The market: 2 basic pay for 1 other basic, 3 basic for 1 favor, "
                "1 favor for 1 basic."
            )
        )
    return {"title": heading, "lines": lines}


# ---------------------------------------------------------------------- building
#: What a plague that restricts the round's building forbids.
RESTRICTIONS = {
    "darkness": N_("no market (only the exact cost pays) and no Sacred Site."),
    "boils": N_("no building next to your Oasis."),
    "death": N_("only a Burial Mound."),
}


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
        name = title(building)
        if building == MOUND:
            head = ngettext(
                "{building}: free on any of {n} hex, then {basic} basic or {favor} favor",
                "{building}: free on any of {n} hexes, then {basic} basic or {favor} favor",
                len(hexes),
            ).format(building=name, n=len(hexes), basic=sheet.mound_basic, favor=sheet.mound_favor)
        else:
            wild = offered[building]
            figures = {
                "building": name,
                "cost": words(_cost(sheet, building, wild)),
                "sacred": sheet.sacred_favor,
                "n": len(hexes),
            }
            if not hexes:
                lines.append(
                    t(
                        "{building} through the d20: {cost} (+{sacred} favor on a Sacred "
                        "Site): you cannot pay for it now.",
                        **figures,
                    )
                    if wild
                    else t(
                        "{building}: {cost} (+{sacred} favor on a Sacred Site): you cannot "
                        "pay for it now.",
                        **figures,
                    )
                )
                continue
            head = (
                ngettext(
                    "{building} through the d20: {cost} (+{sacred} favor on a Sacred Site), "
                    "on {n} hex",
                    "{building} through the d20: {cost} (+{sacred} favor on a Sacred Site), "
                    "on {n} hexes",
                    len(hexes),
                )
                if wild
                else ngettext(
                    "{building}: {cost} (+{sacred} favor on a Sacred Site), on {n} hex",
                    "{building}: {cost} (+{sacred} favor on a Sacred Site), on {n} hexes",
                    len(hexes),
                )
            ).format(**figures)
        parts = []
        if hexes:
            gains = [(me.cards_with(building, h), h) for h in hexes]
            top = max(gain for gain, _hex in gains)
            best = [h for gain, h in gains if gain == top]
            if len(best) == len(hexes):
                parts.append(t("your cards {gain} wherever it goes", gain=signed(top)))
            else:
                shown = ", ".join(best[:4])
                if len(best) > 4:
                    shown = t("{hexes} (+{n} more)", hexes=shown, n=len(best) - 4)
                parts.append(
                    t("best for your cards now: {gain} on {hexes}", gain=signed(top), hexes=shown)
                )
        track = sheet.productivity.get(building)
        if track is not None:
            resource = RESOURCES[track]
            steps = me.steps.get(resource, 0)
            if steps < len(sheet.steps):
                parts.append(
                    t(
                        "{resource} productivity +{now} → +{next}",
                        resource=w.resource(resource),
                        now=me.bonus.get(resource, 0),
                        next=sheet.steps[steps],
                    )
                )
        lines.append(clauses(head, parts))
    items = [{"title": _("What you may build"), "lines": lines}]
    restriction = you["restriction"]
    if restriction:
        items.insert(
            0,
            {
                "title": t("{plague} this round", plague=w.plague(restriction)),
                "lines": [_(RESTRICTIONS[restriction])],
            },
        )
    return items


def _gains(me: Mine, legal: Sequence[Action]) -> dict[str, Any]:
    lines = []
    for action in legal:
        if not isinstance(action, Gain):
            continue
        have, circled, notes = me.gain(action.bundle)
        changed = ", ".join(
            t(
                "{resource} {before} → {after}",
                resource=w.resource(RESOURCES[i]),
                before=me.have[i],
                after=have[i],
            )
            for i in range(4)
            if action.bundle[i]
        )
        figures = {
            "what": words(action.bundle),
            "changed": changed,
            "before": me.total,
            "after": me.points(have=have, circled=circled),
        }
        if notes:
            lines.append(
                t(
                    "{what}: {changed} ({notes}); score if the game ended now {before} → {after}.",
                    notes=semicolon().join(notes),
                    **figures,
                )
            )
        else:
            lines.append(
                t("{what}: {changed}; score if the game ended now {before} → {after}.", **figures)
            )
    lines.append(
        t(
            "At the end {basic} basic resources trade for 1 favor, and {favor} favor score 1 "
            "point.",
            basic=me.sheet.basic_per_favor,
            favor=me.sheet.favor_per_point,
        )
    )
    return {"title": _("What the Burial Mound gives"), "lines": lines}


def _ships(me: Mine, legal: Sequence[Action]) -> dict[str, Any] | None:
    usable = [a for a in legal if isinstance(a, UseShip)]
    if not usable:
        return None
    sheet = me.sheet
    lines = []
    for action in usable:
        gives = sheet.ships[action.ship - 1]
        have, circled, notes = me.gain(gives)
        figures = {
            "n": action.ship,
            "gives": words(gives),
            "before": me.total,
            "after": me.points(have=have, circled=circled, ships_unused=me.ships_unused - 1),
        }
        if notes:
            lines.append(
                t(
                    "Ship {n}: {gives} now ({notes}); score if the game ended now {before} → "
                    "{after}.",
                    notes=semicolon().join(notes),
                    **figures,
                )
            )
        else:
            lines.append(
                t(
                    "Ship {n}: {gives} now; score if the game ended now {before} → {after}.",
                    **figures,
                )
            )
    lines.append(
        ngettext(
            "A ship is used once a game; each one never used scores {n} point at the end.",
            "A ship is used once a game; each one never used scores {n} points at the end.",
            sheet.ship_points,
        ).format(n=sheet.ship_points)
    )
    return {"title": _("Your ships"), "lines": lines}


__all__ = ["guide", "phases"]

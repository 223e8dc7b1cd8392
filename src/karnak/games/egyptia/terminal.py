"""Drawing Egyptia in the terminal: the resource board, the Pharaoh's five cards, the
builder's own sheet (a hex map, the resource tracks, productivity, plagues and ships), a
compact table of the other builders and the final scoring.

Everything shown of the table comes from the seat's observation (``view``, shaped as
:class:`~karnak.games.egyptia.view.EgyptiaObservation`), the one function that decides what
a seat may see: another builder's sealed column and what they did since the last public
moment (the reveal, the end of a round) never reach this module, which is never handed a
state. The hints beside the moves read only the seat's own sheet. The figures of ``karnak
board`` come from the sheet data, which is public.

With many builders (the game allows 99) the table of the others shows the leaders and the
person's own line, and the log folds away the lines about the others.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich import box
from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from karnak.core import Game
from karnak.core.actions import Action
from karnak.core.terminal import CONFIDENCE_LOOK, View, confidence_legend, seat_text
from karnak.games.egyptia import words
from karnak.games.egyptia.i18n import _, ngettext, pgettext, t
from karnak.games.egyptia.rules.actions import (
    PLAGUES,
    USAGE,
    Build,
    Choose,
    Gain,
    Pay,
    Plague,
    UseShip,
    bundle_text,
)
from karnak.games.egyptia.rules.pharaoh import EMPTY, city_gains
from karnak.games.egyptia.rules.sheet import (
    DEFAULT_SHEET,
    MOUND,
    RESOURCES,
    WILD,
    Bundle,
    Hex,
    Sheet,
)
from karnak.games.egyptia.rules.state import CODES, PLAGUE_COST, build_cost
from karnak.games.egyptia.view import (
    DieView,
    EgyptiaObservation,
    Layout,
    PlayerView,
    ResourceView,
    ScoreView,
    SheetView,
    as_observation,
    sheet_of,
)

#: How each building is written on the map (three letters, readable without colour).
BUILDING_LOOK = {
    "pyramid": ("PYR", "bold yellow"),
    "quarry": ("QUA", "bold white"),
    "mine": ("MIN", "bold cyan"),
    "obelisk": ("OBE", "bold magenta"),
    "field": ("FLD", "bold green"),
    "mound": ("MND", "grey50"),
}
RESOURCE_STYLES = {"grain": "yellow", "diamond": "cyan", "stone": "white", "favor": "magenta"}
#: Buildings in the table of builders: a count and a letter each.
BUILDING_LETTERS = {
    "pyramid": "P",
    "quarry": "Q",
    "mine": "M",
    "obelisk": "O",
    "field": "F",
    "mound": "B",
}
#: From this many builders on, the table of builders shows only the leaders and you.
SHOWN_BUILDERS = 10
#: From this many builders on, the log folds the lines about the other builders away.
FOLD_LOG_FROM = 7
#: Steps decided from the builder's own sheet alone: their status leaves out the rest.
SMALL_STEPS = ("plague", "plague_pay", "build_pay", "gain")
SACRED_MARK = "*"
WATER = "~"


# ---------------------------------------------------------------------- the map
def draw_map(
    hexes: Sequence[Hex],
    city: Mapping[str, str],
    *,
    river: str = "top",
    blocked: frozenset[str] = frozenset(),
) -> Text:
    """The hex map as text: each hex two lines, ``/A1 *\\`` over ``\\PYR /``.

    Rows sit half a hex apart, as on the sheet. ``*`` marks a Sacred Site, ``~`` the Oasis
    and the river; ``-`` an empty hex this round's plague forbids.
    """
    inner = max(4, max(len(h.label) for h in hexes) + 1)
    inner += inner % 2  # a hex and its gap span an even width, so a half step is whole
    width = inner + 2
    half = (width + 2) // 2
    low = min(h.col for h in hexes)
    span = max((h.col - low) * half + width for h in hexes)
    rows: dict[int, list[Hex]] = {}
    for spot in hexes:
        rows.setdefault(spot.row, []).append(spot)
    lines: list[Text] = []
    water = Text(WATER * span + "  " + _("river"), style="blue")
    if river == "top":
        lines.append(water)
    for row in sorted(rows):
        top, bottom = Text(), Text()
        for spot in sorted(rows[row], key=lambda h: h.col):
            x = (spot.col - low) * half
            top.append(" " * (x - len(top)))
            bottom.append(" " * (x - len(bottom)))
            edge = {"sacred": "yellow", "oasis": "blue"}.get(spot.kind, "grey50")
            mark = {"sacred": SACRED_MARK, "oasis": WATER}.get(spot.kind, " ")
            top.append("/", style=edge)
            top.append(spot.label.ljust(inner - 1), style="bold" if spot.sacred else "")
            top.append(mark, style=edge)
            top.append("\\", style=edge)
            bottom.append("\\", style=edge)
            building = city.get(spot.label)
            if spot.kind == "oasis":
                bottom.append(WATER * inner, style="blue")
            elif building is not None:
                code, style = BUILDING_LOOK.get(building, (building[:3].upper(), ""))
                bottom.append(code.center(inner), style=style)
            elif spot.label in blocked:
                bottom.append("-".center(inner), style="red")
            else:
                bottom.append("·".center(inner), style="grey50")
            bottom.append("/", style=edge)
        lines += [top, bottom]
    if river == "bottom":
        lines.append(water)
    return Text("\n").join(lines)


def map_legend(sacred_favor: int) -> Text:
    text = Text("", style="dim")
    for name, (code, style) in BUILDING_LOOK.items():
        text.append(code, style=style)
        text.append(f" {words.building(name)}  ")
    text.append(
        "\n"
        + t(
            "{sacred} Sacred Site (+{n} favor, not for a Burial Mound)  {water} the Oasis "
            "(never built on) and the river  · empty  - forbidden this round",
            sacred=SACRED_MARK,
            n=sacred_favor,
            water=WATER,
        ),
    )
    return text


def layout_hexes(layout: Mapping[str, Any]) -> list[Hex]:
    return [Hex(h["label"], h["col"], h["row"], h["kind"]) for h in layout["hexes"]]


# ---------------------------------------------------------------------- small pieces
def _res(name: str, text: str | None = None) -> Text:
    return Text(text if text is not None else name, style=RESOURCE_STYLES.get(name, ""))


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _cost_text(cost: Mapping[str, int] | Bundle) -> str:
    values = tuple(cost[r] for r in RESOURCES) if isinstance(cost, Mapping) else cost
    return bundle_text((values[0], values[1], values[2], values[3]))


def track_dots(name: str, entry: ResourceView, dots: int, red: int) -> Text:
    """One resource track: ⊗ spent, ● circled, ○ empty, in fives; the red dots after a bar."""
    text = Text()
    circled, spent = entry["circled"], entry["spent"]
    for i in range(dots):
        is_red = red and i >= dots - red
        if i == dots - red and red:
            text.append(" |", style="red")
        elif i and i % 5 == 0:
            text.append(" ")
        if i < spent:
            text.append("⊗", style="grey50")
        elif i < circled:
            text.append("●", style="bold red" if is_red else RESOURCE_STYLES.get(name, ""))
        else:
            text.append("○", style="red" if is_red else "grey50")
    return text


def _rank_chart(ranks: Sequence[Mapping[str, Any]]) -> str:
    parts = []
    for i, rank in enumerate(ranks):
        if i + 1 < len(ranks):
            parts.append(f"{words.rank(rank['name'])} {rank['from']}-{ranks[i + 1]['from'] - 1}")
        else:
            parts.append(f"{words.rank(rank['name'])} {rank['from']}+")
    return " · ".join(parts)


def _city(sheet: Sheet, built: Mapping[str, str]) -> tuple[int, ...]:
    """A city as building codes by hex, from a sheet view's ``city``."""
    city = [EMPTY] * len(sheet.hexes)
    for label, building in built.items():
        city[sheet.by_label[label]] = CODES[building]
    return tuple(city)


def card_gains(sheet: Sheet, view: EgyptiaObservation, seat: int) -> list[list[int]]:
    """What each building (by code) on each empty hex of the seat's city adds to its
    Pharaoh cards now: the engine's scoring, remembered per city (the hints ask it of every
    build in the list of moves)."""
    cards = tuple(c["id"] for c in view["cards"])
    city = _city(sheet, view["players"][seat]["sheet"]["city"])
    memo: dict[Any, list[list[int]]] = sheet.memo.setdefault("terminal_card_gains", {})
    key = (cards, city)
    found = memo.get(key)
    if found is None:
        if len(memo) > 256:
            memo.clear()
        found = memo[key] = city_gains(sheet, [sheet.card(c) for c in cards], city)
    return found


def card_gain(sheet: Sheet, view: EgyptiaObservation, seat: int, building: str, label: str) -> int:
    """What building ``building`` on the empty hex ``label`` adds to the seat's Pharaoh
    cards now."""
    return card_gains(sheet, view, seat)[CODES[building]][sheet.by_label[label]]


def _circled(entry: PlayerView) -> tuple[int, int, int, int]:
    resources = entry["sheet"]["resources"]
    return (
        resources["grain"]["circled"],
        resources["diamond"]["circled"],
        resources["stone"]["circled"],
        resources["favor"]["circled"],
    )


def _have(entry: PlayerView) -> Bundle:
    resources = entry["sheet"]["resources"]
    return (
        resources["grain"]["have"],
        resources["diamond"]["have"],
        resources["stone"]["have"],
        resources["favor"]["have"],
    )


def _track_warning(sheet: Sheet, circled_now: Sequence[int], bundle: Bundle) -> str:
    """A word when circling ``bundle`` reaches a red dot (the game ends after the round)
    or when some of it does not fit on a full track (it is lost)."""
    notes = []
    for i, amount in enumerate(bundle):
        if not amount:
            continue
        circled = circled_now[i]
        room = sheet.dots[i] - circled
        first_red = sheet.dots[i] - sheet.red[i]
        if room < amount:
            notes.append(
                ngettext(
                    "only {n} fits on the {resource} track",
                    "only {n} fit on the {resource} track",
                    room,
                ).format(n=room, resource=words.resource(RESOURCES[i]))
            )
        if sheet.red[i] and circled <= first_red < circled + min(amount, room):
            notes.append(_("reaches a red dot: the game ends after this round"))
    return "".join(f" · {note}" for note in notes)


def _add(have: Bundle, bundle: Bundle, sign: int = 1) -> Bundle:
    return (
        have[0] + sign * bundle[0],
        have[1] + sign * bundle[1],
        have[2] + sign * bundle[2],
        have[3] + sign * bundle[3],
    )


class EgyptiaRenderer:
    """The :class:`~karnak.cli.render.GameRenderer` of Egyptia (with the seat-aware extras
    of :class:`~karnak.cli.render.SeatRenderer`: a simultaneous round needs the seat)."""

    # ------------------------------------------------------------------ during play
    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        obs = as_observation(view)
        names = _names(obs)
        you = obs.get("you")
        stage = you["stage"] if you else None
        sheet = self.own_sheet(obs, names, seat, self._blocked(sheet_of(game), obs, seat))
        if stage in SMALL_STEPS:
            # A plague or a payment is decided from the seat's own sheet: the rest of the
            # table was shown a moment ago and has not changed for this seat since.
            return [self._headline(obs, names, seat), *sheet]
        parts: list[RenderableType] = [
            self._headline(obs, names, seat),
            self.resource_board(obs, seat),
            self.cards(obs, seat),
            *sheet,
        ]
        if len(names) > 1:
            parts.append(self.builders(obs, names, seat))
        options = self._build_options(sheet_of(game), obs, seat)
        if options is not None:
            parts.append(options)
        return parts

    def _headline(self, obs: EgyptiaObservation, names: tuple[str, ...], seat: int) -> Text:
        text = Text()
        text.append(t("Round {n}", n=obs["round"]), style="bold")
        text.append(" · ")
        text.append_text(seat_text(names, seat))
        you = obs.get("you")
        stage = words.own_stage(you["stage"]) if you and you["stage_name"] else None
        if stage:
            text.append(f": {stage}", style="bold cyan")
        if len(names) > 1:
            stages = [p["stage"] for p in obs["players"]]
            if not obs["revealed"]:
                waiting = sum(1 for s in stages if s == "choosing")
                text.append(
                    " · "
                    + ngettext(
                        "{n} of {total} builders still choosing (sealed)",
                        "{n} of {total} builders still choosing (sealed)",
                        waiting,
                    ).format(n=waiting, total=len(names))
                )
            else:
                busy = sum(1 for s in stages if s == "building")
                text.append(
                    " · "
                    + ngettext(
                        "columns revealed; {n} of {total} builders still building",
                        "columns revealed; {n} of {total} builders still building",
                        busy,
                    ).format(n=busy, total=len(names))
                )
        return text

    def resource_board(self, obs: EgyptiaObservation, seat: int | None) -> Table:
        """The four columns: their dice, the buildings they offer, whether they bring a
        plague, and (for a seat) what it would produce there."""
        table = Table(
            title=t("Resource board (round {n})", n=obs["round"]),
            title_justify="left",
            box=box.SIMPLE_HEAD,
        )
        table.add_column("")
        for column in obs["columns"]:
            name = column["resource"]
            # words wrap within a column: at 80 columns nothing is cut
            table.add_column(_res(name, words.resource(name)), overflow="fold")
        by_column: dict[str, list[DieView]] = {c["resource"]: [] for c in obs["columns"]}
        for die in obs["dice"]:
            by_column[die["column"]].append(die)
        wild = obs["layout"]["wild_favor"]
        dice_cells: list[RenderableType] = []
        for column in obs["columns"]:
            cell = Text()
            for i, die in enumerate(by_column[column["resource"]]):
                if i:
                    cell.append("\n")
                building = die["building"]
                if building == WILD:
                    title, style = t("any (+{n} favor)", n=wild), "bold"
                else:
                    title, style = words.building(building), BUILDING_LOOK[building][1]
                cell.append(f"{words.die(die['die'])}={die['value']} ")
                cell.append(title, style=style)
            dice_cells.append(cell if by_column[column["resource"]] else Text(_("no dice"), "dim"))
        table.add_row(Text(_("Dice"), style="bold"), *dice_cells)
        plague_cells = [
            Text(t("yes ({dice})", dice=words.dice(len(c["dice"]))), style="bold red")
            if c["plague"]
            else Text(t("no ({dice})", dice=words.dice(len(c["dice"]))), style="green")
            for c in obs["columns"]
        ]
        table.add_row(Text(_("Plague"), style="bold"), *plague_cells)
        if seat is not None:
            entry = obs["players"][seat]
            productivity = entry["sheet"]["productivity"]
            cells = []
            for column in obs["columns"]:
                name = column["resource"]
                bonus = productivity[name]["bonus"] if name in productivity else 0
                count = len(column["dice"])
                shown = words.amount(count + bonus, name)
                if bonus:
                    shown += f" ({count} +{bonus})"
                cells.append(_res(name, shown))
            table.add_row(Text(_("You produce"), style="bold"), *cells)
            chosen = entry["column"]
            if obs["revealed"] and len(obs["players"]) > 1:
                counts = {c["resource"]: 0 for c in obs["columns"]}
                for player in obs["players"]:
                    if player["column"] is not None:
                        counts[player["column"]] += 1
                row = []
                for column in obs["columns"]:
                    name = column["resource"]
                    cell = Text(t("builders: {n}", n=counts[name]))
                    if name == chosen:
                        cell.append(" " + _("incl. you"), style="bold")
                    row.append(cell)
                table.add_row(Text(_("Chosen by"), style="bold"), *row)
            elif chosen is not None:
                row = [
                    Text(_("your column"), style="bold reverse")
                    if c["resource"] == chosen
                    else Text()
                    for c in obs["columns"]
                ]
                table.add_row(Text(_("Chosen"), style="bold"), *row)
        return table

    def cards(self, obs: EgyptiaObservation, seat: int | None) -> Table:
        """The Pharaoh's five demands, with what each gives the seat's city now."""
        table = Table(title=_("The Pharaoh's demands"), title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(_("Card"))
        table.add_column(_("Scores"))
        if seat is not None:
            table.add_column(_("You now"), justify="right")
        score = obs["players"][seat]["score"] if seat is not None else None
        for index, card in enumerate(obs["cards"]):
            colour, marker = CONFIDENCE_LOOK.get(card["confidence"], ("", ""))
            cells: list[RenderableType] = [
                Text(card["id"], style="bold") + Text(marker, style=colour),
                words.card_text(card["text"]),
            ]
            if score is not None:
                line = score["cards"][index]
                parts = line["parts"]
                shown = str(line["points"])
                if len(parts) > 1 and line["points"]:
                    shown += f" ({'+'.join(map(str, parts))})"
                cells.append(shown)
            table.add_row(*cells)
        return table

    @staticmethod
    def _blocked(sheet: Sheet, obs: EgyptiaObservation, seat: int) -> frozenset[str]:
        """Empty hexes of the seat's map that this round's plague forbids (at the build):
        those where not even a Burial Mound, free and always offered, may go."""
        you = obs.get("you")
        if you is None or you["stage"] != "build":
            return frozenset()
        if you["restriction"] not in ("darkness", "boils"):
            return frozenset()
        allowed = set(you.get("builds", {}).get(MOUND, []))
        built = obs["players"][seat]["sheet"]["city"]
        return frozenset(
            sheet.hexes[h].label
            for h in sheet.buildable
            if sheet.hexes[h].label not in built and sheet.hexes[h].label not in allowed
        )

    def own_sheet(
        self,
        obs: EgyptiaObservation,
        names: tuple[str, ...],
        seat: int,
        blocked: frozenset[str] = frozenset(),
    ) -> list[RenderableType]:
        """The seat's sheet: map, tracks, productivity, plagues, ships, points now."""
        entry = obs["players"][seat]
        sheet = entry["sheet"]
        layout = obs["layout"]
        title = Text(_("Your sheet"), style="bold")
        title.append(" (")
        title.append_text(seat_text(names, seat))
        count = sheet["buildings"]
        title.append("): " + ngettext("{n} building(s)", "{n} building(s)", count).format(n=count))
        drawing = draw_map(
            layout_hexes(layout), sheet["city"], river=layout["river"], blocked=blocked
        )
        block = Group(
            self._tracks(sheet, layout),
            *(
                [Text(_("A red dot is circled: the game ends after this round."), "bold red")]
                if sheet["red"]
                else []
            ),
            self._plagues(sheet),
            self._ships(sheet, layout),
        )
        return [
            title,
            Columns([drawing, block], padding=(0, 4)),
            map_legend(layout["sacred_favor"]),
            self._points_now(entry["score"], obs, len(names) == 1),
        ]

    def _tracks(self, sheet: SheetView, layout: Layout) -> Table:
        """The resource tracks with what is left and the productivity of each."""
        table = Table(
            box=None,
            padding=(0, 1, 0, 0),
            title=_("Resources: ● circled ⊗ spent ○ empty; | red dots end the game"),
            title_justify="left",
            title_style="bold",
        )
        table.add_column("")
        table.add_column("")
        table.add_column(_("have"), justify="right")
        table.add_column(_("productivity"))
        makers = {track: building for building, track in layout["productivity"].items()}
        steps = layout["steps"]
        for track in layout["tracks"]:
            name = track["resource"]
            entry = sheet["resources"][name]
            prod = Text()
            level = sheet["productivity"].get(name)
            if level is not None:
                for step, value in enumerate(steps):
                    if step < level["steps"]:
                        prod.append(f"[+{value}]", style="bold")
                    else:
                        prod.append(f" +{value} ", style="grey50")
                if name in makers:
                    prod.append(f" {words.building(makers[name])}", style="dim")
            table.add_row(
                _res(name, words.resource(name)),
                track_dots(name, entry, track["dots"], track["red"]),
                Text(str(entry["have"]), style="bold"),
                prod,
            )
        return table

    def _plagues(self, sheet: SheetView) -> Text:
        """The plagues, those suffered struck out; Death is never crossed off."""
        text = Text(_("Plagues") + " ", style="bold")
        names = list(sheet["plagues"].items())
        half = (len(names) + 1) // 2
        for i, (name, crossed) in enumerate(names):
            if i == half:
                text.append("\n        ")
            elif i:
                text.append(" ")
            if crossed:
                text.append(f"x{words.plague(name)}", style="strike grey50")
            else:
                text.append(words.plague(name))
        deaths = sheet["deaths"]
        text.append(
            " · " + ngettext("Death: {n} time", "Death: {n} times", deaths).format(n=deaths),
            style="dim",
        )
        return text

    def _ships(self, sheet: SheetView, layout: Layout) -> Text:
        text = Text(_("Ships") + " ", style="bold")
        looks = {"unused": "bold", "used": "strike grey50", "lost": "strike red"}
        said = {"unused": _("unused"), "used": _("used"), "lost": _("lost to Hail-fire")}
        for number, (state, gives) in enumerate(
            zip(sheet["ships"], layout["ships"], strict=True), start=1
        ):
            if number > 1:
                text.append(" · ")
            text.append(f"{number}: {_cost_text(gives)}", style=looks.get(state, ""))
            text.append(f" {said.get(state, state)}", style="dim")
        return text

    def _points_now(self, score: ScoreView, obs: EgyptiaObservation, solo: bool) -> Text:
        text = Text(_("If the game ended now:") + " ", style="bold")
        for line in score["cards"]:
            text.append(f"{line['card']} {line['points']} · ")
        text.append(
            t("favor {points} ({favor} favor)", points=score["favor_points"], favor=score["favor"])
            + " · "
        )
        text.append(t("ships {points}", points=score["ship_points"]) + " · ")
        text.append(t("pestilence -{points}", points=score["pestilence"]) + " · ")
        text.append(t("total {points}", points=score["total"]), style="bold")
        if solo:
            ranks = obs["layout"]["ranks"]
            status = ranks[0]["name"]
            for rank in ranks:
                if score["total"] >= rank["from"]:
                    status = rank["name"]
            text.append(f" ({words.rank(status)}; ", style="dim")
            text.append(_rank_chart(ranks) + ")", style="dim")
        return text

    def builders(self, obs: EgyptiaObservation, names: tuple[str, ...], seat: int | None) -> Table:
        """One line per builder, as the others last saw their sheets; with many builders,
        the leaders by points now and the seat's own line."""
        players = obs["players"]
        count = len(players)
        order = list(range(count))
        title = _("Builders (sheets as of the last reveal or round end; score if it ended now)")
        if count > SHOWN_BUILDERS:
            order.sort(key=lambda s: (-players[s]["score"]["total"], s))
            shown = order[: SHOWN_BUILDERS - 1]
            if seat is not None and seat not in shown:
                shown.append(seat)
            place = order.index(seat) + 1 if seat is not None else None
            if place and place >= SHOWN_BUILDERS:
                title = t(
                    "Builders: the {n} leaders of {total} by score now, and you ({place})",
                    n=SHOWN_BUILDERS - 1,
                    total=count,
                    place=_ordinal(place),
                )
            else:
                title = t(
                    "Builders: the {n} leaders of {total} by score now",
                    n=SHOWN_BUILDERS - 1,
                    total=count,
                )
            order = shown
        table = Table(
            title=title,
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=(0, 1, 0, 0),
            pad_edge=False,
        )
        # short headers: nine columns share 80 (the translations keep the names whole)
        table.add_column(pgettext("builders table", "Builder"), ratio=1)
        table.add_column(pgettext("builders table", "Now"), no_wrap=True)
        table.add_column(pgettext("builders table", "Column"), no_wrap=True)
        table.add_column(pgettext("builders table", "Buildings"), ratio=1)
        table.add_column("g/d/s/f", justify="right", no_wrap=True)
        table.add_column(pgettext("builders table", "Prod"), justify="right", no_wrap=True)
        table.add_column(pgettext("builders table", "Plagues"), justify="right", no_wrap=True)
        table.add_column(pgettext("builders table", "Ships"), justify="right", no_wrap=True)
        table.add_column(pgettext("builders table", "Score"), justify="right", no_wrap=True)
        for s in order:
            entry = players[s]
            sheet = entry["sheet"]
            built = list(sheet["city"].values())
            who = seat_text(names, s)
            if s == seat:
                who.append(" " + _("(you)"), style="bold")
            buildings = Text()
            for building, letter in BUILDING_LETTERS.items():
                if building in built:
                    if buildings:
                        buildings.append(" ")
                    buildings.append(f"{built.count(building)}{letter}", BUILDING_LOOK[building][1])
            have = "/".join(str(sheet["resources"][r]["have"]) for r in RESOURCES)
            prod = "/".join(str(p["bonus"]) for p in sheet["productivity"].values())
            table.add_row(
                who,
                _stage_word(entry["stage"]),  # choosing, chosen (sealed), building or done
                words.resource(entry["column"]) if entry["column"] else "·",
                buildings if buildings else Text("·", style="grey50"),
                have,
                prod,
                str(sum(1 for crossed in sheet["plagues"].values() if crossed)),
                str(sum(1 for ship in sheet["ships"] if ship == "unused")),
                Text(str(entry["score"]["total"]), style="bold"),
            )
        table.caption = _(
            "Buildings: P Pyramid, Q Quarry, M Mine, O Obelisk, F Field, B Burial Mound; "
            "g/d/s/f: grain, diamond, stone, favor left; Prod: grain/diamond/stone bonus; "
            "Plagues crossed off; Ships unused"
        )
        table.caption_justify = "left"
        table.caption_style = "dim"
        if count > len(order):
            hidden = count - len(order)
            table.caption += "\n" + ngettext(
                "{n} more builder(s) not shown; the log command lists every builder's moves",
                "{n} more builder(s) not shown; the log command lists every builder's moves",
                hidden,
            ).format(n=hidden)
        return table

    def _build_options(self, sheet: Sheet, obs: EgyptiaObservation, seat: int) -> Table | None:
        """At the build step: each building the column offers, its cost, where it may go
        and the hex that adds most to the Pharaoh cards now."""
        you = obs.get("you")
        if you is None or you["stage"] != "build":
            return None
        where = you.get("builds", {})
        offered: dict[str, bool] = dict(you.get("offered") or {})
        restriction = you["restriction"]
        title = _("What you may build")
        if restriction:
            title = t(
                "What you may build ({plague}: {effect})",
                plague=words.plague(restriction),
                effect=words.plague_effect(restriction),
            )
        table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(_("Building"))
        table.add_column(_("Cost"))
        table.add_column(_("Hexes you can pay for"), overflow="fold")
        table.add_column(_("Best for the cards now"))
        layout = obs["layout"]
        for building in [*offered, MOUND]:
            label = Text(words.building(building), style=BUILDING_LOOK[building][1])
            if offered.get(building):
                label.append(" (d20)", style="dim")
            if building == MOUND:
                cost = t("free; then {basic} basic or {favor} favor", basic=2, favor=1)
            else:
                extra = layout["wild_favor"] if offered.get(building) else 0
                cost = _cost_text(layout["costs"][building])
                if extra:
                    cost += f" +{extra}f (d20)"
                cost += "; " + t("Sacred Site +{n}f", n=layout["sacred_favor"])
            hexes = where.get(building, [])
            best = ""
            if hexes:
                gains = [(card_gain(sheet, obs, seat, building, h), h) for h in hexes]
                top = max(g for g, _ in gains)
                best_hexes = [h for g, h in gains if g == top]
                if len(best_hexes) == len(hexes):
                    best = t("{change} on any of them", change=_signed(top)) if top else "·"
                else:
                    best = t(
                        "{change} on {hexes}", change=_signed(top), hexes=", ".join(best_hexes[:4])
                    )
                    if len(best_hexes) > 4:
                        best += " " + t("(+{n} more)", n=len(best_hexes) - 4)
            table.add_row(
                label,
                cost,
                " ".join(hexes) if hexes else Text(_("none (cannot pay)"), style="dim"),
                best,
            )
        return table

    # ------------------------------------------------------------------ the compact screen
    def compact(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """What the decision needs in about a dozen lines (80x24 with the prompt and the
        moves; ``status`` on the ``board`` command draws the whole table): the round, the
        four columns, the seat's own resources, ships, plagues and cards, and at the build
        step one line a building (its cost, where it may go, the best hex for the cards)."""
        sheet = sheet_of(game)
        obs = as_observation(view)
        names = _names(obs)
        you = obs.get("you")
        stage = you["stage"] if you else None
        parts: list[RenderableType] = [self._headline(obs, names, seat)]
        me = obs["players"][seat] if 0 <= seat < len(obs["players"]) else None
        if stage in (None, "choose", "chosen") or obs["over"]:
            parts.append(self._compact_columns(obs, me))
        if me is not None:
            parts.extend(self._compact_sheet(obs, me))
        if you is not None and you["restriction"]:
            rule = you["restriction"]
            parts.append(
                Text(
                    t(
                        "{plague} this round: {effect}",
                        plague=words.plague(rule),
                        effect=words.plague_effect(rule),
                    ),
                    style="red",
                )
            )
        if stage == "build":
            parts.extend(self._compact_builds(sheet, obs, seat))
        elif stage in ("plague_pay", "build_pay") and you is not None and you["pending"]:
            pending = you["pending"]
            if pending["kind"] == "build":
                cost = [pending["cost"][r] for r in RESOURCES]
                parts.append(
                    Text(
                        t(
                            "Paying {cost} for your {building} on {hex}; the market: 2 basic "
                            "for 1 other basic, 3 basic for 1 favor, 1 favor for 1 basic.",
                            cost=words.bundle(cost),
                            building=words.building(pending["building"]),
                            hex=pending["hex"],
                        )
                    )
                )
        if len(names) > 1 and stage != "build":  # the build needs every line it has
            parts.append(self._compact_builders(obs, seat))
        return parts

    def _compact_columns(self, obs: EgyptiaObservation, me: PlayerView | None) -> Text:
        """The four columns, one short item each: dice, buildings, what the seat makes."""
        text = Text()
        for index, column in enumerate(obs["columns"]):
            resource = column["resource"]
            if index:
                text.append(" · ")
            text.append_text(_res(resource, words.resource(resource).capitalize()))
            count = len(column["dice"])
            buildings = [
                BUILDING_LOOK[d["building"]][0] if d["building"] in BUILDING_LOOK else words.die(20)
                for d in obs["dice"]
                if d["column"] == resource
            ]
            text.append(" " + words.dice(count))
            if buildings:
                text.append(f" ({' '.join(buildings)})")
            if me is not None:
                bonus = me["sheet"]["productivity"].get(resource, {"bonus": 0})["bonus"]
                text.append(f" +{count + bonus}")
            if column["plague"]:
                text.append(" " + _("plague"), style="red")
        return text

    def _compact_sheet(self, obs: EgyptiaObservation, me: PlayerView) -> list[RenderableType]:
        sheet = me["sheet"]
        line = Text()
        for index, resource in enumerate(RESOURCES):
            if index:
                line.append(" · ")
            entry = sheet["resources"][resource]
            line.append_text(_res(resource, f"{words.resource(resource)} {entry['have']}"))
            bonus = sheet["productivity"].get(resource, {"bonus": 0})["bonus"]
            if bonus:
                line.append(f" (+{bonus})", style="dim")
        unused = [str(i + 1) for i, s in enumerate(sheet["ships"]) if s == "unused"]
        crossed = sum(1 for c in sheet["plagues"].values() if c)
        line.append(" · ")
        line.append(t("ships {list}", list=" ".join(unused)) if unused else _("no ship left"))
        line.append(" · " + t("plagues {n}", n=crossed))
        if sheet["deaths"]:
            line.append(" " + t("+{n} Death", n=sheet["deaths"]))
        if sheet["red"]:
            line.append(" · " + _("red dot: last round"), style="bold red")
        score = me["score"]
        cards = Text(_("Cards") + ": ")
        cards.append(
            " · ".join(f"{c['card']} {c['points']}" for c in score["cards"]),
        )
        cards.append(
            " · "
            + t(
                "built {built} · score {score}",
                built=sheet["buildings"],
                score=score["total"],
            ),
            style="bold",
        )
        return [line, cards]

    def _compact_builds(
        self, sheet: Sheet, obs: EgyptiaObservation, seat: int
    ) -> list[RenderableType]:
        """At the build step: one line a building, as the table "What you may build"."""
        you = obs.get("you")
        assert you is not None
        where = you.get("builds", {})
        offered: dict[str, bool] = dict(you.get("offered") or {})
        layout = obs["layout"]
        lines: list[RenderableType] = [Text(_("What you may build"), style="bold")]
        for building in [*offered, MOUND]:
            line = Text()
            line.append(words.building(building), style=BUILDING_LOOK[building][1])
            if building == MOUND:
                line.append(
                    ": "
                    + t(
                        "free; then {basic} basic or {favor} favor",
                        basic=sheet.mound_basic,
                        favor=sheet.mound_favor,
                    )
                )
            else:
                cost = list(layout["costs"][building].values())
                if offered.get(building):
                    cost[3] += layout["wild_favor"]
                line.append(": " + words.cost(cost))
                if offered.get(building):
                    line.append(" " + _("(d20)"), style="dim")
            hexes = where.get(building, [])
            if not hexes:
                line.append(" · " + _("none you can pay for"), style="dim")
            else:
                line.append(" · " + words.hexes(len(hexes)))
                gains = [(card_gain(sheet, obs, seat, building, h), h) for h in hexes]
                top = max(g for g, _unused in gains)
                best = [h for g, h in gains if g == top]
                if len(best) < len(hexes) or top:
                    shown = ", ".join(best[:2]) + ("…" if len(best) > 2 else "")
                    line.append(
                        " · " + t("best {change} on {hexes}", change=_signed(top), hexes=shown)
                    )
            lines.append(line)
        return lines

    def _compact_builders(self, obs: EgyptiaObservation, seat: int) -> Text:
        """The other builders in one short line: the leaders' scores and who is still busy."""
        players = obs["players"]
        order = sorted(players, key=lambda p: (-p["score"]["total"], p["seat"]))
        shown = [p for p in order if p["seat"] != seat][:3]
        text = Text(_("Others") + ": ", style="dim")
        text.append(", ".join(f"{p['name']} {p['score']['total']}" for p in shown))
        if len(players) - 1 > len(shown):
            text.append(" " + t("(+{n} more)", n=len(players) - 1 - len(shown)))
        busy = sum(1 for p in players if p["stage"] in ("choosing", "building"))
        text.append(" · " + t("{n} still deciding", n=busy))
        return text

    def move_groups(
        self, game: Game, view: View, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, list[int]]]:
        """Headings for long move lists: the build step's moves by building, each in hex
        order, then the ships; other steps by kind."""
        sheet = sheet_of(game)
        builds: dict[str, list[tuple[int, int]]] = {}
        groups: dict[str, list[int]] = {}
        for index, action in enumerate(legal):
            if isinstance(action, Build):
                place = sheet.by_label.get(action.hex, len(sheet.hexes))
                builds.setdefault(action.building, []).append((place, index))
                continue
            if isinstance(action, Choose):
                heading = _("Columns")
            elif isinstance(action, Plague):
                heading = _("Plagues")
            elif isinstance(action, Pay):
                heading = _("Ways to pay")
            elif isinstance(action, Gain):
                heading = _("The Burial Mound's reward")
            elif isinstance(action, UseShip):
                heading = _("Ships (once a game)")
            else:
                heading = _("Other moves")
            groups.setdefault(heading, []).append(index)
        found: list[tuple[str, list[int]]] = []
        for building, spots in builds.items():
            ordered = [index for _place, index in sorted(spots)]
            heading = t(
                "Build a {building} ({n})", building=words.building(building), n=len(ordered)
            )
            found.append((heading, ordered))
        found.extend(groups.items())
        return found

    # ------------------------------------------------------------------ hints
    def action_hint(self, game: Game, view: View, seat: int, action: Action) -> str:
        try:
            return self._hint(sheet_of(game), as_observation(view), seat, action)
        except (IndexError, KeyError, ValueError):
            return ""

    def _hint(self, sheet: Sheet, obs: EgyptiaObservation, seat: int, action: Action) -> str:
        entry = obs["players"][seat]
        have = _have(entry)
        circled = _circled(entry)
        if isinstance(action, Choose):
            column = action.column
            resource = RESOURCES[column]
            dice = [d for d in obs["dice"] if d["column"] == resource]
            productivity = entry["sheet"]["productivity"]
            bonus = productivity[resource]["bonus"] if resource in productivity else 0
            amount = len(dice) + bonus
            bundle = [0, 0, 0, 0]
            bundle[column] = amount
            buildings = sorted(
                {_("any") if d["building"] == WILD else words.building(d["building"]) for d in dice}
            )
            parts = ["+" + words.amount(amount, resource)]
            parts.append(
                t("builds {buildings}", buildings=", ".join(buildings))
                if buildings
                else _("builds only a Burial Mound")
            )
            if len(dice) >= 3:
                parts.append(_("plague!"))
            warning = _track_warning(sheet, circled, (bundle[0], bundle[1], bundle[2], bundle[3]))
            return " · ".join(parts) + warning
        if isinstance(action, UseShip):
            gives = sheet.ships[action.ship - 1]
            return t(
                "circle {what}; unused it scores {n}", what=words.bundle(gives), n=sheet.ship_points
            ) + _track_warning(sheet, circled, gives)
        if isinstance(action, Plague):
            if action.name == "hail-fire":
                gives = sheet.ships[action.ship - 1]
                points = sheet.ship_points
                return t(
                    "lose ship {ship} ({what}) and its {n} points",
                    ship=action.ship,
                    what=words.bundle(gives),
                    n=points,
                )
            effect = words.plague_effect(action.name, sheet.pestilence_points)
            cost = PLAGUE_COST.get(action.name)
            if cost is not None and any(h < c for h, c in zip(have, cost, strict=True)):
                effect = t("{effect}, through the market", effect=effect)
            return effect
        if isinstance(action, Build):
            if action.building == MOUND:
                gain = card_gain(sheet, obs, seat, MOUND, action.hex)
                return t("free; gives {basic} basic or {favor} favor", basic=2, favor=1) + (
                    " · " + t("cards {change}", change=_signed(gain)) if gain else ""
                )
            hex_index = sheet.by_label[action.hex]
            you = obs.get("you")
            offered = (you.get("offered") if you else None) or {}
            wild = offered.get(action.building, False)
            cost = build_cost(sheet, action.building, hex_index, wild)
            notes = []
            if wild:
                notes.append(f"d20 +{sheet.wild_favor}f")
            if sheet.hexes[hex_index].sacred:
                notes.append(t("Sacred Site +{n}f", n=sheet.sacred_favor))
            shown = bundle_text(cost) + (f" ({', '.join(notes)})" if notes else "")
            gain = card_gain(sheet, obs, seat, action.building, action.hex)
            return f"{shown} · " + t("cards {change}", change=_signed(gain))
        if isinstance(action, Pay):
            return t("leaves {what}", what=bundle_text(_add(have, action.bundle, -1)))
        if isinstance(action, Gain):
            return words.bundle(action.bundle) + _track_warning(sheet, circled, action.bundle)
        return ""

    def decision(self, game: Game, view: View) -> str:
        """Who must decide what now, as the view says it (a spectator's: who is waited for)."""
        return as_observation(view)["decision"]

    def decision_for(self, game: Game, view: View, seat: int) -> str:
        """The seat's own decision, and who will learn of it when."""
        obs = as_observation(view)
        text = obs["decision"]
        you = obs.get("you")
        if obs["over"] or len(obs["players"]) == 1 or you is None:
            return text
        if you["stage"] == "choose":
            return text + " " + _("Your column stays sealed until every builder has chosen.")
        return text + " " + _("The others see what you do now when the round ends.")

    def help_lines(self) -> list[str]:
        plagues = "; ".join(f"{p} {words.plague_effect(p)}" for p in PLAGUES)
        return [
            USAGE[0].upper() + USAGE[1:] + ".",
            _(
                "A round: choose a column of the resource board (sealed) and produce one resource "
                "per die in it, plus your productivity; a column of 3 dice or more brings a "
                "plague; then build one building a die of your column shows (the d20: any, for "
                "a favor more), or a Burial Mound anywhere (free, gives 2 basic or 1 favor)."
            ),
            _(
                "Hexes are written row letter and place: A1 is the left hex of the top row. "
                "Buildings: pyramid, quarry, mine, obelisk, field, mound (Burial Mound)."
            ),
            _(
                "Resources in pay and gain: g grain, d diamond, s stone, f favor, e.g. pay 1g+2d "
                "or gain 1f. Market (any time, no marks): 2 basic for 1 other basic, 3 basic for "
                "1 favor, 1 favor for 1 basic; costs with one way to pay are paid at once."
            ),
            t("Plagues: {plagues}.", plagues=plagues),
            _("ship N (any time): cross off an unused ship and circle what it carries."),
            _(
                "The game ends when the maps are full or after a round in which a builder circled "
                "a red dot. Score: the 5 cards, 1 per 2 favor left (3 basic left make 1 favor), "
                "2 per unused ship, minus Pestilence."
            ),
        ]

    def fold_log(self, game: Game, view: View, seat: int, lines: list[str]) -> list[str]:
        """With many builders, the lines about the others become one count (``log``
        shows them all); the dice, the rounds and the seat's own lines stay."""
        names = _names(as_observation(view))
        if len(names) < FOLD_LOG_FROM:
            return lines
        by_length = sorted(range(len(names)), key=lambda s: -len(names[s]))
        kept: list[str] = []
        folded = 0
        where = -1
        for line in lines:
            owner = next(
                (
                    s
                    for s in by_length
                    if line.startswith(names[s] + " ") or line.startswith(names[s] + ":")
                ),
                None,
            )
            if owner is not None and owner != seat:
                folded += 1
                if where < 0:
                    where = len(kept)
                continue
            kept.append(line)
        if folded:
            kept.insert(
                where,
                ngettext(
                    "({n} line(s) about the other {others} builders; type log to read them)",
                    "({n} line(s) about the other {others} builders; type log to read them)",
                    folded,
                ).format(n=folded, others=len(names) - 1),
            )
        return kept

    # ------------------------------------------------------------------ the end
    def final(self, game: Game, view: View) -> list[RenderableType]:
        return self._final(as_observation(view), None)

    def final_for(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        return self._final(as_observation(view), seat)

    def _final(self, obs: EgyptiaObservation, seat: int | None) -> list[RenderableType]:
        names = _names(obs)
        results = obs.get("final") or []
        if not results:
            return [Text(obs["decision"])]
        parts: list[RenderableType] = []
        maps = self._final_maps(obs, names, seat, _winners(obs))
        if maps:
            parts.append(maps)
        parts.append(self.final_table(obs, names, seat))
        parts.append(self._verdict(obs, names))
        return parts

    def _final_maps(
        self, obs: EgyptiaObservation, names: tuple[str, ...], seat: int | None, winners: list[int]
    ) -> RenderableType | None:
        if len(names) <= 4:
            shown = list(range(len(names)))
        else:
            shown = winners[:3]
            if seat is not None and seat not in shown:
                shown.insert(0, seat)
        layout = obs["layout"]
        hexes = layout_hexes(layout)
        results = obs.get("final") or []
        panels = []
        for s in shown:
            title = seat_text(names, s)
            title.append(f" ({words.points(results[s]['total'])})", style="bold")
            city = obs["players"][s]["sheet"]["city"]
            panels.append(Group(title, draw_map(hexes, city, river=layout["river"])))
        return Columns(panels, padding=(1, 4)) if panels else None

    def final_table(
        self, obs: EgyptiaObservation, names: tuple[str, ...], seat: int | None = None
    ) -> Table:
        results = obs.get("final") or []
        count = len(results)
        order = sorted(range(count), key=lambda s: (results[s]["rank"], s))
        if seat is not None and count > SHOWN_BUILDERS + 10:
            shown = order[:SHOWN_BUILDERS]
            if seat not in shown:
                shown.append(seat)
        else:
            shown = order
        table = Table(
            title=_("Final scoring"),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=(0, 1, 0, 0),
            pad_edge=False,
        )
        table.add_column(_("Rank"), justify="right", no_wrap=True)
        table.add_column(_("Builder"), ratio=1)
        for card in obs["cards"]:
            table.add_column(card["id"], justify="right", no_wrap=True)
        table.add_column(_("Favor"), justify="right", no_wrap=True)
        table.add_column(_("Ships"), justify="right", no_wrap=True)
        table.add_column(_("Pest."), justify="right", no_wrap=True)
        table.add_column(_("Total"), justify="right", no_wrap=True)
        table.add_column(_("Plagues"), justify="right", no_wrap=True)
        detail = count == 1  # the book's example writes a card's points as 5+5+5+5+4
        for s in shown:
            result = results[s]
            cells: list[RenderableType] = [str(result["rank"]), seat_text(names, s)]
            for line in result["cards"]:
                shown_points = str(line["points"])
                if detail and len(line["parts"]) > 1 and line["points"]:
                    shown_points += f" ({'+'.join(map(str, line['parts']))})"
                cells.append(shown_points)
            cells += [
                f"{result['favor_points']} ({result['favor']}f)",
                f"{result['ship_points']} ({result['ships_unused']})",
                f"-{result['pestilence']}" if result["pestilence"] else "·",
                Text(str(result["total"]), style="bold"),
                str(result["plagues"]),
            ]
            table.add_row(*cells)
        caption = _(
            "Favor: points (favor left; 3 basic left count as 1) · Ships: points (unused "
            "ships) · Pest.: Pestilence · Plagues crossed off: a tie on points goes to fewer "
            "plagues, then to more favor left"
        )
        if len(shown) < count:
            hidden = count - len(shown)
            caption += "\n" + ngettext(
                "{n} more builder(s) not shown; karnak replay FILE lists them all",
                "{n} more builder(s) not shown; karnak replay FILE lists them all",
                hidden,
            ).format(n=hidden)
        table.caption = caption
        table.caption_justify = "left"
        table.caption_style = "dim"
        return table

    def _verdict(self, obs: EgyptiaObservation, names: tuple[str, ...]) -> Text:
        line = Text()
        ranks = obs["layout"]["ranks"]
        results = obs.get("final") or []
        if len(names) == 1:
            total = results[0]["total"]
            line.append(_("Builder status:") + " ", style="bold")
            line.append(words.rank(str(obs.get("solo_rank") or "")), style="bold green")
            line.append(" " + t("with {n} points ({chart}).", n=total, chart=_rank_chart(ranks)))
            return line
        winners = _winners(obs)
        line.append(
            (_("Winner:") if len(winners) == 1 else _("Shared victory:")) + " ", style="bold"
        )
        for i, s in enumerate(winners):
            if i:
                line.append(", ")
            line.append_text(seat_text(names, s))
        top = max(r["total"] for r in results)
        tied = [r for r in results if r["total"] == top]
        if len(tied) > len(winners):
            line.append(
                " " + _("(a tie on points broken by fewer plagues, then more unused favor)")
            )
        return line

    # ------------------------------------------------------------------ the sheet figures
    def figures(self, game: Game) -> list[RenderableType]:
        sheet: Sheet = game.sheet  # type: ignore[attr-defined]
        source = _("built-in") if sheet.source == str(DEFAULT_SHEET) else sheet.source
        return [
            Text(t("Egyptia sheet ({source})", source=source), style="bold italic"),
            self._dice_table(sheet),
            self._buildings_table(sheet),
            self._map_figure(sheet),
            self._tracks_table(sheet),
            self._cards_table(sheet),
            self._scoring_table(sheet),
            self._legend(),
        ]

    @staticmethod
    def _level(level: str) -> Text:
        colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
        return Text(f"{_level_word(level)}{marker}", style=colour)

    def _raw_level(self, sheet: Sheet, table: str) -> str:
        entry = sheet.raw.get(table)
        if isinstance(entry, Mapping):
            return str(entry.get("confidence", "printed"))
        return "printed"

    def _dice_table(self, sheet: Sheet) -> Table:
        table = Table(
            title=_("Resource board: the die's value picks the column"), title_justify="left"
        )
        table.add_column(_("Die"))
        table.add_column(_("Building"))
        for name in RESOURCES:
            table.add_column(_res(name, words.resource(name)), justify="center")
        table.add_column(_("Confidence"))
        for die in sheet.dice:
            cells: list[RenderableType] = [words.die(die.sides)]
            if die.building == WILD:
                cells.append(Text(t("any (+{n} favor)", n=sheet.wild_favor), style="bold"))
            else:
                cells.append(
                    Text(words.building(die.building), style=BUILDING_LOOK[die.building][1])
                )
            for column in range(len(RESOURCES)):
                values = [v for v in range(1, die.sides + 1) if die.column_of(v) == column]
                cells.append(_ranges(values))
            cells.append(self._level(sheet.confidence.get(f"dice.d{die.sides}", "printed")))
            table.add_row(*cells)
        return table

    def _buildings_table(self, sheet: Sheet) -> Table:
        table = Table(title=_("Buildings"), title_justify="left")
        table.add_column(_("Building"))
        table.add_column(_("Cost"))
        table.add_column(_("Productivity"))
        table.add_column(_("Confidence"))
        for building, cost in sheet.costs.items():
            track = sheet.productivity.get(building)
            table.add_row(
                Text(words.building(building), style=BUILDING_LOOK[building][1]),
                words.bundle(cost),
                t("{resource} +1 step", resource=words.resource(RESOURCES[track]))
                if track is not None
                else "·",
                self._level(sheet.confidence.get(f"buildings.{building}", "printed")),
            )
        surcharges = self._level(self._raw_level(sheet, "surcharges"))
        table.add_row(
            Text(words.building(MOUND), style=BUILDING_LOOK[MOUND][1]),
            _("free"),
            t(
                "gives {basic} basic or {favor} favor",
                basic=sheet.mound_basic,
                favor=sheet.mound_favor,
            ),
            surcharges,
        )
        table.add_row(_("through the d20"), t("+{n} favor", n=sheet.wild_favor), "", surcharges)
        table.add_row(
            _("on a Sacred Site"),
            t("+{n} favor (not a Burial Mound)", n=sheet.sacred_favor),
            "",
            surcharges,
        )
        steps = ", ".join(f"+{s}" for s in sheet.steps)
        table.add_row(
            _("productivity steps"), steps, "", self._level(self._raw_level(sheet, "productivity"))
        )
        return table

    def _map_figure(self, sheet: Sheet) -> Group:
        title = Text(_("The player sheet's map") + " ", style="bold")
        title.append_text(self._level(sheet.confidence.get("map", "printed")))
        sacred = [h.label for h in sheet.hexes if h.sacred]
        oasis = sheet.hexes[sheet.oasis].label
        facts = Text(
            _river_facts(sheet.river).format(
                n=len(sheet.buildable), oasis=oasis, sacred=", ".join(sacred) or _("none")
            ),
            style="dim",
        )
        ships = Text(_("Ships:") + " ", style="bold")
        for number, gives in enumerate(sheet.ships, start=1):
            if number > 1:
                ships.append(" · ")
            ships.append(f"{number}: {words.bundle(gives)} ")
            ships.append_text(self._level(sheet.confidence.get(f"ship.{number}", "printed")))
        return Group(
            title,
            draw_map(sheet.hexes, {}, river=sheet.river),
            map_legend(sheet.sacred_favor),
            facts,
            ships,
        )

    def _tracks_table(self, sheet: Sheet) -> Table:
        level = self._level(sheet.confidence.get("tracks", "printed"))
        table = Table(title=_("Resource tracks"), title_justify="left")
        table.add_column(_("Track"))
        table.add_column(_("Dots"), justify="right")
        table.add_column(_("Circled at the start"), justify="right")
        table.add_column(_("Red dots (end the game)"), justify="right")
        table.add_column(_("Confidence"))
        for i, name in enumerate(RESOURCES):
            table.add_row(
                _res(name, words.resource(name)),
                str(sheet.dots[i]),
                str(sheet.start[i]),
                str(sheet.red[i]),
                level,
            )
        return table

    def _cards_table(self, sheet: Sheet) -> Table:
        table = Table(title=_("Pharaoh cards (one of each letter per game)"), title_justify="left")
        table.add_column(_("Card"))
        table.add_column(_("Scores"))
        table.add_column(_("Points"), overflow="fold")
        table.add_column(_("Confidence"))
        for card in sheet.cards:
            table.add_row(
                Text(card.id, style="bold"),
                words.card_text(card.text),
                ", ".join(map(str, card.points)),
                self._level(card.confidence),
            )
        return table

    def _scoring_table(self, sheet: Sheet) -> Table:
        level = self._level(self._raw_level(sheet, "scoring"))
        table = Table(title=_("Final scoring and solo ranks"), title_justify="left")
        table.add_column(_("Rule"))
        table.add_column(_("Value"))
        table.add_column(_("Confidence"))
        table.add_row(_("favor left per point"), str(sheet.favor_per_point), level)
        table.add_row(
            _("basic left per favor (end-game market)"), str(sheet.basic_per_favor), level
        )
        table.add_row(_("points per unused ship"), str(sheet.ship_points), level)
        table.add_row(_("Pestilence costs"), words.points(sheet.pestilence_points), level)
        ranks = [{"name": r.name, "from": r.low} for r in sheet.ranks]
        table.add_row(_("solo builder status"), _rank_chart(ranks), self._level("printed"))
        return table

    def _legend(self) -> Text:
        return confidence_legend(
            "egyptia",
            _(
                "printed: stated by the rule book (or shown by its examples); reconstructed: "
                "our best reading of a figure the rule text does not give."
            ),
        )


def _names(obs: EgyptiaObservation) -> tuple[str, ...]:
    """The builders' names, by seat."""
    return tuple(p["name"] for p in obs["players"])


def _winners(obs: EgyptiaObservation) -> list[int]:
    """The seats that share first place in a finished game."""
    return [r["seat"] for r in obs.get("final") or [] if r["rank"] == 1]


def _ranges(values: list[int]) -> str:
    """``[1, 2, 3, 5]`` as ``1-3, 5``; nothing as ``·``."""
    if not values:
        return "·"
    parts = []
    start = prev = values[0]
    for value in [*values[1:], None]:
        if value is not None and value == prev + 1:
            prev = value
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if value is not None:
            start = prev = value
    return ", ".join(parts)


def _ordinal(number: int) -> str:
    """``11th``, ``21st`` in the reader's language (``11.``, ``11e``)."""
    last = 0 if 10 <= number % 100 <= 20 else number % 10
    if last == 1:
        return pgettext("ordinal", "{n}st").format(n=number)
    if last == 2:
        return pgettext("ordinal", "{n}nd").format(n=number)
    if last == 3:
        return pgettext("ordinal", "{n}rd").format(n=number)
    return pgettext("ordinal", "{n}th").format(n=number)


def _stage_word(stage: str) -> str:
    """A builder's stage in the table of builders, as the others may know it."""
    said = {
        "choosing": pgettext("builder stage", "choosing"),
        "chosen": pgettext("builder stage", "chosen"),
        "building": pgettext("builder stage", "building"),
        "done": pgettext("builder stage", "done"),
    }
    return said.get(stage, stage)


def _level_word(level: str) -> str:
    """How sure a figure is (``printed``, ``one source``, ``reconstructed``)."""
    said = {
        "printed": pgettext("confidence", "printed"),
        "one source": pgettext("confidence", "one source"),
        "reconstructed": pgettext("confidence", "reconstructed"),
    }
    return said.get(level, level)


def _river_facts(side: str) -> str:
    """The map's facts (``{n}`` hexes, ``{oasis}``, ``{sacred}`` sites) with its river's side."""
    if side == "top":
        return _(
            "{n} hexes to build on (a game lasts at most as many rounds); Oasis {oasis}; "
            "Sacred Sites {sacred}; river along the top."
        )
    if side == "bottom":
        return _(
            "{n} hexes to build on (a game lasts at most as many rounds); Oasis {oasis}; "
            "Sacred Sites {sacred}; river along the bottom."
        )
    return t(
        "{n} hexes to build on (a game lasts at most as many rounds); Oasis {oasis}; "
        "Sacred Sites {sacred}; river along the {side}.",
        n="{n}",
        oasis="{oasis}",
        sacred="{sacred}",
        side=side,
    )


__all__ = ["EgyptiaRenderer", "draw_map"]

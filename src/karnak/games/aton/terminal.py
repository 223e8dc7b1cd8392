"""Drawing Aton in the terminal: four temples of twelve squares, the Kingdom of the Dead,
the priests' scores and stocks, the cartouches and the scoring.

Everything shown comes from the seat's observation (``state.observation(seat)``, the one
function that decides what a seat may see) and the game's printed board; the state is
never handed in, so the client cannot leak a card by accident: another priest's hand and
sealed cartouches never reach this module before the reveal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from karnak.core import Game
from karnak.core.actions import Action
from karnak.core.terminal import CONFIDENCE_LOOK, View, confidence_legend, seat_style, seat_text
from karnak.games.aton.i18n import N_, _, ngettext, t
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.board import CONSTANTS, DEFAULT_BOARD, Board, Square
from karnak.games.aton.rules.state import EMPTY, score_temples
from karnak.games.aton.view import AtonObservation, ScoringLine, as_observation, board_of

#: How a square's colour is written (three letters, so a table stays readable without
#: colour) and drawn.
COLOUR_LOOK = {
    "yellow": ("yel", "bold yellow"),
    "green": ("grn", "bold green"),
    "black": ("blk", "bold grey50"),
    "blue": ("blu", "bold blue"),
    "bonus": ("+{bonus}", "bold magenta"),
}

#: What each cartouche decides, in a few words.
CARTOUCHES = (
    N_("points: the higher card scores twice the difference"),
    N_("order (lower card begins) and removal (card − 2)"),  # noqa: RUF001
    N_("temples in reach: 1 to the card"),
    N_("counters brought into play"),
)

#: The scoring rules, as the rule book states them (the board gives only the colours).
SCORING_RULES = (
    ("temple 1", N_("the majority scores the difference in counters")),
    ("temple 2", N_("the majority scores 5")),
    ("temple 3", N_("the majority scores its counters there")),
    ("temple 4", N_("the majority scores 3 per blue square it holds in any temple")),
    ("black squares", N_("the majority on black squares scores 8")),
    ("bonus squares", N_("each counter on one scores its +1 or +2")),
)
#: The rules' names, as the scoring tables show them.
RULE_NAMES = {
    "temple 1": N_("temple 1"),
    "temple 2": N_("temple 2"),
    "temple 3": N_("temple 3"),
    "temple 4": N_("temple 4"),
    "black squares": N_("black squares"),
    "bonus squares": N_("bonus squares"),
}

CONSTANT_NAMES = {
    "counters": N_("counters per priest"),
    "cards_per_value": N_("cards of each value (1-4) per priest"),
    "hand_size": N_("cards drawn per round"),
    "kingdom_squares": N_("squares of the Kingdom of the Dead"),
    "win_points": N_("points that win"),
    "squares_per_temple": N_("squares per temple"),
}
#: One letter a square colour in the compact screen (the full board writes three).
COLOUR_LETTERS = {"yellow": "y", "green": "g", "black": "k", "blue": "b"}
#: The colours in words, as the tables and hints name them.
COLOUR_WORDS = {
    "yellow": N_("yellow"),
    "green": N_("green"),
    "black": N_("black"),
    "blue": N_("blue"),
}


def marks(names: tuple[str, ...] | list[str]) -> list[str]:
    """One character per seat for the squares: initials, or 1 and 2 when they clash."""
    initials = [(name.strip() or "?")[0].upper() for name in names]
    if len(set(initials)) < len(initials) or "·" in initials:
        return [str(seat + 1) for seat in range(len(names))]
    return initials


def colour_label(square: Square) -> Text:
    label, style = COLOUR_LOOK.get(square.colour, (square.colour[:3], ""))
    return Text(label.format(bonus=square.bonus), style=style)


def colour_words(square: Square) -> str:
    if square.colour == "bonus":
        return t("bonus +{n}", n=square.bonus)
    return _(COLOUR_WORDS[square.colour]) if square.colour in COLOUR_WORDS else square.colour


def _points(value: int) -> str:
    return str(value) if value else "·"


def _cards(cards: list[int] | None) -> str:
    return " ".join(map(str, cards)) if cards else "·"


def _removal(card: int) -> str:
    if card == 1:
        return _("remove 1 of yours")
    if card == 2:
        return _("no removal")
    return t("remove {n}", n=card - 2)


def _reach(card: int) -> str:
    return _("temple 1") if card == 1 else t("temples 1-{n}", n=card)


class AtonRenderer:
    """The :class:`~karnak.cli.render.GameRenderer` of Aton."""

    # ------------------------------------------------------------------ during play
    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """The full board (the ``board`` command): every table."""
        board = board_of(game)
        obs = as_observation(view)
        names = _names(obs)
        parts: list[RenderableType] = [
            self._headline(obs),
            self.temples(obs, board, names),
            self._kingdom(obs, names),
            self._players(obs, names, seat),
        ]
        revealed = self._revealed(obs, names)
        if revealed is not None:
            parts.append(revealed)
        parts.append(self._own(obs, names, seat))
        parts.append(self.scoring(board, obs, names))
        return parts

    def compact(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """What the decision needs, in about a dozen lines (80x24 with the prompt and the
        moves): the round, one line a temple, the Kingdom of the Dead, one line a priest,
        the seat's own cards and what a scoring now would give."""
        board = board_of(game)
        obs = as_observation(view)
        names = _names(obs)
        seat_marks = marks(names)
        parts: list[RenderableType] = [self._headline(obs)]
        reach = obs["reach"] or 0
        legend = Text(
            t(
                "Temples: {marks}, · empty; y yellow, g green, k black, b blue, + bonus",
                marks=", ".join(f"{m} = {n}" for m, n in zip(seat_marks, names, strict=True)),
            ),
            style="dim",
        )
        parts.append(legend)
        for index, (squares, occupants) in enumerate(
            zip(board.temples, obs["temples"], strict=True)
        ):
            line = Text()
            line.append(f"{index + 1} ", style="bold")
            for square, occupant in zip(squares, occupants, strict=True):
                letter = COLOUR_LETTERS.get(square.colour, "+")
                line.append(letter, style=COLOUR_LOOK.get(square.colour, ("", ""))[1])
                if occupant == EMPTY:
                    line.append("·", style="dim")
                else:
                    line.append(seat_marks[occupant], style=seat_style(occupant))
                line.append(" ")
            counts = [occupants.count(0), occupants.count(1)]
            line.append(f" {seat_marks[0]} {counts[0]} : {counts[1]} {seat_marks[1]}")
            if index < reach:
                line.append("  " + _("in reach"), style="cyan")
            parts.append(line)
        parts.append(self._kingdom(obs, names))
        order = obs["order"]
        for entry in obs["players"]:
            s = entry["seat"]
            line = Text()
            line.append_text(seat_text(names, s))
            if s == seat:
                line.append(" (" + _("you") + ")")
            details = [
                ngettext("{n} point", "{n} points", entry["score"]).format(n=entry["score"]),
                t("stock {n}", n=entry["stock"]),
                t("pile {n}", n=entry["pile"]),
                _("exchange used") if entry["exchange_used"] else _("exchange available"),
            ]
            if entry["cartouches"] is not None:
                details.append(t("cartouches {cards}", cards=_cards(entry["cartouches"])))
            elif obs["phase"] == "allocate":
                details.append(_("laid face down") if entry["committed"] else _("still deciding"))
            if order is not None and not obs["over"]:
                details.append(_("goes first") if order[0] == s else _("goes second"))
            line.append(": " + " · ".join(details))
            parts.append(line)
        own = self._own(obs, names, seat, brief=True)
        if own.plain:
            parts.append(own)
        now = score_temples(board, obs["temples"])
        totals = [sum(line["points"][s] for line in now) for s in (0, 1)]
        parts.append(
            Text(
                t(
                    "A scoring now: {a} {x}, {b} {y} (the full board: board)",
                    a=names[0],
                    x=totals[0],
                    b=names[1],
                    y=totals[1],
                ),
                style="dim",
            )
        )
        return parts

    def move_groups(
        self, game: Game, view: View, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, list[int]]]:
        """Headings for long move lists: the lay-outs by the card on cartouche 1, squares by
        temple."""
        groups: dict[str, list[int]] = {}
        for index, action in enumerate(legal):
            if isinstance(action, Exchange):
                heading = _("Exchange your cards")
            elif isinstance(action, Allocate):
                heading = t("Lay-outs with a {card} on cartouche 1", card=action.cards[0])
            elif isinstance(action, Remove | Place):
                heading = t("Temple {n}", n=action.temple)
            else:
                heading = _("Other moves")
            groups.setdefault(heading, []).append(index)
        return list(groups.items())

    def _headline(self, obs: AtonObservation) -> Text:
        text = Text()
        text.append(t("Round {n}", n=obs["round"]), style="bold")
        text.append(" · ")
        text.append(str(obs["phase_name"]), style="bold cyan")
        if obs["reach"]:
            text.append(" · " + t("{temples} in reach", temples=_reach(obs["reach"])))
        return text

    def temples(
        self, obs: AtonObservation, board: Board, names: tuple[str, ...] | list[str]
    ) -> Table:
        """The four temples: each square's colour over the counter on it (· when empty)."""
        seat_marks = marks(names)
        legend = ", ".join(f"{m} = {n}" for m, n in zip(seat_marks, names, strict=True))
        table = _squares_table(Text(t("Temples ({legend}; · empty)", legend=legend)), "", board)
        size = _size(board)
        for seat, mark in enumerate(seat_marks):  # counters per temple, headed by the marks
            table.add_column(Text(mark, style=seat_style(seat)), justify="right")
        reach = obs["reach"] or 0
        for index, (squares, occupants) in enumerate(
            zip(board.temples, obs["temples"], strict=True)
        ):
            heading = Text(t("Temple {n}", n=index + 1), style="bold")
            heading.append("\n" + _("in reach") if index < reach else "", style="cyan")
            cells: list[RenderableType] = [heading]
            for square, occupant in zip(squares, occupants, strict=True):
                cell = colour_label(square)
                cell.append("\n")
                if occupant == EMPTY:
                    cell.append("·", style="dim")
                else:
                    cell.append(seat_marks[occupant], style=seat_style(occupant))
                cells.append(cell)
            cells.extend("" for _blank in range(size - len(squares)))
            for seat in range(len(names)):
                cells.append(str(sum(1 for o in occupants if o == seat)))
            table.add_row(*cells)
        return table

    def _kingdom(self, obs: AtonObservation, names: tuple[str, ...]) -> Text:
        seat_marks = marks(names)
        kingdom: list[int] = obs["kingdom"]
        total = obs["kingdom_squares"]
        text = Text(_("Kingdom of the Dead") + " ", style="bold")
        text.append(t("({held} of {size}): ", held=len(kingdom), size=total))
        for i in range(total):
            if i:
                text.append(" ")
            if i < len(kingdom):
                text.append(seat_marks[kingdom[i]], style=seat_style(kingdom[i]))
            else:
                text.append("·", style="dim")
        if len(kingdom) >= total:
            text.append(
                "  " + _("full: the temples are scored at the end of this round"), style="bold"
            )
        return text

    def _players(self, obs: AtonObservation, names: tuple[str, ...], seat: int) -> Table:
        headers = (
            (_("Priest"), "left"),
            (_("Score"), "right"),
            (_("Stock"), "right"),
            (_("Pile"), "right"),
            (_("Discards"), "left"),
            (_("Exchange"), "left"),
            (_("Cartouches"), "left"),
            (_("Notes"), "left"),
        )
        order = obs["order"]
        to_move = obs["to_move"]
        rows: list[list[Text | str]] = []
        for entry in obs["players"]:
            s = entry["seat"]
            discards = entry["discards"]
            discard_text = (
                " ".join(f"{count}×{value}" for value, count in discards.items()) or "·"  # noqa: RUF001
            )
            if entry["cartouches"] is not None:
                cartouches = _cards(entry["cartouches"])
            elif obs["phase"] == "allocate":
                cartouches = _("laid face down") if entry["committed"] else _("still deciding")
            else:
                cartouches = "·"
            notes = []
            if s == seat:
                notes.append(_("you"))
            if order is not None:
                notes.append(_("goes first") if order[0] == s else _("goes second"))
            if s in to_move and obs["phase"] != "allocate":
                notes.append(_("to move"))
            rows.append(
                [
                    seat_text(names, s),
                    str(entry["score"]),
                    str(entry["stock"]),
                    str(entry["pile"]),
                    discard_text,
                    _("used") if entry["exchange_used"] else _("available"),
                    cartouches,
                    ", ".join(notes),
                ]
            )
        table = Table(
            title=_("Priests"),
            title_justify="left",
            box=box.SIMPLE_HEAD,
            padding=(0, 1, 0, 0),
            pad_edge=False,
        )
        # nothing is ever cut: a column is at least as wide as the longest word in it (its
        # header's too); longer texts wrap between words
        for index, (header, justify) in enumerate(headers):
            texts = [header, *(str(row[index]) for row in rows)]
            table.add_column(
                header,
                justify=justify,  # type: ignore[arg-type]
                min_width=max(len(word) for text in texts for word in text.split() or [""]),
            )
        for row in rows:
            table.add_row(*row)
        return table

    def _revealed(self, obs: AtonObservation, names: tuple[str, ...]) -> Table | None:
        """Both priests' cartouches, once they are turned up."""
        shown = [cards for entry in obs["players"] if (cards := entry["cartouches"]) is not None]
        if len(shown) < len(obs["players"]):
            return None
        table = Table(title=_("Cartouches (revealed)"), title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(_("Cartouche"), min_width=len(_("Cartouche")))
        for seat, name in enumerate(names):
            table.add_column(Text(name, style=seat_style(seat)), justify="right")
        table.add_column(_("Decides"))
        for index, meaning in enumerate(CARTOUCHES):
            table.add_row(
                str(index + 1), *(str(cards[index]) for cards in shown), Text(_(meaning), "dim")
            )
        return table

    def _own(
        self, obs: AtonObservation, names: tuple[str, ...], seat: int, *, brief: bool = False
    ) -> Text:
        """The seat's own cards: its hand, and its sealed cartouches until the reveal."""
        you = obs.get("you")
        hand = you["hand"] if you is not None else []
        own = you["cartouches"] if you is not None else None
        sealed = own is not None and obs["players"][seat]["cartouches"] is None
        text = Text()
        if brief and not hand and not sealed:
            return text
        text.append(t("Your cards ({who}): ", who=names[seat]), style="bold")
        text.append(_cards(hand) if hand else _("none in hand"))
        if sealed and own is not None:
            text.append("\n" + _("Your cartouches (sealed): "), style="bold")
            text.append(" · ".join(f"{i + 1}: {card}" for i, card in enumerate(own)))
        if hand and obs["phase"] == "allocate":
            if brief:
                text.append(
                    "\n"
                    + _(
                        "allocate C1 C2 C3 C4 lays them on cartouches 1 to 4 (points, order "
                        "and removal, reach, counters); help tells more."
                    ),
                    style="dim",
                )
            else:
                text.append(
                    "\n"
                    + t(
                        "allocate C1 C2 C3 C4 lays them on cartouches 1 to 4: {meanings}.",
                        meanings="; ".join(
                            f"{i + 1} {_(meaning)}" for i, meaning in enumerate(CARTOUCHES)
                        ),
                    ),
                    style="dim",
                )
        return text

    def scoring(self, board: Board, obs: AtonObservation, names: tuple[str, ...]) -> Table:
        """What scoring the temples now would give, beside the last scoring's lines."""
        now = score_temples(board, obs["temples"])  # the temples and the board: all public
        last: list[ScoringLine] = obs["last_scoring"]
        table = Table(title=_("Temple scoring"), title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(_("Rule"))
        table.add_column(_("Counters\nnow"), justify="right")
        for seat, name in enumerate(names):
            table.add_column(
                Text(t("{who}\nif scored now", who=name), style=seat_style(seat)), justify="right"
            )
        if last:
            for seat, name in enumerate(names):
                table.add_column(
                    Text(t("{who}\nlast scoring", who=name), style=seat_style(seat)),
                    justify="right",
                )
        for index, line in enumerate(now):
            counters = line["counters"]
            rule = line["rule"]
            cells = [
                _(RULE_NAMES[rule]) if rule in RULE_NAMES else rule,
                "·" if counters is None else " : ".join(map(str, counters)),
                *(_points(p) for p in line["points"]),
            ]
            if last:
                cells.extend(_points(p) for p in last[index]["points"])
            table.add_row(*cells)
        return table

    def action_hint(self, game: Game, view: View, seat: int, action: Action) -> str:
        obs = as_observation(view)
        if isinstance(action, Exchange):
            return _("swap these four cards for four new ones; once a game")
        if isinstance(action, Allocate):
            _first, second, third, fourth = action.cards
            parts = [_reach(third), t("bring {n} into play", n=fourth)]
            if obs["round"] > 1:  # nothing is removed in the first round
                parts.insert(0, _removal(second))
            return " · ".join(parts)
        if isinstance(action, Remove | Place):
            temple, square = action.temple - 1, action.square - 1
            try:
                spot = board_of(game).temples[temple][square]
                occupant = obs["temples"][temple][square]
            except IndexError:
                return ""
            where = colour_words(spot)
            if isinstance(action, Remove) and occupant != EMPTY:
                if occupant == seat:
                    return t("your counter on {where}", where=where)
                return t(
                    "{who}'s counter on {where}",
                    who=obs["players"][occupant]["name"],
                    where=where,
                )
            return where
        return ""

    def decision(self, game: Game, view: View) -> str:
        """Who decides what, said for the reader: the view is the seat's own, so a seat's
        prompt never says that it waits for itself."""
        return as_observation(view)["decision"]

    def help_lines(self) -> list[str]:
        return [
            _("Moves are: exchange | allocate C1 C2 C3 C4 | remove T.S | place T.S."),
            _(
                "allocate C1 C2 C3 C4 lays your four cards on cartouches 1 to 4 in that "
                "order, e.g. allocate 3 1 4 2."
            ),
            *(
                t("Cartouche {n}: {meaning}.", n=i + 1, meaning=_(meaning))
                for i, meaning in enumerate(CARTOUCHES)
            ),
            _("exchange (once a game, before laying out) swaps the four cards for four new ones."),
            _(
                "Squares are written TEMPLE.SQUARE: temples 1-4 and squares 1-12, as numbered "
                "in the Temples table (e.g. place 2.5)."
            ),
            _("Squares: yel yellow, grn green, blk black, blu blue, +1/+2 bonus squares."),
        ]

    # ------------------------------------------------------------------ the end
    def final(self, game: Game, view: View) -> list[RenderableType]:
        board = board_of(game)
        obs = as_observation(view)
        names = _names(obs)
        table = Table(title=_("Final result"), title_justify="left")
        table.add_column(_("Priest"))
        table.add_column(_("Score"), justify="right")
        table.add_column(_("Rank"), justify="right")
        table.add_column(_("Counters in the temples"), justify="right")
        ranks = obs["ranks"]
        for seat in range(len(names)):
            placed = sum(1 for temple in obs["temples"] for o in temple if o == seat)
            table.add_row(
                seat_text(names, seat),
                str(obs["players"][seat]["score"]),
                str(ranks[seat]) if ranks else "·",
                str(placed),
            )
        line = Text()
        winners = obs["winners"]
        if obs["winner"] is not None:
            line.append(_("Winner: "), style="bold")
            line.append_text(seat_text(names, obs["winner"]))
            line.append(" " + t("(at once: {reason})", reason=obs["win_reason"]))
        elif len(winners) == 1:
            line.append(_("Winner: "), style="bold")
            line.append_text(seat_text(names, winners[0]))
            line.append(" " + _("(most points after the last scoring)"))
        else:
            line.append(_("A draw: "), style="bold")
            line.append(_("equal points"))
        parts: list[RenderableType] = [
            self.temples(obs, board, names),
            self._kingdom(obs, names),
        ]
        revealed = self._revealed(obs, names)
        if revealed is not None:
            parts.append(revealed)
        parts.append(self.scoring(board, obs, names))
        return [*parts, table, line]

    # ------------------------------------------------------------------ the board
    def figures(self, game: Game) -> list[RenderableType]:
        board = board_of(game)
        return [
            self._figures_table(board),
            self._colour_totals(board),
            self._legend(),
            self._constants(board),
            self._scoring_rules(),
        ]

    def _source(self, board: Board) -> str:
        return _("built-in") if board.source == str(DEFAULT_BOARD) else board.source

    def _figures_table(self, board: Board) -> Table:
        title = Text(t("Aton temples ({source})", source=self._source(board)), style="italic")
        table = _squares_table(title, _("Temple"), board)
        size = _size(board)
        table.add_column(_("Confidence"), no_wrap=True)
        for index, squares in enumerate(board.temples):
            level = board.confidence.get(f"temple.{index + 1}", "printed")
            colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
            cells: list[RenderableType] = [Text(t("Temple {n}", n=index + 1), style="bold")]
            cells.extend(colour_label(square) for square in squares)
            cells.extend("" for _blank in range(size - len(squares)))
            cells.append(Text(f"{level}{marker}", style=colour))
            table.add_row(*cells)
        return table

    def _colour_totals(self, board: Board) -> Table:
        table = Table(title=_("Squares per temple"), title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column(_("Colour"))
        for index in range(len(board.temples)):
            table.add_column(t("Temple {n}", n=index + 1), justify="right")
        table.add_column(_("All"), justify="right")
        table.add_column(_("Why it matters"))
        why = {
            "yellow": _("holding all of them wins at once"),
            "green": _("holding all of them wins at once"),
            "black": _("the majority on them scores 8"),
            "blue": _("temple 4's majority scores 3 for each one it holds"),
            "bonus": _("each scores its points to the counter on it"),
        }
        for colour, (label, style) in COLOUR_LOOK.items():
            counts = [sum(1 for sq in temple if sq.colour == colour) for temple in board.temples]
            word = _(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else _("bonus")
            name = Text(f"{word} ({label.format(bonus='N')})", style=style)
            table.add_row(name, *map(str, counts), str(sum(counts)), Text(why[colour], "dim"))
        return table

    def _legend(self) -> Text:
        return confidence_legend(
            "aton",
            _(
                "printed: stated by the rule book (or shown by its examples); one source: a "
                "single rule book or review; reconstructed: our best reading, not printed "
                "anywhere we could read."
            ),
        )

    def _constants(self, board: Board) -> Table:
        table = Table(title=_("Constants"), title_justify="left")
        table.add_column(_("Name"))
        table.add_column(_("Value"), justify="right")
        table.add_column(_("Confidence"))
        for name in CONSTANTS:
            level = board.confidence.get(f"constants.{name}", "printed")
            colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
            value = _size(board) if name == "squares_per_temple" else getattr(board, name)
            label = _(CONSTANT_NAMES[name]) if name in CONSTANT_NAMES else name
            table.add_row(label, str(value), Text(f"{level}{marker}", style=colour))
        return table

    def _scoring_rules(self) -> Group:
        lines = [Text(_("Scoring when the Kingdom of the Dead is full (rule book):"), "bold")]
        lines.extend(Text(f"  {_(RULE_NAMES[rule])}: {_(what)}") for rule, what in SCORING_RULES)
        lines.append(Text("  " + _("No majority (a tie) scores nothing."), style="dim"))
        return Group(*lines)


def _names(obs: AtonObservation) -> tuple[str, ...]:
    return tuple(player["name"] for player in obs["players"])


def _size(board: Board) -> int:
    return max(len(t) for t in board.temples)


def _squares_table(title: Text, first: str, board: Board) -> Table:
    """A table with a first column headed ``first`` and one column per temple square."""
    table = Table(
        title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0), pad_edge=False
    )
    table.add_column(first, no_wrap=True)
    for number in range(1, _size(board) + 1):
        table.add_column(str(number), justify="center", min_width=3)
    return table

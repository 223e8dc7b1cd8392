"""Drawing Aton in the terminal: four temples of twelve squares, the Kingdom of the Dead,
the priests' scores and stocks, the cartouches and the scoring.

Everything shown comes from the seat's observation (``state.observation(seat)``, the one
function that decides what a seat may see) and the game's printed board; the state is
never handed in, so the client cannot leak a card by accident: another priest's hand and
sealed cartouches never reach this module before the reveal.
"""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from karnak.core import Game
from karnak.core.actions import Action
from karnak.core.terminal import CONFIDENCE_LOOK, View, confidence_legend, seat_style, seat_text
from karnak.games.aton.rules.actions import USAGE, Allocate, Exchange, Place, Remove
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
    "points: the higher card scores twice the difference",
    "order (lower card begins) and removal (card − 2)",  # noqa: RUF001
    "temples in reach: 1 to the card",
    "counters brought into play",
)

#: The scoring rules, as the rule book states them (the board gives only the colours).
SCORING_RULES = (
    ("temple 1", "the majority scores the difference in counters"),
    ("temple 2", "the majority scores 5"),
    ("temple 3", "the majority scores its counters there"),
    ("temple 4", "the majority scores 3 per blue square it holds in any temple"),
    ("black squares", "the majority on black squares scores 8"),
    ("bonus squares", "each counter on one scores its +1 or +2"),
)

CONSTANT_NAMES = {
    "counters": "counters per priest",
    "cards_per_value": "cards of each value (1-4) per priest",
    "hand_size": "cards drawn per round",
    "kingdom_squares": "squares of the Kingdom of the Dead",
    "win_points": "points that win",
    "squares_per_temple": "squares per temple",
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
    return f"bonus +{square.bonus}" if square.colour == "bonus" else square.colour


def _points(value: int) -> str:
    return str(value) if value else "·"


def _cards(cards: list[int] | None) -> str:
    return " ".join(map(str, cards)) if cards else "·"


def _removal(card: int) -> str:
    if card == 1:
        return "remove 1 of yours"
    if card == 2:
        return "no removal"
    return f"remove {card - 2}"


def _reach(card: int) -> str:
    return "temple 1" if card == 1 else f"temples 1-{card}"


class AtonRenderer:
    """The :class:`~karnak.cli.render.GameRenderer` of Aton."""

    # ------------------------------------------------------------------ during play
    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
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

    def _headline(self, obs: AtonObservation) -> Text:
        text = Text()
        text.append(f"Round {obs['round']}", style="bold")
        text.append(" · ")
        text.append(str(obs["phase_name"]), style="bold cyan")
        if obs["reach"]:
            text.append(f" · {_reach(obs['reach'])} in reach")
        return text

    def temples(
        self, obs: AtonObservation, board: Board, names: tuple[str, ...] | list[str]
    ) -> Table:
        """The four temples: each square's colour over the counter on it (· when empty)."""
        seat_marks = marks(names)
        legend = ", ".join(f"{m} = {n}" for m, n in zip(seat_marks, names, strict=True))
        table = _squares_table(Text(f"Temples ({legend}; · empty)"), "", board)
        size = _size(board)
        for seat, mark in enumerate(seat_marks):  # counters per temple, headed by the marks
            table.add_column(Text(mark, style=seat_style(seat)), justify="right")
        reach = obs["reach"] or 0
        for index, (squares, occupants) in enumerate(
            zip(board.temples, obs["temples"], strict=True)
        ):
            heading = Text(f"Temple {index + 1}", style="bold")
            heading.append("\nin reach" if index < reach else "", style="cyan")
            cells: list[RenderableType] = [heading]
            for square, occupant in zip(squares, occupants, strict=True):
                cell = colour_label(square)
                cell.append("\n")
                if occupant == EMPTY:
                    cell.append("·", style="dim")
                else:
                    cell.append(seat_marks[occupant], style=seat_style(occupant))
                cells.append(cell)
            cells.extend("" for _ in range(size - len(squares)))
            for seat in range(len(names)):
                cells.append(str(sum(1 for o in occupants if o == seat)))
            table.add_row(*cells)
        return table

    def _kingdom(self, obs: AtonObservation, names: tuple[str, ...]) -> Text:
        seat_marks = marks(names)
        kingdom: list[int] = obs["kingdom"]
        total = obs["kingdom_squares"]
        text = Text("Kingdom of the Dead ", style="bold")
        text.append(f"({len(kingdom)} of {total}): ")
        for i in range(total):
            if i:
                text.append(" ")
            if i < len(kingdom):
                text.append(seat_marks[kingdom[i]], style=seat_style(kingdom[i]))
            else:
                text.append("·", style="dim")
        if len(kingdom) >= total:
            text.append("  full: the temples are scored at the end of this round", style="bold")
        return text

    def _players(self, obs: AtonObservation, names: tuple[str, ...], seat: int) -> Table:
        table = Table(title="Priests", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("Priest")
        table.add_column("Score", justify="right")
        table.add_column("Stock", justify="right")
        table.add_column("Pile", justify="right")
        table.add_column("Discards")
        table.add_column("Exchange")
        table.add_column("Cartouches")
        table.add_column("Notes")
        order = obs["order"]
        to_move = obs["to_move"]
        for entry in obs["players"]:
            s = entry["seat"]
            discards = entry["discards"]
            discard_text = (
                " ".join(f"{count}×{value}" for value, count in discards.items()) or "·"  # noqa: RUF001
            )
            if entry["cartouches"] is not None:
                cartouches = _cards(entry["cartouches"])
            elif obs["phase"] == "allocate":
                cartouches = "laid face down" if entry["committed"] else "still deciding"
            else:
                cartouches = "·"
            notes = []
            if s == seat:
                notes.append("you")
            if order is not None:
                notes.append("goes first" if order[0] == s else "goes second")
            if s in to_move and obs["phase"] != "allocate":
                notes.append("to move")
            table.add_row(
                seat_text(names, s),
                str(entry["score"]),
                str(entry["stock"]),
                str(entry["pile"]),
                discard_text,
                "used" if entry["exchange_used"] else "available",
                cartouches,
                ", ".join(notes),
            )
        return table

    def _revealed(self, obs: AtonObservation, names: tuple[str, ...]) -> Table | None:
        """Both priests' cartouches, once they are turned up."""
        shown = [cards for entry in obs["players"] if (cards := entry["cartouches"]) is not None]
        if len(shown) < len(obs["players"]):
            return None
        table = Table(title="Cartouches (revealed)", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("Cartouche")
        for seat, name in enumerate(names):
            table.add_column(Text(name, style=seat_style(seat)), justify="right")
        table.add_column("Decides")
        for index, meaning in enumerate(CARTOUCHES):
            table.add_row(
                str(index + 1), *(str(cards[index]) for cards in shown), Text(meaning, "dim")
            )
        return table

    def _own(self, obs: AtonObservation, names: tuple[str, ...], seat: int) -> Text:
        """The seat's own cards: its hand, and its sealed cartouches until the reveal."""
        you = obs.get("you")
        text = Text(f"Your cards ({names[seat]}): ", style="bold")
        hand = you["hand"] if you is not None else []
        text.append(_cards(hand) if hand else "none in hand")
        own = you["cartouches"] if you is not None else None
        if own is not None and obs["players"][seat]["cartouches"] is None:
            text.append("\nYour cartouches (sealed): ", style="bold")
            text.append(" · ".join(f"{i + 1}: {card}" for i, card in enumerate(own)))
        if hand and obs["phase"] == "allocate":
            text.append(
                "\nallocate C1 C2 C3 C4 lays them on cartouches 1 to 4: "
                + "; ".join(f"{i + 1} {meaning}" for i, meaning in enumerate(CARTOUCHES))
                + ".",
                style="dim",
            )
        return text

    def scoring(self, board: Board, obs: AtonObservation, names: tuple[str, ...]) -> Table:
        """What scoring the temples now would give, beside the last scoring's lines."""
        now = score_temples(board, obs["temples"])  # the temples and the board: all public
        last: list[ScoringLine] = obs["last_scoring"]
        table = Table(title="Temple scoring", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("Rule")
        table.add_column("Counters\nnow", justify="right")
        for seat, name in enumerate(names):
            table.add_column(
                Text(f"{name}\nif scored now", style=seat_style(seat)), justify="right"
            )
        if last:
            for seat, name in enumerate(names):
                table.add_column(
                    Text(f"{name}\nlast scoring", style=seat_style(seat)), justify="right"
                )
        for index, line in enumerate(now):
            counters = line["counters"]
            cells = [
                line["rule"],
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
            return "swap these four cards for four new ones; once a game"
        if isinstance(action, Allocate):
            _, second, third, fourth = action.cards
            parts = [_reach(third), f"bring {fourth} into play"]
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
                owner = "your" if occupant == seat else f"{obs['players'][occupant]['name']}'s"
                return f"{owner} counter on {where}"
            return where
        return ""

    def decision(self, game: Game, view: View) -> str:
        return as_observation(view)["decision"]

    def help_lines(self) -> list[str]:
        return [
            USAGE[0].upper() + USAGE[1:] + ".",
            "allocate C1 C2 C3 C4 lays your four cards on cartouches 1 to 4 in that order, "
            "e.g. allocate 3 1 4 2.",
            *(f"Cartouche {i + 1}: {meaning}." for i, meaning in enumerate(CARTOUCHES)),
            "exchange (once a game, before laying out) swaps the four cards for four new ones.",
            "Squares are written TEMPLE.SQUARE: temples 1-4 and squares 1-12, as numbered in "
            "the Temples table (e.g. place 2.5).",
            "Squares: yel yellow, grn green, blk black, blu blue, +1/+2 bonus squares.",
        ]

    # ------------------------------------------------------------------ the end
    def final(self, game: Game, view: View) -> list[RenderableType]:
        board = board_of(game)
        obs = as_observation(view)
        names = _names(obs)
        table = Table(title="Final result", title_justify="left")
        table.add_column("Priest")
        table.add_column("Score", justify="right")
        table.add_column("Rank", justify="right")
        table.add_column("Counters in the temples", justify="right")
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
            line.append("Winner: ", style="bold")
            line.append_text(seat_text(names, obs["winner"]))
            line.append(f" (at once: {obs['win_reason']})")
        elif len(winners) == 1:
            line.append("Winner: ", style="bold")
            line.append_text(seat_text(names, winners[0]))
            line.append(" (most points after the last scoring)")
        else:
            line.append("A draw: ", style="bold")
            line.append("equal points")
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
        return "built-in" if board.source == str(DEFAULT_BOARD) else board.source

    def _figures_table(self, board: Board) -> Table:
        title = Text(f"Aton temples ({self._source(board)})", style="italic")
        table = _squares_table(title, "Temple", board)
        size = _size(board)
        table.add_column("Confidence", no_wrap=True)
        for index, squares in enumerate(board.temples):
            level = board.confidence.get(f"temple.{index + 1}", "printed")
            colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
            cells: list[RenderableType] = [Text(f"Temple {index + 1}", style="bold")]
            cells.extend(colour_label(square) for square in squares)
            cells.extend("" for _ in range(size - len(squares)))
            cells.append(Text(f"{level}{marker}", style=colour))
            table.add_row(*cells)
        return table

    def _colour_totals(self, board: Board) -> Table:
        table = Table(title="Squares per temple", title_justify="left", box=box.SIMPLE_HEAD)
        table.add_column("Colour")
        for index in range(len(board.temples)):
            table.add_column(f"Temple {index + 1}", justify="right")
        table.add_column("All", justify="right")
        table.add_column("Why it matters")
        why = {
            "yellow": "holding all of them wins at once",
            "green": "holding all of them wins at once",
            "black": "the majority on them scores 8",
            "blue": "temple 4's majority scores 3 for each one it holds",
            "bonus": "each scores its points to the counter on it",
        }
        for colour, (label, style) in COLOUR_LOOK.items():
            counts = [sum(1 for sq in temple if sq.colour == colour) for temple in board.temples]
            name = Text(f"{colour} ({label.format(bonus='N')})", style=style)
            table.add_row(name, *map(str, counts), str(sum(counts)), Text(why[colour], "dim"))
        return table

    def _legend(self) -> Text:
        return confidence_legend(
            "aton",
            "printed: stated by the rule book (or shown by its examples); one source: a "
            "single rule book or review; reconstructed: our best reading, not printed "
            "anywhere we could read.",
        )

    def _constants(self, board: Board) -> Table:
        table = Table(title="Constants", title_justify="left")
        table.add_column("Name")
        table.add_column("Value", justify="right")
        table.add_column("Confidence")
        for name in CONSTANTS:
            level = board.confidence.get(f"constants.{name}", "printed")
            colour, marker = CONFIDENCE_LOOK.get(level, ("", ""))
            value = _size(board) if name == "squares_per_temple" else getattr(board, name)
            table.add_row(
                CONSTANT_NAMES.get(name, name), str(value), Text(f"{level}{marker}", style=colour)
            )
        return table

    def _scoring_rules(self) -> Group:
        lines = [Text("Scoring when the Kingdom of the Dead is full (rule book):", "bold")]
        lines.extend(Text(f"  {rule}: {what}") for rule, what in SCORING_RULES)
        lines.append(Text("  No majority (a tie) scores nothing.", style="dim"))
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

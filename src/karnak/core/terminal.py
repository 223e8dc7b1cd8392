"""The drawing kit every game's terminal module shares: seat colours, the confidence marks of
board figures, and the protocol a game's renderer fulfils.

It needs Rich (the ``cli`` extra); only terminal code imports it, never a game's rules.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from rich.console import RenderableType
from rich.text import Text

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.safe_text import safe_text
from karnak.i18n import N_, _, t

#: Seat styles by seat index. Black and White get a chip background so that they stay
#: readable on both dark and light terminals.
SEAT_STYLES = (
    "bold red",
    "bold bright_blue",
    "bold black on grey70",
    "bold grey93 on grey35",
    "bold yellow",
)

#: How each confidence level of a board figure looks: a colour and a marker, so it stays
#: readable without colour (pipes, screen readers, NO_COLOR).
CONFIDENCE_LOOK = {
    "printed": ("green", ""),
    "one source": ("yellow", "*"),
    "reconstructed": ("magenta", "?"),
}
#: The confidence levels as a reader sees them (the keys above stay the data's words).
CONFIDENCE_NAMES = {
    "printed": N_("printed"),
    "one source": N_("one source"),
    "reconstructed": N_("reconstructed"),
}


def confidence_legend(game: str, meanings: str) -> Text:
    """The key to a figures table's confidence marks, what each level means for this game
    (``meanings``: the game's own words, already translated), and how to load a corrected
    data file, in the current language."""
    text = Text(_("Confidence:") + " ")
    for i, (level, (colour, marker)) in enumerate(CONFIDENCE_LOOK.items()):
        if i:
            text.append(" · ")
        key = _(CONFIDENCE_NAMES[level]) + " " + (marker or _("(no mark)"))
        text.append(key, style=colour)
    text.append(
        "\n"
        + meanings
        + "\n"
        + t(
            "Correct a copy of `karnak board {game} --dump` and load it with --board FILE.",
            game=game,
        ),
        style="dim",
    )
    return text


def seat_style(seat: int) -> str:
    return SEAT_STYLES[seat % len(SEAT_STYLES)]


def seat_text(names: tuple[str, ...] | list[str], seat: int) -> Text:
    """A seat's name in its colour (colours follow the seat, so renamed seats keep theirs)."""
    if not 0 <= seat < len(names):
        return Text("-", style="dim")
    return Text(safe_text(names[seat]), style=seat_style(seat))


#: What a renderer reads of a position: the seat's observation (a spectator's, ``seat`` None),
#: never the state. Each game declares its shape (``karnak.games.<game>.view``).
View = Mapping[str, Any]


class GameRenderer(Protocol):
    """The game-specific part of the terminal client.

    It draws from what one seat may see (``view``, that seat's observation) and the game
    itself (its rules and printed board, public to everyone), never from the state, so a
    terminal cannot show what the seat does not know. ``final`` gets the observation at the
    end, which shows what the game reveals then.
    """

    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """Everything ``seat`` may see now, including its own hidden holdings."""
        ...

    def final(self, game: Game, view: View) -> list[RenderableType]:
        """The final scoring and the winners of a finished game."""
        ...

    def figures(self, game: Game) -> list[RenderableType]:
        """The printed figures of the game's board and cards."""
        ...

    def action_hint(self, game: Game, view: View, seat: int, action: Action) -> str:
        """A few words after a legal move in the numbered list (cost, card name...)."""
        ...

    def decision(self, game: Game, view: View) -> str:
        """One line saying who must decide what now."""
        ...

    def help_lines(self) -> list[str]:
        """How moves are written, for the ``help`` command."""
        ...


class CompactRenderer(GameRenderer, Protocol):
    """Optional extras of a renderer (the terminal uses each where a renderer has it, and
    falls back to :meth:`GameRenderer.status` and a plain numbered list without them).

    Width: everything is rendered at the console's width (Rich wraps words there); never
    hard-wrap prose at a fixed column.
    """

    def compact(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """What ``seat``'s decision needs and nothing more, so that it fits an 80x24 terminal
        together with the decision line, the numbered moves and the prompt (``karnak play``
        shows it by default; the ``board`` command shows :meth:`GameRenderer.status`)."""
        ...

    def move_groups(
        self, game: Game, view: View, seat: int, legal: Sequence[Action]
    ) -> list[tuple[str, list[int]]]:
        """Headings for a long list of moves, each with indices into ``legal`` (every index
        exactly once; the moves keep their numbers, their place in ``legal``)."""
        ...

"""How a game is drawn in the terminal, and the registry that finds a game's drawing code.

The play loop, ``replay`` and ``board`` are generic; everything they show that depends on a
game's pieces goes through a :class:`GameRenderer`. A game without its own renderer still
plays, shown through :class:`PlainRenderer` (its observation as data), so a newly
registered game is usable before anyone draws it nicely.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from rich.console import RenderableType
from rich.pretty import Pretty
from rich.table import Table

from karnak.cli.common import seat_text
from karnak.core import Game, State
from karnak.core.actions import Action


class GameRenderer(Protocol):
    """The game-specific part of the terminal client."""

    def status(self, state: State, seat: int) -> list[RenderableType]:
        """Everything ``seat`` may see now, including its own hidden holdings."""
        ...

    def final(self, state: State) -> list[RenderableType]:
        """The final scoring and the winners of a finished game."""
        ...

    def figures(self, game: Game) -> list[RenderableType]:
        """The printed figures of the game's board and cards."""
        ...

    def action_hint(self, state: State, seat: int, action: Action) -> str:
        """A few words after a legal move in the numbered list (cost, card name...)."""
        ...

    def decision(self, state: State) -> str:
        """One line saying who must decide what now."""
        ...

    def help_lines(self) -> list[str]:
        """How moves are written, for the ``help`` command."""
        ...


class PlainRenderer:
    """Fallback for games without a renderer: shows observations as data."""

    def status(self, state: State, seat: int) -> list[RenderableType]:
        return [Pretty(state.observation(seat))]

    def final(self, state: State) -> list[RenderableType]:
        table = Table(title="Final scores")
        table.add_column("Player")
        table.add_column("Score", justify="right")
        table.add_column("Rank", justify="right")
        ranks = state.ranks()
        for seat, score in enumerate(state.scores()):
            table.add_row(seat_text(state.players, seat), str(score), str(ranks[seat]))
        return [table]

    def figures(self, game: Game) -> list[RenderableType]:
        return [f"{game.title} has no board figures to show."]

    def action_hint(self, state: State, seat: int, action: Action) -> str:
        return ""

    def decision(self, state: State) -> str:
        waiting = ", ".join(state.players[s] for s in state.to_move())
        return f"Waiting for {waiting}." if waiting else "The game is over."

    def help_lines(self) -> list[str]:
        return ["Type a move as the numbered list shows it."]


def _amunre() -> GameRenderer:
    from karnak.cli.amunre_render import AmunReRenderer

    return AmunReRenderer()


def _aton() -> GameRenderer:
    from karnak.cli.aton_render import AtonRenderer

    return AtonRenderer()


_RENDERERS: dict[str, Callable[[], GameRenderer]] = {"amunre": _amunre, "aton": _aton}


def renderer_for(game: Game) -> GameRenderer:
    factory = _RENDERERS.get(game.name)
    return factory() if factory is not None else PlainRenderer()

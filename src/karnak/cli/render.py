"""How a game is drawn in the terminal, and the registry that finds a game's drawing code.

The play loop, ``replay`` and ``board`` are generic; everything they show that depends on a
game's pieces goes through a :class:`GameRenderer`. A game without its own renderer still
plays, shown through :class:`PlainRenderer` (its observation as data), so a newly
registered game is usable before anyone draws it nicely.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

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


@runtime_checkable
class SeatRenderer(Protocol):
    """Extras a renderer may offer where every seat decides at once (Egyptia's rounds):
    then "who decides what" and the end depend on whose screen it is. The helpers below
    fall back to the plain :class:`GameRenderer` methods for renderers without them."""

    def decision_for(self, state: State, seat: int) -> str:
        """``seat``'s own decision now, with a word on who learns of it when."""
        ...

    def final_for(self, state: State, seat: int) -> list[RenderableType]:
        """The end as ``seat``'s screen shows it (their own sheet first, say)."""
        ...

    def fold_log(self, state: State, seat: int, lines: list[str]) -> list[str]:
        """Fresh log lines for ``seat``, folded when a big table makes too many."""
        ...


def decision_for(renderer: GameRenderer, state: State, seat: int) -> str | None:
    """``seat``'s own decision if the renderer knows it, else ``None``."""
    if isinstance(renderer, SeatRenderer):
        return renderer.decision_for(state, seat)
    return None


def final_for(renderer: GameRenderer, state: State, seat: int | None) -> list[RenderableType]:
    if seat is not None and isinstance(renderer, SeatRenderer):
        return renderer.final_for(state, seat)
    return renderer.final(state)


def fold_log(renderer: GameRenderer, state: State, seat: int, lines: list[str]) -> list[str]:
    if isinstance(renderer, SeatRenderer):
        return renderer.fold_log(state, seat, lines)
    return lines


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


def _egyptia() -> GameRenderer:
    from karnak.cli.egyptia_render import EgyptiaRenderer

    return EgyptiaRenderer()


_RENDERERS: dict[str, Callable[[], GameRenderer]] = {
    "amunre": _amunre,
    "aton": _aton,
    "egyptia": _egyptia,
}


def renderer_for(game: Game) -> GameRenderer:
    factory = _RENDERERS.get(game.name)
    return factory() if factory is not None else PlainRenderer()

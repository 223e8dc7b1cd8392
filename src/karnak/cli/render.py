"""How a game is drawn in the terminal: each game's renderer, found through its plugin.

The play loop, ``replay`` and ``board`` are generic; everything they show that depends on a
game's pieces goes through a :class:`GameRenderer`. A game without its own renderer still
plays, shown through :class:`PlainRenderer` (its observation as data), so a newly
registered game is usable before anyone draws it nicely.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from rich.console import RenderableType
from rich.pretty import Pretty
from rich.text import Text

from karnak.core import Game, State
from karnak.core.actions import Action
from karnak.core.registry import plugin_for
from karnak.core.terminal import GameRenderer, View


@runtime_checkable
class SeatRenderer(Protocol):
    """Extras a renderer may offer where every seat decides at once (Egyptia's rounds):
    then "who decides what" and the end depend on whose screen it is. The helpers below
    fall back to the plain :class:`GameRenderer` methods for renderers without them."""

    def decision_for(self, game: Game, view: View, seat: int) -> str:
        """``seat``'s own decision now, with a word on who learns of it when."""
        ...

    def final_for(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        """The end as ``seat``'s screen shows it (their own sheet first, say)."""
        ...

    def fold_log(self, game: Game, view: View, seat: int, lines: list[str]) -> list[str]:
        """Fresh log lines for ``seat``, folded when a big table makes too many."""
        ...


def decision_for(renderer: GameRenderer, state: State, seat: int) -> str | None:
    """``seat``'s own decision if the renderer knows it, else ``None``."""
    if isinstance(renderer, SeatRenderer):
        return renderer.decision_for(state.game, state.observation(seat), seat)
    return None


def final_for(renderer: GameRenderer, state: State, seat: int | None) -> list[RenderableType]:
    """The end as ``seat``'s screen shows it (None: everybody's, a spectator's view)."""
    if seat is not None and isinstance(renderer, SeatRenderer):
        return renderer.final_for(state.game, state.observation(seat), seat)
    return renderer.final(state.game, state.observation(None))


def move_groups(
    renderer: GameRenderer, game: Game, view: View, seat: int, legal: Sequence[Action]
) -> list[tuple[str, list[int]]] | None:
    """The renderer's headings for ``legal`` (:meth:`karnak.core.terminal.CompactRenderer.
    move_groups`), checked: every index once, in range; None without them (or if they are
    not a partition of the list, which would hide or repeat a move)."""
    method = getattr(renderer, "move_groups", None)
    if method is None:
        return None
    groups: list[tuple[str, list[int]]] = method(game, view, seat, legal)
    seen = [index for _heading, indices in groups for index in indices]
    if sorted(seen) != list(range(len(legal))):
        return None
    return groups


def fold_log(renderer: GameRenderer, state: State, seat: int, lines: list[str]) -> list[str]:
    if isinstance(renderer, SeatRenderer):
        return renderer.fold_log(state.game, state.observation(seat), seat, lines)
    return lines


class PlainRenderer:
    """Fallback for games without a renderer: shows the seat's observation as data."""

    def status(self, game: Game, view: View, seat: int) -> list[RenderableType]:
        return [Pretty(dict(view))]

    def final(self, game: Game, view: View) -> list[RenderableType]:
        return [Text("The final position:", style="bold"), Pretty(dict(view))]

    def figures(self, game: Game) -> list[RenderableType]:
        return [f"{game.title} has no board figures to show."]

    def action_hint(self, game: Game, view: View, seat: int, action: Action) -> str:
        return ""

    def decision(self, game: Game, view: View) -> str:
        said = view.get("decision")
        return said if isinstance(said, str) else "Waiting for the players to move."

    def help_lines(self) -> list[str]:
        return ["Type a move as the numbered list shows it."]


def renderer_for(game: Game) -> GameRenderer:
    """The game's own renderer (named by its plugin), else :class:`PlainRenderer`."""
    renderer = plugin_for(game).terminal_renderer()
    return renderer if renderer is not None else PlainRenderer()

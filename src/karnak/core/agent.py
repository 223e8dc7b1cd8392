"""What a bot is and what it may see, for every layer that plays: the generic bots and each
game's own heuristic (``karnak.games.<game>.bot``) both build on these two types.

A bot sees exactly what a person in its seat sees: a :class:`SeatView` (the seat, its
observation, its legal actions and an :class:`~karnak.core.state.InfoSet` from which a
search bot samples worlds) and its own seeded generator. It never touches the true state.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from karnak.core.knowledge import NO_STYLE, Style, playing
from karnak.core.rng import Rng
from karnak.core.state import InfoSet

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.game import Game
    from karnak.core.state import State


@dataclass(frozen=True)
class SeatView:
    """All a bot may use: whose seat, what the seat sees, what it may do, what it knows."""

    seat: int
    legal_actions: Sequence[Action]
    infoset: InfoSet

    @cached_property
    def observation(self) -> dict[str, Any]:
        """What the seat sees, built at the first read: most bots never read it (the random
        bot, the search), and in Amun-Re building it costs more than a random move."""
        return self.infoset.observation()

    @property
    def game(self) -> Game:
        return self.infoset.game

    @staticmethod
    def of(state: State, seat: int) -> SeatView:
        return SeatView(seat, state.legal_actions(seat), state.infoset(seat))


class Bot(ABC):
    name: str = "bot"

    @abstractmethod
    def choose(self, view: SeatView, rng: Rng) -> Action:
        """One of ``view.legal_actions``."""

    def label(self) -> str:
        """How the bot is named in tables (its spec, without a style)."""
        return self.name

    #: The bot's character (:class:`~karnak.core.knowledge.Style`); none unless given.
    style: Style = NO_STYLE

    def with_style(self, style: Style) -> Bot:
        """This bot playing ``style``: by default every decision is computed with the
        style's weights and tie-breaks (a search bot overrides this to style its own
        moves only, not its model of the others)."""
        return StyledBot(self, style) if style else self


class StyledBot(Bot):
    """A bot whose every decision is computed under a style (see :meth:`Bot.with_style`)."""

    def __init__(self, inner: Bot, style: Style):
        self.inner = inner
        self.style = style
        self.name = inner.name

    def choose(self, view: SeatView, rng: Rng) -> Action:
        with playing(self.style):
            return self.inner.choose(view, rng)

    def label(self) -> str:
        return self.inner.label()

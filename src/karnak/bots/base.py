"""The bot contract and the registry that builds bots from names like ``random``."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from karnak.core.errors import KarnakError
from karnak.core.rng import Rng

if TYPE_CHECKING:
    from karnak.core.actions import Action
    from karnak.core.state import State


@dataclass(frozen=True)
class SeatView:
    """All a bot may use: whose seat, what the seat sees, and what it may do."""

    seat: int
    observation: dict[str, Any]
    legal_actions: Sequence[Action]

    @staticmethod
    def of(state: State, seat: int) -> SeatView:
        return SeatView(seat, state.observation(seat), state.legal_actions(seat))


class Bot(ABC):
    name: str = "bot"

    @abstractmethod
    def choose(self, view: SeatView, rng: Rng) -> Action:
        """One of ``view.legal_actions``."""


class UnknownBotError(KarnakError, LookupError):
    pass


_FACTORIES: dict[str, Callable[[], Bot]] = {}


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def available_bots() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(name: str) -> Bot:
    key = name.strip().lower()
    if key not in _FACTORIES:
        raise UnknownBotError(f"unknown bot {name!r}; bots: {', '.join(available_bots())}")
    return _FACTORIES[key]()


def play_out(state: State, bots: Sequence[Bot], rngs: Sequence[Rng]) -> None:
    """Let ``bots`` (one per seat) play ``state`` to the end through their seats' views."""
    while not state.is_over():
        seat = state.to_move()[0]
        action = bots[seat].choose(SeatView.of(state, seat), rngs[seat])
        state.apply(seat, action)

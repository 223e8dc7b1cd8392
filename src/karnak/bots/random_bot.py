"""The uniform random bot: a baseline and the engine's conformance driver."""

from __future__ import annotations

from typing import TYPE_CHECKING

from karnak.bots.base import Bot, Budget, SeatView, register_bot
from karnak.core.actions import Action
from karnak.core.rng import Rng

if TYPE_CHECKING:
    from karnak.core.game import Game


class RandomBot(Bot):
    name = "random"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        return rng.choice(view.legal_actions)


def _make(game: Game, budget: Budget | None) -> Bot:
    return RandomBot()


register_bot("random", _make, help="uniform over the legal actions (a baseline)")

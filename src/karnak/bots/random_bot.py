"""The uniform random bot: a baseline and the engine's conformance driver."""

from __future__ import annotations

from karnak.bots.base import Bot, SeatView, register_bot
from karnak.core.actions import Action
from karnak.core.rng import Rng


class RandomBot(Bot):
    name = "random"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        return rng.choice(view.legal_actions)


register_bot("random", RandomBot)

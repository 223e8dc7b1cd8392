"""Goofspiel as a Karnak :class:`~karnak.core.game.Game`: metadata, the option, and the ways
to start, parse and restore.

>>> from karnak_goofspiel.rules import GAME
>>> state = GAME.new_state(2, seed=3)
>>> state.to_move(), state.is_simultaneous()
((0, 1), True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from karnak.core.game import Game, OptionSpec
from karnak.core.tensors import TensorLayout
from karnak_goofspiel.research import tensors
from karnak_goofspiel.research.action_ids import GoofspielActionSpace
from karnak_goofspiel.rules.actions import Bid, action_from_json, parse_action
from karnak_goofspiel.rules.state import GoofspielState

PRIZES = OptionSpec(
    "prizes", 5, "How many prize cards (each hand holds the cards 1 to that)", (3, 4, 5, 6, 7, 8)
)


class Goofspiel(Game):
    name = "goofspiel"
    title = "Goofspiel"
    version = "1.0"
    min_players = 2
    max_players = 4
    description = (
        "A prize is turned each round and every player bids a card of their hand, sealed: "
        "the highest bid takes the prize."
    )
    playing_time = "5 minutes"
    options = (PRIZES,)
    default_seat_names = ("Red", "Blue", "Black", "White")

    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> GoofspielState:
        names = self.checked_seats(players, seed)
        return GoofspielState(self, names, seed, self.resolve_options(options), log=log)

    def parse_action(self, text: str) -> Bid:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> Bid:
        return action_from_json(data)

    def state_from_json(self, data: Mapping[str, Any]) -> GoofspielState:
        return GoofspielState.from_json(self.at_version(str(data["version"])), data)

    def action_space(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> GoofspielActionSpace:
        self.check_player_count(players)
        return GoofspielActionSpace(players, self.resolve_options(options)["prizes"])

    def score_bounds(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int]:
        prizes = int(self.resolve_options(options)["prizes"])
        return 0, prizes * (prizes + 1) // 2

    def observation_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        self.check_player_count(players)
        return tensors.observation_layout(players, self.resolve_options(options)["prizes"])

    def information_state_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        self.check_player_count(players)
        return tensors.information_state_layout(players, self.resolve_options(options)["prizes"])


GAME = Goofspiel()

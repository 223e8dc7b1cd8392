"""Thorsten Gimmler's Aton (2 players): sealed card allocation, temple majorities.

>>> from karnak.games.aton import GAME
>>> state = GAME.new_state(["Red", "Blue"], seed=1)
>>> state.phase, state.to_move()
('allocate', (0, 1))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game
from karnak.core.tensors import TensorLayout
from karnak.games.aton.research import tensors
from karnak.games.aton.research.action_ids import AtonActionSpace
from karnak.games.aton.rules.actions import AtonAction, action_from_json, parse_action
from karnak.games.aton.rules.board import CARD_VALUES, Board, default_board, load_board, parse_board
from karnak.games.aton.rules.state import AtonState


class Aton(Game):
    name = "aton"
    title = "Aton"
    #: Bumped whenever a behaviour change would make old records replay differently.
    version = "1.0"
    min_players = 2
    max_players = 2
    description = (
        "Two priests lay out four cards a round on their cartouches: to score, to go "
        "first, to remove the other's counters and to place their own in four temples."
    )
    playing_time = "about 30 minutes"
    default_seat_names = ("Red", "Blue")

    def __init__(self, board: Board | None = None):
        self.board = board or default_board()

    def with_board(self, board: Board) -> Aton:
        """The same game on a corrected board file."""
        return Aton(board).at_version(self.version)

    def variant_data(self) -> dict[str, Any] | None:
        if self.board == default_board():
            return None
        return {"board": dict(self.board.raw), "board_source": self.board.source}

    def with_variant_data(self, data: Mapping[str, Any]) -> Aton:
        board = data.get("board")
        if not isinstance(board, Mapping):
            raise InvalidOptionError("an Aton variant must carry a 'board' object")
        fresh = Aton(parse_board(board, source=str(data.get("board_source", "record"))))
        return fresh.at_version(self.version)

    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> AtonState:
        names = self.checked_seats(players, seed)
        return AtonState(self, self.board, names, seed, self.resolve_options(options), log=log)

    def parse_action(self, text: str) -> AtonAction:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> AtonAction:
        return action_from_json(data)

    def state_from_json(self, data: Mapping[str, Any]) -> AtonState:
        game = self.at_version(str(data.get("version", self.version)))
        return AtonState.from_json(game, game.board, data)

    def action_space(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> AtonActionSpace:
        """One id a move: see :mod:`karnak.games.aton.research.action_ids`."""
        self.check_player_count(players)
        return AtonActionSpace(self.board)

    def score_bounds(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int]:
        """Points only grow, and the game ends the moment a priest reaches the target after
        cartouche 1 or a scoring: so at most the target less one, plus the larger of the most
        cartouche 1 gives (2 x 3) and the most one scoring can give (every rule to one priest,
        every bonus square held)."""
        self.check_player_count(players)
        board = self.board
        squares = len(board.temples[0])
        bonus = sum(spot.bonus for temple in board.temples for spot in temple)
        scoring = squares + 5 + squares + 3 * len(board.squares_of("blue")) + 8 + bonus
        cartouche_one = 2 * (max(CARD_VALUES) - min(CARD_VALUES))
        return 0, board.win_points - 1 + max(cartouche_one, scoring)

    def observation_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        """Named slices of the observation tensor: see :mod:`karnak.games.aton.research.tensors`."""
        self.check_player_count(players)
        return tensors.observation_layout(players, self.resolve_options(options), self.board)

    def information_state_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        """The observation's slices and a summary of what the seat witnessed."""
        self.check_player_count(players)
        return tensors.information_state_layout(players, self.resolve_options(options), self.board)


GAME = Aton()

__all__ = ["GAME", "Aton", "AtonState", "Board", "load_board"]

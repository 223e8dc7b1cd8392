"""Reiner Knizia's Amun-Re (3-5 players): auctions, a sealed joint offering, farms and pyramids.

>>> from karnak.games.amunre import GAME
>>> state = GAME.new_state(["Red", "Blue", "Black", "White"], seed=1)
>>> state.phase
'auction'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game, OptionSpec, RulesChange
from karnak.core.tensors import TensorLayout
from karnak.games.amunre.research.action_ids import AmunReActionSpace
from karnak.games.amunre.rules.actions import AmunReAction, action_from_json, parse_action
from karnak.games.amunre.rules.board import Board, default_board, load_board, parse_board
from karnak.games.amunre.rules.state import AmunReState, Catalogue


class AmunRe(Game):
    name = "amunre"
    title = "Amun-Re"
    #: Bumped whenever a behaviour change would make old records replay differently.
    version = "1.1"
    rules_history = (
        RulesChange(
            "1.0",
            "the first release",
        ),
        RulesChange(
            "1.1",
            "rewards past the second go in turn order from the start player, not by offer "
            "size; the harvest increase may go on any own province, also one without farmers",
        ),
    )
    min_players = 3
    max_players = 5
    description = (
        "Bid for provinces along the Nile, make sealed offerings to Amun-Re, farm and build "
        "pyramids through two kingdoms."
    )
    playing_time = "about 90 minutes"
    default_seat_names = ("Red", "Blue", "Black", "White", "Yellow")
    options = (
        OptionSpec(
            "edition",
            "2003",
            "names and texts: 2003 (Rio Grande) or 2016 (Supermeeple)",
            ("2003", "2016"),
        ),
        OptionSpec(
            "expert_provinces",
            False,
            "2016 expert rules: each player holds 3 province cards and picks one per round",
        ),
        OptionSpec("offer_cards", False, "power cards may be offered at 1 gold each"),
    )

    def __init__(self, board: Board | None = None):
        self.board = board or default_board()
        self.catalogue = Catalogue(self.board)

    def with_board(self, board: Board) -> AmunRe:
        """The same game played on a corrected board."""
        return AmunRe(board).at_version(self.version)

    def variant_data(self) -> dict[str, Any] | None:
        """A corrected board travels inside the record, so the game replays anywhere."""
        if self.board == default_board():
            return None
        return {"board": dict(self.board.raw), "board_source": self.board.source}

    def with_variant_data(self, data: Mapping[str, Any]) -> AmunRe:
        board = data.get("board")
        if not isinstance(board, Mapping):
            raise InvalidOptionError("an Amun-Re variant must carry a 'board' object")
        fresh = AmunRe(parse_board(board, source=str(data.get("board_source", "record"))))
        return fresh.at_version(self.version)

    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> AmunReState:
        names = self.checked_seats(players, seed)
        return AmunReState(self, self.board, names, seed, self.resolve_options(options), log=log)

    def parse_action(self, text: str) -> AmunReAction:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> AmunReAction:
        return action_from_json(data)

    def state_from_json(self, data: Mapping[str, Any]) -> AmunReState:
        game = self.at_version(str(data.get("version", self.version)))
        return AmunReState.from_json(game, game.board, data)

    def action_space(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> AmunReActionSpace:
        """One id for most moves, offerings spelled in parts: see
        :mod:`karnak.games.amunre.research.action_ids`."""
        self.check_player_count(players)
        return AmunReActionSpace(self.board, players, self.resolve_options(options))

    def score_bounds(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int]:
        """Points never fall; the most is argued in
        :meth:`~karnak.games.amunre.research.action_ids.AmunReActionSpace.score_bounds`."""
        return self.action_space(players, options).score_bounds()

    def observation_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        from karnak.games.amunre.research.tensors import observation_layout

        return observation_layout(players, options, self.board)

    def information_state_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        from karnak.games.amunre.research.tensors import information_state_layout

        return information_state_layout(players, options, self.board)


GAME = AmunRe()

__all__ = ["GAME", "AmunRe", "AmunReState", "Board", "load_board"]

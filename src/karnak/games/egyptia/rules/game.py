"""Steven Aramini's Egyptia (1 to 99 players): a roll-and-write on a hex sheet.

>>> from karnak.games.egyptia import GAME
>>> state = GAME.new_state(1, seed=1, options={"cards": "A2,B2,C3,D2,E3"})
>>> state.cards, state.to_move()
(['A2', 'B2', 'C3', 'D2', 'E3'], (0,))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from karnak.core.errors import InvalidOptionError
from karnak.core.game import Game, OptionSpec, RulesChange
from karnak.core.tensors import TensorLayout
from karnak.games.egyptia.research import action_ids, tensors
from karnak.games.egyptia.research.action_ids import EgyptiaActionSpace
from karnak.games.egyptia.rules.actions import EgyptiaAction, action_from_json, parse_action
from karnak.games.egyptia.rules.sheet import Sheet, default_sheet, load_sheet, parse_sheet
from karnak.games.egyptia.rules.state import EgyptiaState


class Egyptia(Game):
    name = "egyptia"
    title = "Egyptia"
    #: Bumped whenever a behaviour change would make old records replay differently.
    version = "1.1"
    rules_history = (
        RulesChange(
            "1.0",
            "the first release",
        ),
        RulesChange(
            "1.1",
            "a builder waiting for the others may use a ship; the end-of-game trade cannot "
            "take favor past the end of its track",
        ),
    )
    min_players = 1
    max_players = 99
    description = (
        "Every builder picks a column of the shared dice for resources and builds a city on "
        "their own sheet to meet the Pharaoh's five demands, at the risk of plagues."
    )
    playing_time = "30-45 minutes"
    default_seat_names = ()
    private_steps = True
    options = (
        OptionSpec(
            "cards",
            "",
            "the Pharaoh cards to play with, e.g. A2,B2,C3,D2,E3 (letters left out are drawn)",
        ),
    )

    def __init__(self, sheet: Sheet | None = None):
        self.sheet = sheet or default_sheet()

    def with_sheet(self, sheet: Sheet) -> Egyptia:
        """The same game on a corrected sheet file."""
        return Egyptia(sheet).at_version(self.version)

    #: The command line's ``--board FILE`` loads a corrected sheet.
    with_board = with_sheet

    def variant_data(self) -> dict[str, Any] | None:
        if self.sheet == default_sheet():
            return None
        return {"sheet": dict(self.sheet.raw), "sheet_source": self.sheet.source}

    def with_variant_data(self, data: Mapping[str, Any]) -> Egyptia:
        sheet = data.get("sheet")
        if not isinstance(sheet, Mapping):
            raise InvalidOptionError("an Egyptia variant must carry a 'sheet' object")
        fresh = Egyptia(parse_sheet(sheet, source=str(data.get("sheet_source", "record"))))
        return fresh.at_version(self.version)

    def seat_names(self, count: int) -> list[str]:
        return [f"Builder {i + 1}" for i in range(count)]

    def resolve_options(self, options: Mapping[str, Any] | None = None) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        resolved["cards"] = self._check_cards(resolved["cards"])
        return resolved

    def _check_cards(self, value: Any) -> str:
        if value is None:
            return ""
        if not isinstance(value, str):
            raise InvalidOptionError(f"option 'cards' must be text such as A2,B2, not {value!r}")
        wanted = [c.strip().upper() for c in value.split(",") if c.strip()]
        known = {c.id for c in self.sheet.cards}
        letters = set()
        for card in wanted:
            if card not in known:
                raise InvalidOptionError(
                    f"there is no Pharaoh card {card!r}; cards are {', '.join(sorted(known))}"
                )
            if card[0] in letters:
                raise InvalidOptionError(f"option 'cards' names two cards of letter {card[0]}")
            letters.add(card[0])
        return ",".join(sorted(wanted))

    def new_state(
        self,
        players: Sequence[str] | int,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
        *,
        log: bool = True,
    ) -> EgyptiaState:
        names = self.checked_seats(players, seed)
        return EgyptiaState(self, self.sheet, names, seed, self.resolve_options(options), log=log)

    def action_space(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> EgyptiaActionSpace:
        """One id a move, a payment spelled in parts: see
        :mod:`karnak.games.egyptia.research.action_ids` (the same ids at every table size)."""
        self.check_player_count(players)
        self.resolve_options(options)
        return EgyptiaActionSpace(self.sheet, players)

    def score_bounds(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[int, int]:
        """From the sheet, the cards that may be drawn and the rules version: see
        :func:`karnak.games.egyptia.research.action_ids.score_bounds`."""
        self.check_player_count(players)
        resolved = self.resolve_options(options)
        return action_ids.score_bounds(self.sheet, resolved, self.rules_at_least("1.1"))

    def score_targets(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> tuple[tuple[str, int], ...]:
        """Alone, the sheet's builder statuses with the least score of each (the shipped
        sheet: Apprentice 0, Standard 50, Skilled 60, Master 65, Legendary 70); with others,
        none (the statuses rate a solo game)."""
        self.check_player_count(players)
        if players != 1:
            return ()
        return tuple((rank.name, rank.low) for rank in self.sheet.ranks)

    def default_score_target(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> str | None:
        """The second status (Standard on the shipped sheet): the first holds from 0 points,
        which almost any game reaches, so it would reward nothing."""
        targets = self.score_targets(players, options)
        if not targets:
            return None
        return targets[1][0] if len(targets) > 1 else targets[0][0]

    def observation_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        return tensors.observation_layout(players, options, self.sheet)

    def information_state_layout(
        self, players: int, options: Mapping[str, Any] | None = None
    ) -> TensorLayout:
        return tensors.information_state_layout(players, options, self.sheet)

    def parse_action(self, text: str) -> EgyptiaAction:
        return parse_action(text)

    def action_from_json(self, data: Mapping[str, Any]) -> EgyptiaAction:
        return action_from_json(data)

    def state_from_json(self, data: Mapping[str, Any]) -> EgyptiaState:
        game = self.at_version(str(data.get("version", self.version)))
        return EgyptiaState.from_json(game, game.sheet, data)


GAME = Egyptia()

__all__ = ["GAME", "Egyptia", "EgyptiaState", "Sheet", "load_sheet"]

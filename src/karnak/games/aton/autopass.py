"""Aton's moves that need no click: what a seat must play when the public view proves it.

Aton has no "pass": the engine already plays every step whose outcome is forced (all the
counters in reach must go, every free square in reach fills, the one counter to take back
after a scoring), so a seat is asked only where it has at least two different squares to
choose from. One decision is left that can have a single answer: laying out a hand of four
equal cards once the exchange counter is used. Which cards a priest holds is secret, but
the public view proves the hand when every card of that priest nobody has seen is of one
value: each priest owns ``cards_per_value`` cards of each value, and the discards shown
(revealed cartouches) are public. Then the lay-out is the seat's only move and it tells the
other priest nothing it could not already count.

:func:`forced_move` reads the spectator's view only, so whether a seat's move is played for
it never depends on what only that seat knows.
"""

from __future__ import annotations

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.aton.rules.actions import Allocate
from karnak.games.aton.rules.board import CARD_VALUES
from karnak.games.aton.view import as_observation, board_of


def unseen_values(game: Game, public_view: View, seat: int) -> dict[int, int]:
    """How many cards of each value of ``seat`` nobody has seen (its pile, its hand, its
    sealed cartouches and the cards it gave up face down), counted from the public view."""
    board = board_of(game)
    player = as_observation(public_view)["players"][seat]
    shown = player["discards"]
    laid = player["cartouches"] or []
    return {
        value: board.cards_per_value - shown.get(str(value), 0) - laid.count(value)
        for value in CARD_VALUES
    }


def forced_move(game: Game, public_view: View, seat: int) -> Action | None:
    """The lay-out of four equal cards when it is ``seat``'s only move and the public view
    proves it (the exchange used, and every unseen card of the seat of one value); else
    None."""
    obs = as_observation(public_view)
    if obs["phase"] != "allocate" or seat not in obs["to_move"] or seat not in (0, 1):
        return None
    player = obs["players"][seat]
    board = board_of(game)
    if not player["exchange_used"] or player["committed"] or player["hand"] != board.hand_size:
        return None
    values = [value for value, count in unseen_values(game, public_view, seat).items() if count]
    if len(values) != 1:
        return None
    value = values[0]
    return Allocate((value, value, value, value))

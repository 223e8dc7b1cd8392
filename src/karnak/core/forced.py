"""Moves that need no click: a seat's only legal move, when the public view proves it.

A game's plugin may name a rule (:attr:`karnak.core.plugin.GamePlugin.forced_move`) that reads
the *public* view of a position (``state.observation(None)``) and proposes the move a seat
cannot avoid. :func:`forced_move` asks that rule and hands the move on only when it is exactly
the seat's single legal move, so a client (the server's game page, ``karnak play``) may play it
for the seat after a short visible pause. A rule that proposes anything else is a bug in the
game: it is logged once per game and nothing is played.

Whether a seat's move is played for it is decided from the public view alone, so it tells the
other seats nothing they could not see (the non-interference tests change hidden facts and
compare the decision).
"""

from __future__ import annotations

import logging

from karnak.core.actions import Action
from karnak.core.plugin import View
from karnak.core.registry import get_plugin
from karnak.core.state import State

log = logging.getLogger(__name__)

#: How long a forced move waits before it is played, so a player sees it go (seconds).
PAUSE_SECONDS = 1.5

_warned: set[str] = set()


def forced_move(state: State, seat: int, public: View | None = None) -> Action | None:
    """``seat``'s move that needs no click (None: it decides itself, or the game has no rule).

    The game's rule reads the spectator's view only (``public``, ``state.observation(None)``
    made here when not given: a caller asking for many seats of one position makes it once);
    its answer is returned only when it is exactly the seat's one legal move."""
    if state.is_over() or seat not in state.to_move():
        return None
    name = state.game.name
    rule = get_plugin(name).forced_move_rule()
    if rule is None:
        return None
    action = rule(state.game, state.observation(None) if public is None else public, seat)
    if action is None:
        return None
    legal = state.legal_actions(seat)
    if legal == [action]:
        return action
    if name not in _warned:
        _warned.add(name)
        log.warning(
            "%s's forced-move rule proposed %s for seat %d, which is not its only legal move "
            "(%d legal): not played",
            name,
            action.to_text(),
            seat,
            len(legal),
        )
    return None


__all__ = ["PAUSE_SECONDS", "forced_move"]

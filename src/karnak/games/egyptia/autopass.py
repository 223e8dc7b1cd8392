"""Egyptia's moves that need no click: none, and why.

A forced move is one a seat must play although it changes nothing (Amun-Re's "done" with an
empty hand). Egyptia has no such step:

- the engine never asks what has one answer that changes nothing: a cost with a single way
  to pay it is paid by itself, and a builder waiting for the others is not "to move";
- every decision it does ask changes the builder's own sheet: a column (sealed, with the
  resources it brings), a plague (crossed off, or a Death counted, or resources lost), a
  building drawn on a hex, a payment, the Burial Mound's reward, a ship crossed off;
- and whether a seat has a single move at all (one affordable plague, one empty hex) is read
  from its own sheet as it stands, which the others see only at the round's end: a
  spectator's view cannot prove it, so playing it by itself would tell the table something.

So :func:`forced_move` answers None for every position (the tests check over random games
that each move a seat is asked for changes its sheet).
"""

from __future__ import annotations

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View


def forced_move(game: Game, public_view: View, seat: int) -> Action | None:
    """Always None: no step of Egyptia is a single move that changes nothing (see the
    module's note)."""
    del game, public_view, seat
    return None

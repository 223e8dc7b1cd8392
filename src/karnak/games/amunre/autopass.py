"""Amun-Re's moves that need no click: a seat's only move when the public view proves it.

Three steps of Amun-Re end with "done" and offer nothing else to a seat that holds no power
card: the harvest (the eight-gold and harvest-increase cards, and selling, need a card), the
scoring (bonus cards and selling need a card) and a market turn with no gold as well (every
purchase costs gold; the builder and free-farmer cards need a card). How many power cards a
seat holds, and its gold, are public (every player sees the counts, never the kinds), so
whether the step is forced tells nobody anything new. Where the seat holds a card, its kind
could make a move possible: the step is left to the seat, whatever that card is.

:func:`forced_move` reads the spectator's view only, so whether a seat's move is played for
it never depends on what only that seat knows.
"""

from __future__ import annotations

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.amunre.rules.actions import DONE
from karnak.games.amunre.view import as_observation

#: The steps whose only move, for a seat with no power card, is "done".
EMPTY_HANDED_STEPS = frozenset({"harvest", "scoring"})


def forced_move(game: Game, public_view: View, seat: int) -> Action | None:
    """``done`` when it is ``seat``'s only move and the public view proves it: a harvest or
    a scoring with no power card in hand, or a market turn with neither a card nor gold;
    else None."""
    del game  # the public view says all that is needed
    obs = as_observation(public_view)
    if obs["over"] or seat not in obs["to_move"] or not 0 <= seat < len(obs["players"]):
        return None
    player = obs["players"][seat]
    if player["cards"]:
        return None  # which card it is stays hidden: it might be playable
    phase = obs["phase"]
    if phase in EMPTY_HANDED_STEPS:
        return DONE
    if phase == "market" and player["gold"] == 0:
        return DONE
    return None

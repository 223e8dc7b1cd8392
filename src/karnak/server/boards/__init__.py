"""Per-game pieces of the web page (the board as SVG, card texts, move hints).

Each game's module offers two functions:

- ``board_svg(state) -> str``: the board, drawn from public information only, so that one
  drawing per position serves every seat and every spectator (the page marks the provinces
  a seat can act on by itself, from ``provinces_of_moves``);
- ``page_data(state, seat, legal_actions, observation) -> dict``: what belongs to one seat
  (its hand with card texts, hints for its moves), built only from what ``seat`` may see.

and may offer:

- ``guide(state, seat, legal_actions, observation) -> dict``: what the page teaches about
  the decision at hand, from the seat's own view only (the page draws it the same for
  every game)::

      {"phases": [{"key": "auction", "name": "Auction", "text": "one sentence"}, ...],
       "phase": "auction",            # the key of the current phase (highlighted)
       "next": "what comes after it",
       "task": "Choose your offering (sealed)",   # what this seat is to do now, or None
       "explain": [{"title": "What a bid costs", "lines": ["...", ...]}, ...]}

- ``lobby(game) -> dict``: what the lobby needs to offer the game's options well (Egyptia:
  the Pharaoh cards by letter), sent with ``/api/games/available``.

:func:`karnak.server.views.seat_view` puts the page data under ``view["page"]`` and the
guide under ``view["page"]["guide"]``. Board elements carry ``data-tip`` attributes, the
tooltip texts the page shows on hover, focus and long press (public facts on the public
board; the seat's own on its own drawings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.state import State
from karnak.server.boards import (
    amunre,
    amunre_guide,
    aton,
    aton_guide,
    egyptia,
    egyptia_guide,
)


@dataclass(frozen=True)
class PageParts:
    board_svg: Callable[[State], str]
    page_data: Callable[[State, int | None, Sequence[Action], dict[str, Any]], dict[str, Any]]
    lobby: Callable[[Game], dict[str, Any]] | None = None
    guide: (
        Callable[[State, int | None, Sequence[Action], dict[str, Any]], dict[str, Any]] | None
    ) = None
    #: A finished game's replay: what the page shows of a position beyond a spectator's view
    #: (the game is over, so nothing in it is hidden any more; Egyptia: every full sheet).
    replay: Callable[[State], dict[str, Any]] | None = None


PAGES: dict[str, PageParts] = {
    "amunre": PageParts(amunre.board_svg, amunre.page_data, guide=amunre_guide.guide),
    "aton": PageParts(aton.board_svg, aton.page_data, guide=aton_guide.guide),
    "egyptia": PageParts(
        egyptia.board_svg,
        egyptia.page_data,
        egyptia.lobby,
        guide=egyptia_guide.guide,
        replay=egyptia.replay,
    ),
}

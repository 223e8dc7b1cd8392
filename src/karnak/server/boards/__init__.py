"""Per-game pieces of the web page (the board as SVG, card texts, move hints).

Each module offers ``page_data(state, seat, legal_actions) -> dict``, built only from what
``seat`` may see; :func:`karnak.server.views.seat_view` includes it as ``view["page"]``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from karnak.core.actions import Action
from karnak.core.state import State
from karnak.server.boards import amunre

PageData = Callable[[State, int | None, Sequence[Action]], dict[str, Any]]

PAGE_DATA: dict[str, PageData] = {"amunre": amunre.page_data}

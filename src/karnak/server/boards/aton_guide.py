"""The guide of aton's game page: the phases in our own words, the current one, what comes next,
what the seat is to do, and why its decision matters (see karnak.server.boards)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from karnak.core.actions import Action
from karnak.core.state import State


def guide(
    state: State, seat: int | None, legal: Sequence[Action], obs: dict[str, Any]
) -> dict[str, Any]:
    """Built from the seat's observation and legal moves only (never from ``state``'s hidden
    parts: ``state`` is passed for its game's printed figures)."""
    return {"phases": [], "phase": None, "next": None, "task": None, "explain": []}

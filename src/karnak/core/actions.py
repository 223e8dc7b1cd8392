"""The contract every action value object honours.

Actions are small immutable values (frozen dataclasses in practice). Each has a text form
that round-trips through ``Game.parse_action`` and a JSON form that round-trips through
``Game.action_from_json``; equal actions compare and hash equal.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Action(Protocol):
    def to_text(self) -> str:
        """Short human-readable form, e.g. ``bid THEBES 6``."""
        ...

    def to_json(self) -> dict[str, Any]:
        """JSON-ready form with a ``type`` key."""
        ...

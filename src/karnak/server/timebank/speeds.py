"""Speeds chosen by name, as Board Game Arena offers them: real-time and turn-based.

A speed is a time control (karnak.server.timebank.clock: a time per move and a bank that
never grows back) under a name. **Real-time** speeds are for a game played at one sitting:
a minute or a few a move and a bank of minutes, so a whole game takes minutes.
**Turn-based** speeds are for play over hours or days: from 1 hour to 7 days a move, with
a bank of a few moves' time. When both are used up a bot takes the seat (abandonment).

A request names one (``"time_control": {"speed": "normal"}``) or gives the seconds
(``{"per_move": ..., "bank": ...}``); an unknown name is refused (422). ``GET /api/speeds``
lists them, with their words in the reader's language, for the lobby's form.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from karnak.i18n import N_, _
from karnak.server.timebank.clock import DAY, HOUR, MINUTE, TimeControl

REAL_TIME, TURN_BASED = "real-time", "turn-based"


@dataclass(frozen=True)
class Speed:
    name: str
    kind: str
    per_move: float
    bank: float
    #: Its words (translated when listed).
    label: str

    @property
    def control(self) -> TimeControl:
        return TimeControl(self.per_move, self.bank)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "label": _(self.label),
            "per_move": self.per_move,
            "bank": self.bank,
        }


SPEEDS: tuple[Speed, ...] = (
    Speed("fast", REAL_TIME, MINUTE, 5 * MINUTE, N_("Fast: 1 min a move, 5 min bank")),
    Speed("normal", REAL_TIME, 2 * MINUTE, 15 * MINUTE, N_("Normal: 2 min a move, 15 min bank")),
    Speed("slow", REAL_TIME, 4 * MINUTE, 30 * MINUTE, N_("Slow: 4 min a move, 30 min bank")),
    Speed("1h", TURN_BASED, HOUR, 12 * HOUR, N_("1 hour a move, 12 hours bank")),
    Speed("12h", TURN_BASED, 12 * HOUR, 2 * DAY, N_("12 hours a move, 2 days bank")),
    Speed("24h", TURN_BASED, DAY, 3 * DAY, N_("1 day a move, 3 days bank")),
    Speed("3d", TURN_BASED, 3 * DAY, 7 * DAY, N_("3 days a move, 7 days bank")),
    Speed("7d", TURN_BASED, 7 * DAY, 14 * DAY, N_("7 days a move, 14 days bank")),
)
BY_NAME = {speed.name: speed for speed in SPEEDS}
NAMES = tuple(BY_NAME)


def speed_named(name: str) -> Speed:
    """The speed of that name (KeyError: none)."""
    return BY_NAME[name]


def listed() -> dict[str, Any]:
    """The speeds for the lobby's form, real-time first, in the reader's language."""
    return {
        "kinds": [
            {"name": REAL_TIME, "label": _("Real-time: the whole game at one sitting")},
            {"name": TURN_BASED, "label": _("Turn-based: a move every few hours or days")},
        ],
        "speeds": [speed.to_json() for speed in SPEEDS],
    }

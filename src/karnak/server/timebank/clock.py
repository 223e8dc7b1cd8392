"""The players' clocks: a time per move and a bank, what a change does to them, reminders.

The rule (also in docs/players.md, "Time and abandonment"):

- A game may have a **time control**: a time per move ``per_move`` and a bank ``bank`` for
  each human seat. A seat's clock runs while it is to move (its *wait*), from the moment
  it becomes to move until it is no longer to move: a whole turn counts as one move, even
  when it takes several actions (Amun-Re's market, Aton's removals), and a sealed choice
  counts until the seat has committed.
- Each wait first uses the per-move time; only what goes beyond it comes out of the bank.
  The next wait starts with the whole per-move time again. Unused per-move time is lost
  and the bank never grows back: it only goes down (a "delay" clock, as on Yucata and as
  SpielByWeb's deadlines, not a Fischer increment). So a seat's time to move runs out at
  ``waiting_since + per_move + bank_left``.
- When it runs out the seat is handed to a bot (see :mod:`.abandonment`).
- The clock is wall-clock time, restarts included: what is stored is when the wait began,
  so a restart resets nobody's clock (a seat whose time ran out while the server was down is
  handed to the bot as soon as the server is back).

Clocks change only when the set of seats to move changes, which everyone sees (who is to
move is public). A builder's private steps in Egyptia keep the builder to move, so they
change no clock and no view: a clock never tells anyone that a private step happened.

Time is read through :func:`now` (looked up at each call), so tests move a fake clock
instead of sleeping for days.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from karnak.i18n import _, ngettext, t

if TYPE_CHECKING:
    from karnak.core.state import State
    from karnak.server.rooms import Room

MINUTE, HOUR, DAY = 60.0, 3600.0, 86400.0
#: Bounds of a time control (seconds), refused with a 422 outside them.
MIN_PER_MOVE, MAX_PER_MOVE = MINUTE, 7 * DAY
MIN_BANK, MAX_BANK = 0.0, 30 * DAY

#: Reminders (bits of ``SeatClock.reminders``). Half the bank is told once a game; the
#: others once per wait.
HALF_BANK, TWELVE_HOURS, ONE_HOUR = 1, 2, 4
#: Time left (seconds) at which a reminder is sent, with its bit.
THRESHOLDS = ((TWELVE_HOURS, 12 * HOUR), (ONE_HOUR, HOUR))
#: The half-bank reminder is worth sending for a bank of at least this much.
HALF_BANK_FROM = 2 * HOUR


def now() -> float:
    """Seconds since the epoch (tests replace this function)."""
    return time.time()


class TimeControlError(ValueError):
    """A time control out of its bounds (the message says which)."""


@dataclass(frozen=True)
class TimeControl:
    """A game's time per move and bank, in seconds."""

    per_move: float
    bank: float

    def __post_init__(self) -> None:
        if not MIN_PER_MOVE <= self.per_move <= MAX_PER_MOVE:
            raise TimeControlError(
                t(
                    "the time per move is between {least} and {most}",
                    least=span(MIN_PER_MOVE),
                    most=span(MAX_PER_MOVE),
                )
            )
        if not MIN_BANK <= self.bank <= MAX_BANK:
            raise TimeControlError(t("the time bank is between 0 and {most}", most=span(MAX_BANK)))

    @property
    def total(self) -> float:
        return self.per_move + self.bank

    def to_json(self) -> dict[str, float]:
        return {"per_move": self.per_move, "bank": self.bank}

    def thresholds(self) -> list[tuple[int, float]]:
        """The time-left reminders this control sends: only those below half its full time
        (a 1-minute game gets none: its page's countdown warns; a 4-day one gets both)."""
        return [(bit, left) for bit, left in THRESHOLDS if left < self.total / 2]

    def half_bank_reminder(self) -> bool:
        return self.bank >= HALF_BANK_FROM


@dataclass(frozen=True)
class SeatClock:
    """One human seat's clock.

    ``bank`` is what is left of its bank, not counting the wait in progress;
    ``waiting_since`` when its wait began (seconds since the epoch; None while it is not to
    move); ``reminders`` the reminders already sent (bits, see :data:`HALF_BANK`).
    """

    bank: float
    waiting_since: float | None = None
    reminders: int = 0

    def runs_out(self, control: TimeControl) -> float | None:
        """When the seat's time runs out (None while it is not to move)."""
        if self.waiting_since is None:
            return None
        return self.waiting_since + control.per_move + self.bank

    def bank_at(self, control: TimeControl, at: float) -> float:
        """What is left of the bank at ``at`` (the wait in progress counted)."""
        if self.waiting_since is None:
            return self.bank
        used = max(0.0, at - self.waiting_since - control.per_move)
        return max(0.0, self.bank - used)

    def start(self, at: float) -> SeatClock:
        """A wait begins: a fresh per-move time, the time-left reminders may come again."""
        return SeatClock(self.bank, at, self.reminders & HALF_BANK)

    def stop(self, control: TimeControl, at: float) -> SeatClock:
        """The wait ends: what went beyond the per-move time comes out of the bank."""
        return SeatClock(self.bank_at(control, at), None, self.reminders & HALF_BANK)


def span(seconds: float) -> str:
    """A duration in words a person reads at a glance: "3 days 4 h", "5 h 12 min", "40 s"."""
    seconds = max(0, round(seconds))
    days, rest = divmod(seconds, int(DAY))
    hours, rest = divmod(rest, int(HOUR))
    minutes, secs = divmod(rest, int(MINUTE))
    if days:
        if hours:
            return ngettext("{n} day {hours} h", "{n} days {hours} h", days).format(
                n=days, hours=hours
            )
        return ngettext("{n} day", "{n} days", days).format(n=days)
    if hours:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    if minutes:
        return f"{minutes} min {secs} s" if secs else f"{minutes} min"
    return f"{secs} s"


def first_clocks(room: Room, at: float) -> dict[int, SeatClock]:
    """The clocks of a new game: a full bank each, running for the seats to move."""
    control = room.time_control
    if control is None:
        return {}
    movers = set(room.state.to_move())
    return {
        info.seat: SeatClock(control.bank, at if info.seat in movers else None)
        for info in room.seats
        if not info.is_bot
    }


def after_change(room: Room, after: State, at: float | None = None) -> dict[int, SeatClock]:
    """The clocks that change when the room's state becomes ``after`` (a move or an undo):
    a wait ends for each seat no longer to move, one begins for each seat newly to move.
    Only the changed clocks are returned (they are written with the move)."""
    control = room.time_control
    if control is None or not room.clocks:
        return {}
    at = now() if at is None else at
    movers = set() if after.is_over() else set(after.to_move())
    changed: dict[int, SeatClock] = {}
    for seat, seat_clock in room.clocks.items():
        if room.seats[seat].is_bot:
            continue
        waiting = seat_clock.waiting_since is not None
        if waiting and seat not in movers:
            changed[seat] = seat_clock.stop(control, at)
        elif not waiting and seat in movers:
            changed[seat] = seat_clock.start(at)
    return changed


def reconciled(room: Room, at: float) -> None:
    """After loading: a human seat to move whose wait was never stored starts it now (only
    a game stored by a crash between two writes can show one), and a seat's stored wait
    that no longer fits the position ends without charge. Changed in memory; written with
    the next change."""
    if room.time_control is None:
        return
    movers = set() if room.is_over else set(room.state.to_move())
    for seat, seat_clock in list(room.clocks.items()):
        if room.seats[seat].is_bot:
            continue
        waiting = seat_clock.waiting_since is not None
        if seat in movers and not waiting:
            room.clocks[seat] = seat_clock.start(at)
        elif seat not in movers and waiting:
            room.clocks[seat] = replace(seat_clock, waiting_since=None)


def waiting_seats(room: Room) -> list[int]:
    """The human seats whose clock runs now."""
    return [
        seat
        for seat, seat_clock in room.clocks.items()
        if seat_clock.waiting_since is not None and not room.seats[seat].is_bot
    ]


def reminders_due(control: TimeControl, seat_clock: SeatClock, at: float) -> int:
    """The reminder bits due at ``at`` and not sent yet (0: none)."""
    runs_out = seat_clock.runs_out(control)
    if runs_out is None:
        return 0
    due = 0
    left = runs_out - at
    for bit, threshold in control.thresholds():
        if not seat_clock.reminders & bit and left <= threshold:
            due |= bit
    if (
        control.half_bank_reminder()
        and not seat_clock.reminders & HALF_BANK
        and seat_clock.bank_at(control, at) <= control.bank / 2
    ):
        due |= HALF_BANK
    return due


def next_reminder(control: TimeControl, seat_clock: SeatClock) -> float | None:
    """When the next reminder not sent yet falls due (None: none left in this wait)."""
    runs_out = seat_clock.runs_out(control)
    if runs_out is None or seat_clock.waiting_since is None:
        return None
    times = [
        runs_out - threshold
        for bit, threshold in control.thresholds()
        if not seat_clock.reminders & bit
    ]
    if control.half_bank_reminder() and not seat_clock.reminders & HALF_BANK:
        # the bank is at half when the wait has used per_move + (bank - half)
        times.append(
            seat_clock.waiting_since + control.per_move + seat_clock.bank - control.bank / 2
        )
    return min(times) if times else None


def control_of(value: TimeControl | Mapping[str, Any] | None) -> TimeControl | None:
    """A time control from what ``GameService.create`` was given: one already made, a
    mapping ``{"per_move": seconds, "bank": seconds}`` (what an open table keeps), or None.
    TimeControlError (with the bounds) for anything else."""
    if value is None or isinstance(value, TimeControl):
        return value
    if set(value) != {"per_move", "bank"}:
        raise TimeControlError(_('a time control is {"per_move": seconds, "bank": seconds}'))
    per_move, bank = value["per_move"], value["bank"]
    for number in (per_move, bank):
        if isinstance(number, bool) or not isinstance(number, int | float):
            raise TimeControlError(_("a time control's per_move and bank are numbers of seconds"))
        if number != number or number in (float("inf"), float("-inf")):
            raise TimeControlError(_("a time control's per_move and bank are finite"))
    return TimeControl(float(per_move), float(bank))

"""The time bank's timers: reminders before a seat's time runs out, a bot when it does.

One timer per game with a time control, armed for the next moment something is due in it:
a seat's time running out, or a reminder. It learns of every change from the hub's ``games``
topic (the seam every change goes through), so a move, an undo, a departure or a game loaded
at start re-arms it; nothing else in the server calls it.

Reminders go to the account holding the seat (kind "time"; guests get none: the page's
countdown warns them) at these points of a wait: when half the bank is gone (once a game),
and when 12 hours and 1 hour are left (each once per wait; only those below half the control's
full time, so a quick game sends none). Several due at once make one notification. What was
sent is stored before it is sent, so a restart never sends it again. The text says the game,
the other players and the time left: public facts only.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from karnak.i18n import t, use_language
from karnak.server.hub import ALL_GAMES, Event, Hub
from karnak.server.notifications.service import account_language
from karnak.server.timebank import clock
from karnak.server.timebank.abandonment import TIMEOUT, replace
from karnak.server.timebank.clock import (
    HALF_BANK,
    next_reminder,
    reminders_due,
    span,
    waiting_seats,
)
from karnak.server.timebank.store import ClockStore

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.notifications.service import Notifier
    from karnak.server.rooms import Room
    from karnak.server.service import GameService

log = logging.getLogger("karnak.server")

#: The longest a timer sleeps before it looks again (seconds): the wall clock may jump.
MAX_SLEEP = 3600.0


class TimeBank:
    def __init__(self, engine: Engine, service: GameService, notifier: Notifier, hub: Hub):
        self.service = service
        self.notifier = notifier
        self.store = ClockStore(engine)
        #: Per game: when its timer is due (seconds since the epoch) and its task.
        self._timers: dict[str, tuple[float, asyncio.Task[None]]] = {}
        self._subscription = hub.subscribe(ALL_GAMES, self._changed)

    async def stop(self) -> None:
        self._subscription.cancel()
        timers = [task for _, task in self._timers.values()]
        self._timers.clear()
        for task in timers:
            task.cancel()
        for task in timers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # ------------------------------------------------------------------ timers
    def _changed(self, event: Event) -> None:
        room = self.service.rooms.get(str(event.payload.get("game_id")))
        if room is not None:
            self.arm(room)

    def arm_all(self) -> None:
        """Arm every game held (at start, and after a lease changed hands)."""
        for room in list(self.service.rooms.values()):
            self.arm(room)

    def due(self, room: Room) -> float | None:
        """When something is next due in ``room``: a seat's time running out or a reminder
        (None: nothing, no clock runs)."""
        control = room.time_control
        if control is None or room.is_over or not self.service.owns(room.id):
            return None  # no clock runs, or another process runs this game's clocks
        times: list[float] = []
        for seat in waiting_seats(room):
            seat_clock = room.clocks[seat]
            runs_out = seat_clock.runs_out(control)
            if runs_out is not None:
                times.append(runs_out)
            if room.seats[seat].account is not None:
                reminder = next_reminder(control, seat_clock)
                if reminder is not None:
                    times.append(reminder)
        return min(times) if times else None

    def arm(self, room: Room) -> None:
        """(Re-)arm the game's timer for its next due moment (quick: runs in the hub)."""
        due = self.due(room)
        armed = self._timers.get(room.id)
        if armed is not None and armed[0] == due and not armed[1].done():
            return
        if armed is not None:
            armed[1].cancel()
            del self._timers[room.id]
        if due is not None:
            self._timers[room.id] = (due, asyncio.create_task(self._wait(room, due)))

    async def _wait(self, room: Room, due: float) -> None:
        while True:
            delay = due - clock.now()
            if delay <= 0:
                break
            await asyncio.sleep(min(delay, MAX_SLEEP))
        armed = self._timers.get(room.id)
        if armed is not None and armed[1] is asyncio.current_task():
            del self._timers[room.id]
        try:
            await self.check(room)
        except Exception:
            log.exception("the time bank of game %s failed", room.id)
        self.arm(room)  # the next moment due (a change re-arms it too)

    # ------------------------------------------------------------------ what is due
    async def check(self, room: Room) -> None:
        """Do what is due now: hand every seat whose time ran out to the bot, send the
        reminders that fell due."""
        control = room.time_control
        if control is None or room.is_over or not self.service.owns(room.id):
            return
        at = clock.now()
        for seat in waiting_seats(room):
            runs_out = room.clocks[seat].runs_out(control)
            if runs_out is not None and runs_out <= at:
                await replace(self.service, self.store, room, seat, TIMEOUT)

        async def attempt() -> tuple[list[tuple[int, int, int, float]], bool]:
            """Decide the reminders due and store them as sent, through the write path: a
            seat's bits change only from what was read, so each reminder goes out once."""
            assert control is not None
            at = clock.now()
            sent: dict[int, tuple[int, int]] = {}
            notes: list[tuple[int, int, int, float]] = []
            for seat in waiting_seats(room):
                account = room.seats[seat].account
                seat_clock = room.clocks[seat]
                bits = reminders_due(control, seat_clock, at)
                if account is None or not bits:
                    continue
                sent[seat] = (seat_clock.reminders, seat_clock.reminders | bits)
                notes.append((account, seat, bits, at))
            if sent:
                await self.service.database(self.store.set_reminders, room.id, sent)
                for seat, (_, bits) in sent.items():
                    room.clocks[seat] = dataclasses.replace(room.clocks[seat], reminders=bits)
            return notes, False  # the players' views do not show reminders: nothing to tell

        notes = await self.service.change(room, attempt)
        for account, seat, bits, at in notes:
            text = await self._in_language_of(
                account, functools.partial(self.reminder_text, room, seat, bits, at)
            )
            await self.notifier.notify(account, "time", text, f"/games/{room.id}")

    async def _in_language_of(self, account: int, compose: Callable[[], str]) -> str:
        """``compose()`` in the account's language (its setting, else English)."""
        language = await self.notifier.executor.run(account_language, self.notifier.engine, account)
        with use_language(language):
            return compose()

    @staticmethod
    def reminder_text(room: Room, seat: int, bits: int, at: float) -> str:
        """The reminder: the game, the others at the table, the time left (public facts),
        in the current language."""
        control = room.time_control
        assert control is not None
        seat_clock = room.clocks[seat]
        others = [info.name for info in room.seats if info.seat != seat]
        game = room.game.title
        runs_out = seat_clock.runs_out(control) or at
        left = span(runs_out - at)
        if bits & ~HALF_BANK:
            if others:
                return t(
                    "{game} with {names}: {left} left for your move, then a bot takes your seat.",
                    game=game,
                    names=", ".join(others),
                    left=left,
                )
            return t(
                "{game}: {left} left for your move, then a bot takes your seat.",
                game=game,
                left=left,
            )
        bank = span(seat_clock.bank_at(control, at))
        if others:
            return t(
                "{game} with {names}: half your time bank is gone ({bank} left in it); "
                "{left} left to move.",
                game=game,
                names=", ".join(others),
                bank=bank,
                left=left,
            )
        return t(
            "{game}: half your time bank is gone ({bank} left in it); {left} left to move.",
            game=game,
            bank=bank,
            left=left,
        )

"""Playing a seat's forced move for its person, after a pause everyone can see.

A game's rule (:mod:`karnak.core.forced`) says, from the public view alone, when a seat's
only move changes nothing. The process that runs the game's background work (its lease
holder) then shows the move waiting (a *plan*, in every view, told to the other processes'
pages through the broker) and plays it when the pause is over, unless the step changed, the
lease went, or the person turned forced moves off (their account's setting,
:class:`~karnak.server.forced_moves.ForcedMoveSettings`, or a guest seat's choice, kept in
memory and told to the other processes: a restart forgets it, and forced moves are on again).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from karnak.core.actions import Action
from karnak.core.forced import PAUSE_SECONDS, forced_move
from karnak.core.plugin import View
from karnak.core.registry import get_plugin
from karnak.server.conflicts import LeaseLostError
from karnak.server.forced_moves import ForcedMoveSettings, ForcedPlan
from karnak.server.hub import Event, game_topic
from karnak.server.rooms import Room, SubmitError

if TYPE_CHECKING:
    from karnak.server.service import GameService

#: The event on a game's topic that shows a forced move waiting its pause to the other
#: processes' pages.
FORCED_EVENT = "forced"
#: The event on a game's topic when a seat's person turns forced moves on or off.
FORCED_CHOICE_EVENT = "forced-choice"

Key = tuple[str, int]


class ForcedTurns:
    """The forced moves of one service's games: waiting, shown, played."""

    def __init__(self, service: GameService, settings: ForcedMoveSettings) -> None:
        self.service = service
        #: Whether each account's forced moves are played for it.
        self.settings = settings
        #: The pause before a forced move is played (seconds), and the clock and sleep it is
        #: measured with (tests put a fake clock here).
        self.pause = PAUSE_SECONDS
        self.clock: Callable[[], float] = time.time
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        #: The tasks waiting a pause, by game and seat, and the plans the views show.
        self.tasks: dict[Key, asyncio.Task[None]] = {}
        self.plans: dict[str, dict[int, ForcedPlan]] = {}
        #: The (step, version) each seat's forced move was last looked at in, so a move the
        #: person chose to click (the setting off) is not looked at again until it changes.
        self.seen: dict[Key, tuple[int, int]] = {}
        #: Guests' seats (no account) whose person chose to click even a forced move.
        self.asked: set[Key] = set()

    def forget(self, game_id: str) -> None:
        """Drop a game no longer held in memory (its waiting moves are not played here)."""
        self.plans.pop(game_id, None)
        for key in [key for key in self.tasks if key[0] == game_id]:
            self.tasks.pop(key).cancel()
        for key in [key for key in self.seen if key[0] == game_id]:
            del self.seen[key]
        self.asked -= {key for key in self.asked if key[0] == game_id}

    def waiting(self, room: Room) -> list[ForcedPlan]:
        """The forced moves of the current step waiting their pause, by seat."""
        plans = self.plans.get(room.id)
        if not plans:
            return []
        for seat in [seat for seat, plan in plans.items() if plan.step < room.step_started]:
            del plans[seat]  # a step gone by (another process's plan: it was played there)
        return [plan for _, plan in sorted(plans.items()) if plan.step == room.step_started]

    def heard(self, event: Event) -> bool:
        """Handles a broker event of the forced moves (True), or says it is not one."""
        room = self.service.cache.rooms.get(event.topic.removeprefix("game:"))
        if event.kind == FORCED_EVENT:  # a forced move waiting its pause where it is played
            plan = ForcedPlan.from_payload(event.payload)
            if room is None or plan is None or plan.seat >= len(room.seats):
                return True
            if not self.service.owns(room.id) and plan.step >= room.step_started:
                self.plans.setdefault(room.id, {})[plan.seat] = plan
                self.service.hub.publish_here(game_topic(room.id), "changed")
            return True
        if event.kind == FORCED_CHOICE_EVENT:  # a person turned forced moves on or off
            seat, on = event.payload.get("seat"), event.payload.get("on")
            if (
                room is not None
                and isinstance(seat, int)
                and isinstance(on, bool)
                and 0 <= seat < len(room.seats)
            ):
                self._choice(room, seat, on)
            return True
        return False

    async def wanted(self, room: Room, seat: int) -> bool:
        """Whether ``seat``'s forced moves are played for it: its account's setting, or for
        a guest's seat what its person chose (on unless turned off)."""
        account = room.seats[seat].account
        if account is None:
            return (room.id, seat) not in self.asked
        return await self.settings.get(account)

    async def choose(self, room: Room, seat: int, on: bool) -> None:
        """``seat``'s person turns forced moves on or off: its account's setting, or the
        guest's seat's choice; a move waiting its pause is not played then."""
        account = room.seats[seat].account
        if account is not None:
            await self.settings.set(account, on)
        self._choice(room, seat, on)
        self.service.hub.publish(game_topic(room.id), FORCED_CHOICE_EVENT, {"seat": seat, "on": on})

    def _choice(self, room: Room, seat: int, on: bool) -> None:
        key = (room.id, seat)
        account = room.seats[seat].account
        if account is not None:
            self.settings.forget(account)
        elif on:
            self.asked.discard(key)
        else:
            self.asked.add(key)
        self.seen.pop(key, None)
        if not on:
            task = self.tasks.pop(key, None)
            if task is not None:
                task.cancel()
            plans = self.plans.get(room.id)
            if plans is not None and plans.pop(seat, None) is not None:
                self.service.hub.publish_here(game_topic(room.id), "changed")  # the note goes
        elif not room.is_over and self.service.owns(room.id):
            self.schedule(room)

    def schedule(self, room: Room) -> None:
        """For each person to move whose only move is forced, play it after the pause."""
        if room.is_over:
            for seat in range(len(room.seats)):
                self.seen.pop((room.id, seat), None)
            return
        # the spectator's view the game's rule reads, made once for every seat
        ruled = get_plugin(room.game.name).forced_move_rule() is not None
        public: View | None = None
        for seat in room.humans_to_move():
            key = (room.id, seat)
            moment = (room.step_started, room.version_for(seat))
            if key in self.tasks or self.seen.get(key) == moment:
                continue
            self.seen[key] = moment
            if public is None and ruled:
                public = room.state.observation(None)
            action = forced_move(room.state, seat, public)
            if action is None:
                continue
            self.tasks[key] = asyncio.create_task(self.turn(room, seat, room.step_started, action))

    async def turn(self, room: Room, seat: int, step: int, action: Action) -> None:
        """Show ``action`` waiting, then play it for ``seat`` when the pause is over."""
        service = self.service
        try:
            if not await self.wanted(room, seat):
                return  # the person turned it off: they click
            if room.step_started != step or not service.owns(room.id):
                return
            plan = ForcedPlan(step, seat, action.to_text(), self.clock() + self.pause)
            self.plans.setdefault(room.id, {})[seat] = plan
            service.hub.publish_here(game_topic(room.id), "changed")  # the pages show it
            service.hub.publish(game_topic(room.id), FORCED_EVENT, plan.payload())  # others'
            await self.sleep(self.pause)
            if room.is_over or room.step_started != step or not service.owns(room.id):
                return
            if not await self.wanted(room, seat):
                return  # turned off meanwhile
            if seat not in room.humans_to_move():
                return
            with contextlib.suppress(SubmitError, LeaseLostError):
                await service.submit(room, seat, room.version_for(seat), action, automatic=True)
        finally:
            self.tasks.pop((room.id, seat), None)
            plans = self.plans.get(room.id)
            if plans is not None:
                plans.pop(seat, None)
                if not plans:
                    del self.plans[room.id]
            if not room.is_over and service.owns(room.id):
                self.schedule(room)  # the next step may be forced too

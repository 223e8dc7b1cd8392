"""A person who leaves, or runs out of time, is replaced by a bot, so the others can finish.

How it works:

- **Who replaces.** The game's *medium* level (:mod:`karnak.bots.levels`: the instant
  heuristic in every game today), within the server's think limits: sensible, and quick, so
  the others never wait on it. Like every bot it sees only its seat's view (the bot runner
  hands it the seat's observation), so replacing a seat shows nobody anything hidden.
- **When.** ``POST /api/games/{id}/leave`` by the seat's link or session (the page asks to
  confirm first), or when the seat's time bank is exhausted (:mod:`.service`). The change
  goes through the game service's one write path (``GameService.change``), so never while a
  move of that seat is being written, and is stored in one transaction with the game's new
  version, if the game is still at the version it was decided on: a restart keeps the bot.
- **For good.** The seat is the bot's from then on: its old link opens nothing (403, saying
  why) and its account's session opens the game as a spectator. Nobody takes a seat back.
- **Everyone sees it.** A departure is a change like a move (a new version; the move before
  it can no longer be taken back): the players' list marks the seat (``kind`` "bot",
  ``replaced``, ``left``: "left" or "timeout"), the log says it where it happened, and the
  page shows it.

**How the result counts** (as on Board Game Arena, where a player who quits loses): the
final scoring on the board is the game's own, the bot's points included, so the others'
places are what they earned. The stored result says who left: ``result["left"]`` is the
sorted list of seats whose person left or ran out of time (empty when nobody did). For
ratings (:func:`rated_places`): every seat that left ranks last, below everyone who stayed,
whatever its bot then scored (tied among themselves); those who stayed rank among themselves
by the final result; the bot that finished a seat counts for nobody's rating, its own
included.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from karnak.bots.levels import describe, level_spec
from karnak.core.errors import KarnakError
from karnak.i18n import _, t
from karnak.server.rooms import BOT, Departure, Room, SeatInfo
from karnak.server.timebank import clock

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.server.service import GameService
    from karnak.server.timebank.store import ClockStore

#: The level of the bot that takes a seat over.
REPLACEMENT_LEVEL = "medium"
LEFT, TIMEOUT = "left", "timeout"


class LeaveError(KarnakError):
    """A seat that cannot be left (the game is over, the seat is a bot's already)."""

    status = 409


def replacement_bot(game: Game, room: Room, max_think: float, max_game_think: float) -> str:
    """The bot spec of the medium level at this table (counting the seat taken over)."""
    bots = sum(1 for info in room.seats if info.is_bot) + 1
    return level_spec(
        REPLACEMENT_LEVEL, game, bots, max_think=max_think, max_game_think=max_game_think
    )


def departure_line(info: SeatInfo) -> str:
    """The log's line for a seat a bot took over."""
    bot = describe(info.bot or "")
    if info.left is not None and info.left.how == TIMEOUT:
        return t(
            "{name}'s time ran out: a bot (medium: {bot}) plays the seat from here.",
            name=info.name,
            bot=bot,
        )
    return t(
        "{name} left the game: a bot (medium: {bot}) plays the seat from here.",
        name=info.name,
        bot=bot,
    )


async def replace(
    service: GameService, clocks: ClockStore, room: Room, seat: int, how: str
) -> SeatInfo:
    """Hand ``seat`` to the replacement bot (``how``: "left" or "timeout"); the seat's new
    info. LeaveError if the game is over or the seat is a bot's already. A timeout is
    checked again through the service's write path (against the game as the database
    holds it): a move that came just in time wins."""

    async def attempt() -> tuple[SeatInfo, bool]:
        info = room.seats[seat]
        if room.is_over:
            raise LeaveError(_("the game is over: there is nothing left to leave"))
        if info.is_bot:
            raise LeaveError(_("this seat is a bot's"))
        seat_clock = room.clocks.get(seat)
        at = clock.now()
        if how == TIMEOUT:
            control = room.time_control
            runs_out = seat_clock.runs_out(control) if seat_clock and control else None
            if runs_out is None or runs_out > at:
                return info, False  # it moved in time
        if seat_clock is not None and room.time_control is not None:
            seat_clock = seat_clock.stop(room.time_control, at)
        settings = service.settings
        spec = replacement_bot(room.game, room, settings.max_think, settings.max_game_think)
        departure = Departure(how, len(room.accepted), len(room.state.log))
        version, public_version = room.version + 1, room.version_for(None) + 1
        started = time.time()
        await service.database(
            clocks.replace_seat,
            room.id,
            seat,
            spec,
            departure,
            seat_clock,
            room.version,
            version,
            public_version,
            started,
        )
        info = room.seats[seat] = dataclasses.replace(info, kind=BOT, bot=spec, left=departure)
        if seat_clock is not None:
            room.clocks[seat] = seat_clock
        room.bump(version)
        room.step_started_at = started
        return info, True

    return await service.change(room, attempt)


def rated_places(result: dict[str, Any]) -> dict[int, int]:
    """Each seat's place for ratings (1 = best) from a stored result: those who stayed by
    their ranks among themselves, then every seat in ``result["left"]``, tied last.

    The bot that finished a departed seat is rated for nobody: a ratings service rates the
    departed seat's account at its (last) place and leaves the bot out.
    """
    ranks: Sequence[int] = result["ranks"]
    left = set(result.get("left") or ())
    stayed = [seat for seat in range(len(ranks)) if seat not in left]
    places = {seat: 1 + sum(1 for other in stayed if ranks[other] < ranks[seat]) for seat in stayed}
    for seat in left:
        places[seat] = len(stayed) + 1
    return places

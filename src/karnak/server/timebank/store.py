"""The clocks' and departures' columns (migration 0006_time): reading and writing them.

Clocks change with moves, so :func:`write_clocks` runs inside the move's own transaction
(``GameStore.append`` and ``remove_last`` call it): a move and the clocks it stops and
starts are stored together or not at all. A departure is stored with the game's new
version in one transaction (:meth:`ClockStore.replace_seat`); a reminder's bit is stored
before the reminder is sent (:meth:`ClockStore.set_reminders`), so a restart never sends
it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, bindparam, update
from sqlalchemy.orm import sessionmaker

from karnak.server.conflicts import StaleWriteError
from karnak.server.db import GameRow, SeatRow, utcnow
from karnak.server.rooms import Departure
from karnak.server.timebank import clock
from karnak.server.timebank.clock import SeatClock, TimeControl, reconciled

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

    from karnak.server.rooms import Room

_seats = cast(Table, SeatRow.__table__)
UPDATE_CLOCK = (
    update(_seats)
    .where(_seats.c.game_id == bindparam("p_game"), _seats.c.seat == bindparam("p_seat"))
    .values(
        bank_left=bindparam("p_bank"),
        waiting_since=bindparam("p_since"),
        reminders=bindparam("p_reminders"),
    )
)


def clock_values(game_id: str, seat: int, seat_clock: SeatClock) -> dict[str, Any]:
    return {
        "p_game": game_id,
        "p_seat": seat,
        "p_bank": seat_clock.bank,
        "p_since": seat_clock.waiting_since,
        "p_reminders": seat_clock.reminders,
    }


def write_clocks(connection: Connection, game_id: str, clocks: Mapping[int, SeatClock]) -> None:
    """Store changed clocks in the caller's transaction (a move's)."""
    if clocks:
        connection.execute(
            UPDATE_CLOCK, [clock_values(game_id, seat, c) for seat, c in clocks.items()]
        )


def game_columns(room: Room) -> dict[str, Any]:
    """The games row's time-control columns for a new game."""
    control = room.time_control
    if control is None:
        return {}
    return {"time_per_move": control.per_move, "time_bank": control.bank}


def seat_columns(room: Room, seat: int) -> dict[str, Any]:
    """A new seat row's clock columns."""
    seat_clock = room.clocks.get(seat)
    if seat_clock is None:
        return {}
    return {"bank_left": seat_clock.bank, "waiting_since": seat_clock.waiting_since}


def departure_of(row: SeatRow) -> Departure | None:
    """A stored seat's departure, if its person left."""
    if row.departure is None:
        return None
    return Departure(row.departure, row.departure_moves or 0, row.departure_log or 0)


def restore(room: Room, row: GameRow) -> None:
    """Put a stored game's time control and clocks back on its room (once its moves are
    replayed: a wait that does not fit the position is put right, see ``reconciled``)."""
    if row.time_per_move is None or row.time_bank is None:
        return
    room.time_control = TimeControl(row.time_per_move, row.time_bank)
    for seat in row.seats:
        if seat.bank_left is not None:
            room.clocks[seat.seat] = SeatClock(seat.bank_left, seat.waiting_since, seat.reminders)
    reconciled(room, clock.now())


class ClockStore:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def replace_seat(
        self,
        game_id: str,
        seat: int,
        bot: str,
        departure: Departure,
        seat_clock: SeatClock | None,
        expected: int,
        version: int,
        public_version: int,
        step_started_at: float,
    ) -> None:
        """Hand ``seat`` to ``bot`` and store the game's new versions (a departure is a
        change everyone sees), in one transaction, if the game is still at version
        ``expected`` (StaleWriteError if another process changed it first)."""
        with self.sessions.begin() as session:
            row = session.get(GameRow, game_id, with_for_update=True)
            if row is None:
                raise LookupError(f"game {game_id} vanished from the database")
            if row.version != expected:
                raise StaleWriteError(f"game {game_id} is at version {row.version}")
            found = next(s for s in row.seats if s.seat == seat)
            found.kind = "bot"
            found.bot = bot
            found.departure = departure.how
            found.departure_moves = departure.moves
            found.departure_log = departure.log
            if seat_clock is not None:
                found.bank_left = seat_clock.bank
                found.waiting_since = seat_clock.waiting_since
                found.reminders = seat_clock.reminders
            row.version = version
            row.public_version = public_version
            row.step_started_at = step_started_at
            row.updated_at = row.public_updated_at = utcnow()

    def set_reminders(self, game_id: str, reminders: Mapping[int, tuple[int, int]]) -> None:
        """Store which reminders each seat has been sent (before they are sent): per seat,
        the bits stored before and after. Each seat's bits change only from what the caller
        read, so a reminder is sent once even if two processes decide it at once:
        StaleWriteError (nothing stored) when a seat's bits had changed."""
        table = _seats
        statement = (
            update(table)
            .where(
                table.c.game_id == bindparam("p_game"),
                table.c.seat == bindparam("p_seat"),
                table.c.reminders == bindparam("p_before"),
            )
            .values(reminders=bindparam("p_reminders"))
        )
        with self.engine.begin() as connection:
            for seat, (before, bits) in reminders.items():
                values = {
                    "p_game": game_id,
                    "p_seat": seat,
                    "p_before": before,
                    "p_reminders": bits,
                }
                if connection.execute(statement, values).rowcount != 1:
                    raise StaleWriteError(f"the reminders of game {game_id} changed")

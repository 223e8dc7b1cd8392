"""What a view says of the clocks and of the seats bots took over (all of it public).

Everyone's clock is public, as at a chess club: each player's entry carries its bank and,
while it is to move, when its wait began and when its time runs out; the seat's own run-out
time is also the view's ``deadline``, which the page's countdown shows. A seat a bot took
over is marked in the players' list (``replaced``, ``left``: "left" or "timeout"; its
``kind`` is "bot" by then), told in the log where it happened, and listed in the result's
``left``. None of it depends on anything hidden: clocks change only when who is to move
changes, and a departure is a change everyone sees.
"""

from __future__ import annotations

from typing import Any

from karnak.server.rooms import Room
from karnak.server.timebank.abandonment import departure_line


def add_time_and_departures(room: Room, seat: int | None, view: dict[str, Any]) -> None:
    """Add the clocks and the departures to ``seat``'s view (built by views.seat_view)."""
    control = room.time_control
    view["time_control"] = control.to_json() if control is not None else None
    # a replay's room has the moves up to its step: later departures are not told yet
    moves = len(room.accepted)
    gone = [info.left if info.left and info.left.moves <= moves else None for info in room.seats]
    for entry, info, left in zip(view["players"], room.seats, gone, strict=True):
        entry["replaced"] = left is not None
        entry["left"] = left.how if left is not None else None
        seat_clock = room.clocks.get(info.seat) if control is not None else None
        if control is None or seat_clock is None or info.left is not None:
            entry["clock"] = None
            continue
        entry["clock"] = {
            "bank": seat_clock.bank,
            "waiting_since": seat_clock.waiting_since,
            "runs_out": seat_clock.runs_out(control),
        }
        if info.seat == seat and seat_clock.waiting_since is not None:
            view["deadline"] = seat_clock.runs_out(control)
    departures = sorted((left.log, seat) for seat, left in enumerate(gone) if left)
    if departures:
        view["log"] = with_departures(room, seat, view["log"], departures)
    if "result" in view:
        view["result"]["left"] = [seat for seat, left in enumerate(gone) if left]


def with_departures(
    room: Room, seat: int | None, log: list[str], departures: list[tuple[int, int]]
) -> list[str]:
    """``log`` (the lines ``seat`` may read) with a line for each departure, placed after
    the events that came before it (``departures``: (events then, seat), in order)."""
    events = room.state.log.events
    inserts: list[tuple[int, str]] = []
    walked = shown = 0
    for position, departed in departures:
        while walked < min(position, len(events)):
            shown += events[walked].visible_to(seat)
            walked += 1
        inserts.append((shown, departure_line(room.seats[departed])))
    lines: list[str] = []
    start = 0
    for index, line in inserts:
        lines.extend(log[start:index])
        lines.append(line)
        start = index
    lines.extend(log[start:])
    return lines

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

from karnak.i18n import _, ngettext
from karnak.server.rooms import Room
from karnak.server.timebank.abandonment import TIMEOUT, departure_line, rated_places


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
        view["standing"] = standing(room, view["result"])
    note = timeouts_note(room, seat, view.get("timeouts") or [])
    if note:
        view["timeouts_note"] = note


def standing(room: Room, result: dict[str, Any]) -> list[dict[str, Any]]:
    """Every seat ranked as the ratings rank it (karnak.server.timebank.abandonment
    .rated_places): those who stayed by the final result, then those who left, tied last,
    marked as played by a bot from then on. Public: the final result and the departures."""
    places = rated_places(result)
    scores = result.get("scores") or []
    entries = []
    for info in room.seats:
        left = info.left.how if info.left is not None and info.seat in result["left"] else None
        entries.append(
            {
                "seat": info.seat,
                "name": info.name,
                "place": places.get(info.seat, len(room.seats)),
                "score": scores[info.seat] if info.seat < len(scores) else None,
                "left": left,
                "played_by_bot": left is not None,
            }
        )
    entries.sort(key=lambda entry: (entry["place"], entry["seat"]))
    return entries


def timeouts_note(room: Room, seat: int | None, timeouts: list[dict[str, int]]) -> str:
    """The moves the server played when a timer ran out, as a sentence for its reader
    (``timeouts``: views.timeouts_seen, those the reader saw)."""
    if not timeouts:
        return ""
    last = timeouts[-1]["seat"]
    mine = sum(1 for entry in timeouts if entry["seat"] == seat) if seat is not None else 0
    if seat is not None and last == seat:
        return ngettext(
            "Your time ran out once; the server played your move.",
            "Your time ran out {n} times; the server played your moves.",
            mine,
        ).format(n=mine)
    count = len(timeouts)
    return ngettext(
        "The timer ran out once, for {name}; the server played the move.",
        "The timer ran out {n} times, last for {name}; the server played those moves.",
        count,
    ).format(n=count, name=room.seats[last].name)


def departed_note(room: Room, seat: int) -> dict[str, Any] | None:
    """What the person whose seat a bot took over is told on its page: why and when. Only
    for that person (their link's socket, their account); the departure is public anyway."""
    info = room.seats[seat]
    if info.left is None:
        return None
    if info.left.how == TIMEOUT:
        text = _("Your time ran out: a bot plays your seat from here. You can watch the rest.")
    else:
        text = _("You left this game: a bot plays your seat from here. You can watch the rest.")
    return {
        "seat": seat,
        "name": info.name,
        "reason": info.left.how,
        "at_move": info.left.moves,
        "text": text,
    }


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

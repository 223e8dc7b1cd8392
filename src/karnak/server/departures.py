"""Honest departures: the person whose seat a bot took over is told so on their page.

When a person leaves or runs out of time (karnak.server.timebank.abandonment), their seat
is a bot's from then on and their page shows the game as a spectator's. It also says why,
with ``view["you_departed"]`` (``{"seat", "name", "reason": "left" | "timeout",
"at_move", "text"}``; the page's departure.js shows it in its banner). Only that person's
page carries it:

- the page that was open at the time: its game socket knew the seat (the game service's
  listener keeps it as ``departed``);
- a socket opened by the seat's link: the link's seat is kept for the socket's requests
  (:func:`reader_seat`), so its "view" requests say so too;
- a page opened later by the account that held the seat: the game service finds the
  account's departed seat when it resolves the request's seat (:func:`reader_left`, kept
  for the request in a context variable, as the request's language is) and builds the
  spectator's view with the note (:func:`departed_reader`).

A seat's old link opens nothing (403, saying why), as before: a link may have been passed
on, an account's session may not.

Everything said is public (a departure is a change everyone sees, marked in the players'
list and the log); the note depends on nothing hidden.
"""

from __future__ import annotations

from contextvars import ContextVar

import orjson

from karnak.server.rooms import Room
from karnak.server.timebank.views import departed_note

#: The departed seat of the request's reader: (game id, seat), or None.
_reader: ContextVar[tuple[str, int] | None] = ContextVar("karnak_departed_reader", default=None)


def reader_left(room: Room, account: int | None) -> None:
    """Note for this request whether ``account`` (the reader, who holds no live seat of
    ``room``) is the person who left one of its seats."""
    found = None
    if account is not None:
        for info in room.seats:
            if info.account == account and info.left is not None:
                found = (room.id, info.seat)
                break
    _reader.set(found)


def reader_seat(room: Room, seat: int) -> None:
    """Note the seat the request's reader holds by its link (a socket opened with it keeps
    this: when its person leaves later, its views say so)."""
    _reader.set((room.id, seat))


def departed_reader(room: Room) -> int | None:
    """The seat the request's reader left in ``room`` (see :func:`reader_left`), if any."""
    found = _reader.get()
    if found is None or found[0] != room.id or found[1] >= len(room.seats):
        return None
    return found[1] if room.seats[found[1]].left is not None else None


def with_departure(room: Room, seat: int, spectator_view: str) -> str:
    """The spectator's view (encoded) with the note for the person who left ``seat``."""
    note = departed_note(room, seat)
    if note is None:
        return spectator_view
    view = orjson.loads(spectator_view)
    view["you_departed"] = note
    return orjson.dumps(view, option=orjson.OPT_NON_STR_KEYS).decode()

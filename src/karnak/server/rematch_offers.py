"""A rematch offer, shown live on every seat's page of the finished game.

When a seat asks for a rematch (``POST /api/games/{id}/rematch``, karnak.server.tables), the
game's topic carries ``{"event": "rematch", "offer": {...}}`` to every page of the game,
in every process (the hub's game topics travel), and ``GET /api/games/{id}/rematch`` gives
the offer to a page opened later. The page (departure.js) shows it in its rematch slot with
a link to the table.

An offer holds public facts only: the table, the names of the players who took their seat
in it already (as every seat's page names them), and how many seats are still open.
"""

from __future__ import annotations

from typing import Any

from karnak.server.hub import Hub, game_topic
from karnak.server.rooms import Room
from karnak.server.tables.store import SEAT_BOT, Table

#: The event on a game's topic.
REMATCH = "rematch"


def offer_of(room: Room, table: Table | None) -> dict[str, Any] | None:
    """The rematch of ``room`` as its pages show it (None: nobody asked)."""
    if table is None:
        return None
    count = len(table.seats)
    joined = []
    for info in room.seats:
        moved = table.seats[(info.seat + 1) % count] if count else None
        if moved is not None and moved.kind != SEAT_BOT and not moved.is_open and moved.name:
            joined.append(moved.name)
    creator = next(
        (
            s.name
            for s in table.seats
            if s.account is not None and s.account == table.creator_account
        ),
        None,
    )
    return {
        "table": table.id,
        "status": table.status,
        "by": creator or (joined[0] if joined else None),
        "joined": joined,
        "open": sum(1 for seat in table.seats if seat.is_open),
        "url": f"/tables/{table.id}",
    }


def announce(hub: Hub, room: Room, table: Table) -> None:
    """Tell every page of the finished game of its rematch."""
    offer = offer_of(room, table)
    if offer is not None:
        hub.publish(game_topic(room.id), REMATCH, {"message": {"offer": offer}})

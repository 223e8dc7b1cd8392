"""``POST /api/games/{id}/leave``: a person leaves a game and a bot takes the seat over.

The seat is named by its link's token or by the session of the account holding it (then
with the CSRF token, as every write by session). It counts as a move for the client's rate
limit. The page asks to confirm before it sends this: it cannot be undone.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel

from karnak.server.api import (
    ApiError,
    Token,
    TokenHeader,
    moves_allowed,
    resolve_seat,
    service_of,
)
from karnak.server.errors import error_responses
from karnak.server.timebank.abandonment import LEFT, LeaveError, replace
from karnak.server.timebank.service import TimeBank
from karnak.server.timebank.speeds import listed

router = APIRouter(prefix="/api")


class LeaveOut(BaseModel):
    game_id: str
    seat: int
    #: The bot that plays the seat from now on.
    bot: str
    #: Where the person who left can go on watching (as a spectator).
    watch_url: str


@router.post(
    "/games/{game_id}/leave",
    operation_id="leave_game",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(403, 404, 409, 410, 422, 429),
)
async def leave_game(
    request: Request, game_id: str, token: Token = None, x_token: TokenHeader = None
) -> LeaveOut:
    """Leave the game for good: a bot (medium level) plays the seat to the end and the seat
    counts as last for ratings (see docs/players.md). The seat's link opens nothing after."""
    service = service_of(request)
    room, seat = await resolve_seat(request, service, game_id, token or x_token, "leave")
    timebank: TimeBank = request.app.state.timebank
    try:
        info = await replace(service, timebank.store, room, seat, LEFT)
    except LeaveError as exc:  # with the version: the page shows the game as it is now
        raise ApiError(409, str(exc), room.version_for(None)) from exc
    return LeaveOut(game_id=room.id, seat=seat, bot=info.bot or "", watch_url=f"/games/{room.id}")


@router.get("/speeds", operation_id="list_speeds")
async def list_speeds() -> dict[str, Any]:
    """The speeds a game may be played at, by name (karnak.server.timebank.speeds):
    real-time (minutes a game) and turn-based (hours to days a move), for the lobby's form;
    ``time_control: {"speed": name}`` chooses one."""
    return listed()

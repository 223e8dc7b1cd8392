"""Quick match over HTTP: join the queue, watch the ticket, leave, or take bots.

For accounts only: a table is formed by rating and by blocks, which a guest has neither
of. Everything is the asking account's own ticket; nothing here tells anything of anyone
else but how many wait for the same table.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from karnak.server.accounts.routes import logged_in
from karnak.server.api import creates_allowed, moves_allowed
from karnak.server.errors import error_responses
from karnak.server.inputs import WHOLE, Word
from karnak.server.matchmaking.service import MOST_PLAYERS, MatchService

router = APIRouter(prefix="/api/quickmatch")


def matches_of(request: Request) -> MatchService:
    matches: MatchService = request.app.state.matches
    return matches


class QuickMatchIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    game: Word
    players: Annotated[int, Field(ge=2, le=MOST_PLAYERS), WHOLE] = 2


@router.get("", operation_id="quickmatch_ticket", responses=error_responses(401))
async def quickmatch_ticket(request: Request) -> dict[str, Any]:
    """The account's ticket: waiting (how long, its window, when bots are offered),
    matched or with bots (the game), cancelled; ``{"ticket": null}`` when it has none."""
    session = await logged_in(request, writing=False)
    return await matches_of(request).state(session.account.id)


@router.post(
    "",
    operation_id="quickmatch_join",
    dependencies=[Depends(creates_allowed)],
    responses=error_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
async def quickmatch_join(request: Request, body: QuickMatchIn) -> dict[str, Any]:
    """Join the queue for ``game`` at a table of ``players`` (2 to 5); asking again for the
    same keeps the place, asking for another replaces the ticket."""
    session = await logged_in(request, writing=True)
    return await matches_of(request).ask(session.account.id, body.game, body.players)


@router.delete(
    "",
    operation_id="quickmatch_leave",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(401, 403, 429),
)
async def quickmatch_leave(request: Request) -> dict[str, bool]:
    """Leave the queue (``cancelled`` false when the account was not waiting)."""
    session = await logged_in(request, writing=True)
    return {"cancelled": await matches_of(request).cancel(session.account.id)}


@router.post(
    "/bots",
    operation_id="quickmatch_bots",
    dependencies=[Depends(creates_allowed)],
    responses=error_responses(401, 403, 409, 429),
)
async def quickmatch_bots(request: Request, response: Response) -> dict[str, Any]:
    """After the wait, play now: the other seats go to bots at the player's level."""
    session = await logged_in(request, writing=True)
    response.status_code = 201
    return await matches_of(request).with_bots(session.account.id)

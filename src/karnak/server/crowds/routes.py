"""Crowd tables over HTTP: the upcoming crowds (public), joining and leaving (accounts),
scheduling one (administrators)."""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import BaseModel, ConfigDict, Field

from karnak.server.accounts.auth import session_of
from karnak.server.accounts.routes import logged_in
from karnak.server.admin.routes import administrator
from karnak.server.api import check_game_id, moves_allowed
from karnak.server.crowds.service import CrowdService
from karnak.server.errors import error_responses
from karnak.server.inputs import WHOLE, Word

router = APIRouter(prefix="/api")


def crowds_of(request: Request) -> CrowdService:
    crowds: CrowdService = request.app.state.crowds
    return crowds


class CrowdIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    #: When it starts (ISO 8601; without a zone, UTC).
    starts_at: dt.datetime
    game: Word | None = None
    seats: Annotated[int, Field(ge=2, le=1_000), WHOLE] | None = None
    turn_timer: Annotated[float, Field(ge=10, le=3_600)] | None = None


@router.get("/crowds", operation_id="list_crowds", responses=error_responses(422))
async def list_crowds(request: Request) -> dict[str, Any]:
    """The crowd tables still to start, soonest first: when, how many joined of how many
    seats, the turn timer, and whether the logged-in reader joined."""
    session = await session_of(request)
    account = session.account.id if session is not None else None
    return {"crowds": await crowds_of(request).upcoming(account)}


@router.post(
    "/crowds/{crowd_id}/join",
    operation_id="join_crowd",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(401, 403, 404, 409, 422, 429),
)
async def join_crowd(request: Request, crowd_id: str) -> dict[str, Any]:
    """Join a crowd table before it starts (again: nothing changes)."""
    check_game_id(crowd_id)  # the same alphabet as a game's id
    session = await logged_in(request, writing=True)
    crowds = crowds_of(request)
    return crowds.crowd_out(await crowds.join(crowd_id, session.account.id), True)


@router.delete(
    "/crowds/{crowd_id}/join",
    operation_id="leave_crowd",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(401, 403, 404, 409, 422, 429),
)
async def leave_crowd(request: Request, crowd_id: str) -> dict[str, bool]:
    """Leave a crowd table before it starts."""
    check_game_id(crowd_id)
    session = await logged_in(request, writing=True)
    return {"left": await crowds_of(request).leave(crowd_id, session.account.id)}


@router.post(
    "/admin/crowds",
    status_code=201,
    operation_id="admin_schedule_crowd",
    responses=error_responses(400, 401, 403, 404, 409, 413, 422),
)
async def schedule_crowd(request: Request, body: CrowdIn) -> dict[str, Any]:
    """Schedule a crowd table (administrators): a start in the next 30 days, the game (the
    timetable's by default), its seats and turn timer."""
    admin = await administrator(request, writing=True)
    crowds = crowds_of(request)
    crowd = await crowds.schedule(body.starts_at, body.game, body.seats, body.turn_timer, admin.id)
    return crowds.crowd_out(crowd, False)

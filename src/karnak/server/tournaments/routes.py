"""Tournaments over HTTP: create, list, read, invite, join, leave, start.

A tournament's page shows public facts only: who plays whom in each round (published when
the round starts), the places of the games that are over, the standings from those. A
running game shows as its link alone, so nothing a game hides shows here.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from karnak.server.accounts.auth import session_of
from karnak.server.accounts.routes import logged_in
from karnak.server.api import check_game_id, creates_allowed, moves_allowed
from karnak.server.errors import error_responses
from karnak.server.inputs import WHOLE, Word
from karnak.server.timebank.clock import MAX_BANK, MAX_PER_MOVE, MIN_BANK, MIN_PER_MOVE
from karnak.server.timebank.inputs import SpeedName
from karnak.server.timebank.speeds import speed_named
from karnak.server.tournaments.service import (
    MOST_PLAYERS,
    MOST_ROUNDS,
    NewTournament,
    TournamentService,
)

router = APIRouter(prefix="/api/tournaments")


def tournaments_of(request: Request) -> TournamentService:
    tournaments: TournamentService = request.app.state.tournaments
    return tournaments


class SpeedIn(BaseModel):
    """A speed by name (GET /api/speeds)."""

    model_config = ConfigDict(extra="forbid")

    speed: SpeedName

    def to_dict(self) -> dict[str, float]:
        named = speed_named(self.speed)
        return {"per_move": named.per_move, "bank": named.bank}


class SecondsIn(BaseModel):
    """A time per move and a bank, in seconds."""

    model_config = ConfigDict(extra="forbid")

    per_move: Annotated[float, Field(ge=MIN_PER_MOVE, le=MAX_PER_MOVE, allow_inf_nan=False)]
    bank: Annotated[float, Field(ge=MIN_BANK, le=MAX_BANK, allow_inf_nan=False)]

    def to_dict(self) -> dict[str, float]:
        return {"per_move": self.per_move, "bank": self.bank}


class TournamentIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    #: Shown as written: 1 to 80 characters, at least one that is not a space.
    name: Annotated[str, Field(min_length=1, max_length=80, pattern=r"\S")]
    game: Word
    #: "double": double elimination (out after a second loss).
    format: Literal["swiss", "elimination", "double", "pools"]
    rounds: Annotated[int, Field(ge=1, le=MOST_ROUNDS), WHOLE] = 3
    max_players: Annotated[int, Field(ge=2, le=MOST_PLAYERS), WHOLE] = 8
    #: The level of the bots that fill the field at the start (none: no bots).
    bots: Literal["easy", "medium", "hard", "expert", "master"] | None = None
    turn_timer: Annotated[float, Field(ge=10, le=3_600)] | None = None
    #: The games' time per move and bank (a real-time or turn-based speed by name, or the
    #: seconds), instead of a turn timer. Two shapes rather than one with a rule between
    #: its fields, so that the schema alone says what is valid.
    time_control: SpeedIn | SecondsIn | None = None
    #: Only the accounts its creator invites may join.
    invite_only: bool = False
    #: When it starts by itself (ISO 8601; without a zone, UTC); none: its creator starts it.
    starts_at: dt.datetime | None = None


class InvitationsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    #: Account names (1 to 64 of them).
    names: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=40)]],
        Field(min_length=1, max_length=64),
    ]


async def reader(request: Request) -> int | None:
    session = await session_of(request)
    return session.account.id if session is not None else None


@router.get("", operation_id="list_tournaments", responses=error_responses(422))
async def list_tournaments(
    request: Request, limit: Annotated[int, Query(ge=1, le=100)] = 50
) -> dict[str, Any]:
    """The newest tournaments, open, running and finished."""
    service = tournaments_of(request)
    account = await reader(request)
    found = await service.executor.run(service.store.listed, limit)
    return {"tournaments": [service.out(t, account) for t in found]}


@router.post(
    "",
    status_code=201,
    operation_id="create_tournament",
    dependencies=[Depends(creates_allowed)],
    responses=error_responses(400, 401, 403, 404, 413, 422, 429),
)
async def create_tournament(request: Request, body: TournamentIn) -> dict[str, Any]:
    """Create a tournament (its creator need not play in it: join to play)."""
    session = await logged_in(request, writing=True)
    starts = body.starts_at
    if starts is not None and starts.tzinfo is None:
        starts = starts.replace(tzinfo=dt.UTC)
    service = tournaments_of(request)
    created = await service.create(
        session.account.id,
        session.account.name,
        NewTournament(
            body.name.strip(),
            body.game,
            body.format,
            body.rounds,
            body.max_players,
            body.bots,
            body.turn_timer,
            starts,
            body.invite_only,
            body.time_control.to_dict() if body.time_control is not None else None,
        ),
    )
    return await read(service, created, session.account.id)


async def read(service: TournamentService, tournament: Any, account: int | None) -> dict[str, Any]:
    """The tournament as ``account`` may read it (its creator: with who is invited)."""
    invited = None
    if account is not None and tournament.creator == account and tournament.invite_only:
        invited = await service.executor.run(service.store.invited_names, tournament.id)
    return service.out(tournament, account, invited)


@router.get("/{tournament_id}", operation_id="get_tournament", responses=error_responses(404, 422))
async def get_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """A tournament: its players, each round's pairings, results and standings."""
    check_game_id(tournament_id)
    service = tournaments_of(request)
    return await read(service, await service.get(tournament_id), await reader(request))


@router.post(
    "/{tournament_id}/invitations",
    operation_id="invite_to_tournament",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(400, 401, 403, 404, 409, 413, 422, 429),
)
async def invite_to_tournament(
    request: Request, tournament_id: str, body: InvitationsIn
) -> dict[str, Any]:
    """Invite accounts by name to a tournament by invitation (its creator, before the
    start). The answer names who was newly invited and the names that are nobody's."""
    check_game_id(tournament_id)
    session = await logged_in(request, writing=True)
    return await tournaments_of(request).invite(
        tournament_id, session.account.id, session.account.name, body.names
    )


@router.post(
    "/{tournament_id}/join",
    operation_id="join_tournament",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(401, 403, 404, 409, 422, 429),
)
async def join_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    check_game_id(tournament_id)
    session = await logged_in(request, writing=True)
    service = tournaments_of(request)
    joined = await service.join(tournament_id, session.account.id, session.account.name)
    return await read(service, joined, session.account.id)


@router.delete(
    "/{tournament_id}/join",
    operation_id="leave_tournament",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(401, 403, 404, 409, 422, 429),
)
async def leave_tournament(request: Request, tournament_id: str) -> dict[str, bool]:
    check_game_id(tournament_id)
    session = await logged_in(request, writing=True)
    return {"left": await tournaments_of(request).leave(tournament_id, session.account.id)}


@router.post(
    "/{tournament_id}/start",
    operation_id="start_tournament",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(401, 403, 404, 409, 422, 429),
)
async def start_tournament(request: Request, tournament_id: str) -> dict[str, Any]:
    """Start now (its creator): bots fill the field if allowed, then round 1."""
    check_game_id(tournament_id)
    session = await logged_in(request, writing=True)
    service = tournaments_of(request)
    started = await service.start(tournament_id, session.account.id)
    return await read(service, started, session.account.id)

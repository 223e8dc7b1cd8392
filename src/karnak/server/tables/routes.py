"""The open tables' JSON API, the rematch and "my games".

A logged-in person acts with the session (writes carry the CSRF token); a guest with the
ticket the server gave them for the table (``ticket`` query parameter or
``X-Karnak-Ticket`` header), which needs no CSRF token: nothing ambient carries it. The
public list (``GET /api/tables``) and a table seen without a ticket or session show public
facts only: the game, options and timer, each seat's state and the names of those seated,
when it was made; never a ticket, nor whom a reserved seat is kept for (only its creator
and the invited account see that).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Header, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from karnak.core.registry import DEFAULT_GAME, get_game
from karnak.i18n import t
from karnak.server.accounts.auth import CsrfError, check_csrf, session_of
from karnak.server.accounts.routes import logged_in
from karnak.server.api import (
    ApiError,
    client_host,
    creates_allowed,
    moves_allowed,
    resolve,
    service_of,
)
from karnak.server.errors import error_responses
from karnak.server.inputs import WHOLE, Options, SeatName, ShortText, Word
from karnak.server.rematch_offers import announce, offer_of
from karnak.server.rooms import hash_token
from karnak.server.service import MAX_TURN_TIMER
from karnak.server.tables.my_games import my_games
from karnak.server.tables.service import (
    Actor,
    Outcome,
    SeatWish,
    TableService,
    client_hash,
    role,
)
from karnak.server.tables.store import OPEN, SEAT_ACCOUNT, SEAT_BOT, SEAT_GUEST, Table
from karnak.server.timebank.inputs import TimeControlIn

router = APIRouter(prefix="/api")
STRICT = ConfigDict(extra="forbid", strict=True)

#: What a table id can look like (anything else is no table, before the database).
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
#: The most seats a table has (Egyptia's); seat numbers count from 0.
MAX_SEATS = 99

Ticket = Annotated[str | None, Query(max_length=100, description="a guest's ticket for this table")]
TicketHeader = Annotated[str | None, Header(alias="X-Karnak-Ticket", max_length=100)]
Token = Annotated[str | None, Query(max_length=100, description="the seat's secret token")]
TokenHeader = Annotated[str | None, Header(alias="X-Karnak-Token", max_length=100)]
AccountName = Annotated[ShortText, Field(min_length=1, max_length=40)]
SeatNumber = Annotated[int, Field(ge=0, lt=MAX_SEATS, description="counted from 0"), WHOLE]


# ---------------------------------------------------------------------- bodies
class TableSeatIn(BaseModel):
    model_config = STRICT

    kind: Literal["human", "open", "bot"] = Field(
        default="open",
        description="'human': your own seat (one at most); 'open': for anyone to join "
        "(or kept for an invited account); 'bot': a bot",
    )
    name: SeatName | None = Field(default=None, description="a guest's or a bot's name")
    bot: Word | None = Field(default=None, description="a level (easy to master) or a bot spec")
    invite: AccountName | None = Field(
        default=None, description="an open seat kept for the account of this name"
    )


class TableIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [
                {
                    "game": DEFAULT_GAME,
                    "seats": [{"kind": "human", "name": "Ana"}, {"kind": "open"}, {"kind": "bot"}],
                }
            ]
        },
    )

    game: Word = DEFAULT_GAME
    seats: list[TableSeatIn] = Field(min_length=1, max_length=MAX_SEATS)
    options: Options = Field(default_factory=dict)
    turn_timer: float | None = Field(
        default=None, ge=1, le=MAX_TURN_TIMER, allow_inf_nan=False, description="seconds"
    )
    time_control: TimeControlIn | None = Field(
        default=None,
        description="a time per move and a bank per person for the game (not with turn_timer)",
    )


class JoinIn(BaseModel):
    model_config = STRICT

    seat: SeatNumber | None = Field(default=None, description="the first open seat if missing")
    name: SeatName | None = Field(default=None, description="a guest's name (not an account's)")


class FillIn(BaseModel):
    model_config = STRICT

    bot: Word | None = Field(default=None, description="a level (easy to master) or a bot spec")


class InviteIn(BaseModel):
    model_config = STRICT

    seat: SeatNumber
    name: AccountName


class WithdrawIn(BaseModel):
    model_config = STRICT

    seat: SeatNumber


# ---------------------------------------------------------------------- answers
class TableSeatOut(BaseModel):
    seat: int
    state: Literal["open", "reserved", "taken", "bot"]
    #: The name of whoever sits here (a bot's once the game has started or if given).
    name: str | None
    #: Who took the seat: an account or a guest.
    by: Literal["account", "guest"] | None
    bot: str | None
    #: Whom a reserved seat is kept for: shown to the table's creator and to that account.
    invited: str | None = None


class YouOut(BaseModel):
    creator: bool
    #: Your seat at the table, and the one kept for you (an invitation), if any.
    seat: int | None
    invited_seat: int | None


class TableOut(BaseModel):
    id: str
    game: str
    title: str
    players: int
    options: dict[str, Any]
    turn_timer: float | None
    #: The time bank the game will have ({"per_move": seconds, "bank": seconds}), or None.
    time_control: dict[str, float] | None
    status: Literal["open", "started"]
    seats: list[TableSeatOut]
    created_at: str
    expires_at: str | None
    rematch_of: str | None
    #: The game, once started.
    game_id: str | None
    #: What you are at the table (None in the public list, or for a stranger).
    you: YouOut | None
    #: The game's page for you once it started (a guest's with their seat's link).
    url: str | None


class TicketOut(BaseModel):
    table: TableOut
    #: A guest's ticket for this table: keep it, it is the seat's link once the game starts.
    ticket: str | None
    #: Whether this request made the table (a rematch asked again returns the same one).
    created: bool


class CancelledOut(BaseModel):
    cancelled: bool


class ResultOut(BaseModel):
    rank: int | None
    score: Any
    winners: list[str]
    #: A game of one player: its score and status, no winner (karnak.server.tables.my_games).
    solo: bool = False
    #: The account left the game (a bot finished its seat; it counts last).
    left: bool = False


class MyGameOut(BaseModel):
    game_id: str
    game: str
    title: str
    seat: int
    name: str
    players: list[str]
    status: str
    your_turn: bool
    #: Since when the game has waited for you (your turn only).
    waiting_since: str | None
    updated_at: str
    finished_at: str | None
    result: ResultOut | None
    url: str
    reason: str | None = None
    #: What tells two games apart: the game's number (its id's start), the others at the
    #: table, when it started (ISO, and in words of the reader's language).
    number: str = ""
    opponents: list[str] = Field(default_factory=list)
    started_at: str | None = None
    started: str | None = None


class MyGamesOut(BaseModel):
    running: list[MyGameOut]
    finished: list[MyGameOut]
    tables: list[TableOut]


# ---------------------------------------------------------------------- helpers
def tables_of(request: Request) -> TableService:
    tables: TableService = request.app.state.tables
    return tables


def check_table_id(table_id: str) -> None:
    if not TABLE_ID.fullmatch(table_id):
        raise ApiError(404, t("there is no table with this id"))


async def actor_of(request: Request, ticket: str | None, *, writing: bool) -> Actor:
    """A guest by their ticket, else the logged-in account (a write with its CSRF token),
    else a stranger."""
    client = client_hash(client_host(request))
    if ticket:
        return Actor(None, hash_token(ticket), client)
    session = await session_of(request)
    if session is None:
        return Actor(None, None, client)
    if writing:
        try:
            check_csrf(request, session)
        except CsrfError as exc:
            raise ApiError(403, str(exc)) from exc
    return Actor(session.account, None, client)


def table_out(
    tables: TableService, table: Table, actor: Actor | None = None, ticket: str | None = None
) -> TableOut:
    """The table as ``actor`` may see it (None: the public facts). ``ticket``: the guest's
    own ticket, for their seat's link once the game has started."""
    you = role(table, actor) if actor is not None else None
    if you is not None and not (
        you.creator or you.seat is not None or you.invited_seat is not None
    ):
        you = None
    seats = []
    for seat in table.seats:
        if seat.kind == SEAT_BOT:
            state: Literal["open", "reserved", "taken", "bot"] = "bot"
        elif seat.kind in (SEAT_ACCOUNT, SEAT_GUEST):
            state = "taken"
        else:
            state = "reserved" if seat.invited is not None else "open"
        sees_invitee = you is not None and (you.creator or you.invited_seat == seat.seat)
        seats.append(
            TableSeatOut(
                seat=seat.seat,
                state=state,
                name=seat.name if state in ("taken", "bot") else None,
                by="account"
                if seat.kind == SEAT_ACCOUNT
                else "guest"
                if seat.kind == SEAT_GUEST
                else None,
                bot=seat.bot if state == "bot" else None,
                invited=seat.invited_name if state == "reserved" and sees_invitee else None,
            )
        )
    url = None
    if table.game_id is not None:
        url = f"/games/{table.game_id}"
        if you is not None and you.seat is not None and table.seats[you.seat].kind == SEAT_GUEST:
            url += f"?token={ticket}" if ticket else ""
    expires = tables.expires_at(table)
    return TableOut(
        id=table.id,
        game=table.game,
        title=get_game(table.game).title,
        players=len(table.seats),
        options=table.options,
        turn_timer=table.turn_timer,
        time_control=table.time_control,
        status="open" if table.status == OPEN else "started",
        seats=seats,
        created_at=table.created_at.isoformat(),
        expires_at=expires.isoformat() if expires is not None else None,
        rematch_of=table.rematch_of,
        game_id=table.game_id,
        you=YouOut(creator=you.creator, seat=you.seat, invited_seat=you.invited_seat)
        if you is not None
        else None,
        url=url,
    )


def ticket_out(
    tables: TableService, outcome: Outcome, actor: Actor, ticket: str | None
) -> TicketOut:
    """The answer to a request that may have given the guest a ticket."""
    if outcome.ticket is not None:
        actor = Actor(actor.account, hash_token(outcome.ticket), actor.client)
        ticket = outcome.ticket
    return TicketOut(
        table=table_out(tables, outcome.table, actor, ticket),
        ticket=outcome.ticket,
        created=outcome.created,
    )


#: The refusals of the routes that change a table.
TABLE_WRITE = error_responses(400, 403, 404, 409, 413, 422, 429)


# ---------------------------------------------------------------------- routes
async def changed_table(
    request: Request,
    table_id: str,
    ticket: str | None,
    change: Callable[[TableService, Actor], Awaitable[Table]],
) -> TableOut:
    """The common course of a write to a table: check the id, find who asks (session or
    ticket; a write), make the change, and answer the table as that person sees it, any
    refusal as its status."""
    check_table_id(table_id)
    tables = tables_of(request)
    actor = await actor_of(request, ticket, writing=True)
    table = await change(tables, actor)
    return table_out(tables, table, actor, ticket)


@router.get("/tables", operation_id="list_tables", responses=error_responses(422))
async def list_tables(request: Request, limit: int = Query(100, ge=1, le=200)) -> list[TableOut]:
    """The open tables, newest first: public facts only."""
    tables = tables_of(request)
    return [table_out(tables, table) for table in await tables.listed(limit)]


@router.post(
    "/tables",
    status_code=201,
    operation_id="create_table",
    dependencies=[Depends(creates_allowed)],
    responses=error_responses(400, 403, 413, 422, 429),
)
async def create_table(request: Request, body: TableIn) -> TicketOut:
    """A table with open seats; a guest gets a ticket (their seat's link once it starts)."""
    tables = tables_of(request)
    actor = await actor_of(request, None, writing=True)
    wishes = [SeatWish(s.kind, s.name, s.bot, s.invite) for s in body.seats]
    outcome = await tables.create(
        actor,
        body.game,
        wishes,
        body.options,
        body.turn_timer,
        body.time_control.to_dict() if body.time_control else None,
    )
    return ticket_out(tables, outcome, actor, None)


@router.get(
    "/tables/{table_id}", operation_id="get_table", responses=error_responses(403, 404, 422)
)
async def get_table(
    request: Request, table_id: str, ticket: Ticket = None, x_ticket: TicketHeader = None
) -> TableOut:
    """The table (open or started) as you see it: with your ticket or session, what you are
    at it and, once started, your game's link."""
    check_table_id(table_id)
    tables = tables_of(request)
    ticket = ticket or x_ticket
    actor = await actor_of(request, ticket, writing=False)
    table = await tables.table(table_id)
    tables.check_ticket(table, actor)
    return table_out(tables, table, actor, ticket)


@router.post(
    "/tables/{table_id}/join",
    operation_id="join_table",
    dependencies=[Depends(creates_allowed)],
    responses=TABLE_WRITE,
)
async def join_table(
    request: Request,
    table_id: str,
    body: JoinIn,
    ticket: Ticket = None,
    x_ticket: TicketHeader = None,
) -> TicketOut:
    """Take an open seat: your account's with your session, else a guest's under ``name``
    (you get a ticket). The last seat taken starts the game."""
    check_table_id(table_id)
    tables = tables_of(request)
    ticket = ticket or x_ticket
    actor = await actor_of(request, ticket, writing=True)
    outcome = await tables.join(actor, table_id, body.seat, body.name)
    return ticket_out(tables, outcome, actor, ticket)


@router.post(
    "/tables/{table_id}/leave",
    operation_id="leave_table",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(403, 404, 409, 422, 429),
)
async def leave_table(
    request: Request, table_id: str, ticket: Ticket = None, x_ticket: TicketHeader = None
) -> TableOut:
    """Leave your seat before the start (an invited account declines its seat)."""
    return await changed_table(
        request, table_id, ticket or x_ticket, lambda tables, actor: tables.leave(actor, table_id)
    )


@router.post(
    "/tables/{table_id}/start",
    operation_id="start_table",
    dependencies=[Depends(moves_allowed)],
    responses=TABLE_WRITE,
)
async def start_table(
    request: Request,
    table_id: str,
    body: FillIn,
    ticket: Ticket = None,
    x_ticket: TicketHeader = None,
) -> TableOut:
    """The creator fills every open seat with a bot and the game starts."""
    return await changed_table(
        request,
        table_id,
        ticket or x_ticket,
        lambda tables, actor: tables.fill(actor, table_id, body.bot),
    )


@router.post(
    "/tables/{table_id}/cancel",
    operation_id="cancel_table",
    dependencies=[Depends(moves_allowed)],
    responses=error_responses(403, 404, 409, 422, 429),
)
async def cancel_table(
    request: Request, table_id: str, ticket: Ticket = None, x_ticket: TicketHeader = None
) -> CancelledOut:
    """The creator cancels a table that has not started (the seated are told)."""
    check_table_id(table_id)
    tables = tables_of(request)
    actor = await actor_of(request, ticket or x_ticket, writing=True)
    await tables.cancel(actor, table_id)
    return CancelledOut(cancelled=True)


@router.post(
    "/tables/{table_id}/invite",
    operation_id="invite_to_table",
    dependencies=[Depends(moves_allowed)],
    responses=TABLE_WRITE,
)
async def invite_to_table(
    request: Request,
    table_id: str,
    body: InviteIn,
    ticket: Ticket = None,
    x_ticket: TicketHeader = None,
) -> TableOut:
    """The creator keeps an open seat for an account (by its name), which is told."""
    return await changed_table(
        request,
        table_id,
        ticket or x_ticket,
        lambda tables, actor: tables.invite(actor, table_id, body.seat, body.name),
    )


@router.post(
    "/tables/{table_id}/withdraw",
    operation_id="withdraw_invitation",
    dependencies=[Depends(moves_allowed)],
    responses=TABLE_WRITE,
)
async def withdraw_invitation(
    request: Request,
    table_id: str,
    body: WithdrawIn,
    ticket: Ticket = None,
    x_ticket: TicketHeader = None,
) -> TableOut:
    """The creator opens a reserved seat to anyone again."""
    return await changed_table(
        request,
        table_id,
        ticket or x_ticket,
        lambda tables, actor: tables.withdraw(actor, table_id, body.seat),
    )


@router.post(
    "/games/{game_id}/rematch",
    operation_id="rematch",
    dependencies=[Depends(creates_allowed)],
    responses=error_responses(403, 404, 409, 410, 422, 429),
)
async def rematch(
    request: Request, game_id: str, token: Token = None, x_token: TokenHeader = None
) -> TicketOut:
    """The same table again, from a finished game, for any of its seats (by its link or
    session): seats moved on by one, the same bots, the accounts invited, the guests' seats
    open; you take your new seat. One rematch per game: asking again returns it."""
    tables = tables_of(request)
    token = token or x_token
    if token:
        actor = Actor(None, None, client_hash(client_host(request)))
    else:
        actor = await actor_of(request, None, writing=True)
    room, seat = await resolve(service_of(request), game_id, token, actor.account_id)
    if seat is None:
        raise ApiError(
            403, t("a rematch is asked for by a player: use your seat's link, or log in")
        )
    outcome = await tables.rematch(room, seat, actor)
    announce(service_of(request).hub, room, outcome.table)  # live on every seat's page
    return ticket_out(tables, outcome, actor, None)


@router.get(
    "/games/{game_id}/rematch",
    operation_id="rematch_offer",
    responses=error_responses(404, 410, 422),
)
async def rematch_offer(request: Request, game_id: str) -> dict[str, Any]:
    """The rematch someone asked for after this game (``offer``: null when nobody did);
    public facts only (karnak.server.rematch_offers)."""
    room, _ = await resolve(service_of(request), game_id, None)
    tables = tables_of(request)
    found = await tables.executor.run(tables.store.by_rematch, room.id) if room.is_over else None
    return {"offer": offer_of(room, found)}


@router.get("/me/games", operation_id="my_games", responses=error_responses(401))
async def list_my_games(request: Request) -> MyGamesOut:
    """The logged-in account's games: running ones waiting on you first (the longest
    waiting first), then the others; finished ones with your result; your open tables."""
    session = await logged_in(request, writing=False)
    tables = tables_of(request)
    actor = Actor(session.account, None, "")
    found = await my_games(tables, session.account.id)
    return MyGamesOut(
        running=[MyGameOut(**entry) for entry in found.running],
        finished=[MyGameOut(**entry) for entry in found.finished],
        tables=[table_out(tables, table, actor) for table in found.tables],
    )

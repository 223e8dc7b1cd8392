"""A game's chat over HTTP: its history for everyone who can open the game, a new line for
its seats. Lines arrive live on the game's WebSocket as ``{"event": "chat", "line": ...}``.

A seat writes by its link's token (``token`` or ``X-Karnak-Token``, no CSRF token needed) or
by the session of the account holding it (with the CSRF token); a spectator gets 403, and so
does a seat a bot has taken over (its person left or ran out of time). Lines are
rate-limited per client (``ServerSettings.chat_lines_per_minute``), counted before the body
is read.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field
from pydantic_core import PydanticCustomError

from karnak.i18n import _
from karnak.server.accounts.auth import session_of
from karnak.server.api import (
    ApiError,
    Token,
    TokenHeader,
    account_of,
    check_unsealed,
    client_host,
    resolve,
    resolve_seat,
    service_of,
)
from karnak.server.chat.service import (
    HISTORY_DEFAULT,
    HISTORY_MAX,
    MAX_TEXT,
    ChatService,
    text_problem,
)
from karnak.server.errors import error_responses
from karnak.server.friends.service import FriendService
from karnak.server.http_limits import RateLimits
from karnak.server.inputs import TEXT_PATTERN, no_surrogates

router = APIRouter(prefix="/api")


def chat_of(request: Request) -> ChatService:
    chat: ChatService = request.app.state.chat
    return chat


def checked_text(value: str) -> str:
    problem = text_problem(value)
    if problem is not None:
        raise PydanticCustomError("chat_text", problem)
    return value


ChatText = Annotated[
    str,
    Field(
        min_length=1,
        max_length=MAX_TEXT,
        description="the line as written: no control characters or bidirectional marks",
        json_schema_extra={"pattern": TEXT_PATTERN},
    ),
    BeforeValidator(no_surrogates),
    AfterValidator(checked_text),
]


class ChatIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"examples": [{"text": "Well bid!"}]}
    )

    text: ChatText


async def chat_allowed(request: Request) -> None:
    """Counted before the body is validated: a client cannot send bad lines for free."""
    limits: RateLimits = request.app.state.rate_limits
    limits.chat_line(client_host(request))


@router.get(
    "/games/{game_id}/chat",
    operation_id="get_chat",
    responses=error_responses(403, 404, 410, 422),
)
async def get_chat(
    request: Request,
    game_id: str,
    token: Token = None,
    x_token: TokenHeader = None,
    limit: int = Query(HISTORY_DEFAULT, ge=1, le=HISTORY_MAX),
    before: int | None = Query(None, ge=1, le=2**31 - 1, description="lines before this one"),
) -> dict[str, Any]:
    """The game's chat, oldest first (the newest ``limit`` lines), for anyone who can open
    the game; ``seat`` and ``can_write`` say what the asker is (a spectator only reads).
    The lines of accounts the logged-in reader blocked are left out, and ``hidden`` names
    those accounts (the page drops their lines as they arrive too)."""
    service = service_of(request)
    token = token or x_token
    account = await account_of(request, token, writing=False)
    room, seat = await resolve(service, game_id, token, account)
    check_unsealed(room, seat)  # a game of the day's chat is its player's alone
    reader = await session_of(request)
    friends: FriendService = request.app.state.friends
    blocked = await friends.blocks.listed(reader.account) if reader is not None else []
    hidden = frozenset(entry.account.id for entry in blocked)
    lines = await chat_of(request).history(room.id, limit, before, hidden)
    return {
        "lines": [line.to_json() for line in lines],
        "seat": seat,
        "can_write": seat is not None and not room.seats[seat].is_bot,
        "hidden": [entry.account.name for entry in blocked],
    }


@router.post(
    "/games/{game_id}/chat",
    status_code=201,
    operation_id="post_chat",
    dependencies=[Depends(chat_allowed)],
    responses=error_responses(400, 403, 404, 409, 410, 413, 422, 429),
)
async def post_chat(
    request: Request,
    game_id: str,
    body: ChatIn,
    token: Token = None,
    x_token: TokenHeader = None,
) -> dict[str, Any]:
    """A line from the token's seat (or the logged-in account's): stored, then sent to every
    socket of the game."""
    service = service_of(request)
    room, seat = await resolve_seat(request, service, game_id, token or x_token, "chat")
    if room.seats[seat].is_bot:
        # a person who left (or ran out of time) handed the seat to a bot: the seat's
        # voice went with them, so no line is signed by a seat its writer no longer plays
        raise ApiError(403, _("a bot plays this seat now: its chat is closed to this link"))
    line = await chat_of(request).post(room, seat, body.text)
    return {"line": line.to_json()}

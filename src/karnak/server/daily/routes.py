"""The game of the day over HTTP (karnak.server.daily.service says how a day works).

What these answers show of other players is their numbers alone (score, status, plagues,
time) until the day is over; only then does a leaderboard link each game, whose page,
record and replay open at the same moment. Nothing here depends on the deal itself: the
seed never leaves the server before the day is over.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request, Response
from pydantic import BaseModel

from karnak.i18n import _
from karnak.server.accounts.auth import session_of
from karnak.server.accounts.store import AccountError, clean_name
from karnak.server.api import (
    ApiError,
    Token,
    TokenHeader,
    account_of,
    check_game_id,
    client_host,
    creates_allowed,
    resolve,
    service_of,
)
from karnak.server.capacity import Creator
from karnak.server.daily.service import MAX_CALENDAR_DAYS, DailyService
from karnak.server.errors import error_responses

router = APIRouter(prefix="/api/daily")

#: The most entries of a leaderboard one answer holds, and the deepest page.
MAX_PAGE = 100
MAX_OFFSET = 100_000
#: The longest day text looked at (``YYYY-MM-DD`` or ``today``).
DAY_TEXT = 16


def daily_of(request: Request) -> DailyService:
    daily: DailyService = request.app.state.daily
    return daily


class PlayedOut(BaseModel):
    day: str
    game_id: str
    url: str
    #: A guest's seat token (shown this once; it is in ``url`` too), None for an account.
    token: str | None
    ranked: bool
    resumed: bool


class ShareOut(BaseModel):
    text: str


@router.get("", operation_id="daily_today", responses=error_responses(404))
async def daily_today(request: Request) -> dict[str, Any]:
    """Today's game of the day as the caller sees it: the time left, the caller's game and
    streak (logged in), the bots' scores to beat and how many have finished."""
    session = await session_of(request)
    account = session.account if session is not None else None
    return await daily_of(request).overview(
        account.id if account else None, account.name if account else None
    )


@router.post(
    "/{day}/play",
    operation_id="daily_play",
    dependencies=[Depends(creates_allowed)],
    responses={
        200: {"description": "The account's game of that day, resumed"},
        201: {"description": "A new game of that day"},
        **error_responses(403, 404, 413, 422, 429, 503),
    },
)
async def daily_play(request: Request, response: Response, day: str) -> PlayedOut:
    """Start (201) or resume (200) a game of ``day`` (``YYYY-MM-DD`` or ``today``): an
    account's only game of that day (ranked if the day is today), or a guest's new,
    unranked game with its seat's token."""
    if len(day) > DAY_TEXT:
        raise ApiError(404, _("a day is written YYYY-MM-DD (or 'today')"))
    account = await account_of(request, None, writing=True)  # a session's write: its CSRF
    session = await session_of(request) if account is not None else None
    name = session.account.name if session is not None else None
    played = await daily_of(request).play(
        day, account, name, Creator.of(client_host(request), account)
    )
    response.status_code = 200 if played.resumed else 201
    url = f"/games/{played.game_id}" + (f"?token={played.token}" if played.token else "")
    return PlayedOut(
        day=played.day,
        game_id=played.game_id,
        url=url,
        token=played.token,
        ranked=played.ranked,
        resumed=played.resumed,
    )


@router.get("/calendar", operation_id="daily_calendar", responses=error_responses(404, 422))
async def daily_calendar(
    request: Request,
    days: Annotated[int, Query(ge=1, le=MAX_CALENDAR_DAYS)] = 30,
) -> dict[str, Any]:
    """The days so far, newest first, with how many finished and the caller's game of each
    (past days can be played as practice)."""
    session = await session_of(request)
    return await daily_of(request).calendar(session.account.id if session else None, days)


@router.get("/players/{name}", operation_id="daily_player", responses=error_responses(404, 422))
async def daily_player(request: Request, name: str) -> dict[str, Any]:
    """A player's days: streaks and every ranked game that finished, newest first."""
    try:
        name = clean_name(name)
    except AccountError:
        raise ApiError(404, _("there is no player with this name")) from None
    found = await daily_of(request).history(name)
    if found is None:
        raise ApiError(404, _("there is no player with this name"))
    return found


@router.get(
    "/share/{game_id}",
    operation_id="daily_share",
    responses=error_responses(403, 404, 409, 422),
)
async def daily_share(
    request: Request, game_id: str, token: Token = None, x_token: TokenHeader = None
) -> ShareOut:
    """A finished game of the day as its player shares it: the day, the result, one mark a
    round, and nothing of the deal."""
    check_game_id(game_id)
    token = token or x_token
    account = await account_of(request, token, writing=False)
    _room, seat = await resolve(service_of(request), game_id, token, account)
    if seat is None:
        raise ApiError(403, _("only the game's player can share its result"))
    return ShareOut(text=await daily_of(request).share(game_id))


@router.get(
    "/{day}/leaderboard", operation_id="daily_leaderboard", responses=error_responses(404, 422)
)
async def daily_leaderboard(
    request: Request,
    day: str,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
) -> dict[str, Any]:
    """A day's ranked results, best first (score, fewer plagues, less time); the games are
    linked once the day is over, and not before."""
    if len(day) > DAY_TEXT:
        raise ApiError(404, _("a day is written YYYY-MM-DD (or 'today')"))
    return await daily_of(request).leaderboard(day, offset, limit)

"""The accounts' JSON API: sign up, log in and out, change the password, claim a seat.

``GET /api/account`` says who is logged in (``{"account": null}`` for nobody) and gives the
page the CSRF token it must send with writes. Sign-up and log-in set the session cookies; a
wrong name or password is one answer (401) whichever was wrong. Sign-ups, log-ins and
password changes are rate-limited per client.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from karnak.i18n import _
from karnak.server.accounts.attempts import NameAttempts
from karnak.server.accounts.auth import (
    CsrfError,
    accounts_of,
    check_csrf,
    clear_session_cookies,
    session_of,
    set_session_cookies,
)
from karnak.server.accounts.passwords import MAX_PASSWORD
from karnak.server.accounts.store import Session
from karnak.server.api import ApiError, check_game_id, service_of
from karnak.server.errors import error_responses
from karnak.server.forced_moves import router as forced_moves_router
from karnak.server.http_limits import RateLimits
from karnak.server.inputs import ShortText

router = APIRouter(prefix="/api")
STRICT = ConfigDict(extra="forbid", strict=True)

Password = Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


class Credentials(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        strict=True,
        json_schema_extra={
            "examples": [{"name": "Hatshepsut", "password": "two crowns, one Nile"}]
        },
    )

    name: Annotated[ShortText, Field(min_length=1, max_length=40)]
    password: Password


class PasswordChange(BaseModel):
    model_config = STRICT

    current: Password
    new: Password


class AccountOut(BaseModel):
    id: int
    name: str


class Me(BaseModel):
    #: None when nobody is logged in.
    account: AccountOut | None
    #: The CSRF token to send in the X-CSRF-Token header with every write (None: nobody).
    csrf: str | None


def me(session: Session | None) -> Me:
    if session is None:
        return Me(account=None, csrf=None)
    account = AccountOut(id=session.account.id, name=session.account.name)
    return Me(account=account, csrf=session.csrf)


async def attempts_allowed(request: Request) -> None:
    limits: RateLimits = request.app.state.rate_limits
    limits.account(request.client.host if request.client else None)


async def logged_in(request: Request, *, writing: bool) -> Session:
    """The request's session (401 without one); a write must carry the CSRF token (403)."""
    session = await session_of(request)
    if session is None:
        raise ApiError(401, _("log in first"))
    if writing:
        try:
            check_csrf(request, session)
        except CsrfError as exc:
            raise ApiError(403, str(exc)) from exc
    return session


def with_session(request: Request, token: str, session: Session, status: int = 200) -> Response:
    response = JSONResponse(me(session).model_dump(), status_code=status)
    set_session_cookies(request, response, token, session)
    return response


@router.get("/account", operation_id="who_am_i")
async def who_am_i(request: Request) -> Me:
    """Who is logged in with this browser's session cookie."""
    return me(await session_of(request))


@router.post(
    "/account/signup",
    status_code=201,
    operation_id="sign_up",
    response_model=Me,
    dependencies=[Depends(attempts_allowed)],
    responses=error_responses(400, 409, 413, 422, 429),
)
async def sign_up(request: Request, body: Credentials) -> Response:
    """A new account, logged in at once (sets the session cookies)."""
    token, session = await accounts_of(request).sign_up(body.name, body.password)
    return with_session(request, token, session, status=201)


@router.post(
    "/account/login",
    operation_id="log_in",
    response_model=Me,
    dependencies=[Depends(attempts_allowed)],
    # 403: the right password of a suspended or banned account (karnak.server.admin)
    responses=error_responses(400, 401, 403, 413, 422, 429),
)
async def log_in(request: Request, body: Credentials) -> Response:
    """Log in (sets the session cookies). A wrong name or password: 401, whichever it was.
    Attempts are counted per client and per name, from anywhere (429 past either)."""
    limits: RateLimits = request.app.state.rate_limits
    NameAttempts(limits.limiter, request.app.state.settings).count(body.name)
    opened = await accounts_of(request).log_in(body.name, body.password)
    if opened is None:
        raise ApiError(401, _("that name and password do not match an account"))
    return with_session(request, *opened)


@router.post(
    "/account/logout",
    status_code=204,
    operation_id="log_out",
    responses=error_responses(401, 403),
)
async def log_out(request: Request) -> Response:
    """End this session (the cookies are cleared)."""
    session = await logged_in(request, writing=True)
    await accounts_of(request).log_out(session)
    response = Response(status_code=204)
    clear_session_cookies(request, response)
    return response


@router.post(
    "/account/password",
    operation_id="change_password",
    dependencies=[Depends(attempts_allowed)],
    responses=error_responses(400, 401, 403, 413, 422, 429),
)
async def change_password(request: Request, body: PasswordChange) -> Me:
    """A new password; every other session of the account ends."""
    session = await logged_in(request, writing=True)
    await accounts_of(request).change_password(session, body.current, body.new)
    return me(session)


@router.post(
    "/games/{game_id}/claim",
    operation_id="claim_seat",
    responses=error_responses(401, 403, 404, 409, 410, 422),
)
async def claim_seat(
    request: Request,
    game_id: str,
    token: Annotated[str | None, Query(description="the seat's secret token")] = None,
) -> dict[str, Any]:
    """Make the guest seat of ``token`` this account's: its session then opens the game
    without the link (the link keeps working)."""
    session = await logged_in(request, writing=True)
    check_game_id(game_id)
    service = service_of(request)
    room = await service.room(game_id)
    seat = service.seat_of(room, token)
    if seat is None:
        raise ApiError(403, _("claim a seat with its link's token"))
    await service.claim_seat(room, seat, session.account.id)
    return {"game_id": room.id, "seat": seat, "account": session.account.name}


# The setting of moves that need no click (karnak.server.forced_moves): /api/forced-moves.
router.include_router(forced_moves_router)

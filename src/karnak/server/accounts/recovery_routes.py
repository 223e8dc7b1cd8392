"""Forgot password over HTTP: ask for a link, use it, and the page that does both.

``POST /api/account/password-reset`` takes a name or an e-mail address and answers 202 with
the same words whatever exists (karnak.server.accounts.recovery says why and how);
``POST /api/account/password-reset/confirm`` takes the link's token and the new password.
Neither needs a session: the token is the proof, and the reset logs nobody in (the person
logs in with the new password, on the account page). ``/reset`` is the page.

The router carries the service's life, as the e-mail's does: included after the e-mail's
router (app.py), it starts once the e-mail service exists.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Annotated

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse
from limits import RateLimitItemPerHour
from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from karnak.i18n import t
from karnak.server.accounts.passwords import MAX_PASSWORD
from karnak.server.accounts.recovery import MAX_ASKED, RecoveryService
from karnak.server.accounts.routes import attempts_allowed
from karnak.server.errors import error_responses
from karnak.server.http_limits import RateLimits, client_key
from karnak.server.inputs import no_surrogates
from karnak.server.limits import LimitError, ServerSettings
from karnak.server.pages import page

#: The token of a link: what ``secrets.token_urlsafe(32)`` writes (43 characters), with room.
TOKEN_PATTERN = r"^[A-Za-z0-9_-]+$"
MAX_TOKEN = 100


@asynccontextmanager
async def recovery_lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings: ServerSettings = app.state.settings
    limits: RateLimits = app.state.rate_limits
    app.state.recovery = RecoveryService(
        app.state.service.store.engine,
        app.state.executor,
        app.state.hub,
        app.state.mail,
        settings,
        limits.limiter,
    )
    try:
        yield
    finally:
        await app.state.recovery.settle()


router = APIRouter(lifespan=recovery_lifespan)


def recovery_of(request: Request) -> RecoveryService:
    recovery: RecoveryService = request.app.state.recovery
    return recovery


class ResetAsked(BaseModel):
    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"examples": [{"account": "Hatshepsut"}]}
    )

    #: The account's name, or its confirmed e-mail address.
    account: Annotated[
        str, Field(min_length=1, max_length=MAX_ASKED), BeforeValidator(no_surrogates)
    ]


class ResetAnswer(BaseModel):
    message: str


class NewPassword(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN, pattern=TOKEN_PATTERN)]
    password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


class ResetDone(BaseModel):
    reset: bool


async def requests_allowed(request: Request) -> None:
    """At most ``password_resets_per_hour`` requests per client (429 beyond)."""
    settings: ServerSettings = request.app.state.settings
    limits: RateLimits = request.app.state.rate_limits
    allowed = max(1, settings.password_resets_per_hour)
    host = request.client.host if request.client else None
    wait = limits.limiter.hit(RateLimitItemPerHour(allowed), "reset", client_key(host))
    if wait is None:
        return
    wait = min(3600.0, max(1.0, wait))
    raise LimitError(
        t(
            "too many requests from your address: at most {most} password resets an hour; "
            "try again in {minutes} min",
            most=allowed,
            minutes=math.ceil(wait / 60),
        ),
        status=429,
        retry_after=wait,
    )


@router.post(
    "/api/account/password-reset",
    status_code=202,
    operation_id="ask_password_reset",
    response_model=ResetAnswer,
    dependencies=[Depends(requests_allowed)],
    responses=error_responses(400, 413, 422, 429),
)
async def ask_password_reset(request: Request, body: ResetAsked) -> JSONResponse:
    """Send a link to choose a new password to the account's confirmed e-mail address. The
    answer is the same whether or not the account or the address exists."""
    recovery = recovery_of(request)
    recovery.requested(body.account)
    return JSONResponse({"message": recovery.answer()}, status_code=202)


@router.post(
    "/api/account/password-reset/confirm",
    operation_id="reset_password",
    dependencies=[Depends(attempts_allowed)],
    responses=error_responses(400, 413, 422, 429),
)
async def reset_password(request: Request, body: NewPassword) -> ResetDone:
    """Set a new password with a reset link's token (400 for a link that does not work:
    unknown, used, expired or replaced); every session of the account ends. Logs nobody in."""
    await recovery_of(request).reset(body.token, body.password)
    return ResetDone(reset=True)


@router.get("/reset", include_in_schema=False)
async def reset_page() -> HTMLResponse:
    """Ask for a link, or (with the link's token after ``#``) choose the new password (in
    the request's language: karnak.server.pages)."""
    return page("reset.html")

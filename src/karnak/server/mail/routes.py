"""The account's e-mail choices over HTTP, and the e-mail service's place in the app.

``GET /api/account/email`` says what the logged-in account receives (and whether this server
sends e-mail at all); ``POST`` changes it (with the CSRF token, as every write authenticated
by the session cookie). ``POST /api/account/email/confirm`` takes the one-time code of a
confirmation link; the code is the proof (it went to the address only), so it needs no
session: the link works in any browser, and confirming logs nobody in.

The router carries the service's life: including it in the app (one line in app.py) starts
the service after the app's own start-up (the games, the hub) and stops it first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import APIRouter, Depends, FastAPI, Request

from karnak.server.accounts.routes import attempts_allowed, logged_in
from karnak.server.api import ApiError
from karnak.server.errors import error_responses
from karnak.server.mail.preferences import ConfirmIn, PreferencesIn, PreferencesOut
from karnak.server.mail.service import MailService
from karnak.server.mail.settings import MailSettings


def configure_mail(app: FastAPI, settings: MailSettings) -> None:
    """Send e-mail with ``settings`` (``karnak serve`` calls it; without it e-mail is off)."""
    app.state.mail_settings = settings


@asynccontextmanager
async def mail_lifespan(app: FastAPI) -> AsyncIterator[None]:
    settings = getattr(app.state, "mail_settings", None) or MailSettings()
    service = app.state.service
    mail = MailService(settings, service.store.engine, app.state.executor, app.state.hub, service)
    app.state.mail = mail
    await mail.start()
    try:
        yield
    finally:
        await mail.stop()


router = APIRouter(prefix="/api", lifespan=mail_lifespan)


def mail_of(request: Request) -> MailService:
    mail: MailService = request.app.state.mail
    return mail


@router.get(
    "/account/email",
    operation_id="email_preferences",
    responses=error_responses(401),
)
async def email_preferences(request: Request) -> PreferencesOut:
    """The logged-in account's e-mail address and what it receives; ``enabled`` is false
    when this server sends no e-mail."""
    session = await logged_in(request, writing=False)
    mail = mail_of(request)
    found = await mail.preferences(session.account.id)
    return PreferencesOut.of(found, mail.enabled, **mail.settings_json())


@router.post(
    "/account/email",
    operation_id="set_email_preferences",
    responses=error_responses(400, 401, 403, 409, 413, 422, 429),
)
async def set_email_preferences(request: Request, body: PreferencesIn) -> PreferencesOut:
    """Set the address and what to receive. A new address gets a confirmation link and
    nothing else until it is confirmed; an empty one stops every e-mail. 409 when this
    server sends no e-mail; 429 when confirmations come too often."""
    session = await logged_in(request, writing=True)
    mail = mail_of(request)
    saved = await mail.update(session.account.id, body)
    return PreferencesOut.of(saved, mail.enabled, **mail.settings_json())


@router.post(
    "/account/email/confirm",
    operation_id="confirm_email",
    dependencies=[Depends(attempts_allowed)],
    responses=error_responses(400, 413, 422, 429),
)
async def confirm_email(request: Request, body: ConfirmIn) -> dict[str, bool]:
    """Confirm an address with the code of its confirmation link (422: unknown, used or
    expired). Tries count against the client's account attempts."""
    if not await mail_of(request).confirm(body.code):
        raise ApiError(
            422,
            "this confirmation link does not work: it was used already, has expired, or was "
            "replaced by a newer one; ask for a new one on your account page",
        )
    return {"confirmed": True}

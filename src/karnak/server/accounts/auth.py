"""Who is asking: the session cookie, its CSRF token, and the cookies' settings.

Two cookies are set at log-in:

- ``karnak_session``: the session's secret, HttpOnly (no script can read it), SameSite=Lax
  (not sent with cross-site writes), Secure whenever the browser would send it back that way
  (every https page, and http on this machine, which browsers treat as secure);
- ``karnak_csrf``: the session's CSRF token, readable by the page's own script, which sends it
  back in the ``X-CSRF-Token`` header with every write. Another site can make a browser send
  the session cookie but cannot read this one, so a write that carries the cookie without
  the matching header is refused (403).

A request that names a seat by its token (the secret link) needs no CSRF token: nothing
ambient authenticates it. WebSockets authenticated by the cookie must come from a page of
this server (their Origin is checked), since browsers send cookies with cross-site sockets.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from fastapi import Request, WebSocket
from fastapi.responses import Response

from karnak.i18n import t
from karnak.server.accounts.store import SESSION_DAYS, Session
from karnak.server.http_limits import client_key

if TYPE_CHECKING:
    from karnak.server.accounts.service import AccountService

SESSION_COOKIE = "karnak_session"
CSRF_COOKIE = "karnak_csrf"
CSRF_HEADER = "X-CSRF-Token"
LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


class CsrfError(Exception):
    """A write authenticated by the session cookie without its CSRF token."""


def accounts_of(request: Request | WebSocket) -> AccountService:
    accounts: AccountService = request.app.state.accounts
    return accounts


def client_hash(host: str | None) -> str:
    """The hash of a client's address as the rate limits count it (an IPv6 address by its
    /64); no address is stored, only this (karnak.server.tables keeps the same)."""
    return hashlib.sha256(client_key(host).encode()).hexdigest()


#: Where a request keeps the session read for it (an ASGI scope key): the language
#: middleware reads the session first (karnak.server.language), and the route then uses that
#: same reading instead of a second one, so a request reads its session once.
READ_SESSION = "karnak.session"


async def session_of(request: Request | WebSocket) -> Session | None:
    """The session of the request's cookie, if it has a live one (its address's hash is
    remembered with it, for administrators: karnak.server.admin)."""
    host = request.client.host if request.client else None
    return await session_for(
        accounts_of(request), request.scope, request.cookies.get(SESSION_COOKIE), host
    )


async def session_for(
    accounts: AccountService,
    scope: MutableMapping[str, Any],
    token: str | None,
    host: str | None,
) -> Session | None:
    """The session of ``token`` for the request of ``scope``: read once per request and kept
    in the scope for whatever asks again during the same request."""
    read: tuple[str | None, Session | None] | None = scope.get(READ_SESSION)
    if read is not None and read[0] == token:
        return read[1]
    session = await accounts.session(token, client_hash(host))
    scope[READ_SESSION] = (token, session)
    return session


def check_csrf(request: Request, session: Session) -> None:
    sent = request.headers.get(CSRF_HEADER, "")
    if not sent or not secrets.compare_digest(sent, session.csrf):
        raise CsrfError(
            t(
                "this write was authenticated by your session cookie but came without its "
                "CSRF token: send the {cookie} cookie's value in the {header} header",
                cookie=CSRF_COOKIE,
                header=CSRF_HEADER,
            )
        )


def same_origin(websocket: WebSocket) -> bool:
    """Whether a socket comes from a page of this server (or from no browser at all)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    host = websocket.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


def secure(request: Request) -> bool:
    host = (request.url.hostname or "").lower()
    return request.url.scheme == "https" or host in LOOPBACK


def set_session_cookies(request: Request, response: Response, token: str, session: Session) -> None:
    age = SESSION_DAYS * 24 * 3600
    response.set_cookie(
        SESSION_COOKIE, token, max_age=age, httponly=True, samesite="lax", secure=secure(request)
    )
    response.set_cookie(
        CSRF_COOKIE,
        session.csrf,
        max_age=age,
        httponly=False,
        samesite="strict",
        secure=secure(request),
    )


def clear_session_cookies(request: Request, response: Response) -> None:
    for name in (SESSION_COOKIE, CSRF_COOKIE):
        response.delete_cookie(name, secure=secure(request), samesite="lax")

"""The language of each request: the account's choice, else the browser's, else English.

Every HTTP request and WebSocket runs with :func:`karnak.i18n.current_language` set by
:class:`LanguageMiddleware`, in this order:

1. ``?lang=<code>`` in the address (a link to a page in one language; the pseudo-locale
   ``xx`` is accepted here, for translators and tests); a page opened so keeps it in the
   cookie below, so that its scripts' requests are answered in it too;
2. the logged-in account's setting (``accounts.language``, migration 0017_account_language);
3. the ``karnak_lang`` cookie (a guest's choice in the language menu);
4. the browser's ``Accept-Language`` (:func:`karnak.i18n.negotiate`);
5. English.

``GET /api/language`` tells the page what was chosen and from where; ``PUT /api/language``
records a choice (the account's when logged in, and the cookie in every case).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import MutableMapping
from http.cookies import SimpleCookie
from typing import Any, Literal
from urllib.parse import unquote_plus

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import Engine, select, update
from sqlalchemy.orm import sessionmaker

from karnak.i18n import (
    ENGLISH,
    LANGUAGE_NAMES,
    SUPPORTED,
    current_language,
    negotiate,
    normalise,
    use_language,
)
from karnak.server.accounts.auth import (
    SESSION_COOKIE,
    CsrfError,
    check_csrf,
    session_for,
    session_of,
)
from karnak.server.accounts.tables import AccountRow
from karnak.server.errors import ApiError, error_responses
from karnak.server.executor import DatabaseExecutor
from karnak.server.http_limits import ASGIApp, Receive, Send

#: The cookie holding a guest's (or a browser's) choice.
LANGUAGE_COOKIE = "karnak_lang"
#: The query parameter that picks a page's language.
LANGUAGE_QUERY = "lang"
#: How long the cookie lasts (a year).
COOKIE_SECONDS = 365 * 24 * 3600
#: Only this much of a query string or cookie header is looked at.
MAX_QUERY = 2048
MAX_COOKIE_HEADER = 4096
#: Paths whose language does not matter (no account is looked up for them).
QUIET_PREFIXES = ("/static/", "/healthz", "/readyz", "/metrics", "/favicon.ico", "/docs")
#: How long an account's language is remembered by a process, and how many are.
CACHE_SECONDS = 5.0
CACHE_SIZE = 10_000

Source = Literal["query", "account", "cookie", "browser", "default"]


def choose(
    *,
    query: str | None = None,
    account: str | None = None,
    cookie: str | None = None,
    accept_language: str | None = None,
) -> tuple[str, Source]:
    """The language of a request and where it came from (see the module's order)."""
    chosen = normalise(query[:16] if query else None, pseudo=True)
    if chosen is not None:
        return chosen, "query"
    chosen = normalise(account)
    if chosen is not None:
        return chosen, "account"
    chosen = normalise(cookie[:16] if cookie else None, pseudo=True)
    if chosen is not None:
        return chosen, "cookie"
    if accept_language:
        negotiated = negotiate(accept_language)
        return negotiated, "browser"
    return ENGLISH, "default"


def _header(scope: MutableMapping[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            text: str = value.decode("latin-1")
            return text
    return None


def _query_language(scope: MutableMapping[str, Any]) -> str | None:
    raw = scope.get("query_string", b"")[:MAX_QUERY].decode("latin-1")
    if "lang=" not in raw:
        return None
    for field in raw.split("&")[:64]:
        key, _, value = field.partition("=")
        if key == LANGUAGE_QUERY:
            return unquote_plus(value)[:16]
    return None


def _cookies(scope: MutableMapping[str, Any]) -> dict[str, str]:
    header = _header(scope, b"cookie")
    if not header:
        return {}
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header[:MAX_COOKIE_HEADER])
    except Exception:  # a malformed cookie header: no cookies (the language only)
        return {}
    return {name: morsel.value for name, morsel in jar.items()}


class AccountLanguages:
    """The accounts' languages: read and written in the database, remembered a few seconds."""

    def __init__(self, engine: Engine, executor: DatabaseExecutor) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.executor = executor
        self._cache: OrderedDict[int, tuple[float, str | None]] = OrderedDict()

    def _read(self, account_id: int) -> str | None:
        with self.sessions() as session:
            found = session.execute(
                select(AccountRow.language).where(AccountRow.id == account_id)
            ).scalar_one_or_none()
        return normalise(found)

    def _write(self, account_id: int, language: str | None) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(AccountRow).where(AccountRow.id == account_id).values(language=language)
            )

    async def get(self, account_id: int) -> str | None:
        now = time.monotonic()
        cached = self._cache.get(account_id)
        if cached is not None and cached[0] > now:
            return cached[1]
        found = await self.executor.run(self._read, account_id)
        self._cache[account_id] = (now + CACHE_SECONDS, found)
        self._cache.move_to_end(account_id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)
        return found

    async def set(self, account_id: int, language: str | None) -> None:
        await self.executor.run(self._write, account_id, language)
        self._cache.pop(account_id, None)


def languages_of(app: Any) -> AccountLanguages | None:
    """The application's :class:`AccountLanguages` (made on first use; None before the
    application has started)."""
    state = app.state
    found: AccountLanguages | None = getattr(state, "languages", None)
    executor = getattr(state, "executor", None)
    if found is None or found.executor is not executor:  # made again for each start
        accounts = getattr(state, "accounts", None)
        if accounts is None or executor is None:
            return None
        found = state.languages = AccountLanguages(accounts.store.engine, executor)
    return found


async def request_language(scope: MutableMapping[str, Any]) -> tuple[str, Source]:
    """The language of an HTTP or WebSocket request (see the module's order)."""
    query = _query_language(scope)
    if normalise(query, pseudo=True) is not None:
        return choose(query=query)
    cookies = _cookies(scope)
    account: str | None = None
    path: str = scope.get("path", "")
    token = cookies.get(SESSION_COOKIE)
    app = scope.get("app")
    if token and app is not None and not path.startswith(QUIET_PREFIXES):
        account = await _account_language(app, scope, token)
    return choose(
        account=account,
        cookie=cookies.get(LANGUAGE_COOKIE),
        accept_language=_header(scope, b"accept-language"),
    )


async def _account_language(app: Any, scope: MutableMapping[str, Any], token: str) -> str | None:
    languages = languages_of(app)
    accounts = getattr(app.state, "accounts", None)
    if languages is None or accounts is None:
        return None
    client = scope.get("client")
    try:
        session = await session_for(accounts, scope, token, client[0] if client else None)
        if session is None:
            return None
        return await languages.get(session.account.id)
    except Exception:  # the database is away: the request goes on, in the browser's language
        return None


class LanguageMiddleware:
    """Sets the current language for each HTTP request and WebSocket (pure ASGI, so the
    route, its dependencies and the tasks it starts all see it), and restores it after."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        language, source = await request_language(scope)
        path: str = scope.get("path", "")
        if (
            source == "query"
            and scope["type"] == "http"
            and not path.startswith(("/api/", "/static/"))
        ):
            send = _remembering(send, language)
        with use_language(language):
            await self.app(scope, receive, send)


def _remembering(send: Send, language: str) -> Send:
    """``send`` adding the cookie that keeps a page's ``?lang=`` for the requests its scripts
    make next (their answers, refusals included, are then in the same language)."""
    cookie = f"{LANGUAGE_COOKIE}={language}; Max-Age={COOKIE_SECONDS}; Path=/; SameSite=Lax"

    async def sending(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            headers.append((b"set-cookie", cookie.encode("latin-1")))
            message["headers"] = headers
        await send(message)

    return sending


# ---------------------------------------------------------------------- the API

router = APIRouter(prefix="/api")


class LanguageChoice(BaseModel):
    """A language of the site (``en``, ``de``, ``fr``), or null: let the browser decide."""

    model_config = ConfigDict(
        extra="forbid", strict=True, json_schema_extra={"examples": [{"language": "de"}]}
    )

    language: Literal["en", "de", "fr"] | None = Field(...)


class LanguageOption(BaseModel):
    code: str
    name: str


class LanguageOut(BaseModel):
    #: The language this request was answered in.
    language: str
    #: Where it came from: query, account, cookie, browser or default.
    source: str
    #: The logged-in account's setting (None: not logged in, or no choice made).
    account: str | None
    #: The languages to choose from, each named in itself.
    choices: list[LanguageOption]


def _choices() -> list[LanguageOption]:
    return [LanguageOption(code=code, name=LANGUAGE_NAMES[code]) for code in SUPPORTED]


async def _describe(request: Request) -> LanguageOut:
    language, source = await request_language(request.scope)
    account = None
    session = await session_of(request)
    languages = languages_of(request.app)
    if session is not None and languages is not None:
        account = await languages.get(session.account.id)
    return LanguageOut(language=language, source=source, account=account, choices=_choices())


@router.get("/language", operation_id="get_language")
async def get_language(request: Request) -> LanguageOut:
    """The language the site speaks to this browser, why, and the languages offered."""
    return await _describe(request)


@router.put(
    "/language",
    operation_id="set_language",
    response_model=LanguageOut,
    responses=error_responses(400, 403, 413, 422),
)
async def set_language(request: Request, body: LanguageChoice) -> JSONResponse:
    """Choose the site's language (null: the browser's). Logged in, it is the account's
    setting (the write must carry the CSRF token); the choice is also kept in a cookie, which
    is all a guest has."""
    session = await session_of(request)
    if session is not None:
        try:
            check_csrf(request, session)
        except CsrfError as exc:
            raise ApiError(403, str(exc)) from exc
        languages = languages_of(request.app)
        if languages is not None:
            await languages.set(session.account.id, body.language)
    if body.language is None:
        chosen, source = choose(accept_language=request.headers.get("accept-language"))
    else:
        chosen, source = body.language, ("account" if session is not None else "cookie")
    with use_language(chosen):
        out = LanguageOut(
            language=current_language(),
            source=source,
            account=body.language if session is not None else None,
            choices=_choices(),
        )
    response = JSONResponse(out.model_dump())
    if body.language is None:
        response.delete_cookie(LANGUAGE_COOKIE, path="/")
    else:
        response.set_cookie(
            LANGUAGE_COOKIE, body.language, max_age=COOKIE_SECONDS, path="/", samesite="lax"
        )
    return response


__all__ = [
    "LANGUAGE_COOKIE",
    "AccountLanguages",
    "LanguageMiddleware",
    "choose",
    "request_language",
    "router",
]

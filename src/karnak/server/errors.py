"""Every refusal as a short JSON object ``{"error": message}``, whatever was refused.

FastAPI's own answers are replaced here: its 422 lists every error with the input that caused
it (a 6 MB body came back as a 6 MB error, and a lone surrogate in the input made the error
itself impossible to encode: a 500), its other refusals say ``{"detail": ...}``, and an
exception nobody expected became a plain-text 500. Now:

- a validation error names the field and what is wrong with it, for the first few errors,
  quoting at most a few dozen characters of what was sent;
- Starlette's refusals (no such route, wrong method, a body that is not JSON) keep their
  status and headers in the same format;
- an unexpected exception is a 500 saying only that: its details go to the server's log,
  never to the client.

The domain's own refusals (every :class:`KarnakError`) get their status here too, in
:func:`as_api_error` alone: the routes let them rise and the app's handler answers them, so a
status is decided once rather than in a try/except of every route. A refusal that carries a
``status`` (a table's, a chat line's, a limit's...) gives its own; the others are looked up
in :data:`STATUSES`, and any other is the client's fault: 422.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from karnak.core.errors import KarnakError
from karnak.server.accounts.store import NameTakenError
from karnak.server.conflicts import StaleWriteError
from karnak.server.disk import DISK_FULL, is_disk_full
from karnak.server.disk import RETRY_AFTER as DISK_RETRY_AFTER
from karnak.server.disk import warn as warn_disk_full
from karnak.server.inputs import UNION_TAGS
from karnak.server.limits import LimitError
from karnak.server.rooms import SubmitError
from karnak.server.security import STATIC_HEADERS, content_security_policy
from karnak.server.service import ForbiddenError, GameUnavailableError
from karnak.server.store import UnknownGameError
from karnak.server.timebank.abandonment import LeaveError

#: Errors told in one answer; the rest are counted.
ERRORS_TOLD = 3
#: The most characters of a client's input quoted back, of a path part, of a whole message.
QUOTED = 30
PATH_PART = 24
MESSAGE = 300
#: The longest domain message told (the games' own messages can list every legal move).
MAX_DOMAIN_MESSAGE = 1000


class ErrorOut(BaseModel):
    """A refusal: what is wrong, and the game's version when that helps the client recover."""

    error: str = Field(description="what is wrong, in plain English")
    version: int | None = Field(
        default=None, description="the seat's current version, when the refusal concerns it"
    )


def error_responses(*statuses: int, retry: bool = False) -> dict[int | str, dict[str, Any]]:
    """The ``responses=`` of a route answering ``statuses`` with :class:`ErrorOut`."""
    described: dict[int | str, dict[str, Any]] = {}
    for status in statuses:
        entry: dict[str, Any] = {"model": ErrorOut, "description": DESCRIPTIONS[status]}
        if status == 429 or (retry and status == 503):
            entry["headers"] = {
                "Retry-After": {
                    "description": "seconds to wait before asking again",
                    "schema": {"type": "integer", "minimum": 1},
                }
            }
        described[status] = entry
    return described


DESCRIPTIONS = {
    400: "Malformed: a version from the future, or a body that is not JSON",
    401: "Not logged in, or a name and password that do not match",
    403: "The token belongs to no seat of this game (or a spectator tried to act), or a "
    "write authenticated by the session cookie came without its CSRF token",
    404: "No such game (or replay step)",
    405: "Method not allowed",
    409: "Stale version, not the seat's turn, not yet finished, or a name already taken",
    410: "The game is stored but cannot be played by this server (the reason says why)",
    413: "The request body is larger than the server accepts",
    422: "Invalid input: a field out of bounds, an illegal move, bad options",
    429: "Too many requests from this client, or too many games on the server",
    503: "The server cannot save anything now (its disk is full): try again later",
}


def shorten(text: str, limit: int) -> str:
    """At most ``limit`` characters, with any lone surrogates written as escapes (they
    cannot be encoded as JSON text)."""
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def quoted(value: Any) -> str | None:
    """A short quotation of a scalar the client sent; None for containers (too long)."""
    if isinstance(value, str | int | float | bool) or value is None:
        return shorten(repr(value), QUOTED)
    return None


def field_path(loc: Sequence[Any]) -> str:
    """``seats.0.name`` for a body field, ``query parameter limit`` for a parameter."""
    parts = [shorten(str(part), PATH_PART) for part in loc if part not in UNION_TAGS]
    if parts and parts[0] == "body":
        return ".".join(parts[1:]) or "the body"
    if len(parts) >= 2:
        return f"{parts[0]} parameter {'.'.join(parts[1:])}"
    return ".".join(parts) or "the request"


def describe_error(error: Mapping[str, Any]) -> str:
    """One validation error as ``field: what is wrong (got 'quote')``."""
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "")
        return shorten(f"the body is not valid JSON: {reason}", MESSAGE)
    where = field_path(error.get("loc", ()))
    message = f"{where}: {error.get('msg', 'invalid')}"
    if error.get("type") not in ("missing", "extra_forbidden"):
        got = quoted(error.get("input"))
        if got is not None:
            message += f" (got {got})"
    return shorten(message, MESSAGE)


def describe_validation(errors: Sequence[Mapping[str, Any]]) -> str:
    told = [describe_error(error) for error in errors[:ERRORS_TOLD]]
    more = len(errors) - len(told)
    if more > 0:
        told.append(f"and {more} more problem{'s' if more > 1 else ''}")
    return "; ".join(told) or "invalid request"


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"error": describe_validation(exc.errors())}, status_code=422)


#: Starlette's refusals, in words that say what to do.
HTTP_MESSAGES = {
    404: "nothing is served at this address",
    405: "this address does not take that method",
}


async def http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    message = HTTP_MESSAGES.get(exc.status_code, str(exc.detail))
    if exc.status_code == 400 and isinstance(exc.__cause__, ValueError | RecursionError):
        # FastAPI's "There was an error parsing the body": invalid UTF-8, a number of
        # thousands of digits, or nesting deeper than the parser goes
        message = "the body is not valid JSON (bad encoding, huge numbers or deep nesting)"
    return JSONResponse(
        {"error": shorten(message, MESSAGE)},
        status_code=exc.status_code,
        headers=dict(exc.headers) if exc.headers else None,
    )


async def server_error(_request: Request, exc: Exception) -> JSONResponse:
    """A bug, answered without its details (Starlette raises it again after this answer,
    so the server logs it with its traceback). A full disk met outside the game service
    (a table's, a chat line's write) is no bug: 503 naming it (karnak.server.disk)."""
    # Starlette sends this answer outside every middleware: the headers are added here.
    headers = {**STATIC_HEADERS, "Content-Security-Policy": content_security_policy(None)}
    if is_disk_full(exc):
        warn_disk_full(exc)
        full = as_api_error(exc).response()
        full.headers.update(headers)
        return full
    return JSONResponse({"error": "internal server error"}, status_code=500, headers=headers)


# ---------------------------------------------------------------------- the domain's refusals
class ApiError(Exception):
    """A refusal with its HTTP status, raised by a route (or made from a domain error by
    :func:`as_api_error`) and answered by the app as :class:`ErrorOut`."""

    def __init__(
        self,
        status: int,
        message: str,
        version: int | None = None,
        *,
        retry_after: float | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.version = version
        self.retry_after = retry_after

    def response(self) -> JSONResponse:
        # The games' messages quote what they were given (a move's JSON form, option
        # names): bounded inputs make them bounded, and this cut keeps them short.
        body: dict[str, Any] = {"error": shorten(self.message, MAX_DOMAIN_MESSAGE)}
        if self.version is not None:
            body["version"] = self.version
        headers = None
        if self.retry_after is not None:
            headers = {"Retry-After": str(max(1, math.ceil(self.retry_after)))}
        return JSONResponse(body, status_code=self.status, headers=headers)


#: The status of each domain refusal that carries none itself (the first match counts).
#: Those that carry one (``status``: a move refused, a limit, a claim, a busy game, a table, a
#: chat line, a friend request, e-mail switched off) are not listed: their status sits next
#: to their reason.
STATUSES: tuple[tuple[type[KarnakError], int], ...] = (
    (UnknownGameError, 404),  # the server's: no stored game with this id
    (GameUnavailableError, 410),
    (ForbiddenError, 403),
    (NameTakenError, 409),
    (LeaveError, 409),
    # another process changed the game first (only ever seen here if a write path forgot
    # to decide again: still the client's answer to retry, never a 500)
    (StaleWriteError, 409),
)
#: Any other refusal: the request asks for what the rules or the input do not allow.
DOMAIN_STATUS = 422


def status_of(exc: KarnakError) -> int:
    """The HTTP status of a domain refusal: the one it carries, else :data:`STATUSES`'."""
    carried = getattr(exc, "status", None)
    if isinstance(carried, int):
        return carried
    for kind, status in STATUSES:
        if isinstance(exc, kind):
            return status
    return DOMAIN_STATUS


def as_api_error(exc: Exception) -> ApiError:
    """The HTTP answer to a domain exception: the one place statuses are decided (the app's
    handler and the WebSocket's close codes both ask here). Anything that is not the
    domain's is a server bug and is raised again, to become the generic 500."""
    if isinstance(exc, ApiError):
        return exc
    if is_disk_full(exc):  # raw (sqlite3, psycopg, OSError) or the service's DiskFullError
        return ApiError(503, DISK_FULL, retry_after=DISK_RETRY_AFTER)
    if not isinstance(exc, KarnakError):
        raise exc
    # a refused move tells the seat's version (the client catches up); a limit, when to retry
    version = exc.version if isinstance(exc, SubmitError) else None
    retry_after = exc.retry_after if isinstance(exc, LimitError) else None
    return ApiError(status_of(exc), str(exc), version, retry_after=retry_after)

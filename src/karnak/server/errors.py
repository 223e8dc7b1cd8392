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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from karnak.server.inputs import UNION_TAGS
from karnak.server.security import STATIC_HEADERS, content_security_policy

#: Errors told in one answer; the rest are counted.
ERRORS_TOLD = 3
#: The most characters of a client's input quoted back, of a path part, of a whole message.
QUOTED = 30
PATH_PART = 24
MESSAGE = 300


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


async def server_error(_request: Request, _exc: Exception) -> JSONResponse:
    """A bug, answered without its details (Starlette raises it again after this answer,
    so the server logs it with its traceback)."""
    # Starlette sends this answer outside every middleware: the headers are added here.
    headers = {**STATIC_HEADERS, "Content-Security-Policy": content_security_policy(None)}
    return JSONResponse({"error": "internal server error"}, status_code=500, headers=headers)

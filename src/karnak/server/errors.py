"""Every refusal as a short JSON object ``{"error": message}``, whatever was refused.

FastAPI's own answers are replaced here: its 422 lists every error with the input that caused
it (a 6 MB body came back as a 6 MB error, and a lone surrogate in the input made the error
itself impossible to encode: a 500), its other refusals say ``{"detail": ...}``, and an
exception nobody expected became a plain-text 500. Now:

- a validation error names the field and what is wrong with it, for the first few errors,
  quoting at most a few dozen characters of what was sent, in the reader's language
  (:data:`PROBLEMS`: the common cases in Karnak's own words rather than pydantic's English);
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
from karnak.i18n import ENGLISH, KARNAK, N_, PSEUDO, _, current_language, ngettext, t
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


def translated(message: str) -> str:
    """``message`` in the reader's language where it is a text of Karnak's catalogue (a
    module's constant, or a refusal made where the language was not known); any other
    (already translated, a game's, a library's) as it is."""
    language = current_language()
    if not message or language in (ENGLISH, PSEUDO):
        return message
    return KARNAK.translations(language).gettext(message)


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


#: Where a parameter comes from, as a reader names it (``{name}``: the parameter's name).
PARAMETERS = {
    "query": N_("query parameter {name}"),
    "path": N_("path parameter {name}"),
    "header": N_("header {name}"),
    "cookie": N_("cookie {name}"),
}


def field_path(loc: Sequence[Any]) -> str:
    """``seats.0.name`` for a body field, ``query parameter limit`` for a parameter (field
    names are the API's and stay as they are; the words around them are translated)."""
    parts = [shorten(str(part), PATH_PART) for part in loc if part not in UNION_TAGS]
    if parts and parts[0] == "body":
        return ".".join(parts[1:]) or _("the body")
    if len(parts) >= 2:
        name = ".".join(parts[1:])
        template = PARAMETERS.get(parts[0])
        return t(template, name=name) if template else f"{parts[0]} {name}"
    return ".".join(parts) or _("the request")


#: The common validation errors in Karnak's words, by pydantic's error type: a template
#: read with the error's context (``{limit}``); those with a count are in :data:`COUNTED`.
PROBLEMS = {
    "missing": N_("is required"),
    "extra_forbidden": N_("is not a field this request takes"),
    "greater_than_equal": N_("is too small: at least {limit}"),
    "greater_than": N_("is too small: more than {limit}"),
    "less_than_equal": N_("is too large: at most {limit}"),
    "less_than": N_("is too large: less than {limit}"),
    "int_type": N_("should be a whole number"),
    "int_parsing": N_("should be a whole number"),
    "int_from_float": N_("should be a whole number"),
    "whole_number": N_("should be a whole number"),
    "float_type": N_("should be a number"),
    "float_parsing": N_("should be a number"),
    "string_type": N_("should be a text"),
    "bool_type": N_("should be true or false"),
    "bool_parsing": N_("should be true or false"),
    "list_type": N_("should be a list"),
    "dict_type": N_("should be a JSON object"),
    "model_type": N_("should be a JSON object"),
    "model_attributes_type": N_("should be a JSON object"),
    "literal_error": N_("should be one of {expected}"),
    "enum": N_("should be one of {expected}"),
    "string_pattern_mismatch": N_(
        "holds characters not allowed here (control characters, or nothing but spaces)"
    ),
    "union_tag_invalid": N_("is not of a kind this field takes"),
    "union_tag_not_found": N_("is not of a kind this field takes"),
    # the discriminated unions of karnak.server.inputs (their English is declared there)
    "option_value": N_("an option's value is true, false, a whole number or a short text"),
    "scalar": N_("a value here is null, true, false, a whole number or a short text"),
    "action_value": N_(
        "a value in a move is null, true, false, a whole number, a short text or a short "
        "list of those"
    ),
    "action": N_("a move is its text or its JSON object"),
}
#: The errors about a length, with the key of the context holding the length.
COUNTED = {
    "string_too_long": "max_length",
    "string_too_short": "min_length",
    "too_long": "max_length",
    "too_short": "min_length",
}


def counted(kind: str, n: int) -> str:
    """An error about a length, with the plural the reader's language gives ``n``."""
    if kind == "string_too_long":
        text = ngettext(
            "is too long: at most {n} character", "is too long: at most {n} characters", n
        )
    elif kind == "string_too_short":
        text = ngettext(
            "is too short: at least {n} character", "is too short: at least {n} characters", n
        )
    elif kind == "too_long":
        text = ngettext(
            "has too many items: at most {n} item", "has too many items: at most {n} items", n
        )
    else:
        text = ngettext(
            "has too few items: at least {n} item", "has too few items: at least {n} items", n
        )
    return text.format(n=n)


def problem(error: Mapping[str, Any]) -> str:
    """What is wrong, in the reader's language: the common cases in our words, any other
    in the message it came with (a validator of ours writes it translated already)."""
    kind = error.get("type")
    context = error.get("ctx") or {}
    if kind == "value_error" and context.get("error") is not None:
        return str(context["error"])  # a validator's own words, without "Value error, "
    if kind in ("too_long", "too_short") and isinstance(error.get("input"), str):
        kind = f"string_{kind}"  # a text's length checked after a validator: characters
    if isinstance(kind, str) and kind in COUNTED:
        count = context.get(COUNTED[kind])
        if isinstance(count, int):
            return counted(kind, count)
    template = PROBLEMS.get(kind) if isinstance(kind, str) else None
    if template is not None:
        if "{limit}" in template:
            limit = next((context[key] for key in ("ge", "gt", "le", "lt") if key in context), None)
            if limit is None:
                return str(error.get("msg", _("invalid")))
            return t(template, limit=limit)
        if "{expected}" in template:
            return t(template, expected=shorten(str(context.get("expected", "")), MESSAGE))
        return _(template)
    return str(error.get("msg", _("invalid")))


def describe_error(error: Mapping[str, Any]) -> str:
    """One validation error as ``field: what is wrong (got 'quote')``."""
    if error.get("type") == "json_invalid":
        reason = (error.get("ctx") or {}).get("error", "")
        return shorten(t("the body is not valid JSON: {reason}", reason=reason), MESSAGE)
    where = field_path(error.get("loc", ()))
    message = t("{field}: {problem}", field=where, problem=problem(error))
    if error.get("type") not in ("missing", "extra_forbidden"):
        got = quoted(error.get("input"))
        if got is not None:
            message = t("{problem} (got {value})", problem=message, value=got)
    return shorten(message, MESSAGE)


def describe_validation(errors: Sequence[Mapping[str, Any]]) -> str:
    told = [describe_error(error) for error in errors[:ERRORS_TOLD]]
    more = len(errors) - len(told)
    if more > 0:
        told.append(ngettext("and {n} more problem", "and {n} more problems", more).format(n=more))
    return "; ".join(told) or _("invalid request")


async def validation_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    return JSONResponse({"error": describe_validation(exc.errors())}, status_code=422)


#: Starlette's refusals, in words that say what to do.
HTTP_MESSAGES = {
    404: N_("nothing is served at this address"),
    405: N_("this address does not take that method"),
}


async def http_error(_request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    known = HTTP_MESSAGES.get(exc.status_code)
    message = _(known) if known is not None else translated(str(exc.detail))
    if exc.status_code == 400 and isinstance(exc.__cause__, ValueError | RecursionError):
        # FastAPI's "There was an error parsing the body": invalid UTF-8, a number of
        # thousands of digits, or nesting deeper than the parser goes
        message = _("the body is not valid JSON (bad encoding, huge numbers or deep nesting)")
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
    return JSONResponse({"error": _("internal server error")}, status_code=500, headers=headers)


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
        # A message made where the request's language was not known (a module's constant)
        # is looked up here: a text already translated, or none of ours, stays as it is.
        body: dict[str, Any] = {"error": shorten(translated(self.message), MAX_DOMAIN_MESSAGE)}
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

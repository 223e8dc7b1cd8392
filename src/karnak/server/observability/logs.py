"""The server's log: text or JSON lines with timestamps, levels and request ids, and the
access log, which never writes a secret.

:func:`configure_logging` is what ``karnak serve --log-format --log-level --access-log``
calls. Every line goes to standard output through one handler on the root logger, so the
server's own lines (``karnak.server``), the access log (``karnak.access``) and uvicorn's
warnings come out alike:

- text: ``2025-05-01T09:30:12.345+00:00 INFO karnak.access [3f2a...] GET /api/games 200 ...``
  (the request id in brackets, ``-`` outside a request);
- JSON (python-json-logger): one object per line with ``timestamp``, ``level``, ``logger``,
  ``message``, ``request_id`` where known, and the access log's fields (``method``,
  ``path``, ``status``, ``duration_ms``, ``client``, ``close_code`` for a socket).

The access log writes one line per request and per WebSocket (when it closes): the method,
the path with its query, the status, how long it took, the client's address and the request
id. Never a header (cookies, ``Authorization``, ``X-Karnak-Token``), and never a secret of
the address: a seat's token and a table's ticket travel in the query string of the links, so
every query parameter whose name suggests a secret is written ``***``, and so is any long
random-looking part of the path. The health checks and ``/metrics``, which a balancer and
Prometheus ask every few seconds, are logged at DEBUG only.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import sys
from typing import Any, TextIO
from urllib.parse import quote, unquote_plus

from pythonjsonlogger.json import JsonFormatter

from karnak.server.observability.context import request_id

#: The access log's logger.
ACCESS_LOGGER = "karnak.access"
ACCESS = logging.getLogger(ACCESS_LOGGER)
FORMATS = ("text", "json")
#: Paths asked every few seconds by machines: their lines are DEBUG, not INFO.
QUIET_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
#: A query parameter whose name holds one of these is a secret (its value becomes ``***``):
#: seat tokens, table tickets, confirmation and reset codes, passwords, session ids...
SECRET_NAME = re.compile(
    r"token|ticket|code|pass|secret|key|session|csrf|auth|sig|cred|otp|nonce|reset|jwt",
    re.IGNORECASE,
)
#: A part of a path this long in the URL-safe alphabet looks like a secret rather than a
#: name or an id (the server's ids have 12 characters, its secrets 32 or more).
SECRET_SEGMENT = re.compile(r"[A-Za-z0-9_-]{24,}")
HIDDEN = "***"
#: The most characters of a path, and of its query, written (a client chooses them).
MAX_PATH = 300
MAX_QUERY = 300
#: What stays as it is when a path or query is written (the rest is percent-encoded, so a
#: line break or an escape sequence in an address cannot forge or garble a log line).
PATH_SAFE = "/:@!$&'()*+,;=-._~"
QUERY_SAFE = PATH_SAFE + "?%"


# ---------------------------------------------------------------------- what is written
def shown_path(path: str) -> str:
    """The path as written in the log: percent-encoded, long secrets hidden, bounded."""
    parts = [HIDDEN if SECRET_SEGMENT.fullmatch(part) else part for part in path.split("/")]
    return _bounded(quote("/".join(parts), safe=PATH_SAFE), MAX_PATH)


def shown_query(raw: bytes) -> str:
    """The query string as written in the log: each secret parameter's value is ``***``."""
    if not raw:
        return ""
    shown = []
    for part in raw.decode("latin-1").split("&"):
        name, equals, _value = part.partition("=")
        if equals and SECRET_NAME.search(unquote_plus(name)):
            part = f"{name}={HIDDEN}"
        shown.append(quote(part, safe=QUERY_SAFE))
    return _bounded("&".join(shown), MAX_QUERY)


def shown_target(path: str, query: bytes) -> str:
    query_text = shown_query(query)
    return f"{shown_path(path)}?{query_text}" if query_text else shown_path(path)


def _bounded(text: str, most: int) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"


def log_access(
    *,
    method: str,
    path: str,
    query: bytes,
    status: int,
    seconds: float,
    client: str | None,
    request: str,
    close_code: int | None = None,
) -> None:
    """One access log line (the request id passed as ``request``)."""
    level = logging.DEBUG if path in QUIET_PATHS else logging.INFO
    if not ACCESS.isEnabledFor(level):
        return
    target = shown_target(path, query)
    duration_ms = round(seconds * 1000, 1)
    fields: dict[str, Any] = {
        "method": method,
        "path": target,
        "status": status,
        "duration_ms": duration_ms,
        "client": client or "-",
        "request_id": request,
    }
    closed = ""
    if close_code is not None:
        fields["close_code"] = close_code
        closed = f" closed {close_code}"
    ACCESS.log(
        level,
        "%s %s %d%s %.1fms %s",
        method,
        target,
        status,
        closed,
        duration_ms,
        client or "-",
        extra=fields,
    )


# ---------------------------------------------------------------------- formats
def timestamp(record: logging.LogRecord) -> str:
    """ISO 8601 in UTC, to the millisecond."""
    return dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds")


class RequestIdFilter(logging.Filter):
    """Gives every record logged during a request that request's id (``request_id``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            known = request_id()
            if known is not None:
                record.request_id = known
        return True


class TextFormatter(logging.Formatter):
    """``TIMESTAMP LEVEL LOGGER [REQUEST-ID] MESSAGE``, then the traceback if any."""

    def format(self, record: logging.LogRecord) -> str:
        message = record.getMessage()
        rid = getattr(record, "request_id", None) or "-"
        line = f"{timestamp(record)} {record.levelname} {record.name} [{rid}] {message}"
        if record.exc_info:
            line = f"{line}\n{self.formatException(record.exc_info)}"
        if record.stack_info:
            line = f"{line}\n{self.formatStack(record.stack_info)}"
        return line


def json_formatter() -> logging.Formatter:
    """One JSON object per line: timestamp, level, logger, message, and the record's extra
    fields (``request_id``, the access log's)."""
    return JsonFormatter(
        "%(levelname)s %(name)s %(message)s",
        rename_fields={"levelname": "level", "name": "logger"},
        timestamp=True,
    )


class LogHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The handler :func:`configure_logging` installs (so that calling it again replaces it)."""


#: Loggers whose lines go through the root's handler, whatever was set up before (the
#: command line's own handler, uvicorn's).
PROPAGATED = ("karnak", "karnak.server", "uvicorn", "uvicorn.error")
#: HTTP client libraries, which log every request's whole address at INFO (a token's too):
#: their warnings only.
QUIETED = ("httpx", "httpx2", "httpcore")
#: Alembic's notes on how it runs (its dialect, transactional DDL) at every start: its
#: warnings only; the migrations applied are logged by karnak.server.db, one line each.
ALEMBIC = "alembic"


def configure_logging(
    log_format: str, level: str, access_log: bool, *, stream: TextIO | None = None
) -> None:
    """Send the server's log to standard output (or ``stream``) as ``log_format`` ("text"
    or "json") lines, from ``level`` (debug, info, warning, error) up; ``access_log``: one
    line per request (at INFO, whatever ``level``; the health checks at DEBUG). uvicorn's
    own access log stays off, and HTTP clients' request lines are left out: they would
    carry the seats' tokens. ValueError for a
    format or level it does not know."""
    chosen = log_format.strip().lower()
    if chosen not in FORMATS:
        raise ValueError(f"the log format is one of {', '.join(FORMATS)}, not {log_format!r}")
    numeric = logging.getLevelNamesMapping().get(level.strip().upper())
    if numeric is None or not isinstance(numeric, int):
        raise ValueError(f"the log level is debug, info, warning or error, not {level!r}")
    handler = LogHandler(stream if stream is not None else sys.stdout)
    handler.setFormatter(json_formatter() if chosen == "json" else TextFormatter())
    handler.addFilter(RequestIdFilter())
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, LogHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(numeric)
    for name in PROPAGATED:
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.setLevel(logging.NOTSET)
    for name in (*QUIETED, ALEMBIC):
        logging.getLogger(name).setLevel(max(numeric, logging.WARNING))
    uvicorn_access = logging.getLogger("uvicorn.access")
    uvicorn_access.handlers.clear()
    uvicorn_access.propagate = False
    uvicorn_access.disabled = True
    ACCESS.handlers.clear()
    ACCESS.propagate = True
    ACCESS.disabled = not access_log
    ACCESS.setLevel(min(numeric, logging.INFO))

"""A full disk, told as what it is: 503 "the server's disk is full", never a bare 500.

When the database cannot grow, every write fails, and the player's move is not saved. The
answer must say so (and that it is the server's trouble, worth trying again later), and the
operator must find one clear line in the log. The failure reaches the server in several
forms, all recognised by :func:`is_disk_full`:

- SQLite: ``sqlite3.OperationalError`` "database or disk is full" (``SQLITE_FULL``, 13),
  raised when the file, its journal or its ``max_page_count`` cannot grow;
- PostgreSQL: ``psycopg.errors.DiskFull`` (SQLSTATE 53100);
- the operating system: ``OSError`` ``ENOSPC`` (no space left) or ``EDQUOT`` (quota);

each either raw or wrapped by SQLAlchemy (``DBAPIError.orig``) or chained (``__cause__``).
The game service turns them into :class:`DiskFullError` at its one database seam, so a move
that could not be written is refused before anything changes in memory
(karnak.server.service.GameService.change writes first, then applies); the app's handlers
answer the rest (karnak.server.errors).
"""

from __future__ import annotations

import errno
import logging
import time

from karnak.core.errors import KarnakError
from karnak.i18n import N_

log = logging.getLogger("karnak.server")

#: What a player is told.
DISK_FULL = N_("the server's disk is full; your change was not saved, try again later")
#: When to try again (seconds): an operator has to free space first.
RETRY_AFTER = 300.0
#: SQLite's result code for a full database (the primary code; extended codes keep it in
#: the low byte).
SQLITE_FULL = 13
#: PostgreSQL's SQLSTATE for a disk that cannot take more (psycopg.errors.DiskFull).
DISK_FULL_STATE = "53100"
#: The operating system's ways of saying there is no room.
NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT})
#: At most one log line this often (seconds): every request fails the same way.
WARN_EVERY = 60.0


class DiskFullError(KarnakError):
    """A write refused because the database's disk is full (503, try again later)."""

    status = 503
    retry_after = RETRY_AFTER

    def __init__(self, message: str = DISK_FULL):
        super().__init__(message)


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc``, the driver's error SQLAlchemy wraps, and what each was raised from."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [exc]
    while todo and len(seen) < 10:
        current = todo.pop()
        if current is None or any(current is s for s in seen):
            continue
        seen.append(current)
        orig = getattr(current, "orig", None)
        todo.extend(
            [
                orig if isinstance(orig, BaseException) else None,
                current.__cause__,
                current.__context__,
            ]
        )
    return seen


def _says_full(exc: BaseException) -> bool:
    if isinstance(exc, DiskFullError):
        return True
    if isinstance(exc, OSError) and exc.errno in NO_ROOM:
        return True
    if getattr(exc, "sqlstate", None) == DISK_FULL_STATE:  # psycopg
        return True
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF == SQLITE_FULL:
        return True
    # sqlite3 before Python 3.11 has no error code: its message is fixed by SQLite
    return type(exc).__name__ == "OperationalError" and "database or disk is full" in str(exc)


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (or what it wraps or was raised from) says the disk is full."""
    return any(_says_full(cause) for cause in _causes(exc))


_warned_at = -WARN_EVERY


def warn(exc: BaseException) -> None:
    """One line for the operator (at most one a minute), naming the error."""
    global _warned_at
    now = time.monotonic()
    if now - _warned_at >= WARN_EVERY:
        _warned_at = now
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        log.error("the database's disk is full: writes fail until space is freed (%s)", first)

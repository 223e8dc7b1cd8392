"""One server process per SQLite file: a lock beside the file that a second process meets.

SQLite takes one writer at a time and tells no other process of a change, so two servers on
one file would each serve games the other changes under it (and run the same bots and timers
twice). ``karnak serve`` therefore takes an advisory lock (``flock``) on ``<file>.lock``
before it touches the database and holds it while it serves; a second server meets the lock
and is refused in one line naming the first (its pid, its host, when it started: the file
holds them as text). Several processes need PostgreSQL and a broker instead.

The kernel drops the lock when its process ends, however it ends (even ``kill -9``), so a
file left behind never blocks anyone: it is never deleted (deleting it would let two
processes lock two different files of the same name). An in-memory database is private to
its process and needs no lock.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no flock, no lock (the server is run on POSIX)
    fcntl = None  # type: ignore[assignment]

#: How long a refused process waits for the holder to finish writing who it is.
HOLDER_WAIT = 0.5


class InstanceLockError(Exception):
    """The database cannot be locked for this process; the message says why in one line."""


class InstanceLocked(InstanceLockError):
    """Another live process serves the database; the message names it in one line."""


@dataclass(frozen=True)
class Holder:
    """The process that holds the lock, as it wrote itself into the file."""

    pid: str = "?"
    host: str = "?"
    started: str = "?"

    def text(self) -> str:
        return f"pid {self.pid}\nhost {self.host}\nstarted {self.started}\n"

    @classmethod
    def read(cls, text: str) -> Holder:
        fields = dict(line.split(" ", 1) for line in text.splitlines() if " " in line.strip())
        return cls(
            pid=fields.get("pid", "?").strip(),
            host=fields.get("host", "?").strip(),
            started=fields.get("started", "?").strip(),
        )

    @classmethod
    def this_process(cls) -> Holder:
        started = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        return cls(pid=str(os.getpid()), host=socket.gethostname(), started=started)


def sqlite_file(url: str) -> Path | None:
    """The file an SQLite URL names, or None (another database, or one in memory)."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database or ""
    if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
        return None
    if database.startswith("file:"):  # an SQLite URI (?uri=true)
        if "mode=memory" in database:
            return None
        database = database.removeprefix("file:").split("?", 1)[0]
    return Path(database).expanduser().resolve()


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


@contextlib.contextmanager
def instance_lock(url: str) -> Iterator[Path | None]:
    """Hold the lock of the SQLite file ``url`` names while the block runs (yields the lock
    file; None when there is nothing to lock). :class:`InstanceLocked` when another process
    holds it; :class:`InstanceLockError` when the lock file cannot be made (its folder is
    missing or read-only, say)."""
    database = sqlite_file(url)
    if database is None or fcntl is None:
        yield None
        return
    path = lock_path(database)
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:
        raise InstanceLockError(
            f"cannot make the lock file {path} beside the database: {exc.strerror or exc}"
        ) from None
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _holder(descriptor)
            raise InstanceLocked(
                f"{database} is served by another karnak process (pid {holder.pid} on "
                f"{holder.host}, started {holder.started}): an SQLite database takes one "
                "server process; stop that one first, or run several processes on PostgreSQL "
                "(--database postgresql+psycopg://...) with --broker redis://..."
            ) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, Holder.this_process().text().encode(), 0)
        try:
            yield path
        finally:
            os.ftruncate(descriptor, 0)  # nobody holds it now (the lock goes with the close)
    finally:
        os.close(descriptor)


def _holder(descriptor: int) -> Holder:
    """Who holds the lock, from the file: the holder writes itself right after it locks, so a
    refusal that comes in between waits a moment for the text."""
    end = time.monotonic() + HOLDER_WAIT
    while True:
        text = os.pread(descriptor, 4096, 0).decode(errors="replace")
        if text.strip() or time.monotonic() > end:
            return Holder.read(text)
        time.sleep(0.02)

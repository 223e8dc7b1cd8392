"""Looking at a server's child processes through /proc (Linux), for the shutdown tests.

A process is known by its pid and its start time together, so a pid the system reuses later
is never mistaken for it; and only processes the test saw below its own server are looked
at, so nothing else on the machine (another test's server, say) is ever touched.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import NamedTuple

import pytest

PROC = Path("/proc")

needs_proc = pytest.mark.skipif(
    not (PROC / "self" / "stat").exists(), reason="reads processes from /proc (Linux)"
)


class Proc(NamedTuple):
    pid: int
    started: int  # clock ticks after boot


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (the state first), or None."""
    try:
        text = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def descendants(pid: int) -> list[Proc]:
    """Every running process below ``pid`` (children, their children, ...)."""
    children: dict[int, list[Proc]] = {}
    for entry in PROC.iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and fields[0] != "Z":
                proc = Proc(int(entry.name), int(fields[19]))
                children.setdefault(int(fields[1]), []).append(proc)
    found: list[Proc] = []
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child.pid)
    return found


def alive(proc: Proc) -> bool:
    """Whether ``proc`` still runs (a zombie waiting for its reaper has stopped running)."""
    fields = _stat(proc.pid)
    return fields is not None and fields[0] != "Z" and int(fields[19]) == proc.started


def cpu_seconds(proc: Proc) -> float:
    """User and system time ``proc`` has used so far (0 once it is gone)."""
    fields = _stat(proc.pid)
    if fields is None or int(fields[19]) != proc.started:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_gone(procs: list[Proc], timeout: float) -> list[Proc]:
    """Wait up to ``timeout`` seconds for ``procs`` to stop; the ones still running."""
    end = time.monotonic() + timeout
    while True:
        left = [proc for proc in procs if alive(proc)]
        if not left or time.monotonic() > end:
            return left
        time.sleep(0.1)


def kill_all(procs: list[Proc]) -> None:
    """Clean up after a failed test: SIGKILL whichever of ``procs`` still runs."""
    for proc in procs:
        if alive(proc):
            with contextlib.suppress(OSError):
                os.kill(proc.pid, signal.SIGKILL)

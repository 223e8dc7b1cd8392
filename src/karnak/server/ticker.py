"""A job each process runs every few seconds (the crowd timetable, the quick-match queue,
the tournaments): one place for the loop, its wake-up and its clean stop.

The job's own failures are logged and the loop goes on (a database blip must not end the
timetable of a process that stays up); cancelling it, when the server stops, ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger("karnak.server")


class Ticker:
    """Runs ``job`` every ``every`` seconds (first at once when ``first_at_once``) and
    whenever :meth:`wake` is called, logging ``failing`` with the traceback when it
    raises."""

    def __init__(
        self,
        job: Callable[[], Awaitable[Any]],
        every: float,
        failing: str,
        *,
        first_at_once: bool = True,
    ) -> None:
        self.job, self.every, self.failing = job, every, failing
        self._woken = asyncio.Event()
        if first_at_once:
            self._woken.set()
        self._task = asyncio.create_task(self._loop())

    def wake(self) -> None:
        """Run the job now rather than at the next tick (something it serves has come)."""
        self._woken.set()

    async def _loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), self.every)
            self._woken.clear()
            try:
                await self.job()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception(self.failing)

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task

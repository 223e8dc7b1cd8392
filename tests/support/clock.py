"""A clock that moves only when a test moves it, for the server's clock hooks (a table's
lifetime, how long a seat has waited) instead of sleeping::

    clock = FakeClock()
    tables.clock = clock.utcnow  # karnak.server.tables.service.TableService.clock
    tables.turns.clock = clock.time  # karnak.server.tables.turns.TurnWatcher.clock
    clock.advance(24 * 3600)  # a day later, at once

It starts at the real time (the current whole second: times it gives add up exactly), so
that it agrees with the times the server wrote before it was put in place.
"""

from __future__ import annotations

import datetime as dt
import time


class FakeClock:
    def __init__(self, start: float | None = None) -> None:
        #: Seconds since the epoch.
        self.seconds = float(int(time.time())) if start is None else start

    def time(self) -> float:
        """Seconds since the epoch, as :func:`time.time`."""
        return self.seconds

    def utcnow(self) -> dt.datetime:
        """The time in UTC, as :func:`karnak.server.db.utcnow`."""
        return dt.datetime.fromtimestamp(self.seconds, dt.UTC)

    def advance(self, seconds: float) -> None:
        assert seconds >= 0, "a fake clock goes forward only"
        self.seconds += seconds

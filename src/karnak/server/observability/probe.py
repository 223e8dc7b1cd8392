"""What the game service and the bot runner tell the metrics, as it happens.

They hold a :class:`Probe` that hears nothing unless the application replaces it with its
metrics (karnak.server.observability.metrics.Metrics): a service built alone, in a test or a
benchmark, has no metrics and pays nothing for them. This module imports nothing of the
server, so that the service can import it.
"""

from __future__ import annotations


class Probe:
    """The events the metrics count; every method here does nothing."""

    def move_applied(self, game: str, *, automatic: bool, by_timeout: bool) -> None:
        """A move (not a repeated submission) was written and told to everyone.
        ``automatic``: a bot's or a turn timer's (``by_timeout``) rather than a person's."""

    def bot_thought(self, game: str, seconds: float) -> None:
        """A bot of a ``game`` decided, ``seconds`` after its seat's turn to think came
        (the wait for a free worker process included)."""


#: The probe of a service without metrics.
SILENT = Probe()

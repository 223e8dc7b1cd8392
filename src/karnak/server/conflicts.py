"""Why a write to a stored game changed nothing: the database decides, not a process's copy.

Every change to a game is a compare-and-set on the game's version (karnak.server.store), so
when several server processes share the database, the one that writes first wins and the
others find out here. Neither error reaches a client: the service reloads the game and
decides again (karnak.server.service), answering what one process would have answered.
"""

from __future__ import annotations

from karnak.core.errors import KarnakError


class StaleWriteError(KarnakError):
    """The database holds a newer version of the game than the process that tried to write
    it (another process changed it first): the writer reloads the game and decides again."""


class LeaseLostError(KarnakError):
    """A bot's or a timer's move for a game whose lease this process no longer holds: it is
    not played (the process that holds the lease now plays its own)."""

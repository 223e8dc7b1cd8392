"""Specific exceptions, so callers can tell a bad move from a bad file from a bad option."""

from __future__ import annotations


class KarnakError(Exception):
    """Base of every error Karnak raises on purpose."""


class IllegalActionError(KarnakError, ValueError):
    """An action that the rules do not allow at this point.

    The message says what was wrong and what would have been legal, so a person at a
    terminal or a client developer can correct the move without reading the source.
    """

    def __init__(self, message: str, *, seat: int | None = None, legal: list[str] | None = None):
        super().__init__(message)
        self.seat = seat
        self.legal = legal or []


class InvalidActionTextError(KarnakError, ValueError):
    """Text or JSON that does not describe any action of the game."""


class InvalidOptionError(KarnakError, ValueError):
    """A game option that does not exist or has a value outside its allowed range."""


class RecordError(KarnakError, ValueError):
    """A game record that cannot be read or does not replay.

    ``index`` is the position of the first bad action in the record's action list, when the
    problem is an action rather than the record's header.
    """

    def __init__(self, message: str, *, index: int | None = None):
        super().__init__(message)
        self.index = index


class BoardDataError(KarnakError, ValueError):
    """A board or card data file that is malformed or fails validation."""


class RulesVersionError(KarnakError, ValueError):
    """A record or stored game of a rules version this engine does not play.

    The message names both versions: the one asked for (``wanted``) and the newest this
    engine plays (``newest``).
    """

    def __init__(self, message: str, *, wanted: str, newest: str):
        super().__init__(message)
        self.wanted = wanted
        self.newest = newest

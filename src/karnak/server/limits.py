"""The server's bounds, in one place: what one client, one game and the whole server may ask.

Every input that reaches the server is bounded. The numbers live here (with defaults sized for
one machine of two cores) so that ``karnak serve`` can set them from its command line and tests
can make them small; the code that enforces each one names it in its refusal.
"""

from __future__ import annotations

from dataclasses import dataclass

from karnak.core.errors import KarnakError


@dataclass(frozen=True)
class ServerSettings:
    """Limits of one server process (``karnak serve`` options; tests shrink them)."""

    # ------------------------------------------------------------------ bots
    #: The longest a bot may think for one decision (seconds).
    max_think: float = 10.0
    #: The most search iterations a bot may ask for one decision.
    max_iterations: int = 200_000
    #: The bot work of one game: the think times of all its bot seats added up (seconds).
    max_game_think: float = 60.0
    # ------------------------------------------------------------------ games
    #: Games running at once on this server (finished games do not count).
    max_running_games: int = 500
    #: Finished games kept in memory for their pages and replays (the rest load on demand).
    finished_games_in_memory: int = 64
    # ------------------------------------------------------------------ requests
    #: The largest request body accepted (bytes).
    max_body_bytes: int = 64 * 1024
    #: Games one client may create per minute.
    creates_per_minute: int = 20
    #: Moves (and undos) one client may submit per minute, over all its games.
    moves_per_minute: int = 600
    #: Sign-ups, log-ins and password changes one client may try per minute (passwords
    #: cannot be guessed at speed, and each try costs a deliberately slow hash).
    account_attempts_per_minute: int = 10
    #: Chat lines one client may post per minute.
    chat_lines_per_minute: int = 30
    #: Friend requests one account may have waiting for an answer at once.
    friend_requests_pending: int = 50
    #: Open tables (not started) one account, or one guest's address, may create or sit at.
    open_tables_per_client: int = 5


class LimitError(KarnakError):
    """A request refused because it asks for more than a limit allows.

    ``status`` is the HTTP status that fits (422: the request itself is too big, e.g. a bot's
    think time; 429: too many at once, then ``retry_after`` says when to try again).
    """

    def __init__(self, message: str, *, status: int = 422, retry_after: float | None = None):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after

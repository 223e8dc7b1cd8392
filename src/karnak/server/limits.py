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
    #: Games running at once on this server (finished games do not count, nor games with
    #: no change for ``running_game_activity_hours``: karnak.server.capacity).
    max_running_games: int = 500
    #: A running game counts toward the cap while it was created or changed this recently
    #: (hours); a quieter one still exists, and counts again when someone moves.
    running_game_activity_hours: float = 24.0
    #: Counted games one client address, and one account, may have created (0: the larger
    #: of 5 and a twentieth of ``max_running_games``).
    running_games_per_client: int = 0
    #: Finished games kept in memory for their pages and replays (the rest load on demand).
    finished_games_in_memory: int = 64
    #: A running game without a clock (no turn timer, no time bank) in which nobody has moved
    #: for this many days ends unfinished, unrated (karnak.server.expiry); 0: never.
    idle_game_expiry_days: float = 5.0
    #: How long before that its seats are told (hours), unless someone moves meanwhile.
    idle_game_warning_hours: float = 24.0
    #: The levels whose bots play each game of the day on its deal, for players to beat
    #: (comma-separated; karnak.server.daily). Each is a bot-only game of the server.
    daily_bots: str = "expert,master"
    # ------------------------------------------------------------------ crowd tables
    #: A crowd table of ``crowd_game`` every so many minutes, on the whole interval (0: no
    #: timetable; administrators may still schedule them), with ``crowd_seats`` seats at
    #: most (0: as many as the game seats) and a turn timer of ``crowd_turn_timer`` seconds
    #: (karnak.server.crowds).
    #: ``crowd_game`` empty: the game that seats the most players.
    crowd_every_minutes: int = 60
    crowd_game: str = ""
    crowd_seats: int = 0  # 0: as many as the game seats (99 builders for Egyptia)
    crowd_turn_timer: float = 60.0
    # ------------------------------------------------------------------ quick match
    #: A quick-match ticket's rating window (points of mu - 3 sigma) when it is new, how
    #: much it widens a second while it waits, and the longest wait before the player may
    #: take bots instead (karnak.server.matchmaking).
    quickmatch_window: float = 3.0
    quickmatch_widen_per_second: float = 0.5
    quickmatch_bots_after_seconds: float = 30.0
    #: Tickets waiting at once, over all games (429 beyond).
    quickmatch_queue: int = 2_000
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
    #: Log-ins any clients together may try per account name in ``login_name_minutes``
    #: (karnak.server.accounts.attempts): guesses spread over many addresses stop too.
    login_attempts_per_name: int = 10
    login_name_minutes: int = 15
    #: "Forgot password" requests one client may make an hour (karnak.server.accounts.recovery).
    password_resets_per_hour: int = 5
    #: Password reset e-mails one account may be sent an hour, whoever asks.
    password_reset_mails_per_hour: int = 3
    #: How long a password reset link works (minutes).
    password_reset_minutes: float = 60.0
    #: Chat lines one client may post per minute.
    chat_lines_per_minute: int = 30
    #: Reports (of a chat line or a player) one account may send per hour (karnak.server.admin).
    reports_per_hour: int = 10
    #: Friend requests one account may have waiting for an answer at once.
    friend_requests_pending: int = 50
    #: Open tables (not started) one account, or one guest's address, may create or sit at.
    open_tables_per_client: int = 5
    # ------------------------------------------------------------------ notifications
    #: Notifications one sender (an account, or a guest's address) may cause one account
    #: an hour: invitations, friend requests, tables started or cancelled
    #: (karnak.server.notifications.bounds).
    notifications_per_sender_hour: int = 10
    #: Notifications caused by other people one account may receive a day, all senders.
    notifications_per_recipient_day: int = 200
    #: Read notifications are deleted this many days after they were sent.
    notification_retention_days: int = 90
    #: Notifications kept per account; past it the oldest go, read ones first.
    notifications_kept_per_account: int = 500
    #: Accounts one account may block (karnak.server.friends.blocks).
    blocks_per_account: int = 500
    # ------------------------------------------------------------------ sockets
    #: WebSockets one client address may hold open at once in one process (a game page
    #: opens two: its game's and its account's; karnak.server.sockets).
    sockets_per_client: int = 64
    #: WebSockets one logged-in account may hold open at once in one process.
    sockets_per_account: int = 32
    # ------------------------------------------------------------------ monitoring
    #: Who may read /metrics: comma-separated addresses or networks, or * for everyone
    #: (karnak.server.observability.health). This machine by default: behind a proxy on the
    #: same machine, keep /metrics out of what the proxy forwards (docs/monitoring.md).
    metrics_allow: str = "127.0.0.0/8,::1"


class LimitError(KarnakError):
    """A request refused because it asks for more than a limit allows.

    ``status`` is the HTTP status that fits (422: the request itself is too big, e.g. a bot's
    think time; 429: too many at once, then ``retry_after`` says when to try again).
    ``reason`` names the kind of limit for the refusals metric ("rate", "cap"; None: a
    limit of its own kind, see karnak.server.observability.refusals).
    """

    def __init__(
        self,
        message: str,
        *,
        status: int = 422,
        retry_after: float | None = None,
        reason: str | None = None,
    ):
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after
        self.reason = reason

"""The e-mail service: which notifications become e-mails, confirmations, the daily round.

It listens to the hub's ``notifications`` topic (every notification of every account) and
mails two kinds, to accounts that asked for them at a confirmed address:

- **your turn** (``turn``): only while the account's seat is still to move when the e-mail
  would go (a turn already played is not mailed); never while the account has a Karnak page
  open (its live socket, ``/api/account/ws``, which every page opens once logged in: the
  person sees the notification come in, so an e-mail would only repeat it); and at most one
  per game and account in ``turn_every`` (12 hours by default, ``--mail-turn-hours``), so a
  quick game does not fill an inbox: after one e-mail, the next turns of that game within the
  time are not mailed (the daily reminder and the page still tell them);
- **invitations** (``invitation``): never while a Karnak page is open (as above), and at
  most ``INVITATIONS_PER_HOUR`` an hour per account, however many are sent to it.

Every decision is taken on the event loop from what is in memory and quick database calls in
the server's database threads (karnak.server.executor); the hub's subscriber only queues the
notification (a bounded queue: past it a notification is not mailed, and the log says so),
and a single task looks at them in order.
The e-mail itself is handed to the :class:`~karnak.server.mail.sender.Sender`'s thread, so
a slow or broken SMTP server never holds up the event loop, a move or a notification.

Presence is this process's own: when the hub carries events across several processes, a
page open on another one is not seen, and a "your turn" e-mail may go out that would not have
(the rule errs on the side of telling).

Confirmations: a new address gets one e-mail with a one-time code, and nothing else until
the code comes back. They are spaced so that nobody can make Karnak write to an address over
and over: at most one every ``CONFIRM_SPACING`` to an address (whichever accounts ask), and
``CONFIRMATIONS_PER_DAY`` a day per account (429 with when to retry).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import secrets
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine

from karnak.core.errors import KarnakError
from karnak.i18n import _, t, use_language
from karnak.server.db import utcnow
from karnak.server.hub import Event, Hub, Subscription, account_topic
from karnak.server.limits import LimitError
from karnak.server.mail.compose import (
    Composed,
    Waiting,
    confirmation_mail,
    game_id_of,
    idle_mail,
    invitation_mail,
    turn_mail,
    waiting,
)
from karnak.server.mail.preferences import Preferences, PreferencesIn
from karnak.server.mail.sender import Outgoing, Sender, one_line
from karnak.server.mail.settings import MailSettings
from karnak.server.mail.store import MailStore, digest
from karnak.server.notifications.service import (
    ALL_NOTIFICATIONS,
    Notification,
    account_language,
)

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor
    from karnak.server.service import GameService

log = logging.getLogger("karnak.server")

#: The notification kinds that may become e-mails ("idle": a game about to expire for want
#: of moves, karnak.server.expiry, mailed to those who asked for "your turn" e-mails).
MAILED = ("turn", "invitation", "idle")
#: The choice of the account's that lets each kind go out.
SWITCH_OF = {"turn": "turn", "invitation": "invitation", "idle": "turn"}
#: Notifications waiting to be looked at; past it they are not mailed (and it is logged).
INBOX = 1000
#: How long a confirmation link works.
CONFIRM_HOURS = 48
#: The least time between two confirmations to one address, and the most a day per account.
CONFIRM_SPACING = dt.timedelta(minutes=10)
CONFIRMATIONS_PER_DAY = 5
INVITATIONS_PER_HOUR = 10
#: How long the record of sent e-mails is kept (longer than any rule reads it).
KEEP_SENT = dt.timedelta(days=8)

Clock = Callable[[], dt.datetime]


class MailOffError(KarnakError):
    """E-mail is off on this server (no SMTP server was configured): a state of the server,
    not a fault of the request, hence 409 rather than 422."""

    status = 409


class MailService:
    def __init__(
        self,
        settings: MailSettings,
        engine: Engine,
        executor: DatabaseExecutor,
        hub: Hub,
        games: GameService,
        clock: Clock = utcnow,
    ):
        self.settings = settings
        self.store = MailStore(engine)
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.hub = hub
        self.games = games
        #: The time every rule reads (tests set a fake one).
        self.clock = clock
        self.sender = Sender(settings)
        self._inbox: asyncio.Queue[Notification] = asyncio.Queue(maxsize=INBOX)
        self._subscription: Subscription | None = None
        self._tasks: list[asyncio.Task[None]] = []
        #: The latest decisions (notification id, kind, what was done), for tests and
        #: for looking into a running server.
        self.decided: deque[tuple[int, str, str]] = deque(maxlen=200)

    @property
    def enabled(self) -> bool:
        return self.settings.enabled

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        if not self.enabled:
            return
        from karnak.server.mail.reminders import run_daily

        self.sender.start()
        self._subscription = self.hub.subscribe(ALL_NOTIFICATIONS, self._heard)
        self._tasks = [
            asyncio.create_task(self._consume(), name="karnak-mail-notifications"),
            asyncio.create_task(run_daily(self), name="karnak-mail-daily"),
        ]

    async def stop(self) -> None:
        if self._subscription is not None:
            self._subscription.cancel()
            self._subscription = None
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        # not the database: the sender's SMTP thread is joined off the event loop
        await asyncio.to_thread(self.sender.stop)

    def settings_json(self) -> dict[str, Any]:
        return {"daily_hour": self.settings.daily_hour, "turn_hours": self.settings.turn_hours}

    # ------------------------------------------------------------------ preferences
    async def preferences(self, account: int) -> Preferences:
        return await self.executor.run(self.store.preferences, account, self.clock())

    async def update(self, account: int, change: PreferencesIn) -> Preferences:
        """Store the account's choices; a new address (or ``resend`` for an unconfirmed one)
        gets a confirmation link. MailOffError without an SMTP server; LimitError (429)
        when confirmations to that address or from that account come too often."""
        if not self.enabled:
            raise MailOffError(
                _("e-mail is off on this server: it has no SMTP server to send with")
            )
        now = self.clock()
        current = await self.executor.run(self.store.preferences, account, now)
        address = change.address
        confirm = address is not None and (
            address != current.address or (change.resend and not current.confirmed)
        )
        code = secrets.token_urlsafe(24) if confirm else None
        if confirm:
            assert address is not None
            await self._may_confirm(account, address, now)
        saved = await self.executor.run(
            lambda: self.store.save(
                account,
                address=address,
                turn=change.turn,
                invitation=change.invitation,
                daily=change.daily,
                code_hash=digest(code) if code else None,
                code_expires_at=now + dt.timedelta(hours=CONFIRM_HOURS) if code else None,
                now=now,
            )
        )
        if code is not None and address is not None:
            composed = confirmation_mail(code, self.settings.public_url, CONFIRM_HOURS)
            if self.post(account, address, "confirm", composed):
                await self.executor.run(
                    lambda: self.store.record(
                        account, "confirm", now, address_hash=digest(address.lower())
                    )
                )
        return saved

    async def _may_confirm(self, account: int, address: str, now: dt.datetime) -> None:
        last = await self.executor.run(self.store.last_to_address, digest(address.lower()))
        if last is not None and now - last < CONFIRM_SPACING:
            wait = (CONFIRM_SPACING - (now - last)).total_seconds()
            raise LimitError(
                t(
                    "a confirmation went to this address a moment ago: at most one every "
                    "{spacing} minutes; look for it, or ask again in {minutes} min",
                    spacing=CONFIRM_SPACING.seconds // 60,
                    minutes=max(1, round(wait / 60)),
                ),
                status=429,
                retry_after=wait,
            )
        day = await self.executor.run(
            self.store.sent_since, account, "confirm", now - dt.timedelta(days=1)
        )
        if day >= CONFIRMATIONS_PER_DAY:
            raise LimitError(
                t(
                    "at most {count} confirmation e-mails a day per account; try again tomorrow",
                    count=CONFIRMATIONS_PER_DAY,
                ),
                status=429,
                retry_after=3600.0,
            )

    async def confirm(self, code: str) -> bool:
        """Confirm the address whose link carried ``code`` (False: unknown, used or expired)."""
        return await self.executor.run(self.store.confirm, digest(code), self.clock())

    # ------------------------------------------------------------------ notifications
    def _heard(self, event: Event) -> None:
        """The hub's subscriber: queue the notification, nothing more (it must be quick)."""
        note = event.payload.get("notification")
        if not isinstance(note, Notification) or note.kind not in MAILED:
            return
        try:
            self._inbox.put_nowait(note)
        except asyncio.QueueFull:
            self.decided.append((note.id, note.kind, "inbox full"))
            log.warning(
                "e-mail: %s for account %d not mailed: %d notifications already wait",
                note.kind,
                note.account,
                INBOX,
            )

    async def _consume(self) -> None:
        while True:
            note = await self._inbox.get()
            try:
                decision = await self.handle(note)
            except Exception as exc:  # a broken notification never stops the next ones
                decision = "failed"
                log.warning("e-mail: %s for account %d: %s", note.kind, note.account, one_line(exc))
            self.decided.append((note.id, note.kind, decision))

    async def handle(self, note: Notification) -> str:
        """Mail ``note`` if the rules allow it; what was decided, in a word or two."""
        if note.kind not in MAILED:
            return "not mailed"
        now = self.clock()
        wants = await self.executor.run(self.store.preferences, note.account, now)
        if not wants.wants(SWITCH_OF[note.kind]):
            return "not asked"
        assert wants.address is not None
        if self.connected(note.account):
            return "connected"
        if note.kind == "turn":
            return await self._turn(note, wants.address, now)
        if note.kind == "idle":
            return await self._idle(note, wants.address)
        return await self._invitation(note, wants.address, now)

    def connected(self, account: int) -> bool:
        """Whether the account has a Karnak page open here (its live socket)."""
        return self.hub.subscribers(account_topic(account)) > 0

    async def _turn(self, note: Notification, address: str, now: dt.datetime) -> str:
        game_id = game_id_of(note.link)
        if game_id is None:
            return "no game"
        game = await self.waiting_for(game_id, note.account)
        if game is None:
            return "not to move"
        every = dt.timedelta(seconds=self.settings.turn_every)
        if every:
            recent: int = await self.executor.run(
                self.store.sent_since, note.account, "turn", now - every, game_id
            )
            if recent:
                return "recent"
        language = await self.language_of(note.account)
        with use_language(language):  # the reader's language (its account's setting)
            composed = turn_mail(game, now, self.settings.public_url, self.settings.turn_hours)
        if not self.post(note.account, address, "turn", composed):
            return "dropped"
        await self.executor.run(
            lambda: self.store.record(note.account, "turn", now, game_id=game_id)
        )
        return "sent"

    async def _invitation(self, note: Notification, address: str, now: dt.datetime) -> str:
        hour = await self.executor.run(
            self.store.sent_since, note.account, "invitation", now - dt.timedelta(hours=1)
        )
        if hour >= INVITATIONS_PER_HOUR:
            return "too many"
        game_id = game_id_of(note.link)
        game = await self.game_for(game_id, note.account) if game_id else None
        language = await self.language_of(note.account)
        with use_language(language):  # the reader's, as the notification's own words are
            composed = invitation_mail(note.text, note.link, game, self.settings.public_url)
        if not self.post(note.account, address, "invitation", composed):
            return "dropped"
        await self.executor.run(lambda: self.store.record(note.account, "invitation", now))
        return "sent"

    async def _idle(self, note: Notification, address: str) -> str:
        """A game about to expire: sent once per warning (the warning itself is sent once,
        karnak.server.expiry), so it needs no spacing of its own."""
        language = await self.language_of(note.account)
        with use_language(language):  # the reader's, as the notification's own words are
            composed = idle_mail(note.text, note.link, self.settings.public_url)
        return "sent" if self.post(note.account, address, "idle", composed) else "dropped"

    async def language_of(self, account: int) -> str:
        """The language the account reads its e-mails in (its setting, else English)."""
        return await self.executor.run(account_language, self.store.engine, account)

    # ------------------------------------------------------------------ games
    async def game_for(
        self, game_id: str, account: int, since: dt.datetime | None = None
    ) -> Waiting | None:
        """The public facts of a game for the account's e-mail (None: no such game here)."""
        try:
            room = await self.games.room(game_id)
        except KarnakError:
            return None
        if since is None:
            since = await self.executor.run(self.store.public_since, game_id) or self.clock()
        seat = room.seat_for_account(account)
        return waiting(room, -1 if seat is None else seat, since)

    async def waiting_for(
        self, game_id: str, account: int, since: dt.datetime | None = None
    ) -> Waiting | None:
        """The game if it is running and the account's seat is to move in it, else None."""
        try:
            room = await self.games.room(game_id)
        except KarnakError:
            return None
        seat = room.seat_for_account(account)
        if seat is None or room.is_over or seat not in room.state.to_move():
            return None
        if since is None:
            since = await self.executor.run(self.store.public_since, game_id) or self.clock()
        return waiting(room, seat, since)

    # ------------------------------------------------------------------ sending
    def post(self, account: int, address: str, kind: str, composed: Composed) -> bool:
        return self.sender.post(Outgoing(address, composed.subject, composed.body, kind, account))

"""Storing notifications and telling connected pages (through the hub).

What people cause others to be told is bounded, and old notifications are pruned: see
karnak.server.notifications.bounds (:meth:`Notifier.notify_from`, :meth:`Notifier.check`).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import Session, sessionmaker

from karnak.i18n import ENGLISH, normalise
from karnak.server.accounts.tables import AccountRow
from karnak.server.db import utcnow
from karnak.server.hub import ALL_NOTIFICATIONS as ALL_NOTIFICATIONS
from karnak.server.hub import Hub, account_topic
from karnak.server.notifications import bounds
from karnak.server.notifications.bounds import NotificationLimits, Sender
from karnak.server.notifications.tables import NotificationRow

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

# Every notification is published on ALL_NOTIFICATIONS too, besides its account's topic (the
# e-mail listens there). The hub defines that topic, among those it keeps in this process;
# it is imported from there and still exported from here.
KINDS = (
    "turn",
    "invitation",
    "game_over",
    "friend_request",
    "friend_accepted",
    "time",
    "table",
    "idle",  # a game without a clock about to expire, or expired (karnak.server.expiry)
)
MAX_TEXT = 300
#: Notifications leading to a game's page are grouped: an account keeps one per game, the
#: newest (a new one replaces the older ones of that game), and opening the game's page
#: marks it read (karnak.server.tables.turns).
GAME_LINK = "/games/"
#: The kinds grouped so: the server's own notices of a game (not what people send). A
#: clock's warnings ("time": at most three a wait, karnak.server.timebank) and an idle game's
#: warning and expiry ("idle", karnak.server.expiry) stay each: each is a deadline to keep.
GROUPED = frozenset({"turn", "game_over", "table"})
#: The most notifications listed at once (the newest).
LIST_LIMIT = 50


@dataclass(frozen=True)
class Notification:
    id: int
    account: int
    kind: str
    text: str
    link: str | None
    created_at: dt.datetime
    read: bool
    #: The account's unread notifications once this one was stored (pushed with it).
    unread: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "text": self.text,
            "link": self.link,
            "created_at": self.created_at.isoformat(),
            "read": self.read,
        }


def _of(row: NotificationRow) -> Notification:
    return Notification(
        row.id,
        row.account_id,
        row.kind,
        row.text,
        row.link,
        row.created_at,
        row.read_at is not None,
    )


log = logging.getLogger("karnak.server")


def account_language(engine: Engine, account: int) -> str:
    """The language an account reads Karnak in: its setting, else English (what it is told
    while away, notifications and e-mails, is written in it)."""
    with engine.connect() as connection:
        chosen = connection.scalar(select(AccountRow.language).where(AccountRow.id == account))
    return normalise(chosen) or ENGLISH


#: How often one process deletes the read notifications past their retention (seconds).
PRUNE_EVERY = 3600.0


class Notifier:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        hub: Hub,
        limits: NotificationLimits | None = None,
    ):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.engine = engine
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.hub = hub
        self.limits = limits or NotificationLimits()
        self._pruned = -math.inf  # time.monotonic() of this process's last retention sweep
        #: A game's grouped notices stored one at a time: two arriving together (a table
        #: started, then at once the bot's move made it a turn) would each find no earlier
        #: one to replace, on a database with several threads. (Across processes they can
        #: still meet; the next notice of the game groups them again.)
        self._grouping = asyncio.Lock()

    async def notify(
        self, account: int, kind: str, text: str, link: str | None = None
    ) -> Notification:
        """Store a notification of the server's own for ``account`` (a turn, a clock) and
        tell its connected pages (and whoever handles every notification, like the e-mail
        sender)."""
        note = await self._deliver(account, kind, text, link, None)
        assert note is not None  # the server's own are never refused
        return note

    async def notify_from(
        self, sender: Sender, account: int, kind: str, text: str, link: str | None = None
    ) -> Notification | None:
        """The same for one that a person caused: None, and nothing stored or told, when
        ``account`` blocked them or they reached a bound (see karnak.server.notifications
        .bounds). Call :meth:`check` first where the sender should be told why."""
        return await self._deliver(account, kind, text, link, sender)

    async def check(self, sender: Sender, account: int, doing: str) -> None:
        """Refuse (BlockedError, 403; LimitError, 429) what would notify ``account`` past a
        bound or a block. ``doing`` is the block's refusal, a whole "you cannot ..." marked
        with ``N_`` (e.g. ``bounds.INVITE``; it says no more, so that it does not tell the
        sender they are blocked), translated into the request's language."""
        refused = await self.executor.run(self._refusal, sender, account, doing)
        if refused is not None:
            raise refused

    async def may_notify(self, sender: Sender, account: int) -> bool:
        return await self.executor.run(self._refusal, sender, account, bounds.NOTIFY) is None

    def _refusal(self, sender: Sender, account: int, doing: str) -> Exception | None:
        with self.sessions() as session:
            return bounds.refusal(session, self.limits, sender, account, utcnow(), doing)

    async def _deliver(
        self, account: int, kind: str, text: str, link: str | None, sender: Sender | None
    ) -> Notification | None:
        if kind not in KINDS:
            raise ValueError(f"unknown notification kind {kind!r}")
        if kind in GROUPED:
            async with self._grouping:
                note = await self.executor.run(
                    self._store, account, kind, text[:MAX_TEXT], link, sender
                )
        else:
            note = await self.executor.run(
                self._store, account, kind, text[:MAX_TEXT], link, sender
            )
        if note is None:
            return None
        message = {"notification": note.to_json(), "unread": note.unread}
        self.hub.publish(account_topic(account), "notification", {"message": message})
        self.hub.publish(ALL_NOTIFICATIONS, "notification", {"notification": note})
        return note

    def _store(
        self, account: int, kind: str, text: str, link: str | None, sender: Sender | None
    ) -> Notification | None:
        now = utcnow()
        with self.sessions.begin() as session:
            if sender is not None:
                refused = bounds.refusal(session, self.limits, sender, account, now)
                if refused is not None:
                    log.debug("a notification for account %s was dropped: %s", account, refused)
                    return None
            row = NotificationRow(
                account_id=account,
                kind=kind,
                text=text,
                link=link,
                sender=sender.key if sender is not None else None,
                created_at=now,
            )
            session.add(row)
            session.flush()
            if kind in GROUPED and link is not None and link.startswith(GAME_LINK):
                # one entry per game: the newest replaces the others (deleted after the new
                # one is stored, so that its id is a new one, even where ids are reused)
                session.execute(
                    delete(NotificationRow).where(
                        NotificationRow.account_id == account,
                        NotificationRow.link == link,
                        NotificationRow.kind.in_(GROUPED),
                        NotificationRow.id != row.id,
                    )
                )
            bounds.keep_bounded(session, self.limits, account)
            note = dataclasses.replace(_of(row), unread=self._unread(session, account))
        self._prune_now_and_then(now)
        return note

    def prune_next_time(self) -> None:
        """Let the next notification stored run the retention sweep, however recent the
        last one was (tests: as if PRUNE_EVERY had passed)."""
        self._pruned = -math.inf

    def _prune_now_and_then(self, now: dt.datetime) -> None:
        """The retention sweep, at most every PRUNE_EVERY seconds in this process."""
        clock = time.monotonic()
        if clock - self._pruned < PRUNE_EVERY:
            return
        self._pruned = clock
        with self.sessions.begin() as session:
            gone = bounds.prune_expired(session, self.limits, now)
        if gone:
            log.info("deleted %d read notifications past their retention", gone)

    async def listed(self, account: int, limit: int = LIST_LIMIT) -> tuple[list[Notification], int]:
        """The newest notifications of ``account`` and how many are unread."""
        return await self.executor.run(self._listed, account, limit)

    def _listed(self, account: int, limit: int) -> tuple[list[Notification], int]:
        with self.sessions() as session:
            rows = session.scalars(
                select(NotificationRow)
                .where(NotificationRow.account_id == account)
                .order_by(NotificationRow.id.desc())
                .limit(limit)
            ).all()
            return [_of(row) for row in rows], self._unread(session, account)

    @staticmethod
    def _unread(session: Session, account: int) -> int:
        unread = session.scalar(
            select(func.count())
            .select_from(NotificationRow)
            .where(NotificationRow.account_id == account, NotificationRow.read_at.is_(None))
        )
        return int(unread or 0)

    async def mark_game_read(self, account: int, game_id: str) -> int:
        """Mark read the account's notifications of one game (its page was opened); how
        many. The account's pages hear the new unread count (``notifications_read``)."""
        marked, unread = await self.executor.run(self._mark_game_read, account, game_id)
        if marked:
            message = {"game_id": game_id, "marked": marked, "unread": unread}
            self.hub.publish(account_topic(account), "notifications_read", {"message": message})
        return marked

    def _mark_game_read(self, account: int, game_id: str) -> tuple[int, int]:
        with self.sessions.begin() as session:
            result = session.execute(
                update(NotificationRow)
                .where(
                    NotificationRow.account_id == account,
                    NotificationRow.link == f"{GAME_LINK}{game_id}",
                    NotificationRow.read_at.is_(None),
                )
                .values(read_at=utcnow())
            )
            return int(getattr(result, "rowcount", 0) or 0), self._unread(session, account)

    async def mark_read(self, account: int, up_to: int | None = None) -> int:
        """Mark the account's notifications read (up to id ``up_to``, or all); how many."""
        return await self.executor.run(self._mark_read, account, up_to)

    def _mark_read(self, account: int, up_to: int | None) -> int:
        with self.sessions.begin() as session:
            query = update(NotificationRow).where(
                NotificationRow.account_id == account, NotificationRow.read_at.is_(None)
            )
            if up_to is not None:
                query = query.where(NotificationRow.id <= up_to)
            result = session.execute(query.values(read_at=utcnow()))
            return int(getattr(result, "rowcount", 0) or 0)

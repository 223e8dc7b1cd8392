"""What one sender may cause one account to be told, and how long notifications are kept.

A notification costs its sender nothing and its reader attention, so what people cause
others to be told is bounded (counted in the database, which every server process shares):

- **per sender and reader**: ``notifications_per_sender_hour`` (10) an hour from one sender
  (an account, or a guest by the hash of their address) to one account: invitations to
  tables, friend requests and answers, tables started or cancelled. Inviting a name and
  withdrawing it in a loop (once 320 notifications in a minute) stops at the tenth;
- **per reader**: ``notifications_per_recipient_day`` (200) a day from all senders together,
  so that many accounts made for the purpose cannot flood one person either;
- **blocks**: nothing from an account its reader blocked (karnak.server.friends.blocks).

The server's own notifications (your turn, your clock, a game over) have no sender and are
not counted: the games bound them. A request that would notify past a bound is refused
before it does anything (an invitation, a friend request: 429, or 403 for a block, whose
message does not say that it is one); a notice that merely follows from an action (a table
started) is dropped instead.

Kept: a read notification is deleted ``notification_retention_days`` (90) after it was
sent, and an account keeps at most ``notifications_kept_per_account`` (500), the oldest
read ones going first, then the oldest unread. The per-account bound is applied as each
notification is stored; the retention by a sweep that any process runs now and then as it
stores one. Both are plain DELETEs of rows past a bound, so two processes doing them at once
delete the same rows and nothing else: no lease or lock is needed.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass

from sqlalchemy import case, delete, func, select
from sqlalchemy.orm import Session

from karnak.core.errors import KarnakError
from karnak.i18n import N_, _, t
from karnak.server.friends.tables import BlockRow
from karnak.server.limits import LimitError, ServerSettings
from karnak.server.notifications.tables import NotificationRow

HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)
#: A block's refusals: what the sender is told, no more (not that they are blocked).
NOTIFY = N_("you cannot notify this player")
INVITE = N_("you cannot invite this player")


class BlockedError(KarnakError):
    """The reader blocked the sender; the message says only what cannot be done."""

    status = 403


@dataclass(frozen=True)
class Sender:
    """Who causes a notification: an account, or a guest by the hash of their address."""

    account: int | None = None
    client: str | None = None

    @property
    def key(self) -> str:
        if self.account is not None:
            return f"account:{self.account}"
        return f"guest:{(self.client or 'unknown')[:64]}"


@dataclass(frozen=True)
class NotificationLimits:
    """The bounds above (from ServerSettings; tests shrink them)."""

    per_sender_hour: int = 10
    per_recipient_day: int = 200
    retention_days: int = 90
    kept_per_account: int = 500

    @classmethod
    def of(cls, settings: ServerSettings) -> NotificationLimits:
        return cls(
            per_sender_hour=settings.notifications_per_sender_hour,
            per_recipient_day=settings.notifications_per_recipient_day,
            retention_days=settings.notification_retention_days,
            kept_per_account=settings.notifications_kept_per_account,
        )


def aware(moment: dt.datetime) -> dt.datetime:
    """A stored time in UTC (SQLite gives naive times back)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def is_blocked(session: Session, blocker: int, blocked: int) -> bool:
    """Whether account ``blocker`` blocked account ``blocked``."""
    found = session.scalar(
        select(BlockRow.id).where(BlockRow.blocker_id == blocker, BlockRow.blocked_id == blocked)
    )
    return found is not None


def refusal(
    session: Session,
    limits: NotificationLimits,
    sender: Sender,
    reader: int,
    now: dt.datetime,
    doing: str = NOTIFY,
) -> KarnakError | None:
    """Why ``sender`` may not notify ``reader`` now (None: it may), in the current
    language. ``doing`` is a block's whole refusal ("you cannot ...", marked with ``N_``),
    translated here."""
    if sender.account is not None and is_blocked(session, reader, sender.account):
        return BlockedError(_(doing))
    mine = session.execute(
        select(func.count(), func.min(NotificationRow.created_at)).where(
            NotificationRow.account_id == reader,
            NotificationRow.sender == sender.key,
            NotificationRow.created_at > now - HOUR,
        )
    ).one()
    if int(mine[0] or 0) >= limits.per_sender_hour:
        wait = retry_after(mine[1], HOUR, now)
        return LimitError(
            t(
                "you have caused this player {count} notifications in the last hour "
                "(invitations, friend requests), the most one player may "
                "(notifications_per_sender_hour); try again in {minutes} min",
                count=limits.per_sender_hour,
                minutes=math.ceil(wait / 60),
            ),
            status=429,
            retry_after=wait,
        )
    everyone = session.execute(
        select(func.count(), func.min(NotificationRow.created_at)).where(
            NotificationRow.account_id == reader,
            NotificationRow.sender.is_not(None),
            NotificationRow.created_at > now - DAY,
        )
    ).one()
    if int(everyone[0] or 0) >= limits.per_recipient_day:
        wait = retry_after(everyone[1], DAY, now)
        return LimitError(
            t(
                "this player has been sent {count} notifications by other players today, "
                "the most one account receives (notifications_per_recipient_day); "
                "try again in {hours} h",
                count=limits.per_recipient_day,
                hours=math.ceil(wait / 3600),
            ),
            status=429,
            retry_after=wait,
        )
    return None


def retry_after(oldest: dt.datetime | None, window: dt.timedelta, now: dt.datetime) -> float:
    """Seconds until the oldest counted notification leaves the window (at least one)."""
    if oldest is None:
        return window.total_seconds()
    return max(1.0, (aware(oldest) + window - now).total_seconds())


def keep_bounded(session: Session, limits: NotificationLimits, account: int) -> int:
    """Delete the account's notifications past ``kept_per_account``: the oldest read ones
    first, then the oldest unread; how many went."""
    count = int(
        session.scalar(
            select(func.count())
            .select_from(NotificationRow)
            .where(NotificationRow.account_id == account)
        )
        or 0
    )
    excess = count - limits.kept_per_account
    if excess <= 0:
        return 0
    unread_last = case((NotificationRow.read_at.is_(None), 1), else_=0)
    doomed = session.scalars(
        select(NotificationRow.id)
        .where(NotificationRow.account_id == account)
        .order_by(unread_last, NotificationRow.id)
        .limit(excess)
    ).all()
    session.execute(delete(NotificationRow).where(NotificationRow.id.in_(list(doomed))))
    return len(doomed)


def prune_expired(session: Session, limits: NotificationLimits, now: dt.datetime) -> int:
    """Delete every read notification sent more than ``retention_days`` ago; how many."""
    cutoff = now - dt.timedelta(days=limits.retention_days)
    result = session.execute(
        delete(NotificationRow).where(
            NotificationRow.read_at.is_not(None), NotificationRow.created_at < cutoff
        )
    )
    return int(getattr(result, "rowcount", 0) or 0)

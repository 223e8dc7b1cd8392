"""Storing notifications and telling connected pages (through the hub)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, func, select, update
from sqlalchemy.orm import sessionmaker

from karnak.server.db import utcnow
from karnak.server.hub import ALL_NOTIFICATIONS as ALL_NOTIFICATIONS
from karnak.server.hub import Hub, account_topic
from karnak.server.notifications.tables import NotificationRow

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

# Every notification is published on ALL_NOTIFICATIONS too, besides its account's topic (the
# e-mail listens there). The hub defines that topic, among those it keeps in this process;
# it is imported from there and still exported from here.
KINDS = ("turn", "invitation", "game_over", "friend_request", "friend_accepted", "time", "table")
MAX_TEXT = 300
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


class Notifier:
    def __init__(self, engine: Engine, executor: DatabaseExecutor, hub: Hub):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.hub = hub

    async def notify(
        self, account: int, kind: str, text: str, link: str | None = None
    ) -> Notification:
        """Store a notification for ``account`` and tell its connected pages (and whoever
        handles every notification, like the e-mail sender)."""
        if kind not in KINDS:
            raise ValueError(f"unknown notification kind {kind!r}")
        note = await self.executor.run(self._store, account, kind, text[:MAX_TEXT], link)
        message = {"notification": note.to_json()}
        self.hub.publish(account_topic(account), "notification", {"message": message})
        self.hub.publish(ALL_NOTIFICATIONS, "notification", {"notification": note})
        return note

    def _store(self, account: int, kind: str, text: str, link: str | None) -> Notification:
        with self.sessions.begin() as session:
            row = NotificationRow(account_id=account, kind=kind, text=text, link=link)
            session.add(row)
            session.flush()
            return _of(row)

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
            unread = session.scalar(
                select(func.count())
                .select_from(NotificationRow)
                .where(NotificationRow.account_id == account, NotificationRow.read_at.is_(None))
            )
            return [_of(row) for row in rows], int(unread or 0)

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

"""Crowd tables in the database (synchronous: the service runs it in the database threads).

Every server process runs the same timetable. Each change that only one process may make
is a conditional update whose row count says who made it: scheduling (the unique game and
start), reminding (``reminded_at`` still empty) and starting (``scheduled`` to
``starting``). A process that dies while starting a crowd leaves it "starting"; after
:data:`STALE_STARTING` any process starts it again.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from sqlalchemy import Engine, and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import t
from karnak.server.accounts.tables import AccountRow
from karnak.server.crowds.tables import CrowdMemberRow, CrowdRow
from karnak.server.db import aware, exclusive

#: The advisory lock joins take (PostgreSQL): the count of members and the new one agree.
JOIN_LOCK = 0x4B41524E414B43  # "KARNAKC"
#: How long a started crowd stays in the list (its game linked).
RECENT = dt.timedelta(hours=1)
#: A crowd left "starting" this long by a process is started again by another.
STALE_STARTING = dt.timedelta(minutes=2)


class CrowdError(KarnakError):
    """A crowd request refused; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Crowd:
    id: str
    game: str
    starts_at: dt.datetime
    seats: int
    turn_timer: float
    status: str
    game_id: str | None
    members: int


@dataclass(frozen=True)
class Member:
    account: int
    name: str


def _crowd(row: CrowdRow, members: int) -> Crowd:
    return Crowd(
        row.id,
        row.game,
        aware(row.starts_at),
        row.seats,
        row.turn_timer,
        row.status,
        row.game_id,
        members,
    )


class CrowdStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def schedule(
        self,
        game: str,
        starts_at: dt.datetime,
        seats: int,
        turn_timer: float,
        by: int | None,
        now: dt.datetime,
    ) -> tuple[Crowd, bool]:
        """The crowd of ``game`` at ``starts_at``, made now unless one is there already
        (then True/False says whether this call made it)."""
        try:
            with self.sessions.begin() as session:
                row = CrowdRow(
                    id=secrets.token_urlsafe(9),
                    game=game,
                    starts_at=starts_at,
                    seats=seats,
                    turn_timer=turn_timer,
                    status="scheduled",
                    scheduled_by=by,
                    created_at=now,
                )
                session.add(row)
            return _crowd(row, 0), True
        except IntegrityError:
            with self.sessions() as session:
                found = session.scalars(
                    select(CrowdRow).where(CrowdRow.game == game, CrowdRow.starts_at == starts_at)
                ).one()
                return _crowd(found, self._count(session, found.id)), False

    @staticmethod
    def _count(session: Session, crowd_id: str) -> int:
        return int(
            session.scalar(
                select(func.count())
                .select_from(CrowdMemberRow)
                .where(CrowdMemberRow.crowd_id == crowd_id)
            )
            or 0
        )

    def load(self, crowd_id: str) -> Crowd | None:
        with self.sessions() as session:
            row = session.get(CrowdRow, crowd_id)
            return _crowd(row, self._count(session, row.id)) if row is not None else None

    def upcoming(self, now: dt.datetime, limit: int) -> list[Crowd]:
        """The crowds still to start, soonest first, and those that started in the last
        :data:`RECENT` (with their game)."""
        with self.sessions() as session:
            rows = session.scalars(
                select(CrowdRow)
                .where(
                    or_(
                        CrowdRow.status.in_(("scheduled", "starting")),
                        # started lately: its members find their game from the list
                        and_(CrowdRow.status == "started", CrowdRow.starts_at >= now - RECENT),
                    )
                )
                .order_by(CrowdRow.starts_at, CrowdRow.id)
                .limit(limit)
            ).all()
            return [_crowd(row, self._count(session, row.id)) for row in rows]

    def joined(self, account: int, ids: list[str]) -> set[str]:
        """Which of the crowds ``ids`` the account joined."""
        if not ids:
            return set()
        with self.sessions() as session:
            return set(
                session.scalars(
                    select(CrowdMemberRow.crowd_id).where(
                        CrowdMemberRow.account_id == account, CrowdMemberRow.crowd_id.in_(ids)
                    )
                )
            )

    def join(self, crowd_id: str, account: int, now: dt.datetime) -> Crowd:
        with self.sessions.begin() as session:
            exclusive(session, JOIN_LOCK)
            row = session.get(CrowdRow, crowd_id)
            if row is None:
                raise CrowdError(t("there is no crowd table with this id"), 404)
            if row.status != "scheduled" or aware(row.starts_at) <= now:
                raise CrowdError(t("this crowd table has started: join the next one"), 409)
            members = self._count(session, crowd_id)
            mine = session.scalar(
                select(CrowdMemberRow.id).where(
                    CrowdMemberRow.crowd_id == crowd_id, CrowdMemberRow.account_id == account
                )
            )
            if mine is None:
                if members >= row.seats:
                    raise CrowdError(t("this crowd table is full: join the next one"), 409)
                session.add(CrowdMemberRow(crowd_id=crowd_id, account_id=account, joined_at=now))
                members += 1
            return _crowd(row, members)

    def leave(self, crowd_id: str, account: int) -> bool:
        with self.sessions.begin() as session:
            row = session.get(CrowdRow, crowd_id)
            if row is None:
                raise CrowdError(t("there is no crowd table with this id"), 404)
            if row.status != "scheduled":
                raise CrowdError(t("this crowd table has started: leave its game instead"), 409)
            done = session.execute(
                delete(CrowdMemberRow).where(
                    CrowdMemberRow.crowd_id == crowd_id, CrowdMemberRow.account_id == account
                )
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def members(self, crowd_id: str) -> list[Member]:
        with self.sessions() as session:
            rows = session.execute(
                select(CrowdMemberRow.account_id, AccountRow.name)
                .join(AccountRow, AccountRow.id == CrowdMemberRow.account_id)
                .where(CrowdMemberRow.crowd_id == crowd_id)
                .order_by(CrowdMemberRow.joined_at, CrowdMemberRow.id)
            ).all()
            return [Member(int(a), str(n)) for a, n in rows]

    def to_remind(self, now: dt.datetime, before: dt.timedelta) -> list[Crowd]:
        """Crowds starting within ``before`` whose members were not reminded: each is
        claimed here, so one process reminds them, once."""
        with self.sessions() as session:
            ids = list(
                session.scalars(
                    select(CrowdRow.id).where(
                        CrowdRow.status == "scheduled",
                        CrowdRow.reminded_at.is_(None),
                        CrowdRow.starts_at <= now + before,
                        CrowdRow.starts_at > now,
                    )
                )
            )
        claimed = []
        for crowd_id in ids:
            with self.sessions.begin() as session:
                done = session.execute(
                    update(CrowdRow)
                    .where(CrowdRow.id == crowd_id, CrowdRow.reminded_at.is_(None))
                    .values(reminded_at=now)
                )
                if done.rowcount:  # type: ignore[attr-defined]
                    row = session.get(CrowdRow, crowd_id)
                    if row is not None:
                        claimed.append(_crowd(row, self._count(session, crowd_id)))
        return claimed

    def to_start(self, now: dt.datetime) -> list[Crowd]:
        """Crowds whose time has come, each claimed here ("starting") by one process."""
        with self.sessions() as session:
            ids = list(
                session.scalars(
                    select(CrowdRow.id).where(
                        CrowdRow.starts_at <= now,
                        or_(
                            CrowdRow.status == "scheduled",
                            and_(
                                CrowdRow.status == "starting",
                                CrowdRow.starts_at <= now - STALE_STARTING,
                            ),
                        ),
                    )
                )
            )
        claimed = []
        for crowd_id in ids:
            with self.sessions.begin() as session:
                row = session.get(CrowdRow, crowd_id)
                if row is None:
                    continue
                done = session.execute(
                    update(CrowdRow)
                    .where(CrowdRow.id == crowd_id, CrowdRow.status == row.status)
                    .values(status="starting", starts_at=row.starts_at)
                )
                if done.rowcount:  # type: ignore[attr-defined]
                    claimed.append(_crowd(row, self._count(session, crowd_id)))
        return claimed

    def settle(self, crowd_id: str, status: str, game_id: str | None) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(CrowdRow)
                .where(CrowdRow.id == crowd_id)
                .values(status=status, game_id=game_id)
            )

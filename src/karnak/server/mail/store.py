"""The e-mail module's database calls (synchronous and short; the service runs them in
threads). It writes only its own tables; it reads the games' and seats' tables to find the
running games an account holds a seat in, and when each last changed in public.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import CursorResult, Engine, Table, delete, func, select, update
from sqlalchemy.orm import sessionmaker

from karnak.server.db import GameRow, SeatRow
from karnak.server.mail.preferences import Preferences
from karnak.server.mail.tables import MailPreferenceRow, MailSentRow


def aware(moment: dt.datetime) -> dt.datetime:
    """A time read back from the database, in UTC (SQLite gives naive times back)."""
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class HeldSeat:
    """A running game in which an account holds a seat, and its last public change."""

    account: int
    game_id: str
    public_since: dt.datetime


class MailStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.engine = engine

    # ------------------------------------------------------------------ preferences
    def preferences(self, account: int, now: dt.datetime) -> Preferences:
        with self.sessions() as session:
            row = session.get(MailPreferenceRow, account)
            return _of(row, now) if row is not None else Preferences()

    def save(
        self,
        account: int,
        *,
        address: str | None,
        turn: bool,
        invitation: bool,
        daily: bool,
        code_hash: str | None,
        code_expires_at: dt.datetime | None,
        now: dt.datetime,
    ) -> Preferences:
        """Store the account's choices. A different address replaces the old one unconfirmed
        (with ``code_hash``, the new confirmation's code); the same address keeps its state,
        unless a new code is given (a confirmation sent again). Turning the daily reminder
        on counts as today's round: the first reminder comes at the next hour set."""
        with self.sessions.begin() as session:
            row = session.get(MailPreferenceRow, account)
            if row is None:
                row = MailPreferenceRow(account_id=account, turn=True, invitation=True, daily=False)
                session.add(row)
            if address != row.address or code_hash is not None:
                if address != row.address:
                    row.confirmed_at = None
                row.address = address
                row.code_hash = code_hash
                row.code_expires_at = code_expires_at
            if daily and not row.daily:
                row.daily_checked_at = now
            row.turn, row.invitation, row.daily = turn, invitation, daily
            row.updated_at = now
            session.flush()
            return _of(row, now)

    def confirm(self, code_hash: str, now: dt.datetime) -> bool:
        """Confirm the address whose link carried this code (once, before it expires)."""
        with self.sessions.begin() as session:
            row = session.scalars(
                select(MailPreferenceRow).where(MailPreferenceRow.code_hash == code_hash)
            ).one_or_none()
            if row is None or row.code_expires_at is None or row.address is None:
                return False
            if aware(row.code_expires_at) <= now:
                return False
            row.confirmed_at = now
            row.code_hash = row.code_expires_at = None
            row.updated_at = now
            return True

    # ------------------------------------------------------------------ what was sent
    def record(
        self,
        account: int,
        kind: str,
        now: dt.datetime,
        *,
        game_id: str | None = None,
        address_hash: str | None = None,
    ) -> None:
        with self.sessions.begin() as session:
            session.add(
                MailSentRow(
                    account_id=account,
                    kind=kind,
                    game_id=game_id,
                    address_hash=address_hash,
                    sent_at=now,
                )
            )

    def sent_since(
        self, account: int, kind: str, since: dt.datetime, game_id: str | None = None
    ) -> int:
        """How many e-mails of ``kind`` went to the account since then (about one game)."""
        query = (
            select(func.count())
            .select_from(MailSentRow)
            .where(
                MailSentRow.account_id == account,
                MailSentRow.kind == kind,
                MailSentRow.sent_at > since,
            )
        )
        if game_id is not None:
            query = query.where(MailSentRow.game_id == game_id)
        with self.sessions() as session:
            return int(session.scalar(query) or 0)

    def last_to_address(self, address_hash: str) -> dt.datetime | None:
        """When a confirmation last went to this address (from any account)."""
        with self.sessions() as session:
            found = session.scalar(
                select(func.max(MailSentRow.sent_at)).where(
                    MailSentRow.address_hash == address_hash
                )
            )
            return aware(found) if found is not None else None

    def prune(self, before: dt.datetime) -> int:
        with self.sessions.begin() as session:
            result = session.execute(delete(MailSentRow).where(MailSentRow.sent_at < before))
            return int(getattr(result, "rowcount", 0) or 0)

    # ------------------------------------------------------------------ the daily round
    def daily_due(self, slot: dt.datetime) -> dict[int, str]:
        """The confirmed addresses (by account) that want the daily reminder and have not
        been looked at since ``slot``."""
        with self.sessions() as session:
            rows = session.execute(
                select(MailPreferenceRow.account_id, MailPreferenceRow.address).where(
                    MailPreferenceRow.daily.is_(True),
                    MailPreferenceRow.address.is_not(None),
                    MailPreferenceRow.confirmed_at.is_not(None),
                    (MailPreferenceRow.daily_checked_at.is_(None))
                    | (MailPreferenceRow.daily_checked_at < slot),
                )
            ).all()
            return {account: address for account, address in rows if address is not None}

    def mark_daily(self, account: int, now: dt.datetime, slot: dt.datetime) -> bool:
        """Write down that the account's round of ``slot`` is done; whether this call did
        it. Decided by the database (only a round not yet marked since ``slot`` is marked),
        so when several server processes run the round at once, one of them sends it."""
        table = cast(Table, MailPreferenceRow.__table__)
        with self.sessions.begin() as session:
            marked = session.execute(
                update(table)
                .where(
                    table.c.account_id == account,
                    (table.c.daily_checked_at.is_(None)) | (table.c.daily_checked_at < slot),
                )
                .values(daily_checked_at=now)
            )
            return bool(cast(CursorResult[Any], marked).rowcount)

    def running_seats(self, accounts: Iterable[int]) -> list[HeldSeat]:
        """The running games in which these accounts hold seats."""
        wanted = list(accounts)
        if not wanted:
            return []
        with self.sessions() as session:
            rows = session.execute(
                select(SeatRow.account_id, GameRow.id, GameRow.public_updated_at)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(SeatRow.account_id.in_(wanted), GameRow.status == "running")
            ).all()
            return [
                HeldSeat(account, game_id, aware(since))
                for account, game_id, since in rows
                if account is not None
            ]

    def public_since(self, game_id: str) -> dt.datetime | None:
        """When the game last changed in a way everyone saw."""
        with self.sessions() as session:
            found = session.scalar(select(GameRow.public_updated_at).where(GameRow.id == game_id))
            return aware(found) if found is not None else None


def _of(row: MailPreferenceRow, now: dt.datetime) -> Preferences:
    pending = (
        row.confirmed_at is None
        and row.code_expires_at is not None
        and aware(row.code_expires_at) > now
    )
    return Preferences(
        address=row.address,
        confirmed=row.address is not None and row.confirmed_at is not None,
        pending=pending,
        turn=row.turn,
        invitation=row.invitation,
        daily=row.daily,
    )

"""The administration's tables (migration 0013_admin): the reports players send and the
audit log of administrators' actions.

Neither table has a foreign key to the accounts or games it names: a report about an account
or a game outlives their deletion (the deletion is itself reported in the audit log), so
each row keeps the names it needs to be read alone, and the ids only as a link while the
thing named exists.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class ReportRow(Base):
    """A player's report of a chat line or of another player, open until an administrator
    closes it with a note."""

    __tablename__ = "reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: "chat" (a line of a game's chat) or "player" (an account).
    kind: Mapped[str] = mapped_column(String(8))
    reporter_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    reporter_name: Mapped[str] = mapped_column(String(40))
    #: The account reported (for a chat line: the account that held the seat then, if any).
    target_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    target_name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The chat line reported: its game, its number there, and its text when reported.
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    line: Mapped[int | None] = mapped_column(Integer, nullable=True)
    line_text: Mapped[str | None] = mapped_column(Text, nullable=True)
    reason: Mapped[str] = mapped_column(Text)
    #: "open" or "closed".
    status: Mapped[str] = mapped_column(String(8), default="open", index=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    closed_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    closed_by: Mapped[str | None] = mapped_column(String(40), nullable=True)
    note: Mapped[str | None] = mapped_column(Text, nullable=True)


class AuditRow(Base):
    """One administrator's action: who, what, on what, when, and the detail (a reason, the
    time a suspension lasts until). Rows are added, never changed or deleted."""

    __tablename__ = "admin_audit"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    #: The administrator's account (None: the command line, run by whoever runs the server).
    admin_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    admin_name: Mapped[str] = mapped_column(String(40))
    #: What was done ("suspend", "ban", "delete_account", "hide_chat", ...).
    action: Mapped[str] = mapped_column(String(32), index=True)
    #: What it was done to: "account", "game", "chat" or "report", and which one, by name.
    target_kind: Mapped[str] = mapped_column(String(12))
    target: Mapped[str] = mapped_column(String(80))
    detail: Mapped[str] = mapped_column(Text, default="")

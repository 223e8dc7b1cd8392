"""Crowd tables (migration 0021_crowds): scheduled games open to many players at once.

A crowd table is a date, not a table people fill: it starts at ``starts_at`` with whoever
joined, however many. Its members are accounts (they are reminded before the start, and
the game's seats are theirs).
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class CrowdRow(Base):
    """One scheduled crowd table. ``status``: "scheduled" (taking members), "starting" (a
    process is creating its game), "started" (``game_id``) or "cancelled" (nobody came, or
    its game could not be made)."""

    __tablename__ = "crowd_tables"
    # one crowd of a game at a given time: processes that schedule the same hour agree
    __table_args__ = (UniqueConstraint("game", "starts_at", name="uq_crowd_tables_game_start"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    starts_at: Mapped[dt.datetime] = mapped_column(index=True)
    #: The most members (the game's most players at most).
    seats: Mapped[int] = mapped_column(Integer)
    #: Seconds each step of the game waits before the medium bot plays a missing seat.
    turn_timer: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(12), default="scheduled", index=True)
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    #: When its members were reminded that it is about to start (once).
    reminded_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    #: The administrator who scheduled it (None: the server's own timetable).
    scheduled_by: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class CrowdMemberRow(Base):
    """An account that joined a crowd table."""

    __tablename__ = "crowd_members"
    __table_args__ = (UniqueConstraint("crowd_id", "account_id", name="uq_crowd_members"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    crowd_id: Mapped[str] = mapped_column(
        ForeignKey("crowd_tables.id", ondelete="CASCADE"), index=True
    )
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    joined_at: Mapped[dt.datetime] = mapped_column(default=utcnow)

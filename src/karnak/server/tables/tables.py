"""The open tables' rows (migration 0005_tables): a table, and its seats.

A table is a game that has not started: its game, options and turn timer, and one row per
seat saying who sits there (an account, a guest known by the hash of their ticket, a bot) or
that the seat is open (perhaps reserved for an invited account). Once it starts, the row
stays with the id of its game (``status`` "started"): a guest's ticket then leads to the
game, and a rematch asked again finds the table it made. Cancelled and expired tables are
deleted with their seats.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from karnak.server.db import Base, utcnow


class TableRow(Base):
    __tablename__ = "game_tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    turn_timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: The time bank the game will have (seconds a move and of bank; both None: none).
    time_per_move: Mapped[float | None] = mapped_column(Float, nullable=True)
    time_bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: "open" (waiting for players) or "started" (``game_id`` names its game).
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    #: Who created it, and so may fill it with bots, invite, withdraw and cancel: an
    #: account, or a guest holding the ticket whose hash is here.
    creator_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    creator_ticket_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The hash of the creating client's address (a guest's open tables are counted by it).
    creator_client: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    #: The finished game this table is the rematch of (one rematch per game).
    rematch_of: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    #: The game it became, once started.
    game_id: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="SET NULL"), nullable=True
    )
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    started_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)

    seats: Mapped[list[TableSeatRow]] = relationship(
        back_populates="table", order_by="TableSeatRow.seat", cascade="all, delete-orphan"
    )


class TableSeatRow(Base):
    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("game_tables.id", ondelete="CASCADE"), index=True
    )
    seat: Mapped[int] = mapped_column(Integer)
    #: "open", "account", "guest" or "bot".
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str | None] = mapped_column(String(64), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: The account sitting here ("account"), or the one an open seat is reserved for.
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    invited_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: A guest's ticket (its SHA-256; the ticket becomes the seat's secret link at the start)
    #: and the hash of the guest's address (a guest's tables are counted by it).
    ticket_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    client: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    joined_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)

    table: Mapped[TableRow] = relationship(back_populates="seats")

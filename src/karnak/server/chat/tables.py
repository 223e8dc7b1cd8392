"""The chat lines' table (migration 0007_social)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class ChatLineRow(Base):
    __tablename__ = "chat_lines"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: The line's place in its game's chat (1, 2, 3, ...): a global id would tell every reader
    #: how much is said in other games.
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    #: The seat's name when the line was written (seat names do not change).
    seat_name: Mapped[str] = mapped_column(String(64))
    #: The account holding the seat then, if any (its name is shown beside the seat's).
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: Exactly as written (bounded by karnak.server.chat.service.MAX_TEXT).
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    #: When an administrator hid the line, and who (migration 0013_admin): a hidden line is
    #: left out of the chat for everyone, and kept for the audit (karnak.server.admin).
    hidden_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    hidden_by: Mapped[str | None] = mapped_column(String(40), nullable=True)

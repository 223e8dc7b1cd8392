"""The notifications' table (migration 0004; its ``sender``, 0014_defense)."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class NotificationRow(Base):
    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: "turn", "invitation", "game_over", "friend_request", ... (see KINDS)
    kind: Mapped[str] = mapped_column(String(24))
    text: Mapped[str] = mapped_column(String(300))
    #: A page of this site (a game, a table, a profile), or None.
    link: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    read_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    #: Who caused it (migration 0014_defense): ``account:<id>`` or ``guest:<address hash>``,
    #: None for the server's own (a turn, a clock); what one sender may cause one account is
    #: bounded (karnak.server.notifications.bounds).
    sender: Mapped[str | None] = mapped_column(String(80), nullable=True)

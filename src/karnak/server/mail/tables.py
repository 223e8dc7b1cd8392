"""The e-mail tables (migration 0009_mail): each account's choices, and the e-mails sent.

``mail_sent`` is what the rules of not sending twice are read from (one "your turn" per game
every N hours, invitations per hour, confirmations per address and per day), kept in the
database so that a restart forgets none of it; rows older than a week are pruned by the daily
round. It stores no address, only the hash of one for a confirmation.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class MailPreferenceRow(Base):
    __tablename__ = "mail_preferences"

    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True
    )
    #: None: no address (nothing is sent).
    address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    #: When the address was confirmed (None: only a confirmation may be sent to it).
    confirmed_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    #: SHA-256 of the one-time code in the confirmation link, and when it expires.
    code_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    code_expires_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    turn: Mapped[bool] = mapped_column(Boolean, default=True)
    invitation: Mapped[bool] = mapped_column(Boolean, default=True)
    daily: Mapped[bool] = mapped_column(Boolean, default=False)
    #: The last daily round that looked at this account (sent or not): a restart does not
    #: send the same day's reminder again.
    daily_checked_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class MailSentRow(Base):
    __tablename__ = "mail_sent"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: "confirm", "turn", "invitation" or "daily"
    kind: Mapped[str] = mapped_column(String(16))
    #: The game a "your turn" e-mail was about.
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: SHA-256 of the address a confirmation went to (spacing confirmations per address).
    address_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    sent_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)

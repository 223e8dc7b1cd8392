"""The accounts' tables (migration 0003): accounts, their sessions, and the seats they hold."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: As the person wrote it (shown), and folded (unique: "Ana" and "ana" are one name).
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    #: argon2id, with its parameters and salt (see karnak.server.accounts.passwords).
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


class SessionRow(Base):
    __tablename__ = "sessions"

    #: SHA-256 of the session cookie's value: the cookie itself is never stored.
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: The session's CSRF token, echoed by the page in a header on every write.
    csrf: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column()

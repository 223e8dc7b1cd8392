"""The accounts' tables (migration 0003): accounts, their sessions, and the seats they hold."""

from __future__ import annotations

import datetime as dt

from sqlalchemy import Boolean, ForeignKey, Integer, String, true
from sqlalchemy.orm import Mapped, mapped_column

from karnak.server.db import Base, utcnow


class AccountRow(Base):
    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: As the person wrote it (shown), and folded (unique: "Ana" and "ana" are one name).
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(40), unique=True)
    #: What names are compared by (karnak.server.accounts.names.name_skeleton; migration
    #: 0014_defense): unique, so no new name can look like a taken one. Two accounts whose
    #: names already looked alike before it existed keep theirs, the later one's marked
    #: with ``#<id>`` after it (still refusing copies of the first).
    name_skeleton: Mapped[str | None] = mapped_column(
        String(220), unique=True, index=True, nullable=True
    )
    #: argon2id, with its parameters and salt (see karnak.server.accounts.passwords).
    password_hash: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    #: Administration (migration 0013_admin, karnak.server.admin): "player" or "admin"; the
    #: account's standing ("active", "suspended" until ``suspended_until``, or "banned"),
    #: and until when its chat lines are refused.
    role: Mapped[str] = mapped_column(String(8), default="player", server_default="player")
    status: Mapped[str] = mapped_column(
        String(12), default="active", server_default="active", index=True
    )
    suspended_until: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    muted_until: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    #: The language the account reads the site in (migration 0017_account_language,
    #: karnak.server.language): one of karnak.i18n.SUPPORTED, or None (the browser decides).
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: Whether the account's moves that need no click are played for it after a short pause
    #: (migration 0018_forced_moves_setting, karnak.server.forced_moves): on by default.
    forced_moves: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())


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
    #: The hash of the address the session was last seen from, as the rate limits count it
    #: (karnak.server.accounts.auth.client_hash; migration 0013_admin): administrators find
    #: accounts by address without any address being stored.
    client: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)


class PasswordResetRow(Base):
    """A password reset link sent by e-mail (migration 0016_recovery,
    karnak.server.accounts.recovery): one live link per account, used once."""

    __tablename__ = "password_resets"

    #: SHA-256 of the link's token: the token itself is only ever in the e-mail.
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(
        ForeignKey("accounts.id", ondelete="CASCADE"), index=True
    )
    #: SHA-256 of the account's password hash when the link was sent: a password changed
    #: since (by any means) makes the link useless.
    password_stamp: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[dt.datetime] = mapped_column(index=True)

"""Reading and writing accounts and sessions (synchronous; the routes run it in a thread)."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import secrets
from dataclasses import dataclass

from sqlalchemy import Engine, delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import _, t
from karnak.server.accounts import standing
from karnak.server.accounts.names import BadNameError, name_skeleton, shown_name
from karnak.server.accounts.passwords import (
    check_password,
    hash_password,
    needs_rehash,
    verify_password,
)
from karnak.server.accounts.tables import AccountRow, SessionRow
from karnak.server.db import utcnow

#: How long a log-in lasts.
SESSION_DAYS = 30
#: A name: 2 to 40 letters, digits, spaces, dots, apostrophes, hyphens or underscores,
#: beginning and ending with a letter or digit.
NAME = re.compile(r"[^\W_](?:[\w .'-]{0,38}[^\W_])?")


class AccountError(KarnakError, ValueError):
    """A request about accounts that cannot be met (the message says why)."""


class NameTakenError(AccountError):
    pass


class LookAlikeError(NameTakenError):
    """A new name a reader could take for an account's (karnak.server.accounts.names)."""


@dataclass(frozen=True)
class Account:
    id: int
    name: str


@dataclass(frozen=True)
class Session:
    """A logged-in browser: the account, and the CSRF token its writes must carry."""

    id: str  # the hash of the cookie
    account: Account
    csrf: str
    expires_at: dt.datetime


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: str) -> str:
    """The name as it will be shown, or AccountError saying what is wrong with it
    (karnak.server.accounts.names)."""
    try:
        return shown_name(name)
    except BadNameError as exc:
        raise AccountError(str(exc)) from None


def name_key(name: str) -> str:
    return name.casefold()


class AccountStore:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------------ accounts
    def sign_up(self, name: str, password: str) -> Account:
        """A new account; its name must not look like a taken one (LookAlikeError: the
        unique skeleton settles two sign-ups at the same moment too)."""
        shown = clean_name(name)
        check_password(password, shown)
        compared = name_skeleton(shown)
        taken = self.look_alike(shown)
        if taken is not None:
            raise self._taken(shown, taken.name)
        row = AccountRow(
            name=shown,
            name_key=name_key(shown),
            name_skeleton=compared,
            password_hash=hash_password(password),
        )
        try:
            with self.sessions.begin() as session:
                session.add(row)
                session.flush()
                return Account(row.id, row.name)
        except IntegrityError:
            taken = self.look_alike(shown)
            raise self._taken(shown, taken.name if taken else shown) from None

    @staticmethod
    def _taken(shown: str, other: str) -> NameTakenError:
        if name_key(other) == name_key(shown):
            return NameTakenError(t("the name {name} is taken; choose another", name=repr(shown)))
        return LookAlikeError(
            t(
                "the name {name} looks like {other}, the name of another account (names are "
                "compared by how they look: case, spaces and look-alike letters of other "
                "scripts aside); choose another",
                name=repr(shown),
                other=repr(other),
            )
        )

    def look_alike(self, name: str) -> Account | None:
        """The account whose name a reader could take ``name`` for, if any."""
        compared = name_skeleton(name)
        with self.sessions() as session:
            row = session.scalars(
                select(AccountRow).where(
                    (AccountRow.name_skeleton == compared)
                    | (AccountRow.name_key == name_key(name.strip()))
                )
            ).first()
            return Account(row.id, row.name) if row else None

    def authenticate(self, name: str, password: str) -> Account | None:
        """The account when the name and password match; None otherwise (after the same
        work either way)."""
        with self.sessions.begin() as session:
            row = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))
            ).first()
            if not verify_password(row.password_hash if row else None, password):
                return None
            assert row is not None
            # told only to whoever knows the password: a stranger learns nothing of it
            problem = standing.refusal(row, utcnow())
            if problem is not None:
                raise standing.AccountRefusedError(problem)
            if needs_rehash(row.password_hash):
                row.password_hash = hash_password(password)
            return Account(row.id, row.name)

    def account(self, account_id: int) -> Account | None:
        with self.sessions() as session:
            row = session.get(AccountRow, account_id)
            return Account(row.id, row.name) if row else None

    def by_name(self, name: str) -> Account | None:
        with self.sessions() as session:
            row = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))
            ).first()
            return Account(row.id, row.name) if row else None

    def change_password(
        self, account_id: int, current: str, new: str, keep_session: str | None
    ) -> None:
        """Set a new password (after checking the current one) and end every other session
        of the account: whoever else was logged in with the old password is logged out."""
        account = self.account(account_id)
        if account is not None:
            check_password(new, account.name)
        new_hash = hash_password(new)
        with self.sessions.begin() as session:
            row = session.get(AccountRow, account_id)
            if row is None or not verify_password(row.password_hash, current):
                raise AccountError(_("the current password is not right"))
            row.password_hash = new_hash
            session.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account_id, SessionRow.id != (keep_session or "")
                )
            )

    # ------------------------------------------------------------------ sessions
    def open_session(self, account: Account) -> tuple[str, Session]:
        """A new session: the cookie's value (given to the browser once) and the session."""
        token = secrets.token_urlsafe(32)
        expires = utcnow() + dt.timedelta(days=SESSION_DAYS)
        row = SessionRow(
            id=hash_token(token),
            account_id=account.id,
            csrf=secrets.token_urlsafe(24),
            expires_at=expires,
        )
        with self.sessions.begin() as session:
            session.add(row)
        return token, Session(row.id, account, row.csrf, expires)

    def session(self, token: str, client: str | None = None) -> Session | None:
        """The live session of a cookie's value; None for an unknown or expired one, or
        one of an account suspended or banned since. ``client``: the hash of the address
        asking, remembered with the session when it changed (karnak.server.admin finds
        accounts by it)."""
        if not token or len(token) > 100:
            return None
        with self.sessions() as session:
            row = session.get(SessionRow, hash_token(token))
            if row is None:
                return None
            expires = row.expires_at
            if expires.tzinfo is None:  # SQLite gives naive times back
                expires = expires.replace(tzinfo=dt.UTC)
            if expires <= utcnow():
                return None
            account = session.get(AccountRow, row.account_id)
            if account is None or standing.refusal(account, utcnow()) is not None:
                return None
            if client is not None and row.client != client:
                row.client = client
                session.commit()
            return Session(row.id, Account(account.id, account.name), row.csrf, expires)

    def close_session(self, session_id: str) -> None:
        with self.sessions.begin() as session:
            session.execute(delete(SessionRow).where(SessionRow.id == session_id))

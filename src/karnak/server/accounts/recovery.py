"""Forgot password: a single-use link, sent to a confirmed address, that gives nothing away.

Asking (``POST /api/account/password-reset`` with a name or an e-mail address) always gets
the same answer at once, whether or not such an account exists, has an address, or has had
one confirmed: the look-up and the e-mail happen afterwards, in a task of their own, so that
neither the answer nor its timing tells anyone which names or addresses are known. Only an
address confirmed through the e-mail module (karnak.server.mail) ever receives a link: an
address typed into an account but never confirmed may be someone else's.

The link carries a random token (``secrets.token_urlsafe(32)``: 256 bits). The database
keeps only its SHA-256, with its account, when it expires (an hour by default,
``password_reset_minutes``) and a stamp of the password it may replace. It works once:
using it deletes its row in the same transaction that sets the password, and of two uses at
once the database lets one delete the row; the other finds nothing. It stops working when a
newer link is sent for the account (the older row is deleted), when the password changes by
any means (the stamp no longer matches), and when it expires. Whatever the reason, a link
that does not work gets one answer (400), so nothing is learnt by trying one.

A new password follows the sign-up's rules (``check_password``, with the account's name), and
setting it ends every session of the account, in every process (the hub's sessions topic,
as a password change does): whoever was logged in with the old password is logged out.

Bounds: ``password_resets_per_hour`` requests per client (429 beyond, which says nothing of
any account), and ``password_reset_mails_per_hour`` e-mails per account whoever asks (the
requests beyond are answered the same and send nothing), so the form cannot be used to fill
someone's inbox. Using a link counts against the client's account attempts.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from limits import RateLimitItemPerHour
from sqlalchemy import CursorResult, delete, func, or_, select
from sqlalchemy.orm import sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import N_, _, t
from karnak.server.accounts.passwords import check_password, hash_password
from karnak.server.accounts.service import REVOKED, SESSIONS_TOPIC
from karnak.server.accounts.store import AccountStore
from karnak.server.accounts.tables import AccountRow, PasswordResetRow, SessionRow
from karnak.server.db import utcnow
from karnak.server.mail.compose import reset_mail
from karnak.server.mail.tables import MailPreferenceRow

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.server.executor import DatabaseExecutor
    from karnak.server.http_limits import Limiter
    from karnak.server.hub import Hub
    from karnak.server.limits import ServerSettings
    from karnak.server.mail.service import MailService

log = logging.getLogger("karnak.server")

Clock = Callable[[], dt.datetime]

#: The answer to every request, whatever exists.
REQUESTED = N_(
    "if an account has this name or this confirmed e-mail address, a link to choose a new "
    "password is on its way to that address; it works once, within {minutes} minutes"
)
#: The answer to every link that does not work, whatever the reason.
INVALID_LINK = N_(
    "this password reset link does not work: it is unknown, was used already, has expired, "
    "or a newer one was sent; ask for a new one"
)
#: The most accounts one request may reach (one address may be confirmed on several).
ACCOUNTS_PER_REQUEST = 5
#: Requests whose look-up has not run yet; past it a request is dropped (and logged).
PENDING = 100
#: The longest name or address looked up (an address has at most 254 characters).
MAX_ASKED = 254


class ResetLinkError(KarnakError):
    """A reset link that does not work (unknown, used, expired or replaced)."""

    status = 400


@dataclass(frozen=True)
class Recipient:
    """An account and its confirmed address."""

    account: int
    address: str


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def aware(moment: dt.datetime) -> dt.datetime:
    """A time read back from the database, in UTC (SQLite gives naive times back)."""
    return moment.replace(tzinfo=dt.UTC) if moment.tzinfo is None else moment


def stamped(link: PasswordResetRow, account: AccountRow) -> bool:
    """Whether the account's password is still the one the link was sent for."""
    return secrets.compare_digest(link.password_stamp, digest(account.password_hash))


class RecoveryStore:
    """The database calls (synchronous and short; the service runs them in its threads)."""

    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.accounts = AccountStore(engine)

    def recipients(self, asked: str) -> list[Recipient]:
        """The accounts that ``asked`` names (a name, or a confirmed address) with their
        confirmed addresses; none for anything else."""
        asked = asked.strip()
        if not asked or len(asked) > MAX_ASKED:
            return []
        confirmed = (
            MailPreferenceRow.address.is_not(None),
            MailPreferenceRow.confirmed_at.is_not(None),
        )
        query = select(MailPreferenceRow.account_id, MailPreferenceRow.address).where(*confirmed)
        if "@" in asked:  # an address (a name never holds one)
            query = query.where(func.lower(MailPreferenceRow.address) == asked.lower())
        else:
            account = self.accounts.by_name(asked)
            if account is None:
                return []
            query = query.where(MailPreferenceRow.account_id == account.id)
        with self.sessions() as session:
            rows = session.execute(
                query.order_by(MailPreferenceRow.account_id).limit(ACCOUNTS_PER_REQUEST)
            ).all()
        return [Recipient(account, address) for account, address in rows if address]

    def recipient(self, account: int) -> Recipient | None:
        """The account's confirmed address, if it has one."""
        with self.sessions() as session:
            row = session.get(MailPreferenceRow, account)
            if row is None or row.address is None or row.confirmed_at is None:
                return None
            return Recipient(account, row.address)

    def issue(
        self, account: int, token_hash: str, now: dt.datetime, expires_at: dt.datetime
    ) -> bool:
        """Store a new link for the account, replacing its older ones (and forgetting every
        expired link); False if there is no such account."""
        with self.sessions.begin() as session:
            # locked (PostgreSQL) so that two links issued at once leave the newer one only
            row = session.get(AccountRow, account, with_for_update=True)
            if row is None:
                return False
            session.execute(
                delete(PasswordResetRow).where(
                    or_(PasswordResetRow.account_id == account, PasswordResetRow.expires_at <= now)
                )
            )
            session.add(
                PasswordResetRow(
                    token_hash=token_hash,
                    account_id=account,
                    password_stamp=digest(row.password_hash),
                    created_at=now,
                    expires_at=expires_at,
                )
            )
            return True

    def holder(self, token_hash: str, now: dt.datetime) -> str | None:
        """The name of the account whose live link this is (None: the link does not work);
        reads only, so that a new password refused leaves the link working."""
        with self.sessions() as session:
            link = session.get(PasswordResetRow, token_hash)
            if link is None or aware(link.expires_at) <= now:
                return None
            account = session.get(AccountRow, link.account_id)
            if account is None or not stamped(link, account):
                return None
            return account.name

    def use(self, token_hash: str, new_hash: str, now: dt.datetime) -> int | None:
        """Use a link: set the account's password to ``new_hash``, end its sessions and
        delete its links, in one transaction; the account's id, or None when the link does
        not work (unknown, used, expired, or the password changed since it was sent).

        The link's row is deleted by a conditional DELETE: of two uses at once, the
        database lets one delete it (PostgreSQL holds the second until the first commits,
        then finds no row; SQLite takes one writer at a time), and only that one goes on."""
        with self.sessions.begin() as session:
            link = session.get(PasswordResetRow, token_hash)
            if link is None:
                return None
            account = session.get(AccountRow, link.account_id)
            live = account is not None and aware(link.expires_at) > now and stamped(link, account)
            deleted = session.execute(
                delete(PasswordResetRow).where(PasswordResetRow.token_hash == token_hash)
            )
            used = cast(CursorResult[Any], deleted).rowcount
            if not live or used != 1 or account is None:
                return None  # an expired or outdated link is deleted all the same
            account.password_hash = new_hash
            session.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
            session.execute(
                delete(PasswordResetRow).where(PasswordResetRow.account_id == account.id)
            )
            return account.id


class RecoveryService:
    """Sends reset links and uses them (``app.state.recovery``)."""

    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        hub: Hub,
        mail: MailService,
        settings: ServerSettings,
        limiter: Limiter,
        clock: Clock = utcnow,
    ):
        self.store = RecoveryStore(engine)
        self.executor = executor
        self.hub = hub
        self.mail = mail
        self.lifetime = dt.timedelta(minutes=max(1.0, settings.password_reset_minutes))
        self.per_account = RateLimitItemPerHour(max(1, settings.password_reset_mails_per_hour))
        self.limiter = limiter
        #: The time the links' expiry reads (tests set a later one).
        self.clock = clock
        self._pending: set[asyncio.Task[None]] = set()

    @property
    def minutes(self) -> int:
        return round(self.lifetime.total_seconds() / 60)

    def answer(self) -> str:
        """What every request is told."""
        return t(REQUESTED, minutes=self.minutes)

    # ------------------------------------------------------------------ asking
    def requested(self, asked: str) -> None:
        """A person asked for a link for ``asked`` (a name or an address): look it up and
        send it later, in a task (the caller answers at once, the same whatever exists)."""
        if len(self._pending) >= PENDING:
            log.warning("password reset: a request dropped, %d wait already", PENDING)
            return
        task = asyncio.get_running_loop().create_task(self._request(asked))
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def settle(self) -> None:
        """Wait for the requests under way (tests, a clean stop)."""
        while self._pending:
            await asyncio.gather(*list(self._pending), return_exceptions=True)

    async def _request(self, asked: str) -> None:
        try:
            for recipient in await self.executor.run(self.store.recipients, asked):
                wait = self.limiter.hit(self.per_account, "reset-mail", str(recipient.account))
                if wait is not None:
                    log.info(
                        "password reset: account %d was sent its most links this hour",
                        recipient.account,
                    )
                    continue
                await self._send(recipient)
        except Exception:  # logged; the person may ask again
            log.exception("password reset: a request failed")

    async def send_reset(self, account_id: int) -> bool:
        """Send the account a reset link (an administrator's button calls it): True when an
        e-mail was queued, False when the account has no confirmed address or this server
        sends no e-mail."""
        recipient = await self.executor.run(self.store.recipient, account_id)
        if recipient is None:
            return False
        return await self._send(recipient)

    async def _send(self, recipient: Recipient) -> bool:
        if not self.mail.enabled:
            return False
        token = secrets.token_urlsafe(32)
        now = self.clock()
        stored = await self.executor.run(
            self.store.issue, recipient.account, digest(token), now, now + self.lifetime
        )
        if not stored:
            return False
        composed = reset_mail(token, self.mail.settings.public_url, self.minutes)
        return self.mail.post(recipient.account, recipient.address, "reset", composed)

    # ------------------------------------------------------------------ using a link
    async def reset(self, token: str, password: str) -> int:
        """Set the password of the link's account and end its sessions; its id.
        ResetLinkError (400) for a link that does not work; PasswordError (422) for a
        password the sign-up would refuse (the link still works)."""
        token_hash = digest(token)
        name = await self.executor.run(self.store.holder, token_hash, self.clock())
        if name is None:
            raise ResetLinkError(_(INVALID_LINK))
        # both slow on purpose, on the CPU: off the event loop and the database threads
        await asyncio.to_thread(check_password, password, name)
        new_hash = await asyncio.to_thread(hash_password, password)
        account = await self.executor.run(self.store.use, token_hash, new_hash, self.clock())
        if account is None:
            raise ResetLinkError(_(INVALID_LINK))
        self.hub.publish(SESSIONS_TOPIC, REVOKED, {"account": account})
        return account

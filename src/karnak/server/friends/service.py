"""Friend requests and friendships: the rules, the database work, and who is told.

The rules (docs/players.md, "Friends"):

- a request names an account; asking oneself is refused, an unknown name is 404;
- asking again while a request is pending, or asking a friend, is answered as already made
  (nothing new is stored, nobody is told twice);
- asking someone who has asked you accepts their request: you both wanted it;
- a declined request stays on record, silently for the one who declined, and its requester
  cannot ask again (409): that is what stops one account from notifying another over and
  over. The one who declined can still ask, which replaces the old request;
- either friend removes the friendship, and a requester may withdraw a pending request; then
  either may ask again;
- one account has at most ``FriendLimits.pending`` requests waiting for an answer and at
  most ``FriendLimits.friends`` friends;
- an account cannot ask one that blocked it ("you cannot ask this player to be your
  friend", and no more), nor one it blocked (unblock first); what one account's requests
  notify another is bounded (karnak.server.friends.blocks, karnak.server.notifications
  .bounds).

Database calls are synchronous and run in the server's database threads
(karnak.server.executor), as every service's do. Two requests between the same two accounts
at the same moment meet on the table's unique ``pair``: the loser reads the winner's row and
is answered from it.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from limits import RateLimitItemPerHour
from sqlalchemy import Engine, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import N_, _, t
from karnak.server.accounts.store import Account, name_key
from karnak.server.accounts.tables import AccountRow
from karnak.server.db import utcnow
from karnak.server.friends.blocks import MOST_BLOCKS, Blocks
from karnak.server.friends.tables import ACCEPTED, DECLINED, PENDING, FriendshipRow, pair_key
from karnak.server.http_limits import Limiter
from karnak.server.limits import LimitError, ServerSettings
from karnak.server.notifications import bounds
from karnak.server.notifications.bounds import Sender
from karnak.server.notifications.service import Notifier

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

#: The most incoming requests listed at once (the newest; the count says how many in all).
INCOMING_LISTED = 200


def friends_link(account: Account) -> str:
    """Where a friend notification leads its reader: the friends panel of their own profile.
    A name holds letters, digits, spaces, dots, apostrophes, hyphens and underscores, so only
    its spaces need escaping in a path (other letters travel as they are, as in any IRI)."""
    return f"/players/{account.name.replace(' ', '%20')}#friends-panel"


@dataclass(frozen=True)
class FriendLimits:
    """How far one account's friendships go (tests make them small)."""

    #: Requests one account may have waiting for an answer at once (from the server's
    #: ``ServerSettings.friend_requests_pending``: see ``friend_limits``).
    pending: int = 50
    #: Friends one account may have.
    friends: int = 500
    #: Requests one account may make per hour (each notifies someone; a withdrawn request
    #: can be made again, so the pending bound alone would not stop a stream of them).
    requests_per_hour: int = 30
    #: Accounts one account may block (karnak.server.friends.blocks).
    blocks: int = MOST_BLOCKS


def friend_limits(settings: ServerSettings) -> FriendLimits:
    """The server's friend limits: the pending bound and the blocks are server settings
    (``ServerSettings.friend_requests_pending``, ``blocks_per_account``), the others keep
    their defaults."""
    return FriendLimits(
        pending=settings.friend_requests_pending, blocks=settings.blocks_per_account
    )


class FriendError(KarnakError):
    """A friend request or answer refused; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Outcome:
    """What a request did: the pair's state now, whether it was already so, and whom the
    request concerned (``accepted``: it answered the other's request)."""

    state: str  # "pending" or "friends"
    other: Account
    duplicate: bool = False
    accepted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "state": self.state,
            "duplicate": self.duplicate,
            "account": {"id": self.other.id, "name": self.other.name},
        }


@dataclass(frozen=True)
class Listed:
    friends: list[dict[str, Any]] = field(default_factory=list)
    incoming: list[dict[str, Any]] = field(default_factory=list)
    outgoing: list[dict[str, Any]] = field(default_factory=list)
    incoming_count: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "friends": self.friends,
            "incoming": self.incoming,
            "outgoing": self.outgoing,
            "incoming_count": self.incoming_count,
        }


def stamp(moment: dt.datetime | None) -> str | None:
    """A stored time as ISO text in UTC, to the second (SQLite gives naive times back)."""
    if moment is None:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.astimezone(dt.UTC).replace(microsecond=0).isoformat()


class FriendService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        notifier: Notifier,
        limits: FriendLimits | None = None,
        limiter: Limiter | None = None,
    ):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.notifier = notifier
        self.limits = limits or FriendLimits()
        #: The server's counters (karnak.server.http_limits): shared by every process
        #: through Redis when there is a broker, so several processes allow what one does.
        self._limiter = limiter or Limiter()
        self._per_hour = RateLimitItemPerHour(self.limits.requests_per_hour)
        #: Who blocked whom (the friends routes serve it as /api/blocks).
        self.blocks = Blocks(engine, executor, self.limits.blocks)

    def count_request(self, account: int) -> None:
        """Count one request of ``account``; LimitError (429) past its hourly allowance."""
        wait = self._limiter.hit(self._per_hour, "friends", str(account))
        if wait is None:
            return
        wait = min(3600.0, max(1.0, wait))
        raise LimitError(
            t(
                "too many friend requests: at most {most} an hour; try again in {seconds} s",
                most=self.limits.requests_per_hour,
                seconds=math.ceil(wait),
            ),
            status=429,
            retry_after=wait,
        )

    # ------------------------------------------------------------------ requests
    async def request(self, me: Account, name: str) -> Outcome:
        """Ask the account called ``name`` to be friends (see the module's rules)."""
        outcome = await self.executor.run(self._request, me, name)
        if outcome.duplicate:
            return outcome
        if outcome.accepted:
            await self.notifier.notify_from(
                Sender(me.id),
                outcome.other.id,
                "friend_accepted",
                f"{me.name} accepted your friend request",
                friends_link(outcome.other),
            )
        else:
            await self.notifier.notify_from(
                Sender(me.id),
                outcome.other.id,
                "friend_request",
                f"{me.name} asks to be your friend",
                friends_link(outcome.other),
            )
        return outcome

    def _request(self, me: Account, name: str) -> Outcome:
        for _attempt in range(3):  # a request crossing this one may take the pair's row first
            try:
                return self._request_once(me, name)
            except IntegrityError:
                continue
        raise FriendError(_("the request met another one at the same moment; try again"), 409)

    def _request_once(self, me: Account, name: str) -> Outcome:
        with self.sessions.begin() as session:
            row = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))
            ).first()
            if row is None:
                raise FriendError(
                    t("there is no account named {name}", name=repr(name.strip())), 404
                )
            other = Account(row.id, row.name)
            if other.id == me.id:
                raise FriendError(_("you cannot ask yourself to be your friend"))
            if bounds.is_blocked(session, other.id, me.id):
                raise FriendError(_("you cannot ask this player to be your friend"), 403)
            if bounds.is_blocked(session, me.id, other.id):
                raise FriendError(
                    t("you blocked {name}: unblock them to ask", name=other.name), 409
                )
            found = session.scalars(
                select(FriendshipRow).where(FriendshipRow.pair == pair_key(me.id, other.id))
            ).first()
            if found is not None and found.status == ACCEPTED:
                return Outcome("friends", other, duplicate=True)
            if found is not None and found.status == PENDING:
                if found.requester_id == me.id:
                    return Outcome("pending", other, duplicate=True)
                self._check_friends(session, me.id, other.id)
                found.status, found.answered_at = ACCEPTED, utcnow()
                return Outcome("friends", other, accepted=True)
            if found is not None and found.requester_id == me.id:  # declined
                raise FriendError(
                    t(
                        "{name} declined your friend request; they can still ask you",
                        name=other.name,
                    ),
                    409,
                )
            self._check_pending(session, me.id)
            self._check_friends(session, me.id, other.id)
            refused = bounds.refusal(
                session, self.notifier.limits, Sender(me.id), other.id, utcnow()
            )
            if refused is not None:  # it would notify them past a bound
                raise refused
            if found is not None:  # I declined them once: my own request replaces theirs
                session.delete(found)
                session.flush()
            session.add(
                FriendshipRow(
                    pair=pair_key(me.id, other.id),
                    requester_id=me.id,
                    requested_id=other.id,
                    status=PENDING,
                )
            )
            return Outcome("pending", other)

    def _check_pending(self, session: Session, account: int) -> None:
        waiting = session.scalar(
            select(func.count())
            .select_from(FriendshipRow)
            .where(FriendshipRow.requester_id == account, FriendshipRow.status == PENDING)
        )
        if int(waiting or 0) >= self.limits.pending:
            raise FriendError(
                t(
                    "you have {n} friend requests waiting for an answer, the most this server "
                    "allows: withdraw one or wait for the answers",
                    n=self.limits.pending,
                )
            )

    def _check_friends(self, session: Session, me: int, other: int) -> None:
        for account, refusal in (
            (me, N_("you have {n} friends, the most this server allows")),
            (other, N_("they have {n} friends, the most this server allows")),
        ):
            count = session.scalar(
                select(func.count())
                .select_from(FriendshipRow)
                .where(
                    or_(
                        FriendshipRow.requester_id == account, FriendshipRow.requested_id == account
                    ),
                    FriendshipRow.status == ACCEPTED,
                )
            )
            if int(count or 0) >= self.limits.friends:
                raise FriendError(t(refusal, n=self.limits.friends))

    # ------------------------------------------------------------------ answers
    async def answer(self, me: Account, requester: int, *, accept: bool) -> Account:
        """Accept or decline the pending request of account ``requester`` to ``me``."""
        other = await self.executor.run(self._answer, me, requester, accept)
        if accept:
            await self.notifier.notify_from(
                Sender(me.id),
                other.id,
                "friend_accepted",
                f"{me.name} accepted your friend request",
                friends_link(other),
            )
        return other

    def _answer(self, me: Account, requester: int, accept: bool) -> Account:
        with self.sessions.begin() as session:
            found = session.scalars(
                select(FriendshipRow).where(
                    FriendshipRow.pair == pair_key(me.id, requester),
                    FriendshipRow.requester_id == requester,
                    FriendshipRow.requested_id == me.id,
                    FriendshipRow.status == PENDING,
                )
            ).first()
            other = session.get(AccountRow, requester)
            if found is None or other is None:
                raise FriendError(_("that account has no friend request waiting for you"), 404)
            if accept:
                self._check_friends(session, me.id, requester)
            found.status = ACCEPTED if accept else DECLINED
            found.answered_at = utcnow()
            return Account(other.id, other.name)

    async def remove(self, me: Account, other: int) -> str:
        """End the friendship with ``other``, or withdraw my pending request to them; what
        was removed ("friend" or "request")."""
        return await self.executor.run(self._remove, me, other)

    def _remove(self, me: Account, other: int) -> str:
        with self.sessions.begin() as session:
            found = session.scalars(
                select(FriendshipRow).where(FriendshipRow.pair == pair_key(me.id, other))
            ).first()
            if found is not None and found.status == ACCEPTED:
                session.delete(found)
                return "friend"
            if found is not None and found.status == PENDING and found.requester_id == me.id:
                session.delete(found)
                return "request"
            raise FriendError(_("that account is not your friend, nor asked by you"), 404)

    # ------------------------------------------------------------------ lists
    async def listed(self, me: Account) -> Listed:
        """My friends (by name), the requests waiting for me (newest first) and mine."""
        return await self.executor.run(self._listed, me.id)

    def _listed(self, me: int) -> Listed:
        with self.sessions() as session:
            # the other account of each pair: the requested one when I asked, else the requester
            other = func.coalesce(
                func.nullif(FriendshipRow.requester_id, me), FriendshipRow.requested_id
            )
            mine = or_(FriendshipRow.requester_id == me, FriendshipRow.requested_id == me)

            def rows(*where: Any, limit: int) -> list[tuple[FriendshipRow, AccountRow]]:
                found = session.execute(
                    select(FriendshipRow, AccountRow)
                    .join(AccountRow, AccountRow.id == other)
                    .where(*where)
                    .order_by(FriendshipRow.id.desc())
                    .limit(limit)
                ).all()
                return [(friendship, account) for friendship, account in found]

            friends = [
                {"id": account.id, "name": account.name, "since": stamp(row.answered_at)}
                for row, account in rows(
                    mine, FriendshipRow.status == ACCEPTED, limit=self.limits.friends
                )
            ]
            friends.sort(key=lambda entry: str(entry["name"]).casefold())
            waiting = FriendshipRow.status == PENDING
            outgoing = [
                {"id": account.id, "name": account.name, "at": stamp(row.created_at)}
                for row, account in rows(
                    FriendshipRow.requester_id == me, waiting, limit=self.limits.pending
                )
            ]
            incoming = [
                {"id": account.id, "name": account.name, "at": stamp(row.created_at)}
                for row, account in rows(
                    FriendshipRow.requested_id == me, waiting, limit=INCOMING_LISTED
                )
            ]
            count = session.scalar(
                select(func.count())
                .select_from(FriendshipRow)
                .where(FriendshipRow.requested_id == me, waiting)
            )
            return Listed(friends, incoming, outgoing, int(count or 0))

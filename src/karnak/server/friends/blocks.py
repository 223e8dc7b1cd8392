"""Blocks: an account stops another from reaching it.

What a block does (docs/security.md says the same to operators):

- the blocked account cannot invite the blocker to a table, nor keep a rematch's seat for
  them (the seat stays open to anyone), nor ask them to be friends; a friendship or request
  between the two ends when the block is made;
- nothing the blocked account causes is told to the blocker (karnak.server.notifications
  .bounds drops it);
- the blocked account's chat lines are hidden from the blocker's view of a game's chat (its
  history leaves them out, and the page drops them as they arrive): a game's chat is one
  conversation that everyone at the table and every spectator reads, so refusing the lines
  for everyone would let one player silence another at every table they share;
- the blocked account is not told. A refused invitation or friend request says "you cannot
  invite this player" and no more; the block list is the blocker's alone.

Blocking is by name, like every other way to find an account; unblocking by id, from the
list. One account blocks at most ``ServerSettings.blocks_per_account`` others.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import _, t
from karnak.server.accounts.store import Account, name_key
from karnak.server.accounts.tables import AccountRow
from karnak.server.friends.tables import BlockRow, FriendshipRow, pair_key
from karnak.server.notifications.bounds import aware, is_blocked

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

#: Accounts one account may block, unless the server says otherwise.
MOST_BLOCKS = 500


class BlockError(KarnakError):
    """A block or unblock that cannot be done; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Blocked:
    account: Account
    since: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.account.id, "name": self.account.name, "since": self.since}


def since(moment: dt.datetime) -> str:
    return aware(moment).astimezone(dt.UTC).replace(microsecond=0).isoformat()


class Blocks:
    def __init__(self, engine: Engine, executor: DatabaseExecutor, most: int = MOST_BLOCKS):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        self.executor = executor
        self.most = most

    async def listed(self, me: Account) -> list[Blocked]:
        """The accounts ``me`` blocked, by name."""
        return await self.executor.run(self._listed, me.id)

    def _listed(self, me: int) -> list[Blocked]:
        with self.sessions() as session:
            rows = session.execute(
                select(BlockRow, AccountRow)
                .join(AccountRow, AccountRow.id == BlockRow.blocked_id)
                .where(BlockRow.blocker_id == me)
                .limit(self.most)
            ).all()
        found = [
            Blocked(Account(account.id, account.name), since(row.created_at))
            for row, account in rows
        ]
        return sorted(found, key=lambda entry: entry.account.name.casefold())

    async def block(self, me: Account, name: str) -> Account:
        """Block the account called ``name``; blocking it again changes nothing."""
        return await self.executor.run(self._block, me.id, name)

    def _block(self, me: int, name: str) -> Account:
        try:
            with self.sessions.begin() as session:
                row = session.scalars(
                    select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))
                ).first()
                if row is None:
                    raise BlockError(
                        t("there is no account named {name}", name=repr(name.strip())), 404
                    )
                other = Account(row.id, row.name)
                if other.id == me:
                    raise BlockError(_("you cannot block yourself"))
                if is_blocked(session, me, other.id):
                    return other
                count = session.scalar(
                    select(func.count()).select_from(BlockRow).where(BlockRow.blocker_id == me)
                )
                if int(count or 0) >= self.most:
                    raise BlockError(
                        t(
                            "you have blocked {n} players, the most this server allows: "
                            "unblock one first",
                            n=self.most,
                        )
                    )
                session.add(BlockRow(blocker_id=me, blocked_id=other.id))
                # a friendship, or a request either way, ends with the block
                session.execute(
                    delete(FriendshipRow).where(FriendshipRow.pair == pair_key(me, other.id))
                )
                return other
        except IntegrityError:  # the same block made at the same moment: made
            return self._account(name)

    def _account(self, name: str) -> Account:
        with self.sessions() as session:
            row = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name_key(name.strip()))
            ).one()
            return Account(row.id, row.name)

    async def unblock(self, me: Account, other: int) -> None:
        """Lift ``me``'s block of account ``other`` (404 if there is none)."""
        await self.executor.run(self._unblock, me.id, other)

    def _unblock(self, me: int, other: int) -> None:
        with self.sessions.begin() as session:
            result = session.execute(
                delete(BlockRow).where(BlockRow.blocker_id == me, BlockRow.blocked_id == other)
            )
            if not int(getattr(result, "rowcount", 0) or 0):
                raise BlockError(_("you have not blocked that account"), 404)

    async def hidden_from(self, me: int) -> frozenset[int]:
        """The accounts whose chat lines ``me`` does not see."""
        return await self.executor.run(self._hidden_from, me)

    def _hidden_from(self, me: int) -> frozenset[int]:
        with self.sessions() as session:
            found = session.scalars(
                select(BlockRow.blocked_id).where(BlockRow.blocker_id == me).limit(self.most)
            ).all()
            return frozenset(found)

    async def blocks(self, blocker: int, blocked: int) -> bool:
        """Whether ``blocker`` blocked ``blocked``."""
        return await self.executor.run(self._blocks_now, blocker, blocked)

    def _blocks_now(self, blocker: int, blocked: int) -> bool:
        with self.sessions() as session:
            return is_blocked(session, blocker, blocked)

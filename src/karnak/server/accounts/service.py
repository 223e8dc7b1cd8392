"""Accounts for the web application: the store run in the database threads, and sessions
remembered.

Every request that carries a session cookie asks who it belongs to; the answer is kept in
memory (bounded), so a page's many requests cost one database look-up. It is kept for a
minute when this process is the only one, and for :data:`SHARED_SESSION_CACHE_SECONDS` when
several processes share the database (a broker connects them).

A session that ends (log-out; a password change ends every other session of the account)
must stop working everywhere at once, not when each process's memory of it runs out. So the
process that ends it publishes ``revoked`` on the hub's :data:`SESSIONS_TOPIC`, which the
broker carries to every process, and every :class:`AccountService` forgets what it remembers
of those sessions. The event names a session by its id, the hash of its cookie (never the
cookie), or an account by its id (whose every session is forgotten, the one kept by a password
change included: it is read again from the database). A process that missed an event (its
broker connection dropped a moment) forgets on its own within the short lifetime above, and a
look-up that ran while a revocation arrived is not remembered at all (it may have read the
session just before it was deleted).
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import TYPE_CHECKING

from sqlalchemy import Engine

from karnak.server.accounts.store import Account, AccountStore, Session, hash_token
from karnak.server.hub import Event, Hub

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

#: How long a session looked up is trusted without asking the database again (seconds),
#: when this process is the only one.
SESSION_CACHE_SECONDS = 60.0
#: The same when other processes share the database: the bound on how long a process that
#: missed a revocation may still accept the session.
SHARED_SESSION_CACHE_SECONDS = 2.0
SESSION_CACHE_SIZE = 10_000
#: The hub's topic on which processes tell each other that sessions ended.
SESSIONS_TOPIC = "sessions"
REVOKED = "revoked"


class AccountService:
    def __init__(
        self, engine: Engine, executor: DatabaseExecutor, hub: Hub, *, shared: bool = False
    ):
        """``shared``: other processes use the same database (a broker connects them)."""
        self.store = AccountStore(engine)
        self.executor = executor
        self.hub = hub
        self.cache_seconds = SHARED_SESSION_CACHE_SECONDS if shared else SESSION_CACHE_SECONDS
        #: Sessions by id (the hash of the cookie): when they stop being trusted, and what
        #: the database said (None: no live session).
        self._cache: OrderedDict[str, tuple[float, Session | None]] = OrderedDict()
        #: Revocations heard so far: a look-up during which one arrived is not remembered.
        self._revocations = 0
        hub.subscribe(SESSIONS_TOPIC, self._revoked)

    async def sign_up(self, name: str, password: str) -> tuple[str, Session]:
        account = await self.executor.run(self.store.sign_up, name, password)
        return await self.executor.run(self.store.open_session, account)

    async def log_in(self, name: str, password: str) -> tuple[str, Session] | None:
        account = await self.executor.run(self.store.authenticate, name, password)
        if account is None:
            return None
        return await self.executor.run(self.store.open_session, account)

    async def session(self, token: str | None, client: str | None = None) -> Session | None:
        """The live session of a cookie; ``client``, the hash of the asking address, is
        remembered with it when it changed (looked at once per cached look-up)."""
        if not token:
            return None
        key = hash_token(token)
        now = time.monotonic()
        cached = self._cache.get(key)
        if cached is not None and cached[0] > now:
            self._cache.move_to_end(key)
            return cached[1]
        heard = self._revocations
        found = await self.executor.run(self.store.session, token, client)
        if self._revocations != heard:
            return found  # it may be one that just ended: ask again next time
        self._cache[key] = (now + self.cache_seconds, found)
        self._cache.move_to_end(key)
        while len(self._cache) > SESSION_CACHE_SIZE:
            self._cache.popitem(last=False)
        return found

    async def log_out(self, session: Session) -> None:
        await self.executor.run(self.store.close_session, session.id)
        self.hub.publish(SESSIONS_TOPIC, REVOKED, {"session": session.id})

    async def change_password(self, session: Session, current: str, new: str) -> None:
        await self.executor.run(
            self.store.change_password, session.account.id, current, new, session.id
        )
        self.hub.publish(SESSIONS_TOPIC, REVOKED, {"account": session.account.id})

    async def account(self, account_id: int) -> Account | None:
        return await self.executor.run(self.store.account, account_id)

    async def by_name(self, name: str) -> Account | None:
        return await self.executor.run(self.store.by_name, name)

    async def look_alike(self, name: str) -> Account | None:
        """The account whose name a reader could take ``name`` for (karnak.server.accounts
        .names), if any; the name itself need not be a valid account name."""
        return await self.executor.run(self.store.look_alike, name)

    @property
    def remembered_sessions(self) -> int:
        """How many session look-ups this process remembers."""
        return len(self._cache)

    def forget_sessions(self) -> None:
        """Forget every remembered look-up: the next one of each session asks the database
        (after the sessions were changed behind the services' back, as tests do in SQL)."""
        self._cache.clear()

    def _revoked(self, event: Event) -> None:
        """Forget the sessions that ended (in this process or another)."""
        if event.kind != REVOKED:
            return
        self._revocations += 1
        session, account = event.payload.get("session"), event.payload.get("account")
        if isinstance(session, str):
            self._cache.pop(session, None)
        if isinstance(account, int):
            for key, (_, found) in list(self._cache.items()):
                if found is not None and found.account.id == account:
                    del self._cache[key]

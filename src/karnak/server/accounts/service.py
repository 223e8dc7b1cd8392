"""Accounts for the web application: the store run in threads, and sessions remembered.

Every request that carries a session cookie asks who it belongs to; the answer is kept in
memory for a minute (bounded), so a page's many requests cost one database look-up. A
session that ends (log-out, password change) is forgotten at once in this process.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict

from sqlalchemy import Engine

from karnak.server.accounts.store import Account, AccountStore, Session

#: How long a session looked up is trusted without asking the database again (seconds).
SESSION_CACHE_SECONDS = 60.0
SESSION_CACHE_SIZE = 10_000


class AccountService:
    def __init__(self, engine: Engine):
        self.store = AccountStore(engine)
        self._cache: OrderedDict[str, tuple[float, Session | None]] = OrderedDict()

    async def sign_up(self, name: str, password: str) -> tuple[str, Session]:
        account = await asyncio.to_thread(self.store.sign_up, name, password)
        return await asyncio.to_thread(self.store.open_session, account)

    async def log_in(self, name: str, password: str) -> tuple[str, Session] | None:
        account = await asyncio.to_thread(self.store.authenticate, name, password)
        if account is None:
            return None
        return await asyncio.to_thread(self.store.open_session, account)

    async def session(self, token: str | None) -> Session | None:
        if not token:
            return None
        now = time.monotonic()
        cached = self._cache.get(token)
        if cached is not None and cached[0] > now:
            self._cache.move_to_end(token)
            return cached[1]
        found = await asyncio.to_thread(self.store.session, token)
        self._cache[token] = (now + SESSION_CACHE_SECONDS, found)
        self._cache.move_to_end(token)
        while len(self._cache) > SESSION_CACHE_SIZE:
            self._cache.popitem(last=False)
        return found

    async def log_out(self, session: Session) -> None:
        await asyncio.to_thread(self.store.close_session, session.id)
        self._forget(session.account.id)

    async def change_password(self, session: Session, current: str, new: str) -> None:
        await asyncio.to_thread(
            self.store.change_password, session.account.id, current, new, session.id
        )
        self._forget(session.account.id, keep=session.id)

    async def account(self, account_id: int) -> Account | None:
        return await asyncio.to_thread(self.store.account, account_id)

    async def by_name(self, name: str) -> Account | None:
        return await asyncio.to_thread(self.store.by_name, name)

    def _forget(self, account_id: int, keep: str | None = None) -> None:
        """Drop the remembered sessions of an account (but ``keep``, a session id)."""
        for token, (_, found) in list(self._cache.items()):
            if found is not None and found.account.id == account_id and found.id != keep:
                del self._cache[token]

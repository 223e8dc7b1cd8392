"""Storing a game's chat lines and telling its sockets (through the hub).

A line is stored before anyone hears of it, then published on the game's topic as
``{"event": "chat", "line": {...}}`` to every socket of the game (seats and spectators
alike: see the package's docstring for why there is no separate spectator chat). Lines of
one game are numbered 1, 2, 3, ... in the order they were stored, which is also the order
they are published in (one writer per game at a time in this process; the table's unique
``(game_id, number)`` settles two processes).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import unicodedata
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import Engine, func, or_, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import _, t
from karnak.server.accounts import standing
from karnak.server.accounts.tables import AccountRow
from karnak.server.chat.tables import ChatLineRow
from karnak.server.db import utcnow
from karnak.server.hub import Hub, game_topic
from karnak.server.inputs import BIDI_CONTROLS
from karnak.server.rooms import Room

if TYPE_CHECKING:
    from karnak.server.executor import DatabaseExecutor

#: The longest line (characters).
MAX_TEXT = 500
#: The most lines one game's chat keeps; past it the chat is full (a game over days at a
#: big table stays far below; a stream of lines cannot fill the database).
MAX_LINES_PER_GAME = 10_000
#: Lines listed at once by default, and at most (the newest; ``before`` pages back).
HISTORY_DEFAULT = 100
HISTORY_MAX = 500


class ChatError(KarnakError):
    """A line refused (the message says why); ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 422):
        super().__init__(message)
        self.status = status


def text_problem(text: str) -> str | None:
    """What is wrong with a chat line, or None. Control characters (a newline, an escape
    sequence) and bidirectional marks would forge text around the line where it is shown,
    so they are refused rather than stripped: a line is shown exactly as written or not at
    all. Lone surrogates cannot be stored; the API refuses them before this is asked."""
    if not text.strip():
        return _("a chat line needs some text")
    if len(text) > MAX_TEXT:
        return t("a chat line holds at most {n} characters", n=MAX_TEXT)
    for char in text:
        if unicodedata.category(char) == "Cc" or char in BIDI_CONTROLS:
            return t(
                "a chat line cannot hold control characters (found U+{code})",
                code=format(ord(char), "04X"),
            )
        if unicodedata.category(char) == "Cs":
            return _("a chat line cannot hold a lone UTF-16 surrogate")
    return None


@dataclass(frozen=True)
class ChatLine:
    """One line as every reader sees it."""

    number: int
    seat: int
    name: str
    #: The name of the account holding the seat when the line was written, if any.
    account: str | None
    text: str
    at: dt.datetime

    def to_json(self) -> dict[str, Any]:
        at = self.at if self.at.tzinfo is not None else self.at.replace(tzinfo=dt.UTC)
        return {
            "n": self.number,
            "seat": self.seat,
            "name": self.name,
            "account": self.account,
            "text": self.text,
            # to the second: when it was said, nothing finer
            "at": at.astimezone(dt.UTC).replace(microsecond=0).isoformat(),
        }


class ChatService:
    def __init__(
        self,
        engine: Engine,
        executor: DatabaseExecutor,
        hub: Hub,
        clock: Callable[[], dt.datetime] = utcnow,
    ):
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: The server's database threads (SQLite's single writer among them).
        self.executor = executor
        self.hub = hub
        #: The time a line is stamped with (tests fix it to compare lines byte for byte).
        self.clock = clock
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    async def post(self, room: Room, seat: int, text: str) -> ChatLine:
        """Store ``seat``'s line in ``room``'s chat and send it to the game's sockets."""
        problem = text_problem(text)
        if problem is not None:
            raise ChatError(problem)
        info = room.seats[seat]
        lock = self._locks.get(room.id)
        if lock is None:
            lock = self._locks[room.id] = asyncio.Lock()
        async with lock:
            line = await self.executor.run(
                self._store, room.id, seat, info.name, info.account, text
            )
            # to every socket of the game, spectators' too: they read what the seats write
            message = {"line": line.to_json()}
            self.hub.publish(game_topic(room.id), "chat", {"message": message, "seats_only": False})
        return line

    def _store(
        self, game_id: str, seat: int, name: str, account: int | None, text: str
    ) -> ChatLine:
        for _attempt in range(3):  # another process may take the same number first
            try:
                return self._store_once(game_id, seat, name, account, text)
            except IntegrityError:
                continue
        raise ChatError(_("the chat is busy; send the line again"), 409)

    def _store_once(
        self, game_id: str, seat: int, name: str, account: int | None, text: str
    ) -> ChatLine:
        with self.sessions.begin() as session:
            last = session.scalar(
                select(func.max(ChatLineRow.number)).where(ChatLineRow.game_id == game_id)
            )
            number = int(last or 0) + 1
            if number > MAX_LINES_PER_GAME:
                raise ChatError(
                    t(
                        "this game's chat is full: it keeps at most {n} lines",
                        n=MAX_LINES_PER_GAME,
                    )
                )
            account_name = None
            if account is not None:
                holder = session.get(AccountRow, account)
                account_name = holder.name if holder is not None else None
                # an administrator's mute (karnak.server.admin): the seat's account is silent
                silenced = standing.muted(holder, utcnow()) if holder is not None else None
                if silenced is not None:
                    raise ChatError(silenced, 403)
            row = ChatLineRow(
                game_id=game_id,
                number=number,
                seat=seat,
                seat_name=name,
                account_id=account,
                text=text,
                created_at=self.clock(),
            )
            session.add(row)
            session.flush()
            return ChatLine(number, seat, name, account_name, text, row.created_at)

    async def history(
        self,
        game_id: str,
        limit: int = HISTORY_DEFAULT,
        before: int | None = None,
        hidden: frozenset[int] = frozenset(),
    ) -> list[ChatLine]:
        """The newest ``limit`` lines of the game (before line ``before``), oldest first;
        without the lines of the accounts in ``hidden`` (those the reader blocked:
        karnak.server.friends.blocks)."""
        return await self.executor.run(
            self._history, game_id, min(limit, HISTORY_MAX), before, hidden
        )

    def _history(
        self, game_id: str, limit: int, before: int | None, hidden: frozenset[int] = frozenset()
    ) -> list[ChatLine]:
        query = (
            select(ChatLineRow, AccountRow.name)
            .outerjoin(AccountRow, AccountRow.id == ChatLineRow.account_id)
            .where(ChatLineRow.game_id == game_id, ChatLineRow.hidden_at.is_(None))
        )  # a line an administrator hid is shown to nobody (karnak.server.admin)
        if before is not None:
            query = query.where(ChatLineRow.number < before)
        if hidden:
            query = query.where(
                or_(ChatLineRow.account_id.is_(None), ChatLineRow.account_id.not_in(hidden))
            )
        with self.sessions() as session:
            rows = session.execute(query.order_by(ChatLineRow.number.desc()).limit(limit)).all()
        return [
            ChatLine(row.number, row.seat, row.seat_name, account, row.text, row.created_at)
            for row, account in reversed(rows)
        ]

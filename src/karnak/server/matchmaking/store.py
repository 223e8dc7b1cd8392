"""The quick-match queue in the database (synchronous: the service runs it in the server's
database threads).

Every server process runs the matchmaker on the same rows. Taking tables from the queue is
one transaction under one lock (PostgreSQL's advisory lock, SQLite's write lock), so two
processes never put one ticket in two games: a ticket goes from "waiting" to "matching" in
that transaction, and only the process that took it makes its game. If that process dies
first, the ticket is "matching" for ever; the next matchmaker to run after
:data:`STALE_MATCHING` puts it back in the queue with its place (its ``created_at``) kept.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import t
from karnak.server.accounts.tables import AccountRow
from karnak.server.db import aware, exclusive
from karnak.server.friends.tables import BlockRow
from karnak.server.matchmaking.pairing import Waiting, Windows, tables
from karnak.server.matchmaking.tables import MatchTicketRow
from karnak.server.ratings import rules
from karnak.server.ratings.tables import RatingRow

#: The advisory lock of the matchmaker (PostgreSQL): any number that no other lock uses.
MATCH_LOCK = 0x4B41524E414B4D  # "KARNAKM"
#: A ticket taken by a process that did not make its game in this long is queued again.
STALE_MATCHING = dt.timedelta(seconds=60)
#: Tickets no longer waiting are kept this long (the page shows what became of them).
KEEP_DONE = dt.timedelta(days=1)


class QueueError(KarnakError):
    """A quick-match request the queue refuses; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Ticket:
    account: int
    name: str
    game: str
    players: int
    rating: float
    status: str
    created_at: dt.datetime
    game_id: str | None


@dataclass(frozen=True)
class Taken:
    """A table taken from the queue: its game, size and accounts (the oldest first)."""

    game: str
    players: int
    accounts: list[Ticket]


def _ticket(row: MatchTicketRow, name: str) -> Ticket:
    return Ticket(
        row.account_id,
        name,
        row.game,
        row.players,
        row.rating,
        row.status,
        aware(row.created_at),
        row.game_id,
    )


class MatchStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def rating(self, game: str, account: int) -> float:
        """The account's rating in ``game`` (mu - 3 sigma), a newcomer's if it has none."""
        with self.sessions() as session:
            row = session.scalars(
                select(RatingRow).where(RatingRow.game == game, RatingRow.account_id == account)
            ).first()
            mu, sigma = (row.mu, row.sigma) if row is not None else rules.start()
            return rules.ordinal(mu, sigma)

    def bot_ratings(self, game: str, specs: list[str]) -> dict[str, float]:
        """The ratings of the bots ``specs`` in ``game`` that have one."""
        with self.sessions() as session:
            rows = session.scalars(
                select(RatingRow).where(RatingRow.game == game, RatingRow.bot.in_(specs))
            )
            return {str(r.bot): rules.ordinal(r.mu, r.sigma) for r in rows}

    def ticket(self, account: int) -> Ticket | None:
        with self.sessions() as session:
            found = session.execute(
                select(MatchTicketRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == MatchTicketRow.account_id)
                .where(MatchTicketRow.account_id == account)
            ).first()
            return _ticket(found[0], found[1]) if found is not None else None

    def waiting_count(self, game: str, players: int) -> int:
        with self.sessions() as session:
            return int(
                session.scalar(
                    select(func.count())
                    .select_from(MatchTicketRow)
                    .where(
                        MatchTicketRow.game == game,
                        MatchTicketRow.players == players,
                        MatchTicketRow.status.in_(("waiting", "matching")),
                    )
                )
                or 0
            )

    def put(
        self, account: int, game: str, players: int, rating: float, most: int, now: dt.datetime
    ) -> None:
        """Queue the account (its earlier ticket, if any, gives way); QueueError (429) when
        ``most`` tickets wait already, (409) while its ticket is being matched."""
        with self.sessions.begin() as session:
            exclusive(session, MATCH_LOCK)
            row = session.get(MatchTicketRow, account)
            if row is not None and row.status == "matching":
                raise QueueError(t("your table is being made: wait a moment"), 409)
            if (
                row is not None
                and row.status == "waiting"
                and (row.game, row.players)
                == (
                    game,
                    players,
                )
            ):
                return  # asked again: the place is kept
            waiting = session.scalar(
                select(func.count())
                .select_from(MatchTicketRow)
                .where(MatchTicketRow.status.in_(("waiting", "matching")))
            )
            if int(waiting or 0) >= most:
                raise QueueError(t("the quick-match queue is full: try again in a minute"), 429)
            if row is not None:
                session.delete(row)
                session.flush()
            session.add(
                MatchTicketRow(
                    account_id=account,
                    game=game,
                    players=players,
                    rating=rating,
                    status="waiting",
                    created_at=now,
                    updated_at=now,
                )
            )

    def cancel(self, account: int, now: dt.datetime) -> bool:
        """Leave the queue; False if the account was not waiting."""
        with self.sessions.begin() as session:
            done = session.execute(
                update(MatchTicketRow)
                .where(MatchTicketRow.account_id == account, MatchTicketRow.status == "waiting")
                .values(status="cancelled", updated_at=now)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def take_tables(self, now: dt.datetime, windows: Windows) -> list[Taken]:
        """Take every table the queue can form now (see the module's docstring)."""
        with self.sessions.begin() as session:
            exclusive(session, MATCH_LOCK)
            session.execute(
                update(MatchTicketRow)
                .where(
                    MatchTicketRow.status == "matching",
                    MatchTicketRow.matching_at < now - STALE_MATCHING,
                )
                .values(status="waiting", matching_at=None, updated_at=now)
            )
            session.execute(
                delete(MatchTicketRow).where(
                    MatchTicketRow.status.in_(("matched", "bots", "cancelled")),
                    MatchTicketRow.updated_at < now - KEEP_DONE,
                )
            )
            found = session.execute(
                select(MatchTicketRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == MatchTicketRow.account_id)
                .where(MatchTicketRow.status == "waiting")
            ).all()
            if len(found) < 2:
                return []
            tickets = {row.account_id: _ticket(row, name) for row, name in found}
            ids = list(tickets)
            blocked = {
                frozenset(pair)
                for pair in session.execute(
                    select(BlockRow.blocker_id, BlockRow.blocked_id).where(
                        BlockRow.blocker_id.in_(ids), BlockRow.blocked_id.in_(ids)
                    )
                ).all()
            }
            queues: dict[tuple[str, int], list[Waiting]] = defaultdict(list)
            for ticket in tickets.values():
                queues[(ticket.game, ticket.players)].append(
                    Waiting(ticket.account, ticket.rating, ticket.created_at.timestamp())
                )
            taken: list[Taken] = []
            for (game, players), waiting in sorted(queues.items()):
                for table in tables(waiting, players, now.timestamp(), windows, blocked):
                    taken.append(Taken(game, players, [tickets[w.account] for w in table]))
            chosen = [t.account for table in taken for t in table.accounts]
            if chosen:
                session.execute(
                    update(MatchTicketRow)
                    .where(MatchTicketRow.account_id.in_(chosen))
                    .values(status="matching", matching_at=now, updated_at=now)
                )
            return taken

    def take_for_bots(self, account: int, now: dt.datetime, after: float) -> Ticket:
        """The account's waiting ticket, taken out of the queue for a game with bots once it
        has waited ``after`` seconds; QueueError otherwise."""
        with self.sessions.begin() as session:
            exclusive(session, MATCH_LOCK)
            found = session.execute(
                select(MatchTicketRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == MatchTicketRow.account_id)
                .where(MatchTicketRow.account_id == account)
            ).first()
            if found is None or found[0].status != "waiting":
                raise QueueError(t("you are not waiting for a quick match"), 409)
            row, name = found
            waited = (now - aware(row.created_at)).total_seconds()
            if waited < after:
                raise QueueError(
                    t(
                        "bots are offered after {after} s in the queue: {left} s to go",
                        after=format(after, "g"),
                        left=format(after - waited, ".0f"),
                    ),
                    409,
                )
            row.status, row.matching_at, row.updated_at = "matching", now, now
            return _ticket(row, name)

    def settle(
        self, accounts: list[int], status: str, game_id: str | None, now: dt.datetime
    ) -> None:
        """The taken tickets' outcome: "matched"/"bots" with the game, or "waiting" again
        (the game could not be made: their places are kept)."""
        with self.sessions.begin() as session:
            session.execute(
                update(MatchTicketRow)
                .where(
                    MatchTicketRow.account_id.in_(accounts),
                    MatchTicketRow.status == "matching",
                )
                .values(status=status, game_id=game_id, matching_at=None, updated_at=now)
            )

    def counts(self) -> dict[str, int]:
        """Tickets by status (the metrics and the tests)."""
        with self.sessions() as session:
            rows = session.execute(
                select(MatchTicketRow.status, func.count()).group_by(MatchTicketRow.status)
            ).all()
            return {str(status): int(count) for status, count in rows}

"""Reading and writing the game of the day (synchronous: the service and the routes run it
in the server's database threads).

A day's leaderboard counts the ranked games that finished before the day was over, best
first: the score, then the lower penalty (the game's own tie-break), then the shorter time.
Places are worked out when asked, from the stored results, so a late result cannot leave
one stale.
"""

from __future__ import annotations

import datetime as dt
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from karnak.core.daily import DailyResult
from karnak.server.accounts.store import name_key
from karnak.server.accounts.tables import AccountRow
from karnak.server.cluster.leases import game_lease
from karnak.server.cluster.tables import LeaseRow
from karnak.server.daily.days import day_end, parse_iso
from karnak.server.daily.tables import DailyGameRow, DailySecretRow
from karnak.server.db import GameRow, aware, utcnow

#: The most days a player's public history lists.
MAX_HISTORY_DAYS = 366


@dataclass(frozen=True)
class Secret:
    """The day's deals come from ``value``; ``first_day`` is the day it was made (the
    calendar starts there)."""

    value: bytes
    first_day: dt.date


def _best_first() -> tuple[Any, ...]:
    return (
        DailyGameRow.score.desc(),
        DailyGameRow.penalty.asc(),
        DailyGameRow.seconds.asc(),
        DailyGameRow.finished_at.asc(),
        DailyGameRow.game_id.asc(),
    )


def _counted(game: str, day: str) -> Any:
    """The rows of ``day``'s leaderboard: ranked, finished before the day was over."""
    return and_(
        DailyGameRow.game == game,
        DailyGameRow.day == day,
        DailyGameRow.ranked.is_(True),
        DailyGameRow.finished_at.is_not(None),
        DailyGameRow.finished_at < day_end(parse_iso(day)),
    )


def _better_than(row: DailyGameRow) -> Any:
    """Rows of the same leaderboard strictly ahead of ``row``."""
    score, penalty, seconds = row.score or 0, row.penalty or 0, row.seconds or 0.0
    return or_(
        DailyGameRow.score > score,
        and_(DailyGameRow.score == score, DailyGameRow.penalty < penalty),
        and_(
            DailyGameRow.score == score,
            DailyGameRow.penalty == penalty,
            DailyGameRow.seconds < seconds,
        ),
    )


class DailyStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------------ the secret
    def secret(self) -> Secret:
        """The server's secret, made now by whichever process asks first."""
        for _ in range(2):
            with self.sessions() as session:
                row = session.get(DailySecretRow, 1)
                if row is not None:
                    return Secret(bytes.fromhex(row.secret), aware(row.created_at).date())
            try:
                with self.sessions.begin() as session:
                    session.add(DailySecretRow(id=1, secret=secrets.token_hex(32)))
            except IntegrityError:
                pass  # another process made it first: read theirs
        raise RuntimeError("the daily secret could neither be read nor made")

    # ------------------------------------------------------------------ games of a day
    def find(self, game: str, day: str, account: int) -> DailyGameRow | None:
        with self.sessions() as session:
            return session.scalars(
                select(DailyGameRow).where(
                    DailyGameRow.game == game,
                    DailyGameRow.day == day,
                    DailyGameRow.account_id == account,
                )
            ).first()

    def by_game(self, game_id: str) -> DailyGameRow | None:
        with self.sessions() as session:
            return session.get(DailyGameRow, game_id)

    def bots(self, game: str, day: str) -> list[DailyGameRow]:
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(DailyGameRow).where(
                        DailyGameRow.game == game,
                        DailyGameRow.day == day,
                        DailyGameRow.bot_level.is_not(None),
                    )
                )
            )

    def add(self, row: DailyGameRow) -> bool:
        """Store a new game of a day; False if the account (or bot level) has one already
        (two requests at once: the caller drops its own game)."""
        try:
            with self.sessions.begin() as session:
                session.add(row)
            return True
        except IntegrityError:
            return False

    def drop_game(self, game_id: str) -> None:
        """Delete a game that lost the race to be a day's (it was never shown to anyone)."""
        with self.sessions.begin() as session:
            session.execute(delete(LeaseRow).where(LeaseRow.name == game_lease(game_id)))
            session.execute(delete(GameRow).where(GameRow.id == game_id))

    def finish(self, game_id: str, result: DailyResult, at: dt.datetime | None = None) -> bool:
        """Write a finished game's result once; False if it is not a day's game or was
        written before."""
        at = at or utcnow()
        with self.sessions.begin() as session:
            row = session.get(DailyGameRow, game_id)
            if row is None or row.finished_at is not None:
                return False
            seconds = max(0.0, (at - aware(row.started_at)).total_seconds())
            session.execute(
                update(DailyGameRow)
                .where(DailyGameRow.game_id == game_id, DailyGameRow.finished_at.is_(None))
                .values(
                    finished_at=at,
                    score=result.score,
                    status=result.status,
                    penalty=result.penalty,
                    seconds=round(seconds, 1),
                    marks=result.marks,
                )
            )
            return True

    def unfinished_over(self) -> list[str]:
        """Days' games that are over but have no result yet (a server stopped between the
        end and the writing): the service catches up with them at start."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(DailyGameRow.game_id)
                    .join(GameRow, GameRow.id == DailyGameRow.game_id)
                    .where(DailyGameRow.finished_at.is_(None), GameRow.status == "finished")
                )
            )

    # ------------------------------------------------------------------ leaderboards
    def leaderboard(
        self, game: str, day: str, offset: int, limit: int
    ) -> tuple[int, list[dict[str, Any]]]:
        with self.sessions() as session:
            total = session.scalar(
                select(func.count()).select_from(DailyGameRow).where(_counted(game, day))
            )
            rows = session.execute(
                select(DailyGameRow, AccountRow.name)
                .join(AccountRow, AccountRow.id == DailyGameRow.account_id)
                .where(_counted(game, day))
                .order_by(*_best_first())
                .offset(offset)
                .limit(limit)
            ).all()
            entries = []
            place = 0
            previous: tuple[Any, ...] | None = None
            for index, (row, name) in enumerate(rows):
                key = (row.score, row.penalty, row.seconds)
                if index == 0:  # the page's first row may share a place with the last page's
                    place = self._place(session, game, day, row)
                elif key != previous:  # an exact tie shares the place
                    place = offset + index + 1
                previous = key
                entries.append(
                    {**_result(row), "place": place, "name": name, "game_id": row.game_id}
                )
            return int(total or 0), entries

    def _place(self, session: Session, game: str, day: str, row: DailyGameRow) -> int:
        ahead = session.scalar(
            select(func.count())
            .select_from(DailyGameRow)
            .where(_counted(game, day), _better_than(row))
        )
        return int(ahead or 0) + 1

    def place(self, row: DailyGameRow) -> int | None:
        """``row``'s place on its day's leaderboard, or None if it does not count."""
        if not row.ranked or not _in_time(row):
            return None
        with self.sessions() as session:
            return self._place(session, row.game, row.day, row)

    def players(self, game: str, days: Iterable[str]) -> dict[str, int]:
        """How many ranked games finished in time on each of ``days``."""
        wanted = list(days)
        if not wanted:
            return {}
        with self.sessions() as session:
            counts = dict.fromkeys(wanted, 0)
            for day in wanted:
                counts[day] = int(
                    session.scalar(
                        select(func.count()).select_from(DailyGameRow).where(_counted(game, day))
                    )
                    or 0
                )
            return counts

    # ------------------------------------------------------------------ one player
    def account_games(
        self, game: str, account: int, first: str, last: str
    ) -> dict[str, DailyGameRow]:
        """The account's games of the days from ``first`` to ``last``, by day."""
        with self.sessions() as session:
            rows = session.scalars(
                select(DailyGameRow).where(
                    DailyGameRow.game == game,
                    DailyGameRow.account_id == account,
                    DailyGameRow.day >= first,
                    DailyGameRow.day <= last,
                )
            )
            return {row.day: row for row in rows}

    def account_by_name(self, name: str) -> tuple[int, str] | None:
        with self.sessions() as session:
            found = session.execute(
                select(AccountRow.id, AccountRow.name).where(AccountRow.name_key == name_key(name))
            ).first()
            return (int(found[0]), str(found[1])) if found is not None else None

    def ranked_days(self, game: str, account: int) -> list[DailyGameRow]:
        """The account's ranked games that finished in time, newest first."""
        with self.sessions() as session:
            rows = session.scalars(
                select(DailyGameRow)
                .where(
                    DailyGameRow.game == game,
                    DailyGameRow.account_id == account,
                    DailyGameRow.ranked.is_(True),
                    DailyGameRow.finished_at.is_not(None),
                )
                .order_by(DailyGameRow.day.desc())
            ).all()
            return [r for r in rows if _in_time(r)]


def _in_time(row: DailyGameRow) -> bool:
    """Whether ``row`` finished before its day was over (only then does it count)."""
    return row.finished_at is not None and aware(row.finished_at) < day_end(parse_iso(row.day))


def _result(row: DailyGameRow) -> dict[str, Any]:
    return {
        "score": row.score,
        "status": row.status,
        "plagues": row.penalty,
        "seconds": row.seconds,
    }


def streaks(days: Iterable[dt.date], today: dt.date) -> tuple[int, int]:
    """(current, best) runs of consecutive days among ``days``: the current run ends today,
    or yesterday while today's game is not done yet (a streak is kept until the day is
    over)."""
    played = sorted(set(days))
    best = run = 0
    previous: dt.date | None = None
    for day in played:
        run = run + 1 if previous is not None and (day - previous).days == 1 else 1
        best = max(best, run)
        previous = day
    present = set(played)
    current = 0
    cursor = today if today in present else today - dt.timedelta(days=1)
    while cursor in present:
        current += 1
        cursor -= dt.timedelta(days=1)
    return current, best

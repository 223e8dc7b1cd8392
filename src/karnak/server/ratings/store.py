"""Reading and writing ratings (synchronous: the service and the routes run it in threads).

Rating a game is one transaction: the game's ``rated_games`` row is written (and flushed)
first, then the ratings and their events. A second rater of the same game (a restart's
catch-up meeting the live path, or another server process) waits on that row and fails on
its primary key, so a game counts once, or not at all if the transaction fails.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from karnak.core.errors import KarnakError
from karnak.core.registry import available_games, get_game
from karnak.i18n import _
from karnak.server.accounts.store import name_key
from karnak.server.accounts.tables import AccountRow
from karnak.server.bot_names import bot_level, level_label
from karnak.server.db import GameRow, SeatRow, utcnow
from karnak.server.ratings import rules
from karnak.server.ratings.tables import RatedGameRow, RatingEventRow, RatingRow
from karnak.server.store import unsealed

#: The most points of one rating's history a profile carries (the newest).
MAX_HISTORY = 200
#: Finished games a profile lists.
RECENT_GAMES = 20
#: Attempts at rating one game when a concurrent writer got in the way.
ATTEMPTS = 3


def title_of(game: str) -> str:
    try:
        return get_game(game).title
    except KarnakError:
        return game


def iso(moment: dt.datetime | None) -> str | None:
    return moment.isoformat() if moment is not None else None


def shown(mu: float, sigma: float) -> float:
    """A rating as shown: the ordinal, to one decimal."""
    return round(rules.ordinal(mu, sigma), 1)


def seat_results(result: dict[str, Any] | None, seat: int) -> tuple[int | None, Any, bool, bool]:
    """A seat's rank, score, whether it won and whether its player left, from a stored
    result (a player who left never won, whatever the bot in the seat went on to do)."""
    result = result or {}
    left = seat in (result.get("left") or [])
    ranks, scores = result.get("ranks") or [], result.get("scores") or []
    rank = ranks[seat] if seat < len(ranks) else None
    score = scores[seat] if seat < len(scores) else None
    won = not left and seat in (result.get("winners") or [])
    return rank, score, won, left


@dataclass(frozen=True)
class Outcome:
    """What rating one game did: ``done`` False if it was rated before (or is not over)."""

    done: bool
    rated: bool = False
    reason: str | None = None


class RatingStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------------ rating games
    def unrated(self) -> list[str]:
        """Finished games not looked at yet, in the order they finished (ids only: a
        database of a hundred thousand such games is a few megabytes, once)."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(GameRow.id)
                    .outerjoin(RatedGameRow, RatedGameRow.game_id == GameRow.id)
                    .where(GameRow.status == "finished", RatedGameRow.game_id.is_(None))
                    .order_by(GameRow.finished_at, GameRow.id)
                )
            )

    def rate(self, game_id: str) -> Outcome:
        """Rate the finished game ``game_id`` once (see the module's docstring)."""
        for attempt in range(ATTEMPTS):
            try:
                with self.sessions.begin() as session:
                    return self._rate(session, game_id)
            except IntegrityError:
                # another writer rated this game, or created a rating row at the same time
                with self.sessions() as session:
                    if session.get(RatedGameRow, game_id) is not None:
                        return Outcome(done=False)
                if attempt == ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _rate(self, session: Session, game_id: str) -> Outcome:
        if session.get(RatedGameRow, game_id) is not None:
            return Outcome(done=False)
        row = session.get(GameRow, game_id, options=[selectinload(GameRow.seats)])
        if row is None or row.status != "finished":
            return Outcome(done=False)
        seats = [rules.Seat(s.seat, s.kind, s.bot, s.account_id) for s in row.seats]
        decision = rules.decide(seats, row.result)
        session.add(RatedGameRow(game_id=game_id, rated=decision.rated, reason=decision.reason))
        session.flush()  # claims the game: a concurrent rater stops here
        if not decision.rated:
            return Outcome(done=True, rated=False, reason=decision.reason)
        ratings: dict[rules.Key, RatingRow] = {}
        for seat in decision.seats:
            if seat.key not in ratings:
                ratings[seat.key] = self._rating(session, row.game, seat)
        before = {key: (r.mu, r.sigma) for key, r in ratings.items()}
        after = rules.update(before, decision.seats)
        now = utcnow()
        for seat in decision.seats:
            (mu0, sigma0), (mu1, sigma1) = before[seat.key], after[seat.key]
            session.add(
                RatingEventRow(
                    game_id=game_id,
                    seat=seat.seat,
                    rating_id=ratings[seat.key].id,
                    rank=seat.rank,
                    left=seat.left,
                    mu_before=mu0,
                    sigma_before=sigma0,
                    mu_after=mu1,
                    sigma_after=sigma1,
                    created_at=now,
                )
            )
        for key, rating in ratings.items():
            rating.mu, rating.sigma = after[key]
            rating.games += 1
            mine = [s for s in decision.seats if s.key == key]
            rating.wins += any(s.rank == 1 and not s.left for s in mine)
            rating.updated_at = now
        return Outcome(done=True, rated=True)

    @staticmethod
    def _rating(session: Session, game: str, seat: rules.Rated) -> RatingRow:
        """The seat's rating row in ``game``, locked for the update (made if new)."""
        if seat.account is not None:
            which = RatingRow.account_id == seat.account
        else:
            which = RatingRow.bot == seat.bot
        found = session.scalars(
            select(RatingRow).where(RatingRow.game == game, which).with_for_update()
        ).first()
        if found is not None:
            return found
        mu, sigma = rules.start()
        created = RatingRow(
            game=game, account_id=seat.account, bot=seat.bot, mu=mu, sigma=sigma, games=0, wins=0
        )
        session.add(created)
        session.flush()
        return created

    # ------------------------------------------------------------------ reading
    def leaderboard(self, game: str, offset: int, limit: int) -> tuple[int, list[dict[str, Any]]]:
        """The ratings of ``game`` with at least one rated game, best first, from ``offset``."""
        ordered = RatingRow.mu - rules.Z * RatingRow.sigma
        played = and_(RatingRow.game == game, RatingRow.games > 0)
        with self.sessions() as session:
            total = session.scalar(select(func.count()).select_from(RatingRow).where(played))
            rows = session.execute(
                select(RatingRow, AccountRow.name)
                .outerjoin(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(played)
                .order_by(ordered.desc(), RatingRow.games.desc(), RatingRow.id)
                .offset(offset)
                .limit(limit)
            ).all()
        entries = []
        for place, (rating, name) in enumerate(rows, start=offset + 1):
            entries.append(
                {
                    "place": place,
                    "name": name
                    if rating.account_id is not None
                    else level_label(bot_level(rating.bot, game)),
                    "kind": "account" if rating.account_id is not None else "bot",
                    "bot": rating.bot,
                    "level": None if rating.account_id is not None else bot_level(rating.bot, game),
                    "rating": shown(rating.mu, rating.sigma),
                    "mu": round(rating.mu, 3),
                    "sigma": round(rating.sigma, 3),
                    "games": rating.games,
                    "wins": rating.wins,
                }
            )
        return int(total or 0), entries

    def game_ratings(self, game_id: str) -> dict[str, Any] | None:
        """A finished game's rating changes (None: no such game; ``status`` "running" for a
        game not over, "pending" for one not rated yet)."""
        with self.sessions() as session:
            row = session.get(GameRow, game_id, options=[selectinload(GameRow.seats)])
            if row is None:
                return None
            if row.status != "finished":
                return {"game_id": game_id, "status": "running"}
            marked = session.get(RatedGameRow, game_id)
            if marked is None:
                return {"game_id": game_id, "status": "pending", "reason": None, "seats": []}
            if not marked.rated:
                return {
                    "game_id": game_id,
                    "status": "unrated",
                    # stored in English (karnak.server.ratings.rules), told in the reader's
                    "reason": _(marked.reason) if marked.reason else marked.reason,
                    "seats": [],
                }
            events = session.execute(
                select(RatingEventRow, RatingRow, AccountRow.name)
                .join(RatingRow, RatingRow.id == RatingEventRow.rating_id)
                .outerjoin(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingEventRow.game_id == game_id)
                .order_by(RatingEventRow.seat)
            ).all()
            names = {s.seat: s.name for s in row.seats}
        seats = []
        for event, rating, account in events:
            before = shown(event.mu_before, event.sigma_before)
            after = shown(event.mu_after, event.sigma_after)
            seats.append(
                {
                    "seat": event.seat,
                    "name": names.get(event.seat, ""),
                    "kind": "account" if rating.account_id is not None else "bot",
                    "account": account,
                    "bot": rating.bot,
                    "rank": event.rank,
                    "left": event.left,
                    "before": before,
                    "after": after,
                    "change": round(after - before, 1),
                }
            )
        return {"game_id": game_id, "status": "rated", "reason": None, "seats": seats}

    def profile(self, name: str) -> dict[str, Any] | None:
        """An account's public record (None: no such account): per game, finished games
        played and won, the rating and its history; the most recent finished games."""
        with self.sessions() as session:
            account = session.scalars(
                select(AccountRow).where(AccountRow.name_key == name_key(name))
            ).first()
            if account is None:
                return None
            # a sealed game (a game of the day's) is listed once its day is over
            mine = and_(
                SeatRow.account_id == account.id,
                GameRow.status == "finished",
                unsealed(),
            )
            played = session.execute(
                select(GameRow.game, GameRow.result, SeatRow.seat)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(mine)
            ).all()
            ratings = {
                r.game: r
                for r in session.scalars(
                    select(RatingRow).where(RatingRow.account_id == account.id)
                )
            }
            histories = {
                game: self._history(session, rating.id) for game, rating in ratings.items()
            }
            recent = session.scalars(
                select(GameRow)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(mine)
                .options(selectinload(GameRow.seats))
                .order_by(GameRow.finished_at.desc(), GameRow.id)
                .limit(RECENT_GAMES)
            ).all()
            changes = self._changes(session, [g.id for g in recent], list(ratings.values()))
            holders = self._account_names(session, recent)
            return {
                "name": account.name,
                "games": self._per_game(played, ratings, histories),
                "recent": [self._recent(game, account.id, changes, holders) for game in recent],
            }

    @staticmethod
    def _per_game(
        played: Sequence[Any],
        ratings: dict[str, RatingRow],
        histories: dict[str, list[dict[str, Any]]],
    ) -> list[dict[str, Any]]:
        counts: dict[str, list[int]] = {}
        for game, result, seat in played:
            tally = counts.setdefault(game, [0, 0])
            tally[0] += 1
            tally[1] += seat_results(result, seat)[2]
        listed = []
        for game in [*available_games(), *sorted(set(counts) - set(available_games()))]:
            rating = ratings.get(game)
            games, wins = counts.get(game, [0, 0])
            listed.append(
                {
                    "game": game,
                    "title": title_of(game),
                    "played": games,
                    "wins": wins,
                    "rating": None
                    if rating is None
                    else {
                        "rating": shown(rating.mu, rating.sigma),
                        "mu": round(rating.mu, 3),
                        "sigma": round(rating.sigma, 3),
                        "games": rating.games,
                        "wins": rating.wins,
                    },
                    "history": histories.get(game, []),
                }
            )
        return listed

    @staticmethod
    def _history(session: Session, rating_id: int) -> list[dict[str, Any]]:
        """The newest points of an account's rating history, oldest first."""
        rows = session.execute(
            select(RatingEventRow, GameRow.finished_at)
            .join(GameRow, GameRow.id == RatingEventRow.game_id)
            .where(RatingEventRow.rating_id == rating_id)
            .order_by(RatingEventRow.id.desc())
            .limit(MAX_HISTORY)
        ).all()
        points = []
        for event, finished_at in reversed(rows):
            points.append(
                {
                    "game_id": event.game_id,
                    "at": iso(finished_at),
                    "rating": shown(event.mu_after, event.sigma_after),
                    "before": shown(event.mu_before, event.sigma_before),
                    "rank": event.rank,
                    "left": event.left,
                }
            )
        return points

    @staticmethod
    def _changes(
        session: Session, game_ids: list[str], ratings: list[RatingRow]
    ) -> dict[str, float]:
        """The account's rating change in each of ``game_ids`` that was rated."""
        if not game_ids or not ratings:
            return {}
        events = session.scalars(
            select(RatingEventRow).where(
                RatingEventRow.game_id.in_(game_ids),
                RatingEventRow.rating_id.in_([r.id for r in ratings]),
            )
        ).all()
        return {
            e.game_id: round(
                shown(e.mu_after, e.sigma_after) - shown(e.mu_before, e.sigma_before), 1
            )
            for e in events
        }

    @staticmethod
    def _account_names(session: Session, games: Sequence[GameRow]) -> dict[int, str]:
        ids = {s.account_id for g in games for s in g.seats if s.account_id is not None}
        if not ids:
            return {}
        rows = session.execute(
            select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(ids))
        ).all()
        return {account_id: name for account_id, name in rows}

    @staticmethod
    def _recent(
        game: GameRow, account: int, changes: dict[str, float], holders: dict[int, str]
    ) -> dict[str, Any]:
        seat = next(s.seat for s in game.seats if s.account_id == account)
        rank, score, won, left = seat_results(game.result, seat)
        return {
            "id": game.id,
            "game": game.game,
            "title": title_of(game.game),
            "finished_at": iso(game.finished_at),
            "seat": seat,
            "rank": rank,
            "score": score,
            "won": won,
            "left": left,
            "winners": (game.result or {}).get("winners") or [],
            "rating_change": changes.get(game.id),
            "players": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "bot": s.bot,
                    "account": holders.get(s.account_id) if s.account_id is not None else None,
                }
                for s in game.seats
            ],
        }

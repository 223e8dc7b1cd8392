"""Tournaments in the database (synchronous: the service runs it in the database threads).

Two changes must happen once whatever the number of server processes: starting a round
(the tournament's ``round`` moves from R to R+1 only where it still is R, and only the
process whose update did it makes the round's games) and writing a game's result (only
where no places are written yet). Everything else is read back from the rows.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.orm import sessionmaker

from karnak.core.errors import KarnakError
from karnak.i18n import t
from karnak.server.accounts.store import name_key
from karnak.server.accounts.tables import AccountRow
from karnak.server.db import GameRow, aware
from karnak.server.tournaments.tables import (
    TournamentGameRow,
    TournamentInvitationRow,
    TournamentPlayerRow,
    TournamentRow,
)

#: Invitations one tournament holds at most.
MOST_INVITATIONS = 128


class TournamentError(KarnakError):
    """A tournament request refused; ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


def _aware(moment: dt.datetime | None) -> dt.datetime | None:
    return aware(moment) if moment is not None else None


@dataclass(frozen=True)
class Player:
    name: str
    account: int | None
    bot: str | None
    rating: float


@dataclass(frozen=True)
class Pairing:
    round: int
    seats: list[str]
    game_id: str | None
    places: list[int] | None
    left: list[int]
    bye: bool
    #: A double elimination's bracket ("winners", "losers", "final"); None elsewhere.
    bracket: str | None = None


@dataclass(frozen=True)
class Tournament:
    id: str
    name: str
    game: str
    format: str
    rounds: int
    max_players: int
    least: int
    most: int
    bots: str | None
    turn_timer: float | None
    starts_at: dt.datetime | None
    status: str
    round: int
    creator: int | None
    created_at: dt.datetime
    finished_at: dt.datetime | None
    players: list[Player] = field(default_factory=list)
    games: list[Pairing] = field(default_factory=list)
    invite_only: bool = False
    #: The time control of its games ({"per_move": s, "bank": s}), or None.
    time_control: dict[str, float] | None = None
    #: The accounts invited (ids), when it is by invitation.
    invited: frozenset[int] = frozenset()


def _tournament(
    row: TournamentRow, players: list[Player], games: list[Pairing], invited: frozenset[int]
) -> Tournament:
    created = _aware(row.created_at)
    assert created is not None
    return Tournament(
        row.id,
        row.name,
        row.game,
        row.format,
        row.rounds,
        row.max_players,
        row.least,
        row.most,
        row.bots,
        row.turn_timer,
        _aware(row.starts_at),
        row.status,
        row.round,
        row.creator_id,
        created,
        _aware(row.finished_at),
        players,
        games,
        bool(row.invite_only),
        {"per_move": row.time_per_move, "bank": row.time_bank}
        if row.time_per_move is not None and row.time_bank is not None
        else None,
        invited,
    )


class TournamentStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def create(self, values: dict[str, Any], most_open: int) -> str:
        """A new tournament; TournamentError (429) when its creator has ``most_open``
        tournaments not finished."""
        with self.sessions.begin() as session:
            held = session.scalar(
                select(func.count())
                .select_from(TournamentRow)
                .where(
                    TournamentRow.creator_id == values["creator_id"],
                    TournamentRow.status.in_(("open", "running")),
                )
            )
            if int(held or 0) >= most_open:
                raise TournamentError(
                    t("you run {n} tournaments already: let one finish first", n=most_open), 429
                )
            tournament_id = secrets.token_urlsafe(9)
            session.add(TournamentRow(id=tournament_id, status="open", round=0, **values))
            return tournament_id

    def load(self, tournament_id: str) -> Tournament | None:
        with self.sessions() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                return None
            players = [
                Player(p.name, p.account_id, p.bot, p.rating)
                for p in session.scalars(
                    select(TournamentPlayerRow)
                    .where(TournamentPlayerRow.tournament_id == tournament_id)
                    .order_by(TournamentPlayerRow.joined_at, TournamentPlayerRow.id)
                )
            ]
            games = [
                Pairing(
                    g.round,
                    list(g.seats),
                    g.game_id,
                    list(g.places) if g.places is not None else None,
                    list(g.left or []),
                    g.bye,
                    g.bracket,
                )
                for g in session.scalars(
                    select(TournamentGameRow)
                    .where(TournamentGameRow.tournament_id == tournament_id)
                    .order_by(TournamentGameRow.round, TournamentGameRow.id)
                )
            ]
            invited = frozenset(
                session.scalars(
                    select(TournamentInvitationRow.account_id).where(
                        TournamentInvitationRow.tournament_id == tournament_id
                    )
                )
            )
            return _tournament(row, players, games, invited)

    def listed(self, limit: int) -> list[Tournament]:
        with self.sessions() as session:
            ids = list(
                session.scalars(
                    select(TournamentRow.id)
                    .order_by(TournamentRow.created_at.desc(), TournamentRow.id)
                    .limit(limit)
                )
            )
        return [found for i in ids if (found := self.load(i)) is not None]

    def join(self, tournament_id: str, account: int, name: str, rating: float) -> None:
        with self.sessions.begin() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise TournamentError(t("there is no tournament with this id"), 404)
            if row.status != "open":
                raise TournamentError(t("this tournament has started: it takes nobody new"))
            if (
                row.invite_only
                and account != row.creator_id
                and not self._invited(session, tournament_id, account)
            ):
                raise TournamentError(
                    t("this tournament is by invitation: ask its creator to invite you"), 403
                )
            count = session.scalar(
                select(func.count())
                .select_from(TournamentPlayerRow)
                .where(TournamentPlayerRow.tournament_id == tournament_id)
            )
            mine = session.scalar(
                select(TournamentPlayerRow.id).where(
                    TournamentPlayerRow.tournament_id == tournament_id,
                    TournamentPlayerRow.account_id == account,
                )
            )
            if mine is not None:
                return
            if int(count or 0) >= row.max_players:
                raise TournamentError(t("this tournament is full"))
            session.add(
                TournamentPlayerRow(
                    tournament_id=tournament_id, account_id=account, name=name, rating=rating
                )
            )

    @staticmethod
    def _invited(session: Any, tournament_id: str, account: int) -> bool:
        return (
            session.scalar(
                select(TournamentInvitationRow.id).where(
                    TournamentInvitationRow.tournament_id == tournament_id,
                    TournamentInvitationRow.account_id == account,
                )
            )
            is not None
        )

    def invite(
        self, tournament_id: str, creator: int, names: list[str], now: dt.datetime
    ) -> tuple[list[tuple[int, str]], list[str]]:
        """Invite accounts by name (its creator, while it is open): the accounts newly
        invited (id, name) and the names that are nobody's. TournamentError: not its
        creator (403), started (409), more than :data:`MOST_INVITATIONS` (429)."""
        with self.sessions.begin() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise TournamentError(t("there is no tournament with this id"), 404)
            if row.creator_id != creator:
                raise TournamentError(t("only its creator invites to a tournament"), 403)
            if row.status != "open":
                raise TournamentError(t("this tournament has started: it takes nobody new"))
            if not row.invite_only:
                raise TournamentError(t("this tournament is open to all: no invitation is needed"))
            held = int(
                session.scalar(
                    select(func.count())
                    .select_from(TournamentInvitationRow)
                    .where(TournamentInvitationRow.tournament_id == tournament_id)
                )
                or 0
            )
            invited: list[tuple[int, str]] = []
            unknown: list[str] = []
            for name in dict.fromkeys(n.strip() for n in names if n.strip()):
                account = session.scalars(
                    select(AccountRow).where(AccountRow.name_key == name_key(name))
                ).first()
                if account is None:
                    unknown.append(name)
                    continue
                if account.id == creator or self._invited(session, tournament_id, account.id):
                    continue
                if held >= MOST_INVITATIONS:
                    raise TournamentError(
                        t("a tournament invites {most} accounts at most", most=MOST_INVITATIONS),
                        429,
                    )
                session.add(
                    TournamentInvitationRow(
                        tournament_id=tournament_id, account_id=account.id, invited_at=now
                    )
                )
                held += 1
                invited.append((account.id, account.name))
            return invited, unknown

    def invited_names(self, tournament_id: str) -> list[str]:
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(AccountRow.name)
                    .join(
                        TournamentInvitationRow,
                        TournamentInvitationRow.account_id == AccountRow.id,
                    )
                    .where(TournamentInvitationRow.tournament_id == tournament_id)
                    .order_by(TournamentInvitationRow.invited_at, TournamentInvitationRow.id)
                )
            )

    def leave(self, tournament_id: str, account: int) -> bool:
        with self.sessions.begin() as session:
            row = session.get(TournamentRow, tournament_id)
            if row is None:
                raise TournamentError(t("there is no tournament with this id"), 404)
            if row.status != "open":
                raise TournamentError(
                    t("this tournament has started: leave your games instead (a bot plays on)")
                )
            done = session.execute(
                delete(TournamentPlayerRow).where(
                    TournamentPlayerRow.tournament_id == tournament_id,
                    TournamentPlayerRow.account_id == account,
                )
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def add_bots(self, tournament_id: str, bots: list[tuple[str, str]]) -> None:
        with self.sessions.begin() as session:
            for name, spec in bots:
                session.add(
                    TournamentPlayerRow(tournament_id=tournament_id, name=name, bot=spec, rating=0)
                )

    def claim_round(self, tournament_id: str, current: int, status: str) -> bool:
        """Move the tournament from round ``current`` to the next (and to ``status``):
        True for the one caller whose update did it."""
        with self.sessions.begin() as session:
            done = session.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id, TournamentRow.round == current)
                .values(round=current + 1, status=status)
            )
            return bool(done.rowcount)  # type: ignore[attr-defined]

    def add_game(
        self,
        tournament_id: str,
        round_: int,
        seats: list[str],
        game_id: str | None,
        bracket: str | None = None,
    ) -> None:
        with self.sessions.begin() as session:
            session.add(
                TournamentGameRow(
                    tournament_id=tournament_id,
                    round=round_,
                    game_id=game_id,
                    seats=seats,
                    places=[1] if game_id is None else None,
                    left=[],
                    bye=game_id is None,
                    bracket=bracket,
                )
            )

    def finish(self, tournament_id: str, status: str, now: dt.datetime) -> None:
        with self.sessions.begin() as session:
            session.execute(
                update(TournamentRow)
                .where(TournamentRow.id == tournament_id)
                .values(status=status, finished_at=now)
            )

    def record_results(self) -> list[str]:
        """Write the places of every tournament game whose game is over; the tournaments
        that got a result."""
        touched: set[str] = set()
        with self.sessions() as session:
            pending = session.execute(
                select(
                    TournamentGameRow.id,
                    TournamentGameRow.tournament_id,
                    GameRow.result,
                    GameRow.status,
                )
                .join(GameRow, GameRow.id == TournamentGameRow.game_id)
                .where(TournamentGameRow.places.is_(None), GameRow.status != "running")
            ).all()
        for game_row_id, tournament_id, result, status in pending:
            ranks = list((result or {}).get("ranks") or [])
            left = list((result or {}).get("left") or [])
            if status != "finished" or not ranks:  # ended without a result (expired)
                ranks = [1] * len(left or [0])
            last = max(ranks, default=1) + 1
            places = [last if seat in left else rank for seat, rank in enumerate(ranks)]
            with self.sessions.begin() as session:
                done = session.execute(
                    update(TournamentGameRow)
                    .where(TournamentGameRow.id == game_row_id, TournamentGameRow.places.is_(None))
                    .values(places=places, left=left)
                )
                if done.rowcount:  # type: ignore[attr-defined]
                    touched.add(str(tournament_id))
        return sorted(touched)

    def due(self, now: dt.datetime) -> list[str]:
        """Open tournaments whose start has come."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(TournamentRow.id).where(
                        TournamentRow.status == "open",
                        TournamentRow.starts_at.is_not(None),
                        TournamentRow.starts_at <= now,
                    )
                )
            )

    def running(self) -> list[str]:
        with self.sessions() as session:
            return list(
                session.scalars(select(TournamentRow.id).where(TournamentRow.status == "running"))
            )

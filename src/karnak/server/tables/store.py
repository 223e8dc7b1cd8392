"""Reading and writing open tables (synchronous; the service runs it in the database thread).

The service decides what a table becomes (a seat taken, a reservation, the start) and hands
the whole table back here to be written; each call is one short transaction.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, delete, func, or_, select
from sqlalchemy.orm import selectinload, sessionmaker

from karnak.server.accounts.tables import AccountRow
from karnak.server.db import GameRow, SeatRow, utcnow
from karnak.server.notifications.tables import NotificationRow
from karnak.server.tables.tables import TableRow, TableSeatRow

OPEN, STARTED = "open", "started"
#: The stored statuses of a game that is over: played to the end, expired or aborted.
ENDED = ("finished", "expired", "aborted")
#: What sits at a table's seat.
SEAT_OPEN, SEAT_ACCOUNT, SEAT_GUEST, SEAT_BOT = "open", "account", "guest", "bot"


def aware(moment: dt.datetime) -> dt.datetime:
    """SQLite gives naive times back; every stored time is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class TableSeat:
    seat: int
    kind: str = SEAT_OPEN
    name: str | None = None
    bot: str | None = None
    #: The account sitting here (SEAT_ACCOUNT).
    account: int | None = None
    #: The account an open seat is reserved for, and its name (read from the accounts).
    invited: int | None = None
    invited_name: str | None = None
    #: A guest's ticket hash and the hash of the guest's address.
    ticket_hash: str | None = None
    client: str | None = None

    @property
    def is_open(self) -> bool:
        return self.kind == SEAT_OPEN


@dataclass(frozen=True)
class Table:
    id: str
    game: str
    options: dict[str, Any]
    turn_timer: float | None
    seats: list[TableSeat]
    #: The time bank the game will have: {"per_move": s, "bank": s}, or None.
    time_control: dict[str, float] | None = None
    status: str = OPEN
    creator_account: int | None = None
    creator_ticket_hash: str | None = None
    creator_client: str | None = None
    rematch_of: str | None = None
    game_id: str | None = None
    created_at: dt.datetime = field(default_factory=utcnow)
    started_at: dt.datetime | None = None


@dataclass(frozen=True)
class MyGame:
    """One game an account holds a seat in, as the database has it."""

    id: str
    game: str
    seat: int
    status: str
    players: list[str]
    public_updated_at: dt.datetime
    finished_at: dt.datetime | None
    result: dict[str, Any] | None
    #: When the game started (the /me page tells games apart by it).
    created_at: dt.datetime | None = None


def _seat_row(seat: TableSeat) -> TableSeatRow:
    row = TableSeatRow(seat=seat.seat)
    _fill(row, seat)
    return row


def _fill(row: TableSeatRow, seat: TableSeat) -> None:
    row.kind = seat.kind
    row.name = seat.name
    row.bot = seat.bot
    row.account_id = seat.account
    row.invited_account_id = seat.invited
    row.ticket_hash = seat.ticket_hash
    row.client = seat.client
    if seat.kind != SEAT_OPEN and row.joined_at is None:
        row.joined_at = utcnow()
    elif seat.kind == SEAT_OPEN:
        row.joined_at = None


class TableStore:
    def __init__(self, engine: Engine):
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    # ------------------------------------------------------------------ writing
    def insert(self, table: Table) -> None:
        with self.sessions.begin() as session:
            session.add(
                TableRow(
                    id=table.id,
                    game=table.game,
                    options=table.options,
                    turn_timer=table.turn_timer,
                    time_per_move=table.time_control["per_move"] if table.time_control else None,
                    time_bank=table.time_control["bank"] if table.time_control else None,
                    status=table.status,
                    creator_account_id=table.creator_account,
                    creator_ticket_hash=table.creator_ticket_hash,
                    creator_client=table.creator_client,
                    rematch_of=table.rematch_of,
                    game_id=table.game_id,
                    created_at=table.created_at,
                    started_at=table.started_at,
                    seats=[_seat_row(seat) for seat in table.seats],
                )
            )

    def save(self, table: Table) -> None:
        """Write the table's seats, status and game (its other facts never change)."""
        with self.sessions.begin() as session:
            row = session.get(TableRow, table.id, options=[selectinload(TableRow.seats)])
            if row is None:
                raise LookupError(f"table {table.id} vanished from the database")
            row.status = table.status
            row.game_id = table.game_id
            row.started_at = table.started_at
            by_seat = {r.seat: r for r in row.seats}
            for seat in table.seats:
                _fill(by_seat[seat.seat], seat)

    def delete(self, table_id: str) -> None:
        with self.sessions.begin() as session:
            session.execute(delete(TableSeatRow).where(TableSeatRow.table_id == table_id))
            session.execute(delete(TableRow).where(TableRow.id == table_id))

    def expire(self, before: dt.datetime) -> int:
        """Delete the open tables created before ``before``; how many there were."""
        with self.sessions.begin() as session:
            old = select(TableRow.id).where(TableRow.status == OPEN, TableRow.created_at < before)
            ids = list(session.scalars(old))
            if ids:
                session.execute(delete(TableSeatRow).where(TableSeatRow.table_id.in_(ids)))
                session.execute(delete(TableRow).where(TableRow.id.in_(ids)))
            return len(ids)

    # ------------------------------------------------------------------ reading
    def load(self, table_id: str) -> Table | None:
        with self.sessions() as session:
            row = session.get(TableRow, table_id, options=[selectinload(TableRow.seats)])
            return None if row is None else self._tables(session, [row])[0]

    def by_rematch(self, game_id: str) -> Table | None:
        with self.sessions() as session:
            row = session.scalars(
                select(TableRow)
                .where(TableRow.rematch_of == game_id)
                .options(selectinload(TableRow.seats))
            ).first()
            return None if row is None else self._tables(session, [row])[0]

    def open_tables(self, limit: int) -> list[Table]:
        """The open tables, newest first."""
        with self.sessions() as session:
            rows = session.scalars(
                select(TableRow)
                .where(TableRow.status == OPEN)
                .options(selectinload(TableRow.seats))
                .order_by(TableRow.created_at.desc(), TableRow.id)
                .limit(limit)
            ).all()
            return self._tables(session, list(rows))

    def invitations_sent(self, table_id: str) -> int:
        """The invitations a table has sent (each is an account's notification linking to
        the table): counted in the database, so every server process counts them all."""
        with self.sessions() as session:
            return int(
                session.scalar(
                    select(func.count())
                    .select_from(NotificationRow)
                    .where(
                        NotificationRow.kind == "invitation",
                        NotificationRow.link == f"/tables/{table_id}",
                    )
                )
                or 0
            )

    def open_count(self) -> int:
        with self.sessions() as session:
            count = session.scalar(
                select(func.count()).select_from(TableRow).where(TableRow.status == OPEN)
            )
            return int(count or 0)

    def held(self, account: int | None, client: str | None) -> int:
        """The open tables an account (else a guest's address) created or sits at."""
        with self.sessions() as session:
            if account is not None:
                mine = or_(
                    TableRow.creator_account_id == account,
                    TableRow.id.in_(
                        select(TableSeatRow.table_id).where(TableSeatRow.account_id == account)
                    ),
                )
            else:
                mine = or_(
                    (TableRow.creator_client == client) & TableRow.creator_account_id.is_(None),
                    TableRow.id.in_(
                        select(TableSeatRow.table_id).where(TableSeatRow.client == client)
                    ),
                )
            count = session.scalar(
                select(func.count()).select_from(TableRow).where(TableRow.status == OPEN, mine)
            )
            return int(count or 0)

    def tables_of(self, account: int, limit: int) -> list[Table]:
        """The open tables an account created, sits at or is invited to, newest first."""
        with self.sessions() as session:
            involved = select(TableSeatRow.table_id).where(
                or_(
                    TableSeatRow.account_id == account,
                    TableSeatRow.invited_account_id == account,
                )
            )
            rows = session.scalars(
                select(TableRow)
                .where(
                    TableRow.status == OPEN,
                    or_(TableRow.creator_account_id == account, TableRow.id.in_(involved)),
                )
                .options(selectinload(TableRow.seats))
                .order_by(TableRow.created_at.desc(), TableRow.id)
                .limit(limit)
            ).all()
            return self._tables(session, list(rows))

    def games_of(self, account: int, status: str, limit: int) -> list[MyGame]:
        """The games (running or finished) where ``account`` holds a seat: the running ones
        by their last public change, the finished ones by their end, newest first. A game
        that ended unfinished (expired for idleness, aborted by an administrator) is listed
        with the finished ones."""
        order = GameRow.public_updated_at if status == "running" else GameRow.finished_at
        statuses = (status,) if status == "running" else ENDED
        with self.sessions() as session:
            rows = session.execute(
                select(GameRow, SeatRow.seat)
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.account_id == account, GameRow.status.in_(statuses))
                .options(selectinload(GameRow.seats))
                .order_by(order.desc(), GameRow.id)
                .limit(limit)
            ).all()
            return [
                MyGame(
                    id=game.id,
                    game=game.game,
                    seat=seat,
                    status=game.status,
                    players=[s.name for s in sorted(game.seats, key=lambda s: s.seat)],
                    public_updated_at=aware(game.public_updated_at),
                    finished_at=aware(game.finished_at) if game.finished_at else None,
                    result=game.result,
                    created_at=aware(game.created_at) if game.created_at else None,
                )
                for game, seat in rows
            ]

    @staticmethod
    def _tables(session: Any, rows: list[TableRow]) -> list[Table]:
        invited = {s.invited_account_id for row in rows for s in row.seats} - {None}
        names: dict[int, str] = {}
        if invited:
            names = dict(
                session.execute(
                    select(AccountRow.id, AccountRow.name).where(AccountRow.id.in_(invited))
                ).all()
            )
        return [
            Table(
                id=row.id,
                game=row.game,
                options=dict(row.options),
                turn_timer=row.turn_timer,
                time_control=(
                    {"per_move": row.time_per_move, "bank": row.time_bank}
                    if row.time_per_move is not None and row.time_bank is not None
                    else None
                ),
                status=row.status,
                creator_account=row.creator_account_id,
                creator_ticket_hash=row.creator_ticket_hash,
                creator_client=row.creator_client,
                rematch_of=row.rematch_of,
                game_id=row.game_id,
                created_at=aware(row.created_at),
                started_at=aware(row.started_at) if row.started_at else None,
                seats=[
                    TableSeat(
                        seat=s.seat,
                        kind=s.kind,
                        name=s.name,
                        bot=s.bot,
                        account=s.account_id,
                        invited=s.invited_account_id,
                        invited_name=names.get(s.invited_account_id)
                        if s.invited_account_id is not None
                        else None,
                        ticket_hash=s.ticket_hash,
                        client=s.client,
                    )
                    for s in sorted(row.seats, key=lambda s: s.seat)
                ],
            )
            for row in rows
        ]

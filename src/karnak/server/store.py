"""Reading and writing games: the only module that talks to the database.

Calls are synchronous and short (one transaction each); the service runs them in a worker
thread so the event loop never waits on the disk.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, bindparam, delete, exists, func, insert, or_, select, update
from sqlalchemy.orm import Session, selectinload, sessionmaker

from karnak.core.errors import KarnakError
from karnak.core.registry import get_game
from karnak.server import rooms as room_module
from karnak.server.capacity import CapacityError as CapacityError
from karnak.server.capacity import Quota, check_share, counted_games
from karnak.server.cluster.tables import LeaseRow
from karnak.server.conflicts import LeaseLostError, StaleWriteError
from karnak.server.db import ActionRow, GameRow, SeatRow, utcnow
from karnak.server.rooms import Accepted, Ending, Room, SeatInfo
from karnak.server.timebank.store import (
    departure_of,
    game_columns,
    restore,
    seat_columns,
    write_clocks,
)

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine

    from karnak.core.state import State
    from karnak.server.timebank.clock import SeatClock


class UnknownGameError(KarnakError, LookupError):
    pass


class StoredGameError(KarnakError):
    """A stored game that cannot be rebuilt (its rules version, its game or an action)."""

    def __init__(self, game_id: str, reason: str, *, running: bool):
        super().__init__(f"game {game_id} is unavailable: {reason}")
        self.game_id = game_id
        self.reason = reason
        self.running = running


@dataclass(frozen=True)
class GameSummary:
    """A line of the lobby's list: public facts only (``version`` is the spectators' version,
    and the list is ordered by the last public change: a seat's private steps move neither).
    """

    id: str
    game: str
    title: str
    players: list[dict[str, Any]]
    status: str
    version: int
    created_at: str
    finished_at: str | None
    winners: list[int] | None


def result_of(state: State, left: Sequence[int] = ()) -> dict[str, Any] | None:
    """The final result stored with a finished game (None while it runs). ``left``: the
    seats whose person left or ran out of time, a bot finishing for them (how they count:
    karnak.server.timebank.abandonment)."""
    if not state.is_over():
        return None
    return {
        "scores": state.scores(),
        "ranks": state.ranks(),
        "winners": state.winners(),
        "left": sorted(left),
    }


_actions, _games = cast(Table, ActionRow.__table__), cast(Table, GameRow.__table__)
_seats, _leases = cast(Table, SeatRow.__table__), cast(Table, LeaseRow.__table__)
INSERT_ACTION = insert(_actions)
# Bound names differ from the column names, as SQLAlchemy requires in an UPDATE. Every
# write is a compare-and-set: it changes the game only at the version the writer holds.
UPDATE_VERSION = (
    update(_games)
    .where(_games.c.id == bindparam("p_id"), _games.c.version == bindparam("p_expected"))
    .values(version=bindparam("p_version"), updated_at=bindparam("p_updated_at"))
)
#: A bot's or a timer's write also needs the game's lease, held by the writing process.
LEASE_HELD = exists().where(
    _leases.c.name == bindparam("p_lease"),
    _leases.c.holder == bindparam("p_holder"),
    _leases.c.expires_at >= bindparam("p_now"),
)
UPDATE_PUBLIC = UPDATE_VERSION.values(
    public_version=bindparam("p_public_version"), public_updated_at=bindparam("p_updated_at")
)
UPDATE_FINISHED = UPDATE_PUBLIC.values(
    status=bindparam("p_status"),
    finished_at=bindparam("p_finished_at"),
    result=bindparam("p_result"),
)


@dataclass(frozen=True)
class WriteGuard:
    """What a write checks besides the game's version: the step's start to store (when the
    change begins a new step) and the lease a bot's or timer's move needs."""

    step_started_at: float | None = None
    #: ``(lease name, holder)``: the write happens only while the holder holds the lease.
    lease: tuple[str, str] | None = None
    now: float = 0.0


def guarded(statement: Any, values: dict[str, Any], guard: WriteGuard | None) -> Any:
    """``statement`` with the guard's step start and lease condition."""
    if guard is None:
        return statement
    if guard.step_started_at is not None:
        statement = statement.values(step_started_at=bindparam("p_step_started_at"))
        values["p_step_started_at"] = guard.step_started_at
    if guard.lease is not None:
        statement = statement.where(LEASE_HELD)
        values.update(p_lease=guard.lease[0], p_holder=guard.lease[1], p_now=guard.now)
    return statement


#: The advisory lock (PostgreSQL) every process's game creation takes to count the running
#: games and add one in turn.
CREATE_LOCK = 0x4B41524E  # "KARN"


def _lock_creations(session: Session) -> None:
    """Take the lock every creation holds while it counts the running games and adds one,
    before the first read: PostgreSQL's advisory lock (until the transaction ends), and
    SQLite's write lock (without it the count runs outside any transaction, and two
    connections could both count one place left and both take it)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(CREATE_LOCK)))
    elif session.get_bind().dialect.name == "sqlite":
        session.connection().exec_driver_sql("BEGIN IMMEDIATE")


def seat_infos(row: GameRow) -> list[SeatInfo]:
    """A stored game's seats, in order."""
    return [
        SeatInfo(s.seat, s.name, s.kind, s.bot, s.token_hash, s.account_id, departure_of(s))
        for s in sorted(row.seats, key=lambda s: s.seat)
    ]


def read_one_moment(session: Session) -> None:
    """Make every read of ``session``'s transaction see the database at one moment.

    A game is read in several queries (its row, its seats, its actions). Under PostgreSQL's
    default READ COMMITTED, and under SQLite when each SELECT runs outside a transaction, a
    move or a departure committed between two of them would pair the row of one moment with
    the seats or actions of the next, and an intact game would read as broken ("stored at
    version 1 but its actions replay to version 2"). PostgreSQL's REPEATABLE READ and an
    explicit SQLite transaction each give one snapshot. Call it before the first query.
    """
    if session.get_bind().dialect.name == "sqlite":
        session.connection().exec_driver_sql("BEGIN")
    else:
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def _stale_public_version(row: GameRow, room: Room) -> tuple[str, int, int] | None:
    """``(game, version, public version)`` when the row lacks the room's exact public
    version (a game stored before public versions existed), else None."""
    public = room.version_for(None)
    return None if row.public_version == public else (row.id, row.version, public)


def unsealed() -> Any:
    """The games anyone may look at now: not sealed, or sealed until a time gone by (a game
    of the day, once its day is over; ``Room.sealed_until``)."""
    return or_(GameRow.sealed_until.is_(None), GameRow.sealed_until <= room_module.seal_clock())


class GameStore:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: How many threads should use the database at once: SQLite takes one writer at a
        #: time, a database server several.
        self.connections = 1 if engine.dialect.name == "sqlite" else 4

    # ------------------------------------------------------------------ writing
    def create(
        self,
        room: Room,
        max_running: int | None = None,
        lease: tuple[str, str, float] | None = None,
        quota: Quota | None = None,
    ) -> None:
        """Store a new game; CapacityError if ``max_running`` games run already, and with a
        ``quota`` (karnak.server.capacity) counting only the recently active ones,
        ShareError if its creator holds its share of them. Counted in the same transaction,
        under a lock that every creation takes before its first read, so several creations
        (threads or processes) never start more games between them than one would.
        ``lease``: the game's lease ``(name, holder, expires at)``, stored with it
        (karnak.server.cluster.leases)."""
        creator = quota.creator if quota is not None else None
        with self.sessions.begin() as session:
            if max_running is not None:
                _lock_creations(session)
                since = quota.since if quota is not None else None
                running = counted_games(session, since)
                if running >= max_running:
                    raise CapacityError(running)
                if quota is not None:
                    check_share(session, quota)
            if lease is not None:
                name, holder, until = lease
                session.add(LeaseRow(name=name, holder=holder, expires_at=until))
            session.add(
                GameRow(
                    id=room.id,
                    game=room.game.name,
                    rules_version=room.game.version,
                    options=room.state.options,
                    seed=room.seed,
                    version=room.version,
                    status="running",
                    turn_timer=room.turn_timer,
                    step_started_at=room.step_started_at,
                    creator_client=creator.client if creator is not None else None,
                    creator_account_id=creator.account if creator is not None else None,
                    sealed_until=room.sealed_until,
                    **game_columns(room),
                    seats=[
                        SeatRow(
                            seat=info.seat,
                            name=info.name,
                            kind=info.kind,
                            bot=info.bot,
                            token_hash=info.token_hash,
                            account_id=info.account,
                            **seat_columns(room, info.seat),
                        )
                        for info in room.seats
                    ],
                )
            )

    def append(
        self,
        room: Room,
        entry: Accepted,
        result: dict[str, Any] | None,
        public_version: int | None = None,
        clocks: Mapping[int, SeatClock] | None = None,
        guard: WriteGuard | None = None,
    ) -> None:
        """Store one accepted action and the game's new version, in one transaction (with
        the seats' clocks the move stops and starts, if any), if the game is still at the
        room's version: StaleWriteError if another process changed it first, LeaseLostError
        for a guarded move whose lease is gone.

        ``public_version`` is the spectators' version after the move, for a move everyone
        sees; None for a private step, which leaves the public columns alone (see
        ``GameRow.public_version``). Written with two prepared Core statements rather than
        through the ORM: this is the one write on every move, and the ORM's bookkeeping
        would cost several times more.
        """
        now = utcnow()
        action = {
            "game_id": room.id,
            "number": entry.number,
            "seat": entry.seat,
            "text": entry.text,
            "version": entry.version,
            "by_timeout": entry.by_timeout,
        }
        game: dict[str, Any] = {
            "p_id": room.id,
            "p_expected": room.version,
            "p_version": entry.version,
            "p_updated_at": now,
        }
        statement = UPDATE_VERSION
        if public_version is not None:
            game["p_public_version"] = public_version
            statement = UPDATE_PUBLIC
        if result is not None:
            assert public_version is not None, "the end of a game is public"
            game.update(p_status="finished", p_finished_at=now, p_result=result)
            statement = UPDATE_FINISHED
        statement = guarded(statement, game, guard)
        with self.engine.begin() as connection:
            # the game row first: under PostgreSQL it is locked until the commit, so a
            # second writer waits, then finds the version changed and writes nothing
            if connection.execute(statement, game).rowcount != 1:
                raise self._refusal(connection, room, guard)
            connection.execute(INSERT_ACTION, action)
            write_clocks(connection, room.id, clocks or {})

    @staticmethod
    def _refusal(connection: Connection, room: Room, guard: WriteGuard | None) -> KarnakError:
        """Why a compare-and-set changed nothing: the game is gone, it moved on, or (same
        version) the guard's lease is no longer held."""
        stored = connection.scalar(select(_games.c.version).where(_games.c.id == room.id))
        if stored is None:
            return UnknownGameError(f"game {room.id} vanished from the database")
        if stored == room.version and guard is not None and guard.lease is not None:
            return LeaseLostError(f"this process no longer holds the lease of game {room.id}")
        return StaleWriteError(f"game {room.id} is at version {stored}, not {room.version}")

    def remove_last(
        self,
        room: Room,
        entry: Accepted,
        version: int,
        public_version: int,
        clocks: Mapping[int, SeatClock] | None = None,
        guard: WriteGuard | None = None,
    ) -> None:
        """Delete the undone action ``entry`` and store the game's new versions (an undo is
        seen by everyone), with the seats' clocks it stops and starts.

        Only that exact move is deleted (its game, number, version, seat and text), and only
        while the game is at the room's version, so while it is still the last move:
        StaleWriteError if another process changed the game first.
        """
        now = utcnow()
        values: dict[str, Any] = {
            "p_id": room.id,
            "p_expected": room.version,
            "p_version": version,
            "p_updated_at": now,
            "p_public_version": public_version,
        }
        statement = guarded(UPDATE_PUBLIC, values, guard)
        with self.engine.begin() as connection:
            if connection.execute(statement, values).rowcount != 1:
                raise self._refusal(connection, room, guard)
            deleted = connection.execute(
                delete(_actions).where(
                    _actions.c.game_id == room.id,
                    _actions.c.number == entry.number,
                    _actions.c.version == entry.version,
                    _actions.c.seat == entry.seat,
                    _actions.c.text == entry.text,
                )
            ).rowcount
            later = connection.scalar(
                select(func.count())
                .select_from(_actions)
                .where(_actions.c.game_id == room.id, _actions.c.number > entry.number)
            )
            if deleted != 1 or later:  # rolled back with the version
                raise StaleWriteError(f"the last move of game {room.id} is not the one undone")
            write_clocks(connection, room.id, clocks or {})

    def claim_seat(self, game_id: str, seat: int, account_id: int) -> None:
        """Bind a seat to an account (the service has checked that it may, against its copy
        of the game). Decided here again, with the game's row locked, so two processes
        cannot both give a seat away or give one account two seats: StaleWriteError if the
        seat is no longer a free guest's seat, the account holds another seat, or the game
        has finished (its seats are its record now)."""
        with self.sessions.begin() as session:
            status = session.scalar(
                select(GameRow.status).where(GameRow.id == game_id).with_for_update()
            )
            if status is None:
                raise UnknownGameError(f"game {game_id} vanished from the database")
            if status != "running":
                raise StaleWriteError(f"game {game_id} is over: its seats cannot be claimed")
            rows = session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
            row = next((r for r in rows if r.seat == seat), None)
            if row is None or row.kind != "human" or row.account_id is not None:
                raise StaleWriteError(f"seat {seat} of game {game_id} is not free to claim")
            if any(r.account_id == account_id and r.departure is None for r in rows):
                raise StaleWriteError(f"the account holds another seat of game {game_id}")
            row.account_id = account_id

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str) -> Room:
        """The game rebuilt from its actions; UnknownGameError if there is none,
        StoredGameError (with the reason) if it cannot be rebuilt."""
        with self.sessions() as session:
            read_one_moment(session)
            row = session.get(GameRow, game_id, options=[selectinload(GameRow.seats)])
            if row is None:
                raise UnknownGameError(f"there is no game {game_id!r}")
            room = self._rebuilt(session, row)
            stale = _stale_public_version(row, room)
        self._put_public_versions_right([stale] if stale else [])
        return room

    def changes_since(self, game_id: str, known: int) -> tuple[GameRow, list[ActionRow]]:
        """The game's row (with its seats) and its actions from number ``known - 1`` on (the
        last one a process knows, to check it is still there, and the ones after it): what
        a process needs to bring its copy of the game up to the database."""
        with self.sessions() as session:
            read_one_moment(session)
            row = session.get(GameRow, game_id, options=[selectinload(GameRow.seats)])
            if row is None:
                raise UnknownGameError(f"there is no game {game_id!r}")
            actions = session.scalars(
                select(ActionRow)
                .where(ActionRow.game_id == game_id, ActionRow.number >= known - 1)
                .order_by(ActionRow.number)
            ).all()
            return row, list(actions)

    def running_ids(self) -> list[str]:
        """The running games, the most recently active first (the order they load in)."""
        with self.sessions() as session:
            return list(
                session.scalars(
                    select(GameRow.id)
                    .where(GameRow.status == "running")
                    .order_by(GameRow.public_updated_at.desc(), GameRow.id)
                )
            )

    def load_many(self, game_ids: Sequence[str]) -> tuple[list[Room], dict[str, str]]:
        """The games of ``game_ids`` that can be rebuilt, and why the others cannot.

        One bad game (a rules version this engine does not play, an unknown game, an action
        that no longer reads or applies) never stops the others from loading.
        """
        rooms: list[Room] = []
        failed: dict[str, str] = {}
        stale: list[tuple[str, int, int]] = []
        with self.sessions() as session:
            read_one_moment(session)
            rows = session.scalars(
                select(GameRow)
                .where(GameRow.id.in_(list(game_ids)))
                .options(selectinload(GameRow.seats))
            ).all()
            for row in rows:
                try:
                    room = self._rebuilt(session, row)
                except StoredGameError as exc:
                    failed[row.id] = exc.reason
                    continue
                rooms.append(room)
                fix = _stale_public_version(row, room)
                if fix:
                    stale.append(fix)
        self._put_public_versions_right(stale)
        return rooms, failed

    def _put_public_versions_right(self, stale: Sequence[tuple[str, int, int]]) -> None:
        """Write back the exact public version of games stored before public versions
        existed: ``(game, version read, public version)``. Its own short transaction, after
        the reads, and only where the game has not changed since it was read."""
        if not stale:
            return
        with self.engine.begin() as connection:
            for game_id, version, public in stale:
                connection.execute(
                    update(_games)
                    .where(_games.c.id == game_id, _games.c.version == version)
                    .values(public_version=public)
                )

    def _rebuilt(self, session: Session, row: GameRow) -> Room:
        """``_room``, with any failure told as a StoredGameError naming the game and why."""
        try:
            return self._room(session, row)
        except Exception as exc:  # any broken row is reported as such, never raised as is
            reason = str(exc) if isinstance(exc, KarnakError) else f"{type(exc).__name__}: {exc}"
            raise StoredGameError(row.id, reason, running=row.status == "running") from exc

    def summaries(self, limit: int = 100) -> list[GameSummary]:
        with self.sessions() as session:
            rows = session.scalars(
                select(GameRow)
                .options(selectinload(GameRow.seats))
                # a sealed game (a game of the day's) is nobody's business but its seat's
                .where(unsealed())
                .order_by(GameRow.public_updated_at.desc(), GameRow.id)
                .limit(limit)
            ).all()
            summaries = []
            for row in rows:
                try:
                    title = get_game(row.game).title
                except KarnakError:
                    title = row.game
                summaries.append(
                    GameSummary(
                        id=row.id,
                        game=row.game,
                        title=title,
                        players=[
                            {"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot}
                            for s in row.seats
                        ],
                        status=row.status,
                        version=row.public_version,
                        created_at=row.created_at.isoformat(),
                        finished_at=row.finished_at.isoformat() if row.finished_at else None,
                        winners=(row.result or {}).get("winners"),
                    )
                )
            return summaries

    @staticmethod
    def _room(session: Session, row: GameRow) -> Room:
        """Rebuild a room by replaying its stored actions through the checked path."""
        # A game finishes under the rules it began with (the engine keeps old versions).
        game = get_game(row.game).at_version(row.rules_version)
        seats = seat_infos(row)
        state = game.new_state([s.name for s in seats], seed=row.seed, options=row.options)
        room = Room(row.id, game, state, seats, row.seed, row.turn_timer)
        actions = session.scalars(
            select(ActionRow).where(ActionRow.game_id == row.id).order_by(ActionRow.number)
        ).all()
        for action in actions:
            room.accept(
                action.seat,
                game.parse_action(action.text),
                by_timeout=action.by_timeout,
                version=action.version,
            )
        if row.version > room.version:  # an undo (or a departure) was the last change
            room.bump(row.version)
        restore(room, row)  # the time control and the seats' clocks
        room.step_started_at = row.step_started_at
        room.ended = Ending.stored(row.status, row.result)  # an idle game expired
        room.sealed_until = row.sealed_until
        if room.version != row.version:
            raise KarnakError(
                f"game {row.id} is stored at version {row.version} but its actions "
                f"replay to version {room.version}"
            )
        return room

"""Tables, the database engine, and migrations applied at start.

Three tables: ``games`` (one row per game with its version counters), ``seats`` (who plays
each seat and the hash of its secret token) and ``actions`` (every accepted action, in
order). A game's state is never stored: it is the replay of its actions, which the engine
guarantees to be exact. SQLite is the default; any SQLAlchemy URL works (PostgreSQL with
``postgresql+psycopg://...``).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any, NamedTuple

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    UniqueConstraint,
    create_engine,
    event,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

MIGRATIONS = Path(__file__).with_name("migrations")
#: How SQLite commits (see make_engine). The load benchmark changes it to measure the cost.
SQLITE_SYNCHRONOUS = "FULL"


class DatabaseProblem(Exception):
    """The database cannot be used (unreachable, not a database, damaged); the message names
    it and the problem in one line."""


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Base(DeclarativeBase):
    type_annotation_map = {dict[str, Any]: JSON, dt.datetime: DateTime(timezone=True)}


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    rules_version: Mapped[str] = mapped_column(String(16))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    #: Every accepted action increments it; clients submit with the version they saw.
    version: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="running", index=True)
    turn_timer: Mapped[float | None] = mapped_column(Float, nullable=True)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow)
    #: The version a spectator knows and the time of the last change everyone saw: the
    #: public list shows these, never ``version`` or ``updated_at``, which also move with a
    #: seat's private steps.
    public_version: Mapped[int] = mapped_column(Integer, default=0)
    public_updated_at: Mapped[dt.datetime] = mapped_column(default=utcnow, index=True)
    finished_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: The time control (seconds; karnak.server.timebank, migration 0006_time), if any.
    time_per_move: Mapped[float | None] = mapped_column(Float, nullable=True)
    time_bank: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: When the current decision step began (seconds since the epoch; migration
    #: 0011_cluster): every process computes the same turn-timer deadline from it.
    step_started_at: Mapped[float | None] = mapped_column(Float, nullable=True)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game_row", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    #: "human" or "bot"
    kind: Mapped[str] = mapped_column(String(8))
    bot: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: SHA-256 of the seat's secret token; the token itself is shown once, at creation.
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    #: The account that holds the seat (its session opens the game without the link), if any.
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: The seat's clock (karnak.server.timebank.clock, migration 0006_time): its bank left
    #: (seconds), when its current wait began (seconds since the epoch; None: not to move)
    #: and the reminders sent (bits).
    bank_left: Mapped[float | None] = mapped_column(Float, nullable=True)
    waiting_since: Mapped[float | None] = mapped_column(Float, nullable=True)
    reminders: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: "left" or "timeout" once a bot took the seat over, with the moves and log events then.
    departure: Mapped[str | None] = mapped_column(String(8), nullable=True)
    departure_moves: Mapped[int | None] = mapped_column(Integer, nullable=True)
    departure_log: Mapped[int | None] = mapped_column(Integer, nullable=True)

    game_row: Mapped[GameRow] = relationship(back_populates="seats")


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    #: Position in the game's action list (0, 1, 2, ...).
    number: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    #: The game version this action produced.
    version: Mapped[int] = mapped_column(Integer)
    #: Played by the server for a human seat whose turn timer ran out.
    by_timeout: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[dt.datetime] = mapped_column(default=utcnow)


def make_engine(url: str) -> Engine:
    """An engine for ``url``; SQLite gets WAL journaling, durable commits and foreign keys.

    ``synchronous=FULL``: in WAL mode, NORMAL commits survive a killed process but not a
    power cut (the last transactions may be lost), and a move is acknowledged only after
    its commit, so every commit waits for the disk (cost: ``bench/server_load.py``).
    PostgreSQL commits durably by default (``synchronous_commit=on``).
    """
    sqlite = url.startswith("sqlite")
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False} if sqlite else {},
        pool_pre_ping=not sqlite,
    )
    if sqlite:

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            if ":memory:" not in url:
                cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={SQLITE_SYNCHRONOUS}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

    return engine


#: The PostgreSQL advisory lock that migrations run under (any fixed number; these are the
#: bytes of "karnakdb"), so that processes starting together migrate one after another.
MIGRATION_LOCK = int.from_bytes(b"karnakdb", "big")


class Migration(NamedTuple):
    """The schema's revisions before and after a migration (empty: no schema yet)."""

    before: tuple[str, ...]
    after: tuple[str, ...]


def migrate(engine: Engine) -> Migration:
    """Bring the database to the newest schema (Alembic ``upgrade heads``: every branch)."""
    return run_migrations(engine, "upgrade", "heads")


def run_migrations(engine: Engine, action: str, revision: str) -> Migration:
    """Alembic's ``upgrade`` or ``downgrade`` to ``revision`` on ``engine``.

    SQLite changes a table by copying it into a new one and dropping the old; with foreign
    keys on, dropping ``games`` would cascade and delete every seat and action. So foreign
    keys are off while SQLite migrates (outside the transaction, where the pragma applies)
    and checked when it is done.

    On PostgreSQL several server processes may start together on a new database; each would
    create the same tables and all but one would fail (a duplicate key). So the migration
    holds a session-level advisory lock (:data:`MIGRATION_LOCK`): the others wait for it,
    then read the revision again and find nothing left to do. (An SQLite file is served by
    one process, which karnak.server.cluster.instance_lock sees to.)
    """
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    sqlite = engine.dialect.name == "sqlite"
    postgresql = engine.dialect.name == "postgresql"
    with engine.connect() as connection:
        if postgresql:
            connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK})")
            connection.commit()
        try:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
                connection.commit()
            with connection.begin():
                # read under the lock: a process that waited sees what the first one did
                before = MigrationContext.configure(connection).get_current_heads()
                config.attributes["connection"] = connection
                getattr(command, action)(config, revision)
                after = MigrationContext.configure(connection).get_current_heads()
            if sqlite:
                broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()
                if broken:
                    raise DatabaseProblem(
                        f"the migration left {len(broken)} rows without their game"
                    )
        finally:
            if postgresql:
                _unlock_migrations(connection)
    return Migration(tuple(sorted(before)), tuple(sorted(after)))


def _unlock_migrations(connection: Connection) -> None:
    """Let the next process migrate. The lock belongs to the database session, which outlives
    this use of the connection (the pool keeps it), so it is given back explicitly; if that
    fails, the connection is dropped, and its session ends with the lock."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        if connection.in_transaction():
            connection.rollback()
        connection.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK})")
        connection.commit()
    except SQLAlchemyError:
        connection.invalidate()


def check_database(url: str, shown: str) -> Migration:
    """Open the database, bring it to the newest schema and, for SQLite, check its pages:
    a corrupt or truncated file is refused in one line naming it (``shown``) before the
    server starts, rather than failing somewhere in start-up with a traceback. Returns what
    the migration did (``karnak db upgrade`` says it)."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    engine = make_engine(url)
    try:
        if engine.dialect.name == "sqlite":
            with engine.connect() as connection:
                found = connection.execute(text("PRAGMA quick_check")).scalars().all()
            if found != ["ok"]:
                raise DatabaseProblem(f"{shown} is damaged: {'; '.join(found[:3])}")
        return migrate(engine)
    except SQLAlchemyError as exc:
        problem = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise DatabaseProblem(f"cannot use the database {shown}: {problem}") from None
    finally:
        engine.dispose()


# The tables of the modules built on these ones, so that the metadata knows every table a
# foreign key names (each module keeps its own tables in its own file).
import karnak.server.accounts.tables  # noqa: E402
import karnak.server.chat.tables  # noqa: E402
import karnak.server.cluster.tables  # noqa: E402
import karnak.server.friends.tables  # noqa: E402
import karnak.server.mail.tables  # noqa: E402
import karnak.server.notifications.tables  # noqa: E402
import karnak.server.ratings.tables  # noqa: E402
import karnak.server.tables.tables  # noqa: E402, F401

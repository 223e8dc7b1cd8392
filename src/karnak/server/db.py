"""Tables, the database engine, and migrations applied at start.

Three tables: ``games`` (one row per game with its version counters), ``seats`` (who plays
each seat and the hash of its secret token) and ``actions`` (every accepted action, in
order). A game's state is never stored: it is the replay of its actions, which the engine
guarantees to be exact. SQLite is the default; any SQLAlchemy URL works (PostgreSQL with
``postgresql+psycopg://...``).
"""

from __future__ import annotations

import datetime as dt
import functools
import logging
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

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
    func,
    select,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

if TYPE_CHECKING:
    from alembic.script import Script, ScriptDirectory

    from karnak.server.backup import BackupPolicy

MIGRATIONS = Path(__file__).with_name("migrations")
#: How SQLite commits (see make_engine). The load benchmark changes it to measure the cost.
SQLITE_SYNCHRONOUS = "FULL"


class DatabaseProblem(Exception):
    """The database cannot be used (unreachable, not a database, damaged); the message names
    it and the problem in one line."""


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def aware(moment: dt.datetime) -> dt.datetime:
    """``moment`` with its zone: SQLite gives stored times back naive, all of them UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


def exclusive(session: Session, key: int) -> None:
    """Make ``session``'s transaction the only one holding ``key`` until it ends:
    PostgreSQL's advisory lock on ``key``, SQLite's write lock (one writer at a time
    anyway; taken first, so the transaction's reads and its write agree)."""
    dialect = session.get_bind().dialect.name
    if dialect == "postgresql":
        session.execute(select(func.pg_advisory_xact_lock(key)))
    elif dialect == "sqlite":
        session.connection().exec_driver_sql("BEGIN IMMEDIATE")


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
    #: Who created it (migration 0015_capacity; None before, and for a table's game): the
    #: hash of the client's address and the account, for the per-client share of running
    #: games (karnak.server.capacity). No address is stored.
    creator_client: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    creator_account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    #: When the seats were warned that the game would expire for want of moves (migration
    #: 0016_recovery, karnak.server.expiry); a warning older than ``updated_at`` (someone
    #: moved since) no longer counts.
    idle_warned_at: Mapped[dt.datetime | None] = mapped_column(nullable=True)
    #: Until when the game shows nothing to anyone but its seats and keeps its record and
    #: replay closed (migration 0019_daily; a game of the day: until the day is over).
    sealed_until: Mapped[dt.datetime | None] = mapped_column(nullable=True)

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


class Step(NamedTuple):
    """One migration applied (or undone): its revision, description and time taken."""

    revision: str
    description: str
    seconds: float
    upgrade: bool = True

    def line(self) -> str:
        """``0012_tables_repair: Give open tables ... (0.03 s)``: the log line."""
        undone = "" if self.upgrade else "undone: "
        return f"{self.revision}: {undone}{self.description} ({self.seconds:.2f} s)"


class Migration(NamedTuple):
    """The schema's revisions before and after a migration (empty: no schema yet), each
    migration applied, and where the backup taken before it went (check_database)."""

    before: tuple[str, ...]
    after: tuple[str, ...]
    steps: tuple[Step, ...] = ()
    backup: Path | None = None


class SchemaState(NamedTuple):
    """Where a database's schema stands against this version of Karnak's migrations."""

    #: The revisions the database records (empty: no schema yet).
    current: tuple[str, ...]
    #: The newest revisions this code knows.
    heads: tuple[str, ...]
    #: The migrations an upgrade would apply, in order: (revision, description).
    pending: tuple[tuple[str, str], ...]
    #: Recorded revisions this code does not know: a newer release made the database.
    unknown: tuple[str, ...]


class DatabaseAhead(DatabaseProblem):
    """The database was made or upgraded by a newer release of Karnak than this one."""


#: One line per migration applied (``Step.line``) when nobody passes a report of their own.
MIGRATION_LOG = logging.getLogger("karnak.server.migrations")


@functools.cache
def migration_scripts() -> ScriptDirectory:
    """Alembic's view of the migrations in :data:`MIGRATIONS` (read once: each reading
    executes every migration file again, and the files do not change under a process)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return ScriptDirectory.from_config(config)


def describe(revision: Script) -> str:
    """A migration's description: the first paragraph of its docstring, on one line."""
    return " ".join((revision.doc or "").split())


def upgrade_order(scripts: ScriptDirectory) -> list[Script]:
    """Every migration, each after those it revises; among those free to go next, the
    lowest revision first (the numbered names then read in order across branches)."""
    import heapq

    every = {script.revision: script for script in scripts.walk_revisions()}
    below = {
        name: {down for down in _as_tuple(script.down_revision) if down in every}
        for name, script in every.items()
    }
    ready = [name for name, downs in below.items() if not downs]
    heapq.heapify(ready)
    order: list[Script] = []
    while ready:
        name = heapq.heappop(ready)
        order.append(every[name])
        for other, downs in below.items():
            if name in downs:
                downs.discard(name)
                if not downs:
                    heapq.heappush(ready, other)
    return order


def _as_tuple(revisions: str | tuple[str, ...] | list[str] | None) -> tuple[str, ...]:
    if revisions is None:
        return ()
    return (revisions,) if isinstance(revisions, str) else tuple(revisions)


def schema_state(connection: Connection) -> SchemaState:
    """Compare the revisions ``connection``'s database records with this code's."""
    from alembic.runtime.migration import MigrationContext

    scripts = migration_scripts()
    current = tuple(sorted(MigrationContext.configure(connection).get_current_heads()))
    every = upgrade_order(scripts)
    known = {script.revision for script in every}
    unknown = tuple(revision for revision in current if revision not in known)
    applied: set[str] = set()
    if current and not unknown:
        applied = {r.revision for r in scripts.revision_map.iterate_revisions(current, "base")}
    pending = tuple(
        (script.revision, describe(script))
        for script in every
        if script.revision not in applied and not unknown
    )
    return SchemaState(current, tuple(sorted(scripts.get_heads())), pending, unknown)


def ahead_message(shown: str, state: SchemaState) -> str:
    """The one line that refuses a database a newer release made."""
    return (
        f"{shown} is at revision {' + '.join(state.unknown)}, which this version of Karnak "
        f"does not know (its newest is {' + '.join(state.heads)}): a newer release upgraded "
        "it. Run that release, or restore the backup taken before its upgrade."
    )


def shown_url(engine: Engine) -> str:
    """The database of ``engine`` for a message, without its password."""
    url = engine.url
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return url.render_as_string(hide_password=True).split("@")[-1]


def migrate(engine: Engine, *, report: Callable[[str], None] | None = None) -> Migration:
    """Bring the database to the newest schema (Alembic ``upgrade heads``: every branch)."""
    return run_migrations(engine, "upgrade", "heads", report=report)


def run_migrations(
    engine: Engine, action: str, revision: str, *, report: Callable[[str], None] | None = None
) -> Migration:
    """Alembic's ``upgrade`` or ``downgrade`` to ``revision`` on ``engine``; each migration
    applied is one line (:meth:`Step.line`) given to ``report`` (default: logged at INFO on
    :data:`MIGRATION_LOG`).

    A database whose revision this code does not know (a newer release upgraded it) is
    refused with :class:`DatabaseAhead` before anything changes: Alembic would fail on it
    with a traceback, and serving a newer schema with older code is never safe.

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
    descriptions = {
        script.revision: describe(script) for script in migration_scripts().walk_revisions()
    }
    steps: list[Step] = []
    clock = [time.perf_counter()]

    def applied(*, step: Any, **_: Any) -> None:
        """Alembic's ``on_version_apply``: called once each migration has run."""
        now = time.perf_counter()
        name = step.up_revision_id or "?"
        done = Step(name, descriptions.get(name, ""), now - clock[0], bool(step.is_upgrade))
        clock[0] = now
        steps.append(done)
        (report or MIGRATION_LOG.info)(done.line())

    config.attributes["on_version_apply"] = applied
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
                state = schema_state(connection)
                if action == "upgrade" and state.unknown:
                    raise DatabaseAhead(ahead_message(shown_url(engine), state))
                before = state.current
                config.attributes["connection"] = connection
                clock[0] = time.perf_counter()
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
    return Migration(tuple(sorted(before)), tuple(sorted(after)), tuple(steps))


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


def open_database(url: str, shown: str) -> Engine:
    """An engine for ``url``, or one line saying why there cannot be one: an unknown kind of
    database, a driver that is not installed (``postgresql://`` asks for psycopg2; Karnak
    uses ``postgresql+psycopg://``), an SQLite file in a folder that does not exist."""
    from sqlalchemy.exc import NoSuchModuleError, SQLAlchemyError

    try:
        engine = make_engine(url)
    except NoSuchModuleError:
        kind = url.split("://", 1)[0]
        raise DatabaseProblem(
            f"cannot use the database {shown}: Karnak does not know databases of the kind "
            f"{kind!r}; write sqlite:///FILE or postgresql+psycopg://USER@HOST/DATABASE"
        ) from None
    except ImportError as missing:
        raise DatabaseProblem(
            f"cannot use the database {shown}: its driver ({missing.name}) is not installed; "
            "for PostgreSQL write the URL as postgresql+psycopg://USER@HOST/DATABASE"
        ) from None
    except (SQLAlchemyError, ValueError) as exc:
        problem = str(exc).splitlines()[0]
        raise DatabaseProblem(f"cannot use the database {shown}: {problem}") from None
    file = engine.url.database if engine.dialect.name == "sqlite" else None
    on_disk = file and file != ":memory:" and not file.startswith("file:")
    if on_disk and not Path(str(file)).parent.is_dir():
        engine.dispose()
        raise DatabaseProblem(f"cannot use the database {shown}: its folder does not exist")
    return engine


def read_schema_state(url: str, shown: str) -> SchemaState:
    """Where the database's schema stands (``karnak db status``), or DatabaseProblem."""
    from sqlalchemy.exc import SQLAlchemyError

    engine = open_database(url, shown)
    try:
        with engine.connect() as connection:
            return schema_state(connection)
    except SQLAlchemyError as exc:
        problem = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        raise DatabaseProblem(f"cannot use the database {shown}: {problem}") from None
    finally:
        engine.dispose()


def announce(line: str) -> None:
    """A line about the database at start: logged on :data:`MIGRATION_LOG` where logging is
    set up, else on standard error (``karnak serve`` checks the database before it sets up
    its log, and an upgrade must not go unsaid)."""
    if MIGRATION_LOG.hasHandlers():
        MIGRATION_LOG.info(line)
    else:
        print(f"karnak: {line}", file=sys.stderr)


def check_database(
    url: str,
    shown: str,
    *,
    backup: BackupPolicy | None = None,
    report: Callable[[str], None] = announce,
) -> Migration:
    """Open the database, bring it to the newest schema and, for SQLite, check its pages:
    a corrupt or truncated file is refused in one line naming it (``shown``) before the
    server starts, rather than failing somewhere in start-up with a traceback. Returns what
    the migration did (``karnak db upgrade`` says it).

    Before an SQLite database with a schema takes a pending migration, it is backed up
    (karnak.server.backup; ``backup`` says where and how many are kept), so that an upgrade
    that goes wrong can be undone by restoring the file. Each migration applied is one line
    to ``report``; a new database's schema is made without a line per migration. A database
    that a newer release upgraded is refused (:class:`DatabaseAhead`).
    """
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    from karnak.server.backup import BackupPolicy, BackupProblem, take_backup

    policy = backup or BackupPolicy()
    engine = open_database(url, shown)
    try:
        if engine.dialect.name == "sqlite":
            with engine.connect() as connection:
                found = connection.execute(text("PRAGMA quick_check")).scalars().all()
            if found != ["ok"]:
                raise DatabaseProblem(f"{shown} is damaged: {'; '.join(found[:3])}")
        with engine.connect() as connection:
            state = schema_state(connection)
        if state.unknown:
            raise DatabaseAhead(ahead_message(shown, state))
        saved = None
        file = engine.url.database if engine.dialect.name == "sqlite" else None
        if state.current and state.pending and file and policy.enabled:
            try:
                saved = take_backup(Path(file), "+".join(state.current), policy)
            except BackupProblem as exc:
                raise DatabaseProblem(f"{exc}; nothing was migrated") from None
            report(saved.describe())
        quiet = MIGRATION_LOG.debug
        migration = migrate(engine, report=report if state.current else quiet)
        return migration._replace(backup=saved.path if saved else None)
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
import karnak.server.crowds.tables  # noqa: E402
import karnak.server.daily.tables  # noqa: E402
import karnak.server.friends.tables  # noqa: E402
import karnak.server.mail.tables  # noqa: E402
import karnak.server.matchmaking.tables  # noqa: E402
import karnak.server.notifications.tables  # noqa: E402
import karnak.server.ratings.tables  # noqa: E402
import karnak.server.tables.tables  # noqa: E402
import karnak.server.tournaments.tables  # noqa: E402, F401

"""Reading and writing games: the only module that talks to the database.

Calls are synchronous and short (one transaction each); the service runs them in a worker
thread so the event loop never waits on the disk.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.orm import Session, selectinload, sessionmaker

from karnak.core.errors import KarnakError
from karnak.core.registry import get_game
from karnak.server.db import ActionRow, GameRow, SeatRow, utcnow
from karnak.server.rooms import Accepted, Room, SeatInfo

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from karnak.core.state import State


class UnknownGameError(KarnakError, LookupError):
    pass


@dataclass(frozen=True)
class GameSummary:
    """A line of the lobby's list: public facts only."""

    id: str
    game: str
    title: str
    players: list[dict[str, Any]]
    status: str
    version: int
    created_at: str
    finished_at: str | None
    winners: list[int] | None


def result_of(state: State) -> dict[str, Any] | None:
    """The final result stored with a finished game (None while it runs)."""
    if not state.is_over():
        return None
    return {"scores": state.scores(), "ranks": state.ranks(), "winners": state.winners()}


_actions, _games = cast(Table, ActionRow.__table__), cast(Table, GameRow.__table__)
INSERT_ACTION = insert(_actions)
# Bound names differ from the column names, as SQLAlchemy requires in an UPDATE.
UPDATE_VERSION = (
    update(_games)
    .where(_games.c.id == bindparam("p_id"))
    .values(version=bindparam("p_version"), updated_at=bindparam("p_updated_at"))
)
UPDATE_FINISHED = UPDATE_VERSION.values(
    status=bindparam("p_status"),
    finished_at=bindparam("p_finished_at"),
    result=bindparam("p_result"),
)


class GameStore:
    def __init__(self, engine: Engine):
        self.engine = engine
        self.sessions = sessionmaker(engine, expire_on_commit=False)
        #: How many threads should use the database at once: SQLite takes one writer at a
        #: time, a database server several.
        self.connections = 1 if engine.dialect.name == "sqlite" else 4

    # ------------------------------------------------------------------ writing
    def create(self, room: Room) -> None:
        with self.sessions.begin() as session:
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
                    seats=[
                        SeatRow(
                            seat=info.seat,
                            name=info.name,
                            kind=info.kind,
                            bot=info.bot,
                            token_hash=info.token_hash,
                        )
                        for info in room.seats
                    ],
                )
            )

    def append(self, room: Room, entry: Accepted, result: dict[str, Any] | None) -> None:
        """Store one accepted action and the game's new version, in one transaction.

        Written with two prepared Core statements rather than through the ORM: this is the
        one write on every move, and the ORM's bookkeeping would cost several times more.
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
        game = {"p_id": room.id, "p_version": entry.version, "p_updated_at": now}
        if result is not None:
            game.update(p_status="finished", p_finished_at=now, p_result=result)
        with self.engine.begin() as connection:
            connection.execute(INSERT_ACTION, action)
            ending = UPDATE_FINISHED if result is not None else UPDATE_VERSION
            if connection.execute(ending, game).rowcount != 1:
                raise UnknownGameError(f"game {room.id} vanished from the database")

    def remove_last(self, room: Room, entry: Accepted, version: int) -> None:
        """Delete the undone action ``entry`` and store the game's new version."""
        with self.sessions.begin() as session:
            row = self._stored(session, room.id)
            found = session.scalars(
                select(ActionRow).where(
                    ActionRow.game_id == room.id, ActionRow.number == entry.number
                )
            ).one()
            session.delete(found)
            row.version = version
            row.updated_at = utcnow()

    @staticmethod
    def _stored(session: Session, game_id: str) -> GameRow:
        row = session.get(GameRow, game_id)
        if row is None:
            raise UnknownGameError(f"game {game_id} vanished from the database")
        return row

    # ------------------------------------------------------------------ reading
    def load(self, game_id: str) -> Room:
        with self.sessions() as session:
            row = session.get(GameRow, game_id, options=[selectinload(GameRow.seats)])
            if row is None:
                raise UnknownGameError(f"there is no game {game_id!r}")
            return self._room(session, row)

    def load_running(self) -> list[Room]:
        with self.sessions() as session:
            rows = session.scalars(
                select(GameRow)
                .where(GameRow.status == "running")
                .options(selectinload(GameRow.seats))
            ).all()
            return [self._room(session, row) for row in rows]

    def summaries(self, limit: int = 100) -> list[GameSummary]:
        with self.sessions() as session:
            rows = session.scalars(
                select(GameRow)
                .options(selectinload(GameRow.seats))
                .order_by(GameRow.updated_at.desc())
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
                        version=row.version,
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
        seats = [
            SeatInfo(s.seat, s.name, s.kind, s.bot, s.token_hash)
            for s in sorted(row.seats, key=lambda s: s.seat)
        ]
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
        if row.version > room.version:  # an undo was the last change
            room.bump(row.version)
        if room.version != row.version:
            raise KarnakError(
                f"game {row.id} is stored at version {row.version} but its actions "
                f"replay to version {room.version}"
            )
        return room

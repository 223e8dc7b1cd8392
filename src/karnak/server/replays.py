"""Stepping through a finished game's replay without playing it again from the first move.

A replay page asks for the position after move 0, 1, 2, ... of a finished game. Rebuilt
from the start each time (:meth:`Room.replayed`), stepping through a game of ``n`` moves
replays about ``n * n / 2`` moves: minutes for a big Egyptia table. A :class:`ReplayCache`
keeps snapshots instead, the room after every :data:`SNAPSHOT_EVERY`-th move (further apart
in a game of more than :data:`PER_GAME` times that many moves: at most that many snapshots a
game) and the last position asked of each game, and plays on from the nearest one before
the step asked: a step forward costs one move, a jump at most the snapshots' spacing.

Memory is bounded: at most ``most`` snapshots in all, over every game, the least recently
used dropped first; a game the server stops holding drops its own (:meth:`forget`). A
game of 99 builders (2871 moves) keeps 64 snapshots, about 13 MB together. Only a
finished game is cached (its moves never change again); the position is the same as the
one replayed from the start, seats included (they are read from the game as it is now).
At a table of 99 builders (2871 moves) a step took 0.2 to 0.9 s replayed from the start and
takes under a millisecond from a snapshot (``bench/replay_steps.py``,
``bench/results/replay_steps.md``).

A game's **moves** are the moves of its record, every one a seat played (the sealed ones
too, which everyone sees once the game is over): a replay steps through them (``steps`` of
``/api/games/<id>/replay``), and the lobby's list counts a finished game's moves the same
way (:func:`move_counts`). A running game's "move n" is another count, the spectators'
version (a seat's private steps not counted, and an undo counted as a change).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable
from typing import TYPE_CHECKING

from sqlalchemy import func, select

from karnak.server.db import ActionRow
from karnak.server.rooms import Room

if TYPE_CHECKING:
    from karnak.server.store import GameStore

#: A snapshot is kept after every this many moves of a game.
SNAPSHOT_EVERY = 16
#: At most this many snapshots of one game (a longer game keeps them further apart).
PER_GAME = 64
#: Snapshots kept in all (every game together): one position each.
MOST_SNAPSHOTS = 256
#: The key under which a game's last position asked is kept (no count of moves is negative).
LAST = -1


class ReplayCache:
    def __init__(self, most: int = MOST_SNAPSHOTS, every: int = SNAPSHOT_EVERY):
        if every < 1:
            raise ValueError("snapshots are kept every 1 move or more")
        self.most = max(0, most)
        self.every = every
        #: (game id, number of moves) -> the room after them; (game id, LAST): the last asked.
        self._snapshots: OrderedDict[tuple[str, int], Room] = OrderedDict()
        #: Moves replayed to answer (counted for the tests and the benchmark).
        self.moves_played = 0

    def __len__(self) -> int:
        return len(self._snapshots)

    def room_at(self, room: Room, step: int) -> Room:
        """``room`` (a finished game) after its first ``step`` moves: a room of its own,
        which the caller may read but should not change."""
        if not 0 <= step <= len(room.accepted):
            raise ValueError(f"the game has moves 0 to {len(room.accepted)}, not {step}")
        if not room.is_over or self.most == 0:
            return self._played(room, step, None)
        start = self._nearest(room, step)
        if start is not None and len(start.accepted) == step:
            answer = start
        else:
            answer = self._played(room, step, start, keep=True)
            self._keep((room.id, LAST), answer)
        answer.seats = room.seats  # read as they are now, as a replay from the start does
        return answer

    def spacing(self, room: Room) -> int:
        """How many moves apart ``room``'s snapshots are."""
        return max(self.every, -(-len(room.accepted) // PER_GAME))

    def forget(self, game_id: str) -> None:
        """Drop every snapshot of ``game_id`` (the server no longer holds the game)."""
        for key in [key for key in self._snapshots if key[0] == game_id]:
            del self._snapshots[key]

    # ------------------------------------------------------------------ inside
    def _nearest(self, room: Room, step: int) -> Room | None:
        """The snapshot of ``room`` with the most moves, none past ``step``."""
        best: Room | None = None
        last = self._valid(room, (room.id, LAST))
        if last is not None and len(last.accepted) <= step:
            best = last
        every = self.spacing(room)
        mark = step - step % every
        while mark > 0 and (best is None or mark > len(best.accepted)):
            found = self._valid(room, (room.id, mark))
            if found is not None:
                return found
            mark -= every
        return best

    def _valid(self, room: Room, key: tuple[str, int]) -> Room | None:
        """The snapshot under ``key`` if it is one of this game's positions (a game id
        reloaded as another game, or changed, never serves an old snapshot)."""
        snapshot = self._snapshots.get(key)
        if snapshot is None:
            return None
        count = len(snapshot.accepted)
        if count > len(room.accepted) or (
            count and snapshot.accepted[-1] != room.accepted[count - 1]
        ):
            del self._snapshots[key]
            return None
        self._snapshots.move_to_end(key)
        return snapshot

    def _played(self, room: Room, step: int, start: Room | None, *, keep: bool = False) -> Room:
        """``room`` after ``step`` moves, played on from ``start`` (None: from the first
        move); with ``keep``, a snapshot is kept at each multiple of the spacing passed."""
        current = start
        done = 0 if start is None else len(start.accepted)
        if keep:
            every = self.spacing(room)
            for mark in range(done - done % every + every, step + 1, every):
                current = room.replayed(mark, current)
                self.moves_played += mark - done
                done = mark
                self._keep((room.id, mark), current)
        answer = room.replayed(step, current)
        self.moves_played += step - done
        return answer

    def _keep(self, key: tuple[str, int], snapshot: Room) -> None:
        snapshot.previous = None  # the position before its last move: not a replay's
        self._snapshots[key] = snapshot
        self._snapshots.move_to_end(key)
        while len(self._snapshots) > self.most:
            self._snapshots.popitem(last=False)


def replay_steps(room: Room) -> int:
    """How many moves ``room``'s replay steps through: every move of its record."""
    return len(room.accepted)


def move_counts(store: GameStore, game_ids: Iterable[str]) -> dict[str, int]:
    """The moves of each game of ``game_ids`` as its replay counts them (the number of its
    stored moves, which rebuild :attr:`Room.accepted` one to one); a game without moves is
    left out."""
    wanted = list(dict.fromkeys(game_ids))
    if not wanted:
        return {}
    with store.sessions() as session:
        rows = session.execute(
            select(ActionRow.game_id, func.count())
            .where(ActionRow.game_id.in_(wanted))
            .group_by(ActionRow.game_id)
        ).all()
    return {game_id: int(count) for game_id, count in rows}

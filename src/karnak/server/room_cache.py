"""Which games the server holds in memory, and which ones it cannot load.

Every running game stays in memory (its bots, timers and sockets live there). A finished game
is kept only while it is among the most recently used ones: its page and replay load it again
on demand, so a server that has seen thousands of games holds a bounded number. A stored game
that cannot be rebuilt (a rules version this engine does not play, an unknown game, an action
that no longer applies) is remembered with the reason, so every request for it gets that
reason at once instead of a failed replay each time.
"""

from __future__ import annotations

from collections import OrderedDict

from karnak.server.rooms import Room


class RoomCache:
    def __init__(self, finished_kept: int):
        self.finished_kept = max(0, finished_kept)
        #: Every game in memory, by id (running and recently used finished games).
        self.rooms: dict[str, Room] = {}
        #: Games that cannot be loaded: id -> why.
        self.unavailable: dict[str, str] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()

    def get(self, game_id: str) -> Room | None:
        room = self.rooms.get(game_id)
        if room is not None and game_id in self._finished:
            self._finished.move_to_end(game_id)
        return room

    def adopt(self, room: Room) -> tuple[Room, bool, list[str]]:
        """Hold ``room`` unless a copy of it is held already (the first one loaded wins: moves
        are made on it). Returns the room held, whether it is new here, and the finished
        games evicted to make room."""
        held = self.rooms.get(room.id)
        if held is not None:
            return held, False, []
        self.rooms[room.id] = room
        evicted = self.finished(room) if room.is_over else []
        return room, True, evicted

    def finished(self, room: Room) -> list[str]:
        """``room`` has ended: it now stays only while recently used. Returns the ids of the
        finished games evicted (least recently used first)."""
        self._finished[room.id] = None
        self._finished.move_to_end(room.id)
        evicted: list[str] = []
        while len(self._finished) > self.finished_kept:
            game_id, _ = self._finished.popitem(last=False)
            self.rooms.pop(game_id, None)
            evicted.append(game_id)
        return evicted

    def is_finished(self, game_id: str) -> bool:
        """Whether ``game_id`` is held as a finished game."""
        return game_id in self._finished

    def mark_unavailable(self, game_id: str, reason: str) -> None:
        self.unavailable[game_id] = reason
        self.rooms.pop(game_id, None)
        self._finished.pop(game_id, None)

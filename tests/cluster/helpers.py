"""What the cluster tests share: the API calls, a socket that keeps every view it got, and
the moves the database holds (the ground truth a test compares the answers with); ``move``,
``undo`` and ``stored_actions`` come from support.game_calls (tests/server uses them too)."""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

import httpx2 as httpx
from websockets.sync.client import ClientConnection, connect

from support.cluster import ws_url
from support.game_calls import move, stored_actions, undo

__all__ = [
    "SOLO",
    "Socket",
    "create",
    "increasing",
    "move",
    "stored_actions",
    "undo",
    "view",
]

SOLO = {"game": "egyptia", "seats": [{"name": "Solo"}], "seed": 21}


def create(http: httpx.Client, body: dict[str, Any]) -> tuple[str, list[str | None]]:
    """A new game: its id and each seat's token (None for a bot's seat)."""
    answer = http.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def view(http: httpx.Client, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    answer = http.get(f"/api/games/{game_id}", params=params)
    assert answer.status_code == 200, answer.text
    seen: dict[str, Any] = answer.json()
    return seen


class Socket:
    """A game's WebSocket (a seat's with a token, else a spectator's) that keeps the
    version of every view it received, in order."""

    def __init__(self, base: str, game_id: str, token: str | None = None) -> None:
        self._stack = contextlib.ExitStack()
        self.connection: ClientConnection = self._stack.enter_context(
            connect(ws_url(base, game_id, token), proxy=None, open_timeout=15, max_size=2**24)
        )
        self.versions: list[int] = []
        self.last: dict[str, Any] = {}

    def receive(self, timeout: float) -> dict[str, Any]:
        message = json.loads(self.connection.recv(timeout=timeout))
        if "version" in message:
            self.versions.append(message["version"])
            self.last = message
        received: dict[str, Any] = message
        return received

    def until(self, version: int, timeout: float) -> dict[str, Any]:
        """Read views until one at ``version`` or later arrives (TimeoutError if none)."""
        while not self.last or self.last["version"] < version:
            self.receive(timeout)
        return self.last

    def drain(self, timeout: float = 0.2) -> None:
        """Read whatever arrives until nothing more does for ``timeout`` seconds."""
        try:
            while True:
                self.receive(timeout)
        except TimeoutError:
            return

    def close(self) -> None:
        self._stack.close()


def increasing(versions: list[int]) -> bool:
    return all(a < b for a, b in itertools.pairwise(versions))

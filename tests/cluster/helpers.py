"""What the cluster tests share: the API calls, a socket that keeps every view it got, and
the moves the database holds (the ground truth a test compares the answers with)."""

from __future__ import annotations

import contextlib
import itertools
import json
from typing import Any

import httpx2 as httpx
from sqlalchemy import create_engine, select
from websockets.sync.client import ClientConnection, connect

from karnak.server.db import ActionRow
from support.cluster import ws_url

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


def move(http: httpx.Client, game_id: str, token: str, action: str, version: int) -> Any:
    return http.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"action": action, "version": version},
    )


def undo(http: httpx.Client, game_id: str, token: str, version: int) -> Any:
    return http.post(
        f"/api/games/{game_id}/undo", params={"token": token}, json={"version": version}
    )


def stored_actions(database: str, game_id: str) -> list[tuple[int, int, int, str]]:
    """The game's moves in the database: (number, version, seat, text), in order."""
    engine = create_engine(database)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                select(ActionRow.number, ActionRow.version, ActionRow.seat, ActionRow.text)
                .where(ActionRow.game_id == game_id)
                .order_by(ActionRow.number)
            ).all()
        return [(row[0], row[1], row[2], row[3]) for row in rows]
    finally:
        engine.dispose()


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

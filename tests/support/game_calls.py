"""A game's API calls that several test folders make, on any httpx client (a FastAPI
``TestClient`` is one), and the moves the database holds: the ground truth a test compares
the answers with."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx
from sqlalchemy import create_engine, select

from karnak.server.db import ActionRow


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

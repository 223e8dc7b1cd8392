"""A finished game's seats are its record: a guest seat of a finished game cannot be claimed
by an account, and the account's profile gains no game it never played as itself."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from karnak.server.conflicts import StaleWriteError
from karnak.server.db import make_engine
from karnak.server.store import GameStore

from .test_accounts import csrf, sign_up
from .test_api import view


def finished_game(client: TestClient) -> tuple[str, str]:
    """An Aton game of a guest against a bot, played to its end: its id and the guest's
    token."""
    created = client.post(
        "/api/games",
        json={"game": "aton", "seats": [{"name": "Guest"}, {"kind": "bot", "bot": "random"}]},
    ).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    deadline = time.monotonic() + 120
    while view(client, game_id)["status"] != "finished":
        assert time.monotonic() < deadline, "the game did not finish"
        mine = view(client, game_id, token)
        if not mine["legal"]:  # the bot's turn
            time.sleep(0.01)
            continue
        moved = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"version": mine["version"], "action": mine["legal"][0]["action"]},
        )
        assert moved.status_code in (200, 409), moved.text  # 409: the bot moved meanwhile
    return game_id, token


def test_a_finished_games_seat_cannot_be_claimed(client: TestClient, database: str) -> None:
    game_id, token = finished_game(client)
    sign_up(client, "Ana")
    refused = client.post(
        f"/api/games/{game_id}/claim", params={"token": token}, headers=csrf(client)
    )
    assert refused.status_code == 409, refused.text
    assert "the game is over" in refused.json()["error"]
    profile = client.get("/api/players/Ana").json()
    assert profile["recent"] == [] and all(g["played"] == 0 for g in profile["games"])
    engine = make_engine(database)
    with engine.connect() as connection:
        held = connection.execute(
            text("SELECT count(*) FROM seats WHERE game_id = :g AND account_id IS NOT NULL"),
            {"g": game_id},
        ).scalar_one()
    engine.dispose()
    assert held == 0


def test_the_store_refuses_a_claim_once_another_process_finished_the_game(
    client: TestClient, database: str
) -> None:
    """The service decides against its copy of the game; the store decides again with the
    game's row locked, so a process whose copy still runs cannot claim a seat of a game that
    another process finished."""
    game_id, _ = finished_game(client)
    sign_up(client, "Ana")
    account = client.get("/api/account").json()["account"]["id"]
    store = GameStore(make_engine(database))
    with pytest.raises(StaleWriteError, match="over"):
        store.claim_seat(game_id, 0, account)
    store.engine.dispose()

"""Stored games under a restart: bad ones, old rules versions, many of them, finished ones.

The server must start whatever its database holds: a game it cannot rebuild is logged in one
line and answered as unavailable with the reason; a game of an older rules version finishes
under its own rules; finished games leave memory; the number of running games is capped.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from karnak.core import Rng
from karnak.server.app import create_app
from karnak.server.db import ActionRow, GameRow, SeatRow, make_engine
from karnak.server.limits import ServerSettings
from karnak.server.service import GameService

from .conftest import create, humans, wait_for


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"token": token} if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def play_some(client: TestClient, created: dict[str, Any], moves: int, seed: int = 1) -> None:
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    rng = Rng(seed)
    for _ in range(moves):
        public = view(client, game_id)
        if public["status"] == "finished":
            return
        seat = public["to_move"][0]
        mine = view(client, game_id, tokens[seat])
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        response = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[seat]},
            json={"version": mine["version"], "action": choice["text"]},
        )
        assert response.status_code == 200, response.text


def tamper(database: str, game_id: str, **values: Any) -> None:
    engine = make_engine(database)
    with engine.begin() as connection:
        connection.execute(update(GameRow).where(GameRow.id == game_id).values(**values))
    engine.dispose()


def test_bad_stored_games_do_not_stop_the_server(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """An unknown rules version, an unknown game and an action that no longer reads: the
    server starts, logs one line for each, answers them with the reason, serves the rest."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        games = [create(client, humans(3), seed=s) for s in range(4)]
        for created in games:
            play_some(client, created, 6)
        good, old_version, unknown_game, bad_action = (g["id"] for g in games)
        before = view(client, good)
    tamper(database, old_version, rules_version="0.3")
    tamper(database, unknown_game, game="senet")
    engine = make_engine(database)
    with engine.begin() as connection:
        connection.execute(
            update(ActionRow)
            .where(ActionRow.game_id == bad_action, ActionRow.number == 2)
            .values(text="bid ATLANTIS 5")
        )
    engine.dispose()
    caplog.set_level(logging.WARNING, logger="karnak.server")
    with TestClient(create_app(database, bot_workers=0)) as client:
        wait_for(lambda: service_of(client).loaded_in is not None)
        assert view(client, good) == before
        for game_id, words in (
            (old_version, "rules version 0.3"),
            (unknown_game, "unknown game 'senet'"),
            (bad_action, "ATLANTIS"),
        ):
            response = client.get(f"/api/games/{game_id}")
            assert response.status_code == 410, response.text
            message = response.json()["error"]
            assert message.startswith(f"game {game_id} is unavailable: ") and words in message
            assert client.get(f"/api/games/{game_id}/replay").status_code == 410
        listed = {g["id"]: g for g in client.get("/api/games").json()}
        assert listed[good]["status"] == "running"
        assert listed[old_version]["status"] == "unavailable"
        assert "rules version 0.3" in listed[old_version]["reason"]
        lines = [r.getMessage() for r in caplog.records if r.name == "karnak.server"]
        bad_lines = [line for line in lines if "is unavailable" in line]
        assert len(bad_lines) == 3 and all("\n" not in line for line in bad_lines)
        # the others still play
        play_some(client, games[0], 3, seed=9)


def test_a_game_of_an_older_rules_version_finishes_under_its_own_rules(database: str) -> None:
    """A game stored under Egyptia 1.0 (before ships while waiting): after a restart it
    goes on under 1.0, and its record names 1.0."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = client.post(
            "/api/games",
            json={"game": "egyptia", "seats": humans(2), "seed": 3},
        ).json()
        game_id = created["id"]
    tamper(database, game_id, rules_version="1.0")
    with TestClient(create_app(database, bot_workers=0)) as client:
        tokens = [seat["token"] for seat in created["seats"]]
        response = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[0]},
            json={"version": 0, "action": "choose grain"},
        )
        assert response.status_code == 200
        mine = view(client, game_id, tokens[0])
        assert mine["legal"] == []  # no ship while waiting under 1.0
        room = service_of(client).rooms[game_id]
        assert room.game.version == "1.0" and room.record().version == "1.0"
        play_some(client, created, 4000)
        assert view(client, game_id)["status"] == "finished"
        assert client.get(f"/api/games/{game_id}/record").json()["version"] == "1.0"


def test_finished_games_leave_memory_and_load_again_on_demand(database: str) -> None:
    settings = ServerSettings(finished_games_in_memory=2)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        bots = [{"kind": "bot", "bot": "random"} for _ in range(2)]
        ids = []
        for seed in range(5):
            response = client.post("/api/games", json={"game": "aton", "seats": bots, "seed": seed})
            assert response.status_code == 201
            ids.append(response.json()["id"])
        service = service_of(client)
        wait_for(lambda: all(view(client, i)["status"] == "finished" for i in ids))
        wait_for(lambda: service.bots_thinking == 0)
        held = [i for i in ids if i in service.rooms]
        assert len(held) <= 2
        assert service.running == 0
        # an evicted game's pages and replay still work: it loads again
        evicted = next(i for i in ids if i not in held)
        assert view(client, evicted)["status"] == "finished"
        assert client.get(f"/api/games/{evicted}/replay").json()["steps"] > 0
        assert sum(1 for i in ids if i in service.rooms) <= 2
        assert service.positions_held <= 2 + 1


def test_the_number_of_running_games_is_capped(database: str) -> None:
    """The running games are counted in the database when a game is created (so several
    server processes share one cap): a finished game holds no place, and a restart counts
    the running games again."""
    settings = ServerSettings(max_running_games=2)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        bots = [{"kind": "bot", "bot": "random"} for _ in range(2)]
        done = client.post("/api/games", json={"game": "aton", "seats": bots})
        assert done.status_code == 201
        wait_for(lambda: view(client, done.json()["id"])["status"] == "finished")
        create(client, humans(3))
        create(client, humans(3))
        refused = client.post("/api/games", json={"seats": humans(3)})
        assert refused.status_code == 429
        assert "already runs 2 games, its most (2)" in refused.json()["error"]
        assert int(refused.headers["Retry-After"]) > 0
        assert service_of(client).running == 2
    # after a restart the running games are counted again
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        assert client.post("/api/games", json={"seats": humans(3)}).status_code == 429


def test_games_not_loaded_yet_are_served_on_demand(database: str) -> None:
    """The server answers before its running games are loaded: a game asked for is loaded at
    once, and the background loading does not load it twice."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        games = [create(client, humans(3), seed=s) for s in range(30)]
        views = {g["id"]: view(client, g["id"]) for g in games}
    app = create_app(database, bot_workers=0)
    with TestClient(app) as client:
        service = service_of(client)
        asked = games[-1]["id"]
        assert view(client, asked) == views[asked]
        wait_for(lambda: service.loaded_in is not None)
        assert all(view(client, i) == v for i, v in views.items())
        assert len(service.rooms) == 30 and service.running == 30


def test_a_seat_row_without_its_game_cannot_break_the_start(database: str) -> None:
    """Seats are rows of their own; a game whose seats went missing is unavailable."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, humans(3), seed=4)
    engine = make_engine(database)
    with engine.begin() as connection:
        connection.execute(
            SeatRow.__table__.delete().where(  # type: ignore[attr-defined]
                SeatRow.game_id == created["id"], SeatRow.seat == 2
            )
        )
    engine.dispose()
    with TestClient(create_app(database, bot_workers=0)) as client:
        response = client.get(f"/api/games/{created['id']}")
        assert response.status_code == 410, response.text
        assert "is for 3 to 5 players, not 2" in response.json()["error"]


@pytest.mark.parametrize("how", ["load", "load_many"])
def test_a_game_read_while_a_move_lands_reads_as_one_moment(database: str, how: str) -> None:
    """A move committed between the reads of a game's row and of its seats and actions must
    not make an intact game read as broken: the reads see one moment, before the move."""
    from sqlalchemy import event

    from karnak.server.rooms import Accepted
    from karnak.server.store import GameStore

    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, humans(3), seed=7)
        play_some(client, created, 3)
    game_id = created["id"]
    reader, writer = GameStore(make_engine(database)), GameStore(make_engine(database))
    moved: list[int] = []

    def move_now(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if moved or "FROM seats" not in statement:
            return  # the row is read; its seats and actions are not yet
        room = writer.load(game_id)
        seat = room.state.to_move()[0]
        action = room.state.legal_actions(seat)[0]
        # the service's order: written at the room's version, then applied
        entry = Accepted(len(room.accepted), room.version + 1, seat, action.to_text())
        writer.append(room, entry, None, room.version_for(None) + 1)
        moved.append(entry.version)

    event.listen(reader.engine, "before_cursor_execute", move_now)
    try:
        if how == "load":
            room = reader.load(game_id)
        else:
            rooms, failed = reader.load_many([game_id])
            assert failed == {}
            (room,) = rooms
    finally:
        event.remove(reader.engine, "before_cursor_execute", move_now)
    assert moved, "the move was not made between the reads"
    assert room.version == moved[0] - 1  # the moment before the move
    assert reader.load(game_id).version == moved[0]  # and the move is there after it

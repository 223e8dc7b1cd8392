"""The running-games cap cannot be filled by one client, nor by games nobody plays
(karnak.server.capacity): only recently changed games count, each address and each account
holds a share of the cap, and the check is atomic."""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import MutableMapping
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, update

from karnak.core.registry import get_game
from karnak.server.app import create_app
from karnak.server.capacity import CapacityError, Creator, Quota, ShareError, share_of
from karnak.server.db import GameRow, make_engine, migrate, utcnow
from karnak.server.limits import ServerSettings
from karnak.server.rooms import Room, SeatInfo
from karnak.server.store import GameStore

from .conftest import humans

#: A small server: 12 games at once, 3 per creator.
SETTINGS = ServerSettings(
    max_running_games=12, running_games_per_client=3, creates_per_minute=10_000
)


class FromAddress:
    """The app, each request coming from the address in its ``X-Test-Client`` header (the
    test client has one address of its own)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.state = app.state

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        for name, value in scope.get("headers", []):
            if name == b"x-test-client":
                scope = {**scope, "client": (value.decode(), 50000)}
        await self.app(scope, receive, send)


def new_game(client: TestClient, address: str, **headers: str) -> Any:
    return client.post(
        "/api/games",
        json={"game": "amunre", "seats": humans(3)},
        headers={"X-Test-Client": address, **headers},
    )


def backdate(database: str, hours: float) -> None:
    """Every game's last change ``hours`` ago (as if nobody had played them since)."""
    engine = make_engine(database)
    then = utcnow() - dt.timedelta(hours=hours)
    with engine.begin() as connection:
        connection.execute(update(GameRow).values(updated_at=then, created_at=then))
    engine.dispose()


def test_the_share_follows_the_cap() -> None:
    assert share_of(ServerSettings()) == 25  # a twentieth of 500
    assert share_of(ServerSettings(max_running_games=40)) == 5  # never fewer than 5
    assert share_of(ServerSettings(running_games_per_client=7)) == 7


def test_one_address_cannot_fill_the_cap(database: str) -> None:
    """The issue's attack from one address: its never-played games stop at its share, and
    everyone else goes on creating."""
    with TestClient(FromAddress(create_app(database, bot_workers=0, settings=SETTINGS))) as client:
        for _ in range(3):
            assert new_game(client, "198.51.100.7").status_code == 201
        refused = new_game(client, "198.51.100.7")
        assert refused.status_code == 429, refused.text
        assert "your address already runs 3 games, its most (3)" in refused.json()["error"]
        assert int(refused.headers["Retry-After"]) > 0
        # an IPv6 client by its /64: another address of the same block is the same client
        for _ in range(3):
            assert new_game(client, "2001:db8::1").status_code == 201
        assert new_game(client, "2001:db8::2").status_code == 429
        assert new_game(client, "203.0.113.9").status_code == 201  # somebody else


def test_an_account_has_its_share_from_any_address(database: str) -> None:
    from .test_accounts import sign_up

    with TestClient(FromAddress(create_app(database, bot_workers=0, settings=SETTINGS))) as client:
        sign_up(client, "Ana")
        for number in range(3):
            assert new_game(client, f"198.51.100.{number}").status_code == 201
        refused = new_game(client, "198.51.100.50")  # a fresh address, the same account
        assert refused.status_code == 429
        assert "your account already runs 3 games" in refused.json()["error"]
        client.cookies.clear()  # a guest at that address is somebody else
        assert new_game(client, "198.51.100.50").status_code == 201


def test_games_nobody_plays_stop_counting_and_a_restart_keeps_no_lock_out(
    database: str,
) -> None:
    """Four addresses fill the cap with games they never play: everyone is refused (the
    server's cap) until the games have been quiet for the activity window; then anyone may
    create again, after a restart too, and a quiet game that moves counts again."""
    app = create_app(database, bot_workers=0, settings=SETTINGS)
    with TestClient(FromAddress(app)) as client:
        made = []
        for address in range(4):
            for _ in range(3):
                answer = new_game(client, f"192.0.2.{address}")
                assert answer.status_code == 201
                made.append(answer.json())
        refused = new_game(client, "203.0.113.9")
        assert refused.status_code == 429
        assert "this server already runs 12 games, its most (12)" in refused.json()["error"]
    backdate(database, SETTINGS.running_game_activity_hours + 1)
    with TestClient(FromAddress(create_app(database, bot_workers=0, settings=SETTINGS))) as client:
        assert new_game(client, "203.0.113.9").status_code == 201
        # the quiet games still exist and resume: a move makes one count again
        game = made[0]
        view = client.get(f"/api/games/{game['id']}").json()
        mover = view["to_move"][0]
        token = game["seats"][mover]["token"]
        mine = client.get(f"/api/games/{game['id']}", params={"token": token}).json()
        moved = client.post(
            f"/api/games/{game['id']}/actions",
            params={"token": token},
            json={"version": mine["version"], "action": mine["legal"][0]["text"]},
        )
        assert moved.status_code == 200, moved.text
        # 192.0.2.0 now has one counted game again: two more, then its share is full
        assert new_game(client, "192.0.2.0").status_code == 201
        assert new_game(client, "192.0.2.0").status_code == 201
        assert new_game(client, "192.0.2.0").status_code == 429


def a_room(number: int) -> Room:
    game = get_game("aton")
    seats = [
        SeatInfo(n, name, "human", None, f"{number:032x}{n:032x}") for n, name in enumerate("RB")
    ]
    state = game.new_state([s.name for s in seats], seed=number, options={})
    return Room(f"race-{number}-{time.monotonic_ns() % 10**9}", game, state, seats, number)


@pytest.mark.parametrize("share", [False, True])
def test_racing_creations_for_the_last_place_give_one_game(database: str, share: bool) -> None:
    """Eight processes (each its own engine and connection) create at once when one place
    is left (the server's, or one creator's share): exactly one game is created. The count
    is made slow, so that without the lock every creation would count the same free place."""
    engine = make_engine(database)
    migrate(engine)
    creator = Creator.of("192.0.2.1")
    most = 100 if share else 4
    quota = Quota(most, 4, utcnow() - dt.timedelta(hours=24), creator)
    for number in range(3):
        GameStore(engine).create(a_room(number), most, None, quota)
    engine.dispose()
    stores = [GameStore(make_engine(database)) for _ in range(8)]

    def slow_count(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if "count(" in statement.lower():
            time.sleep(0.2)

    for store in stores:
        event.listen(store.engine, "after_cursor_execute", slow_count)
    start = threading.Barrier(len(stores))
    outcomes: list[str] = []

    def create(store: GameStore, number: int) -> None:
        start.wait()
        try:
            store.create(a_room(number), most, None, quota)
            outcomes.append("created")
        except CapacityError:
            outcomes.append("full")
        except ShareError:
            outcomes.append("share")
        except Exception as exc:  # pragma: no cover - told in the assertion
            outcomes.append(f"{type(exc).__name__}: {exc}")

    threads = [
        threading.Thread(target=create, args=(store, 10 + n)) for n, store in enumerate(stores)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for store in stores:
        store.engine.dispose()
    refused = "share" if share else "full"
    assert sorted(outcomes) == sorted(["created"] + [refused] * 7), outcomes


def test_a_game_started_from_a_table_counts_for_the_table_s_creator(database: str) -> None:
    """Games from open tables are the creator's too: three tables started from one address
    fill its share, and its next game is refused."""
    with TestClient(FromAddress(create_app(database, bot_workers=0, settings=SETTINGS))) as client:
        for number in range(3):
            made = client.post(
                "/api/tables",
                json={
                    "game": "aton",
                    "seats": [{"kind": "human", "name": "Ana"}, {"kind": "open"}],
                },
                headers={"X-Test-Client": "198.51.100.7"},
            )
            assert made.status_code == 201, made.text
            joined = client.post(
                f"/api/tables/{made.json()['table']['id']}/join",
                json={"name": f"Bes {number}"},
                headers={"X-Test-Client": f"203.0.113.{number}"},
            )
            assert joined.json()["table"]["status"] == "started", joined.text
        refused = new_game(client, "198.51.100.7")
        assert refused.status_code == 429, refused.text
        assert "your address already runs 3 games" in refused.json()["error"]
        assert new_game(client, "203.0.113.0").status_code == 201  # the joiner created none

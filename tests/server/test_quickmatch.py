"""Quick match (karnak.server.matchmaking): people queued for the same table are paired by
rating within a widening window, never with someone they blocked, across server processes
and restarts; after a wait a player may take bots at their level instead."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from karnak.server.app import create_app
from karnak.server.db import make_engine
from karnak.server.limits import ServerSettings
from karnak.server.matchmaking.pairing import Waiting, Windows, tables
from karnak.server.matchmaking.service import MatchService
from karnak.server.ratings.tables import RatingRow

from .conftest import GENEROUS, wait_for
from .test_accounts import csrf, sign_up

WINDOWS = Windows(base=3.0, widen=0.5, most=1_000.0)


# ---------------------------------------------------------------------- the pairing
def test_a_window_widens_while_a_ticket_waits() -> None:
    near, far = Waiting(1, 0.0, 100.0), Waiting(2, 20.0, 100.0)
    assert tables([near, far], 2, 100.0, WINDOWS, set()) == []
    assert tables([near, far], 2, 133.0, WINDOWS, set()) == []  # 3 + 16.5 < 20
    assert tables([near, far], 2, 135.0, WINDOWS, set()) == [[near, far]]


def test_the_longer_wait_widens_the_search_for_both() -> None:
    old, new = Waiting(1, 0.0, 0.0), Waiting(2, 10.0, 100.0)
    assert tables([old, new], 2, 100.0, WINDOWS, set()) == [[old, new]]


def test_people_who_blocked_each_other_never_sit_together() -> None:
    a, b, c = Waiting(1, 0.0, 0.0), Waiting(2, 0.0, 1.0), Waiting(3, 50.0, 2.0)
    blocked = {frozenset((1, 2))}
    assert tables([a, b], 2, 10_000.0, WINDOWS, blocked) == []
    assert tables([a, b, c], 2, 10_000.0, WINDOWS, blocked) == [[a, c]]
    assert tables([a, b, c], 3, 10_000.0, WINDOWS, blocked) == []


def test_the_oldest_ticket_is_served_first_with_its_nearest() -> None:
    queue = [
        Waiting(1, 10.0, 5.0),
        Waiting(2, 0.0, 0.0),
        Waiting(3, 1.0, 9.0),
        Waiting(4, 2.0, 8.0),
    ]
    formed = tables(queue, 2, 10.0, WINDOWS, set())
    assert [[w.account for w in table] for table in formed] == [[2, 3]]
    three = tables(queue, 3, 10.0, WINDOWS, set())
    assert [sorted(w.account for w in table) for table in three] == [[2, 3, 4]]


# ---------------------------------------------------------------------- a server
class Person:
    """One browser: an account's cookies, put in to act."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        client.cookies.clear()
        self.id = int(sign_up(client, name).json()["account"]["id"])
        self.jar = dict(client.cookies)

    def act(self) -> TestClient:
        self.client.cookies.clear()
        self.client.cookies.update(self.jar)
        return self.client

    def ask(self, game: str = "aton", players: int = 2) -> Any:
        client = self.act()
        return client.post(
            "/api/quickmatch", json={"game": game, "players": players}, headers=csrf(client)
        )

    def ticket(self) -> dict[str, Any]:
        found: dict[str, Any] = self.act().get("/api/quickmatch").json()["ticket"]
        return found

    def bots(self) -> Any:
        client = self.act()
        return client.post("/api/quickmatch/bots", headers=csrf(client))


def settings(**given: Any) -> ServerSettings:
    return ServerSettings(**{**GENEROUS, "daily_bots": "", **given})


@pytest.fixture
def server(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0, settings=settings())) as client:
        yield client


def matches_of(client: TestClient) -> MatchService:
    matches: MatchService = client.app.state.matches  # type: ignore[attr-defined]
    return matches


def later(client: TestClient, seconds: float) -> None:
    """Move the matchmaker's clock on."""
    matches = matches_of(client)
    start = matches.clock()
    matches.clock = lambda: start + dt.timedelta(seconds=seconds)


def rate(database: str, account: int, game: str, mu: float, sigma: float = 1.0) -> None:
    engine = make_engine(database)
    with Session(engine) as session, session.begin():
        session.add(RatingRow(game=game, account_id=account, mu=mu, sigma=sigma, games=10))
    engine.dispose()


# ---------------------------------------------------------------------- matching
def test_two_people_are_paired_and_a_third_waits_then_takes_bots(server: TestClient) -> None:
    ana, bek, cem = (Person(server, name) for name in ("Ana", "Bek", "Cem"))
    first = ana.ask()
    assert first.status_code == 200, first.text
    assert first.json()["ticket"]["status"] == "waiting"
    assert bek.ask().status_code == 200
    wait_for(lambda: ana.ticket()["status"] == "matched")
    game_id = ana.ticket()["game_id"]
    assert bek.ticket()["game_id"] == game_id and bek.ticket()["url"] == f"/games/{game_id}"
    view = ana.act().get(f"/api/games/{game_id}").json()
    assert view["seat"] is not None and {p["name"] for p in view["players"]} == {"Ana", "Bek"}
    notes = ana.act().get("/api/notifications").json()
    assert any(n["link"] == f"/games/{game_id}" for n in notes["notifications"])
    # the third waits: bots only after the wait
    cem.ask()
    assert cem.ticket()["status"] == "waiting" and cem.ticket()["bots_in"] > 0
    assert cem.ticket()["others"] == 0 and cem.ticket()["level_name"] == "Medium bot"
    early = cem.bots()
    assert early.status_code == 409 and "s to go" in early.json()["error"]
    later(server, 31)
    taken = cem.bots()
    assert taken.status_code == 201, taken.text
    ticket = taken.json()["ticket"]
    assert ticket["status"] == "bots" and ticket["level"] == "medium"
    players = cem.act().get(f"/api/games/{ticket['game_id']}").json()["players"]
    assert [p["kind"] for p in players].count("bot") == 1
    assert matches_of(server).made == 1


def test_ratings_far_apart_wait_for_the_window(server: TestClient, database: str) -> None:
    ana, bek = Person(server, "Ana"), Person(server, "Bek")
    rate(database, bek.id, "aton", mu=50.0)  # ordinal 47: far from a newcomer's 0
    ana.ask()
    bek.ask()
    server.portal.call(matches_of(server).match)  # type: ignore[union-attr]
    assert ana.ticket()["status"] == "waiting"
    later(server, 100)  # the window is 3 + 50 points now
    wait_for(lambda: ana.ticket()["status"] == "matched")


def test_blocked_people_wait_for_someone_else(server: TestClient) -> None:
    ana, bek = Person(server, "Ana"), Person(server, "Bek")
    client = ana.act()
    assert client.post("/api/blocks", json={"name": "Bek"}, headers=csrf(client)).status_code in (
        200,
        201,
    )
    ana.ask()
    bek.ask()
    later(server, 10_000)
    server.portal.call(matches_of(server).match)  # type: ignore[union-attr]
    assert ana.ticket()["status"] == "waiting" and bek.ticket()["status"] == "waiting"
    cem = Person(server, "Cem")
    cem.ask()
    wait_for(lambda: cem.ticket()["status"] == "matched")
    game = cem.ticket()["game_id"]
    assert [ana.ticket()["game_id"], bek.ticket()["game_id"]].count(game) == 1


def test_leaving_and_asking_again(server: TestClient) -> None:
    ana = Person(server, "Ana")
    ana.ask()
    since = ana.ticket()["waited"]
    ana.ask()  # the same again: the place is kept
    assert ana.ticket()["waited"] >= since
    client = ana.act()
    assert client.delete("/api/quickmatch", headers=csrf(client)).json() == {"cancelled": True}
    assert ana.ticket()["status"] == "cancelled"
    assert client.delete("/api/quickmatch", headers=csrf(client)).json() == {"cancelled": False}
    assert ana.bots().status_code == 409
    assert ana.ask("amunre", 3).json()["ticket"]["players"] == 3


def test_what_quick_match_refuses(server: TestClient) -> None:
    server.cookies.clear()
    assert server.post("/api/quickmatch", json={"game": "aton"}).status_code == 401
    assert server.get("/api/quickmatch").status_code == 401
    ana = Person(server, "Ana")
    client = ana.act()
    assert client.post("/api/quickmatch", json={"game": "aton"}).status_code == 403  # no CSRF
    for body, status in (
        ({"game": "chess"}, 404),
        ({"game": "aton", "players": 3}, 422),
        ({"game": "egyptia", "players": 1}, 422),
        ({"game": "amunre", "players": 6}, 422),
        ({"game": "aton", "players": "2"}, 422),
        ({"game": "x" * 5000}, 422),
        ({"game": "aton", "extra": 1}, 422),
    ):
        answer = client.post("/api/quickmatch", json=body, headers=csrf(client))
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"]


def test_a_full_queue_says_so(database: str) -> None:
    app = create_app(database, bot_workers=0, settings=settings(quickmatch_queue=1))
    with TestClient(app) as client:
        Person(client, "Ana").ask("amunre", 3)
        refused = Person(client, "Bek").ask("amunre", 3)
        assert refused.status_code == 429 and "full" in refused.json()["error"]


def test_settings_out_of_range_stop_the_server() -> None:
    with pytest.raises(ValueError, match="quickmatch_window"):
        create_app("sqlite://", settings=settings(quickmatch_window=-1.0))


# ---------------------------------------------------------------------- processes
def test_a_place_survives_a_restart_and_two_processes_make_one_game(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0, settings=settings())) as first:
        ana = Person(first, "Ana")
        ana.ask()
        jar = ana.jar
    # the process is gone; two others share the database
    with (
        TestClient(create_app(database, bot_workers=0, settings=settings())) as one,
        TestClient(create_app(database, bot_workers=0, settings=settings())) as two,
    ):
        bek = Person(two, "Bek")
        bek.ask()
        one.cookies.clear()
        one.cookies.update(jar)
        wait_for(lambda: one.get("/api/quickmatch").json()["ticket"]["status"] == "matched")
        game = one.get("/api/quickmatch").json()["ticket"]["game_id"]
        wait_for(lambda: bek.ticket()["game_id"] == game)
        assert matches_of(one).made + matches_of(two).made == 1

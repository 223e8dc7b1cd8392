"""Crowd tables (karnak.server.crowds): a game that starts at a set time with everyone who
joined; members reminded once; a missed round played by the medium bot; one crowd per time
whatever the number of processes."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.server.admin.store import COMMAND_LINE
from karnak.server.app import create_app
from karnak.server.crowds.service import CrowdService, next_start
from karnak.server.limits import ServerSettings
from support.people import People

from .conftest import GENEROUS, wait_for
from .test_accounts import csrf

UTC = dt.UTC


def test_the_timetable_starts_on_the_whole_interval() -> None:
    at = dt.datetime(2026, 11, 29, 10, 17, 5, tzinfo=UTC)
    assert next_start(at, 60) == dt.datetime(2026, 11, 29, 11, 0, tzinfo=UTC)
    assert next_start(at.replace(minute=0, second=0), 60) == at.replace(hour=11, minute=0, second=0)
    assert next_start(at, 15) == at.replace(minute=30, second=0)
    assert next_start(at.replace(hour=23, minute=30), 60) == dt.datetime(2026, 11, 30, tzinfo=UTC)


def settings(**given: Any) -> ServerSettings:
    return ServerSettings(**{**GENEROUS, "daily_bots": "", **given})


@pytest.fixture
def server(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0, settings=settings())) as client:
        yield client


def crowds_of(client: TestClient) -> CrowdService:
    crowds: CrowdService = client.app.state.crowds  # type: ignore[attr-defined]
    return crowds


def at(client: TestClient, moment: dt.datetime) -> None:
    crowds_of(client).clock = lambda: moment


def tick(client: TestClient) -> None:
    client.portal.call(crowds_of(client).tick)  # type: ignore[union-attr]


def join(client: TestClient, crowd_id: str) -> Any:
    return client.post(f"/api/crowds/{crowd_id}/join", headers=csrf(client))


def test_a_crowd_starts_on_time_with_everyone_who_joined(server: TestClient) -> None:
    # ten past an hour of tomorrow: the clock of this test is its own, and the timetable's
    # own ticks remind nobody before everyone has joined
    now = (dt.datetime.now(UTC) + dt.timedelta(days=1)).replace(minute=10, second=0, microsecond=0)
    at(server, now)
    tick(server)
    crowds = server.get("/api/crowds").json()["crowds"]
    expected = next_start(now, 60)
    crowd = next(c for c in crowds if dt.datetime.fromisoformat(c["starts_at"]) == expected)
    assert crowd["game"] == "egyptia" and crowd["seats"] == 99 and crowd["members"] == 0
    assert crowd["turn_timer"] == 60 and 0 < crowd["seconds_left"] <= 3600
    people = People(server)
    for name in ("Ahmose", "Kamose", "Tiye"):
        people.sign_up(name)
        answer = join(server, crowd["id"])
        assert answer.status_code == 200, answer.text
        assert answer.json()["joined"]
    assert join(server, crowd["id"]).json()["members"] == 3  # joining again changes nothing
    people.be("Kamose")
    assert server.delete(f"/api/crowds/{crowd['id']}/join", headers=csrf(server)).json() == {
        "left": True
    }
    listed = next(c for c in server.get("/api/crowds").json()["crowds"] if c["id"] == crowd["id"])
    assert listed["members"] == 2 and listed["joined"] is False
    people.be(None)
    assert all(c["joined"] is None for c in server.get("/api/crowds").json()["crowds"])
    assert server.post(f"/api/crowds/{crowd['id']}/join").status_code == 401
    # five minutes before: reminded once, by notification (and e-mail if asked)
    start = dt.datetime.fromisoformat(crowd["starts_at"])
    at(server, start - dt.timedelta(minutes=4))
    tick(server)
    tick(server)
    people.be("Tiye")
    notes = server.get("/api/notifications").json()["notifications"]
    reminders = [n for n in notes if n["kind"] == "invitation" and "crowd" in n["text"]]
    assert len(reminders) == 1
    # the start: the members' game, a notification with its link, the next crowd scheduled
    at(server, start + dt.timedelta(seconds=1))
    tick(server)
    listed = {c["id"]: c for c in server.get("/api/crowds").json()["crowds"]}
    assert listed[crowd["id"]]["status"] == "started" and listed[crowd["id"]]["joined"]
    assert listed[crowd["id"]]["url"].startswith("/games/")  # its members find their game
    assert any(c["starts_at"] > crowd["starts_at"] for c in listed.values())
    notes = server.get("/api/notifications").json()["notifications"]
    link = next(n["link"] for n in notes if n["link"] and n["link"].startswith("/games/"))
    view = server.get(f"/api/{link.lstrip('/')}").json()
    assert {p["name"] for p in view["players"]} == {"Ahmose", "Tiye"}
    assert view["seat"] is not None and view["turn_timer"] == 60
    people.be("Ahmose")
    assert join(server, crowd["id"]).status_code == 409  # it has started


def test_a_crowd_nobody_joined_is_cancelled_and_a_full_one_says_so(server: TestClient) -> None:
    crowds = crowds_of(server)
    now = dt.datetime.now(UTC)
    at(server, now)
    crowd, _ = crowds.store.schedule("egyptia", now + dt.timedelta(minutes=1), 2, 60.0, None, now)
    people = People(server)
    for name in ("Ahmose", "Kamose"):
        people.sign_up(name)
        assert join(server, crowd.id).status_code == 200
    people.sign_up("Tiye")
    full = join(server, crowd.id)
    assert full.status_code == 409 and "full" in full.json()["error"]
    empty, _ = crowds.store.schedule("egyptia", now + dt.timedelta(minutes=2), 9, 60.0, None, now)
    at(server, now + dt.timedelta(minutes=3))
    tick(server)
    assert crowds.store.load(empty.id).status == "cancelled"  # type: ignore[union-attr]
    assert crowds.store.load(crowd.id).status == "started"  # type: ignore[union-attr]
    assert server.post("/api/crowds/nosuchcrowd/join", headers=csrf(server)).status_code == 404


def test_a_builder_who_misses_a_round_has_the_bot_play_it(server: TestClient) -> None:
    crowds = crowds_of(server)
    now = dt.datetime.now(UTC)
    at(server, now)
    crowd, _ = crowds.store.schedule("egyptia", now + dt.timedelta(seconds=1), 9, 1.0, None, now)
    people = People(server)
    for name in ("Ahmose", "Kamose"):
        people.sign_up(name)
        join(server, crowd.id)
    at(server, now + dt.timedelta(seconds=2))
    tick(server)
    game_id = crowds.store.load(crowd.id).game_id  # type: ignore[union-attr]
    assert game_id is not None
    # nobody moves: the timer plays every builder's round
    wait_for(lambda: server.get(f"/api/games/{game_id}").json()["timeouts"], timeout=30)


def test_administrators_schedule_crowds_within_bounds(server: TestClient) -> None:
    people = People(server)
    people.sign_up("Ra")
    server.app.state.admin.store.set_role(COMMAND_LINE, "Ra", "admin")  # type: ignore[attr-defined]
    soon = (dt.datetime.now(UTC) + dt.timedelta(hours=2)).replace(microsecond=0)
    made = server.post(
        "/api/admin/crowds",
        json={"starts_at": soon.isoformat(), "seats": 20, "turn_timer": 90},
        headers=csrf(server),
    )
    assert made.status_code == 201, made.text
    assert made.json()["seats"] == 20 and made.json()["turn_timer"] == 90
    again = server.post(
        "/api/admin/crowds", json={"starts_at": soon.isoformat()}, headers=csrf(server)
    )
    assert again.status_code == 409
    for body, status in (
        ({"starts_at": "2000-01-01T00:00:00"}, 422),
        ({"starts_at": soon.isoformat(), "seats": 100}, 422),
        ({"starts_at": soon.isoformat(), "game": "aton", "seats": 3}, 422),
        ({"starts_at": soon.isoformat(), "game": "chess"}, 404),
        ({"starts_at": soon.isoformat(), "turn_timer": 5}, 422),
        ({"starts_at": "tomorrow"}, 422),
    ):
        answer = server.post("/api/admin/crowds", json=body, headers=csrf(server))
        assert answer.status_code == status, (body, answer.text)
    people.sign_up("Apophis")
    refused = server.post(
        "/api/admin/crowds", json={"starts_at": soon.isoformat()}, headers=csrf(server)
    )
    assert refused.status_code == 403


def test_settings_out_of_range_stop_the_server() -> None:
    for given, name in (
        ({"crowd_seats": 100}, "crowd_seats"),
        ({"crowd_game": "chess"}, "crowd_game"),
        ({"crowd_turn_timer": 1.0}, "crowd_turn_timer"),
        ({"crowd_every_minutes": -1}, "crowd_every_minutes"),
    ):
        with pytest.raises(ValueError, match=name):
            create_app("sqlite://", settings=settings(**given))


def test_two_processes_schedule_and_start_each_crowd_once(database: str) -> None:
    with (
        TestClient(create_app(database, bot_workers=0, settings=settings())) as one,
        TestClient(create_app(database, bot_workers=0, settings=settings())) as two,
    ):
        now = (dt.datetime.now(UTC) + dt.timedelta(days=1)).replace(
            minute=10, second=0, microsecond=0
        )
        for client in (one, two):
            at(client, now)
            tick(client)
        expected = next_start(now, 60)
        crowds = [
            c
            for c in one.get("/api/crowds").json()["crowds"]
            if dt.datetime.fromisoformat(c["starts_at"]) == expected
        ]
        assert len(crowds) == 1  # both processes scheduled the hour: one crowd
        people = People(one)
        people.sign_up("Ahmose")
        join(one, crowds[0]["id"])
        start = dt.datetime.fromisoformat(crowds[0]["starts_at"])
        for client in (one, two):
            at(client, start + dt.timedelta(seconds=1))
            tick(client)
        assert crowds_of(one).started + crowds_of(two).started == 1

"""Friends: a request by name, accepted or declined by the requested account only, removed by
either friend; the notifications each step sends, and to whom; every bound (names, pending
requests, friends, requests an hour, ids); the list an invitation offers; the migration."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect

from karnak.server.app import create_app
from karnak.server.db import make_engine, migrate, run_migrations
from karnak.server.friends.service import FriendLimits, FriendService
from karnak.server.limits import ServerSettings

from .test_accounts import sign_up


class People:
    """Several accounts in one test client: each keeps its cookies, ``be`` switches."""

    def __init__(self, client: TestClient):
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}
        self.ids: dict[str, int] = {}

    def add(self, *names: str) -> None:
        for name in names:
            self.client.cookies.clear()
            self.ids[name] = sign_up(self.client, name).json()["account"]["id"]
            self.jars[name] = dict(self.client.cookies)

    def be(self, name: str) -> TestClient:
        self.client.cookies.clear()
        self.client.cookies.update(self.jars[name])
        return self.client

    def csrf(self, name: str) -> dict[str, str]:
        return {"X-CSRF-Token": self.jars[name]["karnak_csrf"]}

    def ask(self, who: str, name: str) -> Any:
        return self.be(who).post(
            "/api/friends/requests", json={"name": name}, headers=self.csrf(who)
        )

    def answer(self, who: str, other: str, verb: str) -> Any:
        return self.be(who).post(f"/api/friends/{self.ids[other]}/{verb}", headers=self.csrf(who))

    def remove(self, who: str, other: str) -> Any:
        return self.be(who).delete(f"/api/friends/{self.ids[other]}", headers=self.csrf(who))

    def listed(self, who: str) -> dict[str, Any]:
        response = self.be(who).get("/api/friends")
        assert response.status_code == 200, response.text
        found: dict[str, Any] = response.json()
        return found

    def names(self, who: str, part: str) -> list[str]:
        return [entry["name"] for entry in self.listed(who)[part]]

    def notes(self, who: str) -> list[tuple[str, str, str | None]]:
        listed = self.be(who).get("/api/notifications").json()["notifications"]
        return [(n["kind"], n["text"], n["link"]) for n in listed]


@pytest.fixture
def people(client: TestClient) -> People:
    found = People(client)
    found.add("Ana", "Bes", "Ka")
    return found


def test_a_request_accepted_makes_friends_and_tells_each_side(people: People) -> None:
    asked = people.ask("Ana", "bes")  # any case
    assert asked.status_code == 201, asked.text
    assert asked.json() == {
        "state": "pending",
        "duplicate": False,
        "account": {"id": people.ids["Bes"], "name": "Bes"},
    }
    assert people.notes("Bes") == [
        ("friend_request", "Ana asks to be your friend", "/players/Bes#friends-panel")
    ]
    assert people.names("Ana", "outgoing") == ["Bes"] and people.names("Bes", "incoming") == ["Ana"]
    assert people.listed("Bes")["incoming_count"] == 1
    assert people.notes("Ana") == [] and people.notes("Ka") == []
    accepted = people.answer("Bes", "Ana", "accept")
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["state"] == "friends"
    assert people.notes("Ana") == [
        ("friend_accepted", "Bes accepted your friend request", "/players/Ana#friends-panel")
    ]
    for who, other in (("Ana", "Bes"), ("Bes", "Ana")):
        listed = people.listed(who)
        assert [(f["id"], f["name"]) for f in listed["friends"]] == [(people.ids[other], other)]
        assert listed["friends"][0]["since"]
        assert listed["incoming"] == listed["outgoing"] == []
    assert people.listed("Ka") == {
        "friends": [],
        "incoming": [],
        "outgoing": [],
        "incoming_count": 0,
    }


def test_only_the_requested_account_answers(people: People) -> None:
    people.ask("Ana", "Bes")
    assert people.answer("Ana", "Bes", "accept").status_code == 404  # Ana asked: not hers
    assert people.answer("Ka", "Ana", "accept").status_code == 404  # asked nobody called Ka
    assert people.answer("Bes", "Ka", "accept").status_code == 404
    assert people.names("Bes", "friends") == []


def test_a_duplicate_request_is_answered_as_already_made(people: People) -> None:
    assert people.ask("Ana", "Bes").status_code == 201
    again = people.ask("Ana", "BES")
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert again.json()["state"] == "pending"
    assert len(people.notes("Bes")) == 1  # told once
    people.answer("Bes", "Ana", "accept")
    for who, other in (("Ana", "Bes"), ("Bes", "Ana")):
        friends = people.ask(who, other)
        assert friends.status_code == 200
        assert friends.json()["state"] == "friends" and friends.json()["duplicate"] is True
    assert len(people.notes("Ana")) == 1 and len(people.notes("Bes")) == 1


def test_asking_someone_who_asked_you_accepts(people: People) -> None:
    people.ask("Ana", "Bes")
    crossing = people.ask("Bes", "Ana")
    assert crossing.status_code == 200
    assert crossing.json() == {
        "state": "friends",
        "duplicate": False,
        "account": {"id": people.ids["Ana"], "name": "Ana"},
    }
    assert people.names("Ana", "friends") == ["Bes"]
    assert people.notes("Ana") == [
        ("friend_accepted", "Bes accepted your friend request", "/players/Ana#friends-panel")
    ]


def test_a_declined_request_tells_nobody_and_is_not_repeated(people: People) -> None:
    people.ask("Ana", "Bes")
    declined = people.answer("Bes", "Ana", "decline")
    assert declined.status_code == 200 and declined.json()["state"] == "declined"
    assert people.notes("Ana") == []
    assert people.listed("Ana")["outgoing"] == [] and people.listed("Bes")["incoming"] == []
    again = people.ask("Ana", "Bes")
    assert again.status_code == 409 and "declined" in again.json()["error"]
    assert len(people.notes("Bes")) == 1
    assert people.answer("Bes", "Ana", "accept").status_code == 404  # nothing pending
    # the one who declined may still ask, and that request replaces the old one
    assert people.ask("Bes", "Ana").status_code == 201
    assert people.answer("Ana", "Bes", "accept").status_code == 200
    assert people.names("Bes", "friends") == ["Ana"]


def test_either_friend_removes_and_a_request_is_withdrawn(people: People) -> None:
    people.ask("Ana", "Bes")
    people.answer("Bes", "Ana", "accept")
    removed = people.remove("Bes", "Ana")
    assert removed.status_code == 200 and removed.json() == {"removed": "friend"}
    assert people.names("Ana", "friends") == [] and people.names("Bes", "friends") == []
    assert people.remove("Ana", "Bes").status_code == 404
    # they may ask again after a removal
    assert people.ask("Ana", "Ka").status_code == 201
    assert people.remove("Ka", "Ana").status_code == 404  # Ka cannot withdraw Ana's request
    withdrawn = people.remove("Ana", "Ka")
    assert withdrawn.status_code == 200 and withdrawn.json() == {"removed": "request"}
    assert people.listed("Ka")["incoming"] == []
    assert people.ask("Ana", "Bes").status_code == 201


@pytest.mark.parametrize(
    ("name", "status", "words"),
    [
        ("Ana", 422, "yourself"),
        (" ana ", 422, "yourself"),
        ("Nobody", 404, "no account named 'Nobody'"),
        ("", 422, "at least 1"),
        ("x" * 41, 422, "at most 40"),
        ("<script>", 404, "no account named"),
    ],
)
def test_bad_requests_are_refused_clearly(
    people: People, name: str, status: int, words: str
) -> None:
    answer = people.ask("Ana", name)
    assert answer.status_code == status, answer.text
    assert words in answer.json()["error"]
    assert people.listed("Ana")["outgoing"] == []


def test_malformed_bodies_and_ids_are_refused(people: People) -> None:
    client = people.be("Ana")
    headers = {**people.csrf("Ana"), "Content-Type": "application/json"}
    for body in (b'{"name": "\\ud800"}', b'{"name": 3}', b'{"name": "Bes", "x": 1}', b"{}"):
        answer = client.post("/api/friends/requests", content=body, headers=headers)
        assert answer.status_code == 422, (body, answer.text)
    for bad in ("0", "-1", str(2**31), str(2**70), "Bes"):
        for verb in ("accept", "decline"):
            answer = client.post(f"/api/friends/{bad}/{verb}", headers=people.csrf("Ana"))
            assert answer.status_code == 422, (bad, answer.text)
        assert client.delete(f"/api/friends/{bad}", headers=people.csrf("Ana")).status_code == 422
    assert client.post("/api/friends/99999/accept", headers=people.csrf("Ana")).status_code == 404


def test_friends_need_a_session_and_writes_their_csrf_token(people: People) -> None:
    client = people.be("Ana")
    assert client.post("/api/friends/requests", json={"name": "Bes"}).status_code == 403
    people.ask("Bes", "Ana")
    client = people.be("Ana")
    assert client.post(f"/api/friends/{people.ids['Bes']}/accept").status_code == 403
    assert client.post(f"/api/friends/{people.ids['Bes']}/decline").status_code == 403
    assert client.delete(f"/api/friends/{people.ids['Bes']}").status_code == 403
    assert people.names("Ana", "incoming") == ["Bes"]
    client.cookies.clear()
    assert client.get("/api/friends").status_code == 401
    assert client.post("/api/friends/requests", json={"name": "Bes"}).status_code == 401
    assert client.post(f"/api/friends/{people.ids['Bes']}/accept").status_code == 401
    assert client.delete(f"/api/friends/{people.ids['Bes']}").status_code == 401


def friends_service(people: People) -> FriendService:
    service: FriendService = people.client.app.state.friends  # type: ignore[attr-defined]
    return service


def test_pending_requests_are_bounded(people: People) -> None:
    friends_service(people).limits = FriendLimits(pending=1)
    people.add("Ra")
    assert people.ask("Ana", "Bes").status_code == 201
    over = people.ask("Ana", "Ka")
    assert over.status_code == 422 and "1 friend requests waiting" in over.json()["error"]
    assert people.notes("Ka") == []
    # an answered request no longer waits; a duplicate is still answered as made
    assert people.ask("Ana", "Bes").status_code == 200
    people.answer("Bes", "Ana", "accept")
    assert people.ask("Ana", "Ka").status_code == 201
    people.remove("Ana", "Ka")
    assert people.ask("Ana", "Ra").status_code == 201
    # others' requests to Ana count against them, not her
    assert people.ask("Ka", "Ana").status_code == 201


def test_the_pending_bound_is_a_server_setting(database: str) -> None:
    settings = ServerSettings(friend_requests_pending=1)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        people = People(client)
        people.add("Ana", "Bes", "Ka")
        assert people.ask("Ana", "Bes").status_code == 201
        over = people.ask("Ana", "Ka")
        assert over.status_code == 422 and "1 friend requests waiting" in over.json()["error"]
    assert ServerSettings().friend_requests_pending == FriendLimits().pending == 50


def test_friends_are_bounded_on_both_sides(people: People) -> None:
    friends_service(people).limits = FriendLimits(friends=1)
    people.add("Ra")
    people.ask("Ana", "Bes")
    people.answer("Bes", "Ana", "accept")
    full = people.ask("Ana", "Ka")
    assert full.status_code == 422 and "you have 1 friends" in full.json()["error"]
    theirs = people.ask("Ka", "Ana")
    assert theirs.status_code == 422 and "they have 1 friends" in theirs.json()["error"]
    people.add("Set")
    assert people.ask("Ka", "Ra").status_code == 201
    assert people.ask("Set", "Ra").status_code == 201
    assert people.answer("Ra", "Ka", "accept").status_code == 200
    refused = people.answer("Ra", "Set", "accept")  # Ra has her one friend now
    assert refused.status_code == 422 and "you have 1 friends" in refused.json()["error"]
    assert people.names("Ra", "incoming") == ["Set"]


def test_requests_are_rate_limited_per_account(people: People) -> None:
    app = people.client.app
    notifier = app.state.notifier  # type: ignore[attr-defined]
    engine = app.state.accounts.store.engine  # type: ignore[attr-defined]
    executor = app.state.executor  # type: ignore[attr-defined]
    limits = FriendLimits(requests_per_hour=2)
    app.state.friends = FriendService(engine, executor, notifier, limits)  # type: ignore[attr-defined]
    people.ask("Ana", "Bes")
    people.remove("Ana", "Bes")
    people.ask("Ana", "Bes")
    people.remove("Ana", "Bes")
    over = people.ask("Ana", "Bes")
    assert over.status_code == 429 and "at most 2 an hour" in over.json()["error"]
    assert int(over.headers["Retry-After"]) >= 1
    assert len(people.notes("Bes")) == 2
    assert people.ask("Ka", "Bes").status_code == 201  # another account's allowance


def test_a_request_reaches_the_requested_accounts_socket_only(people: People) -> None:
    client = people.be("Bes")
    with client.websocket_connect("/api/account/ws") as bes_socket:
        people.ask("Ka", "Ana")  # not Bes's
        people.ask("Ana", "Bes")
        message = bes_socket.receive_json()
    assert message["event"] == "notification"
    assert message["notification"]["kind"] == "friend_request"
    assert message["notification"]["text"] == "Ana asks to be your friend"


def test_crossing_requests_at_the_same_moment_make_one_friendship(people: People) -> None:
    service = friends_service(people)
    portal = people.client.portal
    assert portal is not None
    found = people.client.app.state.accounts  # type: ignore[attr-defined]
    accounts = {name: portal.call(found.by_name, name) for name in ("Ana", "Bes")}

    async def both() -> list[Any]:
        return list(
            await asyncio.gather(
                service.request(accounts["Ana"], "Bes"), service.request(accounts["Bes"], "Ana")
            )
        )

    outcomes = portal.call(both)
    assert sorted(o.state for o in outcomes) == ["friends", "pending"]
    assert people.names("Ana", "friends") == ["Bes"] and people.names("Bes", "friends") == ["Ana"]


def test_the_list_serves_an_invitation_form(people: People) -> None:
    """Friends sorted by name with their ids: what an invitation offers first."""
    people.add("zed", "Bata")
    for other in ("zed", "Bes", "Bata"):
        people.ask("Ana", other)
        people.answer(other, "Ana", "accept")
    listed = people.listed("Ana")["friends"]
    assert [f["name"] for f in listed] == ["Bata", "Bes", "zed"]
    assert [f["id"] for f in listed] == [people.ids[n] for n in ("Bata", "Bes", "zed")]


def test_the_migration_adds_and_removes_the_tables(database: str) -> None:
    engine = make_engine(database)
    migrate(engine)
    tables = set(inspect(engine).get_table_names())
    assert {"friendships", "chat_lines"} <= tables
    run_migrations(engine, "downgrade", "0007_social-1")
    inspected = inspect(engine)
    assert not {"friendships", "chat_lines"} & set(inspected.get_table_names())
    assert "notifications" in inspected.get_table_names()  # the branch's base stays
    migrate(engine)
    assert {"friendships", "chat_lines"} <= set(inspect(engine).get_table_names())
    engine.dispose()


def test_a_notification_leads_to_the_readers_own_friends_panel(people: People) -> None:
    people.add("Nefer Ti")
    people.ask("Nefer Ti", "Ana")
    people.answer("Ana", "Nefer Ti", "accept")
    assert people.notes("Ana")[0][2] == "/players/Ana#friends-panel"
    assert people.notes("Nefer Ti")[0][2] == "/players/Nefer%20Ti#friends-panel"

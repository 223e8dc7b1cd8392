"""Accounts: sign-up, log-in, sessions in cookies with CSRF protection, password changes, and
guest seats claimed by an account (whose session then opens the game without the link)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from karnak.server.app import create_app
from karnak.server.db import make_engine
from karnak.server.limits import ServerSettings

from .conftest import create, humans

PASSWORD = "two crowns, one Nile"


def sign_up(client: TestClient, name: str = "Hatshepsut", password: str = PASSWORD) -> Any:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return response


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies.get("karnak_csrf") or ""}


def test_sign_up_logs_in_with_safe_cookies(client: TestClient) -> None:
    response = sign_up(client)
    body = response.json()
    assert body["account"]["name"] == "Hatshepsut" and body["csrf"]
    cookies = response.headers.get_list("set-cookie")
    session = next(c for c in cookies if c.startswith("karnak_session="))
    token = next(c for c in cookies if c.startswith("karnak_csrf="))
    assert "HttpOnly" in session and "SameSite=lax" in session and "Max-Age=" in session
    assert "HttpOnly" not in token and "SameSite=strict" in token
    me = client.get("/api/account").json()
    assert me["account"]["name"] == "Hatshepsut" and me["csrf"] == body["csrf"]


def test_the_password_is_stored_as_an_argon2_hash(client: TestClient, database: str) -> None:
    sign_up(client)
    engine = make_engine(database)
    with engine.connect() as connection:
        stored = connection.execute(text("SELECT password_hash FROM accounts")).scalar_one()
    engine.dispose()
    assert stored.startswith("$argon2id$") and PASSWORD not in stored


@pytest.mark.parametrize("other", ["hatshepsut", "HATSHEPSUT", " Hatshepsut "])
def test_a_name_is_one_account_whatever_its_case(client: TestClient, other: str) -> None:
    sign_up(client)
    taken = client.post("/api/account/signup", json={"name": other, "password": PASSWORD})
    assert taken.status_code == 409 and "taken" in taken.json()["error"]


@pytest.mark.parametrize(
    ("name", "password", "words"),
    [
        ("A", PASSWORD, "2 to 40 characters"),
        ("x" * 41, PASSWORD, "at most 40"),
        ("<script>", PASSWORD, "letters, digits"),
        ("Ana\u202e", PASSWORD, "format or invisible characters (found U+202E)"),
        ("Ana", "short", "at least 8 characters"),
        ("Ana", "p" * 201, "at most 200"),
    ],
)
def test_bad_names_and_passwords_are_refused_clearly(
    client: TestClient, name: str, password: str, words: str
) -> None:
    response = client.post("/api/account/signup", json={"name": name, "password": password})
    assert response.status_code == 422, response.text
    assert words in response.json()["error"]


def test_a_wrong_name_or_password_gets_the_same_answer(client: TestClient) -> None:
    sign_up(client)
    client.cookies.clear()
    answers = [
        client.post("/api/account/login", json={"name": name, "password": password})
        for name, password in (("Hatshepsut", "not the password"), ("Nobody", PASSWORD))
    ]
    assert [a.status_code for a in answers] == [401, 401]
    assert answers[0].json() == answers[1].json()
    assert client.get("/api/account").json() == {"account": None, "csrf": None}
    good = client.post("/api/account/login", json={"name": "hatshepsut", "password": PASSWORD})
    assert good.status_code == 200 and good.json()["account"]["name"] == "Hatshepsut"


def test_log_out_needs_the_csrf_token(client: TestClient) -> None:
    sign_up(client)
    refused = client.post("/api/account/logout")
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    assert client.get("/api/account").json()["account"] is not None
    assert client.post("/api/account/logout", headers=csrf(client)).status_code == 204
    assert client.get("/api/account").json()["account"] is None


def test_a_new_password_ends_the_other_sessions(database: str) -> None:
    with (
        TestClient(create_app(database, bot_workers=0)) as here,
        TestClient(create_app(database, bot_workers=0)) as there,
    ):
        sign_up(here)
        there.post("/api/account/login", json={"name": "Hatshepsut", "password": PASSWORD})
        assert there.get("/api/account").json()["account"] is not None
        wrong = here.post(
            "/api/account/password",
            json={"current": "not it at all", "new": "a new password"},
            headers=csrf(here),
        )
        assert wrong.status_code == 422 and "current password" in wrong.json()["error"]
        changed = here.post(
            "/api/account/password",
            json={"current": PASSWORD, "new": "a new password"},
            headers=csrf(here),
        )
        assert changed.status_code == 200
        assert here.get("/api/account").json()["account"] is not None  # this one stays
    with TestClient(create_app(database, bot_workers=0)) as fresh:
        fresh.cookies.update(there.cookies)
        assert fresh.get("/api/account").json()["account"] is None  # the other one ended
        old = {"name": "Hatshepsut", "password": PASSWORD}
        assert fresh.post("/api/account/login", json=old).status_code == 401


def test_account_attempts_are_rate_limited(database: str) -> None:
    settings = ServerSettings(account_attempts_per_minute=3)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        for _ in range(3):
            client.post("/api/account/login", json={"name": "Nobody", "password": PASSWORD})
        refused = client.post("/api/account/login", json={"name": "Nobody", "password": PASSWORD})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1


# ---------------------------------------------------------------------- seats
def test_a_claimed_seat_opens_with_the_session_alone(client: TestClient) -> None:
    created = create(client, humans(3), seed=3)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    sign_up(client)
    as_guest = client.get(f"/api/games/{game_id}", params={"token": tokens[1]}).json()
    assert client.get(f"/api/games/{game_id}").json()["seat"] is None  # not claimed yet
    claim = f"/api/games/{game_id}/claim"
    refused = client.post(claim, params={"token": tokens[1]})
    assert refused.status_code == 403  # no CSRF token
    claimed = client.post(claim, params={"token": tokens[1]}, headers=csrf(client))
    assert claimed.status_code == 200, claimed.text
    mine = client.get(f"/api/games/{game_id}").json()
    as_guest["players"][1]["held"] = True  # the views now say an account holds seat 1
    assert mine["seat"] == 1 and mine == as_guest  # the same view as by the link
    # one seat per account and game
    second = client.post(claim, params={"token": tokens[2]}, headers=csrf(client))
    assert second.status_code == 409 and "one seat each" in second.json()["error"]


def test_moves_by_session_need_the_csrf_token(client: TestClient) -> None:
    created = create(client, humans(3), seed=4)
    game_id = created["id"]
    public = client.get(f"/api/games/{game_id}").json()
    mover = public["to_move"][0]
    token = created["seats"][mover]["token"]
    sign_up(client)
    client.post(f"/api/games/{game_id}/claim", params={"token": token}, headers=csrf(client))
    mine = client.get(f"/api/games/{game_id}").json()
    move = {"version": mine["version"], "action": mine["legal"][0]["text"]}
    refused = client.post(f"/api/games/{game_id}/actions", json=move)
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    played = client.post(f"/api/games/{game_id}/actions", json=move, headers=csrf(client))
    assert played.status_code == 200 and played.json()["accepted"]


def test_a_seat_held_by_another_account_cannot_be_claimed(database: str) -> None:
    with (
        TestClient(create_app(database, bot_workers=0)) as ana,
        TestClient(create_app(database, bot_workers=0)) as bes,
    ):
        created = create(ana, humans(3), seed=5)
        game_id, token = created["id"], created["seats"][0]["token"]
        sign_up(ana, "Ana")
        sign_up(bes, "Bes")
        claim = f"/api/games/{game_id}/claim"
        assert ana.post(claim, params={"token": token}, headers=csrf(ana)).status_code == 200
        taken = bes.post(claim, params={"token": token}, headers=csrf(bes))
        assert taken.status_code == 409 and "another account" in taken.json()["error"]
    with TestClient(create_app(database, bot_workers=0)) as again:  # stored, not only in memory
        again.cookies.update(ana.cookies)
        assert again.get(f"/api/games/{game_id}").json()["seat"] == 0


def test_a_socket_opened_by_the_session_is_the_seats_but_not_from_another_site(
    client: TestClient,
) -> None:
    created = create(client, humans(3), seed=6)
    game_id, token = created["id"], created["seats"][2]["token"]
    sign_up(client)
    client.post(f"/api/games/{game_id}/claim", params={"token": token}, headers=csrf(client))
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        assert socket.receive_json()["seat"] == 2
    elsewhere = {"origin": "https://evil.example"}
    with client.websocket_connect(f"/api/games/{game_id}/ws", headers=elsewhere) as socket:
        assert socket.receive_json()["seat"] is None  # the cookie is not taken from there

"""Administration through the API: who may use it (administrators with the CSRF token; 401
logged out, 403 for players), what each action does to accounts, games and chat, the
reports players send, and one audit row per action. An administrator sees a running game as
a spectator does, never a seat's hidden hand."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.server.accounts.tables import AccountRow
from karnak.server.admin.store import COMMAND_LINE
from karnak.server.app import create_app
from karnak.server.db import make_engine, utcnow
from karnak.server.mail.tables import MailPreferenceRow
from karnak.server.service import GameService
from support.amunre_hidden import redeal_hidden

from .conftest import create, humans
from .test_accounts import PASSWORD, csrf

ADDRESS = "203.0.113.7"


class Site:
    """One server and one client whose cookies are switched between people."""

    def __init__(self, client: TestClient, database: str):
        self.client = client
        self.database = database
        self.jars: dict[str, dict[str, str]] = {}

    def sign_up(self, name: str) -> int:
        self.client.cookies.clear()
        response = self.client.post(
            "/api/account/signup", json={"name": name, "password": PASSWORD}
        )
        assert response.status_code == 201, response.text
        self.jars[name] = dict(self.client.cookies)
        # the page asks who it is at once: the session is seen from the client's address
        assert self.client.get("/api/account").json()["account"]["name"] == name
        account_id: int = response.json()["account"]["id"]
        return account_id

    def be(self, name: str | None) -> TestClient:
        """The client as ``name`` (None: logged out)."""
        self.client.cookies.clear()
        if name is not None:
            self.client.cookies.update(self.jars[name])
        return self.client

    def log_in(self, name: str) -> Any:
        self.client.cookies.clear()
        response = self.client.post("/api/account/login", json={"name": name, "password": PASSWORD})
        if response.status_code == 200:
            self.jars[name] = dict(self.client.cookies)
        return response

    def admin(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """A request by the administrator, with the CSRF token."""
        client = self.be("Ra")
        if method == "GET":
            return client.get(path)
        return client.post(path, json=body or {}, headers=csrf(client))

    def sql(self, query: str, **params: Any) -> list[Any]:
        engine = make_engine(self.database)
        try:
            with engine.begin() as connection:
                result = connection.execute(text(query), params)
                return list(result.all()) if result.returns_rows else []
        finally:
            engine.dispose()

    def audit(self) -> list[dict[str, Any]]:
        listed = self.admin("GET", "/api/admin/audit?limit=200")
        assert listed.status_code == 200, listed.text
        rows: list[dict[str, Any]] = listed.json()
        # the oldest row is the fixture's: Ra made an administrator on the command line
        assert rows and (rows[-1]["action"], rows[-1]["admin"]) == ("grant", "command line")
        return rows[:-1]


@pytest.fixture
def site(database: str) -> Iterator[Site]:
    app = create_app(database, bot_workers=0)
    with TestClient(app, client=(ADDRESS, 50000)) as client:
        here = Site(client, database)
        here.sign_up("Ra")
        app.state.admin.store.set_role(COMMAND_LINE, "Ra", "admin")
        here.sign_up("Bes")
        yield here


def account_id(site: Site, name: str) -> int:
    found = site.admin("GET", f"/api/admin/users?name={name}").json()
    return int(found[0]["id"])


def in_a_day() -> str:
    return (utcnow() + dt.timedelta(days=1)).isoformat()


def held_game(site: Site, holder: str = "Bes") -> tuple[str, list[str]]:
    """A running Amun-Re game of three guests whose seat 1 the account ``holder`` claimed."""
    client = site.be(holder)
    created = create(client, humans(3), seed=11)
    tokens = [seat["token"] for seat in created["seats"]]
    claim = f"/api/games/{created['id']}/claim"
    claimed = client.post(claim, params={"token": tokens[1]}, headers=csrf(client))
    assert claimed.status_code == 200, claimed.text
    return created["id"], tokens


def chat(site: Site, game_id: str, text: str, *, token: str | None = None) -> Any:
    client = site.client
    params = {"token": token} if token else {}
    headers = {} if token else csrf(client)
    return client.post(
        f"/api/games/{game_id}/chat", params=params, json={"text": text}, headers=headers
    )


# ---------------------------------------------------------------------- who may
WRITES = [
    ("/api/admin/users/{bes}/suspend", {"until": "2099-01-01T00:00:00Z"}),
    ("/api/admin/users/{bes}/ban", {}),
    ("/api/admin/users/{bes}/unsuspend", {}),
    ("/api/admin/users/{bes}/mute", {"until": "2099-01-01T00:00:00Z"}),
    ("/api/admin/users/{bes}/unmute", {}),
    ("/api/admin/users/{bes}/password-reset", {}),
    ("/api/admin/users/{bes}/delete", {}),
    ("/api/admin/games/{game}/abort", {}),
    ("/api/admin/games/{game}/delete", {}),
    ("/api/admin/games/{game}/chat/1/hide", {}),
    ("/api/admin/reports/1/close", {"note": "done"}),
]
READS = [
    "/api/admin/users?name=B",
    "/api/admin/users/{bes}",
    "/api/admin/games/{game}",
    "/api/admin/games/{game}/chat",
    "/api/admin/reports",
    "/api/admin/audit",
]


def test_only_administrators_with_their_csrf_token_may_administer(site: Site) -> None:
    bes = account_id(site, "Bes")
    game_id, _ = held_game(site)
    fill = {"bes": bes, "game": game_id}
    for path in READS:
        path = path.format(**fill)
        assert site.be(None).get(path).status_code == 401, path
        refused = site.be("Bes").get(path)
        assert refused.status_code == 403, path
        assert "only administrators" in refused.json()["error"]
        assert site.admin("GET", path).status_code == 200, path
    for path, body in WRITES:
        path = path.format(**fill)
        assert site.be(None).post(path, json=body).status_code == 401, path
        player = site.be("Bes")
        refused = player.post(path, json=body, headers=csrf(player))
        assert refused.status_code == 403 and "only administrators" in refused.json()["error"]
        no_token = site.be("Ra").post(path, json=body)
        assert no_token.status_code == 403 and "CSRF" in no_token.json()["error"], path
    assert site.audit() == []  # nothing was done


def test_every_input_is_bounded(site: Site) -> None:
    bes = account_id(site, "Bes")
    cases = [
        ("POST", f"/api/admin/users/{bes}/ban", {"reason": "x" * 501}),
        ("POST", f"/api/admin/users/{bes}/ban", {"reason": "a\x1b[2Jb"}),
        ("POST", f"/api/admin/users/{bes}/ban", {"why": "unknown field"}),
        ("POST", f"/api/admin/users/{bes}/suspend", {"until": "2099-01-01T00:00:00"}),
        ("POST", f"/api/admin/users/{bes}/suspend", {"until": "2001-01-01T00:00:00Z"}),
        ("POST", f"/api/admin/users/{bes}/suspend", {"until": "9000-01-01T00:00:00Z"}),
        ("POST", "/api/admin/users/0/ban", {}),
        ("POST", f"/api/admin/users/{2**40}/ban", {}),
        ("POST", "/api/admin/reports/1/close", {"note": ""}),
        ("GET", "/api/admin/users?name=" + "x" * 41, None),
        ("GET", "/api/admin/users?address=not-an-address", None),
        ("GET", "/api/admin/users", None),
        ("GET", "/api/admin/users?name=B&game=abc", None),
        ("GET", "/api/admin/audit?limit=201", None),
        ("GET", "/api/admin/reports?status=pending", None),
    ]
    for method, path, body in cases:
        answer = site.admin(method, path, body)
        assert answer.status_code == 422, (path, body, answer.text)
        assert answer.json()["error"]
    assert site.admin("POST", "/api/admin/users/999/ban").status_code == 404
    assert site.admin("GET", "/api/admin/games/no-such-game").status_code == 404


def test_administrators_cannot_be_restrained_from_the_pages(site: Site) -> None:
    ra = account_id(site, "Ra")
    for action in ("ban", "delete", "unmute"):
        refused = site.admin("POST", f"/api/admin/users/{ra}/{action}")
        assert refused.status_code == 409 and "revoke the role" in refused.json()["error"]


# ---------------------------------------------------------------------- suspend and ban
def test_a_suspended_account_cannot_log_in_and_its_sessions_end(site: Site) -> None:
    bes = account_id(site, "Bes")
    assert site.be("Bes").get("/api/account").json()["account"]["name"] == "Bes"
    until = in_a_day()
    done = site.admin(
        "POST", f"/api/admin/users/{bes}/suspend", {"until": until, "reason": "flooding"}
    )
    assert done.status_code == 200, done.text
    assert done.json()["status"] == "suspended" and done.json()["suspended_until"]
    assert site.be("Bes").get("/api/account").json()["account"] is None  # the session ended
    assert site.sql("SELECT id FROM sessions WHERE account_id = :a", a=bes) == []
    refused = site.log_in("Bes")
    assert refused.status_code == 403 and "suspended until" in refused.json()["error"]
    wrong = site.client.post("/api/account/login", json={"name": "Bes", "password": "nope" * 3})
    assert wrong.status_code == 401  # a wrong password learns nothing of the suspension
    lifted = site.admin("POST", f"/api/admin/users/{bes}/unsuspend", {"reason": "apologised"})
    assert lifted.status_code == 200 and lifted.json()["status"] == "active"
    assert site.log_in("Bes").status_code == 200
    actions = [(row["action"], row["target"], row["admin"]) for row in site.audit()]
    assert actions == [("unsuspend", "Bes", "Ra"), ("suspend", "Bes", "Ra")]
    assert "flooding" in site.audit()[1]["detail"] and until[:10] in site.audit()[1]["detail"]


def test_a_suspension_ends_by_itself_and_a_ban_does_not(site: Site) -> None:
    bes = account_id(site, "Bes")
    site.admin("POST", f"/api/admin/users/{bes}/suspend", {"until": in_a_day()})
    past = utcnow() - dt.timedelta(minutes=1)
    site.sql("UPDATE accounts SET suspended_until = :t WHERE id = :a", t=past, a=bes)
    assert site.log_in("Bes").status_code == 200
    assert site.admin("GET", f"/api/admin/users/{bes}").json()["status"] == "active"
    banned = site.admin("POST", f"/api/admin/users/{bes}/ban", {"reason": "cheating"})
    assert banned.status_code == 200 and banned.json()["status"] == "banned"
    assert site.be("Bes").get("/api/account").json()["account"] is None
    refused = site.log_in("Bes")
    assert refused.status_code == 403 and "banned" in refused.json()["error"]
    assert [row["action"] for row in site.audit()] == ["ban", "suspend"]


def test_a_session_of_a_suspended_account_is_refused_even_if_it_survived(site: Site) -> None:
    """A session written back (say, by a race with the suspension) is refused all the same
    on every request."""
    bes = account_id(site, "Bes")
    saved = site.sql("SELECT id, account_id, csrf, created_at, expires_at FROM sessions")
    site.admin("POST", f"/api/admin/users/{bes}/ban")
    for row in saved:
        if row[1] == bes:
            site.sql(
                "INSERT INTO sessions (id, account_id, csrf, created_at, expires_at) "
                "VALUES (:i, :a, :c, :t, :e)",
                i=row[0],
                a=row[1],
                c=row[2],
                t=row[3],
                e=row[4],
            )
    assert site.sql("SELECT count(*) FROM sessions WHERE account_id = :a", a=bes)[0][0] == 1
    site.client.app.state.accounts.forget_sessions()  # type: ignore[attr-defined]
    assert site.be("Bes").get("/api/account").json()["account"] is None


# ---------------------------------------------------------------------- mute
def test_a_muted_account_cannot_chat_until_unmuted(site: Site) -> None:
    bes = account_id(site, "Bes")
    game_id, tokens = held_game(site)
    site.be("Bes")
    assert chat(site, game_id, "before").status_code == 201
    muted = site.admin("POST", f"/api/admin/users/{bes}/mute", {"until": in_a_day()})
    assert muted.status_code == 200 and muted.json()["muted_until"]
    site.be("Bes")
    refused = chat(site, game_id, "after")
    assert refused.status_code == 403 and "muted" in refused.json()["error"]
    by_link = chat(site, game_id, "by the link", token=tokens[1])  # the seat is the account's
    assert by_link.status_code == 403 and "muted" in by_link.json()["error"]
    assert chat(site, game_id, "another seat", token=tokens[0]).status_code == 201
    site.admin("POST", f"/api/admin/users/{bes}/unmute")
    site.be("Bes")
    assert chat(site, game_id, "again").status_code == 201
    assert [row["action"] for row in site.audit()] == ["unmute", "mute"]


# ---------------------------------------------------------------------- chat lines
def test_a_hidden_line_is_gone_for_everyone_and_kept_for_the_audit(site: Site) -> None:
    game_id, tokens = held_game(site)
    site.be("Bes")
    for line in ("hello", "something vile", "bye"):
        assert chat(site, game_id, line, token=tokens[0]).status_code == 201
    with site.client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()  # the view
        hidden = site.admin("POST", f"/api/admin/games/{game_id}/chat/2/hide", {"reason": "insult"})
        assert hidden.status_code == 200, hidden.text
        assert socket.receive_json() == {"event": "chat", "hidden": 2}
    for token in (None, tokens[0], tokens[1]):
        params = {"token": token} if token else {}
        lines = site.be(None).get(f"/api/games/{game_id}/chat", params=params).json()["lines"]
        assert [line["text"] for line in lines] == ["hello", "bye"]
    kept = site.admin("GET", f"/api/admin/games/{game_id}/chat").json()
    assert [(line["text"], line["hidden_by"]) for line in kept] == [
        ("hello", None),
        ("something vile", "Ra"),
        ("bye", None),
    ]
    again = site.admin("POST", f"/api/admin/games/{game_id}/chat/2/hide")
    assert again.status_code == 409
    assert site.admin("POST", f"/api/admin/games/{game_id}/chat/9/hide").status_code == 404
    [row] = site.audit()
    assert (row["action"], row["target"]) == ("hide_chat", f"{game_id} line 2")
    assert "something vile" in row["detail"] and "insult" in row["detail"]


# ---------------------------------------------------------------------- delete an account
def test_a_deleted_account_leaves_guests_seats_anonymous_lines_and_no_address(
    site: Site,
) -> None:
    bes = account_id(site, "Bes")
    game_id, tokens = held_game(site)
    site.be("Bes")
    assert chat(site, game_id, "I am Bes").status_code == 201
    site.sql(
        "INSERT INTO mail_preferences (account_id, address, confirmed_at, turn, invitation, "
        "daily, updated_at) VALUES (:a, 'bes@example.org', :t, true, true, false, :t)",
        a=bes,
        t=utcnow(),
    )
    site.sql(
        "INSERT INTO ratings (game, account_id, mu, sigma, games, wins, updated_at) "
        "VALUES ('amunre', :a, 25, 8, 1, 0, :t)",
        a=bes,
        t=utcnow(),
    )
    before = site.be(None).get(f"/api/games/{game_id}").json()
    assert before["players"][1]["held"] is True
    deleted = site.admin("POST", f"/api/admin/users/{bes}/delete", {"reason": "asked to"})
    assert deleted.status_code == 200, deleted.text
    assert deleted.json() == {"name": "Bes", "seats": 1, "chat_lines": 1}
    # the seat is a guest's: the link still plays it, no account holds it
    assert site.sql("SELECT account_id FROM seats WHERE game_id = :g AND seat = 1", g=game_id) == [
        (None,)
    ]
    after = site.be(None).get(f"/api/games/{game_id}").json()
    assert after["players"][1]["held"] is False  # the seat keeps its name: the record's
    assert after["players"][1]["name"] == before["players"][1]["name"]
    assert (
        site.be(None).get(f"/api/games/{game_id}", params={"token": tokens[1]}).json()["seat"] == 1
    )
    [line] = site.be(None).get(f"/api/games/{game_id}/chat").json()["lines"]
    assert line["account"] is None and line["name"] == "deleted player"
    assert line["text"] == "I am Bes"
    for table in ("accounts", "sessions", "mail_preferences", "ratings"):
        column = "id" if table == "accounts" else "account_id"
        found = site.sql(f"SELECT count(*) FROM {table} WHERE {column} = :a", a=bes)
        assert found[0][0] == 0, table
    assert site.sql("SELECT count(*) FROM mail_preferences WHERE address LIKE '%bes@%'") == [(0,)]
    assert site.be("Bes").get("/api/account").json()["account"] is None
    assert site.log_in("Bes").status_code == 401
    [row] = site.audit()
    assert (row["action"], row["target"]) == ("delete_account", "Bes")
    assert "asked to" in row["detail"]


# ---------------------------------------------------------------------- games
def test_an_aborted_game_is_over_unrated_and_its_sockets_hear(site: Site) -> None:
    game_id, tokens = held_game(site)
    seat = site.be(None).get(f"/api/games/{game_id}", params={"token": tokens[0]}).json()
    with site.client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[0]}") as socket:
        socket.receive_json()
        aborted = site.admin("POST", f"/api/admin/games/{game_id}/abort", {"reason": "stuck"})
        assert aborted.status_code == 200, aborted.text
        heard = socket.receive_json()
    assert heard["status"] == "aborted" and heard["to_move"] == [] and heard["legal"] == []
    assert heard["ended"]["how"] == "aborted" and "no winner" in heard["ended"]["reason"]
    assert aborted.json()["view"]["status"] == "aborted"
    move = {"version": heard["version"], "action": seat["legal"][0]["text"]}
    refused = site.client.post(
        f"/api/games/{game_id}/actions", params={"token": tokens[0]}, json=move
    )
    assert refused.status_code == 409 and "over" in refused.json()["error"]
    [(status, result)] = site.sql("SELECT status, result FROM games WHERE id = :g", g=game_id)
    assert status == "aborted" and "no winner" in str(result)
    again = site.admin("POST", f"/api/admin/games/{game_id}/abort")
    assert again.status_code == 409 and "over already" in again.json()["error"]
    ratings = site.client.app.state.ratings  # type: ignore[attr-defined]
    assert game_id not in ratings.store.unrated()  # never looked at by the ratings
    assert site.sql("SELECT count(*) FROM rating_events WHERE game_id = :g", g=game_id) == [(0,)]
    [row] = site.audit()
    assert (row["action"], row["target"], row["detail"]) == ("abort_game", game_id, "stuck")
    service: GameService = site.client.app.state.service  # type: ignore[attr-defined]
    assert service.running == 0


def test_an_aborted_game_is_listed_with_its_players_finished_games(site: Site) -> None:
    game_id, _tokens = held_game(site)
    assert [g["game_id"] for g in site.be("Bes").get("/api/me/games").json()["running"]] == [
        game_id
    ]
    assert site.admin("POST", f"/api/admin/games/{game_id}/abort").status_code == 200
    mine = site.be("Bes").get("/api/me/games").json()
    assert mine["running"] == []
    [listed] = mine["finished"]
    assert (listed["game_id"], listed["status"]) == (game_id, "aborted")


def test_an_aborted_game_stays_aborted_after_a_restart(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        site = Site(client, database)
        site.sign_up("Ra")
        client.app.state.admin.store.set_role(COMMAND_LINE, "Ra", "admin")  # type: ignore[attr-defined]
        created = create(
            client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}]
        )
        assert site.admin("POST", f"/api/admin/games/{created['id']}/abort").status_code == 200
        before = client.get(f"/api/games/{created['id']}").json()
    with TestClient(create_app(database, bot_workers=1)) as client:
        after = client.get(f"/api/games/{created['id']}").json()
        assert after == before and after["status"] == "aborted"
        service: GameService = client.app.state.service  # type: ignore[attr-defined]
        assert service.running == 0


def test_a_deleted_game_is_gone_from_memory_the_database_and_its_pages(site: Site) -> None:
    game_id, tokens = held_game(site)
    site.be(None)
    assert chat(site, game_id, "hi", token=tokens[0]).status_code == 201
    with site.client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        socket.receive_json()
        deleted = site.admin("POST", f"/api/admin/games/{game_id}/delete", {"reason": "spam"})
        assert deleted.status_code == 200, deleted.text
        heard = socket.receive_json()
    assert heard == {
        "event": "deleted",
        "game_id": game_id,
        "reason": "an administrator deleted this game",
    }
    gone = site.be(None).get(f"/api/games/{game_id}")
    assert gone.status_code == 410 and "deleted" in gone.json()["error"]
    for table in ("games", "seats", "actions", "chat_lines"):
        column = "id" if table == "games" else "game_id"
        found = site.sql(f"SELECT count(*) FROM {table} WHERE {column} = :g", g=game_id)
        assert found == [(0,)], table
    service: GameService = site.client.app.state.service  # type: ignore[attr-defined]
    assert game_id not in service.rooms and service.running == 0
    assert site.admin("POST", f"/api/admin/games/{game_id}/delete").status_code in (404, 410)
    [row] = site.audit()
    assert (row["action"], row["target"]) == ("delete_game", game_id)
    assert "spam" in row["detail"]


def test_the_admin_sees_a_running_game_as_a_spectator_does(site: Site) -> None:
    game_id, tokens = held_game(site)
    service: GameService = site.client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    truth = room.state
    assert isinstance(truth, AmunReState)
    seen = site.admin("GET", f"/api/admin/games/{game_id}").json()
    public = site.be(None).get(f"/api/games/{game_id}").json()
    seat = site.be(None).get(f"/api/games/{game_id}", params={"token": tokens[0]}).json()
    assert seen["view"] == public and seen["view"]["seat"] is None
    assert seat["observation"] != public["observation"]  # a seat sees its own hand
    assert [holder["name"] for holder in seen["holders"]] == ["Bes"]
    # everything hidden from spectators re-dealt: the administrator's view does not change
    room.state = redeal_hidden(truth, None, Rng(5))
    assert (
        site.be(None)
        .get(f"/api/games/{game_id}", params={"token": tokens[0]})
        .json()["observation"]
        != seat["observation"]
    )
    assert site.admin("GET", f"/api/admin/games/{game_id}").json() == seen
    room.state = truth


# ---------------------------------------------------------------------- finding people
def test_accounts_are_found_by_name_address_and_game(site: Site) -> None:
    site.sign_up("Bastet")
    site.sign_up("Sobek")
    game_id, _ = held_game(site, "Sobek")
    names = lambda path: [u["name"] for u in site.admin("GET", path).json()]  # noqa: E731
    assert names("/api/admin/users?name=b") == ["Bastet", "Bes"]
    assert names("/api/admin/users?name=%25") == []  # a wildcard is a character here
    assert names(f"/api/admin/users?game={game_id}") == ["Sobek"]
    # every account here was seen from ADDRESS (the test client's); another address finds none
    assert set(names(f"/api/admin/users?address={ADDRESS}")) == {"Ra", "Bes", "Bastet", "Sobek"}
    assert names("/api/admin/users?address=198.51.100.1") == []
    site.sql("UPDATE sessions SET client = NULL")
    site.sql("UPDATE games SET creator_client = NULL")
    site.client.app.state.accounts.forget_sessions()  # type: ignore[attr-defined]
    site.be("Bastet").get("/api/account")  # seen again from ADDRESS
    assert names(f"/api/admin/users?address={ADDRESS}") == ["Bastet", "Ra"]
    detail = site.admin("GET", f"/api/admin/users/{account_id(site, 'Sobek')}").json()
    assert detail["games"][0]["id"] == game_id and detail["games"][0]["seat"] == 1
    assert detail["email_confirmed"] is False and detail["reports"] == []
    assert "password_hash" not in detail


# ---------------------------------------------------------------------- password reset
class FakeRecovery:
    def __init__(self) -> None:
        self.asked: list[int] = []

    async def send_reset(self, account_id: int) -> bool:
        self.asked.append(account_id)
        return True


def test_a_password_reset_needs_a_confirmed_address(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    bes = account_id(site, "Bes")
    recovery = FakeRecovery()
    state = site.client.app.state  # type: ignore[attr-defined]
    real = getattr(state, "recovery", None)
    if real is not None:  # the server's own, its mail left alone: only the call is watched
        monkeypatch.setattr(real, "send_reset", recovery.send_reset)
    else:
        monkeypatch.setattr(state, "recovery", recovery, raising=False)
    refused = site.admin("POST", f"/api/admin/users/{bes}/password-reset")
    assert refused.status_code == 409 and "no confirmed e-mail" in refused.json()["error"]
    engine = make_engine(site.database)
    with engine.begin() as connection:
        connection.execute(
            MailPreferenceRow.__table__.insert().values(  # type: ignore[attr-defined]
                account_id=bes,
                address="bes@example.org",
                confirmed_at=utcnow(),
                turn=True,
                invitation=True,
                daily=False,
                updated_at=utcnow(),
            )
        )
    engine.dispose()
    sent = site.admin("POST", f"/api/admin/users/{bes}/password-reset")
    assert sent.status_code == 200 and sent.json()["queued"] is True
    assert recovery.asked == [bes]
    [row] = site.audit()
    assert (row["action"], row["target"]) == ("password_reset", "Bes")


# ---------------------------------------------------------------------- reports
def report(site: Site, who: str, body: dict[str, Any]) -> Any:
    client = site.be(who)
    return client.post("/api/reports", json=body, headers=csrf(client))


def test_players_report_lines_and_players_and_admins_close_them(site: Site) -> None:
    site.sign_up("Seth")
    game_id, _ = held_game(site, "Seth")
    site.be("Seth")
    assert chat(site, game_id, "you all stink").status_code == 201
    line = report(site, "Bes", {"kind": "chat", "game_id": game_id, "line": 1, "reason": "rude"})
    assert line.status_code == 201, line.text
    assert line.json()["target_name"] == "Seth" and line.json()["line_text"] == "you all stink"
    player = report(site, "Bes", {"kind": "player", "player": "seth", "reason": "rude always"})
    assert player.status_code == 201 and player.json()["target_name"] == "Seth"
    twice = report(site, "Bes", {"kind": "player", "player": "Seth", "reason": "again"})
    assert twice.status_code == 409 and "already" in twice.json()["error"]
    myself = report(site, "Bes", {"kind": "player", "player": "Bes", "reason": "me"})
    assert myself.status_code == 422
    assert (
        report(site, "Bes", {"kind": "player", "player": "Nobody", "reason": "x"}).status_code
        == 404
    )
    no_line = {"kind": "chat", "game_id": game_id, "line": 7, "reason": "x"}
    assert report(site, "Bes", no_line).status_code == 404
    for bad in (
        {"kind": "chat", "game_id": game_id, "reason": "no line"},
        {"kind": "player", "player": "Seth", "line": 1, "reason": "mixed"},
        {"kind": "player", "player": "Seth", "reason": "x" * 501},
        {"kind": "player", "player": "Seth", "reason": "   "},
        {"kind": "spam", "player": "Seth", "reason": "x"},
    ):
        assert report(site, "Bes", bad).status_code == 422, bad
    assert (
        site.be(None)
        .post("/api/reports", json={"kind": "player", "player": "Seth", "reason": "x"})
        .status_code
        == 401
    )
    assert (
        site.be("Bes")
        .post("/api/reports", json={"kind": "player", "player": "Seth", "reason": "x"})
        .status_code
        == 403
    )
    listed = site.admin("GET", "/api/admin/reports").json()
    assert [r["kind"] for r in listed] == ["player", "chat"] and listed[0]["status"] == "open"
    seth = site.admin("GET", f"/api/admin/users/{account_id(site, 'Seth')}").json()
    assert len(seth["reports"]) == 2
    closed = site.admin("POST", f"/api/admin/reports/{listed[1]['id']}/close", {"note": "muted"})
    assert closed.status_code == 200 and closed.json()["closed_by"] == "Ra"
    assert [r["id"] for r in site.admin("GET", "/api/admin/reports").json()] == [listed[0]["id"]]
    done = site.admin("GET", "/api/admin/reports?status=closed").json()
    assert [(r["id"], r["note"]) for r in done] == [(listed[1]["id"], "muted")]
    again = site.admin("POST", f"/api/admin/reports/{listed[1]['id']}/close", {"note": "x"})
    assert again.status_code == 409
    [row] = site.audit()
    assert (row["action"], row["target"], row["detail"]) == (
        "close_report",
        f"report {listed[1]['id']}",
        "muted",
    )


def test_reports_are_limited_per_hour(database: str) -> None:
    from karnak.server.limits import ServerSettings

    settings = ServerSettings(reports_per_hour=2, creates_per_minute=1000)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        site = Site(client, database)
        for name in ("Ana", "Bes", "Ka", "Seth"):
            site.sign_up(name)
        for name in ("Ana", "Ka"):
            assert (
                report(site, "Bes", {"kind": "player", "player": name, "reason": "x"}).status_code
                == 201
            )
        refused = report(site, "Bes", {"kind": "player", "player": "Seth", "reason": "x"})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert (
            report(site, "Ana", {"kind": "player", "player": "Seth", "reason": "x"}).status_code
            == 201
        )


# ---------------------------------------------------------------------- the audit log
def test_the_audit_log_cannot_be_changed_through_the_api(site: Site) -> None:
    bes = account_id(site, "Bes")
    site.admin("POST", f"/api/admin/users/{bes}/ban")
    client = site.be("Ra")
    for method in ("put", "patch", "delete", "post"):
        answer = getattr(client, method)("/api/admin/audit", headers=csrf(client))
        assert answer.status_code == 405, method
    assert [row["action"] for row in site.audit()] == ["ban"]
    listed = site.admin("GET", "/api/admin/audit?limit=1").json()
    older = site.admin("GET", f"/api/admin/audit?before={listed[0]['id']}").json()
    assert [row["action"] for row in older] == ["grant"]


def test_the_admin_page_is_served(site: Site) -> None:
    page = site.be(None).get("/admin")
    assert page.status_code == 200 and "/static/admin.js" in page.text
    assert site.be(None).get("/static/admin.js").status_code == 200


def test_the_admin_migration_goes_down_and_up(database: str) -> None:
    from sqlalchemy import inspect

    from karnak.server.db import migrate, run_migrations

    engine = make_engine(database)
    try:
        migrate(engine)
        run_migrations(engine, "downgrade", "0012_tables_repair")
        tables = inspect(engine).get_table_names()
        assert "reports" not in tables and "admin_audit" not in tables
        assert "role" not in {c["name"] for c in inspect(engine).get_columns("accounts")}
        migrate(engine)
        assert {"role", "status", "suspended_until", "muted_until"} <= {
            c["name"] for c in inspect(engine).get_columns("accounts")
        }
        with engine.connect() as connection:
            roles = connection.execute(select(AccountRow.role)).all()
        assert roles == []
    finally:
        engine.dispose()

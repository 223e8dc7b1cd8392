"""Open tables: created with open seats, joined by accounts (their session) and guests (a
name, then a ticket that becomes the seat's link), started when full or filled with bots by
the creator, cancelled, left, invitations kept and withdrawn; bounds and expiry; the public
list shows public facts only; the migration on both databases."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from karnak.server.app import create_app
from karnak.server.db import make_engine, migrate, run_migrations
from karnak.server.limits import ServerSettings
from karnak.server.rooms import hash_token
from karnak.server.service import CreateError, GameService, SeatRequest
from karnak.server.tables.service import SWEEP_EVERY, TABLE_LIFETIME, TableService
from support.clock import FakeClock

from .test_accounts import csrf, sign_up


# ---------------------------------------------------------------------- helpers
class People:
    """Several browsers sharing one test client: each person's cookies, put in to act."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jars: dict[str, dict[str, str]] = {}
        self.ids: dict[str, int] = {}

    def sign_up(self, name: str) -> int:
        self.client.cookies.clear()
        account: int = sign_up(self.client, name).json()["account"]["id"]
        self.jars[name] = dict(self.client.cookies)
        self.ids[name] = account
        return account

    def be(self, name: str | None) -> None:
        """Act as ``name`` (None: a guest, no cookies)."""
        self.client.cookies.clear()
        if name is not None:
            self.client.cookies.update(self.jars[name])


@pytest.fixture
def people(client: TestClient) -> Iterator[People]:
    yield People(client)


def tables_of(client: TestClient) -> TableService:
    tables: TableService = client.app.state.tables  # type: ignore[attr-defined]
    return tables


def games_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def new_table(
    client: TestClient, seats: list[dict[str, Any]], game: str = "amunre", **extra: Any
) -> dict[str, Any]:
    response = client.post(
        "/api/tables", json={"game": game, "seats": seats, **extra}, headers=csrf(client)
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def join(client: TestClient, table_id: str, ticket: str | None = None, **body: Any) -> Any:
    headers = {"X-Karnak-Ticket": ticket} if ticket else csrf(client)
    return client.post(f"/api/tables/{table_id}/join", json=body, headers=headers)


def act(
    client: TestClient, table_id: str, what: str, ticket: str | None = None, **body: Any
) -> Any:
    headers = {"X-Karnak-Ticket": ticket} if ticket else csrf(client)
    return client.post(f"/api/tables/{table_id}/{what}", json=body, headers=headers)


def notes(client: TestClient) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = client.get("/api/notifications").json()["notifications"]
    return listed


def guest_and_two_open() -> list[dict[str, Any]]:
    return [{"kind": "human", "name": "Ana"}, {"kind": "open"}, {"kind": "open"}]


# ---------------------------------------------------------------------- guests
def test_guests_fill_a_table_and_their_tickets_become_their_links(client: TestClient) -> None:
    made = new_table(client, guest_and_two_open())
    table, ana = made["table"], made["ticket"]
    assert made["created"] and ana and table["status"] == "open"
    assert table["you"] == {"creator": True, "seat": 0, "invited_seat": None}
    listed = client.get("/api/tables").json()
    assert [t["id"] for t in listed] == [table["id"]]
    assert [s["state"] for s in listed[0]["seats"]] == ["taken", "open", "open"]
    assert listed[0]["seats"][0] == {
        "seat": 0,
        "state": "taken",
        "name": "Ana",
        "by": "guest",
        "bot": None,
        "invited": None,
    }
    assert listed[0]["you"] is None and ana not in client.get("/api/tables").text

    bes = join(client, table["id"], name="Bes")
    assert bes.status_code == 200, bes.text
    bes_ticket = bes.json()["ticket"]
    assert bes.json()["table"]["you"]["seat"] == 1 and bes.json()["table"]["status"] == "open"
    ka = join(client, table["id"], name="Ka", seat=2)
    assert ka.status_code == 200, ka.text
    started = ka.json()["table"]
    assert started["status"] == "started" and started["game_id"]
    assert started["url"] == f"/games/{started['game_id']}?token={ka.json()['ticket']}"
    assert client.get("/api/tables").json() == []  # no longer open
    # each guest's ticket is their seat's link; the creator's ticket leads to the game too
    for seat, ticket in enumerate((ana, bes_ticket, ka.json()["ticket"])):
        mine = client.get(f"/api/tables/{table['id']}", params={"ticket": ticket}).json()
        assert mine["url"] == f"/games/{started['game_id']}?token={ticket}"
        view = client.get(f"/api/games/{started['game_id']}", params={"token": ticket}).json()
        assert view["seat"] == seat
        assert [p["name"] for p in view["players"]] == ["Ana", "Bes", "Ka"]
        assert not any(p["held"] for p in view["players"])
    # the server keeps the tickets' hashes only
    room = games_of(client).rooms[started["game_id"]]
    assert room.seats[1].token_hash == hash_token(bes_ticket)
    again = join(client, table["id"], name="Nut")
    assert again.status_code == 409 and "started" in again.json()["error"]


def test_guest_names_are_checked(client: TestClient, people: People) -> None:
    people.sign_up("Hatshepsut")
    people.be(None)
    table = new_table(client, guest_and_two_open())["table"]
    cases = [
        ({}, 422, "with a name"),
        ({"name": "  "}, 422, "with a name"),
        ({"name": "hatshepsut"}, 422, "belongs to an account"),
        ({"name": "ANA"}, 409, "taken at this table"),
        ({"name": "Bes\u202e"}, 422, "control characters"),
        ({"name": "x" * 41}, 422, "at most 40"),
        ({"name": "Bes", "seat": 0}, 409, "seat 1 is taken"),
        ({"name": "Bes", "seat": 7}, 422, "seats 0 to 2"),
        ({"name": "Bes", "seat": -1}, 422, "is too small: at least 0"),
        ({"name": "Bes", "nick": "B"}, 422, "nick"),
    ]
    for body, status, words in cases:
        response = join(client, table["id"], **body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["error"], (body, response.text)
    made = client.post(
        "/api/tables",
        json={
            "game": "amunre",
            "seats": [{"kind": "human", "name": "Hatshepsut"}, *[{"kind": "open"}] * 2],
        },
    )
    assert made.status_code == 422 and "belongs to an account" in made.json()["error"]


def test_a_ticket_of_nobody_opens_nothing(client: TestClient) -> None:
    table = new_table(client, guest_and_two_open())["table"]
    for response in (
        client.get(f"/api/tables/{table['id']}", params={"ticket": "not-a-ticket"}),
        join(client, table["id"], ticket="not-a-ticket", name="Bes"),
        act(client, table["id"], "cancel", ticket="not-a-ticket"),
    ):
        assert response.status_code == 403, response.text
    for bad in ("nope", "x" * 65, "a b"):
        assert client.get(f"/api/tables/{bad}").status_code == 404


# ---------------------------------------------------------------------- accounts
def test_accounts_join_with_their_session_and_hold_their_seats(
    client: TestClient, people: People
) -> None:
    ana, bes = people.sign_up("Ana"), people.sign_up("Bes")
    people.be("Ana")
    made = new_table(client, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "bot": "easy"}])
    table = made["table"]
    assert made["ticket"] is None  # an account needs none
    assert table["seats"][0]["name"] == "Ana" and table["seats"][0]["by"] == "account"
    assert table["seats"][2]["bot"] == "random"  # the level "easy" is the random bot
    people.be("Bes")
    no_csrf = client.post(f"/api/tables/{table['id']}/join", json={})
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.json()["error"]
    joined = join(client, table["id"])
    assert joined.status_code == 200, joined.text
    started = joined.json()["table"]
    game_id = started["game_id"]
    assert started["status"] == "started" and started["url"] == f"/games/{game_id}"
    # the seats are the accounts': their sessions open them, no link needed
    assert client.get(f"/api/games/{game_id}").json()["seat"] == 1
    people.be("Ana")
    view = client.get(f"/api/games/{game_id}").json()
    assert view["seat"] == 0
    assert [p["held"] for p in view["players"]] == [True, True, False]
    room = games_of(client).rooms[game_id]
    assert [s.account for s in room.seats] == [ana, bes, None]
    # the creator is told that it started; the one whose join started it saw it at once.
    # A game's notices are grouped (karnak.server.notifications): once the bot has moved,
    # Ana's "turn" may have replaced the "table" one (the newest of a game is kept).
    told = [n for n in notes(client) if n["link"] == f"/games/{game_id}"]
    assert len(told) == 1 and told[0]["kind"] in ("table", "turn")
    if told[0]["kind"] == "table":  # the bot is named by its level (karnak.server.bot_names)
        text = told[0]["text"]
        assert text.startswith("Your table of Amun-Re (with Bes and Easy bot) has started")
    people.be("Bes")
    assert [n for n in notes(client) if n["kind"] == "table"] == []


def test_the_creator_fills_the_rest_with_bots_at_any_time(
    client: TestClient, people: People
) -> None:
    made = new_table(client, [{"kind": "human", "name": "Ana"}, *[{"kind": "open"}] * 3])
    table, ana = made["table"], made["ticket"]
    bes = join(client, table["id"], name="Bes").json()["ticket"]
    refused = act(client, table["id"], "start", ticket=bes)
    assert refused.status_code == 403 and "creator" in refused.json()["error"]
    assert act(client, table["id"], "start", ticket=ana, bot="legendary").status_code == 422
    started = act(client, table["id"], "start", ticket=ana, bot="medium")
    assert started.status_code == 200, started.text
    body = started.json()
    assert body["status"] == "started"
    assert [s["state"] for s in body["seats"]] == ["taken", "taken", "bot", "bot"]
    assert [s["bot"] for s in body["seats"][2:]] == ["heuristic", "heuristic"]
    room = games_of(client).rooms[body["game_id"]]
    assert [s.name for s in room.seats] == ["Ana", "Bes", "Medium bot 1", "Medium bot 2"]
    assert act(client, table["id"], "start", ticket=ana).status_code == 409


def test_bots_get_free_names_at_the_start(client: TestClient) -> None:
    made = new_table(
        client, [{"kind": "human", "name": "Black"}, {"kind": "open"}, {"kind": "open"}]
    )
    table = made["table"]
    join(client, table["id"], name="Medium bot")
    started = act(client, table["id"], "start", ticket=made["ticket"]).json()
    room = games_of(client).rooms[started["game_id"]]
    # a bot is named by its level (Medium by default), never with a name a person took
    assert [s.name for s in room.seats] == ["Black", "Medium bot", "Medium bot 2"]


def test_leave_and_cancel(client: TestClient, people: People) -> None:
    people.sign_up("Bes")
    people.be(None)
    made = new_table(client, guest_and_two_open())
    table, ana = made["table"], made["ticket"]
    people.be("Bes")
    assert join(client, table["id"]).status_code == 200
    assert join(client, table["id"]).status_code == 409  # sits there already
    left = act(client, table["id"], "leave")
    assert left.status_code == 200 and left.json()["seats"][1]["state"] == "open"
    assert act(client, table["id"], "leave").status_code == 409
    assert join(client, table["id"], seat=2).status_code == 200
    refused = act(client, table["id"], "cancel")
    assert refused.status_code == 403 and "creator" in refused.json()["error"]
    people.be(None)
    cancelled = act(client, table["id"], "cancel", ticket=ana)
    assert cancelled.status_code == 200 and cancelled.json() == {"cancelled": True}
    assert client.get(f"/api/tables/{table['id']}").status_code == 404
    assert client.get("/api/tables").json() == []
    people.be("Bes")
    told = notes(client)
    assert [n["kind"] for n in told] == ["table"] and "cancelled" in told[0]["text"]
    # a started table cannot be cancelled
    people.be(None)
    made = new_table(client, [{"kind": "human", "name": "Ana"}, {"kind": "open"}, {"kind": "bot"}])
    act(client, made["table"]["id"], "start", ticket=made["ticket"], bot="easy")
    late = act(client, made["table"]["id"], "cancel", ticket=made["ticket"])
    assert late.status_code == 409 and "started" in late.json()["error"]


# ---------------------------------------------------------------------- invitations
def test_an_invitation_keeps_a_seat_for_its_account(client: TestClient, people: People) -> None:
    people.sign_up("Ana")
    bes = people.sign_up("Bes")
    people.sign_up("Ka")
    people.be("Ana")
    table = new_table(client, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])["table"]
    missing = act(client, table["id"], "invite", seat=1, name="Nobody")
    assert missing.status_code == 422 and "no account named" in missing.json()["error"]
    assert act(client, table["id"], "invite", seat=0, name="Bes").status_code == 409
    assert act(client, table["id"], "invite", seat=1, name="ana").status_code == 409
    invited = act(client, table["id"], "invite", seat=1, name="bes")
    assert invited.status_code == 200, invited.text
    assert invited.json()["seats"][1] == {
        "seat": 1,
        "state": "reserved",
        "name": None,
        "by": None,
        "bot": None,
        "invited": "Bes",
    }
    # a guest cannot take the seat kept for Bes, nor may anyone but the creator invite
    people.be(None)
    kept = join(client, table["id"], name="Nut", seat=1)
    assert kept.status_code == 409 and "kept for an invited player" in kept.json()["error"]
    people.be("Ka")
    assert act(client, table["id"], "invite", seat=2, name="Bes").status_code == 403
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][1]["invited"] is None
    # Bes was told, with a link to the table
    people.be("Bes")
    told = notes(client)
    assert [(n["kind"], n["link"]) for n in told] == [("invitation", f"/tables/{table['id']}")]
    assert told[0]["text"] == (
        "Ana invites you to a table of Amun-Re (3 players): seat 2 is kept for you."
    )
    mine = client.get(f"/api/tables/{table['id']}").json()
    assert mine["you"] == {"creator": False, "seat": None, "invited_seat": 1}
    assert mine["seats"][1]["invited"] == "Bes"
    joined = join(client, table["id"])  # no seat named: the one kept for Bes
    assert joined.status_code == 200 and joined.json()["table"]["you"]["seat"] == 1
    games = games_of(client)
    assert joined.json()["table"]["status"] == "open" and len(games.rooms) == 0
    # withdrawn: the seat is anyone's again
    people.be("Ana")
    act(client, table["id"], "invite", seat=2, name="Ka")
    withdrawn = act(client, table["id"], "withdraw", seat=2)
    assert withdrawn.status_code == 200 and withdrawn.json()["seats"][2]["state"] == "open"
    assert act(client, table["id"], "withdraw", seat=2).status_code == 409
    people.be(None)
    assert join(client, table["id"], name="Nut", seat=2).status_code == 200
    assert bes in [s.account for s in next(iter(games.rooms.values())).seats]


def test_an_invited_account_may_decline(client: TestClient, people: People) -> None:
    people.sign_up("Ana")
    people.sign_up("Bes")
    people.be("Ana")
    table = new_table(
        client, [{"kind": "human"}, {"kind": "open", "invite": "Bes"}, {"kind": "open"}]
    )["table"]
    assert table["seats"][1]["state"] == "reserved"
    people.be("Bes")
    assert [n["kind"] for n in notes(client)] == ["invitation"]
    declined = act(client, table["id"], "leave")
    assert declined.status_code == 200 and declined.json()["seats"][1]["state"] == "open"


def test_invitations_are_bounded(client: TestClient, people: People) -> None:
    for name in ("Ana", "Bes", "Ka", "Nut"):
        people.sign_up(name)
    people.be("Ana")
    table = new_table(client, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])["table"]
    sent = 0
    for name in ["Bes", "Ka", "Nut", "Bes", "Ka", "Nut"]:
        assert act(client, table["id"], "invite", seat=1, name=name).status_code == 200
        sent += 1
    assert act(client, table["id"], "invite", seat=1, name="Nut").status_code == 200  # kept
    over = act(client, table["id"], "invite", seat=1, name="Bes")
    assert over.status_code == 422 and "invitations" in over.json()["error"]
    assert sent == 6


# ---------------------------------------------------------------------- bounds
@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "open"}]}, "one at most"),
        ({"seats": [{"kind": "open"}] * 6}, "3 to 5 players"),
        ({"seats": [{"kind": "open"}] * 100}, "at most 99"),
        ({"seats": [{"kind": "open"}, {"kind": "robot"}, {"kind": "open"}]}, "seats.1.kind"),
        ({"seats": [{"kind": "open"}] * 3, "turn_timer": 0.5}, "is too small: at least 1"),
        ({"seats": [{"kind": "open"}] * 3, "options": {"colour": "red"}}, "no option"),
        ({"game": "chess", "seats": [{"kind": "open"}] * 3}, "unknown game"),
        (
            {"seats": [{"kind": "bot", "bot": "ismcts:600s"}, {"kind": "open"}, {"kind": "open"}]},
            "at most",
        ),
        (
            {
                "seats": [
                    {"kind": "bot", "name": "X"},
                    {"kind": "bot", "name": "x"},
                    {"kind": "open"},
                ]
            },
            "names must differ",
        ),
        (
            {"seats": [{"kind": "open", "invite": "x" * 41}, {"kind": "open"}, {"kind": "open"}]},
            "at most 40",
        ),
    ],
)
def test_bad_tables_are_refused_clearly(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    response = client.post("/api/tables", json={"game": "amunre", **body})
    assert response.status_code == 422, response.text
    assert words in response.json()["error"]


def test_one_client_holds_a_bounded_number_of_open_tables(database: str) -> None:
    settings = ServerSettings(creates_per_minute=1000, open_tables_per_client=2)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        people = People(client)
        people.sign_up("Hori")
        people.be(None)
        first = new_table(client, guest_and_two_open())
        new_table(client, guest_and_two_open())
        over = client.post("/api/tables", json={"game": "amunre", "seats": guest_and_two_open()})
        assert over.status_code == 422, over.text
        assert "open_tables_per_client" in over.json()["error"]
        # the same address joining another's table counts too; an account counts apart
        people.be("Hori")
        other = new_table(client, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])
        people.be(None)
        assert join(client, other["table"]["id"], name="Bes").status_code == 422
        act(client, first["table"]["id"], "cancel", ticket=first["ticket"])
        assert join(client, other["table"]["id"], name="Bes").status_code == 200


def test_a_full_server_refuses_new_tables_with_retry_after(client: TestClient) -> None:
    tables_of(client).max_open = 1
    new_table(client, guest_and_two_open())
    full = client.post("/api/tables", json={"game": "amunre", "seats": guest_and_two_open()})
    assert full.status_code == 429 and int(full.headers["Retry-After"]) >= 1
    assert "open tables" in full.json()["error"]


def test_tables_expire(client: TestClient) -> None:
    """A table not started within its lifetime (a day) is gone at once and deleted by the
    next sweep (at most every SWEEP_EVERY seconds), on a fake clock."""
    clock = FakeClock()
    tables = tables_of(client)
    tables.clock = clock.utcnow
    made = new_table(client, guest_and_two_open())
    table_id = made["table"]["id"]
    expires = clock.utcnow() + dt.timedelta(seconds=TABLE_LIFETIME)
    assert client.get("/api/tables").json()[0]["expires_at"] == expires.isoformat()
    clock.advance(TABLE_LIFETIME - 1)
    assert [t["id"] for t in client.get("/api/tables").json()] == [table_id]
    clock.advance(2)  # the last sweep was two seconds ago: none now
    assert client.get("/api/tables").json() == []
    gone = join(client, table_id, name="Bes")
    assert gone.status_code == 404 and "expired" in gone.json()["error"]
    assert tables.store.load(table_id) is not None  # expired, not deleted yet
    clock.advance(SWEEP_EVERY)
    client.get("/api/tables")  # the sweep deletes it
    assert tables.store.load(table_id) is None


def test_creating_and_joining_count_as_game_creations(database: str) -> None:
    settings = ServerSettings(creates_per_minute=2)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        table = new_table(client, guest_and_two_open())["table"]
        assert join(client, table["id"], name="Bes").status_code == 200
        refused = join(client, table["id"], name="Ka")
        assert refused.status_code == 429 and "Retry-After" in refused.headers


def test_a_table_without_open_seats_starts_at_once(client: TestClient) -> None:
    made = new_table(client, [{"kind": "human", "name": "Ana"}], game="egyptia")
    assert made["table"]["status"] == "started"
    game_id = made["table"]["game_id"]
    assert made["table"]["url"] == f"/games/{game_id}?token={made['ticket']}"
    assert client.get(f"/api/games/{game_id}", params={"token": made["ticket"]}).json()["seat"] == 0


def test_seat_requests_bind_accounts_once_and_never_to_bots(
    client: TestClient, people: People
) -> None:
    ana = people.sign_up("Ana")
    service = games_of(client)
    for seats in (
        [SeatRequest(account=ana), SeatRequest(account=ana), SeatRequest()],
        [SeatRequest(account=ana), SeatRequest("bot", bot="random", account=ana), SeatRequest()],
    ):
        with pytest.raises(CreateError, match="one person's seat"):
            client.portal.call(service.create, "amunre", seats)  # type: ignore[union-attr]
    created = client.portal.call(  # type: ignore[union-attr]
        service.create,
        "amunre",
        [SeatRequest(account=ana), SeatRequest(token_hash="ab" * 32), SeatRequest()],
    )
    assert created.tokens[1] is None and created.tokens[0] and created.tokens[2]
    assert created.room.seats[1].token_hash == "ab" * 32
    assert created.room.seats[0].account == ana


# ---------------------------------------------------------------------- what strangers see
def public_bytes(client: TestClient, table_id: str) -> list[str]:
    """All a stranger can fetch about a table, as text (ids and times taken out)."""
    return [client.get("/api/tables").text, client.get(f"/api/tables/{table_id}").text]


def test_the_public_list_shows_no_hidden_facts(client: TestClient, people: People) -> None:
    """Whom a reserved seat is kept for, the guests' tickets and who created the table are
    not public: the list and the table stay byte-identical when they change."""
    for name in ("Ana", "Bes", "Ka"):
        people.sign_up(name)
    people.be("Ana")
    table = new_table(
        client, [{"kind": "human"}, {"kind": "open", "invite": "Bes"}, {"kind": "open"}]
    )["table"]
    people.be(None)
    before = public_bytes(client, table["id"])
    assert "Bes" not in before[0] and "Bes" not in before[1]
    people.be("Ana")
    assert act(client, table["id"], "invite", seat=1, name="Ka").status_code == 200
    people.be(None)
    assert public_bytes(client, table["id"]) == before
    # a guest's ticket, and who holds which, never shows
    joined = join(client, table["id"], name="Nut", seat=2).json()
    after = public_bytes(client, table["id"])
    assert joined["ticket"] not in "".join(after)
    assert after != before  # a taken seat is public: the comparison can see changes


# ---------------------------------------------------------------------- the migration
def test_the_tables_migration_goes_down_and_up(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        new_table(client, guest_and_two_open())
    engine = make_engine(database)
    assert {"game_tables", "table_seats"} <= set(inspect(engine).get_table_names())
    run_migrations(engine, "downgrade", "0005_tables@0004")
    names = set(inspect(engine).get_table_names())
    assert "game_tables" not in names and "table_seats" not in names
    assert "games" in names and "accounts" in names
    migrate(engine)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT count(*) FROM game_tables")).scalar_one() == 0
    engine.dispose()
    with TestClient(create_app(database, bot_workers=0)) as client:
        assert new_table(client, guest_and_two_open())["table"]["status"] == "open"


def test_a_table_gives_its_game_the_time_bank_it_was_made_with(client: TestClient) -> None:
    """Turn-based play starts from open tables, so a table takes a time bank like a game
    created directly; it is checked at creation (a table never fails to start over it) and
    a rematch keeps it."""
    control = {"per_move": 86400.0, "bank": 259200.0}
    made = new_table(client, guest_and_two_open(), time_control=control)
    table, ticket = made["table"], made["ticket"]
    assert table["time_control"] == control
    listed = client.get("/api/tables").json()
    assert listed[0]["time_control"] == control  # the public list says how fast it plays
    started = act(client, table["id"], "start", ticket=ticket, bot="easy")
    assert started.status_code == 200, started.text
    room = games_of(client).rooms[started.json()["game_id"]]
    assert room.time_control is not None and room.time_control.to_json() == control
    view = client.get(f"/api/games/{room.id}", params={"token": ticket}).json()
    assert view["players"][0]["clock"]["bank"] == control["bank"]
    for body, words in (
        ({"time_control": control, "turn_timer": 60}, "not both"),
        ({"time_control": {"per_move": 10, "bank": 0}}, "is too small: at least"),
        ({"time_control": {"per_move": 3600, "bank": 10**9}}, "is too large: at most"),
        ({"time_control": {"per_move": 3600}}, "bank"),
    ):
        refused = client.post(
            "/api/tables", json={"game": "amunre", "seats": guest_and_two_open(), **body}
        )
        assert refused.status_code == 422, refused.text
        assert words in refused.json()["error"], refused.json()

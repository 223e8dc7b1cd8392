"""The rematch: from a finished game, any seat holder (link or session) asks for the same
table again, seats moved on by one, the same bots, the accounts invited, the guests' seats
open; asked again, the same table; it starts like any table. On SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from karnak.server.service import GameService

from .test_accounts import csrf
from .test_my_games import mine_game
from .test_ratings import finish
from .test_tables import People, act, join, notes, people  # noqa: F401 (a fixture)

THREE = [{"mine": True}, {"name": "Guest"}, {"kind": "bot", "bot": "random", "name": "Sobek"}]


def games_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def rematch(client: TestClient, game_id: str, token: str | None = None) -> Any:
    headers = {"X-Karnak-Token": token} if token else csrf(client)
    return client.post(f"/api/games/{game_id}/rematch", headers=headers)


def finished_game(client: TestClient, seats: list[dict[str, Any]]) -> tuple[str, list[Any]]:
    game_id, tokens = mine_game(client, "egyptia", seats, seed=3)
    finish(client, game_id, tokens)
    return game_id, tokens


def test_a_rematch_rotates_the_seats_and_is_made_once(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    ana = people.sign_up("Ana")
    people.be("Ana")
    game_id, tokens = mine_game(client, "egyptia", THREE, seed=3)
    early = rematch(client, game_id)
    assert early.status_code == 409 and "over" in early.json()["error"]
    finish(client, game_id, tokens)
    asked = rematch(client, game_id)
    assert asked.status_code == 200, asked.text
    body = asked.json()
    table = body["table"]
    assert body["created"] and body["ticket"] is None
    assert table["game"] == "egyptia" and table["rematch_of"] == game_id
    assert table["options"] == games_of(client).rooms[game_id].state.options
    # seat 1 -> 2, 2 -> 3, 3 -> 1: the bot first, Ana second, the guest's seat open
    assert [(s["state"], s["name"]) for s in table["seats"]] == [
        ("bot", "Sobek"),
        ("taken", "Ana"),
        ("open", None),
    ]
    assert table["seats"][0]["bot"] == "random"
    assert table["you"] == {"creator": True, "seat": 1, "invited_seat": None}
    # asked again, by anyone of the game: the same table; the guest takes their new seat
    again = rematch(client, game_id)
    assert again.json()["table"]["id"] == table["id"] and not again.json()["created"]
    people.be(None)
    guest = rematch(client, game_id, tokens[1])
    assert guest.status_code == 200, guest.text
    started = guest.json()["table"]
    ticket = guest.json()["ticket"]
    assert started["id"] == table["id"] and started["status"] == "started"
    assert started["url"] == f"/games/{started['game_id']}?token={ticket}"
    room = games_of(client).rooms[started["game_id"]]
    assert [s.name for s in room.seats] == ["Sobek", "Ana", "Guest"]
    assert [s.account for s in room.seats] == [None, ana, None]
    assert client.get(started["url"]).status_code == 200
    assert (
        client.get(f"/api/games/{started['game_id']}", params={"token": ticket}).json()["seat"] == 2
    )
    # Ana is told that it started (the guest's request started it)
    people.be("Ana")
    assert any(n["kind"] == "table" for n in notes(client))
    assert rematch(client, game_id).json()["table"]["status"] == "started"


def test_the_accounts_of_the_old_game_are_invited(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Ana")
    bes = people.sign_up("Bes")
    people.be("Ana")
    game_id, tokens = mine_game(client, "egyptia", [{"mine": True}, {"name": "Bes"}], seed=4)
    room = games_of(client).rooms[game_id]
    client.portal.call(games_of(client).claim_seat, room, 1, bes)  # type: ignore[union-attr]
    finish(client, game_id, tokens)
    people.be("Bes")
    asked = rematch(client, game_id)  # Bes asks, by the session
    assert asked.status_code == 200, asked.text
    table = asked.json()["table"]
    assert [(s["state"], s["name"], s["invited"]) for s in table["seats"]] == [
        ("taken", "Bes", None),
        ("reserved", None, "Ana"),
    ]
    people.be("Ana")
    [told] = [n for n in notes(client) if n["kind"] == "invitation"]
    assert told["link"] == f"/tables/{table['id']}"
    assert told["text"] == "Bes asks for a rematch of Egyptia: seat 2 is kept for you."
    people.be(None)  # a guest cannot take the seat kept for Ana
    assert join(client, table["id"], name="Nut").status_code == 409
    people.be("Ana")
    joined = join(client, table["id"])
    assert joined.status_code == 200, joined.text
    assert joined.json()["table"]["status"] == "started"


def test_a_guest_asks_by_link_and_fills_with_bots(client: TestClient) -> None:
    seats = [{"name": "Ana"}, {"name": "Bes"}]
    created = client.post("/api/games", json={"game": "egyptia", "seats": seats, "seed": 5}).json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    finish(client, game_id, tokens)
    assert client.post(f"/api/games/{game_id}/rematch").status_code == 403  # a spectator
    assert rematch(client, game_id, "not-a-token").status_code == 403
    assert client.post("/api/games/nope/rematch").status_code == 404
    asked = rematch(client, game_id, tokens[0])
    assert asked.status_code == 200, asked.text
    table, ticket = asked.json()["table"], asked.json()["ticket"]
    assert ticket and [(s["state"], s["name"]) for s in table["seats"]] == [
        ("open", None),
        ("taken", "Ana"),
    ]
    assert act(client, table["id"], "start", ticket=tokens[1]).status_code == 403
    started = act(client, table["id"], "start", ticket=ticket, bot="easy")
    assert started.status_code == 200, started.text
    room = games_of(client).rooms[started.json()["game_id"]]
    assert [s.is_bot for s in room.seats] == [True, False] and room.seats[1].name == "Ana"
    # the open list never showed a ticket
    assert ticket not in client.get("/api/tables").text


def test_a_rematch_keeps_the_time_bank(client: TestClient) -> None:
    control = {"per_move": 3600.0, "bank": 43200.0}
    seats = [{"name": "Ana"}, {"name": "Bes"}]
    created = client.post(
        "/api/games",
        json={"game": "egyptia", "seats": seats, "seed": 5, "time_control": control},
    ).json()
    game_id, tokens = created["id"], [s["token"] for s in created["seats"]]
    finish(client, game_id, tokens)
    asked = rematch(client, game_id, tokens[0])
    assert asked.status_code == 200, asked.text
    assert asked.json()["table"]["time_control"] == control
    assert asked.json()["table"]["turn_timer"] is None

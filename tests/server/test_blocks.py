"""Blocks: a player blocks another by name (with the session's CSRF token, a bounded list),
and the blocked one's table invitations, rematch invitations, friend requests and chat lines
no longer reach the blocker; the blocked player is refused with a message that does not say
why, and everyone else still reads the chat as before."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings

from .test_accounts import csrf
from .test_chat import history, said
from .test_friends import People as Friends
from .test_ratings import finish
from .test_tables import People, act, new_table, notes, people  # noqa: F401 (a fixture)


def block(client: TestClient, name: str, **kw: Any) -> Any:
    headers = kw.pop("headers", csrf(client))
    return client.post("/api/blocks", json={"name": name}, headers=headers, **kw)


def blocked_names(client: TestClient) -> list[str]:
    response = client.get("/api/blocks")
    assert response.status_code == 200, response.text
    return [entry["name"] for entry in response.json()["blocked"]]


# ---------------------------------------------------------------------- the list
def test_block_list_and_unblock(client: TestClient, people: People) -> None:  # noqa: F811
    people.sign_up("Ana")
    bes = people.sign_up("Bes")
    people.be("Ana")
    assert blocked_names(client) == []
    made = block(client, "bes")  # any case
    assert made.status_code == 201, made.text
    assert made.json() == {"blocked": {"id": bes, "name": "Bes"}}
    assert block(client, "Bes").status_code == 201  # again: nothing changes
    assert blocked_names(client) == ["Bes"]
    assert block(client, "Nobody").status_code == 404
    assert block(client, "Ana").status_code == 422  # not oneself
    unblocked = client.delete(f"/api/blocks/{bes}", headers=csrf(client))
    assert unblocked.status_code == 200 and unblocked.json() == {"unblocked": bes}
    assert client.delete(f"/api/blocks/{bes}", headers=csrf(client)).status_code == 404
    assert blocked_names(client) == []


def test_blocks_need_a_session_and_its_csrf_token(client: TestClient, people: People) -> None:  # noqa: F811
    people.sign_up("Ana")
    bes = people.sign_up("Bes")
    people.be(None)
    assert client.get("/api/blocks").status_code == 401
    assert block(client, "Bes", headers={}).status_code == 401
    people.be("Ana")
    assert block(client, "Bes", headers={}).status_code == 403
    block(client, "Bes")
    assert client.delete(f"/api/blocks/{bes}").status_code == 403
    assert blocked_names(client) == ["Bes"]


def test_the_block_list_is_bounded(database: str) -> None:
    settings = ServerSettings(blocks_per_account=2)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        people = People(client)
        for name in ("Bes", "Ka", "Nut", "Ana"):
            people.sign_up(name)
        assert block(client, "Bes").status_code == 201
        assert block(client, "Ka").status_code == 201
        over = block(client, "Nut")
        assert over.status_code == 422 and "blocked 2 players" in over.json()["error"]


# ---------------------------------------------------------------------- what it stops
def test_a_blocked_player_cannot_ask_to_be_friends(client: TestClient) -> None:
    friends = Friends(client)
    friends.add("Ana", "Bes", "Ka")
    assert friends.ask("Bes", "Ana").status_code == 201
    friends.answer("Ana", "Bes", "accept")
    assert friends.names("Ana", "friends") == ["Bes"]
    block(friends.be("Ana"), "Bes")
    assert friends.names("Ana", "friends") == []  # the block ended the friendship
    before = friends.notes("Ana")
    refused = friends.ask("Bes", "Ana")
    assert refused.status_code == 403
    assert refused.json()["error"] == "you cannot ask this player to be your friend"
    assert friends.notes("Ana") == before  # not told
    assert friends.ask("Ka", "Ana").status_code == 201  # others still can
    mine = friends.ask("Ana", "Bes")
    assert mine.status_code == 409 and "unblock" in mine.json()["error"]


def test_a_blocked_player_cannot_invite_to_a_table(client: TestClient, people: People) -> None:  # noqa: F811
    people.sign_up("Ana")
    people.sign_up("Bes")
    people.sign_up("Ka")
    people.be("Ana")
    block(client, "Bes")
    people.be("Bes")
    table = new_table(client, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])["table"]
    refused = act(client, table["id"], "invite", seat=1, name="Ana")
    assert refused.status_code == 403
    assert refused.json()["error"] == "you cannot invite this player"
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][1]["invited"] is None
    at_creation = client.post(
        "/api/tables",
        json={
            "game": "amunre",
            "seats": [{"kind": "human"}, {"kind": "open", "invite": "ana"}, {"kind": "open"}],
        },
        headers=csrf(client),
    )
    assert at_creation.status_code == 403, at_creation.text
    assert act(client, table["id"], "invite", seat=1, name="Ka").status_code == 200
    people.be("Ana")
    assert [n for n in notes(client) if n["kind"] == "invitation"] == []


def test_a_rematch_keeps_no_seat_for_a_blocker(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    from .test_my_games import mine_game

    people.sign_up("Ana")
    bes = people.sign_up("Bes")
    people.be("Ana")
    block(client, "Bes")
    game_id, tokens = mine_game(client, "egyptia", [{"mine": True}, {"name": "Bes"}], seed=4)
    room = client.app.state.service.rooms[game_id]  # type: ignore[attr-defined]
    client.portal.call(client.app.state.service.claim_seat, room, 1, bes)  # type: ignore[attr-defined,union-attr]
    finish(client, game_id, tokens)
    people.be("Bes")
    asked = client.post(f"/api/games/{game_id}/rematch", headers=csrf(client))
    assert asked.status_code == 200, asked.text
    seats = [(s["state"], s["invited"]) for s in asked.json()["table"]["seats"]]
    assert seats == [("taken", None), ("open", None)]  # Ana's seat is anyone's
    people.be("Ana")
    assert [n for n in notes(client) if n["kind"] == "invitation"] == []


def test_chat_lines_of_a_blocked_player_are_hidden_from_the_blocker_alone(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    created = client.post(
        "/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
    ).json()
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    people.sign_up("Ana")
    claim = f"/api/games/{game_id}/claim"
    assert client.post(claim, params={"token": tokens[0]}, headers=csrf(client)).status_code == 200
    people.sign_up("Bes")
    assert client.post(claim, params={"token": tokens[1]}, headers=csrf(client)).status_code == 200
    said(client, game_id, tokens[0], "hello from Ana")
    said(client, game_id, tokens[1], "hello from Bes")
    people.be("Ana")
    assert block(client, "Bes").status_code == 201
    mine = history(client, game_id).json()
    assert [line["text"] for line in mine["lines"]] == ["hello from Ana"]
    assert mine["hidden"] == ["Bes"]  # the page drops Bes's live lines too
    people.be(None)
    everyone = history(client, game_id).json()
    assert [line["text"] for line in everyone["lines"]] == ["hello from Ana", "hello from Bes"]
    assert everyone["hidden"] == []
    people.be("Bes")
    assert [line["text"] for line in history(client, game_id).json()["lines"]] == [
        "hello from Ana",
        "hello from Bes",
    ]


@pytest.mark.parametrize("doing", ["invite", "friend"])
def test_the_refusal_reads_the_same_as_a_bound_would_not(
    client: TestClient,
    people: People,  # noqa: F811
    doing: str,
) -> None:
    """A blocked sender's refusal names no block: it says what cannot be done."""
    people.sign_up("Ana")
    people.sign_up("Bes")
    people.be("Ana")
    block(client, "Bes")
    people.be("Bes")
    if doing == "invite":
        table = new_table(client, [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}])["table"]
        error = act(client, table["id"], "invite", seat=1, name="Ana").json()["error"]
    else:
        error = client.post(
            "/api/friends/requests", json={"name": "Ana"}, headers=csrf(client)
        ).json()["error"]
    assert "block" not in error.lower()

"""/me tells games apart (issue 33), a solo game has no winner there, and a rematch offer
reaches every seat's page of the finished game, live."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .test_accounts import csrf
from .test_my_games import games_of, mine_game
from .test_ratings import finish
from .test_tables import People, people  # noqa: F401 (a fixture)

ATON: list[dict[str, Any]] = [{"mine": True}, {"name": "Bes"}]


def test_two_games_with_the_same_people_read_apart(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Ana")
    people.be("Ana")
    first, _ = mine_game(client, "aton", ATON, seed=1)
    second, _ = mine_game(client, "aton", ATON, seed=2)
    listed = client.get("/api/me/games").json()["running"]
    by_id = {entry["game_id"]: entry for entry in listed}
    one, two = by_id[first], by_id[second]
    assert one["opponents"] == two["opponents"] == ["Bes"]
    assert one["number"] == first[:6] and two["number"] == second[:6]
    assert one["number"] != two["number"]
    assert one["started_at"] and one["started"]
    german = client.get("/api/me/games", params={"lang": "de"}).json()["running"]
    english = {e["game_id"]: e["started"] for e in listed}
    assert all(e["started"] != english[e["game_id"]] for e in german)  # Babel's words


def test_a_solo_game_lists_its_score_and_no_winner(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Ana")
    people.be("Ana")
    game_id, tokens = mine_game(client, "egyptia", [{"mine": True}], seed=3)
    finish(client, game_id, tokens)
    [done] = client.get("/api/me/games").json()["finished"]
    assert done["result"]["solo"] and done["result"]["winners"] == []
    assert (
        done["result"]["score"] == client.get(f"/api/games/{game_id}").json()["result"]["scores"][0]
    )


def test_a_rematch_offer_reaches_every_seat_s_page_live(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Ana")
    people.be("Ana")
    game_id, tokens = mine_game(client, "aton", ATON, seed=4)
    finish(client, game_id, tokens)
    assert client.get(f"/api/games/{game_id}/rematch").json() == {"offer": None}
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[1]}") as bes:
        assert bes.receive_json()["status"] == "finished"
        asked = client.post(f"/api/games/{game_id}/rematch", headers=csrf(client))
        assert asked.status_code in (200, 201), asked.text
        table = asked.json()["table"]["id"]
        pushed = bes.receive_json()
    assert pushed["event"] == "rematch"
    offer = pushed["offer"]
    assert offer["table"] == table and offer["by"] == "Ana" and offer["url"] == f"/tables/{table}"
    assert client.get(f"/api/games/{game_id}/rematch").json()["offer"] == offer
    assert games_of(client).rooms[game_id].is_over
    assert client.get("/api/games/nosuchgame/rematch").status_code == 404

"""The JSON API: creating games, views, moves, refusals, records, the lobby list."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from karnak.core import Rng, replay
from karnak.core.record import GameRecord

from .conftest import create, humans, wait_for


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    params = {"token": token} if token else {}
    response = client.get(f"/api/games/{game_id}", params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def play_random(
    client: TestClient, game_id: str, tokens: list[str], moves: int, seed: int = 1
) -> None:
    """Random legal moves through the API, choosing among each mover's legal list."""
    rng = Rng(seed)
    for _ in range(moves):
        public = view(client, game_id)
        if public["status"] == "finished":
            return
        seat = public["to_move"][0]
        mine = view(client, game_id, tokens[seat])
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        response = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[seat]},
            json={"version": mine["version"], "action": choice["action"]},
        )
        assert response.status_code == 200, response.text
        assert response.json()["accepted"]


def test_create_gives_one_secret_link_per_seat(client: TestClient) -> None:
    created = create(client, [{"kind": "human", "name": "Ana"}, *humans(3)])
    tokens = [seat["token"] for seat in created["seats"]]
    assert len(set(tokens)) == 4 and all(len(t) >= 32 for t in tokens)
    assert created["seats"][0]["name"] == "Ana"
    assert created["seats"][1]["url"] == f"/games/{created['id']}?token={tokens[1]}"
    first = view(client, created["id"], tokens[0])
    assert first["seat"] == 0 and first["version"] == 0 and first["status"] == "running"
    assert view(client, created["id"])["seat"] is None  # spectator


def test_bot_seats_get_no_link(client: TestClient) -> None:
    """A bot seat's token would let a person read the bot's hidden cards."""
    created = create(client, [*humans(3), {"kind": "bot", "bot": "heuristic"}])
    assert created["seats"][3]["token"] is None and created["seats"][3]["url"] is None
    assert all(seat["token"] for seat in created["seats"][:3])


def test_bad_creations_are_refused_with_reasons(client: TestClient) -> None:
    cases = [
        ({"game": "chess", "seats": humans(4)}, "chess"),
        ({"game": "amunre", "seats": humans(2)}, "player"),
        ({"game": "amunre", "seats": humans(4), "options": {"speed": 3}}, "speed"),
        ({"game": "amunre", "seats": [*humans(3), {"kind": "bot", "bot": "genius"}]}, "genius"),
        ({"game": "amunre", "seats": [*humans(3), {"kind": "bot", "bot": "ismcts:0s"}]}, "think"),
        ({"game": "amunre", "seats": [{"name": "Bo"}, {"name": "bo"}, *humans(2)]}, "named"),
        ({"game": "amunre", "seats": humans(4), "turn_timer": -5}, "timer"),
    ]
    for body, word in cases:
        response = client.post("/api/games", json=body)
        assert response.status_code == 422, (body, response.text)
        assert word in response.text.lower(), (word, response.text)
    assert client.get("/api/games").json() == []


def test_moves_refusals_and_the_record(client: TestClient) -> None:
    created = create(client, humans(3), seed=5)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    url = f"/api/games/{game_id}/actions"
    play_random(client, game_id, tokens, 10)
    public = view(client, game_id)
    seat = public["to_move"][0]
    other = next(s for s in range(3) if s not in public["to_move"])
    mine = view(client, game_id, tokens[seat])
    legal = mine["legal"][0]["text"]

    def post(token: str | None, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        response = client.post(url, params={"token": token} if token else {}, json=body)
        return response.status_code, response.json()

    assert post(None, {"version": mine["version"], "action": legal})[0] == 403
    assert post("forged", {"version": mine["version"], "action": legal})[0] == 403
    status, body = post(tokens[seat], {"version": mine["version"] + 7, "action": legal})
    assert status == 400 and body["version"] == mine["version"]
    status, body = post(tokens[seat], {"version": mine["version"] - 1, "action": legal})
    assert status == 409 and "moved on" in body["error"]
    status, body = post(tokens[other], {"version": mine["version"], "action": legal})
    assert status == 409 and "nothing to decide" in body["error"]
    status, body = post(tokens[seat], {"version": mine["version"], "action": "fly to the moon"})
    assert status == 422
    status, body = post(tokens[seat], {"version": mine["version"], "action": "bid THEBES 99"})
    assert status == 422 and "not allowed" in body["error"]
    assert client.get(f"/api/games/{game_id}/record").status_code == 409  # not before the end
    assert client.get("/api/games/nope").status_code == 404

    status, body = post(tokens[seat], {"version": mine["version"], "action": legal})
    assert status == 200 and body["accepted"] and body["version"] == mine["version"] + 1
    status, body = post(tokens[seat], {"version": mine["version"], "action": legal})
    assert status == 200 and body["duplicate"] and not body["accepted"]  # a resent request
    assert view(client, game_id)["version"] == mine["version"] + 1

    play_random(client, game_id, tokens, 5000, seed=2)
    final = view(client, game_id, tokens[0])
    assert final["status"] == "finished" and final["result"]["winners"]
    record = client.get(f"/api/games/{game_id}/record").json()
    state = replay(GameRecord.from_json(record))
    assert state.scores() == final["result"]["scores"]
    listed = client.get("/api/games").json()
    assert listed[0]["id"] == game_id and listed[0]["status"] == "finished"
    assert listed[0]["winners"] == final["result"]["winners"]


def test_bots_play_their_seats(client: TestClient) -> None:
    created = create(client, [{"kind": "bot", "bot": "heuristic"} for _ in range(4)], seed=3)
    game_id = created["id"]
    wait_for(lambda: view(client, game_id)["status"] == "finished")
    record = GameRecord.from_json(client.get(f"/api/games/{game_id}/record").json())
    assert replay(record).is_over()


def test_available_games_list_options(client: TestClient) -> None:
    games = client.get("/api/games/available").json()
    amunre = next(g for g in games if g["name"] == "amunre")
    assert amunre["min_players"] == 3 and amunre["max_players"] == 5
    assert {o["name"] for o in amunre["options"]} >= {"edition", "expert_provinces"}
    # each game lists the bots it has, so the lobby offers only those
    assert {"random", "heuristic", "ismcts"} <= set(amunre["bots"])
    for game in games:
        assert "random" in game["bots"] and "ismcts" in game["bots"]


def test_pages_and_static_files_are_served(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "Play now" in lobby.text and "More options" in lobby.text
    page = client.get("/games/anything")
    assert page.status_code == 200 and 'id="board"' in page.text
    for name in ("lobby.js", "game.js", "karnak.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/static/missing.js").status_code == 404


def test_replays_of_finished_games(client: TestClient) -> None:
    created = create(client, humans(3), seed=9)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    assert client.get(f"/api/games/{game_id}/replay").status_code == 409  # not while running
    play_random(client, game_id, tokens, 5000, seed=3)
    steps = client.get(f"/api/games/{game_id}/replay").json()["steps"]
    assert steps == view(client, game_id)["version"]
    start = client.get(f"/api/games/{game_id}/replay/0").json()
    assert start["version"] == 0 and start["seat"] is None and start["legal"] == []
    end = client.get(f"/api/games/{game_id}/replay/{steps}").json()
    assert end == view(client, game_id)
    assert client.get(f"/api/games/{game_id}/replay/{steps + 1}").status_code == 404


def test_the_view_carries_the_board_and_the_seat_hand(client: TestClient) -> None:
    created = create(client, humans(4), seed=2)
    game_id = created["id"]
    mine = view(client, game_id, created["seats"][0]["token"])
    svg = mine["page"]["board_svg"]
    assert svg.startswith("<svg") and svg.count("data-province=") == 15
    assert "THEBES" in svg or "Thebes" in svg
    assert mine["page"]["hand"] and all(card["effect"] for card in mine["page"]["hand"])
    assert len(mine["page"]["hints"]) == len(mine["legal"])
    assert "hand" not in view(client, game_id)["page"]  # a spectator holds no cards

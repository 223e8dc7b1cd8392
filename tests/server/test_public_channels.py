"""Every public channel stays byte-identical while a builder takes private steps.

An Egyptia builder's steps after the reveal (plague, payment, building, the Burial Mound's
reward, a ship) are private until the round ends. Whatever anyone without that builder's
token can fetch (the lobby's list of games, the spectator's view and socket, the record and
replay answers, the pages, the list of available games) must not change while they happen:
not even a version number or the order of the list.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.server.service import GameService
from support.egyptia_positions import THREE_IN_GRAIN, roll, set_have


def public_bytes(client: TestClient, game_id: str) -> list[str]:
    """All a stranger can fetch about the game, as text."""
    texts = [
        client.get("/api/games").text,
        client.get("/api/games?limit=1").text,
        client.get(f"/api/games/{game_id}").text,
        client.get(f"/api/games/{game_id}/record").text,
        client.get(f"/api/games/{game_id}/replay").text,
        client.get("/api/games/available").text,
        client.get("/").text,
        client.get(f"/games/{game_id}").text,
    ]
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        texts.append(socket.receive_text())
    return texts


def post(client: TestClient, game_id: str, token: str, text: str) -> dict[str, Any]:
    mine = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    response = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"version": mine["version"], "action": text},
    )
    assert response.status_code == 200, response.text
    view: dict[str, Any] = response.json()["view"]
    return view


def test_private_steps_change_no_public_channel(client: TestClient) -> None:
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Bes", "Ka")]
    created = client.post(
        "/api/games",
        json={"game": "egyptia", "seats": seats, "seed": 8, "options": {"cards": "A2,B2,C3,D2,E3"}},
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, THREE_IN_GRAIN)  # grain: three dice (a plague)
    for seat in range(3):
        set_have(state, seat, (3, 3, 3, 2))
    room.state = state
    post(client, game_id, tokens[0], "choose diamond")
    post(client, game_id, tokens[2], "choose diamond")
    post(client, game_id, tokens[1], "choose grain")  # the reveal: public
    # another game, created after it: the list's order would show the first game's activity
    client.post("/api/games", json={"game": "egyptia", "seats": seats, "seed": 9})
    before = public_bytes(client, game_id)
    steps = 0
    post(client, game_id, tokens[1], "ship 1")
    for _ in range(8):  # Bes's round: plague, payments, building, reward
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[1]}).json()
        legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
        after = post(client, game_id, tokens[1], legal[-1])
        if after["observation"]["you"]["stage"] == "done":
            break  # being done is public (the others see who is still building)
        steps += 1
        assert public_bytes(client, game_id) == before, f"after Bes's step {steps}"
    assert steps >= 2
    before = public_bytes(client, game_id)
    post(client, game_id, tokens[1], "ship 2")  # while waiting for the others
    assert public_bytes(client, game_id) == before
    # the round's end is public: now the channels change (so the comparison can see it)
    for seat in (0, 2):
        while True:
            mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
            if mine["observation"]["you"]["stage"] == "done" or mine["observation"]["round"] > 1:
                break
            legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
            post(client, game_id, tokens[seat], legal[-1])
    after = public_bytes(client, game_id)
    assert after[0] != before[0] and after[2] != before[2]

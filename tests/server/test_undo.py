"""Taking back a move: only your own last one, within your turn, never past hidden information."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from karnak.core import get_game
from karnak.server.app import create_app
from karnak.server.rooms import HUMAN, Room, SeatInfo, hash_token

from .conftest import create, humans
from .test_api import view

GAME = get_game("amunre")


def new_room(seed: int = 1) -> Room:
    names = GAME.seat_names(4)
    seats = [SeatInfo(s, names[s], HUMAN, None, hash_token(f"t{s}")) for s in range(4)]
    return Room("g", GAME, GAME.new_state(names, seed=seed), seats, seed)


def advance_to_market(room: Room) -> int:
    """Play first legal moves until someone shops in the market with a farmer to buy."""
    while True:
        seat = room.state.to_move()[0]
        legal = room.state.legal_actions(seat)
        if room.state.phase == "market" and any(a.to_text().startswith("farmer") for a in legal):
            return seat
        room.accept(seat, legal[-1] if room.state.phase == "auction" else legal[0])


def test_a_market_purchase_can_be_taken_back_within_the_turn() -> None:
    room = new_room()
    seat = advance_to_market(room)
    before = room.state.observation(seat)
    farmer = next(a for a in room.state.legal_actions(seat) if a.to_text().startswith("farmer"))
    room.accept(seat, farmer)
    assert room.undo_refusal(seat) is None
    version = room.version
    room.undo()
    assert room.state.observation(seat) == before
    assert room.version == version + 1 and room.step_started == room.version


def test_what_cannot_be_taken_back() -> None:
    room = new_room()
    assert room.undo_refusal(0) == "there is no move to take back"
    seat = advance_to_market(room)
    other = (seat + 1) % 4
    farmer = next(a for a in room.state.legal_actions(seat) if a.to_text().startswith("farmer"))
    room.accept(seat, farmer)
    assert "not yours" in (room.undo_refusal(other) or "")
    # buying power cards draws from the hidden deck: never undoable
    room2 = new_room()
    seat2 = advance_to_market(room2)
    buy = next(a for a in room2.state.legal_actions(seat2) if a.to_text().startswith("buy"))
    room2.accept(seat2, buy)
    assert room2.undo_refusal(seat2) == "the move revealed hidden information or a random draw"
    # ending the market turn passes the turn
    room3 = new_room()
    seat3 = advance_to_market(room3)
    done = next(a for a in room3.state.legal_actions(seat3) if a.to_text() == "done")
    room3.accept(seat3, done)
    assert room3.undo_refusal(seat3) == "your turn has passed"


def test_undo_through_the_api_survives_a_restart(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        back, game_id, token = undo_once(client)
    with TestClient(create_app(database, bot_workers=0)) as client:
        assert view(client, game_id, token) == back


def undo_once(client: TestClient) -> tuple[dict[str, Any], str, str]:
    created = create(client, humans(4), seed=1)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    service = client.app.state.service  # type: ignore[attr-defined]
    room: Room = service.rooms[game_id]
    seat = advance_to_market_via_api(client, game_id, tokens, room)
    mine = view(client, game_id, tokens[seat])
    farmer = next(m for m in mine["legal"] if m["text"].startswith("farmer"))
    url = f"/api/games/{game_id}"
    client.post(
        f"{url}/actions",
        params={"token": tokens[seat]},
        json={"version": mine["version"], "action": farmer["text"]},
    )
    after = view(client, game_id, tokens[seat])
    assert after["can_undo"]
    stale = client.post(
        f"{url}/undo", params={"token": tokens[seat]}, json={"version": after["version"] - 1}
    )
    assert stale.status_code == 409
    other = client.post(
        f"{url}/undo", params={"token": tokens[(seat + 1) % 4]}, json={"version": after["version"]}
    )
    assert other.status_code == 409 and "not yours" in other.json()["error"]
    undone = client.post(
        f"{url}/undo", params={"token": tokens[seat]}, json={"version": after["version"]}
    )
    assert undone.status_code == 200, undone.text
    back = undone.json()["view"]
    assert back["version"] == after["version"] + 1
    assert back["observation"] == mine["observation"] and not back["can_undo"]
    return back, game_id, tokens[seat]


def advance_to_market_via_api(
    client: TestClient, game_id: str, tokens: list[str], room: Room
) -> int:
    while True:
        seat = room.state.to_move()[0]
        mine = view(client, game_id, tokens[seat])
        texts = [m["text"] for m in mine["legal"]]
        if room.state.phase == "market" and any(t.startswith("farmer") for t in texts):
            return seat
        choice = texts[-1] if room.state.phase == "auction" else texts[0]
        response = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[seat]},
            json={"version": mine["version"], "action": choice},
        )
        assert response.status_code == 200, response.text

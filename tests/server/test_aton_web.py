"""Aton on the server: created and played through the API, its views, board and WebSocket.

The board drawing is public (one per position, the same for both seats and a spectator);
a seat's view never depends on what it cannot see: the other priest's hand and, before the
reveal, the other priest's sealed cartouches (checked by re-dealing them, as for Amun-Re).
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.bots.base import available_bots
from karnak.core import Rng, replay
from karnak.core.record import GameRecord
from karnak.core.registry import get_game
from karnak.games.aton.rules.state import AtonState
from karnak.games.aton.web import board as aton_board
from karnak.i18n import use_language
from karnak.server.bot_names import bot_view
from karnak.server.service import GameService

from .conftest import wait_for

SQUARE = re.compile(r'data-square="(\d+\.\d+)"')


def create_aton(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "aton", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"token": token} if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def post(client: TestClient, game_id: str, token: str, version: int, action: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"version": version, "action": action},
    )


def check_views(client: TestClient, game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    """Both seats' views and the spectator's, checked against each other."""
    seats = [view(client, game_id, token) for token in tokens]
    public = view(client, game_id)
    boards = {v["page"]["board_svg"] for v in [*seats, public]}
    assert len(boards) == 1, "the board must be one public drawing"
    svg = boards.pop()
    assert svg.startswith("<svg") and 'class="board aton-board"' in svg
    squares = SQUARE.findall(svg)
    assert len(squares) == 48 and len(set(squares)) == 48
    assert svg.count('class="kingdom-square"') == 8
    assert svg.count('class="cartouche-slot"') == 8
    assert "hand" not in public["page"] and "you" not in public["observation"]
    for seat, mine in enumerate(seats):
        page = mine["page"]
        assert mine["seat"] == seat and mine["game"] == "aton"
        assert page["hand"] == mine["observation"]["you"]["hand"]
        assert page["cartouches"] == mine["observation"]["you"]["cartouches"]
        assert len(page["squares_of_moves"]) == len(page["hints"]) == len(mine["legal"])
        for move, square in zip(mine["legal"], page["squares_of_moves"], strict=True):
            kind = move["action"]["type"]
            if kind in ("remove", "place"):
                assert square == move["text"].split()[1] and square in squares
            else:
                assert square is None
        assert page["can_exchange"] == any(m["text"] == "exchange" for m in mine["legal"])
        # the opponent's cards never travel to this seat
        other = mine["observation"]["players"][1 - seat]
        if other["cartouches"] is None:
            assert 'data-state="revealed"' not in svg
        assert set(mine["observation"]["you"]) == {"hand", "cartouches"}
    return [*seats, public]


def play_to_the_end(
    client: TestClient, game_id: str, tokens: list[str | None], seed: int, check_every: int = 1
) -> int:
    """Random legal moves for the human seats (None: a bot seat) until the game is over."""
    rng = Rng(seed)
    moves = 0
    while True:
        public = view(client, game_id)
        if public["status"] == "finished":
            return moves
        humans = [s for s in public["to_move"] if tokens[s] is not None]
        if not humans:
            wait_for(lambda v=public["version"]: view(client, game_id)["version"] != v)
            continue
        seat = humans[rng.below(len(humans))]
        token = tokens[seat]
        assert token is not None
        mine = view(client, game_id, token)
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        # half the moves as text, half in their JSON form
        action = choice["text"] if moves % 2 else choice["action"]
        response = post(client, game_id, token, mine["version"], action)
        assert response.status_code == 200, response.text
        moves += 1
        assert moves < 3000, "the game did not end"
        known = [t for t in tokens if t is not None]
        if len(known) == 2 and moves % check_every == 0:
            check_views(client, game_id, known)


def test_aton_is_offered_for_two_players(client: TestClient) -> None:
    games = client.get("/api/games/available").json()
    aton = next(g for g in games if g["name"] == "aton")
    assert aton["title"] == "Aton" and aton["min_players"] == aton["max_players"] == 2
    for count in (1, 3):
        response = client.post(
            "/api/games", json={"game": "aton", "seats": [{"kind": "human"}] * count}
        )
        assert response.status_code == 422 and "player" in response.text.lower()
    script = client.get("/static/games/aton/aton.js")
    assert script.status_code == 200 and "export function render" in script.text
    assert client.get("/static/games/aton/aton.css").status_code == 200
    # the page names the script and the stylesheet of the game it shows
    created = create_aton(client, [{"kind": "human"}, {"kind": "human"}], seed=1)
    client_parts = view(client, created["id"])["client"]
    assert client_parts["script"] == "/static/games/aton/aton.js"


def test_two_people_play_aton_to_the_end(client: TestClient) -> None:
    created = create_aton(client, [{"kind": "human", "name": "Ana"}, {"kind": "human"}], seed=4)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    first = check_views(client, game_id, tokens)
    assert [v["observation"]["players"][0]["name"] for v in first] == ["Ana"] * 3
    assert first[0]["sealed"] and first[0]["to_move"] == [0, 1]
    assert len(first[0]["page"]["hand"]) == 4 and first[0]["page"]["can_allocate"]
    moves = play_to_the_end(client, game_id, tokens, seed=1)
    assert moves > 10
    final = check_views(client, game_id, tokens)
    result = final[0]["result"]
    assert final[0]["status"] == "finished" and final[2]["result"] == result
    assert result["winners"] and final[0]["legal"] == [] and final[0]["your_turn"] is False
    obs = final[0]["observation"]
    if obs["winner"] is not None:
        assert result["winners"] == [obs["winner"]] and obs["win_reason"]
    elif len(result["winners"]) == 2:
        assert result["scores"][0] == result["scores"][1]
    else:
        assert max(result["scores"]) >= 40
    record = GameRecord.from_json(client.get(f"/api/games/{game_id}/record").json())
    assert replay(record).scores() == result["scores"]
    listed = client.get("/api/games").json()
    assert listed[0]["id"] == game_id and listed[0]["winners"] == result["winners"]
    steps = client.get(f"/api/games/{game_id}/replay").json()["steps"]
    assert client.get(f"/api/games/{game_id}/replay/{steps}").json() == final[2]


BOTS = [b for b in ("heuristic", "random", "ismcts:30") if b.split(":")[0] in
        available_bots(get_game("aton"))]  # fmt: skip


@pytest.mark.parametrize("bot", BOTS)
def test_a_person_plays_aton_against_a_bot(client: TestClient, bot: str) -> None:
    created = create_aton(client, [{"kind": "human"}, {"kind": "bot", "bot": bot}], seed=6)
    game_id = created["id"]
    assert created["seats"][1]["token"] is None and created["seats"][1]["bot"] == bot
    token = created["seats"][0]["token"]
    play_to_the_end(client, game_id, [token, None], seed=2)
    final = view(client, game_id, token)
    assert final["status"] == "finished" and final["result"]["winners"]
    assert final["players"][1] == {
        "seat": 1,
        "name": bot_view(bot, "aton")["label"],  # a bot is named by its level: bot_names
        "kind": "bot",
        "bot": bot_view(bot, "aton"),
        "held": False,  # no account holds a bot's seat
        "clock": None,  # nor does it keep a time bank
        "left": None,
        "replaced": False,  # a bot from the start, not one that took over a person's seat
    }


def test_the_websocket_sends_aton_views(client: TestClient) -> None:
    created = create_aton(client, [{"kind": "human"}, {"kind": "human"}], seed=8)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[0]}") as red,
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[1]}") as blue,
        client.websocket_connect(f"/api/games/{game_id}/ws") as spectator,
    ):
        starts = [red.receive_json(), blue.receive_json(), spectator.receive_json()]
        assert [v["seat"] for v in starts] == [0, 1, None]
        assert len({v["page"]["board_svg"] for v in starts}) == 1
        # Blue lays its cards: everyone hears of it, nobody but Blue learns the cards
        laid = next(m for m in starts[1]["legal"] if m["action"]["type"] == "allocate")
        response = post(client, game_id, tokens[1], 0, laid["text"])
        assert response.status_code == 200, response.text
        after = [red.receive_json(), blue.receive_json(), spectator.receive_json()]
        assert [v["version"] for v in after] == [1, 1, 1]
        assert after[1]["page"]["cartouches"] == laid["action"]["cards"]
        assert after[0]["page"]["cartouches"] is None
        assert after[0]["observation"]["players"][1]["committed"] is True
        assert after[0]["observation"]["players"][1]["cartouches"] is None
        assert 'data-state="sealed"' in after[2]["page"]["board_svg"]
        assert after[0]["to_move"] == [0] and after[0]["your_turn"]
        assert not after[1]["your_turn"]
        red.send_text("view")
        assert red.receive_json() == view(client, game_id, tokens[0])
        # Red lays its cards too: the cartouches are revealed to both, on the board
        laid = next(m for m in after[0]["legal"] if m["action"]["type"] == "allocate")
        assert post(client, game_id, tokens[0], 1, laid["text"]).status_code == 200
        revealed = spectator.receive_json()
        assert revealed["version"] == 2
        players = revealed["observation"]["players"]
        assert players[0]["cartouches"] == laid["action"]["cards"]
        assert revealed["page"]["board_svg"].count('data-state="revealed"') == 8


def hide_from(truth: AtonState, seat: int | None, rng: Rng) -> AtonState:
    """A world that ``seat`` cannot tell from ``truth`` (every hidden card re-dealt)."""
    viewers = [seat] if seat is not None else [0, 1]
    world = truth
    for viewer in viewers:
        world = world.resample(viewer, rng)
    world.log = truth.log  # the log is filtered per seat; the hidden lines stay hidden
    return world


def changed_directly(truth: AtonState, seat: int | None) -> AtonState:
    """The other priest's hand (and sealed cartouches) replaced by hand, counts kept."""
    world = truth.clone()
    world.log = truth.log
    for other in [0, 1] if seat is None else [1 - seat]:
        hand = world.hands[other]
        world.hands[other] = [1 if card != 1 else 4 for card in hand]
        sealed = world.alloc[other]
        if sealed is not None and not world.revealed:
            world.alloc[other] = [5 - card for card in sealed]
    return world


def test_views_do_not_change_when_hidden_information_does(client: TestClient) -> None:
    """Re-deal what a seat cannot see: its API view and its WebSocket message stay the same."""
    created = create_aton(client, [{"kind": "human"}, {"kind": "human"}], seed=21)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    rng = Rng(5)
    keep: list[AtonState] = []  # no world is freed, so no id is reused by the view cache
    checked = sealed_checked = 0
    while not room.is_over and checked < 60:
        truth = room.state
        assert isinstance(truth, AtonState)
        one_sealed = truth.phase == "allocate" and any(a is not None for a in truth.alloc)
        for seat in (0, 1, None):
            token = tokens[seat] if seat is not None else None
            path = f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
            before = view(client, game_id, token)
            with client.websocket_connect(path) as socket:
                message = socket.receive_json()
            worlds = [hide_from(truth, seat, Rng(k)) for k in range(2)]
            worlds.append(changed_directly(truth, seat))
            for world in worlds:
                keep.append(world)
                room.state = world
                assert view(client, game_id, token) == before
                with client.websocket_connect(path) as socket:
                    assert socket.receive_json() == message
            room.state = truth
            checked += 1
            sealed_checked += one_sealed
        # the check is sensitive: a seat's own hand does show in its view
        if truth.phase == "allocate" and truth.alloc[0] is None:
            own = truth.clone()
            own.log = truth.log
            own.hands[0] = [1 if card != 1 else 4 for card in own.hands[0]]
            keep.append(own)
            room.state = own
            assert view(client, game_id, tokens[0])["page"]["hand"] == sorted(own.hands[0])
            room.state = truth
        # one seat moves at a time, so that the sealed step is seen half committed
        seat = truth.to_move()[rng.below(len(truth.to_move()))]
        mine = view(client, game_id, tokens[seat])
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        assert post(client, game_id, tokens[seat], mine["version"], choice["text"]).is_success
    assert checked >= 60 and sealed_checked >= 6


def test_remembered_temple_drawings_match_fresh_ones() -> None:
    """The temple drawing cache must give exactly what drawing from scratch gives."""
    game = get_game("aton")
    state = game.new_state(["Red", "Blue"], seed=3)
    rng = Rng(3)
    steps = 0
    while not state.is_over() and steps < 400:
        public = state.observation(None)
        for language in ("fr", "en"):  # French first: "Temple {n}" reads the same in both
            with use_language(language):
                remembered = aton_board.board_svg(game, public)
        aton_board._temple.cache_clear()
        assert aton_board.board_svg(game, public) == remembered
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        steps += 1
    assert state.is_over()

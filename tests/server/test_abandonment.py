"""Leaving a game: a bot (medium) takes the seat over for good, marked everywhere, stored,
counted as last for ratings, and telling nobody anything hidden."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.server.app import create_app
from karnak.server.db import make_engine
from karnak.server.service import GameService
from karnak.server.timebank.abandonment import rated_places
from support.amunre_hidden import redeal_hidden

from .conftest import create, humans, wait_for
from .test_accounts import csrf, sign_up
from .test_api import play_random, view


def leave(client: TestClient, game_id: str, token: str | None, **headers: str) -> Any:
    params = {"token": token} if token else {}
    return client.post(f"/api/games/{game_id}/leave", params=params, headers=headers)


def service(client: TestClient) -> GameService:
    found: GameService = client.app.state.service  # type: ignore[attr-defined]
    return found


def test_leaving_hands_the_seat_to_the_medium_bot_for_good(client: TestClient) -> None:
    names = ["Ana", "Bes", "Ka"]
    created = create(client, [{"name": n} for n in names], seed=3)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    play_random(client, game_id, tokens, 4)
    before = view(client, game_id)
    seat = before["to_move"][0]  # the seat to move leaves: its bot must play on
    response = leave(client, game_id, tokens[seat])
    assert response.status_code == 200, response.text
    assert response.json() == {
        "game_id": game_id,
        "seat": seat,
        "bot": "heuristic",
        "watch_url": f"/games/{game_id}",
    }
    seen = view(client, game_id, tokens[(seat + 1) % 3])
    player = seen["players"][seat]
    assert player["name"] == names[seat] and player["kind"] == "bot"
    assert player["bot"] == {"level": "medium", "spec": "heuristic", "label": "Medium bot"}
    assert player["replaced"] and player["left"] == "left"
    assert [p["replaced"] for p in seen["players"]] == [s == seat for s in range(3)]
    line = f"{names[seat]} left the game: a bot (medium: rules of thumb, instant) plays the seat"
    assert line + " from here." in seen["log"]
    assert seen["log"].index(line + " from here.") >= len(before["log"])
    # the seat is the bot's: its old link opens nothing, and cannot leave twice
    for refused in (client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}),
                    leave(client, game_id, tokens[seat])):  # fmt: skip
        assert refused.status_code == 403 and "a bot plays it now" in refused.json()["error"]
    # the bot plays the seat's turn, so the others can go on
    wait_for(lambda: view(client, game_id)["version"] > before["version"] + 1, timeout=30)


def test_spectators_and_strangers_cannot_leave(client: TestClient) -> None:
    created = create(client, humans(3))
    game_id = created["id"]
    assert leave(client, game_id, None).status_code == 403
    assert leave(client, game_id, "forged").status_code == 403
    assert leave(client, "nope", None).status_code == 404


def test_leaving_by_session_needs_the_csrf_token(client: TestClient) -> None:
    sign_up(client, "Ana")
    created = create(client, humans(3), seed=2)
    game_id = created["id"]
    token = created["seats"][2]["token"]
    claimed = client.post(
        f"/api/games/{game_id}/claim", params={"token": token}, headers=csrf(client)
    )
    assert claimed.status_code == 200, claimed.text
    assert view(client, game_id)["seat"] == 2  # the session opens the seat
    assert leave(client, game_id, None).status_code == 403  # no CSRF token
    assert leave(client, game_id, None, **csrf(client)).status_code == 200
    assert view(client, game_id)["seat"] is None  # the session watches now
    assert view(client, game_id)["players"][2]["left"] == "left"


def test_a_finished_game_cannot_be_left(client: TestClient) -> None:
    created = create(client, humans(3), seed=6)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    play_random(client, game_id, tokens, 5000)
    assert view(client, game_id)["status"] == "finished"
    refused = leave(client, game_id, tokens[0])
    assert refused.status_code == 409 and "over" in refused.json()["error"]


def test_a_departure_ends_the_take_back_of_the_move_before_it(client: TestClient) -> None:
    created = create(client, humans(3), seed=4)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(60):  # up to a market purchase: undoable, and nobody else is to move
        seat = view(client, game_id)["to_move"][0]
        mine = view(client, game_id, tokens[seat])
        texts = [m["text"] for m in mine["legal"]]
        farmer = [t for t in texts if t.startswith("farmer")]
        answer = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[seat]},
            json={"version": mine["version"], "action": farmer[0] if farmer else texts[-1]},
        ).json()["view"]
        if farmer and answer["can_undo"] and answer["to_move"] == [seat]:
            break
    else:
        raise AssertionError("no move to take back came")
    other = next(s for s in range(3) if s != seat)
    assert leave(client, game_id, tokens[other]).status_code == 200
    mine = view(client, game_id, tokens[seat])
    assert not mine["can_undo"]
    refused = client.post(
        f"/api/games/{game_id}/undo",
        params={"token": tokens[seat]},
        json={"version": mine["version"]},
    )
    assert refused.status_code == 409 and "left the game since" in refused.json()["error"]


def test_a_departure_survives_a_restart_and_the_result_says_who_left(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = client.post(
            "/api/games",
            json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
        ).json()
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        assert leave(client, game_id, tokens[1]).status_code == 200
        wait_for(lambda: 1 not in view(client, game_id)["to_move"])  # the bot lays out
        before = view(client, game_id, tokens[0])
    with TestClient(create_app(database, bot_workers=0)) as client:
        after = view(client, game_id, tokens[0])
        assert after["players"] == before["players"] and after["log"] == before["log"]
        assert client.get(f"/api/games/{game_id}", params={"token": tokens[1]}).status_code == 403
        # Ana plays on against the bot to the end
        rng = Rng(5)
        for _ in range(3000):
            mine = view(client, game_id, tokens[0])
            if mine["status"] == "finished":
                break
            if not mine["legal"] or 0 not in mine["to_move"]:
                wait_for(lambda: _ana_or_end(client, game_id, tokens[0]), timeout=30)
                continue
            choice = mine["legal"][rng.below(len(mine["legal"]))]
            client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[0]},
                json={"version": mine["version"], "action": choice["action"]},
            )
        final = view(client, game_id, tokens[0])
        assert final["status"] == "finished" and final["result"]["left"] == [1]
        assert any("Bes left the game" in line for line in final["log"])
    engine = make_engine(database)
    with engine.connect() as connection:
        stored = connection.execute(
            text("SELECT result FROM games WHERE id = :id"), {"id": game_id}
        ).scalar_one()
    engine.dispose()
    stored = stored if isinstance(stored, dict) else __import__("json").loads(stored)
    assert stored["left"] == [1] and set(stored) == {"scores", "ranks", "winners", "left"}
    assert rated_places(stored) == {0: 1, 1: 2}  # Ana first for ratings, whatever the bot did


def _ana_or_end(client: TestClient, game_id: str, token: str) -> bool:
    mine = view(client, game_id, token)
    return mine["status"] == "finished" or (0 in mine["to_move"] and bool(mine["legal"]))


def test_a_game_nobody_left_stores_an_empty_list(client: TestClient) -> None:
    created = create(client, humans(3), seed=6)
    tokens = [s["token"] for s in created["seats"]]
    play_random(client, created["id"], tokens, 5000)
    assert view(client, created["id"])["result"]["left"] == []


@pytest.mark.parametrize(
    ("ranks", "left", "places"),
    [
        ([1, 2, 3], [], {0: 1, 1: 2, 2: 3}),
        ([1, 2, 3], [0], {1: 1, 2: 2, 0: 3}),  # the bot won the seat's game: still last
        ([2, 1, 1, 4], [1, 3], {0: 2, 2: 1, 1: 3, 3: 3}),  # those who left tie last
        ([1, 1, 3], [2], {0: 1, 1: 1, 2: 3}),
    ],
)
def test_how_a_departure_counts_for_ratings(
    ranks: list[int], left: list[int], places: dict[int, int]
) -> None:
    assert rated_places({"ranks": ranks, "left": left}) == places


def test_replacing_a_seat_shows_the_others_nothing_hidden(client: TestClient) -> None:
    """The others' views change only in public facts when a seat is replaced (its hand stays
    hidden), and stay the same whatever is hidden from them afterwards."""
    created = create(client, humans(4), seed=21)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    play_random(client, game_id, tokens, 12)
    room = service(client).rooms[game_id]
    # one who is not to move leaves (so that its bot does not move while we look)
    leaver = next(s for s in range(4) if s not in room.state.to_move())
    stay: list[int | None] = [s for s in range(4) if s != leaver]
    stay.append(None)
    before = {s: view(client, game_id, tokens[s] if s is not None else None) for s in stay}
    assert leave(client, game_id, tokens[leaver]).status_code == 200
    truth = room.state
    assert isinstance(truth, AmunReState)
    for seat in stay:
        token = tokens[seat] if seat is not None else None
        after = view(client, game_id, token)
        # what changed for them: the version, the players' list and the log's new line
        for key in ("observation", "legal", "page", "to_move"):
            assert after[key] == before[seat][key], key
        assert after["log"][:-1] == before[seat]["log"]
        # one new line, naming the person who left (in the reader's language)
        assert after["players"][leaver]["name"] in after["log"][-1]
        for k in range(3):
            room.state = redeal_hidden(truth, seat, Rng(40 + k))
            assert view(client, game_id, token) == after
        room.state = truth


def test_the_public_list_shows_the_bot(client: TestClient) -> None:
    created = create(client, [{"name": "Ana"}, {"name": "Bes"}, {"name": "Ka"}], seed=3)
    assert leave(client, created["id"], created["seats"][0]["token"]).status_code == 200
    listed = next(g for g in client.get("/api/games").json() if g["id"] == created["id"])
    assert listed["players"][0]["kind"] == "bot"


def test_the_open_socket_of_the_seat_that_left_becomes_a_spectator_s(client: TestClient) -> None:
    """The page that left (or a second tab of it) keeps its socket: from the departure on it
    gets what a spectator sees, never the bot's hand."""
    created = create(client, humans(3), seed=5)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    leaver = next(s for s in range(3) if s not in view(client, game_id)["to_move"])
    with client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[leaver]}") as socket:
        assert socket.receive_json()["seat"] == leaver
        assert leave(client, game_id, tokens[leaver]).status_code == 200
        after = socket.receive_json()
        assert after["seat"] is None and after["players"][leaver]["left"] == "left"
        # exactly the spectator's view, and why (karnak.server.departures)
        departed = after.pop("you_departed")
        assert departed["seat"] == leaver and departed["reason"] == "left"
        assert after == view(client, game_id)
        socket.send_text("view")  # asked again: still the spectator's
        again = socket.receive_json()
        assert again["seat"] is None and again["you_departed"] == departed

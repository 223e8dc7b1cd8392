"""The example game on the server: the lobby offers it, a game of it is created and played
through the API (a bot seat thinking in a worker process, which finds the game through the
entry point on PYTHONPATH), its page is the plain one, and its replay and record are served.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.core import GameRecord, Rng, replay
from karnak.core.registry import get_plugin
from karnak.core.view_schema import observation_schema
from karnak.server.app import create_app
from support.example_game import NAME, Installed


@pytest.fixture(scope="module")
def client(example: Installed, tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("db") / "karnak.sqlite3"
    with TestClient(create_app(f"sqlite:///{database}", bot_workers=1)) as test_client:
        yield test_client


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"token": token} if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def move(client: TestClient, game_id: str, token: str, version: int, text: str) -> dict[str, Any]:
    response = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"version": version, "action": text},
    )
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": NAME, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def test_the_lobby_offers_it_with_its_option_and_its_bots(client: TestClient) -> None:
    games = {game["name"]: game for game in client.get("/api/games/available").json()}
    assert {"amunre", "aton", "egyptia", NAME} <= set(games)
    offered = games[NAME]
    assert offered["title"] == "Goofspiel"
    assert (offered["min_players"], offered["max_players"]) == (2, 4)
    assert offered["options"] == [
        {
            "name": "prizes",
            "default": 5,
            "help": offered["options"][0]["help"],
            "choices": [3, 4, 5, 6, 7, 8],
        }
    ]
    assert "heuristic" not in offered["bots"] and {"random", "ismcts"} <= set(offered["bots"])
    assert offered["lobby"] == {}
    specs = {level["spec"] for band in offered["levels"] for level in band["levels"]}
    assert not any(spec.startswith("heuristic") for spec in specs)


def test_two_people_play_it_through_the_api_and_its_replay_is_served(client: TestClient) -> None:
    schema = observation_schema(get_plugin(NAME))
    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator(schema)
    created = create(client, [{"name": "Ann"}, {"name": "Bob"}], options={"prizes": 4}, seed=3)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    first = view(client, game_id, tokens[0])
    # no page of its own: the plain page draws it from the observation alone
    assert first["client"] == {"script": None, "stylesheets": []}
    assert "page" not in first
    assert first["sealed"] and first["to_move"] == [0, 1]
    assert [m["text"] for m in first["legal"]] == ["bid 1", "bid 2", "bid 3", "bid 4"]
    rng = Rng(4)
    steps = 0
    while True:
        public = view(client, game_id)
        validator.validate(public["observation"])
        if public["status"] == "finished":
            break
        seat = public["to_move"][rng.below(len(public["to_move"]))]
        mine = view(client, game_id, tokens[seat])
        validator.validate(mine["observation"])
        text = mine["legal"][rng.below(len(mine["legal"]))]["text"]
        after = move(client, game_id, tokens[seat], mine["version"], text)["view"]
        steps += 1
        other = view(client, game_id, tokens[1 - seat])
        if after["status"] == "running" and other["observation"]["players"][seat]["committed"]:
            # the other seat learns that a bid was laid, never which card
            assert other["observation"]["you"] == {"bid": None}
            assert f"{('Ann', 'Bob')[seat]} bids" not in " ".join(other["log"])
            assert f"{('Ann', 'Bob')[seat]} bids" in " ".join(after["log"])
    assert steps == 8
    finished = view(client, game_id, tokens[0])
    assert finished["result"]["scores"] == [p["score"] for p in finished["observation"]["players"]]
    # the record replays to the same end, and the replay is served step by step
    record = GameRecord.from_json(client.get(f"/api/games/{game_id}/record").json())
    assert replay(record).scores() == finished["result"]["scores"]
    assert client.get(f"/api/games/{game_id}/replay").json() == {"steps": 8}
    start = client.get(f"/api/games/{game_id}/replay/0").json()
    assert start["observation"]["round"] == 1 and start["seat"] is None
    assert start["client"] == {"script": None, "stylesheets": []}
    end = client.get(f"/api/games/{game_id}/replay/8").json()
    assert end["observation"]["over"] and end["result"] == finished["result"]
    assert client.get(f"/api/games/{game_id}/replay/9").status_code == 404
    # the page itself is the common game page, which loads the plain drawing
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200 and "/static/game.js" in page.text
    assert client.get("/static/plain.js").status_code == 200


def test_a_bot_plays_its_seat_in_a_worker_process(client: TestClient) -> None:
    created = create(client, [{"name": "Ann"}, {"kind": "bot", "bot": "ismcts:30"}], seed=11)
    game_id, token = created["id"], created["seats"][0]["token"]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        mine = view(client, game_id, token)
        if mine["status"] == "finished":
            break
        if mine["legal"]:
            move(client, game_id, token, mine["version"], mine["legal"][-1]["text"])
        else:
            time.sleep(0.05)
    assert mine["status"] == "finished", mine
    assert len(client.get(f"/api/games/{game_id}/record").json()["actions"]) == 10


def test_its_observation_schema_is_served(client: TestClient) -> None:
    served = client.get(f"/api/games/{NAME}/observation-schema")
    assert served.status_code == 200
    assert served.json() == observation_schema(get_plugin(NAME))
    assert client.get("/api/games/goof/observation-schema").json() == served.json()
    assert client.get(f"/static/games/{NAME}/{NAME}.js").status_code == 404

"""The first minute (issue 33, part 4) on the server: bot seats default to Medium and are named
by their level, the view says each bot's level and spec, the lobby's cards have a picture of
each game's board and a "Play now" table; and replays count moves as the lobby does."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from karnak.bots.levels import game_levels
from karnak.core.registry import available_games, get_game
from karnak.server.bot_names import bot_view, default_bot_names
from karnak.server.lobby_cards import card_picture, play_now_seats

from .conftest import create, wait_for


def test_bot_seats_default_to_medium_and_are_named_by_their_level(client: TestClient) -> None:
    created = create(client, [{"kind": "human", "name": "Ana"}, {"kind": "bot"}, {"kind": "bot"}])
    medium = game_levels("amunre")["medium"]
    assert [s["bot"] for s in created["seats"]] == [None, medium, medium]
    assert [s["name"] for s in created["seats"]] == ["Ana", "Medium bot 1", "Medium bot 2"]
    view = client.get(f"/api/games/{created['id']}").json()
    assert view["players"][0]["bot"] is None
    assert view["players"][1]["bot"] == {"level": "medium", "spec": medium, "label": "Medium bot"}
    # the log names the bots by their level too (the seat's name is the level's)
    assert any("Medium bot" in line for line in view["log"]) or view["to_move"] == [0]


def test_a_level_a_spec_or_a_name_may_be_asked_for(client: TestClient) -> None:
    levels = game_levels("aton")
    created = client.post(
        "/api/games",
        json={
            "game": "aton",
            "seats": [{"kind": "bot", "bot": "hard"}, {"kind": "bot", "bot": "random"}],
        },
    ).json()
    assert [s["bot"] for s in created["seats"]] == [levels["hard"], "random"]
    assert [s["name"] for s in created["seats"]] == ["Hard bot", "Easy bot"]
    named = client.post(
        "/api/games",
        json={
            "game": "aton",
            "seats": [{"kind": "human", "name": "Medium bot"}, {"kind": "bot", "name": "Imhotep"}],
        },
    ).json()
    # a name given stays; a bot without one never takes a person's name
    assert [s["name"] for s in named["seats"]] == ["Medium bot", "Imhotep"]
    taken = client.post(
        "/api/games",
        json={"game": "aton", "seats": [{"kind": "human", "name": "medium BOT"}, {"kind": "bot"}]},
    ).json()
    assert [s["name"] for s in taken["seats"]] == ["medium BOT", "Medium bot 2"]
    refused = client.post(
        "/api/games",
        json={"game": "aton", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "grandmaster"}]},
    )
    assert refused.status_code in (400, 422) and "grandmaster" in refused.text


def test_default_bot_names_number_a_level_only_when_it_repeats() -> None:
    specs = [None, "heuristic", "random", "heuristic", "ismcts:1s"]
    assert default_bot_names(specs, "amunre") == [
        None,
        "Medium bot 1",
        "Easy bot",
        "Medium bot 2",
        "Expert bot",
    ]
    assert default_bot_names(["random"], "aton", taken=["Easy bot"]) == ["Easy bot 2"]
    # a spec that is no level's bot is a plain "Bot"; a level stepped down is still its level
    assert bot_view("ismcts:5000", "aton") == {"level": None, "spec": "ismcts:5000", "label": "Bot"}
    assert bot_view("ismcts:0.5s", "egyptia") == {
        "level": "expert",
        "spec": "ismcts:0.5s",
        "label": "Expert bot",
    }
    assert bot_view(None, "aton") is None


def test_thirty_medium_bots_have_thirty_names() -> None:
    names = default_bot_names([None] + ["heuristic"] * 29, "egyptia")
    assert len(set(names[1:])) == 29 and names[1] == "Medium bot 1" and names[29] == "Medium bot 29"
    assert all(name is not None and len(name) <= 40 for name in names[1:])


def test_an_open_tables_bot_seats_default_to_medium(client: TestClient) -> None:
    body = client.post(
        "/api/tables",
        json={
            "game": "amunre",
            "seats": [{"kind": "human", "name": "Ana"}, {"kind": "open"}, {"kind": "bot"}],
        },
    )
    if body.status_code == 401:
        pytest.skip("tables need an account here")
    assert body.status_code in (200, 201), body.text
    assert body.json()["table"]["seats"][2]["bot"] == game_levels("amunre")["medium"]


@pytest.mark.parametrize("name", available_games())
def test_each_game_has_a_card_with_its_own_board(client: TestClient, name: str) -> None:
    listed = {game["name"]: game for game in client.get("/api/games/available").json()}
    card = listed[name]
    assert card["picture"] == f"/api/games/{name}/picture.svg"
    game = get_game(name)
    assert card["play_now"] == {"seats": play_now_seats(game), "level": "medium"}
    assert game.min_players <= card["play_now"]["seats"] <= game.max_players
    answer = client.get(card["picture"])
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert "max-age" in answer.headers["cache-control"]
    assert answer.text.startswith("<svg") and answer.text == card_picture(name)
    # the game's own board: the drawing its page starts with, of a fresh game
    assert f"{name}-board" in answer.text.split(">", 1)[0]
    # drawn once and kept
    assert card_picture(name) is card_picture(name)


@pytest.mark.parametrize("game", ["nothing", "x" * 41, "..", "amunre.svg"])
def test_a_picture_of_no_game_is_a_clear_404(client: TestClient, game: str) -> None:
    answer = client.get(f"/api/games/{game}/picture.svg")
    assert answer.status_code in (404, 422), answer.text


def test_the_lobby_and_the_replay_count_the_same_moves(client: TestClient) -> None:
    """Egyptia's sealed column choices are moves of the record: the lobby once counted the
    spectators' version (18) where the replay counted every move (25)."""
    created = client.post(
        "/api/games",
        json={"game": "egyptia", "seed": 5, "seats": [{"kind": "bot", "bot": "random"}] * 3},
    ).json()
    game_id = created["id"]

    def finished() -> bool:
        return bool(client.get(f"/api/games/{game_id}").json()["status"] == "finished")

    wait_for(finished)
    listed = next(g for g in client.get("/api/games").json() if g["id"] == game_id)
    steps = client.get(f"/api/games/{game_id}/replay").json()["steps"]
    assert listed["moves"] == steps
    record = client.get(f"/api/games/{game_id}/record").json()
    assert steps == len(record["actions"])
    # the two counts differ in such a game: the spectators' version leaves the sealed moves out
    assert listed["version"] < listed["moves"]
    # the replay's last step is the finished game, its first the start
    last = client.get(f"/api/games/{game_id}/replay/{steps}").json()
    assert last["status"] == "finished"
    first = client.get(f"/api/games/{game_id}/replay/0").json()
    assert first["status"] == "running"

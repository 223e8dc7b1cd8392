"""Tournaments (karnak.server.tournaments): Swiss, elimination and pools run to the end with
people and bots; pairings published each round; bounds refused clearly."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.core.rng import Rng
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from karnak.server.tournaments.service import TournamentService

from .conftest import GENEROUS
from .test_accounts import csrf, sign_up


def settings() -> ServerSettings:
    return ServerSettings(**{**GENEROUS, "daily_bots": "", "crowd_every_minutes": 0})


@pytest.fixture
def server(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0, settings=settings())) as client:
        yield client


def service_of(client: TestClient) -> TournamentService:
    tournaments: TournamentService = client.app.state.tournaments  # type: ignore[attr-defined]
    return tournaments


def create(client: TestClient, **given: Any) -> Any:
    body = {"name": "Friday cup", "game": "aton", "format": "swiss", **given}
    return client.post("/api/tournaments", json=body, headers=csrf(client))


def run_to_the_end(client: TestClient, tournament_id: str, seed: int = 1) -> dict[str, Any]:
    """Tick the tournament and play the logged-in player's games with random legal moves
    (bots play their own) until it is over."""
    rng = Rng(seed)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        client.portal.call(service_of(client).tick)  # type: ignore[union-attr]
        found = client.get(f"/api/tournaments/{tournament_id}").json()
        if found["status"] in ("finished", "cancelled"):
            return dict(found)
        for round_ in found["schedule"]:
            for game in round_["games"]:
                if game["game_id"] is None or game["places"] is not None:
                    continue
                view = client.get(f"/api/games/{game['game_id']}").json()
                if view.get("seat") is None or not view.get("legal"):
                    continue
                choice = view["legal"][rng.below(len(view["legal"]))]
                client.post(
                    f"/api/games/{game['game_id']}/actions",
                    json={"version": view["version"], "action": choice["action"]},
                    headers=csrf(client),
                )
        time.sleep(0.02)
    raise AssertionError("the tournament did not finish")


def test_an_eight_player_swiss_of_aton_runs_to_the_end_with_bots(server: TestClient) -> None:
    sign_up(server, "Hatshepsut")
    made = create(server, rounds=3, max_players=8, bots="easy")
    assert made.status_code == 201, made.text
    tournament = made.json()
    assert tournament["status"] == "open" and tournament["yours"]
    joined = server.post(f"/api/tournaments/{tournament['id']}/join", headers=csrf(server))
    assert joined.status_code == 200 and joined.json()["joined"]
    started = server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    assert started.status_code == 200, started.text
    first = started.json()
    assert len(first["players"]) == 8 and first["round"] == 1
    assert [len(r["games"]) for r in first["schedule"]] == [4]
    assert all(g["places"] is None for g in first["schedule"][0]["games"])  # running: no result
    done = run_to_the_end(server, tournament["id"])
    assert done["status"] == "finished" and done["round"] == 3
    names = {p["name"] for p in done["players"]}
    met: set[frozenset[str]] = set()
    for round_ in done["schedule"]:
        seated = [n for g in round_["games"] for n in g["seats"]]
        assert sorted(seated) == sorted(names)  # everyone plays once a round
        for game in round_["games"]:
            pair = frozenset(game["seats"])
            assert pair not in met  # no rematch in three rounds of eight
            met.add(pair)
    points = sum(row["points"] for row in done["standings"])
    assert points == 12  # three rounds of four games, a point each
    assert [row["place"] for row in done["standings"]] == list(range(1, 9))
    notes = server.get("/api/notifications").json()["notifications"]
    assert sum(1 for n in notes if "Friday cup" in n["text"]) >= 1


def test_an_elimination_gives_byes_to_the_best_and_ends_with_one(server: TestClient) -> None:
    sign_up(server, "Thutmose")
    tournament = create(server, format="elimination", max_players=5, bots="easy").json()
    started = server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    first_round = started.json()["schedule"][0]["games"]
    assert sum(1 for g in first_round if g["bye"]) == 3  # five in a bracket of eight
    done = run_to_the_end(server, tournament["id"])
    assert done["status"] == "finished"
    assert [len(r["games"]) for r in done["schedule"]] == [4, 2, 1]


def test_pools_of_amunre_seat_tables_of_three_to_five(server: TestClient) -> None:
    sign_up(server, "Ramses")
    tournament = create(
        server, game="amunre", format="pools", rounds=2, max_players=7, bots="easy"
    ).json()
    server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    done = run_to_the_end(server, tournament["id"])
    assert done["status"] == "finished"
    for round_ in done["schedule"]:
        assert sorted(len(g["seats"]) for g in round_["games"]) == [3, 4]
    assert len(done["standings"]) == 7


def test_what_a_tournament_refuses(server: TestClient) -> None:
    assert create(server).status_code == 401
    sign_up(server, "Akhenaten")
    soon = (dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat()
    for given, status in (
        ({"game": "chess"}, 404),
        ({"game": "amunre"}, 422),  # swiss is for two
        ({"format": "pools"}, 422),  # Aton is played by two
        ({"format": "ladder"}, 422),
        ({"bots": "wizard"}, 422),
        ({"rounds": 0}, 422),
        ({"max_players": 65}, 422),
        ({"turn_timer": 5}, 422),
        ({"starts_at": "2000-01-01T00:00:00"}, 409),
        ({"name": ""}, 422),
        ({"name": "x" * 500}, 422),
    ):
        answer = create(server, **given)
        assert answer.status_code == status, (given, answer.text)
        assert answer.json()["error"]
    tournament = create(server, starts_at=soon, max_players=2).json()
    assert server.get("/api/tournaments/nosuchthing").status_code == 404
    server.cookies.clear()
    sign_up(server, "Nefertiti")
    refused = server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    assert refused.status_code == 403
    assert server.post(f"/api/tournaments/{tournament['id']}/join", headers=csrf(server)).json()[
        "joined"
    ]
    left = server.delete(f"/api/tournaments/{tournament['id']}/join", headers=csrf(server))
    assert left.json() == {"left": True}


def test_a_tournament_starts_at_its_time_and_one_without_players_is_cancelled(
    server: TestClient,
) -> None:
    sign_up(server, "Menes")
    soon = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=5)
    tournament = create(server, starts_at=soon.isoformat(), max_players=4).json()
    service = service_of(server)
    service.clock = lambda: soon + dt.timedelta(seconds=1)
    server.portal.call(service.tick)  # type: ignore[union-attr]
    found = server.get(f"/api/tournaments/{tournament['id']}").json()
    assert found["status"] == "cancelled"  # nobody joined, and no bots allowed


def test_a_tournament_page_does_not_change_with_what_its_games_hide(server: TestClient) -> None:
    """Everything hidden in a running game of the tournament is re-dealt; the tournament's
    answer (to its player, to a guest) must stay byte for byte the same."""
    from karnak.games.amunre.rules.state import AmunReState
    from karnak.server.service import GameService
    from support.amunre_hidden import redeal_hidden

    sign_up(server, "Hatshepsut")
    tournament = create(
        server, game="amunre", format="pools", rounds=1, max_players=3, bots="easy"
    ).json()
    server.post(f"/api/tournaments/{tournament['id']}/join", headers=csrf(server))
    started = server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    game_id = started.json()["schedule"][0]["games"][0]["game_id"]
    games: GameService = server.app.state.service  # type: ignore[attr-defined]
    time.sleep(0.5)  # the bots' first moves; the game then waits for its person
    room = games.rooms[game_id]
    assert not room.is_over

    def readable() -> tuple[bytes, bytes, bytes]:
        mine = server.get(f"/api/tournaments/{tournament['id']}").content
        listed = server.get("/api/tournaments").content
        cookies = dict(server.cookies)
        server.cookies.clear()
        guest = server.get(f"/api/tournaments/{tournament['id']}").content
        server.cookies.update(cookies)
        return mine, listed, guest

    before = readable()
    original = room.state
    assert isinstance(original, AmunReState)
    other = redeal_hidden(original, None, Rng(7))
    assert other.to_json() != original.to_json()  # the re-deal did change what is hidden
    room.state = other
    try:
        assert readable() == before
    finally:
        room.state = original

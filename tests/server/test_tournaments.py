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
from support.tournaments import move_in_each_game

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
        move_in_each_game(client, found, rng, csrf(client))
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


def test_a_double_elimination_of_aton_ends_with_one_player_never_beaten_twice(
    server: TestClient,
) -> None:
    sign_up(server, "Khufu")
    tournament = create(server, format="double", max_players=6, bots="easy").json()
    assert tournament["format"] == "double"
    server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    done = run_to_the_end(server, tournament["id"])
    assert done["status"] == "finished"
    losses = {p["name"]: 0 for p in done["players"]}
    ranked = sorted(done["players"], key=lambda p: (-p["rating"], p["name"]))
    seed = {p["name"]: i for i, p in enumerate(ranked)}
    games = 0
    for round_ in done["schedule"]:
        seated = [n for g in round_["games"] for n in g["seats"]]
        assert len(seated) == len(set(seated))  # nobody plays twice in a round
        for game in round_["games"]:
            assert game["bracket"] in ("winners", "losers", "final")
            assert all(losses[n] < 2 for n in game["seats"])  # nobody out plays on
            if game["bye"]:
                continue
            games += 1
            best = min(game["places"])
            beaten = [n for n, p in zip(game["seats"], game["places"], strict=True) if p != best]
            if not beaten:  # a draw goes to the better seed: the other one lost
                beaten = [max(game["seats"], key=seed.__getitem__)]
            for name in beaten:
                losses[name] += 1
    assert sorted(losses.values())[1:] == [2] * 5
    assert games in (10, 11)  # 2n-2, one more when the grand final is played again
    champion = done["standings"][0]["name"]
    assert losses[champion] < 2
    assert done["schedule"][-1]["games"][0]["bracket"] == "final"


def test_a_tournament_by_invitation_takes_only_whom_its_creator_invited(
    server: TestClient,
) -> None:
    from support.people import People

    people = People(server)
    for name in ("Ahmose", "Tiye", "Nefertari"):
        people.sign_up(name)
    people.be("Ahmose")
    tournament = create(server, invite_only=True, max_players=4).json()
    assert tournament["invite_only"] and tournament["invited"] == [] and tournament["may_join"]
    address = f"/api/tournaments/{tournament['id']}"
    people.be("Tiye")
    seen = server.get(address).json()
    assert seen["invited"] is None and not seen["may_join"]  # who is invited is not shown
    refused = server.post(f"{address}/join", headers=csrf(server))
    assert refused.status_code == 403 and "invitation" in refused.json()["error"]
    not_hers = server.post(f"{address}/invitations", json={"names": ["Tiye"]}, headers=csrf(server))
    assert not_hers.status_code == 403
    people.be("Ahmose")
    sent = server.post(
        f"{address}/invitations",
        json={"names": ["tiye", "Nobody Here", "Tiye"]},
        headers=csrf(server),
    )
    assert sent.status_code == 200, sent.text
    assert sent.json() == {"invited": ["Tiye"], "unknown": ["Nobody Here"]}
    assert server.get(address).json()["invited"] == ["Tiye"]
    for bad in ({"names": []}, {"names": ["x" * 41]}, {"names": ["a"] * 65}, {"who": ["a"]}):
        assert (
            server.post(f"{address}/invitations", json=bad, headers=csrf(server)).status_code == 422
        )
    people.be("Tiye")
    notes = server.get("/api/notifications").json()["notifications"]
    assert any(n["link"] == f"/tournaments/{tournament['id']}" for n in notes)
    assert server.get(address).json()["may_join"]
    joined = server.post(f"{address}/join", headers=csrf(server))
    assert joined.status_code == 200 and joined.json()["joined"]
    people.be("Nefertari")
    assert server.post(f"{address}/join", headers=csrf(server)).status_code == 403
    people.be("Ahmose")
    assert server.post(f"{address}/join", headers=csrf(server)).status_code == 200  # its creator
    open_one = create(server, max_players=2).json()
    again = server.post(
        f"/api/tournaments/{open_one['id']}/invitations",
        json={"names": ["Tiye"]},
        headers=csrf(server),
    )
    assert again.status_code == 409  # open to all: nobody needs an invitation


def test_a_turn_based_tournament_gives_its_games_a_time_bank(server: TestClient) -> None:
    sign_up(server, "Djoser")
    both = create(server, turn_timer=60, time_control={"speed": "24h"})
    assert both.status_code == 422 and both.json()["error"]
    assert create(server, time_control={"per_move": 1, "bank": 0}).status_code == 422
    tournament = create(server, time_control={"speed": "24h"}, max_players=2).json()
    assert tournament["pace"] == "turn-based"
    assert tournament["time_control"] == {"per_move": 86_400.0, "bank": 259_200.0}
    fast = create(server, time_control={"speed": "fast"}, max_players=2).json()
    assert fast["pace"] == "real-time"
    server.post(f"/api/tournaments/{tournament['id']}/join", headers=csrf(server))
    started = server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server)).json()
    # one player and no bots allowed: too few for a game, so it is cancelled
    assert started["status"] == "cancelled"
    with_bots = create(server, time_control={"speed": "24h"}, max_players=2, bots="easy").json()
    server.post(f"/api/tournaments/{with_bots['id']}/join", headers=csrf(server))
    running = server.post(f"/api/tournaments/{with_bots['id']}/start", headers=csrf(server)).json()
    game_id = running["schedule"][0]["games"][0]["game_id"]
    room = server.app.state.service.rooms[game_id]  # type: ignore[attr-defined]
    assert room.time_control is not None and room.time_control.per_move == 86_400
    assert room.turn_timer is None


def test_the_report_gives_every_player_and_seat_a_share_with_its_interval(
    server: TestClient,
) -> None:
    sign_up(server, "Sneferu")
    tournament = create(server, rounds=2, max_players=5, bots="easy").json()
    server.post(f"/api/tournaments/{tournament['id']}/start", headers=csrf(server))
    done = run_to_the_end(server, tournament["id"])
    report = done["report"]
    played = [g for r in done["schedule"] for g in r["games"] if not g["bye"]]
    assert sum(row["games"] for row in report["players"]) == 2 * len(played)
    assert sum(row["score"] for row in report["players"]) == pytest.approx(len(played))
    assert [row["seat"] for row in report["seats"]] == [1, 2]
    assert all(row["games"] == len(played) for row in report["seats"])
    for row in report["players"] + report["seats"]:
        low, high = row["interval"]
        if row["games"]:
            assert 0 <= low <= row["share"] <= high <= 1
            assert high - low > 0.1  # a handful of games says little, and the report shows it
    by_standing = {row["name"]: row["points"] for row in done["standings"]}
    for row in report["players"]:
        byes = sum(
            1
            for r in done["schedule"]
            for g in r["games"]
            if g["bye"] and g["seats"] == [row["name"]]
        )
        assert row["score"] == pytest.approx(by_standing[row["name"]] - byes)


def test_an_egyptia_duel_tournament_and_an_egyptia_pool_run_to_the_end(
    server: TestClient,
) -> None:
    """Egyptia takes both kinds: duels (the two-player formats) and pools of three to
    five builders."""
    sign_up(server, "Imhotep")
    duel = create(server, game="egyptia", format="elimination", max_players=2, bots="easy").json()
    pool = create(
        server, game="egyptia", format="pools", rounds=1, max_players=3, bots="easy"
    ).json()
    for made in (duel, pool):
        started = server.post(f"/api/tournaments/{made['id']}/start", headers=csrf(server))
        assert started.status_code == 200, started.text
    for made, seats in ((duel, 2), (pool, 3)):
        done = run_to_the_end(server, made["id"])
        assert done["status"] == "finished"
        assert [len(g["seats"]) for g in done["schedule"][0]["games"]] == [seats]
        assert len(done["standings"]) == seats


def test_two_processes_start_each_round_once_and_write_each_result_once(
    database: str,
) -> None:
    """Both processes look after the same tournament at the same moments: every round is
    made once (its games made by one process) and the tournament ends as with one."""
    import threading

    with (
        TestClient(create_app(database, bot_workers=0, settings=settings())) as one,
        TestClient(create_app(database, bot_workers=0, settings=settings())) as two,
    ):
        sign_up(one, "Sahure")
        made = create(one, rounds=3, max_players=6, bots="easy").json()
        started = one.post(f"/api/tournaments/{made['id']}/start", headers=csrf(one))
        assert started.status_code == 200
        deadline = time.monotonic() + 240
        found: dict[str, Any] = {}
        while time.monotonic() < deadline:
            ticks = [
                threading.Thread(target=c.portal.call, args=(service_of(c).tick,))  # type: ignore[union-attr]
                for c in (one, two)
            ]
            for thread in ticks:
                thread.start()
            for thread in ticks:
                thread.join()
            found = two.get(f"/api/tournaments/{made['id']}").json()
            if found["status"] == "finished":
                break
            time.sleep(0.05)
        assert found["status"] == "finished" and found["round"] == 3
        assert [len(r["games"]) for r in found["schedule"]] == [3, 3, 3]
        assert sum(row["points"] for row in found["standings"]) == 9

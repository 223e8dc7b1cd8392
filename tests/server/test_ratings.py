"""Ratings: which games are rated, bots on the same scale, exactly once over restarts, the
abandonment rule (a stored ``result["left"]``), the history, and the routes' bounds; on
SQLite and PostgreSQL."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from karnak.core.rng import Rng
from karnak.i18n import use_language
from karnak.server.app import create_app
from karnak.server.bot_names import level_label
from karnak.server.db import GameRow, make_engine, run_migrations
from karnak.server.ratings import rules
from karnak.server.ratings.rules import Rated, Seat, decide, ordinal
from karnak.server.ratings.service import RatingService
from karnak.server.service import GameService

PASSWORD = "two crowns, one Nile"
START = rules.start()


# ---------------------------------------------------------------------- helpers
def sign_up(client: TestClient, name: str) -> int:
    """A new account (straight through the store: the HTTP sign-up is tested elsewhere)."""
    accounts: Any = client.app.state.accounts  # type: ignore[attr-defined]
    return int(accounts.store.sign_up(name, PASSWORD).id)


def new_game(
    client: TestClient,
    seats: list[dict[str, Any]],
    accounts: dict[int, int] | None = None,
    game: str = "egyptia",
    seed: int = 3,
) -> tuple[str, list[str | None]]:
    """A game whose seats ``accounts`` maps to accounts (seat -> account id)."""
    response = client.post("/api/games", json={"game": game, "seats": seats, "seed": seed})
    assert response.status_code == 201, response.text
    created = response.json()
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[created["id"]]
    for seat, account in (accounts or {}).items():
        client.portal.call(service.claim_seat, room, seat, account)  # type: ignore[union-attr]
    return created["id"], [s["token"] for s in created["seats"]]


def finish(client: TestClient, game_id: str, tokens: list[str | None], seed: int = 1) -> None:
    """Random legal moves for the human seats (bots move on their own) until the end."""
    rng = Rng(seed)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        public = client.get(f"/api/games/{game_id}").json()
        if public["status"] == "finished":
            return
        humans = [s for s in public["to_move"] if tokens[s] is not None]
        if not humans:
            time.sleep(0.01)  # a bot thinks
            continue
        for seat in humans:
            mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
            if not mine["legal"]:
                continue
            choice = mine["legal"][rng.below(len(mine["legal"]))]
            client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[seat]},
                json={"version": mine["version"], "action": choice["action"]},
            )
    raise AssertionError("the game did not finish")


def settle(client: TestClient) -> None:
    """Wait until the ratings service has rated every game that ended."""
    ratings: RatingService = client.app.state.ratings  # type: ignore[attr-defined]
    client.portal.call(ratings.idle)  # type: ignore[union-attr]


def changes(client: TestClient, game_id: str) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/ratings")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def board(client: TestClient, game: str = "egyptia", **params: Any) -> dict[str, Any]:
    response = client.get(f"/api/leaderboard/{game}", params=params)
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def table_counts(database: str) -> tuple[int, int, int]:
    engine = make_engine(database)
    with engine.connect() as connection:
        counts = tuple(
            int(connection.execute(text(f"SELECT COUNT(*) FROM {table}")).scalar_one())
            for table in ("ratings", "rated_games", "rating_events")
        )
    engine.dispose()
    return counts  # type: ignore[return-value]


TWO_AND_A_BOT = [{"name": "Ana"}, {"name": "Bes"}, {"kind": "bot", "bot": "random"}]


@pytest.fixture
def no_live_ratings(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Servers that do not hear games end (as if stopped between a game's end and its
    rating): only the catch-up at the next start can rate them."""
    monkeypatch.setattr(RatingService, "_changed", lambda self, event: None)
    yield
    monkeypatch.undo()


# ---------------------------------------------------------------------- the rules
def test_which_games_are_rated() -> None:
    ana, bes = Seat(0, "human", None, 1), Seat(1, "human", None, 2)
    bot = Seat(2, "bot", "heuristic", None)
    guest = Seat(1, "human", None, None)
    result = {"ranks": [2, 1, 3], "scores": [5, 9, 1], "winners": [1]}
    assert decide([ana, bes, bot], result).rated
    assert decide([ana], {"ranks": [1]}).reason == "a game of one player is not rated"
    assert "guest" in (decide([ana, guest], {"ranks": [1, 2]}).reason or "")
    bots = [Seat(0, "bot", "random", None), Seat(1, "bot", "heuristic", None)]
    assert "without an account" in (decide(bots, {"ranks": [1, 2]}).reason or "")
    same = [Seat(0, "human", None, 1), Seat(1, "human", None, 1)]
    assert not decide(same, {"ranks": [1, 2]}).rated
    assert not decide([ana, bes], {"scores": [1, 2]}).rated  # no ranks stored
    assert not decide([ana, bes], None).rated
    rated = decide([ana, bes, bot], result).seats
    assert [(s.account, s.bot, s.rank) for s in rated] == [
        (1, None, 2),
        (2, None, 1),
        (None, "heuristic", 3),
    ]


def test_a_player_who_left_is_last_and_the_bot_in_the_seat_is_not_rated() -> None:
    # Ana left; a bot took her seat over and went on to win it
    ana = Seat(0, "bot", "heuristic", 1)
    bes, bot = Seat(1, "human", None, 2), Seat(2, "bot", "random", None)
    decision = decide([ana, bes, bot], {"ranks": [1, 2, 3], "left": [0]})
    assert [(s.seat, s.account, s.bot, s.rank, s.left) for s in decision.seats] == [
        (0, 1, None, 4, True),
        (1, 2, None, 2, False),
        (2, None, "random", 3, False),
    ]
    # two who left share the last place
    both = decide([Seat(0, "human", None, 1), bes, bot], {"ranks": [1, 2, 3], "left": [0, 1]})
    assert [s.rank for s in both.seats] == [4, 4, 3]
    # a seat that left without an account to rate: like a guest
    nameless = decide([Seat(0, "bot", "heuristic", None), bes], {"ranks": [1, 2], "left": [0]})
    assert nameless.reason == "a player who left had no account"
    # a malformed list is ignored, not trusted
    assert decide([ana, bes], {"ranks": [1, 2], "left": ["x", 9]}).seats[0].rank == 1


def test_winners_gain_losers_lose_ties_are_even_and_bots_do_not_drift() -> None:
    ana, bes = Rated(0, 1, None, 1, False), Rated(1, 2, None, 2, False)
    bot = Rated(2, None, "heuristic", 3, False)
    new = rules.update({}, [ana, bes, bot])
    assert new[ana.key][0] > START[0] > new[bot.key][0]
    assert ordinal(*new[ana.key]) > ordinal(*new[bes.key]) > ordinal(*new[bot.key])
    tied = rules.update({}, [Rated(0, 1, None, 1, False), Rated(1, 2, None, 1, False)])
    assert tied[(1, None)] == pytest.approx(tied[(2, None)])
    # mirror seats of one bot cancel out, and one bot spec is one rating
    mirror = rules.update(
        {},
        [
            Rated(0, 1, None, 2, False),
            Rated(1, None, "random", 1, False),
            Rated(2, None, "random", 3, False),
        ],
    )
    assert set(mirror) == {(1, None), (None, "random")}
    # drift: a person's sigma grows before the update, a bot's does not
    settled = {(1, None): (30.0, 2.0), (None, "heuristic"): (30.0, 2.0)}
    even = rules.update(
        settled, [Rated(0, 1, None, 1, False), Rated(1, None, "heuristic", 1, False)]
    )
    assert even[(1, None)][1] > even[(None, "heuristic")][1]


# ---------------------------------------------------------------------- on the server
def test_a_rated_game_moves_accounts_and_bots_on_one_scale(client: TestClient) -> None:
    ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
    game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes})
    assert client.get(f"/api/games/{game_id}/ratings").status_code == 409  # running
    finish(client, game_id, tokens)
    settle(client)
    found = changes(client, game_id)
    assert found["status"] == "rated" and found["reason"] is None
    seats = found["seats"]
    assert [(s["seat"], s["kind"], s["account"], s["bot"]) for s in seats] == [
        (0, "account", "Ana", None),
        (1, "account", "Bes", None),
        (2, "bot", None, "random"),
    ]
    ranks = client.get(f"/api/games/{game_id}").json()["result"]["ranks"]
    assert [s["rank"] for s in seats] == ranks
    expected = rules.update(
        {},
        [
            Rated(0, ana, None, ranks[0], False),
            Rated(1, bes, None, ranks[1], False),
            Rated(2, None, "random", ranks[2], False),
        ],
    )
    for seat, key in zip(seats, [(ana, None), (bes, None), (None, "random")], strict=True):
        assert seat["before"] == 0.0
        assert seat["after"] == round(ordinal(*expected[key]), 1)
        assert seat["change"] == pytest.approx(seat["after"] - seat["before"])
    listed = board(client)
    assert listed["total"] == 3 and listed["title"] == "Egyptia"
    names = [e["name"] for e in listed["entries"]]
    assert set(names) == {"Ana", "Bes", "Easy bot"}  # a bot by its level, its spec beside
    (bot,) = [e for e in listed["entries"] if e["kind"] == "bot"]
    assert (bot["bot"], bot["level"]) == ("random", "easy")
    german = client.get("/api/leaderboard/egyptia", headers={"Accept-Language": "de"}).json()
    with use_language("de"):
        assert level_label("easy") != "Easy bot"
        assert {e["name"] for e in german["entries"]} == {"Ana", "Bes", level_label("easy")}
    assert [e["rating"] for e in listed["entries"]] == sorted(
        (e["rating"] for e in listed["entries"]), reverse=True
    )
    assert all(e["games"] == 1 for e in listed["entries"])
    assert sum(e["wins"] for e in listed["entries"]) == ranks.count(1)
    assert board(client, "aton")["total"] == 0  # each game has its own scale


def test_guests_solo_games_and_bots_alone_are_not_rated(client: TestClient) -> None:
    ana = sign_up(client, "Ana")
    guest_game, tokens = new_game(client, TWO_AND_A_BOT, {0: ana})  # Bes plays as a guest
    finish(client, guest_game, tokens)
    solo, solo_tokens = new_game(client, [{"name": "Ana"}], {0: ana})
    finish(client, solo, solo_tokens)
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    bot_game, bot_tokens = new_game(client, bots)
    finish(client, bot_game, bot_tokens)
    settle(client)
    assert "guest" in changes(client, guest_game)["reason"]
    assert changes(client, solo)["reason"] == "a game of one player is not rated"
    assert "without an account" in changes(client, bot_game)["reason"]
    assert all(changes(client, g)["status"] == "unrated" for g in (guest_game, solo, bot_game))
    assert board(client)["total"] == 0


def test_a_game_counts_once_over_restarts(database: str, no_live_ratings: None) -> None:
    """A game that ended while nobody rated it is rated at the next start, once; the starts
    after that, and a second rating of the same game, change nothing."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
        game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes})
        finish(client, game_id, tokens)
        settle(client)
        assert changes(client, game_id)["status"] == "pending"
    assert table_counts(database) == (0, 0, 0)
    rated: list[dict[str, Any]] = []
    for _ in range(3):  # the first start catches up, the others find nothing to do
        with TestClient(create_app(database, bot_workers=0)) as client:
            settle(client)
            rated.append(changes(client, game_id))
            ratings: RatingService = client.app.state.ratings  # type: ignore[attr-defined]
            assert not ratings.store.rate(game_id).done  # asked again: already counted
            listed = board(client)
        assert all(e["games"] == 1 for e in listed["entries"])
        assert table_counts(database) == (3, 1, 3)
    assert rated[0]["status"] == "rated" and rated[0] == rated[1] == rated[2]


def test_the_live_path_and_the_catch_up_meet_without_counting_twice(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
        game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes})
        finish(client, game_id, tokens)
        settle(client)
        ratings: RatingService = client.app.state.ratings  # type: ignore[attr-defined]
        before = changes(client, game_id)
        # what a restart's catch-up (or a second server process) would do now
        client.portal.call(ratings.catch_up)  # type: ignore[union-attr]
        assert not ratings.store.rate(game_id).done
        assert changes(client, game_id) == before
    assert table_counts(database) == (3, 1, 3)


def test_a_player_who_left_counts_last(database: str, no_live_ratings: None) -> None:
    """The abandonment rule with a stored ``result["left"]``: the seat is rated as its
    account's last place, whatever the game's ranks say, and is never a win."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
        game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes})
        finish(client, game_id, tokens)
        result = client.get(f"/api/games/{game_id}").json()["result"]
    engine = make_engine(database)
    with engine.begin() as connection:
        stored = dict(result, left=[0])
        games: Any = GameRow.__table__
        connection.execute(games.update().where(games.c.id == game_id).values(result=stored))
    engine.dispose()
    with TestClient(create_app(database, bot_workers=0)) as client:
        settle(client)
        seats = changes(client, game_id)["seats"]
        profile = client.get("/api/players/Ana").json()
    assert seats[0]["left"] and seats[0]["rank"] == max(result["ranks"][1:]) + 1
    assert seats[0]["change"] < 0 and seats[0]["rank"] > seats[1]["rank"]
    assert [s["rank"] for s in seats[1:]] == result["ranks"][1:]
    egyptia = next(g for g in profile["games"] if g["game"] == "egyptia")
    assert egyptia["played"] == 1 and egyptia["wins"] == 0
    assert profile["recent"][0]["left"] and not profile["recent"][0]["won"]


def test_the_history_keeps_each_game_before_and_after(client: TestClient) -> None:
    ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
    played = []
    for seed in (3, 4, 5):
        game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes}, seed=seed)
        finish(client, game_id, tokens, seed=seed)
        played.append(game_id)
    settle(client)
    history = next(
        g for g in client.get("/api/players/Ana").json()["games"] if g["game"] == "egyptia"
    )
    points = history["history"]
    assert [p["game_id"] for p in points] == played
    assert points[0]["before"] == 0.0
    for earlier, later in itertools.pairwise(points):
        assert later["before"] == earlier["rating"]
    assert history["rating"]["rating"] == points[-1]["rating"]
    assert history["rating"]["games"] == 3
    for game_id, point in zip(played, points, strict=True):
        mine = changes(client, game_id)["seats"][0]
        assert (mine["before"], mine["after"]) == (point["before"], point["rating"])


def test_the_routes_refuse_what_they_do_not_know(client: TestClient) -> None:
    assert client.get("/api/leaderboard/chess").status_code == 404
    assert client.get("/api/leaderboard/egyptia", params={"limit": 0}).status_code == 422
    assert client.get("/api/leaderboard/egyptia", params={"limit": 101}).status_code == 422
    assert client.get("/api/leaderboard/egyptia", params={"offset": -1}).status_code == 422
    assert client.get("/api/leaderboard/egyptia", params={"offset": 10**6}).status_code == 422
    assert client.get("/api/games/nothing-here/ratings").status_code == 404
    assert client.get("/api/games/%00/ratings").status_code == 404
    for name in ("Nobody", "a", "x" * 41, "%00", "%F0%9F%90%8D", "Ana%0A", "%ED%A0%80"):
        response = client.get(f"/api/players/{name}")
        assert response.status_code == 404, name
        assert response.json() == {"error": "there is no player with this name"}


def test_the_leaderboard_pages(client: TestClient) -> None:
    ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
    game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes})
    finish(client, game_id, tokens)
    settle(client)
    whole = board(client)["entries"]
    pages = [board(client, limit=1, offset=k) for k in range(4)]
    assert [p["entries"] for p in pages[:3]] == [[e] for e in whole]
    assert pages[3]["entries"] == [] and pages[3]["total"] == 3
    assert [e["place"] for e in whole] == [1, 2, 3]


def test_the_migration_adds_ratings_to_a_database_with_games(database: str) -> None:
    """Migration 0008_ratings on its own branch: down and up again keeps every game, and the
    first start rates the finished games of a database from before ratings, as they were."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        ana, bes = sign_up(client, "Ana"), sign_up(client, "Bes")
        game_id, tokens = new_game(client, TWO_AND_A_BOT, {0: ana, 1: bes})
        finish(client, game_id, tokens)
        settle(client)
        rated = changes(client, game_id)
        view = client.get(f"/api/games/{game_id}").json()
    engine = make_engine(database)
    run_migrations(engine, "downgrade", "0008_ratings")  # below the merge of the branches
    run_migrations(engine, "downgrade", "0008_ratings@-1")
    assert not {"ratings", "rated_games", "rating_events"} & set(inspect(engine).get_table_names())
    engine.dispose()
    with TestClient(create_app(database, bot_workers=0)) as client:
        settle(client)
        assert client.get(f"/api/games/{game_id}").json() == view
        assert changes(client, game_id) == rated
    assert table_counts(database) == (3, 1, 3)

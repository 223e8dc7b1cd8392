"""Bounded bot work: a refused over-limit bot, clamped old games, one think per game at once."""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.bot_runner as bot_runner
from karnak.bots.base import SeatView, make_bot
from karnak.core import Rng, get_game
from karnak.server.app import create_app
from karnak.server.bot_limits import ITERATIONS_PER_SECOND, bound, charge, check_bots, think_limit
from karnak.server.db import make_engine, migrate
from karnak.server.limits import LimitError, ServerSettings
from karnak.server.rooms import BOT, HUMAN, Room, SeatInfo, hash_token, new_token
from karnak.server.store import GameStore

from .conftest import humans, wait_for

SETTINGS = ServerSettings()  # 10 s a move, 200 000 iterations, 60 s a game
AMUNRE = get_game("amunre")
EGYPTIA = get_game("egyptia")


def bots(*specs: str) -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": spec} for spec in specs]


def refused(client: TestClient, game: str, seats: list[dict[str, Any]]) -> str:
    response = client.post("/api/games", json={"game": game, "seats": seats})
    assert response.status_code == 422, response.text
    error: str = response.json()["error"]
    return error


# ---------------------------------------------------------------------- refused at creation
def test_a_bot_asking_more_than_the_think_limit_is_refused(client: TestClient) -> None:
    error = refused(client, "amunre", [*humans(3), *bots("ismcts:99999999s")])
    assert "at most 10 s a move" in error and "ismcts:99999999s" in error
    error = refused(client, "amunre", [*humans(3), *bots("ismcts:10001ms")])
    assert "at most 10 s a move" in error
    assert client.get("/api/games").json() == []


def test_a_bot_asking_more_iterations_than_allowed_is_refused(client: TestClient) -> None:
    error = refused(client, "amunre", [*humans(3), *bots("ismcts:200001")])
    assert "at most 200000 iterations" in error and "ismcts:200001" in error


def test_a_game_whose_bots_ask_too_much_together_is_refused(client: TestClient) -> None:
    error = refused(client, "egyptia", bots(*["ismcts:10s"] * 6, "ismcts:1s"))
    assert "60 s" in error and "61 s" in error
    assert client.get("/api/games").json() == []


def test_the_limits_accept_what_fits_exactly() -> None:
    check_bots(["ismcts:10s"] * 6, EGYPTIA, SETTINGS)  # 60 s: exactly the game's limit
    check_bots([None, "ismcts:200000", "heuristic", "random"], AMUNRE, SETTINGS)
    check_bots(["ismcts:10ms"] * 99, EGYPTIA, SETTINGS)
    with pytest.raises(LimitError) as refusal:
        check_bots(["ismcts:10s"] * 6, EGYPTIA, ServerSettings(max_game_think=59.5))
    assert refusal.value.status == 422


def test_how_much_each_bot_counts_toward_its_game() -> None:
    """A time budget counts its time; an iteration budget its estimated time, at most
    max_think (the most it may take); a bot that does not search, nothing."""
    assert charge("ismcts:2.5s", AMUNRE, SETTINGS) == 2.5
    assert charge("ismcts", AMUNRE, SETTINGS) == 1.0  # the search's default budget
    assert charge("ismcts:300", AMUNRE, SETTINGS) == pytest.approx(300 / ITERATIONS_PER_SECOND)
    assert charge("ismcts:200000", AMUNRE, SETTINGS) == 10.0
    assert charge("heuristic", AMUNRE, SETTINGS) == 0.0
    assert charge("random", AMUNRE, SETTINGS) == 0.0


# ---------------------------------------------------------------------- clamped when thinking
def test_each_bot_thinks_at_most_max_think_or_its_share_of_the_game() -> None:
    fits = ["ismcts:2s", "ismcts:300", "heuristic"]
    assert think_limit(fits, 0, AMUNRE, SETTINGS) == 10.0
    assert think_limit(fits, 1, AMUNRE, SETTINGS) == 10.0
    stored = ["ismcts:99999999s", "ismcts:99999999s", "ismcts:99999999", None]
    small = ServerSettings(max_think=10.0, max_game_think=15.0)
    assert [think_limit(stored, seat, AMUNRE, small) for seat in range(3)] == [5.0, 5.0, 5.0]


def test_a_bounded_search_stops_at_its_time_whatever_its_budget() -> None:
    state = AMUNRE.new_state(4, seed=3)
    seat = state.to_move()[0]
    for spec in ("ismcts:99999999", "ismcts:99999999s"):
        bot = bound(make_bot(spec, AMUNRE), seconds=0.2, iterations=SETTINGS.max_iterations)
        start = time.monotonic()
        action = bot.choose(SeatView.of(state, seat), Rng(1))
        assert time.monotonic() - start < 10
        assert action in state.legal_actions(seat)


def store_game(database: str, game: str, specs: Sequence[str | None], seed: int = 1) -> str:
    """Write a game straight to the database, as an older server with larger limits would
    have: no check on its bots, and nothing thinks until a server loads it."""
    engine = make_engine(database)
    migrate(engine)
    found = get_game(game)
    names = found.seat_names(len(specs))
    seats = [
        SeatInfo(i, names[i], BOT if spec else HUMAN, spec, hash_token(new_token()))
        for i, spec in enumerate(specs)
    ]
    state = found.new_state(names, seed=seed)
    room = Room(secrets.token_urlsafe(9), found, state, seats, seed)
    GameStore(engine).create(room)
    engine.dispose()
    return room.id


def version(client: TestClient, game_id: str) -> int:
    answer: int = client.get(f"/api/games/{game_id}").json()["version"]
    return answer


def test_a_stored_game_over_the_limits_resumes_and_its_bots_move(database: str) -> None:
    game_id = store_game(database, "amunre", ["ismcts:99999999s"] * 3 + ["ismcts:99999999"])
    settings = ServerSettings(max_think=0.2, max_game_think=0.4)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        wait_for(lambda: version(client, game_id) >= 6, timeout=90)


# ---------------------------------------------------------------------- fairness
@pytest.fixture
def thinking(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[int, int]]:
    """Count the thinks in flight per game (by its seed); the most seen at once, per game."""
    real = bot_runner.think
    lock = threading.Lock()
    now: dict[int, int] = {}
    most: dict[int, int] = {}

    def counted(record: dict[str, Any], *args: Any, **kwargs: Any) -> str:
        game = record["seed"]
        with lock:
            now[game] = now.get(game, 0) + 1
            most[game] = max(most.get(game, 0), now[game])
        try:
            time.sleep(0.05)  # long enough for another seat's think to overlap, if allowed
            return real(record, *args, **kwargs)
        finally:
            with lock:
                now[game] -= 1

    monkeypatch.setattr(bot_runner, "think", counted)
    yield most


def test_the_seats_of_one_game_think_one_at_a_time(
    client: TestClient, thinking: dict[int, int]
) -> None:
    """Egyptia's first step is every builder's at once: four bots to move together."""
    for seed in (1, 2):
        response = client.post(
            "/api/games", json={"game": "egyptia", "seats": bots(*["random"] * 4), "seed": seed}
        )
        assert response.status_code == 201, response.text
    game_ids = [game["id"] for game in client.get("/api/games").json()]
    wait_for(lambda: all(version(client, game_id) >= 12 for game_id in game_ids))
    assert thinking == {1: 1, 2: 1}


def test_two_slow_games_cannot_starve_a_third(database: str) -> None:
    """One worker; two stored games whose bots ask for days; a game of quick heuristic bots
    still moves: each slow think is cut at max_think and a game thinks for one seat at a
    time, so the quick game's turn comes after at most one think of each slow game."""
    slow = [store_game(database, "amunre", ["ismcts:99999999s"] * 4, seed) for seed in (1, 2)]
    quick = store_game(database, "amunre", ["heuristic"] * 4, seed=3)
    settings = ServerSettings(max_think=0.5, max_game_think=2.0)
    with TestClient(create_app(database, bot_workers=1, settings=settings)) as client:
        wait_for(lambda: version(client, quick) >= 8, timeout=120)
        assert all(version(client, game_id) >= 1 for game_id in slow)

"""The game of the day (karnak.server.daily): one deal a day for everybody, one ranked game per
account, results that show numbers only until the day is over, and nothing of the deal that a
player has not reached, through any channel."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.rooms
from karnak.core.rng import Rng
from karnak.server.app import create_app
from karnak.server.daily.days import DayError, day_seed, parse_day
from karnak.server.daily.service import DailyService
from karnak.server.daily.store import streaks
from karnak.server.limits import ServerSettings
from karnak.server.service import GameService
from support.people import People

from .conftest import GENEROUS, wait_for
from .test_accounts import csrf


# ---------------------------------------------------------------------- the parts
def test_a_days_seed_comes_from_the_secret_and_the_day_alone() -> None:
    day = dt.date(2026, 11, 29)
    seed = day_seed(b"s" * 32, "egyptia", day)
    assert seed == day_seed(b"s" * 32, "egyptia", day)
    assert 0 <= seed < 1 << 62
    assert seed != day_seed(b"t" * 32, "egyptia", day)  # another server, another deal
    assert seed != day_seed(b"s" * 32, "egyptia", day + dt.timedelta(days=1))
    assert seed != day_seed(b"s" * 32, "aton", day)


def test_only_days_from_the_first_to_today_can_be_played() -> None:
    today, first = dt.date(2026, 11, 29), dt.date(2026, 11, 1)
    assert parse_day("today", today, first) == today
    assert parse_day("2026-11-01", today, first) == first
    for bad in ("2026-11-30", "2026-10-31", "29/11/2026", "2026-1-1", "", "x" * 500):
        with pytest.raises(DayError):
            parse_day(bad, today, first)


def test_a_streak_counts_days_in_a_row_and_lasts_until_the_day_is_over() -> None:
    today = dt.date(2026, 11, 29)
    days = [today - dt.timedelta(days=n) for n in (1, 2, 3, 5, 6, 7, 8)]
    assert streaks(days, today) == (3, 4)  # today not played yet: the streak holds
    assert streaks([*days, today], today) == (4, 4)
    assert streaks([today - dt.timedelta(days=2)], today) == (0, 1)
    assert streaks([], today) == (0, 0)


def test_the_bots_of_the_day_are_levels_or_the_server_does_not_start() -> None:
    with pytest.raises(ValueError, match="daily_bots: 'wizard' is not a level"):
        create_app("sqlite://", settings=ServerSettings(daily_bots="expert, wizard"))
    create_app("sqlite://", settings=ServerSettings(daily_bots=""))  # none is fine


# ---------------------------------------------------------------------- a server
class Clock:
    """The server's "now" for the day and the seals alike, moved by whole days."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, daily: DailyService) -> None:
        self.offset = dt.timedelta()
        self.daily = daily
        daily.clock = self.now
        monkeypatch.setattr(karnak.server.rooms, "seal_clock", self.now)

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC) + self.offset

    def next_day(self) -> None:
        self.offset += dt.timedelta(days=1)


@pytest.fixture
def server(database: str) -> Iterator[TestClient]:
    settings = ServerSettings(**{**GENEROUS, "daily_bots": "medium"})
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        yield client


@pytest.fixture
def clock(server: TestClient, monkeypatch: pytest.MonkeyPatch) -> Clock:
    return Clock(monkeypatch, daily_of(server))


def daily_of(client: TestClient) -> DailyService:
    daily: DailyService = client.app.state.daily  # type: ignore[attr-defined]
    return daily


def games_of(client: TestClient) -> GameService:
    games: GameService = client.app.state.service  # type: ignore[attr-defined]
    return games


def play(client: TestClient, day: str = "today") -> Any:
    return client.post(f"/api/daily/{day}/play", json={}, headers=csrf(client))


def finish(client: TestClient, game_id: str, token: str | None = None, seed: int = 1) -> None:
    """Legal moves chosen at random by the seat (its token, or the session) to the end."""
    rng = Rng(seed)
    params = {"token": token} if token else {}
    for _ in range(2_000):
        mine = client.get(f"/api/games/{game_id}", params=params).json()
        if mine["status"] == "finished":
            return
        if not mine["legal"]:
            continue
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        client.post(
            f"/api/games/{game_id}/actions",
            params=params,
            json={"version": mine["version"], "action": choice["action"]},
            headers=csrf(client),
        )
    raise AssertionError("the game did not finish")


def settled(client: TestClient, *game_ids: str) -> None:
    """Wait until the results of these days' games were written (by game: the bots of the
    day write theirs too, so a count of results written could include theirs)."""
    store = daily_of(client).store

    def written() -> bool:
        rows = [store.by_game(game_id) for game_id in game_ids]
        return all(row is not None and row.finished_at is not None for row in rows)

    wait_for(written)


# ---------------------------------------------------------------------- playing a day
def test_an_account_has_one_ranked_game_a_day_and_a_guest_plays_unranked(
    server: TestClient, clock: Clock
) -> None:
    people = People(server)
    people.sign_up("Ahmose")
    first = play(server)
    assert first.status_code == 201, first.text
    game = first.json()
    assert game["ranked"] and not game["resumed"] and game["token"] is None
    assert game["url"] == f"/games/{game['game_id']}"
    again = play(server)
    assert again.status_code == 200
    assert again.json()["game_id"] == game["game_id"] and again.json()["resumed"]
    overview = server.get("/api/daily").json()
    assert overview["attempt"]["game_id"] == game["game_id"]
    assert overview["you"] == {"name": "Ahmose", "streak": 0, "best_streak": 0}
    assert overview["game"] == "egyptia" and overview["day"] == clock.now().date().isoformat()
    people.be(None)
    guest = play(server).json()
    other = play(server).json()
    assert not guest["ranked"] and guest["token"] and guest["game_id"] != other["game_id"]
    finish(server, guest["game_id"], guest["token"])
    settled(server, guest["game_id"])  # the result is written once the game is over
    shared = server.get(f"/api/daily/share/{guest['game_id']}", params={"token": guest["token"]})
    assert shared.status_code == 200 and "point" in shared.json()["text"]
    assert server.get("/api/daily").json()["attempt"] is None
    # everyone is dealt the same: the same Pharaoh cards and the same first dice
    people.be("Ahmose")
    mine = server.get(f"/api/games/{game['game_id']}").json()
    theirs = server.get(f"/api/games/{other['game_id']}", params={"token": other["token"]}).json()
    assert mine["observation"]["cards"] == theirs["observation"]["cards"]
    assert mine["observation"]["dice"] == theirs["observation"]["dice"]


def test_without_a_csrf_header_a_session_cannot_start_a_game(server: TestClient) -> None:
    People(server).sign_up("Kamose")
    refused = server.post("/api/daily/today/play", json={})
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]


def test_bad_days_are_told_clearly(server: TestClient, clock: Clock) -> None:
    for day in ("tomorrow", "2999-01-01", "1999-01-01", "x" * 17, "2026-02-30"):
        answer = server.post(f"/api/daily/{day}/play", json={})
        assert answer.status_code == 404, (day, answer.text)
        assert answer.json()["error"]
        board = server.get(f"/api/daily/{day}/leaderboard")
        assert board.status_code == 404 and board.json()["error"]
    assert server.get("/api/daily/calendar", params={"days": 0}).status_code == 422
    assert server.get("/api/daily/calendar", params={"days": 367}).status_code == 422
    assert server.get("/api/daily/players/nobody-here").status_code == 404
    assert server.get("/api/daily/share/nosuchgame").status_code == 404


def test_the_leaderboard_shows_numbers_until_the_day_is_over_then_the_games(
    server: TestClient, clock: Clock
) -> None:
    people = People(server)
    games = {}
    for index, name in enumerate(("Ahhotep", "Nefertari", "Tiye")):
        people.sign_up(name)
        games[name] = play(server).json()["game_id"]
        finish(server, games[name], seed=index + 1)
    settled(server, *games.values())
    board = server.get("/api/daily/today/leaderboard").json()
    assert not board["final"] and board["total"] == 3
    assert sorted(e["name"] for e in board["entries"]) == ["Ahhotep", "Nefertari", "Tiye"]
    assert all(e["game_id"] is None for e in board["entries"])
    keys = [(-e["score"], e["plagues"], e["seconds"]) for e in board["entries"]]
    assert keys == sorted(keys)
    places = [e["place"] for e in board["entries"]]
    assert places[0] == 1 and places == sorted(places)
    # nobody else may look at a game of today, nor its record, replay or chat; the
    # public list does not show it
    people.be("Tiye")
    theirs = games["Ahhotep"]
    for path in ("", "/record", "/replay", "/replay/0", "/chat"):
        answer = server.get(f"/api/games/{theirs}{path}")
        assert answer.status_code == 403, (path, answer.text)
    # even its own player waits for the record, which holds the seed
    assert server.get(f"/api/games/{games['Tiye']}/record").status_code == 403
    assert all(g["id"] not in games.values() for g in server.get("/api/games").json())
    profile = server.get("/api/players/Ahhotep").json()  # the public profile waits too
    assert all(g["id"] != theirs for g in profile["recent"])
    with server.websocket_connect(f"/api/games/{theirs}/ws") as socket:
        closed = socket.receive()
    assert closed["type"] == "websocket.close" and closed["code"] == 4403
    share = server.get(f"/api/daily/share/{games['Tiye']}").json()["text"]
    assert "of the day" in share and "point" in share
    assert server.get(f"/api/daily/share/{theirs}").status_code == 403
    mine = server.get("/api/daily").json()
    assert mine["attempt"]["finished"] and mine["attempt"]["place"] in (1, 2, 3)
    assert mine["you"]["streak"] == 1 and mine["players"] == 3
    day = board["day"]
    clock.next_day()  # the day is over: everything opens
    final = server.get(f"/api/daily/{day}/leaderboard").json()
    assert final["final"] and {e["game_id"] for e in final["entries"]} == set(games.values())
    assert server.get(f"/api/games/{theirs}").status_code == 200
    record = server.get(f"/api/games/{theirs}/record")
    assert record.status_code == 200 and record.json()["seed"] >= 0
    assert server.get(f"/api/games/{theirs}/replay").status_code == 200
    assert theirs in {g["id"] for g in server.get("/api/players/Ahhotep").json()["recent"]}
    assert set(games.values()) <= {g["id"] for g in server.get("/api/games").json()}
    history = server.get("/api/daily/players/Tiye").json()
    assert history["played"] == 1 and history["days"][0]["day"] == day
    assert history["streak"] == 1  # yesterday's game: the streak holds today


def test_a_game_finished_after_its_day_does_not_count(server: TestClient, clock: Clock) -> None:
    People(server).sign_up("Sobekneferu")
    game = play(server).json()
    day = game["day"]
    clock.next_day()
    finish(server, game["game_id"])
    settled(server, game["game_id"])
    assert server.get(f"/api/daily/{day}/leaderboard").json()["total"] == 0
    assert server.get("/api/daily/players/Sobekneferu").json()["played"] == 0


def test_a_past_day_is_practice_and_open(server: TestClient, clock: Clock) -> None:
    people = People(server)
    people.sign_up("Merneith")
    daily_of(server).clock = clock.now
    first_day = server.get("/api/daily").json()["day"]
    clock.next_day()
    past = play(server, first_day)
    assert past.status_code == 201 and not past.json()["ranked"]
    game_id = past.json()["game_id"]
    people.be(None)
    assert server.get(f"/api/games/{game_id}").status_code == 200  # not sealed: that day is over
    people.be("Merneith")
    calendar = server.get("/api/daily/calendar", params={"days": 5}).json()
    assert [d["day"] for d in calendar["days"]][-1] == first_day
    assert calendar["days"][-1]["attempt"]["game_id"] == game_id
    assert calendar["days"][0]["attempt"] is None


def test_the_bots_of_the_day_play_the_same_deal_and_show_their_score(
    server: TestClient, clock: Clock
) -> None:
    server.get("/api/daily")
    wait_for(lambda: server.get("/api/daily").json()["bots"][0]["score"] is not None)
    bot = server.get("/api/daily").json()["bots"][0]
    assert bot["level"] == "medium" and bot["bot"] == "heuristic" and bot["status"]
    # its game is sealed too, and not listed
    assert server.get("/api/games").json() == []


# ---------------------------------------------------------------------- hidden information
def readable(client: TestClient, game_id: str, token: str | None) -> dict[str, Any]:
    """Everything a player can read while their game of the day runs."""
    params = {"token": token} if token else {}
    return {
        "view": client.get(f"/api/games/{game_id}", params=params).json(),
        "daily": {
            k: v for k, v in client.get("/api/daily").json().items() if k not in ("seconds_left",)
        },
        "board": client.get("/api/daily/today/leaderboard").json(),
        "calendar": client.get("/api/daily/calendar").json(),
        "share": client.get(f"/api/daily/share/{game_id}", params=params).json(),
        "record": client.get(f"/api/games/{game_id}/record").json(),
        "replay": client.get(f"/api/games/{game_id}/replay").json(),
        "list": client.get("/api/games").json(),
    }


def test_nothing_a_player_reads_changes_with_the_dice_of_rounds_not_reached(
    server: TestClient, clock: Clock
) -> None:
    """The deal's future (the generator's state after today's rounds so far) is replaced by
    another; every channel a player can read must answer exactly as before."""
    game = play(server).json()
    game_id, token = game["game_id"], game["token"]
    for _ in range(3):  # a few moves into the first round
        mine = server.get(f"/api/games/{game_id}", params={"token": token}).json()
        if mine["legal"]:
            server.post(
                f"/api/games/{game_id}/actions",
                params={"token": token},
                json={"version": mine["version"], "action": mine["legal"][0]["action"]},
            )
    before = readable(server, game_id, token)
    room = games_of(server).rooms[game_id]
    original: Any = room.state
    future: Any = original.clone()
    future.rng.state ^= 0x5DEECE66D  # other dice for every round to come
    sides = [6] * 6
    assert Rng(original.rng.state).roll(sides) != Rng(future.rng.state).roll(sides)
    room.state = future  # a new position object: nothing cached is served for it
    assert readable(server, game_id, token) == before
    # the control: a change the player may see (this round's dice) does show
    seen: Any = original.clone()
    seen.dice = [1 if value != 1 else 2 for value in seen.dice]
    room.state = seen
    assert readable(server, game_id, token)["view"] != before["view"]
    room.state = original

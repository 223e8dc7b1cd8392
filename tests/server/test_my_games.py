"""My games and turn notifications: a logged-in creator's own seat ("mine"), the account's
running games with those waiting on it first (the longest waiting first), its finished games
with their results, one "turn" notification per seat and step (per round at Egyptia's sealed
steps), none for guests and bots; nothing in them changes with hidden information. On SQLite
and PostgreSQL."""

from __future__ import annotations

import datetime as dt
import time
from typing import Any

from fastapi.testclient import TestClient

from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.server.hub import ALL_NOTIFICATIONS, Event
from karnak.server.service import GameService
from karnak.server.tables.service import TableService
from karnak.server.tables.turns import turn_text
from support.amunre_hidden import redeal_hidden
from support.clock import FakeClock

from .conftest import wait_for
from .test_accounts import csrf
from .test_ratings import finish
from .test_tables import People, people  # noqa: F401 (a fixture)


def tables_of(client: TestClient) -> TableService:
    tables: TableService = client.app.state.tables  # type: ignore[attr-defined]
    return tables


def games_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


def settle(client: TestClient) -> None:
    """Let the turn notifications under way reach the database."""
    client.portal.call(tables_of(client).turns.settle)  # type: ignore[union-attr]


def mine_game(
    client: TestClient, game: str, seats: list[dict[str, Any]], seed: int = 1
) -> tuple[str, list[str | None]]:
    """A game created by the logged-in account, its first seat marked "mine"."""
    told_turns(client)  # every turn told from now on is heard (see turns)
    response = client.post(
        "/api/games", json={"game": game, "seats": seats, "seed": seed}, headers=csrf(client)
    )
    assert response.status_code == 201, response.text
    created = response.json()
    return created["id"], [s["token"] for s in created["seats"]]


def play(client: TestClient, game_id: str, token: str | None, text: str | None = None) -> None:
    """One move of the token's seat: ``text``, else its first legal move that ends its
    decision (Aton's exchange leaves the seat to move)."""
    mine = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    legal = [m["text"] for m in mine["legal"] if m["text"] != "exchange"]
    action = text or legal[0]
    response = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"version": mine["version"], "action": action},
    )
    assert response.status_code == 200, response.text


def told_turns(client: TestClient) -> list[dict[str, Any]]:
    """The "your turn" notifications told since the first call (the stored ones are grouped
    per game, karnak.server.notifications.service: one entry each)."""
    state = client.app.state  # type: ignore[attr-defined]
    if not hasattr(state, "told_turns"):
        heard: list[dict[str, Any]] = []

        def hear(event: Event) -> None:
            note = event.payload["notification"]
            if note.kind == "turn":
                heard.append({**note.to_json(), "account": note.account})

        state.hub.subscribe(ALL_NOTIFICATIONS, hear)
        state.told_turns = heard
    found: list[dict[str, Any]] = state.told_turns
    return found


def turns(client: TestClient) -> list[dict[str, Any]]:
    """The turns told to the logged-in account."""
    settle(client)
    me = client.get("/api/account").json()["account"]["id"]
    return [note for note in told_turns(client) if note["account"] == me]


ATON = [{"mine": True}, {"name": "Guest"}]


# ---------------------------------------------------------------------- "mine"
def test_a_logged_in_creators_seat_marked_mine_is_theirs(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    ana = people.sign_up("Ana")
    people.be("Ana")
    game_id, tokens = mine_game(client, "aton", ATON)
    room = games_of(client).rooms[game_id]
    assert [s.account for s in room.seats] == [ana, None]
    assert [s.name for s in room.seats] == ["Ana", "Guest"]  # the account's name by default
    assert tokens[0] and tokens[1]  # the links still work
    assert client.get(f"/api/games/{game_id}").json()["seat"] == 0  # the session opens it
    no_csrf = client.post("/api/games", json={"game": "aton", "seats": ATON})
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.json()["error"]
    bot = client.post(
        "/api/games",
        json={
            "game": "aton",
            "seats": [{"mine": True}, {"kind": "bot", "name": "X", "mine": True}],
        },
        headers=csrf(client),
    )
    assert bot.status_code == 422 and "one person's seat" in bot.json()["error"]
    people.be(None)
    guest = client.post("/api/games", json={"game": "aton", "seats": ATON})
    assert guest.status_code == 401 and "log in" in guest.json()["error"]
    plain = client.post("/api/games", json={"game": "aton", "seats": [{}, {}]})
    assert plain.status_code == 201  # a guest's creation is as it was


# ---------------------------------------------------------------------- my games
def test_my_games_put_the_longest_waiting_first(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    clock = FakeClock()
    start = clock.utcnow()
    tables_of(client).turns.clock = clock.time
    people.sign_up("Ana")
    people.be("Ana")
    assert client.get("/api/me/games").json() == {"running": [], "finished": [], "tables": []}
    first, first_tokens = mine_game(client, "aton", ATON)
    clock.advance(60)
    second, _ = mine_game(client, "aton", ATON)
    clock.advance(60)
    third, third_tokens = mine_game(client, "aton", ATON)
    play(client, third, third_tokens[0])  # Ana has laid out her cards: the guest is to move
    listed = client.get("/api/me/games").json()
    running = listed["running"]
    assert [g["game_id"] for g in running] == [first, second, third]
    assert [g["your_turn"] for g in running] == [True, True, False]
    assert [g["waiting_since"] for g in running] == [
        start.isoformat(),
        (start + dt.timedelta(seconds=60)).isoformat(),
        None,
    ]
    assert running[0]["url"] == f"/games/{first}" and running[0]["title"] == "Aton"
    assert running[0]["players"] == ["Ana", "Guest"] and running[0]["name"] == "Ana"
    # the first game moves on and comes back to Ana: it waits from now, after the second
    clock.advance(60)
    play(client, first, first_tokens[0])
    play(client, first, first_tokens[1])
    public = client.get(f"/api/games/{first}").json()
    if 0 in public["to_move"]:
        order = [g["game_id"] for g in client.get("/api/me/games").json()["running"]]
        assert order[:2] == [second, first]
    # another account sees none of them; a stranger is refused
    people.sign_up("Bes")
    people.be("Bes")
    assert client.get("/api/me/games").json()["running"] == []
    people.be(None)
    assert client.get("/api/me/games").status_code == 401


def test_finished_games_carry_the_result(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Ana")
    people.be("Ana")
    seats = [{"mine": True}, {"name": "Guest"}, {"kind": "bot", "bot": "random"}]
    game_id, tokens = mine_game(client, "egyptia", seats, seed=3)
    finish(client, game_id, tokens)
    listed = client.get("/api/me/games").json()
    assert listed["running"] == []
    [done] = listed["finished"]
    room = games_of(client).rooms.get(game_id)
    stored = client.get(f"/api/games/{game_id}").json()["result"]
    assert done["status"] == "finished" and done["finished_at"]
    assert done["result"]["rank"] == stored["ranks"][0]
    assert done["result"]["score"] == stored["scores"][0]
    names = ["Ana", "Guest", room.seats[2].name if room else None]
    assert done["result"]["winners"] == [names[w] for w in stored["winners"]]


# ---------------------------------------------------------------------- turn notifications
def test_a_turn_is_told_once_to_an_account_and_never_to_guests(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Ana")
    people.be("Ana")
    game_id, tokens = mine_game(client, "aton", ATON)
    assert turns(client) == []  # a new game's first turn: the creator is there
    play(client, game_id, tokens[0])
    assert turns(client) == []  # Ana is not to move
    play(client, game_id, tokens[1])  # the reveal: who removes or places next is public
    room = games_of(client).rooms[game_id]
    told = turns(client)
    if 0 in room.state.to_move():
        assert len(told) == 1
        assert told[0]["link"] == f"/games/{game_id}"
        assert told[0]["text"].startswith("Your turn in Aton (with Guest): round 1")
    # however many decisions follow while Ana stays to move, she is told once each time
    # she becomes to move (the lay-out is one sealed step a round)
    expected = len(told)
    movers = set(room.state.to_move())
    rng = Rng(4)
    for _ in range(300):
        if room.is_over or room.state.observation(None)["round"] > 3:
            break
        seat = room.state.to_move()[0]
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
        choice = mine["legal"][rng.below(len(mine["legal"]))]["text"]
        play(client, game_id, tokens[seat], choice)
        now = set(room.state.to_move())
        expected += 0 not in movers and 0 in now
        movers = now
    assert expected >= 3
    assert len(turns(client)) == expected


def test_egyptia_tells_each_builder_once_a_round(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    people.sign_up("Bes")
    people.sign_up("Ana")
    people.be("Ana")
    seats = [{"mine": True}, {"name": "Guest"}, {"kind": "bot", "bot": "random"}]
    game_id, tokens = mine_game(client, "egyptia", seats, seed=5)
    room = games_of(client).rooms[game_id]
    rng = Rng(2)
    deadline = time.monotonic() + 60
    while room.state.observation(None)["round"] < 4 and time.monotonic() < deadline:
        humans = [s for s in room.state.to_move() if tokens[s] is not None]
        if not humans:
            time.sleep(0.01)
            continue
        seat = humans[0]
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
        legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
        if legal:
            play(client, game_id, tokens[seat], legal[rng.below(len(legal))])
    assert room.state.observation(None)["round"] == 4
    wait_for(lambda: len(turns(client)) >= 3, timeout=10)
    told = turns(client)
    # rounds 2, 3 and 4 (the first round's turn began with the game), once each
    assert sorted(n["text"].split(": ")[1] for n in told) == [
        "round 2, choosing columns.",
        "round 3, choosing columns.",
        "round 4, choosing columns.",
    ], told
    people.be("Bes")
    assert turns(client) == []


def test_turn_notifications_and_my_games_ignore_hidden_information(
    client: TestClient,
    people: People,  # noqa: F811
) -> None:
    """Re-deal what a seat cannot see: its "my games" answer, and the turn text of every
    seat, stay the same."""
    people.sign_up("Ana")
    people.be("Ana")
    seats = [{"mine": True}, {"name": "Bes"}, {"name": "Ka"}, {"name": "Nut"}]
    game_id, tokens = mine_game(client, "amunre", seats, seed=21)
    room = games_of(client).rooms[game_id]
    checked = 0
    rng = Rng(9)
    for chunk in range(6):
        for _ in range(7):
            if room.is_over:
                break
            seat = room.state.to_move()[0]
            mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
            play(
                client, game_id, tokens[seat], mine["legal"][rng.below(len(mine["legal"]))]["text"]
            )
        truth = room.state
        assert isinstance(truth, AmunReState)
        before = client.get("/api/me/games").text
        texts = [turn_text(room, seat) for seat in range(4)]
        movers = truth.to_move()
        for k in range(3):
            room.state = redeal_hidden(truth, 0, Rng(100 * chunk + k))
            assert client.get("/api/me/games").text == before
            room.state = redeal_hidden(truth, None, Rng(100 * chunk + k))
            assert [turn_text(room, seat) for seat in range(4)] == texts
            assert room.state.to_move() == movers
        room.state = truth
        checked += 1
    assert checked == 6

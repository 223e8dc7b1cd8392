"""Calm notifications (issue 33): none while the game's page is open, one entry per game,
read when the game is opened, and the "your turn" e-mail once the page has closed, even
when bots answered at once."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.server.notifications.service import Notifier
from karnak.server.service import GameService
from karnak.server.tables import turns as turns_module
from karnak.server.tables.turns import TurnWatcher

from .conftest import wait_for
from .test_accounts import csrf
from .test_mail import Person, Site, site, smtp  # noqa: F401 (fixtures)


@pytest.fixture
def place(site: Site) -> Site:  # noqa: F811
    """The mailing site of test_mail (under a name of this module's)."""
    return site


def service_of(client: TestClient) -> GameService:
    found: GameService = client.app.state.service  # type: ignore[attr-defined]
    return found


def watcher_of(client: TestClient) -> TurnWatcher:
    watcher: TurnWatcher = client.app.state.tables.turns  # type: ignore[attr-defined]
    return watcher


def settle(client: TestClient) -> None:
    client.portal.call(watcher_of(client).settle)  # type: ignore[union-attr]


def against_a_bot(place: Site, person: Person, seed: int = 3) -> tuple[str, str]:
    """A game of Aton: ``person`` (by their session) against the random bot."""
    place.as_(None)
    created = place.client.post(
        "/api/games",
        json={
            "game": "aton",
            "seats": [{"name": person.name}, {"kind": "bot", "bot": "random"}],
            "seed": seed,
        },
    )
    assert created.status_code == 201, created.text
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    place.as_(person)
    claimed = place.client.post(
        f"/api/games/{game_id}/claim", params={"token": token}, headers=csrf(place.client)
    )
    assert claimed.status_code == 200, claimed.text
    return game_id, token


def play_out(client: TestClient, game_id: str, token: str, moves: int = 2000) -> int:
    """Play the seat's moves (random ones) until the game is over; how many."""
    rng = random.Random(5)
    played = 0
    room = service_of(client).rooms[game_id]
    for _ in range(moves):
        if room.is_over:
            break
        mine = client.get(f"/api/games/{game_id}", params={"token": token}).json()
        if mine["status"] != "running":
            break
        if not mine["your_turn"] or not mine["legal"]:
            wait_for(lambda: room.is_over or 0 in room.state.to_move(), timeout=30)
            continue
        move = mine["legal"][rng.randrange(len(mine["legal"]))]["text"]
        answer = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"version": mine["version"], "action": move},
        )
        assert answer.status_code in (200, 409), answer.text
        played += answer.status_code == 200
    assert room.is_over
    return played


def notes(place: Site, person: Person) -> dict[str, Any]:
    settle(place.client)
    place.as_(person)
    listed: dict[str, Any] = place.client.get("/api/notifications").json()
    return listed


def test_a_whole_game_with_its_page_open_leaves_no_unread_notification(place: Site) -> None:
    ana = place.person("Ana")
    game_id, token = against_a_bot(place, ana)
    told: list[Any] = []
    notifier: Notifier = place.client.app.state.notifier  # type: ignore[attr-defined]
    notifier.hub.subscribe("notifications", told.append)
    with place.client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        assert socket.receive_json()["seat"] == 0
        played = play_out(place.client, game_id, token)
        listed = notes(place, ana)
    assert played >= 5
    print(f"\nAton against a bot, page open: {played} moves, {listed['unread']} unread")
    assert listed["unread"] == 0 and listed["notifications"] == []
    assert told == []  # nothing was stored or told, so nothing could be mailed


def test_a_whole_game_with_the_page_closed_leaves_one_entry_for_the_game(place: Site) -> None:
    ana = place.person("Ana")
    game_id, token = against_a_bot(place, ana)
    played = play_out(place.client, game_id, token)
    listed = notes(place, ana)
    print(f"\nAton against a bot, page closed: {played} moves, {listed['unread']} unread")
    assert listed["unread"] == 1
    [entry] = listed["notifications"]
    assert entry["link"] == f"/games/{game_id}" and entry["kind"] == "turn"
    # opening the game's page marks it read
    place.as_(ana)
    with place.client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_json()
        wait_for(lambda: notes(place, ana)["unread"] == 0, timeout=10)


def test_each_game_keeps_its_own_entry(place: Site) -> None:
    ana = place.person("Ana")
    notifier: Notifier = place.client.app.state.notifier  # type: ignore[attr-defined]
    call = place.client.portal.call  # type: ignore[union-attr]
    for n in range(3):
        for game in ("g1", "g2"):
            call(notifier.notify, ana.id, "turn", f"turn {n} in {game}", f"/games/{game}")
    call(notifier.notify, ana.id, "invitation", "come", "/games/g1")  # people's: not grouped
    listed = notes(place, ana)
    texts = [n["text"] for n in listed["notifications"]]
    assert texts == ["come", "turn 2 in g2", "turn 2 in g1"] and listed["unread"] == 3


def test_the_turn_is_mailed_once_the_page_closed_even_after_instant_bots(
    place: Site, monkeypatch: Any
) -> None:
    """The bug: the turn came back (the bot answered at once) while the page was still
    open, its one notice was not mailed ("connected"), and nothing looked again once the
    page closed. Now the turn is owed while the page is open and told when it closed."""
    ana = place.person("Ana", "ana@example.org")
    game_id, token = against_a_bot(place, ana)
    watcher = watcher_of(place.client)
    moment = [1_000_000.0]
    monkeypatch.setattr(watcher, "clock", lambda: moment[0])
    room = service_of(place.client).rooms[game_id]
    place.as_(None)  # the page is a guest's link here: the account's socket is not open
    with place.client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_json()
        for _ in range(40):  # play until the bot has answered and the turn came back
            mine = place.client.get(f"/api/games/{game_id}", params={"token": token}).json()
            if mine["your_turn"]:
                before = mine["version"]
                place.client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": token},
                    json={"version": before, "action": mine["legal"][0]["text"]},
                )
                wait_for(lambda: 0 in room.state.to_move() or room.is_over, timeout=30)
                settle(place.client)
                if watcher.owed():
                    break
        assert watcher.owed() == [(game_id, 0)]  # the page is open: owed, not told
        assert place.mailed(ana, "turn") == []
    # the page closed: within the grace nothing; after it, the notice and the e-mail
    call = place.client.portal.call  # type: ignore[union-attr]
    presence = service_of(place.client).presence
    # closed here, and its row erased from the table every process reads (in the background)
    wait_for(lambda: not call(presence.anywhere, game_id, 0), timeout=10)
    assert call(watcher.check_owed) == 0  # seen closed now
    moment[0] += turns_module.GRACE - 1
    assert call(watcher.check_owed) == 0
    moment[0] += 2
    assert call(watcher.check_owed) == 1
    assert watcher.owed() == []
    wait_for(lambda: len(place.mailed(ana, "turn")) == 1, timeout=10)
    assert "It is your turn in Aton" in place.mailed(ana, "turn")[0].body
    assert notes(place, ana)["unread"] == 1


def test_an_owed_turn_played_meanwhile_is_never_told(place: Site, monkeypatch: Any) -> None:
    ana = place.person("Ana", "ana@example.org")
    game_id, token = against_a_bot(place, ana)
    watcher = watcher_of(place.client)
    room = service_of(place.client).rooms[game_id]
    place.as_(None)
    with place.client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_json()
        for _ in range(40):
            mine = place.client.get(f"/api/games/{game_id}", params={"token": token}).json()
            if mine["your_turn"] and watcher.owed():
                break
            if mine["your_turn"]:
                place.client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": token},
                    json={"version": mine["version"], "action": mine["legal"][0]["text"]},
                )
                wait_for(lambda: 0 in room.state.to_move() or room.is_over, timeout=30)
                settle(place.client)
        assert watcher.owed() == [(game_id, 0)]
        # the seat plays its turn with the page open: nothing is owed any more
        while 0 in room.state.to_move() and not room.is_over:
            mine = place.client.get(f"/api/games/{game_id}", params={"token": token}).json()
            place.client.post(
                f"/api/games/{game_id}/actions",
                params={"token": token},
                json={"version": mine["version"], "action": mine["legal"][0]["text"]},
            )
        assert (game_id, 0) not in watcher.owed() or 0 in room.state.to_move()

"""Moves that need no click, played by the server after a short visible pause
(karnak.server.forced_moves): played after the pause and shown meanwhile (the same field in
every seat's view and a spectator's), never when the person turned it off, never once the
step has changed; the setting's API."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.core import Rng
from karnak.core.forced import forced_move
from karnak.server.bot_runner import BotRunner
from karnak.server.db import make_engine
from karnak.server.rooms import Room, SubmitError
from karnak.server.service import GameService, SeatRequest
from karnak.server.store import GameStore

PAUSE = 0.4


async def start(database: str) -> GameService:
    service = GameService(GameStore(make_engine(database)), BotRunner(0))
    await service.start()
    service.forced_pause = PAUSE
    return service


async def drive_to_forced(service: GameService, room: Room, seed: int) -> int:
    """Random moves for the seats that decide, until every seat to move has a forced move;
    the first such seat."""
    rng = Rng(seed)
    for _ in range(2000):
        assert not room.is_over, "no forced move came up"
        movers = room.state.to_move()
        deciding = [s for s in movers if forced_move(room.state, s) is None]
        if not deciding:
            return movers[0]
        seat = deciding[rng.below(len(deciding))]
        legal = room.state.legal_actions(seat)
        sells = [a for a in legal if a.to_text().startswith("sell")]
        action = sells[0] if sells and rng.below(2) == 0 else legal[rng.below(len(legal))]
        try:
            await service.submit(room, seat, room.version_for(seat), action)
        except SubmitError:
            continue  # a forced move was played meanwhile
    raise AssertionError("no forced move came up")


def view(service: GameService, room: Room, seat: int | None) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(service.view_json(room, seat))
    return found


def test_a_forced_move_is_shown_then_played_after_the_pause(database: str) -> None:
    async def scenario() -> None:
        service = await start(database)
        room = (await service.create("amunre", [SeatRequest() for _ in range(3)], seed=7)).room
        seat = await drive_to_forced(service, room, 7)
        action = forced_move(room.state, seat)
        assert action is not None
        played_before = len(room.accepted)
        await asyncio.sleep(0.05)  # the setting is read, the plan shown
        seen = [view(service, room, s).get("forced") for s in (None, 0, 1, 2)]
        assert seen[0] is not None and seen[0]["seat"] == seat
        assert seen[0]["action"] == action.to_text()
        assert 0 < seen[0]["at"] - time.time() <= PAUSE
        # public: a spectator and every seat read the same field
        assert all(found == seen[0] for found in seen if found and found["seat"] == seat)
        assert len(room.accepted) == played_before  # not before the pause
        for _ in range(40):
            await asyncio.sleep(0.05)
            if len(room.accepted) > played_before:
                break
        first = room.accepted[played_before]
        assert (first.seat, first.text) == (seat, action.to_text())
        await service.stop()

    asyncio.run(scenario())


def test_nothing_is_played_for_a_person_who_turned_it_off(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        service = await start(database)

        async def off(account: int | None) -> bool:
            return False

        monkeypatch.setattr(service.forced_settings, "get", off)
        room = (await service.create("amunre", [SeatRequest() for _ in range(3)], seed=7)).room
        seat = await drive_to_forced(service, room, 7)
        played = len(room.accepted)
        await asyncio.sleep(PAUSE * 3)
        assert len(room.accepted) == played
        assert seat in room.state.to_move()
        assert "forced" not in view(service, room, None)
        await service.stop()

    asyncio.run(scenario())


def test_nothing_is_played_once_the_step_has_changed(database: str) -> None:
    async def scenario() -> None:
        service = await start(database)
        room = (await service.create("amunre", [SeatRequest() for _ in range(3)], seed=7)).room
        seat = await drive_to_forced(service, room, 7)
        action = forced_move(room.state, seat)
        assert action is not None
        await asyncio.sleep(0.05)
        assert view(service, room, None).get("forced")
        # the person clicks it first: the step moves on, and the waiting task plays nothing
        await service.submit(room, seat, room.version_for(seat), action)
        after = len(room.accepted)
        step = room.step_started
        await asyncio.sleep(PAUSE * 2)
        moved = room.accepted[after:]
        # anything played later is a new step's own forced move, never this one again
        assert all(entry.version > step for entry in moved)
        await service.stop()

    asyncio.run(scenario())


def test_a_stale_step_plays_nothing(database: str) -> None:
    async def scenario() -> None:
        service = await start(database)
        service.forced_pause = 0.01
        room = (await service.create("amunre", [SeatRequest() for _ in range(3)], seed=7)).room
        seat = room.state.to_move()[0]
        action = room.state.legal_actions(seat)[0]
        played = len(room.accepted)
        await service._forced_turn(room, seat, room.step_started - 1, action)
        assert len(room.accepted) == played
        await service.stop()

    asyncio.run(scenario())


def signup(client: TestClient, name: str) -> dict[str, str]:
    response = client.post(
        "/api/account/signup", json={"name": name, "password": "a long enough passphrase"}
    )
    assert response.status_code in (200, 201), response.text
    return {"X-CSRF-Token": client.cookies.get("karnak_csrf") or ""}


def test_the_setting_is_on_by_default_and_kept_per_account(client: TestClient) -> None:
    assert client.get("/api/forced-moves").status_code == 401
    headers = signup(client, "Nefertari")
    got = client.get("/api/forced-moves").json()
    assert got["on"] is True and got["pause"] > 0
    assert client.put("/api/forced-moves", json={"on": False}).status_code == 403  # no CSRF
    assert (
        client.put("/api/forced-moves", json={"on": False}, headers=headers).json()["on"] is False
    )
    assert client.get("/api/forced-moves").json()["on"] is False
    for bad in ({"on": "no"}, {"on": 1}, {}, {"on": False, "more": 1}, [True]):
        assert client.put("/api/forced-moves", json=bad, headers=headers).status_code == 422
    assert client.put("/api/forced-moves", json={"on": True}, headers=headers).json()["on"] is True

"""Moves that need no click, played by the server after a short visible pause
(karnak.server.forced_moves), on a fake clock (tests/support/clock.py): shown meanwhile (the
same field in every seat's view and a spectator's) and played when the pause is over, never
when the person turned it off, never once the step has changed; played after a restart; shown
by the pages of another process that does not play it; decided from public facts only (the
hidden facts re-dealt, the server plans the same); the setting's API."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session

from karnak.core import Rng
from karnak.core.forced import forced_move
from karnak.server.accounts.tables import AccountRow
from karnak.server.bot_runner import BotRunner
from karnak.server.db import make_engine
from karnak.server.forced_moves import ForcedPlan
from karnak.server.rooms import Room, SubmitError
from karnak.server.service import GameService, SeatRequest
from karnak.server.store import GameStore
from support.clock import FakeClock

PAUSE = 1.5


class Paused:
    """The forced moves' clock: a fake clock, and pauses that end when the test moves it
    past them (the event loop runs meanwhile, as it does while a real pause lasts)."""

    def __init__(self) -> None:
        self.clock = FakeClock()
        self.asked: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.asked.append(seconds)
        until = self.clock.seconds + seconds
        while self.clock.seconds < until:
            await asyncio.sleep(0.002)


async def start(database: str, paused: Paused) -> GameService:
    service = GameService(GameStore(make_engine(database)), BotRunner(0))
    service.forced.pause = PAUSE
    service.forced.clock = paused.clock.time
    service.forced.sleep = paused.sleep
    await service.start()
    return service


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    """Let the event loop run until ``condition`` holds (a setting read in a database
    thread, a task's next step): real time, bounded; the pauses themselves are fake."""
    for _ in range(int(seconds / 0.005)):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("it never happened")


async def idle(seconds: float = 0.2) -> None:
    """Let whatever would happen happen (for the things that must not)."""
    await asyncio.sleep(seconds)


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


def shown(service: GameService, room: Room) -> Callable[[], bool]:
    return lambda: "forced" in view(service, room, None)


async def make_account(service: GameService, name: str) -> int:
    def write() -> int:
        with Session(service.store.engine) as session, session.begin():
            row = AccountRow(name=name, name_key=name.lower(), password_hash="x")
            session.add(row)
            session.flush()
            return row.id

    return await service.database(write)


async def new_game(service: GameService, seed: int = 7) -> Room:
    created = await service.create("amunre", [SeatRequest() for _ in range(3)], seed=seed)
    return created.room


def test_a_forced_move_is_shown_then_played_when_the_pause_is_over(database: str) -> None:
    async def scenario() -> None:
        paused = Paused()
        service = await start(database, paused)
        room = await new_game(service)
        seat = await drive_to_forced(service, room, 7)
        action = forced_move(room.state, seat)
        assert action is not None
        played_before = len(room.accepted)
        await until(shown(service, room))
        seen = [view(service, room, s).get("forced") for s in (None, 0, 1, 2)]
        assert seen[0] == {
            "seat": seat,
            "action": action.to_text(),
            "at": paused.clock.time() + PAUSE,
        }
        # public: a spectator and every seat read the same field
        assert all(found == seen[0] for found in seen if found and found["seat"] == seat)
        assert paused.asked == [PAUSE]
        paused.clock.advance(PAUSE - 0.25)
        await idle()
        assert len(room.accepted) == played_before  # not before the pause is over
        paused.clock.advance(0.25)
        await until(lambda: len(room.accepted) > played_before)
        first = room.accepted[played_before]
        assert (first.seat, first.text) == (seat, action.to_text())
        await service.stop()

    asyncio.run(scenario())


def test_nothing_is_played_for_a_person_who_turned_it_off(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        paused = Paused()
        service = await start(database, paused)
        asked: list[int | None] = []

        async def off(account: int | None) -> bool:
            asked.append(account)
            return False

        monkeypatch.setattr(service.forced.settings, "get", off)
        accounts = [await make_account(service, f"Scribe {i}") for i in range(3)]
        seats = [SeatRequest(account=account) for account in accounts]
        room = (await service.create("amunre", seats, seed=7)).room
        seat = await drive_to_forced(service, room, 7)
        played = len(room.accepted)
        await until(lambda: bool(asked))
        assert set(asked) <= set(accounts)  # the seat's account's setting was read
        paused.clock.advance(PAUSE * 10)
        await idle()
        assert len(room.accepted) == played
        assert seat in room.state.to_move()
        assert "forced" not in view(service, room, None)
        assert paused.asked == []  # no pause even began
        await service.stop()

    asyncio.run(scenario())


def test_nothing_is_played_once_the_step_has_changed(database: str) -> None:
    async def scenario() -> None:
        paused = Paused()
        service = await start(database, paused)
        room = await new_game(service)
        seat = await drive_to_forced(service, room, 7)
        action = forced_move(room.state, seat)
        assert action is not None
        await until(shown(service, room))
        # the person clicks it first: the step moves on, and the waiting task plays nothing
        await service.submit(room, seat, room.version_for(seat), action)
        after = len(room.accepted)
        step = room.step_started
        paused.clock.advance(PAUSE)
        await idle()
        moved = room.accepted[after:]
        # anything played later is a new step's own forced move, never this one again
        assert all(entry.version > step for entry in moved)
        await service.stop()

    asyncio.run(scenario())


def test_a_stale_step_plays_nothing(database: str) -> None:
    async def scenario() -> None:
        paused = Paused()
        service = await start(database, paused)
        room = await new_game(service)
        seat = room.state.to_move()[0]
        action = room.state.legal_actions(seat)[0]
        played = len(room.accepted)
        paused.clock.advance(PAUSE)
        await service.forced.turn(room, seat, room.step_started - 1, action)
        assert len(room.accepted) == played
        await service.stop()

    asyncio.run(scenario())


def test_a_restart_during_the_pause_plays_it_after_a_new_pause(database: str) -> None:
    async def scenario() -> None:
        paused = Paused()
        first = await start(database, paused)
        room = await new_game(first)
        seat = await drive_to_forced(first, room, 7)
        action = forced_move(room.state, seat)
        assert action is not None
        await until(shown(first, room))
        played = len(room.accepted)
        await first.stop()  # before the pause is over: the task goes with the process
        paused.clock.advance(PAUSE)
        await idle()
        assert len(room.accepted) == played
        second = await start(database, paused)
        await until(lambda: room.id in second.rooms)
        again = second.rooms[room.id]
        await until(shown(second, again))
        assert view(second, again, None)["forced"]["action"] == action.to_text()
        paused.clock.advance(PAUSE)
        await until(lambda: len(again.accepted) > played)
        entry = again.accepted[played]
        assert (entry.seat, entry.text) == (seat, action.to_text())
        await second.stop()

    asyncio.run(scenario())


def test_another_process_shows_the_move_it_does_not_play(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes on one database, their hubs joined as the broker joins them: the one
    that holds the game's lease plays the move; the other's pages show it waiting, the same
    field, and then the move played."""

    async def scenario() -> None:
        paused = Paused()
        holder = await start(database, paused)
        room = await new_game(holder)
        other = GameService(GameStore(make_engine(database)), BotRunner(0))
        other.forced.clock, other.forced.sleep = paused.clock.time, paused.sleep
        monkeypatch.setattr(other, "owns", lambda game_id: False)
        holder.hub.connect(other.hub.receive)
        other.hub.connect(holder.hub.receive)
        await other.start()
        await until(lambda: room.id in other.rooms)
        copy = other.rooms[room.id]
        seat = await drive_to_forced(holder, room, 7)
        await until(shown(holder, room))
        await until(lambda: copy.version == room.version and "forced" in view(other, copy, None))
        assert view(other, copy, None)["forced"] == view(holder, room, None)["forced"]
        assert view(other, copy, seat)["forced"]["seat"] == seat
        played = len(room.accepted)
        paused.clock.advance(PAUSE)
        await until(lambda: len(copy.accepted) > played)
        assert copy.accepted[played].text == room.accepted[played].text
        assert len(other.rooms[room.id].accepted) > played
        await holder.stop()
        await other.stop()

    asyncio.run(scenario())


def test_a_guest_who_turns_it_off_during_the_pause_clicks_it_then(database: str) -> None:
    async def scenario() -> None:
        paused = Paused()
        service = await start(database, paused)
        room = await new_game(service)
        seat = await drive_to_forced(service, room, 7)
        assert room.seats[seat].account is None  # a guest's seat
        await until(shown(service, room))
        played = len(room.accepted)
        await service.forced.choose(room, seat, False)
        assert "forced" not in view(service, room, seat)  # the note goes at once
        paused.clock.advance(PAUSE * 3)
        await idle()
        assert len(room.accepted) == played and seat in room.state.to_move()
        await service.forced.choose(room, seat, True)  # on again: played after a pause
        await until(shown(service, room))
        paused.clock.advance(PAUSE)
        await until(lambda: len(room.accepted) > played)
        assert room.accepted[played].seat == seat
        await service.stop()

    asyncio.run(scenario())


def test_turned_off_in_another_process_it_is_not_played(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        paused = Paused()
        holder = await start(database, paused)
        room = await new_game(holder)
        other = GameService(GameStore(make_engine(database)), BotRunner(0))
        monkeypatch.setattr(other, "owns", lambda game_id: False)
        holder.hub.connect(other.hub.receive)
        other.hub.connect(holder.hub.receive)
        await other.start()
        await until(lambda: room.id in other.rooms)
        seat = await drive_to_forced(holder, room, 7)
        await until(shown(holder, room))
        copy = other.rooms[room.id]
        await until(lambda: copy.version == room.version)
        played = len(room.accepted)
        await other.forced.choose(copy, seat, False)  # the page of the other process
        assert "forced" not in view(holder, room, None)
        paused.clock.advance(PAUSE * 3)
        await idle()
        assert len(room.accepted) == played
        await holder.stop()
        await other.stop()

    asyncio.run(scenario())


def test_the_seat_s_route(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"game": "amunre", "seats": [{"kind": "human"} for _ in range(3)]}
    ).json()
    game_id, token = created["id"], created["seats"][1]["token"]
    url = f"/api/games/{game_id}/forced-moves"
    answer = client.put(url, params={"token": token}, json={"on": False})
    assert answer.status_code == 200 and answer.json()["on"] is False
    service = client.app.state.service  # type: ignore[attr-defined]
    assert (game_id, 1) in service.forced.asked
    answer = client.put(url, headers={"X-Karnak-Token": token}, json={"on": True})
    assert answer.status_code == 200 and (game_id, 1) not in service.forced.asked
    assert client.put(url, json={"on": False}).status_code == 403  # a spectator
    assert client.put(url, params={"token": "x" * 40}, json={"on": False}).status_code == 403
    assert client.put(url, params={"token": "x" * 201}, json={"on": False}).status_code == 422
    assert client.put(url, params={"token": token}, json={"on": "no"}).status_code == 422
    unknown = client.put("/api/games/nope/forced-moves", params={"token": token}, json={"on": 0})
    assert unknown.status_code in (404, 422)
    assert (
        client.put(
            "/api/games/nope/forced-moves", params={"token": token}, json={"on": False}
        ).status_code
        == 404
    )


def test_an_account_s_seat_sets_the_account(client: TestClient) -> None:
    headers = signup(client, "Hatshepsut")
    created = client.post(
        "/api/games",
        json={"game": "amunre", "seats": [{"kind": "human", "mine": True}, {}, {}]},
        headers=headers,
    )
    if created.status_code != 201:
        pytest.fail(created.text)
    game_id = created.json()["id"]
    url = f"/api/games/{game_id}/forced-moves"
    assert client.put(url, json={"on": False}).status_code == 403  # no CSRF token
    assert client.put(url, json={"on": False}, headers=headers).status_code == 200
    assert client.get("/api/forced-moves").json()["on"] is False


def test_a_plan_from_another_process_is_checked() -> None:
    plan = ForcedPlan(4, 1, "done", 1000.5)
    assert ForcedPlan.from_payload(plan.payload()) == plan
    for bad in (
        {},
        {**plan.payload(), "seat": "1"},
        {**plan.payload(), "step": -1},
        {**plan.payload(), "at": True},
        {**plan.payload(), "at": float("nan")},
        {**plan.payload(), "action": "x" * 1000},
    ):
        assert ForcedPlan.from_payload(bad) is None


def test_the_server_plans_from_public_facts_only(database: str) -> None:
    """Whether, what and when the server plays for a seat is the same in every world that
    shares the position's public facts: the hidden ones re-dealt behind each seat's back
    (State.resample), the server's plan does not change."""

    async def scenario() -> None:
        paused = Paused()
        service = await start(database, paused)
        room = await new_game(service)
        await drive_to_forced(service, room, 7)
        truth = room.state
        public = truth.observation(None)
        plans: list[object] = []
        worlds = [truth] + [
            truth.resample(viewer, Rng(100 + viewer * 7 + k))
            for viewer in range(3)
            for k in range(2)
        ]
        # the worlds differ in hidden facts (what is dealt, what is left in the decks)
        assert sum(vars(w) != vars(truth) for w in worlds) == len(worlds) - 1
        for world in worlds:
            assert world.observation(None) == public
            waiting = list(service.forced.tasks.values())
            for task in waiting:
                task.cancel()
            await asyncio.gather(*waiting, return_exceptions=True)
            service.forced.tasks.clear()  # (a task cancelled before it ran leaves its key)
            service.forced.plans.clear()
            service.forced.seen.clear()
            paused.asked.clear()
            room.state = world
            service.forced.schedule(room)
            await until(shown(service, room))
            plans.append((view(service, room, None)["forced"], tuple(paused.asked)))
        assert all(plan == plans[0] for plan in plans), plans
        room.state = truth
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

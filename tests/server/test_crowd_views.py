"""At a crowd (more than CROWD_SEATS seats) a change inside a step waits a moment on each
socket and goes out with the next ones as one view; a new step goes at once; nothing is
ever lost: every socket ends on the newest view."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.service
from karnak.server.service import Listener


def test_changes_inside_a_window_are_built_once() -> None:
    async def run() -> tuple[str, int]:
        built = 0

        def source(text: str) -> Any:
            def build() -> str:
                nonlocal built
                built += 1
                return text

            return build

        listener = Listener(seat=0)
        listener.stale(source("first"), settle=0.2)
        listener.stale(source("second"), settle=0.2)
        listener.stale(source("third"), settle=0.2)
        view = await asyncio.wait_for(listener.next_view(), 10)
        return view, built

    assert asyncio.run(run()) == ("third", 1)


def test_a_new_step_does_not_wait_for_the_window() -> None:
    async def run() -> str:
        listener = Listener(seat=0)
        listener.stale(lambda: "same step", settle=60.0)
        waiting = asyncio.create_task(listener.next_view())
        await asyncio.sleep(0.05)
        listener.stale(lambda: "new step")  # no settle: at once
        return await asyncio.wait_for(waiting, 10)  # far less than the 60 s window

    assert asyncio.run(run()) == "new step"


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_every_socket_of_a_crowd_ends_on_the_newest_view(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from karnak.server.app import create_app

    monkeypatch.setattr(karnak.server.service, "CROWD_SETTLE", 0.3)
    seats = karnak.server.service.CROWD_SEATS + 2
    with TestClient(create_app(database, bot_workers=0)) as client:
        game = client.post(
            "/api/games", json={"game": "egyptia", "seats": [{"kind": "human"}] * seats}
        ).json()
        tokens = [s["token"] for s in game["seats"]]
        sockets = [
            client.websocket_connect(f"/api/games/{game['id']}/ws?token={t}").__enter__()
            for t in tokens
        ]
        for socket in sockets:
            socket.receive_text()
        for seat in range(seats):  # every builder chooses: the step ends with the last
            mine = client.get(f"/api/games/{game['id']}", params={"token": tokens[seat]}).json()
            answer = client.post(
                f"/api/games/{game['id']}/actions",
                params={"token": tokens[seat]},
                json={"version": mine["version"], "action": mine["legal"][0]["action"]},
            )
            assert answer.status_code == 200, answer.text
        for seat, socket in enumerate(sockets):
            newest = client.get(f"/api/games/{game['id']}", params={"token": tokens[seat]})
            version = newest.json()["version"]
            seen = -1
            while seen < version:  # the views arrive, coalesced, up to the newest
                seen = json.loads(socket.receive_text())["version"]
            assert seen == version
        for socket in sockets:
            socket.__exit__(None, None, None)


def test_a_new_step_is_not_held_back_by_a_change_that_came_after_it() -> None:
    """At a crowd the first choices of a new round come while the round's view is still on
    its way to the last pages: such a change (one that may wait) does not make the new
    step's view wait for the window."""

    async def run() -> str:
        listener = Listener(seat=0)
        listener.stale(lambda: "new round")  # not sent yet
        listener.stale(lambda: "new round, one builder has chosen", settle=60.0)
        return await asyncio.wait_for(listener.next_view(), 10)

    assert asyncio.run(run()) == "new round, one builder has chosen"

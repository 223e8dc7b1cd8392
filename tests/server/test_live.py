"""WebSockets, restarts, simultaneous submissions and hidden information on the server."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.server.app import create_app
from karnak.server.bot_runner import BotRunner
from karnak.server.db import make_engine, migrate
from karnak.server.service import GameService, SeatRequest
from karnak.server.store import GameStore
from support.amunre_hidden import redeal_hidden

from .conftest import create, humans, wait_for
from .test_api import play_random, view


def test_websocket_sends_the_view_then_every_change(client: TestClient) -> None:
    created = create(client, humans(4), seed=8)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[1]}") as seat_socket,
        client.websocket_connect(f"/api/games/{game_id}/ws") as spectator,
    ):
        first = seat_socket.receive_json()
        assert first["seat"] == 1 and first["version"] == 0
        assert spectator.receive_json()["seat"] is None
        play_random(client, game_id, tokens, 1)
        assert seat_socket.receive_json()["version"] == 1
        assert spectator.receive_json()["version"] == 1
        seat_socket.send_text("view")  # a client that lost track asks again
        assert seat_socket.receive_json() == view(client, game_id, tokens[1])


def test_websocket_refuses_a_wrong_token(client: TestClient) -> None:
    created = create(client, humans(3))
    for path, code in [
        (f"/api/games/{created['id']}/ws?token=forged", 4403),
        ("/api/games/nope/ws", 4404),
    ]:
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(path) as socket,
        ):
            socket.receive_json()
        assert refused.value.code == code


def test_the_turn_timer_plays_for_a_seat_that_waits_too_long(client: TestClient) -> None:
    created = create(client, humans(3), seed=4, turn_timer=1)
    game_id = created["id"]
    first = view(client, game_id)
    assert first["turn_timer"] == 1 and first["deadline"] is not None
    wait_for(lambda: view(client, game_id)["version"] >= 2, timeout=20)
    later = view(client, game_id)
    assert [t["number"] for t in later["timeouts"]][:2] == [0, 1]
    assert later["deadline"] > first["deadline"]


def test_a_restart_loses_nothing(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, humans(4), seed=11)
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        play_random(client, game_id, tokens, 40)
        before = [view(client, game_id, t) for t in tokens]
    with TestClient(create_app(database, bot_workers=0)) as client:
        after = [view(client, game_id, t) for t in tokens]
        assert after == before
        play_random(client, game_id, tokens, 5000, seed=4)  # and the game goes on to the end
        assert view(client, game_id)["status"] == "finished"


def human_step(client: TestClient, game_id: str, token: str, rng: Rng) -> bool:
    """One random move for the human seat if it is to move; True once the game is over."""
    mine = view(client, game_id, token)
    if mine["status"] == "finished":
        return True
    if mine["your_turn"]:
        choice = mine["legal"][rng.below(len(mine["legal"]))]
        client.post(
            f"/api/games/{game_id}/actions",
            params={"token": token},
            json={"version": mine["version"], "action": choice["text"]},
        )
    return False


def test_bots_resume_thinking_after_a_restart(database: str) -> None:
    bots = [{"kind": "bot", "bot": "heuristic"} for _ in range(3)]
    rng = Rng(1)
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, [*humans(1), *bots], seed=12)
        game_id, token = created["id"], created["seats"][0]["token"]
        for _ in range(3):  # three human moves, then stop the server while bots may think
            start = view(client, game_id)["version"]
            wait_for(lambda: view(client, game_id, token)["your_turn"])
            human_step(client, game_id, token, rng)
            assert view(client, game_id)["version"] > start
        stopped_at = view(client, game_id)["version"]
    with TestClient(create_app(database, bot_workers=0)) as client:
        assert view(client, game_id)["version"] >= stopped_at
        wait_for(lambda: human_step(client, game_id, token, rng), timeout=120)


def test_two_submissions_for_one_step_exactly_one_is_accepted(database: str) -> None:
    async def scenario() -> None:
        engine = make_engine(database)
        migrate(engine)
        service = GameService(GameStore(engine), BotRunner(0))
        await service.start()
        created = await service.create("amunre", [SeatRequest() for _ in range(4)], seed=2)
        room = created.room
        rng = Rng(5)
        races = 0
        while not room.is_over and races < 30:
            version = room.version
            movers = room.state.to_move()
            if room.state.is_simultaneous():
                # every mover commits at once from the same version: all are accepted
                outcomes = await asyncio.gather(
                    *(
                        service.submit(room, s, version, room.state.legal_actions(s)[0])
                        for s in movers
                    )
                )
                assert not any(o.duplicate for o in outcomes)
                continue
            seat = movers[0]
            legal = room.state.legal_actions(seat)
            picks = [legal[rng.below(len(legal))] for _ in range(2)]
            results = await asyncio.gather(
                *(service.submit(room, seat, version, a) for a in picks), return_exceptions=True
            )
            accepted = [r for r in results if not isinstance(r, BaseException) and not r.duplicate]
            assert len(accepted) == 1, results
            assert room.version == version + 1
            races += 1
        await service.stop()
        engine.dispose()

    asyncio.run(scenario())


def test_views_do_not_change_when_hidden_information_does(client: TestClient) -> None:
    """Re-deal what a seat cannot see: its API view and its WebSocket message stay the same."""
    created = create(client, humans(4), seed=21, options={"expert_provinces": True})
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    # the players click even their forced moves (an empty hand's "done"), which the server
    # would otherwise play by itself after a pause, moving the game between two comparisons
    for token in tokens:
        off = client.put(
            f"/api/games/{game_id}/forced-moves", params={"token": token}, json={"on": False}
        )
        assert off.status_code == 200, off.text
    checked = 0
    for chunk in range(12):
        play_random(client, game_id, tokens, 9, seed=chunk)
        if room.is_over:
            break
        truth = room.state
        for seat in [*range(4), None]:
            token = tokens[seat] if seat is not None else None
            before = view(client, game_id, token)
            with client.websocket_connect(
                f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
            ) as socket:
                message = socket.receive_json()
            assert isinstance(truth, AmunReState)
            for k in range(3):
                room.state = redeal_hidden(truth, seat, Rng(100 * chunk + k))
                assert view(client, game_id, token) == before
                with client.websocket_connect(
                    f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
                ) as socket:
                    assert socket.receive_json() == message
            room.state = truth
            checked += 1
    assert checked >= 30

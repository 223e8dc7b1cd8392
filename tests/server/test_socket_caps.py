"""Open WebSockets are capped per client address and per account (karnak.server.sockets):
one past the cap is closed at once with 4429 and a reason naming the limit; a closed socket
gives its place back; and what one socket holds for a client that does not read is bounded."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from karnak.server.service import MAX_QUEUED_MESSAGES, GameService
from karnak.server.sockets import CLOSE_TOO_MANY, SocketCounter, TooManySocketsError

from .conftest import create, humans
from .test_accounts import sign_up
from .test_running_games_cap import FromAddress

SETTINGS = ServerSettings(sockets_per_client=4, sockets_per_account=3)


def refusal(client: TestClient, url: str, **headers: str) -> WebSocketDisconnect:
    """The close of a socket refused at once (its first message is the close)."""
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(url, headers=headers) as socket,
    ):
        socket.receive_json()
    return refused.value


def test_game_sockets_are_capped_per_address(database: str) -> None:
    app = FromAddress(create_app(database, bot_workers=0, settings=SETTINGS))
    with TestClient(app) as client, ExitStack() as open_sockets:
        game = create(client, humans(3))
        url = f"/api/games/{game['id']}/ws"
        sockets = []
        for _ in range(4):
            socket = open_sockets.enter_context(client.websocket_connect(url))
            assert socket.receive_json()["game"] == "amunre"
            sockets.append(socket)
        closed = refusal(client, url)
        assert closed.code == CLOSE_TOO_MANY
        assert closed.reason.startswith("too many open connections from this address (4)")
        # a seat's link counts the same: the address is what is capped
        token = game["seats"][0]["token"]
        assert refusal(client, f"{url}?token={token}").code == CLOSE_TOO_MANY
        # another address is not concerned
        with client.websocket_connect(url, headers={"X-Test-Client": "192.0.2.8"}) as other:
            assert other.receive_json()["game"] == "amunre"
        # a socket closed gives its place back
        sockets[0].close()
        with client.websocket_connect(url) as again:
            assert again.receive_json()["game"] == "amunre"
        assert app.state.sockets.clients == {"testclient": 3}


def test_an_accounts_sockets_are_capped_from_any_address(database: str) -> None:
    """The account socket and the game sockets opened with the session count per account;
    its sockets over several addresses are capped too."""
    app = FromAddress(create_app(database, bot_workers=0, settings=SETTINGS))
    with TestClient(app) as client, ExitStack() as open_sockets:
        sign_up(client, "Ana")
        game = create(client, humans(3))
        urls = ["/api/account/ws", f"/api/games/{game['id']}/ws", "/api/account/ws"]
        for number, url in enumerate(urls):
            socket = open_sockets.enter_context(
                client.websocket_connect(url, headers={"X-Test-Client": f"192.0.2.{number}"})
            )
            if "games" in url:
                socket.receive_json()
        # a game socket opened with the session (no seat's link) is the account's fourth
        closed = refusal(client, urls[1], **{"X-Test-Client": "192.0.2.9"})
        assert closed.code == CLOSE_TOO_MANY
        assert closed.reason.startswith("too many open connections of this account (3)")
        # and so is another account socket (checked second: without a cap it never closes)
        closed = refusal(client, "/api/account/ws", **{"X-Test-Client": "192.0.2.9"})
        assert closed.code == CLOSE_TOO_MANY
    assert app.state.sockets.total == 0  # every socket gave its place back


def test_the_counter_counts_open_sockets_only() -> None:
    counter = SocketCounter(per_client=2, per_account=5)
    first, second = counter.take("192.0.2.1", 7), counter.take("192.0.2.1")
    with pytest.raises(TooManySocketsError, match=r"from this address \(2\)"):
        counter.take("192.0.2.1")
    first.give_back()
    first.give_back()  # twice changes nothing
    assert (counter.clients, counter.accounts, counter.total) == ({"192.0.2.1": 1}, {}, 1)
    counter.take("192.0.2.1")
    second.give_back()
    assert counter.total == 1


def test_a_socket_that_does_not_read_holds_a_bounded_queue(client: TestClient) -> None:
    """Not a fix (the bound was there): a guard that it stays. A client that never reads
    gets the newest view and at most MAX_QUEUED_MESSAGES other messages kept for it."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game = create(client, humans(3))
    room = service.rooms[game["id"]]
    listener = service.subscribe(room, None)
    message: dict[str, Any] = {"line": {"text": "x" * 100}}
    for _ in range(10 * MAX_QUEUED_MESSAGES):
        service.hub.publish(f"game:{room.id}", "chat", {"message": message})
    assert len(listener.messages) == MAX_QUEUED_MESSAGES
    service.unsubscribe(room, listener)

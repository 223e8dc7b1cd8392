"""The HTTP surface under abuse: bounded bodies, short refusals, bounded fields, rate limits.

Every refusal here must be a 4xx JSON object ``{"error": ...}`` that is short whatever the
request held: a refusal that echoes its input hands an attacker an amplifier.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.http_limits import BodyLimit
from karnak.server.limits import ServerSettings

from .conftest import create, humans, wait_for

#: A refusal longer than this echoes something it should not.
SHORT = 400

Factory = Callable[..., TestClient]


@pytest.fixture
def make_client(database: str) -> Iterator[Factory]:
    """A client of a server with the given settings (one server per test)."""
    opened: list[TestClient] = []

    def make(**settings: Any) -> TestClient:
        app = create_app(database, bot_workers=0, settings=ServerSettings(**settings))
        client = TestClient(app).__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def refusal(response: Any, status: int) -> str:
    """The error message of a short JSON refusal with ``status``."""
    assert response.status_code == status, response.text[:SHORT]
    assert len(response.content) < SHORT, response.text[:SHORT]
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) <= {"error", "version"}, body
    message: str = body["error"]
    return message


# ---------------------------------------------------------------------- bodies
def test_a_large_body_is_refused_by_its_length_at_once(make_client: Factory) -> None:
    """6 MB of empty seats once held the event loop for 4.4 s and came back echoed."""
    client = make_client(max_body_bytes=4096)
    body = json.dumps({"game": "amunre", "seats": [{}] * 2_000_000})
    start = time.monotonic()
    response = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert time.monotonic() - start < 1.0
    assert "4096 bytes" in refusal(response, 413)


def test_a_streamed_body_is_counted_as_it_arrives(make_client: Factory) -> None:
    """A chunked body has no Content-Length: its bytes are counted as they are read."""
    client = make_client(max_body_bytes=4096)

    def chunks() -> Iterator[bytes]:
        yield b'{"game": "amunre", "seats": ['
        for _ in range(5000):
            yield b"{},"
        yield b"{}]}"

    response = client.post(
        "/api/games", content=chunks(), headers={"content-type": "application/json"}
    )
    assert "content-length" not in {k.lower() for k in response.request.headers}
    assert "4096 bytes" in refusal(response, 413)


def asgi_call(
    app: Any, chunks: list[bytes], headers: list[tuple[bytes, bytes]]
) -> tuple[int, bytes, int]:
    """Drive an ASGI app with a body in several chunks: (status, body, chunks it read)."""
    sent: list[dict[str, Any]] = []
    read = 0

    async def receive() -> dict[str, Any]:
        nonlocal read
        if read < len(chunks):
            read += 1
            return {
                "type": "http.request",
                "body": chunks[read - 1],
                "more_body": read < len(chunks),
            }
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": "/",
        "headers": headers,
        "query_string": b"",
    }
    asyncio.run(app(scope, receive, send))
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], body, read


async def reading_app(scope: Any, receive: Any, send: Any) -> None:
    """An app that reads its whole body and answers how long it was."""
    size, more = 0, True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        size += len(message.get("body", b""))
        more = message.get("more_body", False)
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": str(size).encode()})


def test_the_body_limit_stops_reading_at_the_first_chunk_past_it() -> None:
    limited = BodyLimit(reading_app, max_bytes=100)
    status, body, read = asgi_call(limited, [b"x" * 60] * 10, [])
    assert status == 413 and b"100 bytes" in body and read == 2
    status, body, _ = asgi_call(limited, [b"x" * 50] * 2, [])
    assert (status, body) == (200, b"100")


def test_a_bad_content_length_is_refused() -> None:
    limited = BodyLimit(reading_app, max_bytes=100)
    for value in (b"12abc", b"-5", b"", b"1, 2"):
        status, body, read = asgi_call(limited, [b"x"], [(b"content-length", value)])
        assert status == 400 and b"Content-Length" in body and read == 0, value
    status, body, read = asgi_call(limited, [b"x"], [(b"content-length", b"101")])
    assert status == 413 and read == 0


# ---------------------------------------------------------------------- validation
def test_validation_errors_name_the_field_without_echoing_it(make_client: Factory) -> None:
    client = make_client()
    response = client.post("/api/games", json={"game": "amunre", "seats": [{}] * 20_000})
    message = refusal(response, 422)
    assert "seats" in message and "99" in message
    response = client.post("/api/games", json={"seats": [{"name": "N" * 60_000}, *humans(2)]})
    message = refusal(response, 422)
    assert "seats.0.name" in message and "40" in message
    response = client.post("/api/games", json={"seats": "x" * 60_000})
    assert "seats" in refusal(response, 422)


def test_malformed_json_is_refused_shortly(make_client: Factory) -> None:
    client = make_client()
    headers = {"content-type": "application/json"}
    for text in ('{"game": "amunre", "seats": [' + "x" * 30_000, "[" * 30_000):
        response = client.post("/api/games", content=text, headers=headers)
        assert response.status_code in (400, 422)
        assert "JSON" in refusal(response, response.status_code)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": humans(3), "options": {f"o{i}": True for i in range(1000)}}, "options"),
        ({"seats": humans(3), "options": {"k" * 5000: True}}, "options"),
        ({"seats": humans(3), "options": {"edition": "2" * 5000}}, "options.edition"),
        ({"seats": humans(3), "options": {"edition": {"deep": [1] * 500}}}, "options.edition"),
        ({"seats": [*humans(2), {"kind": "bot", "bot": "b" * 5000}]}, "seats.2.bot"),
        ({"seats": humans(3), "game": "g" * 5000}, "game"),
    ],
)
def test_creation_fields_are_bounded(make_client: Factory, body: Any, field: str) -> None:
    message = refusal(make_client().post("/api/games", json=body), 422)
    assert field in message


@pytest.mark.parametrize(
    ("move", "field"),
    [
        ({"version": 0, "action": "bid " + "A" * 10_000}, "action"),
        ({"version": 0, "action": {"type": "bid", "province": "A" * 10_000}}, "action"),
        ({"version": 0, "action": {f"k{i}": 1 for i in range(1000)}}, "action"),
        ({"version": -1, "action": "done"}, "version"),
        ({"version": 1 << 70, "action": "done"}, "version"),
    ],
)
def test_move_fields_are_bounded(make_client: Factory, move: Any, field: str) -> None:
    client = make_client()
    created = create(client, humans(3), seed=1)
    token = created["seats"][0]["token"]
    url = f"/api/games/{created['id']}/actions"
    message = refusal(client.post(url, params={"token": token}, json=move), 422)
    assert field in message


def test_domain_refusals_are_cut_short(make_client: Factory) -> None:
    """The games' own messages quote what they were given (3 kB here); the API cuts them."""
    client = make_client()
    created = create(client, humans(3), seed=1)
    token = created["seats"][0]["token"]
    url = f"/api/games/{created['id']}/actions"
    action = {"type": "bid", "province": "Q" * 200, "amount": "x" * 200}
    action |= {f"note{i}": "y" * 200 for i in range(13)}
    response = client.post(url, params={"token": token}, json={"version": 0, "action": action})
    assert response.status_code == 422 and len(response.content) < 1100
    assert "malformed" in response.json()["error"]


# ---------------------------------------------------------------------- rate limits
def test_game_creation_is_limited_per_client(make_client: Factory) -> None:
    client = make_client(creates_per_minute=3)
    for _ in range(3):
        create(client, humans(3))
    response = client.post("/api/games", json={"seats": humans(3)})
    message = refusal(response, 429)
    assert "3 games a minute" in message
    assert 1 <= int(response.headers["retry-after"]) <= 60
    # bad requests count too: a client cannot probe for free
    assert client.post("/api/games", json={"seats": []}).status_code == 429


def test_another_client_has_its_own_allowance(make_client: Factory) -> None:
    client = make_client(creates_per_minute=1)
    create(client, humans(3))
    assert client.post("/api/games", json={"seats": humans(3)}).status_code == 429
    other = TestClient(client.app, client=("192.0.2.7", 4000))
    assert other.post("/api/games", json={"seats": humans(3)}).status_code == 201


def test_moves_and_undos_share_a_limit_per_client(make_client: Factory) -> None:
    client = make_client(moves_per_minute=3)
    created = create(client, humans(3), seed=5)
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    for _ in range(2):
        public = client.get(f"/api/games/{game_id}").json()
        seat = public["to_move"][0]
        mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
        response = client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[seat]},
            json={"version": mine["version"], "action": mine["legal"][0]["action"]},
        )
        assert response.status_code == 200, response.text
    undo = client.post(
        f"/api/games/{game_id}/undo", params={"token": tokens[0]}, json={"version": 0}
    )
    assert undo.status_code != 429  # the third request: refused or not, but not limited
    for path in ("actions", "undo"):
        response = client.post(
            f"/api/games/{game_id}/{path}",
            params={"token": tokens[0]},
            json={"version": 0, "action": "done"},
        )
        assert "3 moves a minute" in refusal(response, 429)
        assert int(response.headers["retry-after"]) >= 1
    assert client.get(f"/api/games/{game_id}").status_code == 200  # reading is not limited


def test_bots_on_the_server_are_not_limited(make_client: Factory) -> None:
    client = make_client(moves_per_minute=1)
    created = create(client, [{"kind": "bot", "bot": "random"} for _ in range(3)], seed=2)
    game_id = created["id"]
    wait_for(lambda: client.get(f"/api/games/{game_id}").json()["version"] > 20)

"""Text a database cannot store, WebSocket refusals a browser can read, security headers,
and server errors that keep their details to the log."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from karnak.server.app import create_app
from karnak.server.service import GameService

from .conftest import create, humans

SHORT = 400
JSON = {"content-type": "application/json"}
SURROGATE = "\\ud800"  # as JSON text: a lone UTF-16 surrogate, valid JSON, not valid UTF-8


def refusal(response: Any, status: int) -> str:
    assert response.status_code == status, response.text[:SHORT]
    assert len(response.content) < SHORT, response.text[:SHORT]
    message: str = response.json()["error"]
    return message


# ---------------------------------------------------------------------- text
@pytest.mark.parametrize(
    "body",
    [
        '{"seats": [{"name": "A%s"}, {}, {}]}',
        '{"seats": [{}, {}, {}], "options": {"edit%sion": "2003"}}',
        '{"seats": [{}, {}, {}], "options": {"edition": "%s"}}',
        '{"seats": [{}, {}, {"kind": "bot", "bot": "random%s"}]}',
        '{"seats": [{}, {}, {}], "game": "amunre%s"}',
    ],
)
def test_a_lone_surrogate_in_a_new_game_is_refused(client: TestClient, body: str) -> None:
    response = client.post("/api/games", content=body % SURROGATE, headers=JSON)
    assert "surrogate" in refusal(response, 422)
    assert client.get("/api/games").json() == []


@pytest.mark.parametrize(
    "action",
    [
        '"bid THEBES%s 3"',
        '{"type": "bid", "province": "THEBES%s", "amount": 3}',
        '{"type%s": "bid"}',
    ],
)
def test_a_lone_surrogate_in_a_move_is_refused(client: TestClient, action: str) -> None:
    created = create(client, humans(3), seed=1)
    response = client.post(
        f"/api/games/{created['id']}/actions",
        params={"token": created["seats"][0]["token"]},
        content='{"version": 0, "action": %s}' % (action % SURROGATE),
        headers=JSON,
    )
    assert "surrogate" in refusal(response, 422)


@pytest.mark.parametrize("name", ["Ana\x00", "Ana\nBo", "\x1b[31mRed", "Ana\u202eoB", "A\x7f"])
def test_seat_names_with_control_characters_are_refused(client: TestClient, name: str) -> None:
    response = client.post("/api/games", json={"seats": [{"name": name}, *humans(2)]})
    message = refusal(response, 422)
    assert "seats.0.name" in message and "control character" in message


def test_ordinary_names_pass(client: TestClient) -> None:
    names = ["Ana María", "Zoë 🐍", "नमस्ते", "  Bo  "]
    created = create(client, [{"name": name} for name in names])
    assert [seat["name"] for seat in created["seats"]] == ["Ana María", "Zoë 🐍", "नमस्ते", "Bo"]


@pytest.mark.parametrize("game_id", ["a%00b", "x" * 5000, "%ED%A0%80", "a b", "%C3%A9"])
def test_malformed_game_ids_are_unknown_games(client: TestClient, game_id: str) -> None:
    for path in ("", "/record", "/replay", "/replay/0"):
        response = client.get(f"/api/games/{game_id}{path}")
        assert "no game" in refusal(response, 404)
    response = client.post(
        f"/api/games/{game_id}/actions", params={"token": "t"}, json={"version": 0, "action": "x"}
    )
    refusal(response, 404)


def test_a_malformed_token_is_a_wrong_token(client: TestClient) -> None:
    created = create(client, humans(3))
    for token in ("\x00", "t" * 5000, "é"):
        response = client.get(f"/api/games/{created['id']}", params={"token": token})
        refusal(response, 403)


# ---------------------------------------------------------------------- errors
def test_unknown_routes_and_methods_answer_in_the_api_format(client: TestClient) -> None:
    assert refusal(client.get("/api/nothing"), 404)
    assert refusal(client.delete("/api/games"), 405)
    assert refusal(client.get("/static/missing.js"), 404)


def test_a_server_bug_is_a_500_without_its_details(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_args: Any) -> str:
        raise RuntimeError("secret internals at /srv/karnak/service.py line 7")

    monkeypatch.setattr(GameService, "view_json", broken)
    with TestClient(create_app(database, bot_workers=0), raise_server_exceptions=False) as client:
        created = create(client, humans(3))
        response = client.get(f"/api/games/{created['id']}")
    assert response.status_code == 500
    assert response.json() == {"error": "internal server error"}
    assert "secret" not in response.text and "Traceback" not in response.text


# ---------------------------------------------------------------------- WebSocket
def closed(client: TestClient, path: str, send: Any = None) -> WebSocketDisconnect:
    """Open the socket (it must be accepted), optionally send something, and return how
    the server closed it."""
    with client.websocket_connect(path) as socket:
        if isinstance(send, bytes):
            socket.send_bytes(send)
        elif send is not None:
            socket.send_text(send)
        with pytest.raises(WebSocketDisconnect) as refused:
            while True:  # the first view may come before the close
                socket.receive_text()
    return refused.value


def test_websocket_refusals_are_told_after_accepting(client: TestClient) -> None:
    """Closing before accepting is an HTTP 403 to a browser: no code, no reason."""
    created = create(client, humans(3))
    refused = closed(client, "/api/games/nope/ws")
    assert refused.code == 4404 and "no game" in refused.reason
    refused = closed(client, f"/api/games/{created['id']}/ws?token=forged")
    assert refused.code == 4403 and "token" in refused.reason
    refused = closed(client, f"/api/games/{'x' * 3000}/ws")
    assert refused.code == 4404 and len(refused.reason.encode()) <= 123


def test_websocket_messages_other_than_view_close_the_socket(client: TestClient) -> None:
    created = create(client, humans(3))
    path = f"/api/games/{created['id']}/ws?token={created['seats'][0]['token']}"
    refused = closed(client, path, send=b"view")
    assert refused.code == 1003 and "text" in refused.reason
    refused = closed(client, path, send="hello")
    assert refused.code == 1008 and "view" in refused.reason
    refused = closed(client, path, send="v" * 100_000)
    assert refused.code == 1009 and "long" in refused.reason
    with client.websocket_connect(path) as socket:  # "view" itself still works
        first = socket.receive_json()
        socket.send_text("view")
        assert socket.receive_json() == first


# ---------------------------------------------------------------------- headers
def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    created = create(client, humans(3))
    token = created["seats"][0]["token"]
    answers = [
        client.get("/"),
        client.get(f"/games/{created['id']}?token={token}"),
        client.get("/static/game.js"),
        client.get("/api/games"),
        client.get(f"/api/games/{created['id']}", params={"token": token}),
        client.get("/api/games/nope"),
        client.get("/api/nothing"),
        client.post("/api/games", json={"seats": []}),
        client.post("/api/games", content="{", headers=JSON),
        client.get("/openapi.json"),
    ]
    for response in answers:
        headers = response.headers
        assert headers["referrer-policy"] == "no-referrer", response.url
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        policy = dict(
            part.strip().split(" ", 1) for part in headers["content-security-policy"].split(";")
        )
        assert policy["default-src"] == "'self'"
        assert policy["script-src"] == "'self'"  # no inline script, no eval
        assert policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
        assert policy["form-action"] == "'self'"
        assert "'self'" in policy["connect-src"] and "ws://testserver" in policy["connect-src"]
        assert policy["img-src"] == "'self' data:"


def test_the_pages_have_no_inline_script(client: TestClient) -> None:
    for path in ("/", "/games/x"):
        html = client.get(path).text
        assert "<script>" not in html and "onclick" not in html.lower()
        assert json.dumps("javascript:") not in html

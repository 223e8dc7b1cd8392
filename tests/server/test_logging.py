"""The server's log: text and JSON lines, request ids, and an access log that never writes a
seat's token, a ticket or a cookie (karnak.server.observability.logs and .requests)."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.observability.logs import (
    ACCESS_LOGGER,
    PROPAGATED,
    QUIETED,
    LogHandler,
    configure_logging,
    shown_target,
)

from .conftest import create, humans

PASSWORD = "two crowns, one Nile"
TOUCHED = (*PROPAGATED, *QUIETED, ACCESS_LOGGER, "uvicorn.access")
HEX_ID = re.compile(r"[0-9a-f]{32}")
TEXT_LINE = re.compile(
    r"(?P<time>\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00) (?P<level>[A-Z]+) "
    r"(?P<logger>[\w.]+) \[(?P<rid>[^\]]+)\] (?P<message>.*)"
)

Configure = Callable[..., io.StringIO]


@pytest.fixture
def logs() -> Iterator[Configure]:
    """``logs(format, level="info", access_log=True)`` configures the log into a buffer it
    returns; the logging setup is put back afterwards."""
    root = logging.getLogger()
    saved_root = (root.level, list(root.handlers))
    saved = {
        name: (lg.level, list(lg.handlers), lg.propagate, lg.disabled)
        for name in TOUCHED
        for lg in [logging.getLogger(name)]
    }

    def configure(log_format: str, level: str = "info", access_log: bool = True) -> io.StringIO:
        buffer = io.StringIO()
        configure_logging(log_format, level, access_log, stream=buffer)
        return buffer

    yield configure
    root.setLevel(saved_root[0])
    for handler in [h for h in root.handlers if isinstance(h, LogHandler)]:
        root.removeHandler(handler)
    for handler in saved_root[1]:
        if handler not in root.handlers:
            root.addHandler(handler)
    for name, (level, handlers, propagate, disabled) in saved.items():
        logger = logging.getLogger(name)
        logger.setLevel(level)
        logger.handlers[:] = handlers
        logger.propagate, logger.disabled = propagate, disabled


@pytest.fixture
def server(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", bot_workers=0)
    with TestClient(app) as client:
        yield client


def json_lines(buffer: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in buffer.getvalue().splitlines() if line.strip()]


def access_lines(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [record for record in records if record["logger"] == ACCESS_LOGGER]


# ---------------------------------------------------------------------- formats
def test_text_lines_have_a_timestamp_a_level_a_logger_and_the_request_id(
    logs: Configure, server: TestClient
) -> None:
    buffer = logs("text")
    answer = server.get("/api/games")
    lines = [TEXT_LINE.fullmatch(line) for line in buffer.getvalue().splitlines()]
    assert lines and all(lines), buffer.getvalue()
    [line] = [found for found in lines if found and found["logger"] == ACCESS_LOGGER]
    assert line["level"] == "INFO"
    assert line["rid"] == answer.headers["x-request-id"]
    assert re.fullmatch(r"GET /api/games 200 \d+\.\dms testclient", line["message"])


def test_json_lines_parse_with_the_same_fields(logs: Configure, server: TestClient) -> None:
    buffer = logs("json")
    answer = server.get("/api/games", params={"limit": 5})
    logging.getLogger("karnak.server").warning("outside any request")
    records = json_lines(buffer)
    [access] = access_lines(records)
    assert access["level"] == "INFO" and access["timestamp"].endswith("+00:00")
    assert access["request_id"] == answer.headers["x-request-id"]
    assert access["method"] == "GET" and access["path"] == "/api/games?limit=5"
    assert access["status"] == 200 and access["client"] == "testclient"
    assert isinstance(access["duration_ms"], float)
    assert access["message"].startswith("GET /api/games?limit=5 200 ")
    [outside] = [r for r in records if r["message"] == "outside any request"]
    assert outside["level"] == "WARNING" and outside["logger"] == "karnak.server"
    assert "request_id" not in outside  # only where known


def test_lines_logged_while_a_request_runs_carry_its_id(logs: Configure, tmp_path: Path) -> None:
    app: FastAPI = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", bot_workers=0)

    @app.get("/test/log")
    async def say() -> dict[str, bool]:
        logging.getLogger("karnak.server").info("inside the request")
        return {"said": True}

    buffer = logs("json")
    with TestClient(app) as client:
        answer = client.get("/test/log", headers={"X-Request-ID": "support-ticket-42"})
    assert answer.headers["x-request-id"] == "support-ticket-42"
    [inside] = [r for r in json_lines(buffer) if r["message"] == "inside the request"]
    assert inside["request_id"] == "support-ticket-42"


def test_unknown_formats_and_levels_are_refused(logs: Configure) -> None:
    with pytest.raises(ValueError, match="log format"):
        logs("xml")
    with pytest.raises(ValueError, match="log level"):
        logs("text", level="loud")


# ---------------------------------------------------------------------- request ids
@pytest.mark.parametrize(
    ("sent", "kept"),
    [
        ("abc-123.X_y", True),
        ("a" * 64, True),
        ("a" * 65, False),  # too long
        ("two words", False),
        ("semi;colon", False),
        ("ünïcode", False),
        ("", False),
    ],
)
def test_a_request_id_is_echoed_only_if_safe(server: TestClient, sent: str, kept: bool) -> None:
    answer = server.get("/healthz", headers={"X-Request-ID": sent.encode()})
    echoed = answer.headers["x-request-id"]
    if kept:
        assert echoed == sent
    else:
        assert HEX_ID.fullmatch(echoed)


def test_every_answer_and_socket_gets_a_fresh_id(server: TestClient) -> None:
    ids = {server.get("/healthz").headers["x-request-id"] for _ in range(3)}
    refused = server.post("/api/games", content=b"x" * 100_000)  # refused by the body limit
    assert refused.status_code == 413 and HEX_ID.fullmatch(refused.headers["x-request-id"])
    missing = server.get("/no/such/page")
    assert missing.status_code == 404 and HEX_ID.fullmatch(missing.headers["x-request-id"])
    ids |= {refused.headers["x-request-id"], missing.headers["x-request-id"]}
    assert len(ids) == 5 and all(HEX_ID.fullmatch(i) for i in ids)
    game = create(server, humans(3))
    with server.websocket_connect(
        f"/api/games/{game['id']}/ws", headers={"X-Request-ID": "socket-7"}
    ) as socket:
        socket.receive_text()
        headers = dict(socket.extra_headers or [])
    assert headers[b"x-request-id"] == b"socket-7"


# ---------------------------------------------------------------------- no secret
@pytest.mark.parametrize("log_format", ["text", "json"])
def test_the_access_log_never_writes_a_token_a_ticket_or_a_cookie(
    logs: Configure, server: TestClient, log_format: str
) -> None:
    buffer = logs(log_format, level="debug")
    signed = server.post("/api/account/signup", json={"name": "Hatshepsut", "password": PASSWORD})
    assert signed.status_code == 201, signed.text
    session = server.cookies.get("karnak_session")
    csrf = server.cookies.get("karnak_csrf")
    assert session and csrf
    game = create(server, humans(3))
    token = game["seats"][0]["token"]
    game_id = game["id"]
    server.get(f"/api/games/{game_id}", params={"token": token})
    server.get(
        f"/api/games/{game_id}",
        headers={"X-Karnak-Token": token, "Authorization": "Bearer hunter2-bearer"},
    )
    server.get(f"/games/{game_id}?token={token}&ticket=tkt-secret-1&Reset_Code=rc-secret-2")
    server.get("/api/tables/abcdefabcdef?x_ticket=tkt-secret-3&view=1")
    server.get(f"/account/reset/{token}")  # a secret in the path itself
    with server.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
        socket.receive_text()
    server.cookies.set("karnak_session", "cookie-secret-4")
    server.get("/api/account")
    server.post("/api/account/logout", headers={"X-CSRF-Token": csrf})

    written = buffer.getvalue()
    for secret in (
        token,
        session,
        csrf,
        PASSWORD,
        "hunter2-bearer",
        "tkt-secret-1",
        "rc-secret-2",
        "tkt-secret-3",
        "cookie-secret-4",
    ):
        assert secret not in written, secret
    assert f"/api/games/{game_id}?token=***" in written
    assert "ticket=***&Reset_Code=***" in written
    assert "x_ticket=***&view=1" in written
    assert "/account/reset/***" in written
    assert f"WS /api/games/{game_id}/ws?token=*** 101 closed 1000 " in written
    if log_format == "json":
        records = access_lines(json_lines(buffer))
        assert len(records) >= 8
        assert all(HEX_ID.fullmatch(r["request_id"]) for r in records)


def test_addresses_are_written_without_secrets_or_control_characters() -> None:
    assert shown_target("/api/games/x", b"token=abc&limit=3") == "/api/games/x?token=***&limit=3"
    assert shown_target("/t", b"password=p&sig=s&apikey=k&next=%2Fhome") == (
        "/t?password=***&sig=***&apikey=***&next=%2Fhome"
    )
    assert shown_target("/t", b"tok%65n=abc") == "/t?tok%65n=***"  # named in escapes
    assert shown_target("/line\nbreak\x1b[2J", b"") == "/line%0Abreak%1B%5B2J"
    assert shown_target("/players/Hatshepsut", b"") == "/players/Hatshepsut"
    assert len(shown_target("/" + "a/" * 500, b"q=" + b"b" * 1000)) <= 602


def test_health_probes_are_written_at_debug_only(logs: Configure, server: TestClient) -> None:
    buffer = logs("text", level="info")
    server.get("/healthz")
    server.get("/readyz")
    server.get("/api/games")
    written = buffer.getvalue()
    assert "/healthz" not in written and "/readyz" not in written
    assert "GET /api/games 200" in written
    buffer = logs("text", level="debug")
    server.get("/healthz")
    assert "DEBUG karnak.access" in buffer.getvalue() and "GET /healthz 200" in buffer.getvalue()


def test_the_access_log_can_be_turned_off(logs: Configure, server: TestClient) -> None:
    buffer = logs("json", access_log=False)
    server.get("/api/games")
    logging.getLogger("karnak.server").warning("still said")
    records = json_lines(buffer)
    assert access_lines(records) == []
    assert [r["message"] for r in records] == ["still said"]


def test_access_lines_show_even_when_only_warnings_are_asked(
    logs: Configure, server: TestClient
) -> None:
    buffer = logs("text", level="warning")
    server.get("/api/games")
    logging.getLogger("karnak.server").info("not shown")
    written = buffer.getvalue()
    assert "GET /api/games 200" in written and "not shown" not in written


def test_uvicorn_s_own_access_log_stays_off(logs: Configure) -> None:
    buffer = logs("text")
    logging.getLogger("uvicorn.access").info('127.0.0.1 - "GET /?token=abc HTTP/1.1" 200')
    logging.getLogger("uvicorn.error").warning("uvicorn says")
    written = buffer.getvalue()
    assert "token=abc" not in written
    assert "WARNING uvicorn.error [-] uvicorn says" in written

"""Notifications: stored for their account, listed newest first with the unread count,
marked read (with CSRF), pushed live to the account's socket and to nobody else's."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.notifications.service import Notifier

from .test_accounts import csrf, sign_up


def notify(client: TestClient, account: int, text: str, kind: str = "invitation") -> Any:
    notifier: Notifier = client.app.state.notifier  # type: ignore[attr-defined]
    return client.portal.call(notifier.notify, account, kind, text, "/games/x")  # type: ignore[union-attr]


def test_notifications_are_listed_newest_first_and_marked_read(client: TestClient) -> None:
    me = sign_up(client).json()["account"]
    for n in range(3):
        notify(client, me["id"], f"note {n}")
    listed = client.get("/api/notifications").json()
    assert [n["text"] for n in listed["notifications"]] == ["note 2", "note 1", "note 0"]
    assert listed["unread"] == 3 and not any(n["read"] for n in listed["notifications"])
    assert client.post("/api/notifications/read", json={}).status_code == 403  # no CSRF
    first = listed["notifications"][-1]["id"]
    marked = client.post("/api/notifications/read", json={"up_to": first}, headers=csrf(client))
    assert marked.json() == {"marked": 1}
    assert client.get("/api/notifications").json()["unread"] == 2


def test_notifications_need_a_session(client: TestClient) -> None:
    assert client.get("/api/notifications").status_code == 401
    with client.websocket_connect("/api/account/ws") as socket:
        message = socket.receive()
    assert message["type"] == "websocket.close" and message["code"] == 4401


def test_a_notification_reaches_its_account_socket_only(database: str) -> None:
    with (
        TestClient(create_app(database, bot_workers=0)) as ana,
        TestClient(create_app(database, bot_workers=0)) as bes,
    ):
        ana_id = sign_up(ana, "Ana").json()["account"]["id"]
        bes_id = sign_up(bes, "Bes").json()["account"]["id"]
        with ana.websocket_connect("/api/account/ws") as socket:
            notify(ana, bes_id, "for Bes")  # another account's: not on Ana's socket
            notify(ana, ana_id, "for Ana", kind="turn")
            message = socket.receive_json()
        assert message["event"] == "notification"
        assert message["notification"]["text"] == "for Ana"
        assert message["notification"]["kind"] == "turn"
        assert [n["text"] for n in ana.get("/api/notifications").json()["notifications"]] == [
            "for Ana"
        ]


def test_unknown_kinds_are_a_programming_error() -> None:
    notifier = Notifier.__new__(Notifier)
    try:
        asyncio.run(notifier.notify(1, "gossip", "x"))
    except ValueError as exc:
        assert "unknown notification kind" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("an unknown kind was accepted")

"""Notifications over HTTP (the list, marking read) and the account's live socket.

``/api/account/ws`` carries whatever the hub publishes for the logged-in account
(notifications now; anything addressed to one person later), as JSON messages
``{"event": kind, ...}``. It takes the session cookie only from a page of this server.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from typing import Annotated, Any

from fastapi import APIRouter, Request, WebSocket
from pydantic import BaseModel, ConfigDict, Field

from karnak.i18n import _
from karnak.server.accounts.auth import same_origin, session_of
from karnak.server.accounts.routes import logged_in
from karnak.server.api import client_host, close_reason
from karnak.server.errors import error_responses
from karnak.server.hub import Event, Hub, account_topic
from karnak.server.inputs import WHOLE
from karnak.server.notifications.service import Notifier
from karnak.server.service import encode
from karnak.server.sockets import CLOSE_TOO_MANY, TooManySocketsError, counter_of

router = APIRouter(prefix="/api")
#: Messages waiting for a slow socket; past it the oldest go (the list has them all).
MAX_QUEUED = 100


def notifier_of(request: Request | WebSocket) -> Notifier:
    notifier: Notifier = request.app.state.notifier
    return notifier


class ReadIn(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    #: Mark read up to this notification id (all when missing).
    up_to: Annotated[int, Field(ge=0, lt=1 << 62), WHOLE] | None = None


@router.get("/notifications", operation_id="list_notifications", responses=error_responses(401))
async def list_notifications(request: Request) -> dict[str, Any]:
    """The newest notifications of the logged-in account, and how many are unread."""
    session = await logged_in(request, writing=False)
    notes, unread = await notifier_of(request).listed(session.account.id)
    return {"notifications": [note.to_json() for note in notes], "unread": unread}


@router.post(
    "/notifications/read",
    operation_id="read_notifications",
    responses=error_responses(400, 401, 403, 413, 422),
)
async def read_notifications(request: Request, body: ReadIn) -> dict[str, int]:
    session = await logged_in(request, writing=True)
    marked = await notifier_of(request).mark_read(session.account.id, body.up_to)
    return {"marked": marked}


@router.websocket("/account/ws")
async def account_socket(websocket: WebSocket) -> None:
    """The logged-in account's live messages (4401 without a session; 4429 past the open
    sockets of the address or account, karnak.server.sockets)."""
    session = await session_of(websocket) if same_origin(websocket) else None
    await websocket.accept()
    if session is None:
        await websocket.close(code=4401, reason=close_reason(_("log in first")))
        return
    try:
        ticket = counter_of(websocket).take(client_host(websocket), session.account.id)
    except TooManySocketsError as exc:
        await websocket.close(code=CLOSE_TOO_MANY, reason=close_reason(str(exc)))
        return
    hub: Hub = websocket.app.state.hub
    waiting: deque[str] = deque(maxlen=MAX_QUEUED)
    ready = asyncio.Event()

    def deliver(event: Event) -> None:
        message = event.payload.get("message")
        if message is not None:
            waiting.append(encode({"event": event.kind, **message}))
            ready.set()

    subscription = hub.subscribe(account_topic(session.account.id), deliver)

    async def send() -> None:
        while True:
            await ready.wait()
            ready.clear()
            while waiting:
                await websocket.send_text(waiting.popleft())

    async def receive() -> None:
        while True:  # nothing is taken from the client; a close ends the socket
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return

    tasks = {asyncio.create_task(send()), asyncio.create_task(receive())}
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        subscription.cancel()
        ticket.give_back()
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

"""Every request and WebSocket gets an id, a line in the access log, and its part in the metrics.

:class:`RequestTracking` is a pure ASGI middleware (not Starlette's ``BaseHTTPMiddleware``,
which would buffer streamed answers and does not see sockets), the outermost of the app's.
For each HTTP request and each WebSocket it:

- takes the request id from the ``X-Request-ID`` header if the client (or a proxy) sent a
  safe one (at most 64 characters of letters, digits, ``.``, ``_`` and ``-``), else makes
  one, and sends it back in the answer's ``X-Request-ID`` (on a socket, in the handshake's
  answer). A person reporting a problem can quote it, and it finds every line of the log
  written while the request ran (the ``request_id`` field);
- keeps what the rest of the server may want to know of the request in a context variable
  (:func:`current_request`): its id, when it arrived (the move latency is measured from
  there), and why it was refused (the app's handler of domain refusals notes it);
- counts the answer: its status, its duration, a refusal by reason, a socket open while it
  is;
- writes the access log's line (karnak.server.observability.logs).
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, Any

from karnak.server.http_limits import ASGIApp, Message, Receive, Send
from karnak.server.observability.context import RequestInfo, enter, leave
from karnak.server.observability.logs import log_access

if TYPE_CHECKING:
    from karnak.server.observability.metrics import Metrics

REQUEST_ID_HEADER = b"x-request-id"
#: A request id taken from a client: short, and nothing that could forge a log line.
SAFE_REQUEST_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")
#: The sockets by their address (the label ``kind`` of ``karnak_sockets_open``).
GAME_SOCKET = re.compile(r"/api/games/[^/]+/ws")
ACCOUNT_SOCKET = "/api/account/ws"


def incoming_request_id(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The client's ``X-Request-ID`` if it is a safe one, else None."""
    for name, value in headers:
        if name.lower() == REQUEST_ID_HEADER:
            text = value.decode("latin-1")
            return text if SAFE_REQUEST_ID.fullmatch(text) else None
    return None


def new_request_id() -> str:
    """32 random hexadecimal digits."""
    return os.urandom(16).hex()


def socket_kind(path: str) -> str:
    if GAME_SOCKET.fullmatch(path):
        return "game"
    return "account" if path == ACCOUNT_SOCKET else "other"


def client_of(scope: MutableMapping[str, Any]) -> str | None:
    client = scope.get("client")
    return str(client[0]) if client else None


class RequestTracking:
    """The request id, the access log and the request metrics (see the module's docstring)."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = scope.get("headers", [])
        info = RequestInfo(incoming_request_id(headers) or new_request_id(), time.perf_counter())
        echoed = (REQUEST_ID_HEADER, info.id.encode())
        sockets = socket_kind(scope.get("path", "")) if kind == "websocket" else None
        status = 0
        open_socket = False
        close_code: int | None = None  # the server's close frame
        client_code: int | None = None  # the client's

        def socket_gone() -> None:
            nonlocal open_socket
            if open_socket:
                open_socket = False
                self.metrics.socket_closed(sockets or "other")

        async def tracked(message: Message) -> None:
            nonlocal status, open_socket, close_code
            sort = message["type"]
            if sort in ("http.response.start", "websocket.http.response.start"):
                status = message["status"]
                message["headers"] = [*message.get("headers", []), echoed]
            elif sort == "websocket.accept":
                status = 101
                message["headers"] = [*message.get("headers", []), echoed]
                open_socket = True
                self.metrics.socket_opened(sockets or "other")
            elif sort == "websocket.close":
                close_code = int(message.get("code", 1000))
                if not status:
                    status = 403  # closed before the handshake was answered: refused
                socket_gone()
            await send(message)

        async def heard() -> Message:
            nonlocal client_code
            message = await receive()
            if message["type"] == "websocket.disconnect":
                client_code = int(message.get("code", 1005))
            return message

        token = enter(info)
        try:
            await self.app(scope, heard if kind == "websocket" else receive, tracked)
        except BaseException:
            if not status:
                status = 500
            raise
        finally:
            socket_gone()
            seconds = time.perf_counter() - info.started
            self.metrics.answered(
                kind, status, seconds, refusal=info.refusal, close_code=close_code
            )
            log_access(
                method=scope.get("method", "WS") if kind == "http" else "WS",
                path=scope.get("path", ""),
                query=scope.get("query_string", b""),
                status=status,
                seconds=seconds,
                client=client_of(scope),
                request=info.id,
                close_code=close_code if close_code is not None else client_code,
            )
            leave(token)

"""Security headers on every HTTP answer: pages, API, static files, docs and refusals.

The pages are plain files whose scripts are modules loaded from ``/static`` (no inline
script, no ``eval``), so scripts are limited to the server's own files. Styles need
``'unsafe-inline'``: each board arrives as SVG carrying its own ``<style>`` element and
``style=`` attributes, and the pages colour a seat's chip with a style attribute. Images are
the server's own or ``data:`` URIs. The pages' WebSocket goes to the host they came from;
``'self'`` covers ``ws:``/``wss:`` in current browsers (CSP level 3), older ones need the
scheme spelled out, so the host of the request is named too when it is a plain host name.

A seat's secret token is in its page's URL: ``Referrer-Policy: no-referrer`` keeps it from
being sent to any other site. Framing is refused twice (``frame-ancestors`` and the older
``X-Frame-Options``) so that no page can be overlaid on another site to steer clicks.
"""

from __future__ import annotations

import re
from collections.abc import MutableMapping
from typing import Any

from karnak.server.http_limits import ASGIApp, Message, Receive, Send

#: The headers that do not depend on the request.
STATIC_HEADERS = {
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src {connect}; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'; object-src 'none'"
)
#: A host name or IP address with an optional port: anything else is not named in the
#: policy (the Host header is the client's, and must not add directives of its own).
PLAIN_HOST = re.compile(
    r"(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?"
)


def content_security_policy(host: str | None) -> str:
    connect = "'self'"
    if host and len(host) <= 260 and PLAIN_HOST.fullmatch(host):
        connect = f"'self' ws://{host} wss://{host}"
    return POLICY.format(connect=connect)


def header_list(host: str | None) -> list[tuple[bytes, bytes]]:
    headers = {**STATIC_HEADERS, "Content-Security-Policy": content_security_policy(host)}
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


def request_host(scope: MutableMapping[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"host":
            host: str = value.decode("latin-1")
            return host
    return None


class SecurityHeaders:
    """Adds the headers to every HTTP response that does not set them itself."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: MutableMapping[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [h for h in header_list(request_host(scope)) if h[0] not in present]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, with_headers)

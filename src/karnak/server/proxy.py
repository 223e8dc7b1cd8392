"""Who the client is behind a reverse proxy: its header, believed only from the proxies named.

Every per-client limit (creations, moves, log-ins, sockets, a client's share of the running
games) counts the connection's address. Behind a proxy that address is the proxy's, so every
client would share one allowance; the proxy names the client in a header instead. But any
client can send that header too, so it is believed only when the connection comes from an
address the operator listed (``--forwarded-allow-ips``); by default nobody's is.

Two headers say the same thing: ``X-Forwarded-For`` (what HAProxy's ``option forwardfor``,
nginx's ``$proxy_add_x_forwarded_for`` and Caddy send) and the standard ``Forwarded``
(RFC 7239: ``for=192.0.2.7;proto=https``). The operator picks the one their proxy writes
(``--forwarded-header``) and only that one is read: a proxy that writes one header passes the
other on exactly as the client sent it, so reading both would let a client name itself.

Each proxy appends the address it received the request from, so the list is read from the
right: addresses of trusted proxies are skipped, and the first other one is the client (the
same rule as uvicorn's own middleware, which Karnak no longer uses so that both headers
follow it). The scheme (``X-Forwarded-Proto``, or ``proto=``) comes with it, so cookies are
marked Secure behind a TLS proxy.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from starlette.types import ASGIApp, Receive, Scope, Send

#: The headers a proxy may name the client in (``--forwarded-header``).
X_FORWARDED_FOR = "x-forwarded-for"
FORWARDED = "forwarded"
HEADERS = (X_FORWARDED_FOR, FORWARDED)
#: The longest client name believed (an address, or RFC 7239's ``_obfuscated`` name).
MAX_NAME = 64
#: The most hops read from one header (a longer list is a client's padding).
MAX_HOPS = 32
#: The schemes a proxy may report, for each kind of connection.
SCHEMES = {"http": {"http": "http", "https": "https"}, "websocket": {"http": "ws", "https": "wss"}}

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class TrustedProxies:
    """The addresses whose headers are believed: ``*`` (every one), addresses and networks."""

    def __init__(self, entries: Iterable[str]):
        items = [entry.strip() for entry in entries if entry.strip()]
        self.everyone = "*" in items
        self.networks: list[Network] = [
            ipaddress.ip_network(item, strict=False) for item in items if item != "*"
        ]

    @classmethod
    def parse(cls, text: str | None) -> TrustedProxies:
        """From ``10.0.0.5,10.1.0.0/16``; ValueError names an entry that is neither."""
        return cls((text or "").split(","))

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks)

    def __contains__(self, host: object) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(str(host))
        except ValueError:
            return False
        return any(address in network for network in self.networks)


def node_host(node: str) -> str | None:
    """The host of one hop: ``1.2.3.4``, ``1.2.3.4:80``, ``[2001:db8::1]:443``, ``unknown``,
    ``_hidden``; None for anything else (no client name is made up from garbage)."""
    node = node.strip().strip('"').strip()
    if node.startswith("["):
        host, _, _ = node[1:].partition("]")
    elif node.count(":") == 1:
        host = node.partition(":")[0]
    else:
        host = node
    try:
        return str(ipaddress.ip_address(host))
    except ValueError:
        pass
    if host == "unknown" or (
        host.startswith("_")
        and len(host) <= MAX_NAME
        and all(c.isascii() and (c.isalnum() or c in "._-") for c in host)
    ):
        return host
    return None


def split_list(value: str) -> list[str]:
    """A header's comma-separated elements, commas inside quoted strings kept."""
    parts: list[str] = []
    current: list[str] = []
    quoted = escaped = False
    for char in value:
        if escaped:
            escaped = False
        elif char == "\\" and quoted:
            escaped = True
        elif char == '"':
            quoted = not quoted
        elif char == "," and not quoted:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [part.strip() for part in parts if part.strip()]


def forwarded_elements(value: str) -> list[dict[str, str]]:
    """RFC 7239's elements: ``for=a;proto=https, for=b`` -> [{for: a, proto: https}, {for: b}]."""
    elements = []
    for element in split_list(value):
        pairs: dict[str, str] = {}
        for pair in element.split(";"):
            name, equals, text = pair.partition("=")
            if equals:
                pairs[name.strip().lower()] = text.strip().strip('"')
        elements.append(pairs)
    return elements


def hops(headers: list[tuple[bytes, bytes]], header: str) -> list[tuple[str | None, str | None]]:
    """The (client, scheme) each proxy reported, first proxy first."""
    name = header.encode("latin-1")
    values = [v.decode("latin-1") for k, v in headers if k.lower() == name]
    if header == FORWARDED:
        elements = forwarded_elements(",".join(values))
        found = [
            (node_host(e.get("for", "")), e.get("proto", "").lower() or None) for e in elements
        ]
    else:
        nodes = split_list(",".join(values))
        protos = [
            p.lower()
            for k, v in headers
            if k.lower() == b"x-forwarded-proto"
            for p in split_list(v.decode("latin-1"))
        ]
        found = [(node_host(node), None) for node in nodes]
        if protos:  # one per hop, or one for all (nginx sets it, not appends)
            found = [
                (host, protos[i] if len(protos) == len(found) else protos[-1])
                for i, (host, _) in enumerate(found)
            ]
    return found[-MAX_HOPS:]


def client_from(
    headers: list[tuple[bytes, bytes]], header: str, trusted: TrustedProxies
) -> tuple[str, str | None] | None:
    """The client and scheme the trusted proxies name; None when they name none."""
    found = hops(headers, header)
    if not found:
        return None
    for host, proto in reversed(found):
        if host is None:
            return None  # a hop nobody can read: believe nothing before it
        if host not in trusted:
            return host, proto
    return found[0][0] or "", found[0][1]


class ProxyHeadersMiddleware:
    """Sets the connection's client (and scheme) from ``header``, for trusted peers only."""

    def __init__(self, app: ASGIApp, *, trusted: TrustedProxies, header: str = X_FORWARDED_FOR):
        if header not in HEADERS:
            raise ValueError(f"the client's header is one of {', '.join(HEADERS)}, not {header!r}")
        self.app = app
        self.trusted = trusted
        self.header = header

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in SCHEMES:
            peer = scope.get("client")
            if peer is not None and peer[0] in self.trusted:
                named = client_from(scope.get("headers", []), self.header, self.trusted)
                if named is not None:
                    scope = self.rewritten(scope, *named)
        await self.app(scope, receive, send)

    @staticmethod
    def rewritten(scope: Scope, host: str, proto: str | None) -> Scope:
        changed: dict[str, Any] = dict(scope)
        changed["client"] = (host, 0)
        scheme = SCHEMES[scope["type"]].get(proto or "")
        if scheme is not None:
            changed["scheme"] = scheme
        return changed


def trust_proxies(app: Any, trusted: str | None, header: str = X_FORWARDED_FOR) -> None:
    """Add the middleware to a Starlette ``app`` (outermost, so everything inside sees the
    client), when some proxy is trusted; nothing otherwise."""
    proxies = TrustedProxies.parse(trusted)
    if proxies:
        app.add_middleware(ProxyHeadersMiddleware, trusted=proxies, header=header)

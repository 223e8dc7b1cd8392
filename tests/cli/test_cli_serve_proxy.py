"""Behind a reverse proxy: whose X-Forwarded-For or Forwarded (RFC 7239) names the client.

Nobody's by default, not even this machine's (uvicorn's own default would believe a proxy on
127.0.0.1); with ``--forwarded-allow-ips`` the named proxies' header is believed, and the rate
limits count each client they name; a header from anyone else changes nothing.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn
from fastapi.testclient import TestClient
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from karnak.cli.serve import uvicorn_options
from karnak.server.app import create_app
from karnak.server.cluster.local import free_port
from karnak.server.limits import ServerSettings
from karnak.server.proxy import TrustedProxies, client_from, node_host, trust_proxies

PROXY = "10.0.0.2"
SEATS = [{"kind": "human"} for _ in range(3)]


def echo_app() -> Starlette:
    """An application that answers with the client and scheme it was given."""

    async def whoami(request: Request) -> JSONResponse:
        client = request.client.host if request.client else None
        return JSONResponse({"client": client, "scheme": request.url.scheme})

    return Starlette(routes=[Route("/", whoami)])


def headers(*pairs: tuple[str, str]) -> list[tuple[bytes, bytes]]:
    return [(name.lower().encode(), value.encode()) for name, value in pairs]


# ---------------------------------------------------------------------------- reading them


@pytest.mark.parametrize(
    ("node", "host"),
    [
        ("192.0.2.60", "192.0.2.60"),
        ("192.0.2.60:4711", "192.0.2.60"),
        ('"[2001:db8:cafe::17]:4711"', "2001:db8:cafe::17"),
        ("[2001:db8::1]", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("unknown", "unknown"),
        ("_hidden.proxy-7", "_hidden.proxy-7"),
        ("evil.example", None),
        ("1.2.3.4\r\nX: y", None),
        ("_" + "x" * 100, None),
        ("", None),
    ],
)
def test_each_hop_is_an_address_or_an_rfc_7239_name(node: str, host: str | None) -> None:
    assert node_host(node) == host


@pytest.mark.parametrize(
    ("header", "sent", "client"),
    [
        # the proxy appends the address it saw: the client's own claim before it is ignored
        ("x-forwarded-for", [("X-Forwarded-For", "6.6.6.6, 192.0.2.7")], "192.0.2.7"),
        ("x-forwarded-for", [("X-Forwarded-For", "192.0.2.7, 10.0.0.3")], "192.0.2.7"),
        (
            "x-forwarded-for",
            [("X-Forwarded-For", "1.1.1.1"), ("X-Forwarded-For", "192.0.2.8")],
            "192.0.2.8",
        ),
        ("forwarded", [("Forwarded", "for=192.0.2.60;proto=https;by=203.0.113.43")], "192.0.2.60"),
        ("forwarded", [("Forwarded", 'for=6.6.6.6, for="[2001:db8::17]:4711"')], "2001:db8::17"),
        ("forwarded", [("Forwarded", "For=192.0.2.9"), ("Forwarded", "for=10.0.0.3")], "192.0.2.9"),
        # only the header asked for is read: a proxy passes the other on as the client sent it
        ("forwarded", [("X-Forwarded-For", "192.0.2.7")], None),
        ("x-forwarded-for", [("Forwarded", "for=192.0.2.7")], None),
        # a hop the proxy wrote that nobody can read: nothing before it is believed
        ("x-forwarded-for", [("X-Forwarded-For", "192.0.2.7, not-an-address")], None),
        ("forwarded", [("Forwarded", "by=10.0.0.2")], None),
    ],
)
def test_the_client_is_the_last_hop_no_trusted_proxy_wrote(
    header: str, sent: list[tuple[str, str]], client: str | None
) -> None:
    trusted = TrustedProxies.parse("10.0.0.0/24")
    found = client_from(headers(*sent), header, trusted)
    assert (found[0] if found else None) == client


def test_the_scheme_comes_from_the_same_proxies() -> None:
    trusted = TrustedProxies.parse(PROXY)
    sent = headers(("X-Forwarded-For", "192.0.2.7"), ("X-Forwarded-Proto", "https"))
    assert client_from(sent, "x-forwarded-for", trusted) == ("192.0.2.7", "https")
    sent = headers(("Forwarded", "for=192.0.2.7;proto=https"))
    assert client_from(sent, "forwarded", trusted) == ("192.0.2.7", "https")


def test_trusted_addresses_are_addresses_networks_or_everyone() -> None:
    trusted = TrustedProxies.parse("10.0.0.5, 10.1.0.0/16,::1")
    assert "10.0.0.5" in trusted and "10.1.9.9" in trusted and "::1" in trusted
    assert "10.0.0.6" not in trusted and "127.0.0.1" not in trusted and "x" not in trusted
    assert not TrustedProxies.parse(None) and not TrustedProxies.parse(" ")
    assert "203.0.113.1" in TrustedProxies.parse("*")
    with pytest.raises(ValueError):
        TrustedProxies.parse("balancer")


# ---------------------------------------------------------------------------- the middleware


@pytest.mark.parametrize("header", ["x-forwarded-for", "forwarded"])
def test_a_trusted_proxy_names_the_client_and_the_scheme(header: str) -> None:
    app = echo_app()
    trust_proxies(app, PROXY, header)
    named = (
        {"X-Forwarded-For": "192.0.2.7", "X-Forwarded-Proto": "https"}
        if header == "x-forwarded-for"
        else {"Forwarded": "for=192.0.2.7;proto=https"}
    )
    through_proxy = TestClient(app, client=(PROXY, 5000))
    assert through_proxy.get("/", headers=named).json() == {
        "client": "192.0.2.7",
        "scheme": "https",
    }
    # the same header straight from a client: not believed
    stranger = TestClient(app, client=("203.0.113.5", 5000))
    assert stranger.get("/", headers=named).json() == {"client": "203.0.113.5", "scheme": "http"}


def test_nobody_is_trusted_without_the_option() -> None:
    app = echo_app()
    trust_proxies(app, None)
    assert not app.user_middleware
    local = TestClient(app, client=("127.0.0.1", 5000))
    sent = {"X-Forwarded-For": "192.0.2.7", "Forwarded": "for=192.0.2.8"}
    assert local.get("/", headers=sent).json()["client"] == "127.0.0.1"


# ---------------------------------------------------------------------------- the rate limits


@pytest.mark.parametrize("header", ["x-forwarded-for", "forwarded"])
def test_the_rate_limits_count_each_client_a_trusted_proxy_names(
    tmp_path: Path, header: str
) -> None:
    """One creation a minute per client: through the trusted proxy, two clients create one
    game each; an untrusted peer naming a new client each time is still one client."""
    settings = ServerSettings(creates_per_minute=1)
    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", bot_workers=0, settings=settings)
    trust_proxies(app, f"{PROXY},10.9.0.0/16", header)

    def names(client: str) -> dict[str, str]:
        if header == "forwarded":
            return {"Forwarded": f'for="{client}:5555"'}
        return {"X-Forwarded-For": client}

    with TestClient(app, client=(PROXY, 5000)) as proxy:
        for client in ("192.0.2.7", "192.0.2.8"):
            answer = proxy.post("/api/games", json={"seats": SEATS}, headers=names(client))
            assert answer.status_code == 201, answer.text
        again = proxy.post("/api/games", json={"seats": SEATS}, headers=names("192.0.2.7"))
        assert again.status_code == 429
        # a client's own header before the proxy's is no way out of its allowance
        forged = {
            "forwarded": {"Forwarded": "for=198.51.100.1, for=192.0.2.7"},
            "x-forwarded-for": {"X-Forwarded-For": "198.51.100.1, 192.0.2.7"},
        }[header]
        assert proxy.post("/api/games", json={"seats": SEATS}, headers=forged).status_code == 429
        stranger = TestClient(app, client=("203.0.113.5", 5000))
        first = stranger.post("/api/games", json={"seats": SEATS}, headers=names("192.0.2.50"))
        assert first.status_code == 201, first.text
        second = stranger.post("/api/games", json={"seats": SEATS}, headers=names("192.0.2.51"))
        assert second.status_code == 429  # the stranger is counted as itself


# ---------------------------------------------------------------------------- uvicorn


@pytest.fixture
def serving() -> Iterator[Any]:
    """Serve an application with the options ``karnak serve`` gives uvicorn, in a thread."""
    servers: list[uvicorn.Server] = []
    threads: list[threading.Thread] = []

    def start(app: Any) -> str:
        port = free_port()
        options = uvicorn_options("127.0.0.1", port, workers=1)
        del options["workers"]
        server = uvicorn.Server(uvicorn.Config(app, **options))
        thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
        thread.start()
        deadline = time.monotonic() + 10
        while not server.started:
            assert time.monotonic() < deadline, "uvicorn did not start"
            time.sleep(0.02)
        servers.append(server)
        threads.append(thread)
        return f"http://127.0.0.1:{port}/"

    yield start
    for server in servers:
        server.should_exit = True
    for thread in threads:
        thread.join(timeout=10)


def test_uvicorn_believes_no_header_from_this_machine(serving: Any) -> None:
    """uvicorn's default would believe X-Forwarded-For from 127.0.0.1; as ``karnak serve``
    runs it, a client on this machine is itself whatever it sends."""
    url = serving(echo_app())
    sent = {
        "X-Forwarded-For": "192.0.2.7",
        "Forwarded": "for=192.0.2.8",
        "X-Forwarded-Proto": "https",
    }
    answer = httpx.get(url, headers=sent).json()
    assert answer == {"client": "127.0.0.1", "scheme": "http"}


def test_uvicorn_serves_the_trusted_proxys_client(serving: Any) -> None:
    app = echo_app()
    trust_proxies(app, "127.0.0.1", "forwarded")
    url = serving(app)
    answer = httpx.get(url, headers={"Forwarded": "for=192.0.2.8;proto=https"}).json()
    assert answer == {"client": "192.0.2.8", "scheme": "https"}

"""A real server on a free loopback port and Debian's Chromium driven by Playwright.

The browser is ``$KARNAK_BROWSER`` or ``/usr/bin/chromium``. Without one the browser tests
are skipped, unless ``KARNAK_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.templates import Templates

BROWSER = os.environ.get("KARNAK_BROWSER", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def running(app: Any, port: int | None = None) -> Iterator[str]:
    """``app`` served by uvicorn on a loopback port (a free one unless given: an app that
    must know its own address first, for links in e-mails) in a thread: its address."""
    port = port or free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@pytest.fixture
def server_url(tmp_path: Path, templates: Templates) -> Iterator[str]:
    """A server on a database of the test's own, at the newest schema (tests/conftest.py)."""
    database = templates.sqlite(tmp_path / "browser.sqlite3")
    with running(create_app(database, bot_workers=0)) as url:
        yield url


@pytest.fixture
def tournament_server(tmp_path: Path, templates: Templates) -> Iterator[str]:
    """A server for the tournament pages: no daily or crowd games of its own, and room for
    the many games a tournament starts at once."""
    database = templates.sqlite(tmp_path / "tournaments.sqlite3")
    settings = ServerSettings(
        daily_bots="",
        crowd_every_minutes=0,
        creates_per_minute=1000,
        running_games_per_client=100_000,
    )
    with running(create_app(database, bot_workers=0, settings=settings)) as url:
        yield url


@pytest.fixture(scope="session")
def chromium_process() -> Iterator[Any]:
    """One Chromium per test process: starting it costs seconds on a small machine, and
    every test works in contexts of its own (closed after it by ``browser``)."""
    if not Path(BROWSER).exists():
        if os.environ.get("KARNAK_REQUIRE_BROWSER") == "1":
            pytest.fail(f"no browser at {BROWSER} (install Debian's chromium)")
        pytest.skip(f"no browser at {BROWSER}; install Debian's chromium to run this test")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=BROWSER, args=CHROMIUM_FLAGS)
        # Playwright's synchronous API leaves its event loop marked as running between calls;
        # the other tests of this process (asyncio.run, anyio) need none running, so the
        # loop is marked only while a browser test runs (``browser``).
        loop = asyncio.events._get_running_loop()
        asyncio.events._set_running_loop(None)
        yield launched, loop
        asyncio.events._set_running_loop(loop)
        launched.close()


@pytest.fixture
def browser(chromium_process: tuple[Any, asyncio.AbstractEventLoop | None]) -> Iterator[Any]:
    """The process's Chromium, left as the test found it: every context (cookies, storage,
    pages and their sockets) the test opened is closed after it."""
    launched, loop = chromium_process
    asyncio.events._set_running_loop(loop)
    try:
        yield launched
        for context in list(launched.contexts):
            context.close()
    finally:
        asyncio.events._set_running_loop(None)

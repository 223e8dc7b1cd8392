"""A real server on a free loopback port and Debian's Chromium driven by Playwright.

The browser is ``$KARNAK_BROWSER`` or ``/usr/bin/chromium``. Without one the browser tests
are skipped, unless ``KARNAK_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure.
"""

from __future__ import annotations

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
def browser() -> Iterator[Any]:
    if not Path(BROWSER).exists():
        if os.environ.get("KARNAK_REQUIRE_BROWSER") == "1":
            pytest.fail(f"no browser at {BROWSER} (install Debian's chromium)")
        pytest.skip(f"no browser at {BROWSER}; install Debian's chromium to run this test")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=BROWSER, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()

"""Real server processes for the cluster tests: PostgreSQL, Redis, ``karnak serve`` processes
and HAProxy, all on loopback (karnak.server.cluster.local does the work).

A test that needs a part this machine lacks (``KARNAK_TEST_POSTGRES_URL``, redis-server,
haproxy) is reported as skipped with the reason, unless ``KARNAK_REQUIRE_CLUSTER=1`` (set by
``.ci/run``, which installs them) makes that a failure. Whatever the test does, every process
is stopped and the database dropped at the end; a failing test prints the processes' logs.

The clients here never use a proxy from the environment: every request stays on loopback.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from karnak.server.cluster.local import (
    ClusterError,
    ClusterUnavailable,
    LocalCluster,
    missing_parts,
)

POSTGRES = os.environ.get("KARNAK_TEST_POSTGRES_URL")
REQUIRED = os.environ.get("KARNAK_REQUIRE_CLUSTER") == "1"

__all__ = [
    "POSTGRES",
    "ClusterError",
    "LocalCluster",
    "client",
    "cookie_headers",
    "running_cluster",
    "skip_without_cluster",
    "wait_for",
    "ws_url",
]


def skip_without_cluster() -> None:
    """Skip (or, under KARNAK_REQUIRE_CLUSTER=1, fail) when a part of the cluster is missing."""
    reasons = missing_parts(POSTGRES)
    if reasons:
        message = "needs PostgreSQL, redis-server and haproxy: " + "; ".join(reasons)
        if REQUIRED:
            pytest.fail(message + " (KARNAK_REQUIRE_CLUSTER=1)")
        pytest.skip(message)


@contextlib.contextmanager
def running_cluster(folder: Path, **options: Any) -> Iterator[LocalCluster]:
    """A started :class:`LocalCluster` in ``folder`` (options: ``count``, ``options``,
    ``balancer``, ``together``...), closed at the end; on a failure its logs are printed
    (pytest shows them with the failure)."""
    skip_without_cluster()
    assert POSTGRES is not None
    cluster = LocalCluster(POSTGRES, folder, **options)
    try:
        try:
            cluster.start()
        except ClusterUnavailable as missing:
            if REQUIRED:
                pytest.fail(str(missing))
            pytest.skip(str(missing))
        yield cluster
    except BaseException:
        print(cluster.logs())
        raise
    finally:
        cluster.close()


def client(base: str, timeout: float = 30.0) -> httpx.Client:
    """An HTTP client of ``base`` that ignores proxy settings and keeps no cookies (the
    session cookies are Secure: tests send them in headers, see :func:`cookie_headers`)."""
    return httpx.Client(base_url=base, timeout=timeout, trust_env=False)


def ws_url(base: str, game_id: str, token: str | None = None) -> str:
    url = base.replace("http://", "ws://", 1) + f"/api/games/{game_id}/ws"
    return url + (f"?token={token}" if token else "")


def cookie_headers(response: Any) -> dict[str, str]:
    """The headers that carry the session a sign-up or log-in answered with: its cookies and
    the CSRF token (browsers send Secure cookies to http://127.0.0.1; httpx does not)."""
    cookies = {}
    for line in response.headers.get_list("set-cookie"):
        name, _, rest = line.partition("=")
        cookies[name.strip()] = rest.split(";", 1)[0]
    return {
        "Cookie": "; ".join(f"{name}={value}" for name, value in cookies.items()),
        "X-CSRF-Token": cookies.get("karnak_csrf", ""),
    }


def wait_for(check: Callable[[], bool], timeout: float, what: str = "the cluster") -> float:
    """Wait until ``check()``; the seconds it took (an AssertionError after ``timeout``)."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.05)
    return time.monotonic() - started

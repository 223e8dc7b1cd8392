"""A redis-server of a test's own: a free loopback port, nothing kept on disk, its log in the
given folder. The test can stop it and start it again (on the same port, empty).

::

    from support.redis_server import running_redis

    with running_redis(tmp_path) as redis:  # skips the test without redis-server
        ...  # redis.url is the broker's URL; redis.stop() and redis.start() as needed

:class:`RedisServer` is the local cluster's own starter
(:class:`karnak.server.cluster.local.Redis`), so the tests and ``karnak.server.cluster.local``
find and start redis-server the same way.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from karnak.server.cluster.local import Redis, program

__all__ = ["REDIS_SERVER", "RedisServer", "running_redis"]

#: The redis-server program, or None where it is not installed (looked for as the local
#: cluster looks for it: the PATH, then Debian's usual places).
REDIS_SERVER = program("redis-server")
#: Why a test that needs Redis is skipped here.
NOT_INSTALLED = "redis-server is not installed (apt-get install redis-server; CI installs it)"

RedisServer = Redis


@contextlib.contextmanager
def running_redis(folder: Path) -> Iterator[RedisServer]:
    """A started redis-server (its log in ``folder``), stopped at the end; the test is
    skipped, with the reason, where redis-server is not installed."""
    if REDIS_SERVER is None:
        pytest.skip(NOT_INSTALLED)
    server = RedisServer(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()

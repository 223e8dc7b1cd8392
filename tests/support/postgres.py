"""A throwaway PostgreSQL database for a test: made on the server ``KARNAK_TEST_POSTGRES_URL``
names (``.ci/run`` starts one; its role must be allowed to create databases), dropped after.

::

    from support.postgres import POSTGRES, postgres_database

    with postgres_database() as url:
        ...  # a new, empty database of this test's own

A test without ``POSTGRES`` should skip (with the reason) before calling it.
"""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

from sqlalchemy import create_engine, make_url, text

#: A PostgreSQL server to test against as well (``.ci/run`` starts one); its role must be
#: allowed to create databases: every test gets a database of its own.
POSTGRES = os.environ.get("KARNAK_TEST_POSTGRES_URL")


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test (dropped afterwards): its URL."""
    assert POSTGRES is not None
    name = f"karnak_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
    finally:
        drop_database(admin, name)
        admin.dispose()


def drop_database(admin: Any, name: str) -> None:
    """Drop a test's database, ending its connections. A role that is not a superuser cannot
    end an autovacuum worker's connection (InsufficientPrivilege), so a few tries a moment
    apart; a database left behind is only litter on a throwaway server, never a failure."""
    from sqlalchemy.exc import DBAPIError

    for attempt in range(20):
        try:
            with admin.connect() as connection:
                connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            return
        except DBAPIError:
            time.sleep(0.1 * (attempt + 1))
    print(f"left the test database {name} behind (it stayed in use)")

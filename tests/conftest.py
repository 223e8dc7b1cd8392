"""Shared by every test folder.

The tests run on the compiled hot paths where they are built (``make test`` builds them
first, and CI requires them: tests/native/test_native.py), as the ``karnak`` command and
the server do. Importing karnak alone does not install them (karnak.native), so this file,
which pytest imports before any test module, asks for them before any engine is imported;
the processes the tests start inherit the choice through ``KARNAK_NATIVE``.

It also holds the fixtures every folder may use: ``templates``, the migrated databases a
test's database is copied from (support.templates).
"""

from __future__ import annotations

import karnak.native

karnak.native.install()

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

from support.templates import Templates  # noqa: E402


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Templates]:
    """This process's migrated databases to copy (support.templates), made on first use:
    a server test's database starts at the newest schema without migrating."""
    made = Templates(tmp_path_factory.mktemp("templates"))
    yield made
    made.close()

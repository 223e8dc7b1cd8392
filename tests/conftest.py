"""Shared by every test folder.

The tests run on the compiled hot paths where they are built (``make test`` builds them
first, and CI requires them: tests/native/test_native.py), as the ``karnak`` command and
the server do. Importing karnak alone does not install them (karnak.native), so this file,
which pytest imports before any test module, asks for them before any engine is imported;
the processes the tests start inherit the choice through ``KARNAK_NATIVE``.
"""

import karnak.native

karnak.native.install()

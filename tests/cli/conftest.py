"""What every command-line test shares: the process's logging put back after each test.

``karnak serve`` sets up the process's logging (karnak.server.asgi.start_logging) on the
streams it is given; under Typer's test runner those are buffers closed when the command
returns, and the tests that go on using the application would then write to a closed file.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

#: The loggers ``karnak serve`` sets up, besides the root.
SET_UP = ("karnak", "karnak.server", "karnak.access", "uvicorn", "uvicorn.error", "uvicorn.access")


@pytest.fixture(autouse=True)
def logging_put_back() -> Iterator[None]:
    loggers = [logging.getLogger(), *(logging.getLogger(name) for name in SET_UP)]
    saved = [(lg, lg.handlers[:], lg.level, lg.propagate, lg.disabled) for lg in loggers]
    yield
    for logger, handlers, level, propagate, disabled in saved:
        logger.handlers[:] = handlers
        logger.setLevel(level)
        logger.propagate = propagate
        logger.disabled = disabled


@pytest.fixture(autouse=True)
def no_auto_pass_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """``karnak play`` plays a move that needs no choice after a pause a person sees; the
    tests need not wait for it (tests/cli/test_terminal_screens.py checks the pause)."""
    monkeypatch.setattr("karnak.cli.play.AUTO_PASS_PAUSE", 0.0)

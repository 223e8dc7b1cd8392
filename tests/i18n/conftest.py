"""A server on a database of its own per test (SQLite, a copy of the migrated template)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.app
from browser.conftest import browser, chromium_process  # noqa: F401 (one Chromium a process)
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.templates import Templates

GENEROUS = {"creates_per_minute": 10_000, "running_games_per_client": 100_000}


@pytest.fixture(autouse=True)
def generous_creation_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    def settings(**given: Any) -> ServerSettings:
        return ServerSettings(**{**GENEROUS, **given})

    monkeypatch.setattr(karnak.server.app, "ServerSettings", settings)


@pytest.fixture
def client(tmp_path: Path, templates: Templates) -> Iterator[TestClient]:
    url = templates.sqlite(tmp_path / "karnak.sqlite3")
    with TestClient(create_app(url, bot_workers=0)) as test_client:
        yield test_client

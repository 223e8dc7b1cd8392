"""A server on a fresh SQLite file per test, driven through FastAPI's TestClient."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.server.app import create_app


@pytest.fixture
def database(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'karnak.sqlite3'}"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0)) as test_client:
        yield test_client


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "amunre", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def humans(count: int) -> list[dict[str, Any]]:
    return [{"kind": "human"} for _ in range(count)]


def wait_for(check: Callable[[], bool], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting for the server")
        time.sleep(0.02)

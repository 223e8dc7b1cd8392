"""A text too long is refused in a person's words ("at most 40 characters"), even where its
length is checked after a validator of ours (pydantic then reports a sequence's "items")."""

from __future__ import annotations

from fastapi.testclient import TestClient

from karnak.server.errors import problem


def test_a_41_character_account_name_is_refused_in_characters(client: TestClient) -> None:
    response = client.post(
        "/api/account/signup", json={"name": "N" * 41, "password": "a long enough passphrase"}
    )
    assert response.status_code == 422
    error = response.json()["error"]
    assert "at most 40 characters" in error and "items" not in error


def test_a_list_keeps_its_items() -> None:
    long_list = {"type": "too_long", "input": [1] * 9, "ctx": {"max_length": 8}}
    assert problem(long_list) == "has too many items: at most 8 items"
    long_text = {"type": "too_long", "input": "x" * 9, "ctx": {"max_length": 8}}
    assert problem(long_text) == "is too long: at most 8 characters"
    short_text = {"type": "too_short", "input": "", "ctx": {"min_length": 1}}
    assert problem(short_text) == "is too short: at least 1 character"

"""Speeds by name (issue 33): real-time and turn-based, listed for the lobby, chosen by
name when a game or a table is made, unknown names refused."""

from __future__ import annotations

from fastapi.testclient import TestClient

from karnak.server.timebank.clock import MAX_PER_MOVE, MIN_PER_MOVE, TimeControl
from karnak.server.timebank.speeds import REAL_TIME, SPEEDS, TURN_BASED

from .conftest import create, humans


def test_the_speeds_are_listed_real_time_then_turn_based(client: TestClient) -> None:
    listed = client.get("/api/speeds").json()
    names = [speed["name"] for speed in listed["speeds"]]
    assert names == ["fast", "normal", "slow", "1h", "12h", "24h", "3d", "7d"]
    kinds = [speed["kind"] for speed in listed["speeds"]]
    assert kinds == [REAL_TIME] * 3 + [TURN_BASED] * 5
    for speed in listed["speeds"]:
        TimeControl(speed["per_move"], speed["bank"])  # within the bounds
        assert speed["label"]
    real = [s for s in listed["speeds"] if s["kind"] == REAL_TIME]
    assert all(s["per_move"] + s["bank"] <= 3600 for s in real)  # minutes a game
    turn = [s for s in listed["speeds"] if s["kind"] == TURN_BASED]
    assert (
        min(s["per_move"] for s in turn) == 3600 and max(s["per_move"] for s in turn) >= 3 * 86400
    )
    pseudo = client.get("/api/speeds", params={"lang": "xx"}).json()
    assert all(s["label"].startswith("⟦") for s in pseudo["speeds"])


def test_a_game_is_made_at_a_speed_by_name(client: TestClient) -> None:
    for speed in SPEEDS:
        created = create(client, humans(2), game="aton", time_control={"speed": speed.name})
        shown = client.get(f"/api/games/{created['id']}").json()["time_control"]
        assert shown == {"per_move": speed.per_move, "bank": speed.bank}


def test_unknown_or_mixed_speeds_are_refused(client: TestClient) -> None:
    for control in (
        {"speed": "blitz"},
        {"speed": ""},
        {"speed": 3},
        {"speed": "fast", "per_move": 60, "bank": 0},
        {"per_move": 60},
        {},
        {"speed": "x" * 10_000},
    ):
        answer = client.post(
            "/api/games",
            json={"game": "aton", "seats": humans(2), "time_control": control},
        )
        assert answer.status_code == 422, (control, answer.text)
    # seconds still work, within the bounds
    ok = create(client, humans(2), game="aton", time_control={"per_move": 600, "bank": 0})
    assert ok["id"]
    assert MIN_PER_MOVE <= 600 <= MAX_PER_MOVE


def test_a_table_takes_a_speed_by_name(client: TestClient) -> None:
    from .test_accounts import csrf, sign_up

    sign_up(client, "Ana")
    answer = client.post(
        "/api/tables",
        json={
            "game": "aton",
            "seats": [{"kind": "human"}, {"kind": "open"}],
            "time_control": {"speed": "24h"},
        },
        headers=csrf(client),
    )
    assert answer.status_code in (200, 201), answer.text
    made = answer.json()
    assert (made.get("table") or made)["time_control"] == {"per_move": 86400.0, "bank": 259200.0}
    refused = client.post(
        "/api/tables",
        json={
            "game": "aton",
            "seats": [{"kind": "human"}, {"kind": "open"}],
            "time_control": {"speed": "week"},
        },
        headers=csrf(client),
    )
    assert refused.status_code == 422

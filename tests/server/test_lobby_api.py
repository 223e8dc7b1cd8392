"""What the lobby reads from /api/games/available: each game's description, length and bot
levels within this server's limits, and that every level's bot creates a game."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings

from .conftest import create


def test_each_game_says_what_it_is_and_how_long_it_takes(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games/available").json()}
    assert games["egyptia"]["playing_time"] == "30-45 minutes"
    for game in games.values():
        assert 20 < len(game["description"]) < 200 and game["description"].endswith(".")
        assert "minutes" in game["playing_time"]


def test_levels_are_offered_for_every_table_with_a_default(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games/available").json()}
    amunre = games["amunre"]["levels"]
    assert amunre[0]["bots_from"] == 1 and amunre[-1]["bots_to"] == 5
    first = amunre[0]
    assert first["default"] == "medium"  # bot seats start at Medium, not Expert (issue 33)
    assert [(lv["name"], lv["spec"]) for lv in first["levels"]] == [
        ("easy", "random"),
        ("medium", "heuristic"),
        ("hard", "ismcts:0.25s"),
        ("expert", "ismcts:1s"),
        ("master", "ismcts:4s"),
    ]
    egyptia = games["egyptia"]["levels"]
    assert egyptia[-1]["bots_to"] == 99 and egyptia[-1]["default"] == "medium"


def test_levels_follow_the_servers_limits(tmp_path: Path) -> None:
    settings = ServerSettings(max_think=0.5, max_game_think=2.0)
    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", bot_workers=0, settings=settings)
    with TestClient(app) as tight:
        games = {g["name"]: g for g in tight.get("/api/games/available").json()}
        for band in games["amunre"]["levels"]:
            expert = band["levels"][3]["spec"]
            # 4 bots at 0.5 s fit 2 s; never more than max_think a move
            assert expert == ("ismcts:0.5s" if band["bots_to"] <= 4 else "ismcts:0.25s")
        # every level of every band creates a game on this server (within its limits)
        for band in games["amunre"]["levels"]:
            bots = band["bots_to"]
            if not 2 <= bots <= 4:
                continue
            for level in band["levels"]:
                seats = [{"kind": "human"}] + [{"kind": "bot", "bot": level["spec"]}] * bots
                create(tight, seats)

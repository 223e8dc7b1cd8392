"""Test support: playing a tournament's games for the logged-in player, for the server's
tests (a test client that ticks the tournaments itself) and the browser's (an HTTP client
holding the page's session while the server ticks by itself)."""

from __future__ import annotations

from typing import Any

from karnak.core.rng import Rng


def move_in_each_game(
    client: Any, tournament: dict[str, Any], rng: Rng, headers: dict[str, str] | None = None
) -> bool:
    """One random legal move in every running game of ``tournament`` (as the server last
    told it) where the client's account is to move (bots play their own); whether any move
    was made. ``headers``: what a write needs beyond the client's own (the CSRF token)."""
    moved = False
    for round_ in tournament["schedule"]:
        for game in round_["games"]:
            if game["game_id"] is None or game["places"] is not None:
                continue
            view = client.get(f"/api/games/{game['game_id']}").json()
            if view.get("seat") is None or not view.get("legal"):
                continue
            choice = view["legal"][rng.below(len(view["legal"]))]
            client.post(
                f"/api/games/{game['game_id']}/actions",
                json={"version": view["version"], "action": choice["action"]},
                headers=headers,
            )
            moved = True
    return moved

"""Ratings in Chromium: rated games between two accounts and a bot end; the final scoring
shows each player's rating change, the lobby leads to the leaderboard that lists them, and
the profile shows the rating's chart and the recent games. An unrated game says why."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

from karnak.core import Rng

from .test_accessibility import axe_script, report, violations

SCREENSHOTS_ENV = "KARNAK_SCREENSHOTS"
SEATS = [{"name": "Ana"}, {"name": "Bes"}, {"kind": "bot", "bot": "random"}]


def shots_dir(tmp_path: Path) -> Path:
    """docs/screenshots when KARNAK_SCREENSHOTS names it (to refresh the README's images),
    else the test's own temporary folder."""
    folder = Path(os.environ[SCREENSHOTS_ENV]) if os.environ.get(SCREENSHOTS_ENV) else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def api(page: Any, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A request from the page itself (its session cookie, and the CSRF header for writes)."""
    answer: dict[str, Any] = page.evaluate(
        """async ([method, path, body]) => {
            const found = document.cookie.split("; ").find((c) => c.startsWith("karnak_csrf="));
            const csrf = found ? decodeURIComponent(found.slice("karnak_csrf=".length)) : "";
            const response = await fetch(path, {
                method,
                headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
                body: body === null ? undefined : JSON.stringify(body),
            });
            return { status: response.status, body: await response.json() };
        }""",
        [method, path, body],
    )
    return answer


def signed_up(browser: Any, server_url: str, name: str) -> Any:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.goto(server_url + "/account")
    answer = api(page, "POST", "/api/account/signup", {"name": name, "password": "a long password"})
    assert answer["status"] == 201, answer
    return page


def finish(server_url: str, game_id: str, tokens: list[str | None], seed: int) -> None:
    """Random legal moves for the people's seats (the bot moves by itself) until the end."""
    rng = Rng(seed)
    deadline = time.monotonic() + 120
    with httpx.Client(base_url=server_url) as client:
        while time.monotonic() < deadline:
            public = client.get(f"/api/games/{game_id}").json()
            if public["status"] == "finished":
                return
            people = [s for s in public["to_move"] if tokens[s] is not None]
            if not people:
                time.sleep(0.02)
                continue
            for seat in people:
                mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
                if mine["legal"]:
                    choice = mine["legal"][rng.below(len(mine["legal"]))]
                    client.post(
                        f"/api/games/{game_id}/actions",
                        params={"token": tokens[seat]},
                        json={"version": mine["version"], "action": choice["action"]},
                    )
    raise AssertionError("the game did not finish")


def ratings_of(server_url: str, game_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found: dict[str, Any] = httpx.get(f"{server_url}/api/games/{game_id}/ratings").json()
        if found["status"] != "pending":
            return found
        time.sleep(0.05)
    raise AssertionError("the game was never rated")


def play(server_url: str, pages: list[Any], seed: int) -> str:
    """A game of the two accounts (seats 1 and 2) and a bot, played to its end."""
    created = httpx.post(
        server_url + "/api/games", json={"game": "egyptia", "seats": SEATS, "seed": seed}
    ).json()
    tokens = [seat["token"] for seat in created["seats"]]
    for seat, page in enumerate(pages):
        claimed = api(page, "POST", f"/api/games/{created['id']}/claim?token={tokens[seat]}")
        assert claimed["status"] == 200, claimed
    finish(server_url, created["id"], tokens, seed)
    return str(created["id"])


def signed(change: float) -> str:
    return f"+{change:.1f}" if change > 0 else f"\u2212{abs(change):.1f}" if change < 0 else "±0.0"


def test_rated_games_show_their_changes_the_leaderboard_and_the_profile(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    ana, bes = signed_up(browser, server_url, "Ana"), signed_up(browser, server_url, "Bes")
    errors: list[str] = []
    ana.on("pageerror", lambda exc: errors.append(str(exc)))
    games = [play(server_url, [ana, bes], seed) for seed in (3, 4, 5)]
    last = ratings_of(server_url, games[-1])
    assert last["status"] == "rated"

    # the final scoring of the last game, as Ana (her session opens her seat)
    ana.goto(f"{server_url}/games/{games[-1]}")
    ana.wait_for_selector("#result-panel:not([hidden]) #rating-change table")
    rows = ana.locator("#rating-change tbody tr")
    assert rows.count() == 3
    for row, seat in zip(rows.all(), last["seats"], strict=True):
        cells = row.locator("td").all_inner_texts()
        assert cells[1:] == [
            f"{seat['before']:.1f}",
            f"{seat['after']:.1f}",
            signed(seat["change"]),
        ]
    assert "Ana" in rows.nth(0).inner_text() and "Easy bot" in rows.nth(2).inner_text()

    # the lobby's catalogue leads to the game's leaderboard
    ana.goto(server_url + "/")
    ana.click("a[aria-label='Egyptia leaderboard']")
    ana.wait_for_url(server_url + "/leaderboard/egyptia")
    ana.wait_for_selector("#board tbody tr")
    board = httpx.get(server_url + "/api/leaderboard/egyptia").json()
    assert [e["name"] for e in board["entries"]] == [
        t.strip() for t in ana.locator("#board tbody th > :first-child").all_inner_texts()
    ]
    assert {e["name"] for e in board["entries"]} == {"Ana", "Bes", "Easy bot"}
    assert ana.inner_text("#board tbody th.bot .bot-spec") == "random"  # the spec beside
    assert all(e["games"] == 3 for e in board["entries"])
    assert ana.inner_text("#board tr.me th") == "Ana"
    script = axe_script()
    found = {"leaderboard": violations(ana, script)}
    ana.screenshot(path=str(shots_dir(tmp_path) / "leaderboard.png"))

    # ... and from there to a profile, with its chart and recent games
    ana.click("#board a:text-is('Ana')")
    ana.wait_for_url(server_url + "/players/Ana")
    ana.wait_for_selector("svg.rating-chart circle")
    assert ana.locator("#chart-egyptia circle").count() == 4  # the start and three games
    caption = ana.inner_text("#chart-egyptia-caption")
    assert caption.startswith("Egyptia rating: from 0.0 to") and "over 3 rated games" in caption
    row = ana.locator("#games-table tr[data-game='egyptia'] td").all_inner_texts()
    profile = httpx.get(server_url + "/api/players/Ana").json()
    egyptia = next(g for g in profile["games"] if g["game"] == "egyptia")
    assert row[:4] == ["3", str(egyptia["wins"]), f"{egyptia['rating']['rating']:.1f}", "3"]
    links = ana.locator("#recent li a").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('href'))"
    )
    assert links == [f"/games/{g}" for g in reversed(games)]
    found["profile"] = violations(ana, script)
    ana.screenshot(path=str(shots_dir(tmp_path) / "profile.png"), full_page=True)
    assert not any(found.values()), report(found)
    assert not errors, errors


def test_an_unrated_game_says_why(browser: Any, server_url: str) -> None:
    created = httpx.post(
        server_url + "/api/games", json={"game": "egyptia", "seats": SEATS, "seed": 6}
    ).json()
    finish(server_url, created["id"], [s["token"] for s in created["seats"]], 6)
    assert ratings_of(server_url, created["id"])["status"] == "unrated"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/games/{created['id']}")  # a spectator
    page.wait_for_selector("#rating-unrated")
    assert "not rated: a game without an account" in page.inner_text("#rating-unrated")
    page.goto(server_url + "/leaderboard/egyptia")
    page.wait_for_selector("#board .empty")
    page.goto(server_url + "/players/Nobody")
    page.wait_for_function("() => document.querySelector('#profile-error').textContent !== ''")
    assert page.inner_text("#profile-error") == "there is no player with this name"
    assert not errors, errors

"""Egyptia of the day in Chromium (/daily, issue 36): three people each log in, open the
page, press Play and land on their game; their games are played out through the API (quick),
and then each sees today's leaderboard with all three, their own result beside the bots'
and the text to share. While the day runs the leaderboard links no game; once it is over
(the service's clock moved on) it links each. A guest is told their game is unranked; a
refusal or a server that does not answer is told in a line, never a blank page."""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from i18n.pseudo import stray_words
from karnak.core import Rng
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.templates import Templates

from .conftest import running
from .test_accessibility import axe_script, report, violations
from .test_leaderboard import shots_dir, signed_up

NAMES = ["Ana", "Bes", "Cleo"]
#: Quick bots to beat (the site's are expert and master: minutes of thinking).
BOTS = "easy,medium"
BOT_NAMES = ["Easy bot", "Medium bot"]
#: A game page's own address for an account: its session opens the seat (no token).
OWN_GAME = re.compile(r"/games/([A-Za-z0-9_-]+)$")
GUEST_GAME = re.compile(r"/games/([A-Za-z0-9_-]+)\?token=")


def points(score: int) -> str:
    """A score as the page writes it ("1 point", "12 points")."""
    return f"{score} point" if score == 1 else f"{score} points"


@pytest.fixture
def daily_server(tmp_path: Path, templates: Templates) -> Iterator[tuple[str, Any]]:
    """A server (and its app, to move the game of the day's clock) with quick bots."""
    database = templates.sqlite(tmp_path / "daily.sqlite3")
    app = create_app(database, bot_workers=0, settings=ServerSettings(daily_bots=BOTS))
    with running(app) as url:
        yield url, app


def session_client(server_url: str, page: Any) -> httpx.Client:
    """An HTTP client holding the page's session (its cookies and the CSRF header)."""
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    return httpx.Client(
        base_url=server_url,
        cookies=cookies,
        headers={"X-CSRF-Token": cookies.get("karnak_csrf", "")},
        timeout=30,
    )


def finish_daily(server_url: str, page: Any, game_id: str, seed: int) -> None:
    """Random legal moves for the account's seat (its session opens it) until the end."""
    rng = Rng(seed)
    deadline = time.monotonic() + 180
    with session_client(server_url, page) as client:
        while time.monotonic() < deadline:
            view = client.get(f"/api/games/{game_id}").json()
            if view["status"] == "finished":
                return
            if not view["legal"]:
                time.sleep(0.02)
                continue
            choice = view["legal"][rng.below(len(view["legal"]))]
            client.post(
                f"/api/games/{game_id}/actions",
                json={"version": view["version"], "action": choice["action"]},
            )
    raise AssertionError("the game of the day did not finish")


def wait_for(check: Any, what: str, seconds: float = 60) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError(f"waited in vain for {what}")


def leaderboard_of(server_url: str, day: str, entries: int) -> dict[str, Any] | None:
    """The day's leaderboard once it lists ``entries`` results (None before)."""
    found: dict[str, Any] = httpx.get(f"{server_url}/api/daily/{day}/leaderboard").json()
    return found if len(found["entries"]) == entries else None


def bots_done(server_url: str) -> bool:
    bots = httpx.get(server_url + "/api/daily").json()["bots"]
    return bool(bots) and all(bot["score"] is not None for bot in bots)


def open_daily(page: Any, server_url: str, query: str = "") -> None:
    page.goto(server_url + "/daily" + query)
    page.wait_for_selector("#today-panel:not([hidden])")
    page.wait_for_selector("#leaderboard-panel:not([hidden])")
    page.wait_for_selector("#calendar tbody tr")


def test_three_players_play_the_day_and_compare(
    browser: Any, daily_server: tuple[str, Any], tmp_path: Path
) -> None:
    server_url, app = daily_server
    pages = [signed_up(browser, server_url, name) for name in NAMES]
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    pages[0].context.grant_permissions(["clipboard-read", "clipboard-write"])

    # each opens the page, is told today's day and the time left, and presses Play
    games: list[str] = []
    for page in pages:
        open_daily(page, server_url)
        today = httpx.get(server_url + "/api/daily").json()
        assert page.get_attribute("#today-day", "datetime") == today["day"]
        assert re.fullmatch(r"\d{1,2}:\d\d:\d\d|\d{1,2}:\d\d", page.inner_text("#countdown"))
        assert page.locator("#guest-note").is_hidden()
        assert page.inner_text("#play") == "Play"
        streak = page.inner_text("#streak")
        assert streak == "Current streak: 0 days · best: 0 days · finish today's game to start one."
        page.click("#play")
        page.wait_for_url(OWN_GAME)
        page.wait_for_selector("svg.egyptia-board")
        found = OWN_GAME.search(page.url)
        assert found is not None
        games.append(found.group(1))
    assert len(set(games)) == 3

    # the same day's game, resumed (one ranked game a day)
    open_daily(pages[0], server_url)
    assert pages[0].inner_text("#play") == "Resume"
    pages[0].click("#play")
    pages[0].wait_for_url(server_url + f"/games/{games[0]}")

    for seed, (page, game_id) in enumerate(zip(pages, games, strict=True)):
        finish_daily(server_url, page, game_id, seed)
    day = httpx.get(server_url + "/api/daily").json()["day"]
    board = wait_for(lambda: leaderboard_of(server_url, day, 3), "three results")
    assert board["final"] is False
    assert all(entry["game_id"] is None for entry in board["entries"])  # numbers alone
    wait_for(lambda: bots_done(server_url), "the bots' scores", 120)

    script = axe_script()
    found_violations: dict[str, list[dict[str, Any]]] = {}
    for name, page, game_id in zip(NAMES, pages, games, strict=True):
        open_daily(page, server_url)
        page.wait_for_selector("#leaderboard tbody tr[data-name]")
        rows = page.locator("#leaderboard tbody tr")
        assert rows.count() == 3
        assert [e["name"] for e in board["entries"]] == rows.evaluate_all(
            "(rows) => rows.map((row) => row.dataset.name)"
        )
        assert sorted(rows.evaluate_all("(rows) => rows.map((row) => row.dataset.name)")) == NAMES
        assert page.inner_text("#leaderboard tr.me th") == name
        # before the day is over: no game linked, only numbers
        assert page.locator("#leaderboard a[href^='/games/']").count() == 0
        assert "once the day is over" in page.inner_text("#leaderboard-note")
        assert page.inner_text("#leaderboard-count") == "3 players have finished so far."

        # their own result, and the bots beside it
        mine = next(e for e in board["entries"] if e["name"] == name)
        assert page.inner_text("#your-result strong") == points(mine["score"])
        result = page.inner_text("#your-result")
        assert mine["status"] in result and f"place {mine['place']} of 3" in result
        assert page.inner_text("#play") == "Open your game"
        you = page.locator("#architect tr[data-kind='you'] td").all_inner_texts()
        assert you[0] == str(mine["score"])
        bots = page.locator("#architect tr[data-kind='bot'] th > span").all_inner_texts()
        assert bots == BOT_NAMES
        assert "still playing" not in page.inner_text("#architect")
        verdict = page.inner_text("#architect-verdict")
        assert all(bot in verdict for bot in BOT_NAMES), verdict
        assert page.inner_text("#streak").startswith("Current streak: 1 day · best: 1 day")

        # the text to share, copied (and shown)
        page.click("#share")
        page.wait_for_selector("#share-text:not([hidden])")
        with session_client(server_url, page) as client:
            shared = client.get(f"/api/daily/share/{game_id}").json()["text"]
        assert page.inner_text("#share-text") == shared
        assert shared.startswith("Karnak · Egyptia of the day · " + day)
        assert points(mine["score"]) in shared
        if page is pages[0]:
            assert page.inner_text("#share-status") == "Copied: paste it wherever you like."
            assert page.evaluate("navigator.clipboard.readText()") == shared
        else:  # no permission: the page says so, and the text is there to select
            assert page.inner_text("#share-status").strip()

        # today's row of the calendar
        today_row = page.locator(f"#calendar tr[data-day='{day}'] td").all_inner_texts()
        assert today_row[0] == "3" and points(mine["score"]) in today_row[1]
        found_violations[name] = violations(page, script)
    pages[0].screenshot(path=str(shots_dir(tmp_path) / "daily.png"), full_page=True)

    # the lobby leads here, and says how today went
    pages[1].goto(server_url + "/")
    pages[1].wait_for_selector("#daily-entry-status:not(:empty)")
    mine = next(e for e in board["entries"] if e["name"] == NAMES[1])
    expected = f"Your score today: {points(mine['score'])}"
    assert pages[1].inner_text("#daily-entry-status") == expected
    pages[1].click("#daily-link")
    pages[1].wait_for_url(server_url + "/daily")

    # the profile's section
    pages[1].goto(server_url + f"/players/{NAMES[1]}")
    pages[1].wait_for_selector("#daily-panel:not([hidden]) #daily-table tbody tr[data-day]")
    cells = pages[1].locator(f"#daily-table tr[data-day='{day}'] td").all_inner_texts()
    assert cells[0] == str(mine["score"]) and cells[-1] == str(mine["place"])
    assert pages[1].inner_text("#daily-streaks").startswith("Current streak: 1 day")
    found_violations["profile"] = violations(pages[1], script)

    # the day is over (the service's clock moved on): yesterday's leaderboard links each game
    app.state.daily.clock = lambda: dt.datetime.now(dt.UTC) + dt.timedelta(days=1)
    page = pages[2]
    open_daily(page, server_url, f"?day={day}")
    page.wait_for_selector("#leaderboard a.game-link")
    links = page.locator("#leaderboard a.game-link").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('href'))"
    )
    by_name = dict(zip(NAMES, games, strict=True))
    assert links == [f"/games/{by_name[e['name']]}" for e in board["entries"]]
    assert page.locator("#leaderboard-back").is_visible()
    assert page.inner_text("#play") == "Play"  # a new day, a new game
    yesterday = page.locator(f"#calendar tr[data-day='{day}']")
    assert yesterday.locator("a", has_text="your game").get_attribute("href") == (
        f"/games/{games[2]}"
    )
    found_violations["final"] = violations(page, script)
    assert not any(found_violations.values()), report(found_violations)
    assert not errors, errors


def test_a_guest_plays_unranked_and_is_told_every_refusal(
    browser: Any, daily_server: tuple[str, Any]
) -> None:
    server_url, _app = daily_server
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    open_daily(page, server_url)
    assert page.locator("#guest-note").is_visible()
    assert "unranked" in page.inner_text("#guest-note")
    assert page.locator("#guest-note a").get_attribute("href") == "/account?next=/daily"
    assert page.locator("#streak-guest").is_visible()
    assert page.locator("#architect tr[data-kind='you']").count() == 0
    assert page.locator("#calendar button.practice").count() == 0  # the first day: no past

    # a refusal is told in its own words
    page.route(
        "**/api/daily/today/play",
        lambda route: route.fulfill(
            status=429,
            content_type="application/json",
            body=json.dumps({"error": "too many games started: wait a minute"}),
        ),
    )
    page.click("#play")
    page.wait_for_selector("#play-error:not(:empty)")
    assert page.inner_text("#play-error") == "too many games started: wait a minute"
    page.unroute("**/api/daily/today/play")

    # the game: unranked, its seat's token in the address (the answer read on its way)
    answers: list[tuple[int, dict[str, Any]]] = []

    def keep(route: Any) -> None:
        answer = route.fetch()
        answers.append((answer.status, answer.json()))
        route.fulfill(response=answer)

    page.route("**/api/daily/today/play", keep)
    page.click("#play")
    page.wait_for_url(GUEST_GAME)
    page.wait_for_selector("svg.egyptia-board")
    page.unroute("**/api/daily/today/play")
    [(status, played)] = answers
    assert status == 201 and played["ranked"] is False and played["token"]
    # back on the page, this browser remembers the game
    open_daily(page, server_url)
    assert page.inner_text("#play") == "Resume"
    page.click("#play")
    page.wait_for_url(server_url + played["url"])

    # a day that is not one, and a bot still playing
    open_daily(page, server_url, "?day=2001-01-01")
    page.wait_for_selector("#leaderboard-error:not(:empty)")
    assert "2001-01-01" in page.inner_text("#leaderboard-error")

    def still_playing(route: Any) -> None:
        answer = route.fetch()
        body = answer.json()
        body["bots"][0]["score"] = None
        route.fulfill(response=answer, body=json.dumps(body))

    page.route(re.compile(r"/api/daily$"), still_playing)
    open_daily(page, server_url)
    cells = page.locator("#architect tr[data-kind='bot']").first.locator("td").all_inner_texts()
    assert cells[0] == "still playing"
    page.unroute(re.compile(r"/api/daily$"))

    # every word the page writes goes through the catalogues (the pseudo-locale brackets it)
    open_daily(page, server_url, "?lang=xx")
    page.wait_for_selector("#architect tbody tr")
    # dates as Intl writes them, the bots' specs, the builder statuses (the server's words)
    names = page.locator("time, .bot-spec, #architect td:nth-child(3)").all_inner_texts()
    extra = frozenset(word.strip(",") for text in names for word in text.split())
    assert not stray_words(page.inner_text("main") + " " + page.title(), extra)

    # a server that does not answer
    page.route(re.compile(r"/api/daily$"), lambda route: route.abort())
    page.goto(server_url + "/daily?lang=en")  # (the pseudo-locale stays chosen otherwise)
    page.wait_for_selector("#daily-error:not(:empty)")
    assert page.inner_text("#daily-error") == "The server did not answer; try again in a moment."
    assert not errors, errors

"""A person creates a game in the lobby and plays it to the end by clicking, in Chromium."""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import TracebackType
from typing import Any

from playwright.sync_api import Error as PlaywrightError

from karnak.core import Rng

#: Where the screenshots go: docs/screenshots when asked (to refresh the README's images),
#: else the test's own temporary folder.
SCREENSHOTS_ENV = "KARNAK_SCREENSHOTS"
#: How long one click or choice may wait for its element (ms): a bot moving meanwhile can
#: redraw the page without it, and then the move is chosen afresh.
ACT = 5_000


class Misses:
    """Moves chosen on a page that a bot's move redrew before the click: the button, square
    or option is gone (Playwright times out, or a list came back empty). ``with misses:``
    around the click swallows that, and ``misses.last`` tells the loop to choose afresh;
    only a page that keeps changing under every move fails the test."""

    LIMIT = 200

    def __init__(self) -> None:
        self.count = 0
        self.last = False

    def __enter__(self) -> Misses:
        self.last = False
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> bool:
        if kind is None or not issubclass(kind, (PlaywrightError, ValueError)):
            return False
        self.count += 1
        self.last = True
        assert self.count < self.LIMIT, "the page kept changing under every move"
        return True


def test_create_a_game_in_the_lobby_and_play_it_to_the_end(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    shots = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(server_url + "/")
    page.click("#more-options summary")  # the full form is folded (issue 33)
    page.select_option("#players", "4")
    rows = page.locator(".seat-row")
    assert rows.count() == 4
    rows.nth(0).locator(".name").fill("Nefertari")
    for i in (1, 2, 3):
        rows.nth(i).locator(".kind").select_option("bot")
        rows.nth(i).locator(".level").select_option("heuristic")
    page.screenshot(path=str(shots / "lobby.png"))
    page.click("#create")
    # against bots alone the lobby opens the player's seat at once (no links to hand out)
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))

    page.wait_for_selector("svg.board")
    assert "Amun-Re" in page.inner_text("#title")
    rng = Rng(7)
    clicks = 0
    misses = Misses()
    shot_mid = False
    while not page.locator("#result-panel:not([hidden])").count():
        moves = page.locator("button.move:enabled")
        controls = page.locator("#bid-review, #offer-review")
        # counted once: the page redraws while bots move, so two reads may disagree
        move_count, control_count = moves.count(), controls.count()
        if move_count == 0 and control_count == 0:
            page.wait_for_timeout(50)
            continue
        if not shot_mid and "round 2" in page.inner_text("#title"):
            page.screenshot(path=str(shots / "game.png"), full_page=True)
            shot_mid = True
        version = page.inner_text(".version")
        # Bids and offerings are one control each with a confirm step; sales stay buttons
        # (sold only now and then, or a hand would be sold before the control is used).
        with misses:
            if control_count and (move_count == 0 or rng.below(8)):
                pick_in_control(page, rng)
                page.click("#confirm-move", timeout=ACT)
            else:
                moves.nth(rng.below(move_count)).click(timeout=ACT)
        if misses.last:
            continue
        # wait until the page shows a newer position (our move, answered by the server)
        page.wait_for_function(
            "v => !document.querySelector('.version') "
            "|| document.querySelector('.version').textContent !== v",
            arg=version,
            timeout=30_000,
        )
        clicks += 1
        assert clicks < 2000, "the game did not end"

    table = page.locator("#result")
    assert table.locator("tr.total-row").count() == 4
    text = table.inner_text()
    assert "Nefertari" in text and "Pyramids" in text and "Gold ranking" in text
    headline = page.inner_text("#winners")  # ranked as the ratings rank (result.js)
    won = re.search(r" wins? with ", headline)
    assert won or headline.startswith(("Winner", "Shared victory")), headline
    page.screenshot(path=str(shots / "final.png"), full_page=True)
    assert clicks > 20

    # the finished game's replay, from the lobby's list
    page.goto(server_url + "/")
    page.click("#finished a:text('replay')")
    page.wait_for_selector("#replay-bar:not([hidden])")
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent.includes('of')"
    )
    shows = "m => document.querySelector('.version').textContent.trim() === m"
    page.click("#replay-start")
    page.wait_for_function(shows, arg="move 0")
    page.click("#replay-next")
    page.wait_for_function(shows, arg="move 1")
    assert page.locator("#moves-panel").is_hidden()
    assert not errors, errors


def pick_in_control(page: Any, rng: Rng) -> None:
    """A random bid or offering through its control, up to the confirm step."""
    if page.locator("#bid-control").count():
        provinces = page.locator("#bid-province option").all_inner_texts()
        page.select_option("#bid-province", index=rng.below(len(provinces)), timeout=ACT)
        amounts = page.locator("#bid-amount option").count()
        page.select_option("#bid-amount", index=rng.below(min(amounts, 3)), timeout=ACT)
        page.click("#bid-review", timeout=ACT)
    else:
        if page.locator("#offer-kind-gold").is_disabled(timeout=ACT) or rng.below(4) == 0:
            page.check("#offer-kind-theft", timeout=ACT)
        else:
            gold = page.locator("#offer-gold")
            low = int(gold.get_attribute("min", timeout=ACT) or 1)
            high = int(gold.get_attribute("max", timeout=ACT) or 1)
            gold.fill(str(max(low, 1) + rng.below(max(1, min(high, 8) - max(low, 1) + 1))))
        page.click("#offer-review", timeout=ACT)
    page.wait_for_selector("#confirm-bar:not([hidden])", timeout=ACT)


def test_the_game_page_fits_a_phone(browser: Any, server_url: str, tmp_path: Path) -> None:
    import httpx2 as httpx

    created = httpx.post(
        server_url + "/api/games",
        json={"seats": [{"kind": "human"}, *[{"kind": "bot", "bot": "heuristic"}] * 3]},
    ).json()
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.board")
    page.wait_for_selector("button.move")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    assert page.locator("#moves-panel").is_visible()
    shots = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / "phone.png"))

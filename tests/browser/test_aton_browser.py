"""A person creates an Aton game against a bot in the lobby and plays it to the end by
clicking: cards onto the cartouches (one by dragging), squares on the board, in Chromium."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from karnak.bots.base import available_bots
from karnak.core import Rng
from karnak.core.registry import get_game

from .test_play_in_browser import ACT, SCREENSHOTS_ENV, Misses

#: The bot to play against: the heuristic one once Aton has it, else the random one.
OPPONENT = "heuristic" if "heuristic" in available_bots(get_game("aton")) else "random"

WAIT_NEWER = (
    "v => !document.querySelector('.version') "
    "|| document.querySelector('.version').textContent !== v"
)
#: The glowing squares and the fallback list's square moves, counted in one go: the page
#: redraws when the bot moves, and two separate reads could see two positions.
COUNT_SQUARE_MOVES = (
    "() => [document.querySelectorAll('svg.aton-board .square.movable').length, "
    "document.querySelectorAll('#moves button.move-remove, #moves button.move-place').length]"
)


def test_play_aton_in_the_browser_to_the_end(browser: Any, server_url: str, tmp_path: Path) -> None:
    shots = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(server_url + "/")
    page.wait_for_selector("#game option[value='aton']", state="attached")
    page.click("#more-options summary")  # the full form is folded (issue 33)
    page.select_option("#game", "aton")
    assert page.locator("#players option").all_inner_texts() == ["2 players"]
    rows = page.locator(".seat-row")
    assert rows.count() == 2
    rows.nth(0).locator(".name").fill("Nefertiti")
    assert rows.nth(1).locator(".kind").input_value() == "bot"
    rows.nth(1).locator(".level").select_option(OPPONENT)
    page.click("#create")
    # against bots alone the lobby opens the player's seat at once (no links to hand out)
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))

    page.wait_for_selector("svg.aton-board")
    assert "Aton" in page.inner_text("#title")
    assert page.locator("svg.aton-board .square").count() == 48
    rng = Rng(11)
    allocations = squares = 0
    misses = Misses()
    dragged = exchanged = shot = False
    while not page.locator("#result-panel:not([hidden])").count():
        version = page.inner_text(".version")
        # the laid-out cards of a priest waiting for the other stay on show, disabled
        if (
            page.locator("#allocate-confirm").count()
            and page.locator("button.hand-card:enabled").count()
        ):
            # lay the four cards: the first by dragging, the others by clicking
            for slot in range(1, 5):
                target = page.locator(f".my-cartouche[data-cartouche='{slot}']")
                cards = page.locator("button.hand-card:enabled")
                card = cards.nth(rng.below(cards.count()))
                if not dragged:
                    card.drag_to(target)
                    dragged = True
                else:
                    card.click()
                    assert page.locator("button.hand-card.selected").count() == 1
                    target.click()
                assert target.locator(".slot-card").inner_text() != "·"
            assert page.locator("button.hand-card:enabled").count() == 0
            confirm = page.locator("#allocate-confirm")
            text = confirm.get_attribute("data-move")
            assert text and text.startswith("allocate ")
            if allocations == 1 and not exchanged and page.locator("#exchange").count():
                page.click("#exchange")  # once a game: four new cards, then lay them
                assert "discard" in page.inner_text("#confirm-bar")  # asked first
                page.click("#confirm-move")
                exchanged = True
            else:
                confirm.click()
                allocations += 1
        elif page.locator("svg.aton-board .square.movable").count():
            movable = page.locator("svg.aton-board .square.movable")
            if not shot and allocations >= 4:
                page.screenshot(path=str(shots / "aton-game.png"), full_page=True)
                shot = True
            count, listed = page.evaluate(COUNT_SQUARE_MOVES)
            assert listed == count  # the fallback list offers the same moves as the squares
            with misses:
                movable.nth(rng.below(count)).click(timeout=ACT)
            if misses.last:
                continue
            squares += 1
        else:
            page.wait_for_timeout(50)
            continue
        page.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)
        assert allocations + squares < 2000, "the game did not end"

    assert page.locator("#result tr.total-row").count() == 2
    assert "Nefertiti" in page.inner_text("#result")
    verdict = page.inner_text("#winners")
    # the headline ranks as the ratings do (result.js): "<name> wins with ...", "You win
    # with ..." or a draw
    won = re.search(r" wins? with ", verdict)
    assert won or verdict.startswith(("Winner", "Draw")), verdict
    assert page.inner_text("#result-panel h2") == "Result"
    assert page.locator("#cartouche-panel").is_hidden()
    assert allocations >= 2 and squares > 0 and exchanged and dragged
    if not shot:
        page.screenshot(path=str(shots / "aton-game.png"), full_page=True)
    page.screenshot(path=str(tmp_path / "aton-final.png"), full_page=True)
    assert not errors, errors


def test_the_aton_page_fits_a_phone(browser: Any, server_url: str) -> None:
    import httpx2 as httpx

    created = httpx.post(
        server_url + "/api/games",
        json={"game": "aton", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]},
    ).json()
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.aton-board")
    page.wait_for_selector("#allocate-confirm")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    assert page.locator("#cartouche-panel").is_visible()
    assert page.locator("button.hand-card").count() == 4

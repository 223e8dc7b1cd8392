"""In Chromium: the example game, created in the lobby, is played to the end by clicking the
plain page's buttons and watched again in its replay; and the game page loads a game's own
script only after its stylesheets, falling back to the plain page when the script fails.

Chromium is ``$KARNAK_BROWSER`` or ``/usr/bin/chromium`` (see tests/browser/conftest.py).
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from browser.conftest import running
from karnak.server.app import create_app
from support.example_game import Installed

#: How long one wait for the page may take (ms).
WAIT = 15_000


@pytest.fixture(scope="module")
def server_url(example: Installed, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("db") / "browser.sqlite3"
    with running(create_app(f"sqlite:///{database}", bot_workers=0)) as url:
        yield url


def new_page(browser: Any) -> tuple[Any, list[str]]:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return page, errors


def create_game(server_url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server_url + "/api/games",
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        created: dict[str, Any] = json.loads(response.read())
    return created


def test_the_example_game_is_played_in_the_plain_page_and_replayed(
    browser: Any, server_url: str
) -> None:
    page, errors = new_page(browser)
    page.goto(server_url + "/")
    page.wait_for_selector("#game option[value='goofspiel']", state="attached")
    assert "Goofspiel" in page.inner_text("#catalogue")
    page.click("#more-options summary")  # the full form is folded (issue 33)
    page.select_option("#game", "goofspiel")
    page.select_option("#players", "2")
    rows = page.locator(".seat-row")
    rows.nth(0).locator(".name").fill("Hatshepsut")
    rows.nth(1).locator(".kind").select_option("bot")
    rows.nth(1).locator(".level").select_option("random")
    page.click("#create")
    # against bots alone the lobby opens the player's seat at once
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))

    page.wait_for_selector("body[data-drawn-by='plain']", timeout=WAIT)
    assert "Goofspiel" in page.inner_text("#title") and "sealed bids" in page.inner_text("#title")
    # the observation, readable: the prize, the players' rows, the seat's own sealed bid
    view = page.locator("#plain-view")
    assert view.locator("h2").inner_text() == "What you see"
    assert view.locator("tr[data-key='prize'] td").inner_text().isdigit()
    assert view.locator("table.plain-rows tr").count() == 3  # a header and two players
    assert "Hatshepsut" in view.locator("table.plain-rows").inner_text()
    assert view.locator("tr[data-key='you']").count() == 1
    assert page.locator("#hand-panel").is_hidden() and page.locator("#board svg").count() == 0
    assert "sealed" in page.inner_text("#moves-note")

    for played in range(5):
        buttons = page.locator("#moves button.move:enabled")
        buttons.first.wait_for(timeout=WAIT)
        assert buttons.count() == 5 - played
        assert buttons.first.get_attribute("data-move").startswith("bid ")
        version = page.inner_text(".version")
        buttons.last.click()
        page.wait_for_function(
            "v => document.querySelector('.version').textContent !== v", arg=version, timeout=WAIT
        )
    page.wait_for_selector("#result-panel:not([hidden])", timeout=WAIT)
    headline = page.inner_text("#winners")  # ranked as the ratings rank (result.js)
    won = re.search(r" wins? with ", headline)
    assert won or headline.startswith(("Winner: ", "Shared victory: ")), headline
    assert page.locator("#result tr.total-row").count() == 2
    assert page.locator("#players td.score").count() == 2
    assert "The game is over" in page.inner_text("#decision")

    # the replay: the same plain drawing of each step, no moves offered
    page.click("#watch-replay")
    page.wait_for_selector("#replay-bar:not([hidden])", timeout=WAIT)
    # a replay opens at the start (issue 33)
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent === 'move 0 of 10'"
    )
    page.click("#replay-end")
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent === 'move 10 of 10'"
    )
    assert page.locator("#plain-view h2").inner_text() == "The position"
    assert page.locator("#moves-panel").is_hidden()
    page.click("#replay-start")
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent === 'move 0 of 10'"
    )
    assert page.locator("#plain-view tr[data-key='round'] td").inner_text() == "1"
    assert page.locator("#plain-view tr[data-key='you']").count() == 0  # a spectator's view
    assert not errors, errors


def aton_seat_url(server_url: str) -> str:
    created = create_game(server_url, {"game": "aton", "seats": [{}, {}]})
    return server_url + created["seats"][0]["url"]


def test_a_games_stylesheets_are_loaded_before_its_first_drawing(
    browser: Any, server_url: str
) -> None:
    page, errors = new_page(browser)
    held: list[Any] = []  # the stylesheet's request, answered when the test says
    page.route("**/static/games/aton/*.css", lambda route: held.append(route))
    page.goto(aton_seat_url(server_url), wait_until="commit")
    page.wait_for_function("() => document.querySelector('link[data-game-stylesheet]')")
    page.wait_for_timeout(800)  # the script and the view have long arrived by now
    # the stylesheet is held back: nothing of the game is drawn yet
    assert len(held) == 1 and page.inner_text("#title") == "Loading..."
    assert page.evaluate("() => document.body.dataset.drawnBy") is None
    held[0].continue_()
    page.wait_for_selector("body[data-drawn-by='game']", timeout=WAIT)
    assert page.evaluate(
        "() => [...document.styleSheets].some((s) => (s.href || '').endsWith('/aton.css'))"
    )
    assert page.locator(".aton-board").count() == 1
    assert not errors, errors


def test_a_script_that_fails_to_load_falls_back_to_the_plain_page(
    browser: Any, server_url: str
) -> None:
    page, _ = new_page(browser)
    page.route("**/static/games/aton/aton.js", lambda route: route.fulfill(status=404))
    page.goto(aton_seat_url(server_url))
    page.wait_for_selector("body[data-drawn-by='plain']", timeout=WAIT)
    # the game's board still arrives in the view; the plain page adds the observation and
    # the moves as buttons
    assert page.locator("#board svg").count() == 1
    assert page.locator("#plain-view").count() == 1
    buttons = page.locator("#moves button.move")
    assert buttons.count() > 0 and buttons.first.get_attribute("data-move")

"""Egyptia in Chromium: a person sets up a solo game in the lobby and plays it to the end by
clicking (columns and plagues on the resource board, buildings and hexes on the sheet, a
ship, payments and rewards), then the page on a phone and at a table of 99 builders."""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

from karnak.core import Rng

from .test_play_in_browser import SCREENSHOTS_ENV

WAIT_NEWER = (
    "v => !document.querySelector('.version') "
    "|| document.querySelector('.version').textContent !== v"
)
STAGE = "document.querySelector('#moves-panel').dataset.stage || ''"


def shots_folder(tmp_path: Path) -> Path:
    shots = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def pick(page: Any, selector: str, rng: Rng) -> Any:
    found = page.locator(selector)
    count = found.count()
    assert count, f"nothing to click: {selector}"
    return found.nth(rng.below(count))


def test_play_a_solo_egyptia_game_in_the_browser(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    shots = shots_folder(tmp_path)
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(server_url + "/")
    page.wait_for_selector("#game option[value='egyptia']", state="attached")
    page.click("#more-options summary")  # the full form is folded (issue 33)
    page.select_option("#game", "egyptia")
    counts = page.locator("#players option").all_inner_texts()
    assert counts[0] == "1 player (solo)" and counts[-1] == "99 players" and len(counts) == 99
    page.select_option("#players", "1")
    assert page.locator(".seat-row").count() == 1
    page.locator(".seat-row .name").fill("Imhotep")
    # three of the Pharaoh cards chosen here, the other two drawn
    page.select_option("[data-card-letter='A']", "A2")
    page.select_option("[data-card-letter='C']", "C3")
    page.select_option("[data-card-letter='E']", "E3")
    page.click("#create")
    # a solo game: the lobby opens the player's seat at once
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))

    page.wait_for_selector("svg.egyptia-board")
    page.wait_for_selector("svg.egyptia-sheet")
    assert "Egyptia" in page.inner_text("#title")
    cards = page.locator("svg.egyptia-board .pharaoh-card")
    assert cards.count() == 5
    ids = [cards.nth(i).get_attribute("data-card") for i in range(5)]
    assert ids[0] == "A2" and ids[2] == "C3" and ids[4] == "E3"
    assert page.locator("svg.egyptia-sheet .hex").count() == 19
    assert page.locator("svg.egyptia-sheet .ship").count() == 3

    rng = Rng(17)
    clicks = 0
    seen: set[str] = set()
    shot = ships = 0
    unfolded = hailed = False
    while True:
        stage = page.evaluate(STAGE)
        if stage == "over" or page.locator("#result-panel:not([hidden])").count():
            break
        version = page.inner_text(".version")
        seen.add(stage)
        round_number = int(page.inner_text("#title").split("round ")[1].split(" ")[0])
        if stage == "choose":
            # mostly the quieter columns, now and then one that brings a plague
            columns = page.locator("svg.egyptia-board .column.legal:not(.plague-column)")
            plagued = page.locator("svg.egyptia-board .column.legal.plague-column")
            if "plague" not in seen and round_number >= 2 and plagued.count():
                columns = plagued  # at least one plague in the game
            elif rng.below(3) == 0 or not columns.count():
                columns = page.locator("svg.egyptia-board .column.legal")
            columns.nth(rng.below(columns.count())).click()
        elif stage == "plague":
            hail = page.locator("svg.egyptia-board .plague.legal[data-plague='hail-fire']")
            if not hailed and hail.count():
                hail.click()  # Hail-fire asks which ship is lost
                hailed = True
                assert page.locator("button.move-hailfire").count() >= 1
            else:
                pick(page, "svg.egyptia-board .plague.legal", rng).click()
            if page.locator("button.move-hailfire").count():
                pick(page, "button.move-hailfire", rng).click()
        elif stage in ("plague_pay", "build_pay"):
            if not unfolded and page.locator("#moves details.more-payments").count():
                page.click("#moves details.more-payments summary")  # the dearer ways
                unfolded = True
            pick(page, "#moves button.move-pay:visible", rng).click()
        elif stage == "gain":
            pick(page, "#moves button.move-gain", rng).click()
        elif stage == "build":
            if ships < 2 and round_number in (4, 9) and page.locator(".ship.legal").count():
                # a ship, once: clicked on the sheet, then confirmed
                pick(page, "svg.egyptia-sheet .ship.legal", rng).click()
                page.click("#ship-confirm")
                ships += 1
                page.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)
                continue
            buildings = page.locator("#moves button.pick-building")
            real = page.locator("#moves button.pick-building:not([data-building='mound'])")
            choice = real if real.count() and rng.below(4) else buildings
            # the picture for the README: mid-game, a building picked, its hexes glowing
            picture = not shot and round_number >= 6 and real.count() > 0
            if picture:
                choice = real
            if rng.below(5) == 0 and not picture:
                # the hex first, then the building (when more than one fits there)
                pick(page, "svg.egyptia-sheet .hex.legal", rng).click()
                if page.locator("#moves button.pick-building.move").count():
                    pick(page, "#moves button.pick-building.move", rng).click()
            else:
                choice.nth(rng.below(choice.count())).click()
                assert page.locator("#moves button.pick-building.selected").count() == 1
                hexes = page.locator("svg.egyptia-sheet .hex.legal")
                assert hexes.count() > 0
                if picture:
                    page.screenshot(path=str(shots / "egyptia-game.png"), full_page=True)
                    shot = 1
                hexes.nth(rng.below(hexes.count())).click()
        else:
            page.wait_for_timeout(50)
            continue
        page.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)
        clicks += 1
        assert clicks < 400, "the game did not end"

    page.wait_for_selector("#result-panel:not([hidden])")
    status = page.inner_text("#winners")
    assert status.startswith("Builder status: "), status
    rank = status.split(": ")[1].split(" ")[0]
    assert rank in ("APPRENTICE", "STANDARD", "SKILLED", "MASTER", "LEGENDARY")
    reached = page.locator(".solo-status .rank-scale li.reached")
    assert reached.count() == 1 and reached.get_attribute("data-rank").upper() == rank
    table = page.locator("#result")
    assert table.locator("tr.total-row").count() == 1
    heads = table.locator("th").all_inner_texts()
    assert heads[:2] == ["Rank", "Builder"] and heads[-1] == "Total" and "Pestilence" in heads
    assert "Imhotep" in table.inner_text()
    assert "Final score" in page.inner_html("#sheet")
    assert {"choose", "build", "plague"} <= seen and ships >= 1 and clicks >= 18
    lost = page.locator("svg.egyptia-sheet .ship[data-state='lost']").count()
    assert lost == (1 if hailed else 0)
    if not shot:
        page.screenshot(path=str(shots / "egyptia-game.png"), full_page=True)
    page.screenshot(path=str(tmp_path / "egyptia-final.png"), full_page=True)
    assert not errors, errors


def test_the_egyptia_page_fits_a_phone(browser: Any, server_url: str) -> None:
    import httpx2 as httpx

    created = httpx.post(
        server_url + "/api/games",
        json={"game": "egyptia", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]},
    ).json()
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.egyptia-sheet")
    page.wait_for_selector("svg.egyptia-board .column.legal")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    assert page.locator("#moves-panel").is_visible()
    assert page.locator("#moves button.move-choose").count() == 4


def test_a_table_of_99_builders_in_the_browser(browser: Any, server_url: str) -> None:
    """One person and 98 bots: a crowd table, so the page lists the others in short (their
    sheets fetched when opened) and stays quick."""
    import httpx2 as httpx

    seats = [{"kind": "human", "name": "Khufu"}, *[{"kind": "bot", "bot": "random"}] * 98]
    created = httpx.post(
        server_url + "/api/games", json={"game": "egyptia", "seats": seats, "seed": 4}
    ).json()
    url = server_url + created["seats"][0]["url"]
    api = server_url + f"/api/games/{created['id']}"
    deadline = time.monotonic() + 120
    while httpx.get(api).json()["to_move"] != [0]:  # every bot has chosen its column
        assert time.monotonic() < deadline, "the bots did not choose"
        time.sleep(0.2)
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    started = time.perf_counter()
    page.goto(url)
    page.wait_for_function("() => document.querySelectorAll('.builder-row').length === 99")
    loaded = time.perf_counter() - started
    size = len(httpx.get(api, params={"token": created["seats"][0]["token"]}).content)
    # one render of the whole page (board, sheet, controls, 99 rows), as on every message
    render_ms = page.evaluate(
        "() => { const s = document.querySelector('#builder-sort'); const t = performance.now();"
        " s.value = 'score'; s.dispatchEvent(new Event('change'));"
        " return performance.now() - t; }"
    )
    print(
        f"99 builders: page ready in {loaded:.2f} s, view {size} bytes, render {render_ms:.0f} ms"
    )
    assert page.locator(".crowd-list").count() == 1 and page.locator(".builder-card").count() == 0
    assert page.locator(".builder-row[data-stage='chosen']").count() == 98
    assert "98 of 99 builders have chosen" in page.inner_text("#decision")
    assert render_ms < 1000 and loaded < 20
    assert size < 150_000  # the others in short: a full view carried 99 sheets (187 KB)
    page.fill("#builder-filter", "Khufu")
    assert page.locator(".builder-row").count() == 1
    page.fill("#builder-filter", "")
    # another builder's sheet, fetched when opened
    page.locator(".builder-row button.open-sheet").first.click()
    page.locator("#crowd-sheet svg.egyptia-sheet").wait_for()
    # the person's choice reveals every column
    version = page.inner_text(".version")
    page.locator("svg.egyptia-board .column.legal").first.click()
    page.click("#confirm-move")  # sealed at a table: a confirm step
    page.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)
    page.wait_for_function("() => !document.querySelector(\".builder-row[data-stage='chosen']\")")
    assert page.evaluate(STAGE) in ("plague", "build")
    assert not errors, errors

"""Egyptia's page in Chromium: the why of each decision with the figures of a known seeded
position (the same as the engine's guide, step by step), a round played with the keyboard
alone, tooltips on the sheet's hexes and the Pharaoh cards, every builder's full sheet in
a finished game's replay, and the controls in reach on a phone at a table of 99."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

from karnak.core import Rng
from karnak.games.egyptia import GAME
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.web.guide import guide

from .test_egyptia_browser import STAGE, WAIT_NEWER, shots_folder

CARDS = "A2,B2,C3,D2,E3"
#: Seed 5, round 1: grain 1 die (Field), diamond none, stone 3 (Pyramid, Quarry, d20: a
#: plague), favor 2 (Mine, Obelisk).
SEED = 5


def solo(server_url: str, name: str = "Imhotep") -> tuple[dict[str, Any], EgyptiaState]:
    """A solo game on the server and the same game in the engine, to follow it move by move."""
    created = httpx.post(
        server_url + "/api/games",
        json={
            "game": "egyptia",
            "seats": [{"kind": "human", "name": name}],
            "seed": SEED,
            "options": {"cards": CARDS},
        },
    ).json()
    return created, GAME.new_state([name], seed=SEED, options={"cards": CARDS})


def open_page(browser: Any, url: str, **context: Any) -> tuple[Any, list[str]]:
    page = browser.new_page(**({"viewport": {"width": 1400, "height": 1100}} | context))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("svg.egyptia-sheet")
    return page, errors


def shown_guide(page: Any) -> list[tuple[str, list[str]]]:
    items = page.locator("#guide-panel .guide-item")
    return [
        (items.nth(i).locator("h3").inner_text(), items.nth(i).locator("li").all_inner_texts())
        for i in range(items.count())
    ]


def engine_guide(state: EgyptiaState) -> list[tuple[str, list[str]]]:
    found = guide(state.game, state.observation(0), 0, state.legal_actions(0))
    return [(item["title"], item["lines"]) for item in found["explain"]]


def wait_newer(page: Any, version: str) -> None:
    page.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)


def tab_to(page: Any, selector: str, limit: int = 250) -> dict[str, Any]:
    """Press Tab until the focus is on ``selector``; what the focused control is then."""
    probe = (
        "s => { const a = document.activeElement; if (!a || !a.matches(s)) return null;"
        " const style = getComputedStyle(a);"
        " return { name: a.getAttribute('aria-label') || a.textContent.trim(),"
        "   outline: style.outlineStyle, width: style.outlineWidth,"
        "   move: a.dataset.move || null }; }"
    )
    for _ in range(limit):
        found = page.evaluate(probe, selector)
        if found:
            return dict(found)
        page.keyboard.press("Tab")
    raise AssertionError(f"the keyboard never reached {selector}")


# ---------------------------------------------------------------------- the why
def test_each_decision_shows_its_why_with_the_figures_of_a_seeded_position(
    browser: Any, server_url: str
) -> None:
    created, state = solo(server_url)
    page, errors = open_page(browser, server_url + created["seats"][0]["url"])
    page.wait_for_selector("#guide-panel:not([hidden]) .guide-item")
    assert shown_guide(page) == engine_guide(state)
    columns = dict(shown_guide(page))["What each column gives you"]
    assert columns[2] == (
        "Stone: 3 dice (Pyramid, Quarry, d20: any building for 1 favor more) → +3 stone, "
        "1 → 4 on hand; a plague first; you could then pay for Pyramid, Quarry, Mine, "
        "Obelisk and Field."
    )
    assert page.inner_text("#rules-panel li.current").startswith("Choose a column")
    assert page.locator("#rules-panel li.phase").count() == 10
    assert "Choose a column" in page.inner_text("#decision")

    def step(text: str, selector: str) -> None:
        version = page.inner_text(".version")
        page.click(selector)
        wait_newer(page, version)
        state.apply(0, GAME.parse_action(text))
        page.wait_for_function(
            "s => (document.querySelector('#moves-panel').dataset.stage || '') === s",
            arg=state.stage[0],
        )
        assert shown_guide(page) == engine_guide(state), text

    step("choose stone", "svg.egyptia-board .column.legal[data-column='stone']")
    plagues = dict(shown_guide(page))["What each plague costs you now"]
    assert plagues[0] == (
        "Locusts: lose 2 grain, e.g. 1 grain, 1 diamond, 1 stone, leaving 0 grain, 0 diamond, "
        "3 stone, 1 favor; score if the game ended now 7 → 7."
    )
    assert plagues[4] == (
        "Pestilence: nothing now, 2 points off at the end; score if the game ended now 7 → 5."
    )
    assert page.inner_text("#rules-panel li.current").startswith("Plague")
    assert "Choose a plague" in page.inner_text("#decision")

    step("plague locusts", "svg.egyptia-board .plague.legal[data-plague='locusts']")
    paying = dict(shown_guide(page))["Losing 2 grain to Locusts"]
    assert paying[1] == (
        "Pay 1 grain, 1 favor: leaves 0 grain, 1 diamond, 4 stone, 0 favor; score if the game "
        "ended now 7 → 6."
    )
    assert paying[2] == (
        "Pay 1 grain, 1 diamond, 1 stone: leaves 0 grain, 0 diamond, 3 stone, 1 favor; score "
        "if the game ended now 7 → 7."
    )
    # the payment buttons say what each leaves, and the score when it changes
    first = page.locator("#moves button.move-pay").first.inner_text()
    assert (
        "Pay 1 grain, 1 favor" in first and "leaves 0 grain, 1 diamond, 4 stone, 0 favor" in first
    )
    assert "score 7 → 6" in first
    assert page.inner_text("#rules-panel li.current").startswith("Pay")

    step("pay 1g+1d+1s", "#moves button.move-pay[data-move='pay 1g+1d+1s']")
    building = dict(shown_guide(page))["What you may build"]
    assert building[0].startswith("Pyramid: 1 grain, 1 diamond, 2 stone (+1 favor on a Sacred")
    assert building[0].endswith("you cannot pay for it now.")  # so it is not offered
    assert not page.locator("#moves button.pick-building[data-building='pyramid']").count()
    # a building picked: its hexes as buttons, the best for the cards first
    page.click("#moves button.pick-building[data-building='mound']")
    hexes = page.locator("#moves button.hex-choice")
    assert hexes.count() == 18
    label = hexes.first.get_attribute("aria-label")
    assert label.startswith("Burial Mound on ") and label.endswith("your cards 0")
    step("build mound B1", "#moves button.hex-choice[data-hex='B1']")
    gains = dict(shown_guide(page))["What the Burial Mound gives"]
    assert gains[0] == "2 grain: grain 0 → 2; score if the game ended now 7 → 7."
    step("gain 1f", "#moves button.move-gain[data-move='gain 1f']")
    assert state.round == 2 and "round 2" in page.inner_text("#title")
    assert not errors, errors


# ---------------------------------------------------------------------- the keyboard
def test_a_round_with_the_keyboard_alone(browser: Any, server_url: str) -> None:
    """Column (on the board), plague, payment, a ship (confirmed), a building and its hex,
    the Burial Mound's reward: every step with Tab and Enter, each control with a name and a
    visible focus."""
    created, _ = solo(server_url)
    page, errors = open_page(browser, server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.egyptia-board .column.legal")
    page.mouse.move(0, 0)

    def enter_on(selector: str, waits: bool = True) -> dict[str, Any]:
        found = tab_to(page, selector)
        assert found["name"], f"{selector} has no accessible name"
        assert found["outline"] != "none" and found["width"] != "0px", found
        version = page.inner_text(".version")
        page.keyboard.press("Enter")
        if waits:
            wait_newer(page, version)
        return found

    column = enter_on("svg.egyptia-board .column.legal[data-column='stone']")
    assert column["name"].startswith("Take the stone column: 3 dice: +3 stone · plague!")
    assert page.evaluate(f"() => {STAGE}") == "plague"
    # after the move the keyboard is on the step's first control, not lost at the top
    assert page.evaluate("() => document.activeElement.closest('#moves') !== null")
    enter_on("#moves button.move-plague[data-move='plague locusts']")
    assert page.evaluate(f"() => {STAGE}") == "plague_pay"
    enter_on("#moves button.move-pay[data-move='pay 1g+1d+1s']")
    assert page.evaluate(f"() => {STAGE}") == "build"
    # a ship: picked, then confirmed (the focus goes to the confirmation)
    enter_on("#moves button.use-ship[data-ship='3']", waits=False)
    assert page.evaluate("() => document.activeElement.id") == "ship-confirm"
    version = page.inner_text(".version")
    page.keyboard.press("Enter")
    wait_newer(page, version)
    assert page.locator("svg.egyptia-sheet .ship[data-ship='3'][data-state='used']").count()
    # a building, then its hex: the focus goes to the hexes it may go on
    enter_on("#moves button.pick-building[data-building='quarry']", waits=False)
    focused = page.evaluate("() => document.activeElement.className")
    assert "hex-choice" in focused
    assert page.locator("#moves button.pick-building[aria-pressed='true']").count() == 1
    enter_on("#moves button.hex-choice[data-hex='B1']")
    if page.evaluate(f"() => {STAGE}") == "build_pay":
        enter_on("#moves button.move-pay")
    page.wait_for_function("() => document.querySelector('#title').textContent.includes('round 2')")
    built = page.locator("svg.egyptia-sheet .hex[data-hex='B1']").get_attribute("data-built")
    assert built == "quarry"
    assert not errors, errors


# ---------------------------------------------------------------------- tooltips
def test_tooltips_on_the_hexes_and_the_cards(browser: Any, server_url: str) -> None:
    created, _ = solo(server_url)
    page, errors = open_page(browser, server_url + created["seats"][0]["url"])
    tip = page.locator("#tip")
    hexes = page.locator("svg.egyptia-sheet .hex[data-tip]")
    assert hexes.count() == 19
    page.hover("svg.egyptia-sheet .hex[data-hex='E1']")
    page.wait_for_selector("#tip:not([hidden])")
    text = tip.inner_text()
    assert text.startswith("E1, a Sacred Site")
    assert "Built here now, your Pharaoh cards would change by: Pyramid +5" in text
    page.hover("svg.egyptia-board .pharaoh-card[data-card='A2']")
    page.wait_for_function(
        "() => document.querySelector('#tip').textContent.startsWith('Pharaoh card A2')"
    )
    assert tip.inner_text().endswith("Your city now: 0 points.")
    page.hover("svg.egyptia-sheet .track[data-resource='favor']")
    page.wait_for_function("() => document.querySelector('#tip').textContent.startsWith('Favor:')")
    assert "The last 2 dots are red" in tip.inner_text()
    page.hover("svg.egyptia-board .column[data-column='stone']")
    page.wait_for_function(
        "() => document.querySelector('#tip').textContent.startsWith('Stone column')"
    )
    assert "With 3 dice or more, they suffer a plague first." in tip.inner_text()
    # a keyboard focus shows the tip too
    tab_to(page, "svg.egyptia-board .column.legal[data-column='grain']")
    page.wait_for_function(
        "() => document.querySelector('#tip').textContent.startsWith('Grain column')"
    )
    assert not errors, errors


# ---------------------------------------------------------------------- the replay
def play_to_the_end(server_url: str, game_id: str, token: str, seed: int) -> None:
    api = f"{server_url}/api/games/{game_id}"
    rng = Rng(seed)
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the game did not end"
        mine = httpx.get(api, params={"token": token}).json()
        if mine["status"] == "finished":
            return
        legal = [m for m in mine["legal"] if m["action"]["type"] != "ship"]
        if not mine["your_turn"] or not legal:
            time.sleep(0.05)
            continue
        choice = legal[rng.below(len(legal))]["text"]
        httpx.post(
            f"{api}/actions",
            params={"token": token},
            json={"version": mine["version"], "action": choice},
        )


def test_the_replay_shows_every_full_sheet(browser: Any, server_url: str, tmp_path: Path) -> None:
    shots = shots_folder(tmp_path)
    seats = [
        {"kind": "human", "name": "Hatshepsut"},
        {"kind": "bot", "bot": "random", "name": "Senenmut"},
        {"kind": "bot", "bot": "random", "name": "Thutmose"},
    ]
    created = httpx.post(
        server_url + "/api/games",
        json={"game": "egyptia", "seats": seats, "seed": 8, "options": {"cards": CARDS}},
    ).json()
    game_id = created["id"]
    play_to_the_end(server_url, game_id, created["seats"][0]["token"], seed=3)
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/games/{game_id}?replay=1")
    # a replay opens at the start (issue 33): to the end first
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent.startsWith('move 0 ')"
    )
    page.click("#replay-end")
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent.split(' ')[1] === "
        "document.querySelector('#replay-label').textContent.split(' ')[3]"
    )
    page.wait_for_function("() => document.querySelectorAll('.replay-sheet svg').length === 3")
    captions = page.locator(".replay-sheet figcaption").all_inner_texts()
    assert [c.split(":")[0] for c in captions] == ["Hatshepsut", "Senenmut", "Thutmose"]
    assert all(
        "Final score" in page.inner_html(f".replay-sheet[data-seat='{s}']") for s in range(3)
    )
    final = httpx.get(f"{server_url}/api/games/{game_id}").json()["observation"]["final"]
    for line in final:
        sheet = page.locator(f".replay-sheet[data-seat='{line['seat']}'] svg")
        assert sheet.locator(".total").text_content() == str(line["total"])
    page.screenshot(path=str(shots / "egyptia-replay.png"), full_page=True)
    # a step within a round: each sheet as it truly stood, what was private included
    steps = httpx.get(f"{server_url}/api/games/{game_id}/replay").json()["steps"]
    middle = httpx.get(f"{server_url}/api/games/{game_id}/replay/{steps // 2}").json()
    page.locator("#replay-step").fill(str(steps // 2))
    page.wait_for_function(
        "l => document.querySelector('#replay-label').textContent.startsWith(l)",
        arg=f"move {steps // 2} ",
    )
    for builder in middle["page"]["replay"]["builders"]:
        svg = page.locator(f".replay-sheet[data-seat='{builder['seat']}'] svg")
        built = svg.locator(".hex:not([data-built='empty']):not([data-built='oasis'])")
        assert built.count() == builder["sheet"]["buildings"]
    # the builders' cards show the same true sheets
    cards = page.locator(".builder-card")
    assert cards.count() == 3
    assert not errors, errors


# ---------------------------------------------------------------------- a phone
def in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            "s => { const n = document.querySelector(s); if (!n) return false;"
            " const r = n.getBoundingClientRect();"
            " return r.width > 0 && r.top >= 0 && r.bottom <= window.innerHeight"
            "   && r.left >= 0 && r.right <= window.innerWidth; }",
            selector,
        )
    )


def test_a_phone_at_a_table_of_99_keeps_the_controls_in_reach(
    browser: Any, server_url: str
) -> None:
    seats = [{"kind": "human", "name": "Khufu"}, *[{"kind": "bot", "bot": "random"}] * 98]
    created = httpx.post(
        server_url + "/api/games",
        json={"game": "egyptia", "seats": seats, "seed": 4, "options": {"cards": CARDS}},
    ).json()
    api = server_url + f"/api/games/{created['id']}"
    deadline = time.monotonic() + 120
    while httpx.get(api).json()["to_move"] != [0]:  # every bot has chosen its column
        assert time.monotonic() < deadline, "the bots did not choose"
        time.sleep(0.2)
    page, errors = open_page(
        browser,
        server_url + created["seats"][0]["url"],
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
    )
    page.wait_for_function("() => document.querySelectorAll('.builder-row').length === 99")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    # without scrolling, every column is a button in reach
    for resource in ("grain", "diamond", "stone", "favor"):
        assert in_view(page, f"#moves button.move-choose[data-move='choose {resource}']")

    def tap(selector: str, confirm: bool = False) -> str:
        """Tap a move in reach (and its Confirm, for a sealed one) and wait for the seat's
        next step (at a table of 99 the others' progress changes the page too, so the
        version alone says nothing)."""
        assert in_view(page, selector), selector
        before = page.evaluate(f"() => {STAGE}")
        page.tap(selector)
        if confirm:
            assert in_view(page, "#confirm-move"), "the confirm step is out of reach"
            page.tap("#confirm-move")
        page.wait_for_function(f"s => ({STAGE}) !== s", arg=before, timeout=30_000)
        stage: str = page.evaluate(f"() => {STAGE}")
        return stage

    stage = tap("#moves button.move-choose[data-move='choose grain']", confirm=True)
    if stage == "plague":
        stage = tap("#moves button.move-plague")
    if stage == "plague_pay":
        stage = tap("#moves button.move-pay")
    assert stage == "build"
    assert in_view(page, "#moves button.pick-building")
    page.tap("#moves button.pick-building[data-building='mound']")
    # the hexes for the picked building are in the bar: the first in reach after a scroll
    # of the bar alone, the page itself stays put
    hexes = page.locator("#moves button.hex-choice")
    assert hexes.count() > 0
    hexes.first.scroll_into_view_if_needed()
    assert (
        page.evaluate("() => getComputedStyle(document.querySelector('#moves-panel')).position")
        == "fixed"
    )
    assert tap("#moves button.hex-choice") == "gain"
    assert in_view(page, "#moves button.move-gain")
    assert not errors, errors


def test_the_sealed_column_choice_asks_to_confirm_at_a_table(browser: Any, server_url: str) -> None:
    """At a table of several builders the column choice is sealed and final: clicking a
    column offers it for confirmation, Change withdraws it, Confirm plays exactly it."""
    seats = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bes"}]
    created = httpx.post(
        server_url + "/api/games",
        json={"game": "egyptia", "seats": seats, "seed": 8, "options": {"cards": CARDS}},
    ).json()
    api = f"{server_url}/api/games/{created['id']}"
    token = created["seats"][0]["token"]
    page, errors = open_page(browser, server_url + created["seats"][0]["url"])
    page.locator("#moves button.move-choose[data-move='choose stone']").click()
    assert page.inner_text("#confirm-bar").startswith("Take the stone column:")
    page.click("#confirm-change")
    assert page.locator("#confirm-bar").is_hidden()
    assert httpx.get(api, params={"token": token}).json()["observation"]["you"]["stage"] == "choose"
    page.locator("svg.egyptia-board .column[data-column='diamond']").click()
    page.click("#confirm-move")
    page.wait_for_function(f"() => ({STAGE}) === 'chosen'")
    mine = httpx.get(api, params={"token": token}).json()
    assert mine["observation"]["players"][0]["column"] == "diamond"
    assert not errors, errors

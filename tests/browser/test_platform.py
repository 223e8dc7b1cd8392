"""The page around the games, in Chromium: calling the player back when the turn comes,
the turn timer's warnings, tooltips, keyboard play, the phone layout, replays and the lobby.
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

from .test_play_in_browser import SCREENSHOTS_ENV

WAIT_NEWER = (
    "v => !document.querySelector('.version') "
    "|| document.querySelector('.version').textContent !== v"
)

#: A tab in the background (document.hidden), and notifications allowed and recorded: the
#: page cannot tell these from the real thing.
BACKGROUND_TAB = """(() => {
  const hidden = (value) => ({ get: () => value, configurable: true });
  Object.defineProperty(Document.prototype, "hidden", hidden(true));
  Object.defineProperty(Document.prototype, "visibilityState", hidden("hidden"));
  window.__notes = [];
  window.Notification = class {
    constructor(title, options) { window.__notes.push({ title, options }); }
    close() {}
    static get permission() { return "granted"; }
    static requestPermission() { return Promise.resolve("granted"); }
  };
})();"""


def create(server_url: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    response = httpx.post(server_url + "/api/games", json={"game": game, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    return response.json()


def seat_view(server_url: str, game_id: str, token: str | None = None) -> Any:
    params = {"token": token} if token else {}
    return httpx.get(f"{server_url}/api/games/{game_id}", params=params).json()


def shots_folder(tmp_path: Path) -> Path:
    shots = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def watch_errors(page: Any) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return errors


def finished_game(server_url: str) -> str:
    created = create(server_url, "aton", [{"kind": "bot", "bot": "heuristic"}] * 2, seed=4)
    deadline = time.monotonic() + 60
    while seat_view(server_url, created["id"])["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.2)
    return str(created["id"])


# ---------------------------------------------------------------------- calling back
def test_the_turn_calls_a_player_back_while_the_tab_is_in_the_background(
    browser: Any, server_url: str
) -> None:
    created = create(server_url, "amunre", [{"kind": "human"}] * 3)
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    first = seat_view(server_url, game_id, tokens[0])["to_move"][0]
    me = (first + 1) % 3  # someone else bids before this seat
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(BACKGROUND_TAB)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server_url + created["seats"][me]["url"])
    page.wait_for_selector("svg.board")
    assert not page.title().startswith("Your turn")
    assert page.get_attribute("#favicon", "href") == "/static/favicon.svg"

    # the other seats move through the API until it is this seat's turn
    for _ in range(50):
        mine = seat_view(server_url, game_id, tokens[me])
        if mine["your_turn"]:
            break
        mover = mine["to_move"][0]
        theirs = seat_view(server_url, game_id, tokens[mover])
        answer = httpx.post(
            f"{server_url}/api/games/{game_id}/actions",
            params={"token": tokens[mover]},
            json={"version": theirs["version"], "action": theirs["legal"][0]["text"]},
        )
        assert answer.status_code == 200, answer.text
    assert mine["your_turn"]

    page.wait_for_function("() => document.title === 'Your turn · Amun-Re · Karnak'")
    href = page.get_attribute("#favicon", "href")
    assert href.startswith("data:image/png;base64,") and len(href) > 200  # the badged icon
    notes = page.evaluate("() => window.__notes")
    task = (mine["page"].get("guide") or {}).get("task")
    expected = "Your turn in Amun-Re" + (f": {task[0].lower()}{task[1:]}" if task else "")
    assert [note["title"] for note in notes] == [expected]
    assert not errors, errors


def test_the_turn_timer_warns_before_it_runs_out(browser: Any, server_url: str) -> None:
    created = create(
        server_url,
        "aton",
        [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        turn_timer=8,
    )
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    context.add_init_script(BACKGROUND_TAB)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.aton-board")
    assert page.is_visible("#clock")
    assert page.inner_text("#clock").startswith("Your time: 0:0")
    assert page.get_attribute("#clock", "data-stage") == "0"
    # 8 s: a first warning with 4 s left, an urgent one with 1.6 s left
    page.wait_for_function("() => document.querySelector('#clock').dataset.stage === '1'")
    assert "warn" in page.get_attribute("#clock", "class")
    assert "seconds left for your move" in page.inner_text("#announce")
    # in the background the title flashes the time left
    page.wait_for_function("() => /^\\d+ s left! · Aton$/.test(document.title)")
    page.wait_for_function("() => document.querySelector('#clock').dataset.stage === '2'")
    assert "urgent" in page.get_attribute("#clock", "class")
    assert not errors, errors


def test_sound_is_off_until_turned_on_and_stays_as_set(browser: Any, server_url: str) -> None:
    created = create(server_url, "aton", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    page = browser.new_page()
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.aton-board")
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false" and toggle.inner_text() == "Sound off"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true" and toggle.inner_text() == "Sound on"
    page.reload()
    page.wait_for_selector("svg.aton-board")
    assert page.get_attribute("#sound-toggle", "aria-pressed") == "true"
    # a spectator has no turn: nothing to switch on
    page.goto(server_url + created["spectator_url"])
    page.wait_for_selector("svg.aton-board")
    assert page.locator("#sound-toggle").is_hidden()
    assert page.locator("#notify-toggle").is_hidden()


# ---------------------------------------------------------------------- banner and tooltips
def test_a_sealed_step_says_what_to_do_not_who_is_still_to_commit(
    browser: Any, server_url: str
) -> None:
    created = create(
        server_url,
        "aton",
        [{"kind": "human", "name": "Nefertiti"}] * 1 + [{"kind": "human", "name": "Hatshepsut"}],
    )
    page = browser.new_page()
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.aton-board")
    banner = page.inner_text("#decision")
    assert "Hatshepsut" not in banner and "commit" not in banner.lower()
    view = seat_view(server_url, created["id"], created["seats"][0]["token"])
    task = (view["page"].get("guide") or {}).get("task")
    if task:
        assert banner.startswith(task)
    # once this seat has laid out, it waits, and the banner says so
    answer = httpx.post(
        f"{server_url}/api/games/{created['id']}/actions",
        params={"token": created["seats"][0]["token"]},
        json={
            "version": view["version"],
            "action": next(m["text"] for m in view["legal"] if m["text"].startswith("allocate")),
        },
    )
    assert answer.status_code == 200, answer.text
    page.wait_for_function(
        "() => document.querySelector('#decision').textContent.includes('waiting for the others')"
    )
    assert "Hatshepsut" not in page.inner_text("#decision")
    spectator = browser.new_page()
    spectator.goto(server_url + created["spectator_url"])
    spectator.wait_for_selector("svg.aton-board")
    assert spectator.inner_text("#decision") == "A sealed step: the players choose in secret."


def test_tooltips_show_on_hover_focus_and_long_press(browser: Any, server_url: str) -> None:
    created = create(server_url, "aton", [{"kind": "human"}, {"kind": "bot", "bot": "random"}])
    context = browser.new_context(viewport={"width": 1200, "height": 900}, has_touch=True)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("svg.aton-board")
    tip = page.locator("#tip")
    assert tip.get_attribute("role") == "tooltip" and tip.is_hidden()

    # hover: the seat's chip says which seat and colour it is
    page.hover("#status .chip")
    assert tip.is_visible() and tip.inner_text() == "Seat 1 (red)"
    box = tip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 1200 and box["y"] >= 0
    page.mouse.move(5, 880)
    assert tip.is_hidden()

    # an element of a board's SVG
    page.evaluate(
        """() => {
          const svg = document.querySelector("#board svg");
          const mark = document.createElementNS("http://www.w3.org/2000/svg", "rect");
          const attrs = { id: "probe", x: 10, y: 10, width: 40, height: 40, "data-tip": "a sq" };
          Object.entries(attrs).forEach(([k, v]) => mark.setAttribute(k, v));
          svg.append(mark);
        }"""
    )
    page.hover("#probe")
    assert tip.is_visible() and tip.inner_text() == "a sq"

    # keyboard focus: described by the tip; Escape hides it
    page.focus("#sound-toggle")
    assert tip.is_visible() and "tone" in tip.inner_text()
    assert page.get_attribute("#sound-toggle", "aria-describedby") == "tip"
    page.keyboard.press("Escape")
    assert tip.is_hidden()
    assert page.get_attribute("#sound-toggle", "aria-describedby") is None

    # a long press on a touch screen shows the tip and does not press the button
    pressed = page.evaluate(
        """async () => {
          const button = document.querySelector("#sound-toggle");
          const r = button.getBoundingClientRect();
          const at = { bubbles: true, pointerType: "touch", clientX: r.x + 5, clientY: r.y + 5 };
          button.dispatchEvent(new PointerEvent("pointerdown", at));
          await new Promise((done) => setTimeout(done, 650));
          const shown = !document.querySelector("#tip").hidden;
          button.dispatchEvent(new PointerEvent("pointerup", at));
          button.click();
          return { shown, pressed: button.getAttribute("aria-pressed") };
        }"""
    )
    assert pressed == {"shown": True, "pressed": "false"}
    # a tap elsewhere hides it
    page.evaluate(
        """() => document.querySelector("#log").dispatchEvent(
          new PointerEvent("pointerdown", { bubbles: true, pointerType: "touch" }))"""
    )
    assert tip.is_hidden()
    assert not errors, errors


# ---------------------------------------------------------------------- keyboard
def test_a_bid_is_made_with_the_keyboard_alone(browser: Any, server_url: str) -> None:
    created = create(
        server_url, "amunre", [{"kind": "human"}, *[{"kind": "bot", "bot": "heuristic"}] * 2]
    )
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = watch_errors(page)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("#moves button.move:enabled")
    version = page.inner_text(".version")

    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "skip-link"
    assert page.inner_text("#skip-link") == "Skip to your moves"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "moves-panel"
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.matches('#moves button.move')"):
            break
    else:
        raise AssertionError("Tab never reached a move")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none"  # the focus is visible
    page.keyboard.press("Enter")
    if page.is_visible("#confirm-bar"):  # a move that asks to be confirmed
        assert page.evaluate("() => document.activeElement.id") == "confirm-move"
        page.keyboard.press("Enter")
    page.wait_for_function(WAIT_NEWER, arg=version)
    # the moves were drawn anew: the focus stays with them, not at the top of the page
    assert page.evaluate("() => Boolean(document.activeElement.closest('#moves-panel'))")
    assert not errors, errors


# ---------------------------------------------------------------------- phone
def test_on_a_phone_the_moves_stay_in_reach_and_the_board_readable(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    created = create(
        server_url, "amunre", [{"kind": "human"}, *[{"kind": "bot", "bot": "heuristic"}] * 3]
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(server_url + created["seats"][0]["url"])
    page.wait_for_selector("#moves button.move:enabled")
    page.wait_for_timeout(200)

    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    bar = page.locator("#moves-panel").bounding_box()
    assert bar["y"] + bar["height"] <= 844 + 1 and bar["y"] >= 844 / 2
    assert bar["x"] >= 0 and bar["x"] + bar["width"] <= 390 + 1
    move = page.locator("#moves button.move").first.bounding_box()
    assert bar["y"] <= move["y"] and move["y"] + move["height"] <= 844
    assert page.evaluate(
        "() => { const p = document.querySelector('#moves-panel');"
        " return p.scrollWidth <= p.clientWidth + 1; }"
    ), "the moves are wider than the bar"

    # the board's text reads at 11 px or more (the board scrolls sideways instead)
    smallest = page.evaluate(
        """() => {
          const svg = document.querySelector("#board svg");
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          const sizes = [...svg.querySelectorAll("text")]
            .map((t) => parseFloat(getComputedStyle(t).fontSize) * scale).sort((a, b) => a - b);
          return sizes[Math.floor(sizes.length * 0.1)];
        }"""
    )
    assert smallest >= 10.9, smallest

    # at the bottom of the page, the bar covers nothing: the page keeps room for it
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    last = page.locator("#log").bounding_box()
    bar = page.locator("#moves-panel").bounding_box()
    assert last["y"] + last["height"] <= bar["y"] + 1
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(shots_folder(tmp_path) / "phone.png"))

    # the bar folds away, and the board can be fitted to the screen
    page.click("#moves-toggle")
    assert page.locator("#moves-body").is_hidden()
    page.click("#moves-toggle")
    assert page.locator("#moves-body").is_visible()
    page.click("#board-fit")
    width = page.evaluate("() => document.querySelector('#board svg').clientWidth")
    assert width <= 390
    assert not errors, errors


# ---------------------------------------------------------------------- replays
def test_a_finished_game_links_to_its_replay_whose_buttons_work(
    browser: Any, server_url: str
) -> None:
    game_id = finished_game(server_url)
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    errors = watch_errors(page)
    page.goto(f"{server_url}/games/{game_id}")
    page.wait_for_selector("#result-panel:not([hidden])")
    page.click("#watch-replay")
    page.wait_for_function(
        "() => document.querySelector('#replay-label').textContent.includes('of')"
    )
    steps = int(page.inner_text("#replay-label").split()[-1])
    # a replay opens at the start, as the game did (issue 33), and counts every move
    assert page.inner_text("#replay-label") == f"move 0 of {steps}"
    assert steps == httpx.get(f"{server_url}/api/games/{game_id}/replay").json()["steps"]
    for button in ("replay-start", "replay-prev", "replay-next", "replay-end"):
        icon = page.locator(f"#{button} svg.icon").bounding_box()
        assert icon and icon["width"] >= 12 and icon["height"] >= 12, button
        assert page.get_attribute(f"#{button}", "aria-label")

    label = "s => document.querySelector('#replay-label').textContent === s"
    page.click("#replay-end")
    page.wait_for_function(label, arg=f"move {steps} of {steps}")
    page.click("#replay-prev")
    page.wait_for_function(label, arg=f"move {steps - 1} of {steps}")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(label, arg=f"move {steps - 2} of {steps}")
    page.keyboard.press("Home")
    page.wait_for_function(label, arg=f"move 0 of {steps}")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(label, arg=f"move 1 of {steps}")
    page.click("#replay-next")
    page.wait_for_function(label, arg=f"move 2 of {steps}")
    page.keyboard.press("End")
    page.wait_for_function(label, arg=f"move {steps} of {steps}")
    page.click("#replay-start")
    page.wait_for_function(label, arg=f"move 0 of {steps}")

    # the lobby links the finished game to its replay too
    page.goto(server_url + "/")
    link = page.locator("#finished a.replay")
    link.wait_for()
    assert link.get_attribute("href") == f"/games/{game_id}?replay=1"
    # and counts its moves as the replay does
    moves = page.locator(f"#finished .game-item[data-game='{game_id}'] .moves")
    assert moves.get_attribute("data-moves") == str(steps)
    assert moves.inner_text() == f"{steps} moves"
    assert not errors, errors


# ---------------------------------------------------------------------- lobby
def test_the_lobby_describes_each_game_and_names_bot_levels(browser: Any, server_url: str) -> None:
    available = httpx.get(server_url + "/api/games/available").json()
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = watch_errors(page)
    page.goto(server_url + "/")
    page.wait_for_selector(".game-card")
    catalogue = page.inner_text("#catalogue")
    for game in available:
        assert game["description"] in catalogue and game["playing_time"] in catalogue
    assert "3-5 players · about 90 minutes" in catalogue
    assert "1-99 players · 30-45 minutes" in catalogue
    page.click("#more-options summary")  # the full form is folded (issue 33)

    # every game and count: the first seat a person, the others bots at Medium (issue 33)
    for name, count, default in (
        ("amunre", "4", "heuristic"),
        ("aton", "2", "heuristic"),
        ("egyptia", "4", "heuristic"),
        ("egyptia", "30", "heuristic"),
    ):
        page.select_option("#game", name)
        page.select_option("#players", count)
        rows = page.locator(".seat-row")
        assert rows.count() == int(count)
        assert rows.nth(0).locator(".kind").input_value() == "human"
        for i in range(1, int(count)):
            assert rows.nth(i).locator(".kind").input_value() == "bot"
            assert rows.nth(i).locator(".level").input_value() == default, (name, count, i)
    labels = page.locator(".seat-row").nth(1).locator(".level option").all_inner_texts()
    assert [label.split(":")[0] for label in labels] == [
        "Easy",
        "Medium",
        "Hard",
        "Expert",
        "Master",
    ]

    # a level chosen stays chosen when the table grows; the others follow the default
    page.select_option("#game", "egyptia")
    page.select_option("#players", "3")
    hard = "Hard: searches 0.25 s a move"
    page.locator(".seat-row").nth(1).locator(".level").select_option(label=hard)
    page.select_option("#players", "25")
    rows = page.locator(".seat-row")
    assert rows.nth(1).locator(".level").input_value() == "ismcts:0.25s"
    assert rows.nth(2).locator(".level").input_value() == "heuristic"
    page.select_option("#players", "3")
    page.click("#create")
    # against bots alone the lobby opens the seat; the bots are named by their level
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))
    game_id, token = page.url.split("/games/")[1].split("?token=")
    seen = httpx.get(f"{server_url}/api/games/{game_id}", params={"token": token}).json()
    assert [p["bot"] and (p["bot"]["level"], p["bot"]["spec"]) for p in seen["players"]] == [
        None,
        ("hard", "ismcts:0.25s"),
        ("medium", "heuristic"),
    ]
    assert [p["name"] for p in seen["players"][1:]] == ["Hard bot", "Medium bot"]
    assert not errors, errors


def test_a_move_is_taken_back_from_the_page(browser: Any, server_url: str) -> None:
    """Where the undo policy allows it (here a solo Egyptia game), the page offers to take the
    last move back, and the button does it."""
    created = create(server_url, "egyptia", [{"kind": "human"}], seed=5)
    game_id, token = created["id"], created["seats"][0]["token"]
    page = browser.new_page()
    errors = watch_errors(page)
    page.goto(server_url + created["seats"][0]["url"])
    page.locator("#moves button.move-choose").first.click()
    page.wait_for_selector("#undo")
    assert seat_view(server_url, game_id, token)["observation"]["you"]["stage"] != "choose"
    page.click("#undo")
    page.wait_for_function("() => !document.querySelector('#undo')")
    assert seat_view(server_url, game_id, token)["observation"]["you"]["stage"] == "choose"
    assert not errors, errors

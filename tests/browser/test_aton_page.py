"""Aton's page in Chromium: the lay-out preview with its figures, a lay-out and a removal
with the keyboard alone, the tooltips, and the phone layout of Aton's own controls.

Each test plays a hand-built position (tests/support/aton_positions.py) put into a real
server's room, so that every figure on the page is known in advance.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
import uvicorn

from karnak.games.aton.rules.state import AtonState
from karnak.server.app import create_app
from support.aton_positions import BLUE, RED, lay, position

from .conftest import free_port
from .test_accessibility import axe_script, report, violations
from .test_play_in_browser import SCREENSHOTS_ENV

WAIT_NEWER = (
    "v => !document.querySelector('.version') "
    "|| document.querySelector('.version').textContent !== v"
)
#: Red holds 1.2, 1.3, 2.9 (black), 3.1, 3.2; Blue 1.1, 1.8 (black), 2.1, 2.2, 2.12 (+2),
#: 4.11 (blue); the Kingdom of the Dead holds 7 of its 8 (Red 4, Blue 3).
RED_AT = [(1, 2), (1, 3), (2, 9), (3, 1), (3, 2)]
BLUE_AT = [(1, 1), (1, 8), (2, 1), (2, 2), (2, 12), (4, 11)]
KINGDOM = [RED, BLUE, RED, BLUE, RED, BLUE, RED]


def known_position(red_hand: tuple[int, ...] = (1, 2, 3, 4)) -> AtonState:
    state = position(
        red=red_hand,
        blue=(1, 1, 3, 4),
        temples={**dict.fromkeys(RED_AT, RED), **dict.fromkeys(BLUE_AT, BLUE)},
    )
    for owner in KINGDOM:
        state.kingdom.append(owner)
        state.stock[owner] -= 1
    return state


class Server:
    """A real server on a free port whose rooms the test can reach."""

    def __init__(self, url: str, app: Any):
        self.url = url
        self.app = app

    def game(self, state: AtonState) -> str:
        """A two-person Aton game put at ``state``; the link of Red's seat."""
        created = httpx.post(
            self.url + "/api/games",
            json={"game": "aton", "seats": [{"kind": "human"}, {"kind": "human"}]},
        ).json()
        room = self.app.state.service.rooms[created["id"]]
        room.state = state
        link: str = created["seats"][0]["url"]
        return self.url + link


@pytest.fixture
def server(tmp_path: Path, browser: Any) -> Iterator[Server]:
    port = free_port()
    app = create_app(f"sqlite:///{tmp_path / 'aton.sqlite3'}", bot_workers=0)
    runner = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not runner.started:
        assert time.monotonic() < deadline, "the test server did not start"
        time.sleep(0.05)
    yield Server(f"http://127.0.0.1:{port}", app)
    runner.should_exit = True
    thread.join(timeout=20)


def open_page(browser: Any, url: str, **options: Any) -> tuple[Any, list[str]]:
    page = browser.new_page(**({"viewport": {"width": 1400, "height": 1000}} | options))
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("svg.aton-board")
    return page, errors


def preview(page: Any) -> list[str]:
    return [
        page.inner_text(f"#aton-preview li[data-cartouche='{c}']").replace("\n", " ")
        for c in range(1, 5)
    ]


def lay_by_clicks(page: Any, values: list[int]) -> None:
    """Lay the hand's cards of these values on cartouches 1 to 4, by clicking."""
    for slot, value in enumerate(values, start=1):
        page.locator(f"button.hand-card:enabled[data-value='{value}']").first.click()
        page.click(f".my-cartouche[data-cartouche='{slot}']")


def test_the_preview_says_what_each_cartouche_will_do(
    browser: Any, server: Server, tmp_path: Path
) -> None:
    page, errors = open_page(browser, server.game(known_position()))
    page.wait_for_selector("#aton-preview")
    assert all("lay a card here" in line for line in preview(page))
    lay_by_clicks(page, [4, 3, 2, 1])
    assert preview(page) == [
        "1 · points: Your 4: you score 6 against a 1, 4 against a 2, 2 against a 3; "
        "nothing against a 4.",
        "2 · order and removals: You play first if Blue lays more than 3, Blue if less "
        "(equal cards: the lower card on cartouche 1 begins). You take off 1 of Blue's "
        "counters (3 \u2212 2) in temples 1 to 2, where Blue has 5 now; they go to the Kingdom "
        "of the Dead (7 of 8 taken), which fills it: the temples are scored at the end of "
        "the round.",
        "3 · reach: Temples 1 to 2 in reach: 16 empty squares, 3 of your counters, 5 of Blue's.",
        "4 · counters: You place 1 counter (stock 20) on 16 empty squares in temples 1 to 2.",
    ]
    assert page.inner_text("#allocate-confirm") == "Lay out 4 3 2 1 (sealed)"
    # the preview follows the cards: take the 2 back from cartouche 3 ...
    page.click(".my-cartouche[data-cartouche='3']")
    lines = preview(page)
    assert "lay a card here" in lines[2]
    assert lines[1].endswith("(7 of 8 taken), which fills it: the temples are scored at the end "
                             "of the round.")  # fmt: skip
    assert "in temples" not in lines[1] and "in temples" not in lines[3]
    assert page.locator("#allocate-confirm").is_disabled()
    # ... lay it on cartouche 4 instead (the 1 there goes back to the hand), the 1 on 3
    page.click("button.hand-card[data-value='2']")
    page.click(".my-cartouche[data-cartouche='4']")
    page.click("button.hand-card[data-value='1']")
    page.click(".my-cartouche[data-cartouche='3']")
    assert page.inner_text("#allocate-confirm") == "Lay out 4 3 1 2 (sealed)"
    assert preview(page)[2] == (
        "3 · reach: Temple 1 only in reach: 8 empty squares, 2 of your counters, 2 of Blue's."
    )
    assert preview(page)[3] == (
        "4 · counters: You place 2 counters (stock 20) on 8 empty squares in temple 1."
    )
    # a card 1 on cartouche 2: Red begins unless Blue lays a 1 too, and loses a counter
    page.click("#allocate-clear")
    assert all("lay a card here" in line for line in preview(page))
    lay_by_clicks(page, [3, 1, 4, 2])
    assert page.inner_text("#allocate-confirm") == "Lay out 3 1 4 2 (sealed)"
    lines = preview(page)
    assert lines[0] == (
        "1 · points: Your 3: you score 4 against a 1, 2 against a 2; nothing against a 3; "
        "Blue scores 2 against a 4."
    )
    assert lines[1].startswith("2 · order and removals: You play first unless Blue lays a 1 too")
    assert (
        "A 1 makes you take off 1 of your own counters in temples 1 to 4, where you have 5"
        in (lines[1])
    )
    shots = Path(os.environ.get(SCREENSHOTS_ENV) or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    page.mouse.move(1, 1)  # no tooltip in the picture
    page.wait_for_selector("#tip", state="hidden")
    page.locator("#cartouche-panel").screenshot(path=str(shots / "aton-preview.png"))
    # laid out: the preview stays with the sealed cards while Blue decides
    version = page.inner_text(".version")
    page.click("#allocate-confirm")
    page.wait_for_function(WAIT_NEWER, arg=version)
    assert page.locator(".my-cartouche.laid").all_inner_texts()[0].endswith("3")
    assert preview(page)[0].startswith("1 · points: Your 3: you score 4 against a 1")
    assert not errors, errors


def focused(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate(
        "() => { const a = document.activeElement; return { id: a.id, "
        "card: a.dataset.cardIndex ?? null, value: a.dataset.value ?? null, "
        "cartouche: a.dataset.cartouche ?? null, square: a.dataset.square ?? null, "
        "label: a.getAttribute('aria-label'), movable: a.classList.contains('movable') }; }"
    )
    return result


def tab_to(page: Any, check: str, limit: int = 80) -> None:
    """Press Tab until the focused element passes ``check`` (a function of the element)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => ({check})(document.activeElement)"):
            return
    raise AssertionError(f"Tab never reached {check}")


def test_a_lay_out_with_the_keyboard_alone(browser: Any, server: Server) -> None:
    page, errors = open_page(browser, server.game(known_position()))
    tab_to(page, "a => a.classList.contains('hand-card')")
    assert focused(page)["label"] == "card 1"
    # Enter chooses the card; the focus moves to the first empty cartouche
    page.keyboard.press("Enter")
    assert focused(page)["cartouche"] == "1"
    assert focused(page)["label"] == "cartouche 1, points: lay the 1 here"
    # Tab to cartouche 2 and lay the 1 there; the focus goes on to the next card in hand
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert page.inner_text(".my-cartouche[data-cartouche='2'] .slot-card") == "1"
    assert focused(page)["value"] == "2"
    # keys 1 to 4 on a card lay it on that cartouche
    page.keyboard.press("4")
    assert page.inner_text(".my-cartouche[data-cartouche='4'] .slot-card") == "2"
    assert focused(page)["value"] == "3"
    page.keyboard.press("1")
    assert focused(page)["value"] == "4"
    # take a card back: Shift+Tab to cartouche 4 (past the laid, disabled cards), Enter
    page.keyboard.press("Enter")  # choose the 4: the focus goes to the empty cartouche 3
    assert focused(page)["label"] == "cartouche 3, reach: lay the 4 here"
    page.keyboard.press("Escape")  # changed my mind: back to the card, chosen no more
    assert focused(page)["value"] == "4" and focused(page)["label"] == "card 4"
    for _ in range(4):
        page.keyboard.press("Tab")
        if focused(page)["cartouche"] == "4":
            break
    assert focused(page)["label"] == "cartouche 4, counters: card 2; choose to take it back"
    page.keyboard.press("Enter")
    assert page.inner_text(".my-cartouche[data-cartouche='4'] .slot-card") == "·"
    assert focused(page)["value"] == "2"  # the card taken back has the focus
    page.keyboard.press("3")
    page.keyboard.press("4")  # the 4, still in hand, goes on cartouche 4: all four laid
    assert focused(page)["id"] == "allocate-confirm"
    assert page.inner_text("#allocate-confirm") == "Lay out 3 1 2 4 (sealed)"
    visible = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); "
        "return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }"
    )
    assert visible, "the focused button shows no outline"
    version = page.inner_text(".version")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_NEWER, arg=version)
    laid = [
        page.inner_text(f".my-cartouche.laid[data-cartouche='{c}'] .slot-card") for c in range(1, 5)
    ]
    assert laid == ["3", "1", "2", "4"]
    assert not errors, errors


def test_the_exchange_with_the_keyboard_alone(browser: Any, server: Server) -> None:
    page, errors = open_page(browser, server.game(known_position()))
    tab_to(page, "a => a.id === 'exchange'")
    page.keyboard.press("Enter")
    # asked first, with the cards it gives up; the focus is on Confirm
    assert "discard 1 2 3 4 and draw four new cards" in page.inner_text("#confirm-bar")
    assert focused(page)["id"] == "confirm-move"
    version = page.inner_text(".version")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_NEWER, arg=version)
    assert page.locator("#exchange").count() == 0
    used = page.get_attribute("svg.aton-board .player.seat-0 .exchange-counter", "data-used")
    assert used == "true"
    assert page.locator("button.hand-card").count() == 4
    assert not errors, errors


def test_removals_and_a_placement_with_the_keyboard_alone(browser: Any, server: Server) -> None:
    state = known_position(red_hand=(1, 1, 2, 4))
    # Red 1 4 2 1, Blue 3 4 1 1: Red begins (equal 4s, Red's lower cartouche 1) and takes
    # 2 of Blue's counters from temples 1 and 2, then places 1 counter there
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    assert state.phase == "remove" and state.pending == 2
    page, errors = open_page(browser, server.game(state))
    assert page.locator("svg.aton-board .square.movable").count() == 5
    guide = page.inner_text("#guide-panel")
    assert "What each removal changes" in guide
    assert (
        "Square 1.8 (black): temple 1: Red 2, Blue 2 → Red 2, Blue 1 (Red leads by 1); black "
        "squares: Red 1, Blue 1 → Red 1, Blue 0 (Red leads by 1); a scoring now: Red 11, "
        "Blue 10 (instead of 2, 10)."
    ) in guide
    tab_to(page, "a => a.classList.contains('movable')")
    first = focused(page)
    assert first["square"] == "1.1"
    assert first["label"].startswith("send Blue's counter from temple 1, square 1 (yellow)")
    assert "a scoring now: Red 3, Blue 10" in first["label"]
    page.keyboard.press("Tab")
    assert focused(page)["square"] == "1.8"
    version = page.inner_text(".version")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_NEWER, arg=version)
    # the next square still to choose has the focus: a second removal needs no mouse either
    page.wait_for_function("() => document.activeElement.classList.contains('movable')")
    assert focused(page)["square"] == "2.1"
    assert page.get_attribute("svg.aton-board [data-square='1.8']", "data-occupant") == "empty"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert focused(page)["square"] == "2.12"
    version = page.inner_text(".version")
    page.keyboard.press(" ")
    page.wait_for_function(WAIT_NEWER, arg=version)
    # now Red places its one counter (temples 1 and 2): the squares are the empty ones
    page.wait_for_function("() => document.activeElement.classList.contains('movable')")
    spot = focused(page)
    assert spot["label"].startswith("place a counter on temple ")
    version = page.inner_text(".version")
    page.keyboard.press("Enter")
    page.wait_for_function(WAIT_NEWER, arg=version)
    square = spot["square"]
    assert page.get_attribute(f"svg.aton-board [data-square='{square}']", "data-occupant") == (
        "red"
    )
    assert not errors, errors


def test_tooltips_on_the_board_and_on_the_squares_to_choose(browser: Any, server: Server) -> None:
    state = known_position(red_hand=(1, 1, 2, 4))
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    page, errors = open_page(browser, server.game(state))
    page.hover("svg.aton-board [data-square='3.5']")
    page.wait_for_selector("#tip:not([hidden])")
    assert page.inner_text("#tip").startswith("Temple 3, square 5: green; empty.")
    page.hover("svg.aton-board .kingdom-square[data-kingdom='8']")
    page.wait_for_function(
        "() => document.querySelector('#tip').textContent.includes('square 8 of 8: empty')"
    )
    page.hover("svg.aton-board .temple[data-temple='2'] .temple-head text")
    page.wait_for_function("() => document.querySelector('#tip').textContent.includes('Temple 2:')")
    assert "Red 1, Blue 3: Blue leads by 2, worth 5 points now" in page.inner_text("#tip")
    # a square Red may choose: what the move changes, then what the square is
    page.hover("svg.aton-board [data-square='2.12']")
    page.wait_for_function(
        "() => document.querySelector('#tip').textContent.startsWith('Send Blue')"
    )
    tip = page.inner_text("#tip")
    assert "Blue loses its +2 at a scoring" in tip
    assert "Temple 2, square 12: bonus +2; Blue's counter." in tip
    # the counters read without colour
    letters = page.locator("svg.aton-board .square .counter-letter").all_text_contents()
    assert sorted(letters) == sorted(["R"] * len(RED_AT) + ["B"] * len(BLUE_AT))
    assert not errors, errors


def test_the_lay_out_fits_a_phone(browser: Any, server: Server, tmp_path: Path) -> None:
    page, errors = open_page(
        browser, server.game(known_position()), viewport={"width": 390, "height": 844},
        is_mobile=True, has_touch=True,
    )  # fmt: skip
    page.wait_for_selector("#aton-preview")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    lay_by_clicks(page, [4, 3, 2, 1])
    # the lay-out's buttons are in view, wherever the page is scrolled
    for y in (0, 400, 10_000):
        page.evaluate(f"() => window.scrollTo(0, {y})")
        box = page.locator("#allocate-confirm").bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
        assert box["height"] >= 40  # big enough for a thumb
    # the cards and cartouches are big enough to touch
    for selector in ("button.hand-card", ".my-cartouche"):
        box = page.locator(selector).first.bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 40
    page.screenshot(path=str(tmp_path / "aton-phone.png"))
    assert not errors, errors


@pytest.mark.parametrize("width", [1400, 390])
def test_no_serious_accessibility_violation_in_aton_s_decisions(
    browser: Any, server: Server, width: int
) -> None:
    """axe-core on the lay-out with its preview half filled and on a removal with its
    squares to choose (buttons inside the board), on a laptop and on a phone."""
    removal = known_position(red_hand=(1, 1, 2, 4))
    lay(removal, (1, 4, 2, 1), (3, 4, 1, 1))
    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}
    for name, state in (("the lay-out", known_position()), ("a removal", removal)):
        page, errors = open_page(
            browser, server.game(state), viewport={"width": width, "height": 900}
        )
        if name == "the lay-out":
            lay_by_clicks(page, [4, 3])
            page.click("button.hand-card:enabled")  # a card chosen, the cartouches ready
        else:
            page.wait_for_selector("svg.aton-board .square.movable")
            page.focus("svg.aton-board .square.movable")  # its tooltip shows
        page.wait_for_timeout(200)
        # the shared check excuses some known violations with a warning: none in Aton's
        with warnings.catch_warnings(record=True) as excused:
            warnings.simplefilter("always")
            items = violations(page, script)
        items += [{"id": "excused", "impact": "serious", "help": str(w.message), "nodes": []}
                  for w in excused]  # fmt: skip
        if items:
            found[name] = items
        assert not errors, errors
        page.close()
    assert not found, "\n" + report(found)


def test_move_buttons_in_plain_words_and_the_figures_note_behind_a_link(
    browser: Any, server: Server
) -> None:
    state = known_position(red_hand=(1, 1, 2, 4))
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    page, errors = open_page(browser, server.game(state))
    buttons = page.locator("#moves button.move-remove")
    texts = buttons.all_inner_texts()
    assert "Remove Blue's counter from temple 1, square 1 (yellow)" in texts
    assert all(text.startswith("Remove Blue's counter from temple ") for text in texts)
    # the engine's text stays for the API: it is what the button plays
    assert buttons.first.get_attribute("data-move") == "remove 1.1"
    # where the figures come from: behind "About these figures", not in a play tooltip
    about = page.locator("#aton-about-figures")
    assert about.locator("summary").inner_text() == "About these figures"
    assert "reconstruction" in (about.text_content() or "")
    assert "reconstruct" not in (page.get_attribute("[data-square='1.1']", "data-tip") or "")
    assert not errors, errors


@pytest.mark.parametrize(
    ("locale", "remove", "about"),
    [
        ("de-DE", "Stein von Blue auf Tempel 1, Feld 1 (gelb) entfernen", "Über diese Zahlen"),
        (
            "fr-FR",
            "Retirer le pion de Blue du temple 1, case 1 (jaune)",
            "À propos de ces chiffres",
        ),
    ],
)
def test_the_page_in_german_and_french(
    browser: Any, server: Server, locale: str, remove: str, about: str
) -> None:
    state = known_position(red_hand=(1, 1, 2, 4))
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    page, errors = open_page(
        browser, server.game(state), locale=locale, extra_http_headers={"Accept-Language": locale}
    )
    assert remove in page.locator("#moves button.move-remove").all_inner_texts()
    assert page.locator("#aton-about-figures summary").inner_text() == about
    assert not errors, errors

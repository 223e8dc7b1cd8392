"""Amun-Re's page in Chromium: each decision explained with its figures, the bid and the
offering as one control each with a confirm step, keyboard play, tooltips, a phone.

The positions are the ones of tests/server/test_amunre_guide.py (seed 5, four people: Ana
is the start player; Thebes, Edfu, Baharya and Berenike come up first), reached through the
API; the page of one seat is then checked, and the moves it sends are read back from the
server's record.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx2 as httpx

from .test_play_in_browser import SCREENSHOTS_ENV

NAMES = ("Ana", "Bo", "Cy", "Di")
ANA, BO, CY, DI = range(4)

ROUND_ONE_AUCTION = [
    (ANA, "bid THEBES 3"),
    (BO, "bid THEBES 6"),
    (CY, "bid EDFU 0"),
    (DI, "bid BAHARYA 1"),
]
ROUND_ONE_MARKET = [
    (ANA, "bid BERENIKE 0"),
    *[(ANA, t) for t in ("buy-cards 1", "stone BERENIKE", "stone BERENIKE", "done")],
    *[(BO, t) for t in ("farmer THEBES", "farmer THEBES", "farmer THEBES", "done")],
    *[(CY, t) for t in ("farmer EDFU", "farmer EDFU", "stone EDFU", "done")],
    *[(DI, t) for t in ("farmer BAHARYA", "farmer BAHARYA", "done")],
]
ROUND_ONE_OFFERS = [
    (ANA, "offer 5"),
    (BO, "offer theft"),
    (CY, "offer 4 +correction"),
    (DI, "offer 4"),
]


class Game:
    """A game of four people on the test server, moved through its API."""

    def __init__(self, server_url: str, options: dict[str, Any] | None = None, seed: int = 5):
        self.url = server_url
        created = httpx.post(
            server_url + "/api/games",
            json={
                "game": "amunre",
                "seed": seed,
                "options": options or {},
                "seats": [{"kind": "human", "name": name} for name in NAMES],
            },
        ).json()
        self.id = created["id"]
        self.tokens = [seat["token"] for seat in created["seats"]]
        self.links = [server_url + seat["url"] for seat in created["seats"]]

    def view(self, seat: int | None) -> dict[str, Any]:
        headers = {"X-Karnak-Token": self.tokens[seat]} if seat is not None else {}
        response = httpx.get(f"{self.url}/api/games/{self.id}", headers=headers)
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        return view

    def play(self, moves: list[tuple[int, str]]) -> None:
        for seat, text in moves:
            version = self.view(seat)["version"]
            response = httpx.post(
                f"{self.url}/api/games/{self.id}/actions",
                headers={"X-Karnak-Token": self.tokens[seat]},
                json={"version": version, "action": text},
            )
            assert response.status_code == 200, response.text

    def log(self) -> list[str]:
        log: list[str] = self.view(None)["log"]
        return log


def open_seat(browser: Any, game: Game, seat: int, width: int = 1400, height: int = 1000) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.errors = errors
    page.goto(game.links[seat])
    page.wait_for_selector("svg.amunre-board")
    return page


def why(page: Any) -> str:
    """The "Why it matters" panel's text."""
    page.wait_for_selector("#guide-panel:not([hidden])")
    text: str = page.inner_text("#guide-panel")
    return text


def shots_dir(tmp_path: Path) -> Path:
    """docs/screenshots when KARNAK_SCREENSHOTS names it (to refresh the README's images),
    else the test's own temporary folder."""
    folder = Path(os.environ[SCREENSHOTS_ENV]) if os.environ.get(SCREENSHOTS_ENV) else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


# ---------------------------------------------------------------------------- explanations
def test_each_decision_shows_its_explanation_with_the_right_figures(
    browser: Any, server_url: str
) -> None:
    game = Game(server_url)
    game.play(ROUND_ONE_AUCTION)
    page = open_seat(browser, game, ANA)
    text = why(page)
    assert "Why you must bid again" in text
    assert "Bo bid 6 on Thebes, above your 3: your marker must move." in text
    assert "Lowest bid you may make: Baharya 3, Berenike 0, Edfu 1." in text
    assert "Income each harvest: 8 gold, plus the temple's space in gold per farmer." in text
    assert "Your turn: You were overbid on Thebes: bid again" in page.inner_text("#banner")
    rules = page.inner_text("#rules-panel")
    assert "How the game runs" in rules and "Next: The market, in turn order from Ana." in rules
    assert page.locator("#rules-panel li.current strong").inner_text() == "Auction"

    game.play(ROUND_ONE_MARKET[:7])  # Ana's market turn, then Bo buys 2 farmers
    page = open_seat(browser, game, BO)
    text = why(page)
    assert "Next farmer: 3 gold; next stone: 1 gold." in text
    assert "Farmers: up to 2 with your gold; 2 empty fields in your provinces." in text
    assert "Stones: up to 4 with your gold (13 in the supply)." in text
    assert "each farmer then earns 1 to 4 gold at the harvest" in text

    game.play(ROUND_ONE_MARKET[7:])
    page = open_seat(browser, game, CY)
    text = why(page)
    assert "You have 16 gold: offer 1 to 16 gold, or the theft card" in text
    assert (
        "Space 3 (total 13 to 22): 3 gold per farmer, no caravans, 3 points per temple at a "
        "scoring; your harvest: 6 gold." in text
    )
    assert "A theft takes 3 gold from the bank and lowers the total by 3; it gets no item." in text
    assert "Choose your offering (sealed)" in page.inner_text("#banner")

    game.play(ROUND_ONE_OFFERS)
    page = open_seat(browser, game, CY)
    text = why(page)
    assert "Offers: Ana 5, Bo theft (-3), Cy 4, Di 4. Total now 10: temple space 2." in text
    assert "+3: total 13, space 3 (3 gold per farmer, no caravans); your harvest 6 gold." in text
    assert "Ana 3 items, Cy 2 items, Di 1 item." in text

    game.play([(CY, "adjust +3")])
    page = open_seat(browser, game, ANA)
    text = why(page)
    assert "You have 3 items left to take." in text
    assert "(Berenike has 2 already)" in text

    game.play([(ANA, "take card"), (ANA, "take card"), (ANA, "take card")])
    game.play([(CY, "take stone EDFU"), (CY, "take stone EDFU"), (DI, "take card")])
    page = open_seat(browser, game, ANA)  # Ana holds cards: she decides before collecting
    text = why(page)
    assert "You collect 8 gold at temple space 3:" in text and "Berenike: 8 gold = 8." in text
    assert not page.errors, page.errors


def test_the_scoring_is_explained_line_by_line(browser: Any, server_url: str) -> None:
    game = Game(server_url, seed=3)
    # Random legal moves until a seat decides at the old kingdom's scoring.
    import random

    rng = random.Random(3)
    while True:
        public = game.view(None)
        if public["observation"]["phase"] == "scoring":
            break
        seat = public["to_move"][0]
        legal = [m["text"] for m in game.view(seat)["legal"] if not m["text"].startswith("sell")]
        game.play([(seat, rng.choice(legal))])
    seat = public["to_move"][0]
    page = open_seat(browser, game, seat)
    text = why(page)
    expected = game.view(seat)["page"]["guide"]["explain"][0]
    assert expected["title"] == "Your old kingdom's scoring"
    assert "Your old kingdom's scoring" in text
    for line in expected["lines"]:
        assert line in text
    assert any(line.startswith("Pyramids: ") for line in expected["lines"])
    assert page.locator("#rules-panel li.current strong").inner_text().startswith("Scoring")


# ---------------------------------------------------------------------------- the offering
def test_the_offering_control_commits_exactly_what_was_picked(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    game = Game(server_url)
    game.play(ROUND_ONE_AUCTION + ROUND_ONE_MARKET)
    page = open_seat(browser, game, CY)
    page.wait_for_selector("#offer-control")
    # one control, not a button per amount
    assert page.locator("#moves button.move-offer").count() == 0
    gold = page.locator("#offer-gold")
    assert gold.get_attribute("min") == "1" and gold.get_attribute("max") == "16"
    # what is not legal is refused here, with the reason, and cannot be sent
    gold.fill("17")
    assert page.inner_text("#offer-problem") == "You have 16 gold: offer at most that."
    assert page.locator("#offer-review").is_disabled()
    gold.fill("0")
    assert "at least 1 gold" in page.inner_text("#offer-problem")
    gold.fill("3")
    page.click("#offer-more")
    page.check("#offer-correction")
    assert page.inner_text("#offer-summary") == "Offer 4 gold + correction, sealed"
    page.click("#offer-review")
    bar = page.locator("#confirm-bar")
    assert bar.is_visible()
    assert "Offer 4 gold + correction, sealed" in bar.inner_text()
    assert page.get_attribute("#confirm-move", "data-move") == "offer 4 +correction"
    page.locator("#moves-panel").screenshot(path=str(shots_dir(tmp_path) / "amunre-offering.png"))
    # a change withdraws the confirm bar: Confirm can only send what the control shows
    page.click("#offer-less")
    assert bar.is_hidden()
    page.click("#offer-more")
    page.click("#offer-review")
    page.click("#confirm-move")
    page.wait_for_selector("text=Nothing to decide now")
    assert game.view(CY)["observation"]["you"]["offer"] == {
        "type": "offer",
        "gold": 4,
        "theft": False,
        "correction": True,
        "cards": [],
    }
    # the theft card, from another seat's page
    page = open_seat(browser, game, BO)
    page.check("#offer-kind-theft")
    assert page.locator("#offer-gold").is_disabled()
    assert page.inner_text("#offer-summary") == "Offer the theft card (\u22123), sealed"
    page.click("#offer-review")
    assert page.get_attribute("#confirm-move", "data-move") == "offer theft"
    page.click("#confirm-move")
    page.wait_for_selector("text=Nothing to decide now")
    game.play([(ANA, "offer 5"), (DI, "offer 4")])
    assert any(
        "Bo the theft card (-3)" in line and "Cy 4 gold with a correction card" in line
        for line in game.log()
    )
    assert not page.errors, page.errors


def test_offered_power_cards_are_toggles_and_the_exact_cards_are_sent(
    browser: Any, server_url: str
) -> None:
    game = Game(server_url, options={"offer_cards": True})
    game.play([*ROUND_ONE_AUCTION, (ANA, "bid BERENIKE 0")])
    game.play([(seat, "done") for seat in (ANA, BO, CY, DI)])
    page = open_seat(browser, game, CY)  # Cy holds a builder and a correction card
    page.wait_for_selector("#offer-control")
    assert page.locator("#offer-gold").get_attribute("min") == "0"
    page.locator("#offer-gold").fill("0")
    assert "at least 1 gold" in page.inner_text("#offer-problem")
    page.check("#offer-card-builder-0")
    assert page.inner_text("#offer-problem") == ""
    page.check("#offer-correction")
    page.check("#offer-card-correction-0")  # the only correction card, twice: refused
    assert "cannot be offered and played at once" in page.inner_text("#offer-problem")
    assert page.locator("#offer-review").is_disabled()
    page.uncheck("#offer-correction")
    assert page.inner_text("#offer-summary") == (
        "Offer 0 gold + 2 cards (builder, sacrifice correction), sealed"
    )
    page.click("#offer-review")
    assert page.get_attribute("#confirm-move", "data-move") == "offer 0 +cards=builder,correction"
    page.click("#confirm-move")
    page.wait_for_selector("text=Nothing to decide now")
    assert game.view(CY)["observation"]["you"]["offer"]["cards"] == ["builder", "correction"]
    assert not page.errors, page.errors


# ---------------------------------------------------------------------------- the bid
def test_a_bid_has_a_confirm_step_and_the_overbid_and_blockade_toggles_stay_legal(
    browser: Any, server_url: str
) -> None:
    game = Game(server_url)
    page = open_seat(browser, game, ANA)
    page.wait_for_selector("#bid-control")
    assert page.locator("#moves button.move-bid").count() == 0
    # a province clicked on the board becomes the bid's province
    page.click("svg.amunre-board .province[data-province='THEBES']")
    assert page.locator("#bid-province").input_value() == "THEBES"
    amounts = page.locator("#bid-amount option").all_inner_texts()
    assert amounts == ["0 gold", "1 gold", "3 gold", "6 gold", "10 gold", "15 gold"]
    assert page.locator("#bid-blockade").is_hidden()  # Ana holds no blockade card
    page.select_option("#bid-amount", "3")
    assert page.inner_text("#bid-summary") == "Bid 3 gold on Thebes"
    page.click("#bid-review")
    assert page.get_attribute("#confirm-move", "data-move") == "bid THEBES 3"
    assert "Bid 3 gold on Thebes" in page.inner_text("#confirm-bar")
    page.click("#confirm-move")
    page.wait_for_selector("text=Nothing to decide now")
    assert "Ana bids 3 on THEBES." in game.log()
    game.play([(BO, "bid THEBES 6"), (CY, "bid EDFU 0"), (DI, "bid BAHARYA 1")])
    page = open_seat(browser, game, ANA)
    page.wait_for_selector("#bid-control")
    provinces = page.locator("#bid-province option").all_inner_texts()
    assert provinces == ["Baharya", "Berenike", "Edfu"]  # not Thebes: no overbid card
    page.select_option("#bid-province", "BAHARYA")
    assert page.locator("#bid-amount option").all_inner_texts()[0] == "3 gold"
    assert not page.errors, page.errors


# ---------------------------------------------------------------------------- the keyboard
def tab_to(page: Any, selector: str, limit: int = 80) -> None:
    """Press Tab until ``selector`` has the focus."""
    for _ in range(limit):
        if page.evaluate("s => document.activeElement === document.querySelector(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"{selector} never got the focus")


def test_a_bid_and_the_offering_with_the_keyboard_alone(browser: Any, server_url: str) -> None:
    game = Game(server_url)
    page = open_seat(browser, game, ANA)
    page.wait_for_selector("#bid-control")
    page.locator("body").focus()
    tab_to(page, "#bid-province")
    page.keyboard.press("End")  # the last province, Thebes
    assert page.locator("#bid-province").input_value() == "THEBES"
    page.keyboard.press("Tab")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")  # 0, 1, then 3
    assert page.inner_text("#bid-summary") == "Bid 3 gold on Thebes"
    tab_to(page, "#bid-review")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "confirm-move"
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Nothing to decide now")
    assert "Ana bids 3 on THEBES." in game.log()

    game.play(ROUND_ONE_AUCTION[1:] + ROUND_ONE_MARKET)
    page = open_seat(browser, game, CY)
    page.wait_for_selector("#offer-control")
    page.locator("body").focus()
    tab_to(page, "#offer-gold")
    page.keyboard.press("Control+A")
    page.keyboard.type("5")
    page.keyboard.press("ArrowDown")  # the number field's own step: 4
    tab_to(page, "#offer-correction")
    page.keyboard.press("Space")
    assert page.inner_text("#offer-summary") == "Offer 4 gold + correction, sealed"
    tab_to(page, "#offer-review")
    page.keyboard.press("Enter")
    # Change goes back to the control, Confirm sends
    tab_to(page, "#confirm-change")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "offer-review"
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_selector("text=Nothing to decide now")
    assert game.view(CY)["observation"]["you"]["offer"]["gold"] == 4
    assert not page.errors, page.errors


def test_the_provinces_take_the_focus_and_a_visible_outline(browser: Any, server_url: str) -> None:
    game = Game(server_url)
    page = open_seat(browser, game, ANA)
    page.wait_for_selector("#bid-control")
    page.locator("body").focus()
    tab_to(page, "svg.amunre-board .province.movable")
    focused = page.locator("svg.amunre-board .province:focus")
    assert focused.get_attribute("role") == "button"
    assert focused.get_attribute("aria-label") == "Baharya: bid here"
    width = page.evaluate(
        "() => getComputedStyle(document.querySelector('.province:focus .card')).strokeWidth"
    )
    assert width == "5px"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'bid-amount'")
    assert page.locator("#bid-province").input_value() == "BAHARYA"


# ---------------------------------------------------------------------------- tooltips
def test_every_province_has_a_tooltip_and_it_shows_on_hover(browser: Any, server_url: str) -> None:
    game = Game(server_url)
    game.play(ROUND_ONE_AUCTION)
    page = open_seat(browser, game, CY)
    provinces = page.locator("svg.amunre-board .province[data-tip]")
    assert provinces.count() == 15
    tip = page.get_attribute("svg.amunre-board .province[data-province='THEBES']", "data-tip")
    assert tip is not None
    assert tip.startswith("Thebes: Upper Egypt, east bank of the Nile. 4 fields (4 empty)")
    assert "Bids: Ana (A) 3 (overbid), Bo (B) 6." in tip
    page.hover("svg.amunre-board .province[data-province='BERENIKE'] .card")
    page.wait_for_selector("#tip:not([hidden])")
    assert "gold 8 every harvest" in page.inner_text("#tip")
    temple = page.locator("svg.amunre-board .temple-step").nth(4)
    assert "each farmer earns 4 gold" in (temple.get_attribute("data-tip") or "")
    cards = page.locator("#players td[data-tip]")
    assert "stays hidden" in (cards.nth(0).get_attribute("data-tip") or "")
    assert page.locator("#players .seat-letter").all_inner_texts() == ["A", "B", "C", "D"]


# ---------------------------------------------------------------------------- a phone
def test_the_offering_and_the_bid_fit_a_phone(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    game = Game(server_url)
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(game.links[ANA])
    page.wait_for_selector("#bid-control")
    for selector in ("#bid-province", "#bid-amount", "#bid-review"):
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
        assert box["y"] + box["height"] <= 844, selector
    page.tap("#bid-review")
    page.wait_for_selector("#confirm-bar:not([hidden])")
    box = page.locator("#confirm-move").bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844
    page.tap("#confirm-change")
    assert page.locator("#confirm-bar").is_hidden()
    page.close()

    game2 = Game(server_url)
    game2.play(ROUND_ONE_AUCTION + ROUND_ONE_MARKET)
    page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.goto(game2.links[CY])
    page.wait_for_selector("#offer-control")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 1, f"the page is {overflow}px wider than the phone"
    for selector in (
        "#offer-less",
        "#offer-gold",
        "#offer-more",
        "#offer-correction",
        "#offer-review",
    ):
        page.locator(selector).scroll_into_view_if_needed()
        box = page.locator(selector).bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 390, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, selector
    page.tap("#offer-more")
    page.tap("#offer-review")
    assert page.get_attribute("#confirm-move", "data-move") == "offer 2"
    page.screenshot(path=str(shots_dir(tmp_path) / "amunre-phone-offering.png"))


# ---------------------------------------------------------------------------- the guide
def test_a_screenshot_of_the_guide(browser: Any, server_url: str, tmp_path: Path) -> None:
    game = Game(server_url)
    game.play(ROUND_ONE_AUCTION + ROUND_ONE_MARKET + ROUND_ONE_OFFERS)
    page = open_seat(browser, game, CY, height=1300)
    page.wait_for_selector("#guide-panel:not([hidden])")
    page.hover("svg.amunre-board .temple-step >> nth=3")
    page.wait_for_selector("#tip:not([hidden])")
    page.screenshot(path=str(shots_dir(tmp_path) / "amunre-guide.png"))
    assert "Your correction" in why(page)

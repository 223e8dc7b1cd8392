"""One screen (issue 33, part 1): at 1366x768 the board, the decision, the clocks, the players
and the latest log lines of every game are in view without scrolling; the rules panel folds
and the page remembers it; the chat sits beside the log; on a phone the board stays readable."""

from __future__ import annotations

from typing import Any

import httpx2 as httpx
import pytest

from karnak.core.registry import available_games, get_game

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
# what a player needs in view: the board, the decision, the moves, the clocks, the players,
# the log's latest line
NEEDED = {
    "board": "#board svg",
    "decision": "#decision",
    "moves": "#moves button.move",
    "clock": "#clock",
    "players": "#players",
    "latest log line": "#log li:last-child",
}


def seat_page(browser: Any, url: str, game: str, viewport: dict[str, int], **options: Any) -> Any:
    created = httpx.post(
        url + "/api/games",
        json={
            "game": game,
            "seats": [{"kind": "human"}]
            + [{"kind": "bot", "bot": "random"}] * (get_game(game).min_players - 1),
            "seed": 3,
        },
    )
    assert created.status_code in (200, 201), created.text
    page = browser.new_page(viewport=viewport, **options)
    page.goto(url + created.json()["seats"][0]["url"])
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#moves button.move")
    page.wait_for_selector("#log li")
    page.wait_for_timeout(300)
    return page


def in_view(page: Any, selector: str) -> dict[str, float]:
    box: dict[str, float] = page.evaluate(
        """(selector) => {
          const node = document.querySelector(selector);
          if (!node) return null;
          const r = node.getBoundingClientRect();
          return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, width: r.width,
                  height: r.height, page: document.documentElement.scrollHeight};
        }""",
        selector,
    )
    return box


@pytest.mark.parametrize("game", available_games())
def test_everything_a_decision_needs_is_in_view_on_a_laptop(
    browser: Any, server_url: str, game: str
) -> None:
    page = seat_page(browser, server_url, game, LAPTOP)
    # the first visit: the rules are open, and still nothing needed falls below the fold
    assert page.evaluate("document.querySelector('#rules-panel details').open")
    for what, selector in NEEDED.items():
        if what == "clock" and page.locator(selector).is_hidden():
            selector = "#time-panel"  # an untimed game: the seats' panel (clock.js) stands in
        if what == "players" and page.locator("#players-panel").is_hidden():
            # Egyptia hides the players' table: its builders' standing is in the preview panel
            selector = "#preview-panel"
        box = in_view(page, selector)
        assert box is not None, f"{game}: no {what}"
        assert box["height"] > 0 and box["width"] > 0, f"{game}: {what} not shown"
        assert box["top"] >= 0 and box["bottom"] <= LAPTOP["height"] + 0.5, (game, what, box)
        assert box["left"] >= 0 and box["right"] <= LAPTOP["width"] + 0.5, (game, what, box)
    # the chat is docked with the log in the table's column (beside it, or right under it)
    # and starts inside the window, not at the page's bottom
    log, chat = in_view(page, "#log-panel"), in_view(page, "#chat-panel")
    beside = chat["left"] >= log["right"] - 1 or log["left"] >= chat["right"] - 1
    under = abs(chat["left"] - log["left"]) <= 1 and 0 <= chat["top"] - log["bottom"] <= 16
    assert beside or under, (log, chat)
    assert chat["top"] < LAPTOP["height"] - 40, (game, chat)
    # the page is about one window tall: the rules fold stays at the column's bottom
    assert box["page"] <= 2 * LAPTOP["height"], (game, box)
    page.close()


@pytest.mark.parametrize("game", available_games())
def test_the_rules_panel_folds_and_the_page_remembers(
    browser: Any, server_url: str, game: str
) -> None:
    page = seat_page(browser, server_url, game, LAPTOP)
    details = page.locator("#rules-panel details")
    assert details.evaluate("d => d.open")
    page.click("#rules-panel summary")
    assert not details.evaluate("d => d.open")
    page.reload()
    page.wait_for_selector("#rules-panel details", state="attached")
    page.wait_for_timeout(200)
    assert not page.locator("#rules-panel details").evaluate("d => d.open")
    page.close()


def test_the_board_stays_readable_on_a_phone(browser: Any, server_url: str) -> None:
    for game in available_games():
        page = seat_page(browser, server_url, game, PHONE, is_mobile=True)
        board = in_view(page, "#board svg")
        assert board["width"] >= 360, (game, board)
        moves = in_view(page, "#moves-panel")
        assert moves["bottom"] <= PHONE["height"] + 0.5, (game, moves)
        page.close()


def test_links_in_the_chat_are_safe_links(browser: Any, server_url: str) -> None:
    response = httpx.post(
        server_url + "/api/games",
        json={
            "game": "amunre",
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 2,
            "seed": 3,
        },
    )
    assert response.status_code in (200, 201), response.text
    created = response.json()
    seat = created["seats"][0]
    token = seat["token"]
    game = created["id"]
    for text in (
        "rules at https://example.org/a?b=1 and <b>bold</b>",
        "javascript:alert(1) ftp://x.org http://ok.example/x.",
    ):
        sent = httpx.post(
            f"{server_url}/api/games/{game}/chat",
            json={"text": text},
            headers={"X-Karnak-Token": token},
        )
        assert sent.status_code in (200, 201), sent.text
    page = browser.new_page(viewport=LAPTOP)
    page.goto(server_url + seat["url"])
    page.wait_for_selector(".chat-line")
    page.wait_for_timeout(300)
    links = page.eval_on_selector_all(
        ".chat-text a", "as => as.map(a => [a.getAttribute('href'), a.rel, a.textContent])"
    )
    assert links == [
        ["https://example.org/a?b=1", "noopener noreferrer nofollow", "https://example.org/a?b=1"],
        ["http://ok.example/x", "noopener noreferrer nofollow", "http://ok.example/x"],
    ]
    assert page.locator(".chat-text b").count() == 0
    assert page.eval_on_selector_all(".chat-text a", "as => as.map(a => a.target)") == [
        "_blank",
        "_blank",
    ]
    # javascript: and ftp: addresses stay text
    texts = page.eval_on_selector_all(".chat-text", "ts => ts.map(t => t.textContent)")
    assert any("javascript:alert(1) ftp://x.org" in text for text in texts), texts
    page.close()

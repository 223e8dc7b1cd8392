"""The first minute in the browser (issue 33, part 4): the lobby shows each game as a card with
a picture of its own board, its players and length; "Play now" starts a game against Medium
bots and opens the seat in one click, for a guest and for a logged-in player; the full form
sits folded under "More options", and a game made there against bots alone opens the seat
too, while a game with people to invite shows their links."""

from __future__ import annotations

import re
from typing import Any

import httpx2 as httpx

from karnak.bots.levels import game_levels

from .test_leaderboard import api, signed_up

LAPTOP = {"width": 1366, "height": 768}


def lobby(browser: Any, server_url: str, page: Any = None) -> Any:
    page = page or browser.new_page(viewport=LAPTOP)
    page.goto(server_url + "/")
    page.wait_for_selector(".game-card .play-now")
    return page


def seat_view(page: Any, server_url: str) -> dict[str, Any]:
    """The view the page's own seat gets (its token from the address, else its session)."""
    match = re.search(r"/games/([^/?#]+)(?:\?token=([^&#]+))?", page.url)
    assert match, page.url
    query = f"?token={match.group(2)}" if match.group(2) else ""
    answer = api(page, "GET", f"/api/games/{match.group(1)}{query}", None)
    assert answer["status"] == 200, answer
    view: dict[str, Any] = answer["body"]
    return view


def test_each_game_is_a_card_with_a_picture_of_its_board(browser: Any, server_url: str) -> None:
    available = httpx.get(server_url + "/api/games/available").json()
    page = lobby(browser, server_url)
    cards = page.locator(".game-card")
    assert cards.count() == len(available)
    # A function, not a bare expression: Playwright polls a bare expression through eval(),
    # which the page's Content Security Policy rightly refuses.
    page.wait_for_function(
        "() => [...document.querySelectorAll('.card-picture')]"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    for i, game in enumerate(available):
        card = cards.nth(i)
        assert card.get_attribute("data-game") == game["name"]
        text = card.inner_text()
        assert (
            game["title"] in text and game["playing_time"] in text and game["description"] in text
        )
        picture = card.locator("img.card-picture")
        assert picture.get_attribute("src") == f"/api/games/{game['name']}/picture.svg"
        assert game["title"] in (picture.get_attribute("alt") or "")
        box = picture.bounding_box()
        assert box and box["width"] > 200 and box["height"] > 100
        assert card.locator(".play-now").is_visible()
    # the cards are the first thing seen; the full form is folded under "More options"
    assert page.locator(".game-card .play-now").first.bounding_box()["y"] < LAPTOP["height"]  # type: ignore[index]
    assert not page.locator("#more-options").evaluate("d => d.open")
    assert page.locator("#create").is_hidden()
    page.click("#more-options summary")
    assert page.locator("#create").is_visible()
    page.reload()
    page.wait_for_selector(".game-card .play-now")
    assert page.locator("#more-options").evaluate("d => d.open"), "left open: remembered"
    page.close()


def test_play_now_opens_a_guests_seat_against_medium_bots(browser: Any, server_url: str) -> None:
    page = lobby(browser, server_url)
    page.click(".game-card[data-game='aton'] .play-now")
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))
    page.wait_for_selector("#board svg")
    view = seat_view(page, server_url)
    assert view["game"] == "aton" and view["seat"] == 0
    bots = view["players"][1:]
    medium = game_levels("aton")["medium"]
    assert [p["name"] for p in bots] == ["Medium bot"]
    assert [p["bot"] for p in bots] == [{"level": "medium", "spec": medium, "label": "Medium bot"}]
    # the lobby names the bot by its level, with the bot behind it on hover
    page.goto(server_url + "/")
    bot = page.locator(f"#running .game-item[data-game='{view['game_id']}'] .player.bot")
    assert bot.inner_text() == "Medium bot" and bot.get_attribute("title") == medium
    page.close()


def test_play_now_opens_a_logged_in_players_own_seat(browser: Any, server_url: str) -> None:
    page = signed_up(browser, server_url, "Nefer")
    lobby(browser, server_url, page)
    page.click(".game-card[data-game='egyptia'] .play-now")
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))  # the account's seat: no token
    page.wait_for_selector("#board svg")
    view = seat_view(page, server_url)
    assert (
        view["seat"] == 0 and view["players"][0]["name"] == "Nefer" and view["players"][0]["held"]
    )
    assert [p["bot"]["level"] for p in view["players"][1:]] == ["medium", "medium"]
    assert [p["name"] for p in view["players"][1:]] == ["Medium bot 1", "Medium bot 2"]
    page.close()


def test_the_form_lands_in_the_game_against_bots_and_shows_links_for_people(
    browser: Any, server_url: str
) -> None:
    page = signed_up(browser, server_url, "Hapi")
    lobby(browser, server_url, page)
    page.click("#more-options summary")
    page.select_option("#game", "amunre")
    page.select_option("#players", "3")
    levels = page.locator(".seat-row .level")
    # bot seats start at Medium, not Expert
    for i in range(1, 3):
        assert levels.nth(i).evaluate("s => s.selectedOptions[0].dataset.level") == "medium"
    page.click("#create")
    page.wait_for_url(re.compile(r"/games/[A-Za-z0-9_-]+$"))
    page.wait_for_selector("#board svg")
    view = seat_view(page, server_url)
    assert view["seat"] == 0 and [p["kind"] for p in view["players"]] == ["human", "bot", "bot"]
    # with a person to invite, the links stay in the lobby
    lobby(browser, server_url, page)
    page.select_option("#game", "aton")
    page.locator(".seat-row .kind").nth(1).select_option("human")
    page.click("#create")
    page.wait_for_selector("#created:not([hidden]) #links .seat-link")
    assert page.url.rstrip("/") == server_url
    assert page.locator("#links .seat-link").count() == 2
    page.close()

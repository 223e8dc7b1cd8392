"""Quick match in Chromium (the lobby's panel, quickmatch.js): two people who ask for a quick
Aton match at once are paired and both land on the same game, each in their own seat; a
third asks, waits, and takes bots at their level once the wait is over. The waiting state
comes back when the lobby is reloaded, Cancel leaves the queue, a guest is told that quick
match needs an account, and a refusal (the queue full) is told in the server's own words."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from i18n.pseudo import stray_words
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.templates import Templates

from .conftest import running
from .test_accessibility import axe_script, report, violations
from .test_leaderboard import api, signed_up
from .test_lobby_cards import seat_view

#: A game page's own address for an account: its session opens the seat (no token).
OWN_GAME = re.compile(r"/games/([A-Za-z0-9_-]+)$")
#: Seconds before bots are offered (the site's default is 30).
BOTS_AFTER = 2

Server = Callable[..., str]


@pytest.fixture
def quick_server(tmp_path: Path, templates: Templates) -> Iterator[Server]:
    """Starts a server with the given quick-match settings (no bots playing the day's game)."""
    with contextlib.ExitStack() as servers:

        def start(**settings: Any) -> str:
            database = templates.sqlite(tmp_path / "quick.sqlite3")
            app = create_app(
                database, bot_workers=0, settings=ServerSettings(daily_bots="", **settings)
            )
            return servers.enter_context(running(app))

        yield start


def open_lobby(page: Any, server_url: str, query: str = "") -> None:
    page.goto(server_url + "/" + query)
    page.wait_for_selector(".game-card .play-now")
    page.wait_for_selector(
        "#quickmatch-form:not([hidden]), #quickmatch-waiting:not([hidden]),"
        " #quickmatch-guest:not([hidden])"
    )


def find(page: Any, game: str, players: int | None = None) -> None:
    page.select_option("#quickmatch-game", game)
    if players is not None:
        page.select_option("#quickmatch-players", str(players))
    page.click("#quickmatch-find")


def ticket_of(page: Any) -> dict[str, Any] | None:
    answer = api(page, "GET", "/api/quickmatch", None)
    assert answer["status"] == 200, answer
    found: dict[str, Any] | None = answer["body"]["ticket"]
    return found


def watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(str(exc)))


def test_two_are_paired_and_a_third_takes_bots(browser: Any, quick_server: Server) -> None:
    server_url = quick_server(quickmatch_bots_after_seconds=BOTS_AFTER)
    ana, bek, cem = (signed_up(browser, server_url, name) for name in ("Ana", "Bek", "Cem"))
    errors: list[str] = []
    for page in (ana, bek, cem):
        watch_errors(page, errors)
    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}

    # the panel: a game (Aton has one table size, said beside its name) and the button
    open_lobby(ana, server_url)
    assert ana.locator("#quickmatch-guest").is_hidden()
    options = ana.locator("#quickmatch-game option").all_inner_texts()
    assert options == ["Amun-Re (3-5 players)", "Aton (2 players)", "Egyptia (2-5 players)"]
    assert ana.locator("#quickmatch-players-label").is_visible()  # Amun-Re first: 3 to 5
    assert ana.locator("#quickmatch-players option").all_inner_texts() == [
        "3 players",
        "4 players",
        "5 players",
    ]
    ana.select_option("#quickmatch-game", "aton")
    assert ana.locator("#quickmatch-players-label").is_hidden()
    assert ana.inner_text("#quickmatch-find") == "Find me a game"
    found["the form"] = violations(ana, script)

    # Ana waits: the time, nobody else yet, Cancel (focused: the form has gone)
    ana.click("#quickmatch-find")
    ana.wait_for_selector("#quickmatch-waiting:not([hidden])")
    assert ana.locator("#quickmatch-form").is_hidden()
    assert ana.inner_text("#quickmatch-state") == "Looking for a game of Aton with 2 players."
    assert ana.inner_text("#quickmatch-queue") == "Nobody else waits for this table yet."
    assert re.fullmatch(r"Waiting for 0:0\d", ana.inner_text("#quickmatch-waited"))
    assert ana.evaluate("document.activeElement.id") == "quickmatch-cancel"
    assert ana.get_attribute("#quickmatch-status", "aria-live") == "polite"
    assert ana.get_attribute("#quickmatch-waited", "role") == "timer"
    # the lobby reloaded: the wait is found again (the server keeps the ticket)
    open_lobby(ana, server_url)
    ana.wait_for_selector("#quickmatch-waiting:not([hidden])")
    assert ana.input_value("#quickmatch-game") == "aton"
    assert ana.inner_text("#quickmatch-state") == "Looking for a game of Aton with 2 players."

    # Bek asks for the same: the table is full, the game starts, both land in it
    open_lobby(bek, server_url)
    find(bek, "aton")
    ana.wait_for_url(OWN_GAME, timeout=20_000)
    bek.wait_for_url(OWN_GAME, timeout=20_000)
    ana_game, bek_game = (OWN_GAME.search(page.url) for page in (ana, bek))
    assert ana_game and bek_game and ana_game.group(1) == bek_game.group(1)
    for page in (ana, bek):
        page.wait_for_selector("#board svg")
    seats = {}
    for name, page in (("Ana", ana), ("Bek", bek)):
        view = seat_view(page, server_url)
        assert view["game"] == "aton" and view["seat"] is not None
        assert {p["name"] for p in view["players"]} == {"Ana", "Bek"}
        assert view["players"][view["seat"]]["name"] == name  # each in their own seat
        seats[name] = view["seat"]
    assert sorted(seats.values()) == [0, 1]
    ticket = ticket_of(ana)
    assert ticket and ticket["status"] == "matched" and ticket["game_id"] == ana_game.group(1)
    # back in the lobby: the game is linked (it is still to play), nothing is asked again
    open_lobby(ana, server_url)
    ana.wait_for_selector("#quickmatch-game-link:not([hidden])")
    assert ana.get_attribute("#quickmatch-go", "href") == f"/games/{ana_game.group(1)}"
    assert ana.inner_text("#quickmatch-state") == "Your quick match of Aton has started."
    assert ana.url.rstrip("/") == server_url
    # the notification links the game too
    notes = api(ana, "GET", "/api/notifications", None)["body"]["notifications"]
    assert any(n["link"] == f"/games/{ana_game.group(1)}" for n in notes)

    # Cem asks, waits, and takes bots once the wait is over
    open_lobby(cem, server_url)
    find(cem, "aton")
    cem.wait_for_selector("#quickmatch-waiting:not([hidden])")
    if cem.locator("#quickmatch-bots").is_hidden():  # (a slow machine may be past it)
        assert re.fullmatch(
            r"Bots are offered in [12] seconds?\.", cem.inner_text("#quickmatch-bots-in")
        )
    cem.wait_for_selector("#quickmatch-bots:not([hidden])", timeout=10_000)
    assert cem.inner_text("#quickmatch-bots") == (
        "Play now with bots (Medium: rules of thumb, instant)"
    )
    assert cem.inner_text("#quickmatch-offer") == (
        "The wait is over: you may play now with bots of your level, or keep waiting."
    )
    assert cem.locator("#quickmatch-bots-in").is_hidden()
    found["waiting, bots offered"] = violations(cem, script)
    # a refusal stays in its line (the looks every second or two do not wipe it)
    refusal = {"error": "you have waited 1 s: bots are offered after 2 s"}
    cem.route(
        "**/api/quickmatch/bots",
        lambda route: route.fulfill(
            status=409, content_type="application/json", body=json.dumps(refusal)
        ),
    )
    cem.click("#quickmatch-bots")
    cem.wait_for_selector("#quickmatch-error:not(:empty)")
    cem.wait_for_timeout(2_000)
    assert cem.inner_text("#quickmatch-error") == refusal["error"]
    assert cem.locator("#quickmatch-waiting").is_visible()
    cem.unroute("**/api/quickmatch/bots")
    cem.focus("#quickmatch-bots")
    cem.keyboard.press("Enter")  # the keyboard is enough
    cem.wait_for_url(OWN_GAME, timeout=20_000)
    cem.wait_for_selector("#board svg")
    view = seat_view(cem, server_url)
    assert view["game"] == "aton" and view["players"][view["seat"]]["name"] == "Cem"
    assert [p["kind"] for p in view["players"]].count("bot") == 1
    bot = next(p for p in view["players"] if p["kind"] == "bot")
    assert bot["bot"]["level"] == "medium"
    ticket = ticket_of(cem)
    assert ticket and ticket["status"] == "bots"
    assert not any(found.values()), report(found)
    assert not errors, errors


def test_a_guest_is_told_to_log_in(browser: Any, quick_server: Server) -> None:
    server_url = quick_server()
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    watch_errors(page, errors)
    open_lobby(page, server_url)
    guest = page.locator("#quickmatch-guest")
    assert guest.is_visible()
    assert "Quick match needs an account" in guest.inner_text()
    assert guest.locator("a").get_attribute("href") == "/account?next=/"
    assert page.locator("#quickmatch-form").is_hidden()
    assert page.locator("#quickmatch-waiting").is_hidden()
    found = {"a guest": violations(page, axe_script())}
    assert not any(found.values()), report(found)
    # every word of the panel goes through the catalogues (the pseudo-locale brackets it)
    open_lobby(page, server_url, "?lang=xx")
    assert not stray_words(page.inner_text("#quickmatch-panel"))
    page.click("#quickmatch-guest a")
    page.wait_for_url(re.compile(r"/account\?next=/$"))
    assert not errors, errors


def test_a_refusal_is_told_and_cancel_leaves_the_queue(browser: Any, quick_server: Server) -> None:
    server_url = quick_server(quickmatch_queue=1)
    ana, bek = (signed_up(browser, server_url, name) for name in ("Ana", "Bek"))
    errors: list[str] = []
    for page in (ana, bek):
        watch_errors(page, errors)
    open_lobby(ana, server_url)
    find(ana, "amunre", 4)
    ana.wait_for_selector("#quickmatch-waiting:not([hidden])")
    assert ana.inner_text("#quickmatch-state") == "Looking for a game of Amun-Re with 4 players."
    ticket = ticket_of(ana)
    assert ticket and (ticket["game"], ticket["players"]) == ("amunre", 4)

    # the queue holds one ticket: Bek is refused, in the server's words
    open_lobby(bek, server_url)
    find(bek, "amunre", 4)
    bek.wait_for_selector("#quickmatch-error:not(:empty)")
    said = bek.inner_text("#quickmatch-error")
    refused = api(bek, "POST", "/api/quickmatch", {"game": "amunre", "players": 4})
    assert refused["status"] == 429 and said == refused["body"]["error"] and "full" in said
    assert bek.get_attribute("#quickmatch-error", "role") == "alert"
    assert bek.locator("#quickmatch-form").is_visible()  # never a blank panel
    assert bek.locator("#quickmatch-waiting").is_hidden()
    found = {"a refusal": violations(bek, axe_script())}

    # Ana leaves the queue: the form is back, and Bek's place is free
    ana.click("#quickmatch-cancel")
    ana.wait_for_selector("#quickmatch-form:not([hidden])")
    assert ana.inner_text("#quickmatch-state") == "You left the queue."
    assert ana.evaluate("document.activeElement.id") == "quickmatch-find"
    ticket = ticket_of(ana)
    assert ticket and ticket["status"] == "cancelled"
    bek.click("#quickmatch-find")
    bek.wait_for_selector("#quickmatch-waiting:not([hidden])")
    assert bek.inner_text("#quickmatch-error") == ""

    # a server that does not answer: said in a line, and the wait goes on once it is back
    bek.route(re.compile(r"/api/quickmatch$"), lambda route: route.abort())
    bek.wait_for_selector("#quickmatch-error:not(:empty)")
    assert bek.inner_text("#quickmatch-error") == (
        "The server did not answer; try again in a moment."
    )
    assert bek.locator("#quickmatch-waiting").is_visible()
    bek.unroute(re.compile(r"/api/quickmatch$"))
    bek.wait_for_selector("#quickmatch-error:empty", state="attached")
    assert bek.locator("#quickmatch-waiting").is_visible()

    # in the pseudo-locale every word of the waiting panel is bracketed
    open_lobby(bek, server_url, "?lang=xx")
    bek.wait_for_selector("#quickmatch-waiting:not([hidden])")
    assert not stray_words(bek.inner_text("#quickmatch-panel"))
    assert not any(found.values()), report(found)
    assert not errors, errors

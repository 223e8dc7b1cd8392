"""Tournaments in Chromium (/tournaments and /tournaments/<id>): a logged-in player creates
an eight-player Swiss tournament of Aton with easy bots in the page, joins and starts it;
their games are played through the API with random legal moves (the bots play their own)
while the server moves the rounds on by itself, and the page ends showing the tournament
finished, its eight standings and three rounds of four linked games. A guest sees the list
without the form; the server's refusals are shown in a line of their own."""

from __future__ import annotations

import re
import time
from typing import Any

from i18n.pseudo import stray_words
from karnak.core import Rng
from support.tournaments import move_in_each_game

from .test_accessibility import axe_script, report, violations
from .test_daily_page import session_client
from .test_leaderboard import signed_up

TOURNAMENT_PAGE = re.compile(r"/tournaments/([A-Za-z0-9_-]+)$")


def play_to_the_end(server_url: str, page: Any, tournament_id: str, seed: int = 1) -> None:
    """Random legal moves for the player's seats until the tournament is over (the server
    ticks every few seconds by itself: results, then the next round)."""
    rng = Rng(seed)
    deadline = time.monotonic() + 300
    with session_client(server_url, page) as client:
        while time.monotonic() < deadline:
            found = client.get(f"/api/tournaments/{tournament_id}").json()
            if found["status"] in ("finished", "cancelled"):
                assert found["status"] == "finished", found
                return
            if not move_in_each_game(client, found, rng):
                time.sleep(0.1)
    raise AssertionError("the tournament did not finish")


def create_in_page(
    page: Any,
    server_url: str,
    name: str,
    *,
    pace: str = "",
    timer: str = "",
    invite: bool = False,
    **fields: str,
) -> str:
    """Create a tournament with the page's form (``pace``: the option's value, "" for no
    clock, "timer" with ``timer`` seconds, "speed:<name>"); its id."""
    page.goto(server_url + "/tournaments")
    page.wait_for_selector("#create-panel:not([hidden])")
    page.fill("#t-name", name)
    page.select_option("#t-game", fields.get("game", "aton"))
    page.fill("#t-rounds", fields.get("rounds", "3"))  # before a knockout format hides it
    page.select_option("#t-format", fields.get("format", "swiss"))
    page.fill("#t-players", fields.get("players", "8"))
    page.select_option("#t-bots", fields.get("bots", "easy"))
    page.select_option("#t-pace", pace)
    if timer:
        page.fill("#t-timer", timer)
    page.set_checked("#t-invite", invite)
    page.click("#create")
    page.wait_for_url(TOURNAMENT_PAGE)
    found = TOURNAMENT_PAGE.search(page.url)
    assert found
    page.wait_for_selector("#about-panel:not([hidden])")
    return found.group(1)


def test_an_eight_player_swiss_aton_tournament_runs_to_the_end_with_bots(
    browser: Any, tournament_server: str
) -> None:
    server_url = tournament_server
    script = axe_script()
    found_violations: dict[str, list[dict[str, Any]]] = {}
    page = signed_up(browser, server_url, "Hatshepsut")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    page.goto(server_url + "/tournaments")
    page.wait_for_selector("#create-panel:not([hidden])")
    found_violations["list with form"] = violations(page, script)
    # an elimination has no rounds to choose; pools are for games of three and more
    page.select_option("#t-game", "aton")
    page.select_option("#t-format", "elimination")
    assert page.is_hidden("#rounds-line")
    page.select_option("#t-game", "amunre")
    assert page.eval_on_selector_all("#t-format option", "os => os.map(o => o.value)") == ["pools"]

    tournament_id = create_in_page(page, server_url, "Friday cup")
    assert page.inner_text("#title") == "Friday cup"
    assert page.get_attribute("#status", "data-status") == "open"
    assert page.is_visible("#start") and page.is_visible("#join")
    page.click("#join")
    page.wait_for_selector("#leave:not([hidden])")
    page.wait_for_selector("#players li >> text=Hatshepsut")
    found_violations["open"] = violations(page, script)
    page.click("#start")
    page.wait_for_selector("#status[data-status=running]")
    assert page.is_hidden("#start") and page.is_hidden("#join") and page.is_hidden("#leave")
    page.wait_for_selector("#players li:nth-child(8)")
    page.wait_for_selector(".round[data-round='1'] li:nth-child(4)")
    found_violations["running"] = violations(page, script)

    play_to_the_end(server_url, page, tournament_id)
    page.wait_for_selector("#status[data-status=finished]", timeout=20_000)
    assert "finished" in page.inner_text("#status")
    assert page.locator("#standings tbody tr").count() == 8
    assert page.locator("#standings th[scope=col]").all_inner_texts()[-1] == "Buchholz"
    assert page.locator("#schedule .round").count() == 3
    for number in (1, 2, 3):
        games = page.locator(f".round[data-round='{number}'] li")
        assert games.count() == 4
        assert page.locator(f".round[data-round='{number}'] li a.game-link").count() == 4
        assert page.locator(f".round[data-round='{number}'] li .winner").count() >= 0
    href = page.get_attribute(".round[data-round='1'] li a.game-link", "href")
    assert href and href.startswith("/games/")
    found_violations["finished"] = violations(page, script)

    # the list shows it, finished, after the open ones
    second = create_in_page(page, server_url, "Saturday cup", players="2", bots="")
    page.goto(server_url + "/tournaments")
    page.wait_for_selector("#list tbody tr:nth-child(2)")
    rows = page.locator("#list tbody tr")
    assert rows.nth(0).get_attribute("data-status") == "open"
    assert rows.nth(1).get_attribute("data-status") == "finished"

    # someone else cannot start it: the server's words are shown (a stale page's button)
    other = signed_up(browser, server_url, "Nefertiti")
    other.on("pageerror", lambda exc: errors.append(str(exc)))
    other.goto(f"{server_url}/tournaments/{second}")
    other.wait_for_selector("#join:not([hidden])")
    assert other.is_hidden("#start")
    other.eval_on_selector("#start", "b => { b.hidden = false; }")
    other.click("#start")
    other.wait_for_selector("#action-error:not(:empty)")
    assert other.inner_text("#action-error") == "only its creator starts a tournament"

    # a refused creation is told too
    page.goto(server_url + "/tournaments")
    page.wait_for_selector("#create-panel:not([hidden])")
    page.fill("#t-name", "Too late")
    page.fill("#t-starts", "2000-01-01T00:00")
    page.click("#create")
    page.wait_for_selector("#create-error:not(:empty)")
    assert "not in the past" in page.inner_text("#create-error")

    # a guest sees the list without the form
    guest = browser.new_page()
    guest.on("pageerror", lambda exc: errors.append(str(exc)))
    guest.goto(server_url + "/tournaments")
    guest.wait_for_selector("#list tbody tr:nth-child(2)")
    assert guest.is_hidden("#create-panel") and guest.is_visible("#guest-note")
    found_violations["guest list"] = violations(guest, script)
    guest.goto(f"{server_url}/tournaments/{tournament_id}")
    guest.wait_for_selector("#status[data-status=finished]")
    assert guest.is_hidden("#join") and guest.is_hidden("#start")
    guest.goto(f"{server_url}/tournaments/nosuchthing")
    guest.wait_for_selector("#tournament-error:not(:empty)")
    assert guest.inner_text("#tournament-error")

    # every word of the pages is translated (the pseudo-locale brackets each): names, game
    # titles, dates and the bots' levels are not texts of the site
    for path in (f"/tournaments/{tournament_id}", "/tournaments"):
        page.goto(f"{server_url}{path}?lang=xx")
        page.wait_for_selector("#list tbody tr, #standings tbody tr")
        names = page.locator(
            "#players li, #list tbody th, time, #title, #t-game option, #t-bots option"
        ).all_inner_texts()
        words = [word.strip(".,:;()") for text in names for word in text.split()]
        extra = frozenset(words) | {"Aton", "Karnak"}
        assert not stray_words(page.inner_text("main") + " " + page.title(), extra), path
    page.goto(f"{server_url}/tournaments?lang=en")

    assert not any(found_violations.values()), report(found_violations)
    assert not errors, errors

"""The game page's clocks and departures in Chromium: every seat's bank for everyone, the
seat's own warning when its time runs low, "Leave the game" with its confirm step, and the
seat a bot took over (left, or out of time) marked on every page, live.

The server runs in this process, so the tests move its clock (karnak.server.timebank.clock.
now) instead of waiting for days; the page counts with the browser's real clock.
"""

from __future__ import annotations

import re
import time
from typing import Any

import httpx2 as httpx
import pytest

import karnak.server.timebank.clock as clock_module
import karnak.server.timebank.service as timebank_service
from karnak.server.timebank.clock import DAY, MINUTE

ROWS = "#time-seats .time-seat"


def shift_clock(monkeypatch: pytest.MonkeyPatch, by: list[float]) -> None:
    """The server's clock: the real time plus ``by[0]`` seconds (changed by the test)."""
    monkeypatch.setattr(clock_module, "now", lambda: time.time() + by[0])


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#connection.live")
    page.wait_for_selector("#time-panel", state="attached")
    return page


def rows(page: Any) -> list[str]:
    return [" ".join(text.split()) for text in page.locator(ROWS).all_inner_texts()]


def create(server_url: str, control: dict[str, float]) -> tuple[str, list[str], int]:
    created = httpx.post(
        f"{server_url}/api/games",
        json={
            "game": "amunre",
            "seats": [{"name": "Ana"}, {"name": "Bes"}, {"name": "Ka"}],
            "seed": 5,
            "time_control": control,
        },
    ).json()
    game_id = created["id"]
    to_move = httpx.get(f"{server_url}/api/games/{game_id}").json()["to_move"]
    assert len(to_move) == 1
    return game_id, [seat["token"] for seat in created["seats"]], to_move[0]


def test_the_page_shows_every_clock_and_leaving_asks_first(
    browser: Any, server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the game began almost four days ago: its first mover has half an hour left
    shift = [-(4 * DAY - 30 * MINUTE)]
    shift_clock(monkeypatch, shift)
    game_id, tokens, first = create(server_url, {"per_move": DAY, "bank": 3 * DAY})
    names = ["Ana", "Bes", "Ka"]
    leaver = (first + 1) % 3
    errors: list[str] = []
    base = f"{server_url}/games/{game_id}"
    mover = open_page(browser, f"{base}?token={tokens[first]}", errors)
    other = open_page(browser, f"{base}?token={tokens[leaver]}", errors)
    spectator = open_page(browser, base, errors)

    # every page shows every clock (public), the rule, and the time left of the seat to move
    for page in (mover, other, spectator):
        assert page.inner_text("#time-heading") == "Clocks"
        assert "1 day a move, then a bank of 3 days" in page.inner_text("#time-rule")
        shown = rows(page)
        assert len(shown) == 3
        for seat, line in enumerate(shown):
            assert line.startswith(str(seat + 1) + names[seat]) or names[seat] in line
            if seat == first:
                assert re.search(r"to move: (30 min|29 min \d+ s) left", line), line
                assert re.search(r"bank (30 min|29 min \d+ s)", line), line
            else:
                assert "to move" not in line and line.endswith("bank 3 days"), line
    # the seat to move is warned on its own page only
    own = mover.locator(f"{ROWS}[data-seat='{first}']")
    assert "urgent" in (own.get_attribute("class") or "") and "(you)" in own.inner_text()
    assert mover.is_visible("#time-warning")
    assert "Your time runs low" in mover.inner_text("#time-warning")
    assert "a bot takes your seat" in mover.inner_text("#time-warning")
    assert not other.is_visible("#time-warning") and not spectator.is_visible("#time-warning")
    # the countdown in the banner is the seat's own
    assert mover.is_visible("#clock") and not spectator.is_visible("#clock")

    # a spectator cannot leave; a seat can, after confirming
    assert not spectator.is_visible("#leave-game")
    other.click("#leave-game")
    assert "for good" in other.inner_text("#leave-question")
    assert other.evaluate("() => document.activeElement.id") == "leave-cancel"
    other.click("#leave-cancel")  # changed its mind: nothing was sent
    assert other.is_visible("#leave-game") and not other.is_visible("#leave-question")
    assert not httpx.get(f"{server_url}/api/games/{game_id}").json()["players"][leaver]["replaced"]
    other.click("#leave-game")
    other.click("#leave-confirm")
    # the page that left becomes a spectator's (its link opens nothing any more)
    other.wait_for_url(re.compile(rf"/games/{game_id}$"))
    other.wait_for_selector("#time-panel")
    assert "spectator" in other.inner_text("#status")
    assert not other.is_visible("#leave-game")

    # everyone sees the seat the bot took over, live, and the log says it
    for page in (other, mover, spectator):
        row = page.locator(f"{ROWS}[data-seat='{leaver}']")
        row.wait_for()
        page.wait_for_function(
            f"() => document.querySelector(\"{ROWS}[data-seat='{leaver}']\")"
            "?.dataset.left === 'left'"
        )
        assert "left the game: a bot plays here" in row.inner_text()
        assert "replaced" in (row.get_attribute("class") or "")
        page.wait_for_function(
            "() => [...document.querySelectorAll('#log li')]"
            f".some((li) => li.textContent.includes('{names[leaver]} left the game'))"
        )
    stale = httpx.get(f"{server_url}/api/games/{game_id}", params={"token": tokens[leaver]})
    assert stale.status_code == 403
    assert errors == []


def test_a_seat_whose_time_runs_out_is_marked_on_every_page(
    browser: Any, server_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shift = [0.0]
    shift_clock(monkeypatch, shift)
    monkeypatch.setattr(timebank_service, "MAX_SLEEP", 0.2)  # the timer looks at the clock often
    game_id, tokens, first = create(server_url, {"per_move": MINUTE, "bank": 0})
    waiting = (first + 1) % 3
    errors: list[str] = []
    base = f"{server_url}/games/{game_id}"
    late = open_page(browser, f"{base}?token={tokens[first]}", errors)
    other = open_page(browser, f"{base}?token={tokens[waiting]}", errors)
    assert re.search(r"to move: (1 min|\d+ s) left", rows(other)[first])
    shift[0] = MINUTE + 1  # the minute is gone
    for page in (other, late):
        page.wait_for_function(
            f"() => document.querySelector(\"{ROWS}[data-seat='{first}']\")"
            "?.dataset.left === 'timeout'",
            timeout=20_000,
        )
    assert "time ran out: a bot plays here" in rows(other)[first]
    other.wait_for_function(
        "() => [...document.querySelectorAll('#log li')]"
        ".some((li) => li.textContent.includes('time ran out'))"
    )
    # the page of the seat that ran out still shows the game, as a spectator's would, until
    # it is opened again: then its link opens nothing
    stale = httpx.get(f"{server_url}/api/games/{game_id}", params={"token": tokens[first]})
    assert stale.status_code == 403 and "bot plays it now" in stale.json()["error"]
    assert errors == []


def test_without_a_time_control_a_seat_still_may_leave(browser: Any, server_url: str) -> None:
    created = httpx.post(
        f"{server_url}/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
    ).json()
    base = f"{server_url}/games/{created['id']}"
    errors: list[str] = []
    seat = open_page(browser, f"{base}?token={created['seats'][0]['token']}", errors)
    assert seat.inner_text("#time-heading") == "Your seat"
    assert not seat.is_visible("#time-rule") and rows(seat) == []
    assert seat.is_visible("#leave-game")
    spectator = open_page(browser, base, errors)
    assert not spectator.is_visible("#time-panel")  # nothing to show a spectator
    assert errors == []


def test_the_lobby_creates_a_game_with_a_time_bank(browser: Any, server_url: str) -> None:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url)
    page.wait_for_selector("#game option", state="attached")
    page.click("#more-options summary")  # the full form is folded (issue 33)
    page.select_option("#turn-timer", "60")
    page.select_option("#time-control", "86400,259200")
    assert page.input_value("#turn-timer") == ""  # one or the other
    page.click("#create")
    # against bots alone the lobby opens the player's seat at once
    page.wait_for_url(re.compile(r"/games/[^?]+\?token="))
    game_id = page.url.split("/games/")[1].split("?")[0]
    seen = httpx.get(f"{server_url}/api/games/{game_id}").json()
    assert seen["time_control"] == {"per_move": DAY, "bank": 3 * DAY}
    assert seen["turn_timer"] is None
    page.goto(server_url)
    page.wait_for_selector("#game option", state="attached")  # "More options" stays open
    page.select_option("#time-control", "86400,259200")
    page.select_option("#turn-timer", "180")
    assert page.input_value("#time-control") == ""
    assert errors == []


def test_an_open_table_from_the_lobby_keeps_its_time_bank(browser: Any, server_url: str) -> None:
    """Turn-based play begins at open tables: the lobby sends the time bank with the table,
    the list and the table's page say how fast it plays, and its game has the clocks."""
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url)
    page.wait_for_selector("#game option[value='aton']", state="attached")
    page.click("#more-options summary")  # the full form is folded (issue 33)
    page.select_option("#game", "aton")
    page.select_option('.seat-row[data-seat="1"] .kind', "open")
    page.select_option("#time-control", "86400,259200")
    page.click("#create")
    page.wait_for_selector("#table-title")
    assert "1 day a move + a bank of 3 days" in page.inner_text("#table-body")
    table_id = page.url.rsplit("/", 1)[1]
    listed = httpx.get(f"{server_url}/api/tables").json()
    assert listed[0]["id"] == table_id
    assert listed[0]["time_control"] == {"per_move": DAY, "bank": 3 * DAY}
    other = browser.new_page()
    other.goto(server_url)
    item = f'.table-item[data-table="{table_id}"]'
    other.wait_for_selector(item)
    assert "1 day a move + a bank of 3 days" in other.inner_text(item)
    other.fill(f"{item} .guest-name", "Bes")
    other.click(f"{item} .table-join")
    other.wait_for_url(re.compile(r".*/games/.*token=.*"), timeout=15_000)
    game_id = other.url.split("/games/", 1)[1].split("?")[0]
    seen = httpx.get(f"{server_url}/api/games/{game_id}").json()
    assert seen["time_control"] == {"per_move": DAY, "bank": 3 * DAY}
    assert all(p["clock"]["bank"] == 3 * DAY for p in seen["players"])
    other.wait_for_selector("#clock:not([hidden])")
    other.wait_for_function("() => document.querySelector('#clock').textContent.includes(' d ')")
    assert "a bot plays your seat" in (other.get_attribute("#clock", "data-tip") or "")
    assert errors == []

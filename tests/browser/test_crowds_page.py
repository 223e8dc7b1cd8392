"""Crowd tables in Chromium (the lobby's panel, crowds.js): the journey "a crowd table starts
on time with people and bots". Two accounts join the next crowd in the lobby (Join, Leave,
Join again, the count follows); the crowd starts (its clock moved on, not an hour waited);
both reach the game through the panel's "Open your game"; one moves, the other does not and
the bot plays their step when the timer runs out. A guest sees the server's own hourly crowd
and that joining needs an account; joining a crowd that has started is refused in the
server's words. At a crowd's game page (more than CROWD_SEATS seats) the other builders are
one compact list, and a builder's sheet is fetched when opened."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from i18n.pseudo import stray_words
from karnak.server.app import create_app
from karnak.server.crowds.service import CrowdService
from karnak.server.limits import ServerSettings
from karnak.server.views import CROWD_SEATS
from support.templates import Templates

from .conftest import running
from .test_accessibility import axe_script, report, violations
from .test_leaderboard import api, signed_up
from .test_lobby_cards import seat_view

#: A game page's own address for an account: its session opens the seat (no token).
OWN_GAME = re.compile(r"/games/([A-Za-z0-9_-]+)$")
UTC = dt.UTC

Server = Callable[..., tuple[str, Any]]


@pytest.fixture
def crowd_server(tmp_path: Path, templates: Templates) -> Iterator[Server]:
    """Starts a server with the given settings (no bots playing the day's game): its
    address and its app (whose crowd service the test drives)."""
    with contextlib.ExitStack() as servers:

        def start(**settings: Any) -> tuple[str, Any]:
            database = templates.sqlite(tmp_path / "crowds.sqlite3")
            app = create_app(
                database, bot_workers=0, settings=ServerSettings(daily_bots="", **settings)
            )
            return servers.enter_context(running(app)), app

        yield start


def crowds_of(app: Any) -> CrowdService:
    crowds: CrowdService = app.state.crowds
    return crowds


def start_at(app: Any, moment: dt.datetime) -> None:
    """The crowds' clock moved on to ``moment`` (the real clock ticking on from there), and
    one turn of the timetable on the server's own loop: what is due starts now."""
    crowds = crowds_of(app)
    shift = moment - dt.datetime.now(UTC)
    crowds.clock = lambda: dt.datetime.now(UTC) + shift
    loop = crowds._ticker._task.get_loop()  # the loop its ticker runs on (karnak.server.ticker)
    asyncio.run_coroutine_threadsafe(crowds.tick(), loop).result(timeout=60)


def open_lobby(page: Any, server_url: str, query: str = "") -> None:
    page.goto(server_url + "/" + query)
    page.wait_for_selector(".game-card .play-now")
    page.wait_for_selector("#crowds-list .crowd")


def crowd(page: Any, index: int) -> Any:
    return page.locator("#crowds-list .crowd").nth(index)


def watch_errors(page: Any, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(str(exc)))


def listed(page: Any) -> list[dict[str, Any]]:
    answer = api(page, "GET", "/api/crowds", None)
    assert answer["status"] == 200, answer
    crowds: list[dict[str, Any]] = answer["body"]["crowds"]
    return crowds


def test_a_crowd_table_starts_on_time_with_people_and_bots(
    browser: Any, crowd_server: Server
) -> None:
    server_url, app = crowd_server(crowd_every_minutes=0)
    crowds = crowds_of(app)
    now = dt.datetime.now(UTC)
    first, _ = crowds.store.schedule("egyptia", now + dt.timedelta(minutes=10), 9, 8.0, None, now)
    crowds.store.schedule("egyptia", now + dt.timedelta(minutes=70), 99, 60.0, None, now)
    ana, bek = (signed_up(browser, server_url, name) for name in ("Ana", "Bek"))
    errors: list[str] = []
    for page in (ana, bek):
        watch_errors(page, errors)
    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}

    # the panel: the next crowds, soonest first, each with its start, countdown and timer
    open_lobby(ana, server_url)
    assert ana.locator("#crowds-guest").is_hidden()
    assert ana.locator("#crowds-list .crowd").count() == 2
    soon = crowd(ana, 0)
    assert soon.locator("h3").inner_text() == "Egyptia crowd table"
    assert re.fullmatch(
        r"Starts at .+ your time \(\d\d:\d\d UTC\)", soon.locator(".crowd-when").inner_text()
    )
    assert first.starts_at.strftime("%H:%M UTC") in soon.locator(".crowd-when").inner_text()
    assert re.fullmatch(
        r"Starts in (9:[0-5]\d|10:00)", soon.locator(".crowd-countdown").inner_text()
    )
    assert soon.locator(".crowd-countdown").get_attribute("role") == "timer"
    assert soon.locator(".crowd-members").inner_text() == "0 players have joined, of 9 seats"
    assert soon.locator(".crowd-members").get_attribute("aria-live") == "polite"
    assert soon.locator(".crowd-timer").inner_text() == (
        "Turn timer: 8 seconds a step; a bot plays the step of whoever misses it"
    )
    later = crowd(ana, 1)
    assert later.locator(".crowd-members").inner_text() == "0 players have joined, of 99 seats"
    assert later.locator(".crowd-timer").inner_text() == (
        "Turn timer: a minute a step; a bot plays the step of whoever misses it"
    )
    found["the list"] = violations(ana, script)

    # Ana joins, leaves (by the keyboard: the button keeps the focus) and joins again
    join = soon.locator(".crowd-join")
    assert join.inner_text() == "Join"
    join.click()
    ana.wait_for_function(
        "() => document.querySelector('#crowds-list .crowd .crowd-join').textContent === 'Leave'"
    )
    assert soon.locator(".crowd-members").inner_text() == "1 player has joined, of 9 seats"
    assert ana.inner_text("#crowds-state") == "You joined the Egyptia crowd table."
    assert soon.locator(".crowd-joined").inner_text().startswith("You have joined")
    join.focus()
    ana.keyboard.press("Enter")
    ana.wait_for_function(
        "() => document.querySelector('#crowds-list .crowd .crowd-join').textContent === 'Join'"
    )
    assert soon.locator(".crowd-members").inner_text() == "0 players have joined, of 9 seats"
    assert ana.inner_text("#crowds-state") == "You left the Egyptia crowd table."
    assert ana.evaluate("document.activeElement.textContent") == "Join"
    ana.keyboard.press("Enter")
    ana.wait_for_function(
        "() => document.querySelector('#crowds-list .crowd .crowd-join').textContent === 'Leave'"
    )
    found["joined"] = violations(ana, script)

    # Bek joins too: two of nine
    open_lobby(bek, server_url)
    crowd(bek, 0).locator(".crowd-join").click()
    bek.wait_for_function(
        "() => document.querySelector('#crowds-list .crowd .crowd-members')"
        ".textContent.startsWith('2 players')"
    )
    assert [c["members"] for c in listed(ana)] == [2, 0]
    assert [c["joined"] for c in listed(ana)] == [True, False]

    # the start, without waiting: each member's panel links the game (the notification)
    start_at(app, first.starts_at + dt.timedelta(seconds=1))
    started = crowds.store.load(first.id)
    assert started is not None and started.status == "started" and started.game_id
    for page in (ana, bek):
        page.wait_for_selector("#crowds-game-link:not([hidden])", timeout=20_000)
        assert page.get_attribute("#crowds-go", "href") == f"/games/{started.game_id}"
        assert page.inner_text("#crowds-state") == "Your Egyptia crowd table has started."
    # the started crowd has left the list: the next one is first
    ana.wait_for_function("() => document.querySelectorAll('#crowds-list .crowd').length === 1")
    assert crowd(ana, 0).locator(".crowd-members").inner_text().endswith("of 99 seats")
    found["started"] = violations(ana, script)

    # both reach the game through the panel, each in their own seat
    for page in (ana, bek):
        page.click("#crowds-go")
        page.wait_for_url(OWN_GAME, timeout=20_000)
        page.wait_for_selector("#board svg")
    seats = {}
    for name, page in (("Ana", ana), ("Bek", bek)):
        view = seat_view(page, server_url)
        assert view["game"] == "egyptia" and view["turn_timer"] == 8
        assert view["players"][view["seat"]]["name"] == name
        seats[name] = view["seat"]

    # Ana moves, Bek does not: when the timer runs out the bot plays Bek's step
    mine = seat_view(ana, server_url)
    if mine["legal"] and not mine["timeouts"]:
        moved = api(
            ana,
            "POST",
            f"/api/games/{started.game_id}/actions",
            {"version": mine["version"], "action": mine["legal"][0]["action"]},
        )
        assert moved["status"] == 200, moved
    deadline = time.monotonic() + 40
    while not any(t["seat"] == seats["Bek"] for t in seat_view(bek, server_url)["timeouts"]):
        assert time.monotonic() < deadline, "the timer did not play Bek's step"
        time.sleep(0.5)
    bek.wait_for_function(
        "() => document.querySelector('#decision').textContent.includes('the server played')",
        timeout=20_000,
    )
    assert not any(found.values()), report(found)
    assert not errors, errors


def test_a_guest_sees_the_hourly_crowd_and_a_started_one_is_refused(
    browser: Any, crowd_server: Server
) -> None:
    server_url, app = crowd_server()  # the timetable: a crowd every hour, on the hour
    guest = browser.new_page(viewport={"width": 1300, "height": 900})
    errors: list[str] = []
    watch_errors(guest, errors)
    open_lobby(guest, server_url)
    note = guest.locator("#crowds-guest")
    assert note.is_visible()
    assert "Joining a crowd table needs an account" in note.inner_text()
    assert note.locator("a").get_attribute("href") == "/account?next=/"
    hourly = crowd(guest, 0)
    assert hourly.locator("h3").inner_text() == "Egyptia crowd table"
    assert re.search(r"\(\d\d:00 UTC\)", hourly.locator(".crowd-when").inner_text())
    assert hourly.locator(".crowd-members").inner_text() == "0 players have joined, of 99 seats"
    assert "a minute a step" in hourly.locator(".crowd-timer").inner_text()
    assert guest.locator(".crowd-join").count() == 0
    found = {"a guest": violations(guest, axe_script())}
    # every word of the panel goes through the catalogues (the pseudo-locale brackets it)
    open_lobby(guest, server_url, "?lang=xx")
    assert not stray_words(guest.inner_text("#crowds-panel"))

    # Cem's lobby still lists the crowd when it starts (nobody joined: it is cancelled)
    cem = signed_up(browser, server_url, "Cem")
    watch_errors(cem, errors)
    open_lobby(cem, server_url)
    before = listed(cem)
    start_at(app, dt.datetime.fromisoformat(before[0]["starts_at"]) + dt.timedelta(seconds=1))
    stale = json.dumps({"crowds": before})
    cem.route(
        re.compile(r"/api/crowds$"),
        lambda route: route.fulfill(status=200, content_type="application/json", body=stale),
    )
    crowd(cem, 0).locator(".crowd-join").click()
    cem.wait_for_selector("#crowds-error:not(:empty)")
    said = cem.inner_text("#crowds-error")
    refused = api(cem, "POST", f"/api/crowds/{before[0]['id']}/join", None)
    assert refused["status"] == 409 and said == refused["body"]["error"] and "started" in said
    assert cem.get_attribute("#crowds-error", "role") == "alert"
    assert crowd(cem, 0).locator(".crowd-join").inner_text() == "Join"  # never a blank panel
    found["a refusal"] = violations(cem, axe_script())
    cem.unroute(re.compile(r"/api/crowds$"))
    assert not any(found.values()), report(found)
    assert not errors, errors


# ---------------------------------------------------------------------- a crowd's game page
#: The builders of a crowd game (more than CROWD_SEATS seats): names, the same in every
#: language (the pseudo-locale allows them outside its brackets).
BUILDERS = [f"Khufu{n}" for n in range(CROWD_SEATS + 2)]


def play_a_round(server_url: str, game_id: str, tokens: list[str], until: int = 2) -> None:
    """Every builder plays its last legal move until round ``until`` (quicker than pages)."""
    api_url = f"{server_url}/api/games/{game_id}"
    for _ in range(500):
        public = httpx.get(api_url).json()
        if public["observation"]["round"] >= until:
            return
        for seat in public["to_move"]:
            mine = httpx.get(api_url, params={"token": tokens[seat]}).json()
            if mine["legal"]:
                httpx.post(
                    f"{api_url}/actions",
                    params={"token": tokens[seat]},
                    json={"version": mine["version"], "action": mine["legal"][-1]["action"]},
                )
    raise AssertionError("the round did not end")


def test_a_crowd_page_lists_the_builders_and_opens_a_sheet_on_demand(
    browser: Any, server_url: str
) -> None:
    """At a crowd table the page gets the other builders in short: one compact list (sorted
    by score on request), and a builder's sheet fetched and drawn when opened, closed again
    by the keyboard too; the page passes axe, and every word of the list is translated."""
    created = httpx.post(
        server_url + "/api/games",
        json={
            "game": "egyptia",
            "seats": [{"kind": "human", "name": name} for name in BUILDERS],
            "seed": 6,
        },
    ).json()
    game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    play_a_round(server_url, game_id, tokens)
    page = browser.new_page(viewport={"width": 1400, "height": 1100})
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(f"{server_url}/games/{game_id}?token={tokens[0]}")
    page.wait_for_selector("svg.egyptia-sheet")
    rows = page.locator("#builders-panel .crowd-list .builder-row")
    rows.first.wait_for()
    assert rows.count() == len(BUILDERS)
    assert page.locator(".builder-card").count() == 0  # no sheet of another in the view
    mine = page.locator(".builder-row.me")
    assert mine.get_attribute("data-seat") == "0" and mine.locator("button").count() == 0
    # by score: the best first, as the others' briefs and the seat's own sheet say
    page.select_option("#builder-sort", "score")
    scores = [int(s) for s in page.locator(".builder-row td.score").all_inner_texts()]
    assert scores == sorted(scores, reverse=True)
    view = seat_view(page, server_url)
    totals = [
        p["score"]["total"] if "score" in p else p["brief"]["total"]
        for p in view["observation"]["players"]
    ]
    assert sorted(scores) == sorted(totals)
    # a builder opened: its sheet fetched (as last published) and drawn above the list
    other = 5
    button = page.locator(f".builder-row button.open-sheet[data-seat='{other}']")
    button.click()
    drawn = page.locator("#crowd-sheet svg.egyptia-sheet")
    drawn.wait_for()
    sheet = httpx.get(
        f"{server_url}/api/games/{game_id}/sheets/{other}", params={"token": tokens[0]}
    ).json()
    assert drawn.locator(".total").text_content() == str(sheet["score"]["total"])
    built = drawn.locator(".hex:not([data-built='empty']):not([data-built='oasis'])")
    assert built.count() == sheet["sheet"]["buildings"] == 1
    assert BUILDERS[other] in page.inner_text("#crowd-sheet h3")
    opened = page.locator(f".builder-row button.open-sheet[data-seat='{other}']")
    assert opened.get_attribute("aria-expanded") == "true"
    found = {"a sheet open": violations(page, axe_script())}
    # closed by the keyboard: the focus goes back to the builder's button
    page.locator("#crowd-sheet .close-sheet").focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#crowd-sheet')")
    assert page.evaluate("document.activeElement.dataset.seat") == str(other)
    page.keyboard.press("Enter")  # and opened again from there
    page.locator("#crowd-sheet svg.egyptia-sheet").wait_for()
    # the next round published every sheet: the open one is fetched again
    play_a_round(server_url, game_id, tokens, until=3)
    sheet = httpx.get(
        f"{server_url}/api/games/{game_id}/sheets/{other}", params={"token": tokens[0]}
    ).json()
    assert sheet["sheet"]["buildings"] == 2  # two rounds, one building each
    page.wait_for_function(  # drawn: two buildings now, one before
        "() => document.querySelectorAll(\"#crowd-sheet svg .hex:not([data-built='empty'])"
        ":not([data-built='oasis'])\").length === 2",
        timeout=20_000,
    )
    assert drawn.locator(".total").text_content() == str(sheet["score"]["total"])
    # every word of the list and the sheet's heading goes through the catalogues
    page.goto(f"{server_url}/games/{game_id}?token={tokens[0]}&lang=xx")
    page.locator("#builders-panel .builder-row").first.wait_for()
    page.locator(".builder-row button.open-sheet").first.click()
    page.locator("#crowd-sheet h3").wait_for()
    words = page.evaluate(  # the panel's words, less the drawing's labels (hexes, cards)
        "() => { const out = []; const walk = document.createTreeWalker("
        " document.querySelector('#builders-panel'), NodeFilter.SHOW_TEXT);"
        " while (walk.nextNode()) { if (!walk.currentNode.parentElement.closest('svg'))"
        " out.push(walk.currentNode.textContent); } return out.join(' '); }"
    )
    assert not stray_words(words, frozenset(BUILDERS)), stray_words(words, frozenset(BUILDERS))
    assert not any(found.values()), report(found)
    assert not errors, errors

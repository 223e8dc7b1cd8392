"""What a person sees of departures, rematches and forced moves on the game page, in Chromium
(issue 33): the banner of the person a bot replaced (theirs alone) and the result headline
that ranks them last; a rematch offer reaching the other seat's open page live, and joining
it; a forced move shown waiting, then played by itself, or left to the seat to click when
the person turned forced moves off from the note.

The server runs in this process (its rooms are read to find a forced move: the test drives
an Amun-Re game there by random moves through the API)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from karnak.core import Rng
from karnak.core.forced import forced_move
from karnak.server.app import create_app
from support.templates import Templates

from .conftest import running
from .test_leaderboard import api, signed_up

GAME_URL = re.compile(r".*/games/[A-Za-z0-9_-]+(\?token=.+)?$")
TABLE_URL = re.compile(r".*/tables/[A-Za-z0-9_-]+$")


@pytest.fixture
def served(tmp_path: Path, templates: Templates) -> Iterator[tuple[str, Any]]:
    """A server of the test's own (as ``server_url``) and its app, to read its rooms."""
    app = create_app(templates.sqlite(tmp_path / "departures.sqlite3"), bot_workers=0)
    with running(app) as url:
        yield url, app


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#connection.live")
    return page


def create(url: str, game: str, names: list[str], seed: int) -> tuple[str, list[str]]:
    seats = [{"name": name} for name in names]
    created = httpx.post(f"{url}/api/games", json={"game": game, "seats": seats, "seed": seed})
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], [seat["token"] for seat in body["seats"]]


def play(
    url: str,
    game_id: str,
    tokens: dict[int, str],
    rng: Rng,
    until: Callable[[dict[str, Any]], bool],
    seconds: float = 60,
) -> dict[str, Any]:
    """Random legal moves for the seats in ``tokens`` (a bot plays the others by itself)
    until ``until(public view)`` holds: that view."""
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=url) as client:
        while time.monotonic() < deadline:
            public: dict[str, Any] = client.get(f"/api/games/{game_id}").json()
            if until(public):
                return public
            assert public["status"] == "running", "the game ended first"
            people = [seat for seat in public["to_move"] if seat in tokens]
            if not people:
                time.sleep(0.02)
                continue
            seat = people[rng.below(len(people))]
            mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
            if mine["legal"]:
                choice = mine["legal"][rng.below(len(mine["legal"]))]
                client.post(
                    f"/api/games/{game_id}/actions",
                    params={"token": tokens[seat]},
                    json={"version": mine["version"], "action": choice["action"]},
                )
    raise AssertionError("it never happened")


def finished(public: dict[str, Any]) -> bool:
    return bool(public["status"] == "finished")


def banner(page: Any) -> str:
    return (
        " ".join(page.inner_text("#seat-banner").split()) if page.is_visible("#seat-banner") else ""
    )


def test_the_person_a_bot_replaced_is_told_and_ranked_last(
    browser: Any, served: tuple[str, Any]
) -> None:
    url, _ = served
    game_id, tokens = create(url, "aton", ["Ana", "Bes"], seed=3)
    # most of the game is played by the two people, so the bot has little left to do
    play(url, game_id, dict(enumerate(tokens)), Rng(2), lambda v: v["version"] >= 70)
    errors: list[str] = []
    base = f"{url}/games/{game_id}"
    ana = open_page(browser, f"{base}?token={tokens[0]}", errors)
    bes = open_page(browser, f"{base}?token={tokens[1]}", errors)
    watcher = open_page(browser, base, errors)
    assert banner(bes) == ""  # nobody left yet
    # Bes leaves from another tab (the seat's link): the page still open learns it, live
    left = httpx.post(f"{url}/api/games/{game_id}/leave", headers={"X-Karnak-Token": tokens[1]})
    assert left.status_code == 200, left.text
    bes.wait_for_selector("#seat-banner.departed:not([hidden])", timeout=10_000)
    said = banner(bes)
    assert said.startswith("A bot took your seat.") and "You left this game" in said, said
    assert "spectator" in bes.inner_text("#status")  # it watches now, and it says why
    # nobody else reads it (their views carry no note)
    ana.wait_for_function(
        "() => document.querySelector(\"#time-seats .time-seat[data-seat='1']\")"
        "?.dataset.left === 'left'"
    )
    assert banner(ana) == "" and banner(watcher) == ""

    # Ana finishes the game; the bot plays Bes's seat: Bes counts last, whatever he scored
    done = play(url, game_id, {0: tokens[0]}, Rng(4), finished)
    [first, last] = done["standing"]
    assert (first["seat"], last["seat"]) == (0, 1) and last["played_by_bot"]
    expected = (
        f"You win with {first['score']} points. "
        "Bes left the game and counts last (a bot played the seat)."
    )
    for page, headline in (
        (ana, expected),
        (bes, expected.replace("You win", "Ana wins")),
        (watcher, expected.replace("You win", "Ana wins")),
    ):
        page.wait_for_selector("#result-panel:not([hidden])", timeout=20_000)
        page.wait_for_function(
            "(h) => document.querySelector('#winners').textContent === h", arg=headline
        )
    assert banner(bes).startswith("A bot took your seat.")  # still said at the end
    assert errors == []


def test_a_guest_leaving_with_the_button_keeps_the_banner(
    browser: Any, served: tuple[str, Any]
) -> None:
    """The person who clicks "Leave the game" on their guest link is told a bot took the seat,
    not shown a plain spectator's page."""
    url, _ = served
    game_id, tokens = create(url, "aton", ["Ana", "Bes"], seed=5)
    errors: list[str] = []
    bes = open_page(browser, f"{url}/games/{game_id}?token={tokens[1]}", errors)
    bes.click("#leave-game")
    bes.click("#leave-confirm")
    bes.wait_for_url(re.compile(rf"/games/{game_id}$"))
    bes.wait_for_selector("#connection.live")
    assert httpx.get(f"{url}/api/games/{game_id}").json()["players"][1]["replaced"]
    assert "spectator" in bes.inner_text("#status")  # a spectator's page now
    bes.wait_for_selector("#seat-banner.departed:not([hidden])", timeout=3_000)
    assert banner(bes).startswith("A bot took your seat.")
    assert errors == []


def test_an_account_that_leaves_with_the_button_is_told_why(
    browser: Any, served: tuple[str, Any]
) -> None:
    """An account's seat, opened by its session: "Leave the game", confirmed, and the page
    it lands on (a spectator's) says a bot took the seat; a reload says it again."""
    url, _ = served
    errors: list[str] = []
    bes = signed_up(browser, url, "Bes")
    bes.on("pageerror", lambda exc: errors.append(str(exc)))
    seats = [{"name": "Ana"}, {"mine": True}]
    created = api(bes, "POST", "/api/games", {"game": "aton", "seats": seats, "seed": 5})
    assert created["status"] == 201, created
    game_id = created["body"]["id"]
    bes.goto(f"{url}/games/{game_id}")  # the session opens the seat
    bes.wait_for_selector("#connection.live")
    bes.wait_for_function(
        "() => document.querySelector('#status')?.textContent.includes('you: Bes')"
    )
    assert banner(bes) == ""
    bes.click("#leave-game")
    bes.click("#leave-confirm")
    bes.wait_for_function(
        "() => document.querySelector('#status')?.textContent.includes('spectator')"
    )
    bes.wait_for_selector("#seat-banner.departed:not([hidden])", timeout=5_000)
    assert banner(bes).startswith("A bot took your seat. You left this game")
    bes.reload()
    bes.wait_for_selector("#seat-banner.departed:not([hidden])", timeout=5_000)
    # the other seat's page is not told so
    ana = open_page(
        browser, f"{url}/games/{game_id}?token={created['body']['seats'][0]['token']}", errors
    )
    ana.wait_for_selector("#time-seats .time-seat[data-seat='1'].replaced")
    assert banner(ana) == ""
    assert errors == []


def test_a_rematch_offer_reaches_the_other_page_live_and_both_play_it(
    browser: Any, served: tuple[str, Any]
) -> None:
    url, _ = served
    game_id, tokens = create(url, "aton", ["Ana", "Bes"], seed=7)
    play(url, game_id, dict(enumerate(tokens)), Rng(3), finished)
    errors: list[str] = []
    base = f"{url}/games/{game_id}"
    ana = open_page(browser, f"{base}?token={tokens[0]}", errors)
    bes = open_page(browser, f"{base}?token={tokens[1]}", errors)
    ana.wait_for_selector("#rematch")
    bes.wait_for_selector("#rematch")
    assert not bes.locator(".rematch-offer").count()  # nobody asked yet
    bes.evaluate("() => { window.notReloaded = true; }")
    ana.click("#rematch")
    ana.wait_for_url(TABLE_URL)
    table_id = ana.url.rsplit("/", 1)[1]
    # Bes's page, not reloaded, shows Ana's offer
    bes.wait_for_selector("#rematch-slot .rematch-offer", timeout=10_000)
    assert "Ana asks for a rematch." in bes.inner_text("#rematch-slot")
    assert bes.evaluate("() => window.notReloaded === true")  # live, not reloaded
    link = bes.locator("#rematch-slot a")
    assert link.get_attribute("href") == f"/tables/{table_id}"
    link.click()
    bes.wait_for_url(TABLE_URL)
    bes.wait_for_selector("#table-join")
    bes.fill("#table-guest-name", "Bes")
    bes.click("#table-join")
    # the last seat taken starts the new game: both pages go to their own seats
    for page, name in ((bes, "Bes"), (ana, "Ana")):
        page.wait_for_url(GAME_URL, timeout=15_000)
        page.wait_for_function(
            f"() => document.querySelector('#status')?.textContent.includes('you: {name}')"
        )
    new_id = ana.url.split("/games/", 1)[1].split("?")[0]
    assert new_id != game_id and bes.url.split("/games/", 1)[1].split("?")[0] == new_id
    assert httpx.get(f"{url}/api/tables/{table_id}").json()["game_id"] == new_id
    assert errors == []


def forced_game(url: str, app: Any) -> tuple[str, list[str], int, str]:
    """An Amun-Re game for three guests who turned forced moves off, driven by random moves
    until a seat to move has only its forced move: the game, tokens, that seat, its move."""
    game_id, tokens = create(url, "amunre", ["Ana", "Bes", "Ka"], seed=7)
    for token in tokens:
        off = httpx.put(
            f"{url}/api/games/{game_id}/forced-moves",
            headers={"X-Karnak-Token": token},
            json={"on": False},
        )
        assert off.status_code == 200, off.text
    room = app.state.service.rooms[game_id]
    rng = Rng(7)
    with httpx.Client(base_url=url) as client:
        for _ in range(3000):
            movers = room.state.to_move()
            forced = [s for s in movers if forced_move(room.state, s) is not None]
            if forced:
                action = forced_move(room.state, forced[0])
                assert action is not None
                return game_id, tokens, forced[0], action.to_text()
            seat = movers[rng.below(len(movers))]
            mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
            legal = mine["legal"]
            sells = [m for m in legal if m["text"].startswith("sell")]
            choice = sells[0] if sells and rng.below(2) == 0 else legal[rng.below(len(legal))]
            client.post(
                f"/api/games/{game_id}/actions",
                params={"token": tokens[seat]},
                json={"version": mine["version"], "action": choice["action"]},
            )
    raise AssertionError("no forced move came up")


def note(page: Any) -> str:
    return (
        " ".join(page.inner_text("#forced-note").split()) if page.is_visible("#forced-note") else ""
    )


def test_a_forced_move_is_shown_waiting_then_plays_itself(
    browser: Any, served: tuple[str, Any]
) -> None:
    url, app = served
    game_id, tokens, seat, action = forced_game(url, app)
    other = (seat + 1) % 3
    errors: list[str] = []
    base = f"{url}/games/{game_id}"
    mine = open_page(browser, f"{base}?token={tokens[seat]}", errors)
    theirs = open_page(browser, f"{base}?token={tokens[other]}", errors)
    version = httpx.get(f"{url}/api/games/{game_id}").json()["version"]
    assert note(mine) == ""  # turned off: nothing waits
    on = httpx.put(
        f"{url}/api/games/{game_id}/forced-moves",
        headers={"X-Karnak-Token": tokens[seat]},
        json={"on": True},
    )
    assert on.status_code == 200, on.text
    mine.wait_for_selector("#forced-note:not([hidden])", timeout=5_000)
    said = note(mine)
    assert re.match(r"Passing for you in [0-2] s: it is your only move\.", said), said
    assert mine.is_visible("#forced-note .forced-ask")  # "Let me click it"
    name = httpx.get(f"{url}/api/games/{game_id}").json()["players"][seat]["name"]
    theirs.wait_for_selector("#forced-note:not([hidden])", timeout=5_000)
    assert re.match(rf"{name} has only one move: played in [0-2] s\.", note(theirs))
    assert not theirs.locator("#forced-note .forced-ask").count()  # not theirs to turn off
    # played by itself after the pause: the note goes, the position moves on
    mine.wait_for_selector("#forced-note", state="hidden", timeout=5_000)
    public = httpx.get(f"{url}/api/games/{game_id}").json()
    assert public["version"] > version
    log = app.state.service.rooms[game_id].accepted
    assert any(entry.seat == seat and entry.text == action for entry in log)
    assert errors == []


def test_a_person_who_turned_it_off_clicks_the_move(browser: Any, served: tuple[str, Any]) -> None:
    url, app = served
    # a longer pause than the server's 1.5 s: time for a loaded machine's page to click
    app.state.service.forced.pause = 3.0
    game_id, tokens, seat, action = forced_game(url, app)
    errors: list[str] = []
    page = open_page(browser, f"{url}/games/{game_id}?token={tokens[seat]}", errors)
    version = httpx.get(f"{url}/api/games/{game_id}").json()["version"]
    # forced moves on, then turned off from the note itself, while it waits
    on = httpx.put(
        f"{url}/api/games/{game_id}/forced-moves",
        headers={"X-Karnak-Token": tokens[seat]},
        json={"on": True},
    )
    assert on.status_code == 200, on.text
    page.wait_for_selector("#forced-note .forced-ask", timeout=5_000)
    due = httpx.get(f"{url}/api/games/{game_id}").json()["forced"]["at"]
    page.click("#forced-note .forced-ask")
    page.wait_for_selector("#forced-note", state="hidden", timeout=5_000)
    page.wait_for_timeout(max(0.0, due - time.time() + 0.5) * 1000)  # past its time
    assert note(page) == ""  # nothing is played for the seat
    assert httpx.get(f"{url}/api/games/{game_id}").json()["version"] == version
    assert seat in httpx.get(f"{url}/api/games/{game_id}").json()["to_move"]
    # the seat clicks it
    page.click(f'button.move[data-move="{action}"]')
    page.wait_for_function(
        "(v) => !document.querySelector('.version')?.textContent.includes(`move ${v}`)",
        arg=version,
    )
    log = app.state.service.rooms[game_id].accepted
    assert any(entry.seat == seat and entry.text == action for entry in log)
    assert note(page) == ""
    assert errors == []

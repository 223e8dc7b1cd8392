"""The chat panel in Chromium: two seats of an Aton game chat live, markup and script in a
line are shown as text and run nothing, the spectator reads along without a way to write,
the history comes back with the page, and the board still follows the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx2 as httpx
from sqlalchemy.orm import Session

from karnak.server.chat.tables import ChatLineRow
from karnak.server.db import make_engine

from .test_accessibility import axe_script, report, violations

HOSTILE = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script><b>bold</b> & co'
NAMES = ("Ana", "Bes")
LINES = "() => document.querySelectorAll('#chat-lines .chat-line').length"


def open_page(browser: Any, url: str, errors: list[str]) -> Any:
    page = browser.new_page(viewport={"width": 1300, "height": 900})
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url)
    page.wait_for_selector("#connection.live")
    page.wait_for_function("() => document.querySelector('#chat-note').textContent !== ''")
    return page


def wait_lines(page: Any, count: int) -> None:
    page.wait_for_function(f"() => ({LINES})() === {count}")


def shown(page: Any) -> list[tuple[str, str]]:
    authors = page.locator("#chat-lines .chat-author").all_inner_texts()
    texts = page.locator("#chat-lines .chat-text").all_text_contents()
    return list(zip(authors, texts, strict=True))


def test_two_seats_chat_live_and_markup_stays_text(browser: Any, server_url: str) -> None:
    created = httpx.post(
        f"{server_url}/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    errors: list[str] = []
    ana = open_page(browser, f"{server_url}/games/{game_id}?token={tokens[0]}", errors)
    bes = open_page(browser, f"{server_url}/games/{game_id}?token={tokens[1]}", errors)
    spectator = open_page(browser, f"{server_url}/games/{game_id}", errors)
    for page in (ana, bes):
        assert page.is_visible("#chat-form")
        assert "spectators too" in page.inner_text("#chat-note")
    assert not spectator.is_visible("#chat-form")
    assert "Only the players write" in spectator.inner_text("#chat-note")
    assert spectator.is_visible("#chat-empty")

    ana.fill("#chat-text", HOSTILE)
    ana.click("#chat-send")
    for page in (ana, bes, spectator):
        wait_lines(page, 1)
        assert shown(page) == [("Ana:", HOSTILE)]
        assert page.locator("#chat-lines img, #chat-lines script, #chat-lines b").count() == 0
        assert not page.is_visible("#chat-empty")
    assert ana.input_value("#chat-text") == ""

    bes.fill("#chat-text", "Your move, Ana")
    bes.press("#chat-text", "Enter")
    for page in (ana, bes, spectator):
        wait_lines(page, 2)
        assert shown(page) == [("Ana:", HOSTILE), ("Bes:", "Your move, Ana")]

    # a refused line is explained on the page, and nothing is added
    ana.evaluate("() => { document.querySelector('#chat-text').removeAttribute('maxlength'); }")
    ana.fill("#chat-text", "x" * 501)
    ana.click("#chat-send")
    ana.wait_for_function("() => document.querySelector('#chat-error').textContent !== ''")
    assert "at most 500 characters" in ana.inner_text("#chat-error")
    assert ana.evaluate(LINES) == 2

    # the socket still brings views: a move shows on every page
    before = spectator.inner_text(".version")
    mine = httpx.get(f"{server_url}/api/games/{game_id}", params={"token": tokens[0]}).json()
    moved = httpx.post(
        f"{server_url}/api/games/{game_id}/actions",
        params={"token": tokens[0]},
        json={"version": mine["version"], "action": mine["legal"][0]["action"]},
    )
    assert moved.status_code == 200, moved.text
    spectator.wait_for_function(
        "v => document.querySelector('.version').textContent !== v", arg=before
    )

    # the history comes back with the page, in order
    bes.reload()
    bes.wait_for_selector("#connection.live")
    wait_lines(bes, 2)
    assert shown(bes) == [("Ana:", HOSTILE), ("Bes:", "Your move, Ana")]
    for page in (ana, bes, spectator):
        assert page.evaluate("() => window.pwned === undefined")
    assert not errors, errors


def test_the_account_holding_a_seat_is_named_beside_it(browser: Any, server_url: str) -> None:
    created = httpx.post(
        f"{server_url}/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
    ).json()
    game_id = created["id"]
    context = browser.new_context()
    signed = context.request.post(
        f"{server_url}/api/account/signup",
        data={"name": "Hatshepsut", "password": "two crowns, one Nile"},
    )
    assert signed.ok
    csrf = signed.json()["csrf"]
    claim = context.request.post(
        f"{server_url}/api/games/{game_id}/claim?token={created['seats'][0]['token']}",
        headers={"X-CSRF-Token": csrf},
    )
    assert claim.ok, claim.text()
    errors: list[str] = []
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/games/{game_id}")  # no token: the session opens the seat
    page.wait_for_selector("#chat-form:not([hidden])")
    page.fill("#chat-text", "Hello from my account")
    page.click("#chat-send")
    wait_lines(page, 1)
    assert shown(page) == [("Ana (Hatshepsut):", "Hello from my account")]
    assert not errors, errors
    context.close()


def test_a_chat_with_lines_has_no_serious_accessibility_violation(
    browser: Any, server_url: str
) -> None:
    created = httpx.post(
        f"{server_url}/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    for n, text in enumerate(["Good luck", "You too", HOSTILE, "x" * 300]):
        posted = httpx.post(
            f"{server_url}/api/games/{game_id}/chat",
            params={"token": tokens[n % 2]},
            json={"text": text},
        )
        assert posted.status_code == 201, posted.text
    script = axe_script()
    found = {}
    for viewport, (width, height) in {"laptop": (1400, 1000), "phone": (390, 844)}.items():
        for who, query in (("seat", f"?token={tokens[0]}"), ("spectator", "")):
            page = browser.new_page(viewport={"width": width, "height": height})
            page.goto(f"{server_url}/games/{game_id}{query}")
            page.wait_for_selector(".board-wrap svg")
            wait_lines(page, 4)
            page.wait_for_timeout(300)
            items = violations(page, script)
            if items:
                found[f"{who} on a {viewport}"] = items
            page.close()
    assert not found, "\n" + report(found)


def test_a_long_chat_shows_its_newest_lines_and_earlier_ones_on_demand(
    browser: Any, server_url: str, tmp_path: Path
) -> None:
    created = httpx.post(
        f"{server_url}/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"name": "Bes"}], "seed": 3},
    ).json()
    game_id = created["id"]
    # 230 lines stored directly (the rate limit keeps one client far below that per minute)
    engine = make_engine(f"sqlite:///{tmp_path / 'browser.sqlite3'}")
    with Session(engine) as session, session.begin():
        session.add_all(
            ChatLineRow(
                game_id=game_id, number=n, seat=n % 2, seat_name=NAMES[n % 2], text=f"line {n}"
            )
            for n in range(1, 231)
        )
    engine.dispose()
    errors: list[str] = []
    page = open_page(browser, f"{server_url}/games/{game_id}", errors)
    wait_lines(page, 100)
    numbers = "() => [...document.querySelectorAll('.chat-line')].map(x => +x.dataset.n)"
    assert page.evaluate(numbers) == list(range(131, 231))
    page.click("#chat-earlier")
    wait_lines(page, 200)
    assert page.evaluate(numbers) == list(range(31, 231))
    page.click("#chat-earlier")
    wait_lines(page, 230)
    assert page.evaluate(numbers) == list(range(1, 231))
    page.wait_for_selector("#chat-earlier", state="detached")  # nothing earlier to ask for
    assert shown(page)[:2] == [("Bes:", "line 1"), ("Ana:", "line 2")]
    assert not errors, errors

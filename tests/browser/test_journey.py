"""The whole journey of issue 14 in Chromium, as two people live it.

Ana and Bes have accounts; Bes asked for "your turn" e-mails and confirmed his address. Ana
opens an Aton table from the lobby with a seat left open; Bes finds it in the lobby and
joins, which starts the game on both their pages. They greet each other in the chat and play
the whole game by clicking. Midway Bes goes away (closes every Karnak page); when Ana's move
makes it his turn, the server's e-mail reaches the test's SMTP server with a link to the game
that holds no secret, and that link opens his seat by his own session. At the end both see
the rating change; Ana asks for a rematch, Bes takes the seat kept for him from the
invitation, the new game starts with the seats rotated, and the leaderboard lists them both.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from karnak.core import Rng
from karnak.server.app import create_app
from karnak.server.mail.routes import configure_mail
from support.smtp import SmtpServer

from .conftest import free_port, running
from .test_leaderboard import api, shots_dir, signed_up

GAME_URL = re.compile(r".*/games/[A-Za-z0-9_-]+$")
WAIT_NEWER = (
    "v => !document.querySelector('.version') "
    "|| document.querySelector('.version').textContent !== v"
)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Any, SmtpServer]]:
    """A real server that mails to the test's SMTP server: its address, its app, the SMTP."""
    with SmtpServer() as smtp:
        port = free_port()
        app = create_app(f"sqlite:///{tmp_path / 'journey.sqlite3'}", bot_workers=0)
        configure_mail(app, smtp.settings(public_url=f"http://127.0.0.1:{port}", tick=3600))
        with running(app, port) as url:
            yield url, app, smtp


def confirm_address(page: Any, url: str, smtp: SmtpServer, address: str) -> None:
    """Set the address on the account page and open the confirmation link it is sent."""
    page.goto(url + "/account")
    page.wait_for_selector("#email-form:not([hidden])")
    page.fill("#email-form input[name=address]", address)
    if not page.is_checked("#email-form input[name=turn]"):
        page.check("#email-form input[name=turn]")
    page.click("#email-form button[type=submit]")
    [mail] = smtp.wait_for(1)
    found = re.search(r"http://\S+/account#confirm=[A-Za-z0-9_-]+", mail.body)
    assert found is not None, mail.body
    page.goto(found[0])
    page.wait_for_function(
        "() => document.querySelector('#email-state')?.textContent.startsWith('Confirmed')"
    )


def act(page: Any, rng: Rng) -> bool:
    """One decision on an Aton page by clicking, if the page offers one: lay out the four
    cards and confirm, or take one of the glowing squares. False when there is none."""
    if (
        page.locator("#allocate-confirm").count()
        and page.locator("button.hand-card:enabled").count()
    ):
        for slot in range(1, 5):
            cards = page.locator("button.hand-card:enabled")
            cards.nth(rng.below(cards.count())).click()
            page.locator(f".my-cartouche[data-cartouche='{slot}']").click()
        page.click("#allocate-confirm")
        return True
    movable = page.locator("svg.aton-board .square.movable")
    if movable.count():
        movable.nth(rng.below(movable.count())).click()
        return True
    return False


def to_move(url: str, game_id: str) -> list[int]:
    moving: list[int] = httpx.get(f"{url}/api/games/{game_id}").json()["to_move"]
    return moving


def say(page: Any, text: str) -> None:
    page.fill("#chat-text", text)
    page.click("#chat-send")


def heard(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('#chat-lines')?.textContent.includes(t)", arg=text
    )


def test_two_people_meet_play_hear_by_e_mail_rematch_and_are_ranked(
    browser: Any, site: tuple[str, Any, SmtpServer], tmp_path: Path
) -> None:
    url, app, smtp = site
    ana, bes = signed_up(browser, url, "Ana"), signed_up(browser, url, "Bes")
    errors: list[str] = []
    for page in (ana, bes):
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    confirm_address(bes, url, smtp, "bes@example.org")
    bes_id = api(bes, "GET", "/api/account")["body"]["account"]["id"]

    # Ana opens a table with an open seat; Bes finds it in the lobby and joins: it starts
    ana.goto(url + "/")
    ana.wait_for_selector("#game option[value='aton']", state="attached")
    ana.click("#more-options summary")  # the full form is folded (issue 33)
    ana.select_option("#game", "aton")
    ana.select_option('.seat-row[data-seat="1"] .kind', "open")
    ana.click("#create")
    ana.wait_for_url(re.compile(r".*/tables/[A-Za-z0-9_-]+$"))
    table_id = ana.url.rsplit("/", 1)[1]
    bes.goto(url + "/")
    item = f'.table-item[data-table="{table_id}"]'
    bes.wait_for_selector(f'{item} .table-join:has-text("Join as Bes")')
    assert "1: Ana" in bes.inner_text(item)
    bes.click(f"{item} .table-join")
    for page, name in ((ana, "Ana"), (bes, "Bes")):
        page.wait_for_url(GAME_URL, timeout=15_000)  # no token: the session holds the seat
        page.wait_for_function(
            f"() => document.querySelector('#status')?.textContent.includes('you: {name}')"
        )
        page.wait_for_selector("svg.aton-board")
    game_id = ana.url.rsplit("/", 1)[1]
    assert bes.url == ana.url

    # they talk: live, both ways, and what looks like markup stays text
    say(ana, "Good luck, Bes <b>really</b>")
    heard(bes, "Good luck, Bes <b>really</b>")
    say(bes, "And to you!")
    heard(ana, "And to you!")
    assert bes.locator("#chat-lines b").count() == 0

    # they play by clicking; once Bes waits for Ana, he goes away and is told by e-mail
    rng = Rng(14)
    pages = {0: ana, 1: bes}
    away_done = False
    decisions = 0
    while not ana.locator("#result-panel:not([hidden])").count():
        moving = to_move(url, game_id)
        if not moving:
            ana.wait_for_timeout(50)
            continue
        if not away_done and moving == [0] and decisions >= 4:
            bes.context.close()  # every Karnak page of his, and its live socket
            deadline = time.monotonic() + 10
            while app.state.mail.connected(bes_id):
                assert time.monotonic() < deadline, "the server still counts Bes as here"
                time.sleep(0.05)
            while 1 not in to_move(url, game_id):
                version = ana.inner_text(".version")
                assert act(ana, rng), "Ana had nothing to do"
                ana.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)
            mails = [m for m in smtp.wait_for(2, timeout=15) if "your turn" in m.subject]
            assert len(mails) == 1 and mails[0].recipients == ("bes@example.org",)
            assert "Aton" in mails[0].subject and "Ana" in mails[0].body
            link = re.search(r"http://\S+/games/[A-Za-z0-9_-]+\S*", mails[0].body)
            assert link is not None and link[0] == f"{url}/games/{game_id}"  # no secret in it
            anonymous = browser.new_page()
            anonymous.goto(link[0])  # the link alone logs nobody in
            anonymous.wait_for_selector("svg.aton-board")
            assert "you:" not in anonymous.inner_text("#status")
            anonymous.close()
            bes = browser.new_context().new_page()
            bes.goto(f"{url}/account")
            answer = api(
                bes, "POST", "/api/account/login", {"name": "Bes", "password": "a long password"}
            )
            assert answer["status"] == 200, answer
            bes.goto(link[0])
            bes.wait_for_function(
                "() => document.querySelector('#status')?.textContent.includes('you: Bes')"
            )
            bes.on("pageerror", lambda exc: errors.append(str(exc)))
            heard(bes, "And to you!")  # the chat's history is there
            pages[1] = bes
            away_done = True
            continue
        for seat in moving:
            page = pages[seat]
            version = page.inner_text(".version")
            if act(page, rng):
                decisions += 1
                page.wait_for_function(WAIT_NEWER, arg=version, timeout=30_000)
        assert decisions < 400, "the game did not end"
    assert away_done

    # the end: both see the result and their rating changes
    for page in (ana, bes):
        page.wait_for_selector("#result-panel:not([hidden])")
        page.wait_for_selector("#rating-change-heading", timeout=15_000)
        text = page.inner_text("#rating-change")
        assert "Ana" in text and "Bes" in text
    ana.screenshot(path=str(shots_dir(tmp_path) / "journey-result.png"), full_page=True)

    # a rematch: the seats rotate, Bes is invited and takes the seat kept for him
    ana.click("#rematch")
    ana.wait_for_url(re.compile(r".*/tables/[A-Za-z0-9_-]+$"))
    rematch_id = ana.url.rsplit("/", 1)[1]
    assert rematch_id != table_id
    bes.goto(url + "/me")
    bes.wait_for_selector('#notifications .notification[data-kind="invitation"]')
    bes.goto(f"{url}/tables/{rematch_id}")
    bes.wait_for_selector("#table-take")
    bes.click("#table-take")
    for page in (ana, bes):
        page.wait_for_url(GAME_URL, timeout=15_000)
    second_id = ana.url.rsplit("/", 1)[1]
    assert second_id != game_id and bes.url == ana.url
    second = httpx.get(f"{url}/api/games/{second_id}").json()
    assert [p["name"] for p in second["players"]] == ["Bes", "Ana"]

    # the leaderboard lists both, each with the one rated game
    board = ana
    board.goto(url + "/leaderboard/aton")
    board.wait_for_selector("table tr:has-text('Bes')")
    rows = board.inner_text("table")
    assert "Ana" in rows and "Bes" in rows
    entries = httpx.get(f"{url}/api/leaderboard/aton").json()["entries"]
    people = {e["name"]: e for e in entries if e.get("kind", "account") == "account"}
    assert people.keys() >= {"Ana", "Bes"}
    assert all(people[n]["games"] == 1 for n in ("Ana", "Bes"))
    assert not errors, errors

"""The pseudo-locale run: every page, in ``xx``, shows no text outside ⟦…⟧ but names, numbers
and symbols. A text that bypassed the catalogues shows up here, in English, unbracketed.

Two passes: the pages as the server sends them (TestClient: the static texts), and the pages
as a reader sees them once their scripts have drawn them (Playwright, Debian's Chromium)."""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from browser.conftest import running
from i18n.pseudo import outside_brackets, served_text, stray_words
from i18n.test_site_language import create_game
from karnak.core.registry import plugins
from karnak.server.app import create_app
from support.templates import Templates

STATIC_PAGES = [
    "/",
    "/account",
    "/me",
    "/admin",
    "/players/Nobody",
    "/leaderboard/amunre",
    "/reset",
]
GAMES = sorted(plugins())
#: The seats' names in the games made here (names are never translated).
NAMES = frozenset(f"P{i}" for i in range(8))


def test_the_checker_finds_english_and_passes_names_and_numbers() -> None:
    assert stray_words("⟦Deine Karten⟧ 12 · Karnak — 3:2 (P1)", NAMES) == []
    assert stray_words("⟦Play ⟦now⟧⟧ Your hand", NAMES) == ["Your", "hand"]
    assert outside_brackets("a⟦b⟧c") == "ac"


@pytest.mark.parametrize("path", STATIC_PAGES)
def test_each_page_as_served(client: TestClient, path: str) -> None:
    text = served_text(client.get(path, params={"lang": "xx"}).text)
    assert stray_words(text) == []


@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_as_served(client: TestClient, game: str) -> None:
    game_id = create_game(client, game)
    text = served_text(client.get(f"/games/{game_id}", params={"lang": "xx"}).text)
    assert stray_words(text) == []


# ---------------------------------------------------------------------- in a browser


@pytest.fixture
def live(tmp_path: Path, templates: Templates) -> Iterator[str]:
    with running(create_app(templates.sqlite(tmp_path / "b.sqlite3"), bot_workers=0)) as url:
        yield url


@pytest.fixture
def chromium(browser: Any) -> Any:
    """The browser tests' Chromium (one per test process, tests/browser/conftest.py)."""
    return browser


def visible_text(browser: Any, url: str) -> str:
    page = browser.new_page(viewport={"width": 1366, "height": 768}, locale="en-US")
    try:
        page.goto(url)
        page.wait_for_load_state("networkidle")
        time.sleep(0.3)  # the scripts' last drawing after their answers
        text: str = page.evaluate("() => document.body.innerText")
        return text
    finally:
        page.close()


@pytest.mark.parametrize("path", STATIC_PAGES)
def test_each_page_as_drawn(live: str, chromium: Any, path: str) -> None:
    assert stray_words(visible_text(chromium, f"{live}{path}?lang=xx"), NAMES) == []


#: What a game page may show outside the brackets besides the players' names: a name run
#: into the one-letter mark beside it ("P0" and its board letter read as one word), and the
#: one-letter marks of the boards, the same letters in the three languages (Aton's R and B).
MARKS = re.compile(r"(P\d)+[A-Z]?|[A-Z]")


@pytest.mark.parametrize("game", GAMES)
def test_each_game_page_as_drawn(live: str, chromium: Any, game: str) -> None:
    created: dict[str, Any] = {}
    for count in range(1, 7):
        seats = [{"kind": "human", "name": f"P{i}"} for i in range(count)]
        request = urllib.request.Request(
            f"{live}/api/games",
            data=json.dumps({"game": game, "seats": seats}).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request) as answer:
                created = json.load(answer)
            break
        except urllib.error.HTTPError:
            continue
    assert created, f"no game of {game} could be created"
    seat_url = f"/games/{created['id']}?token={created['seats'][0]['token']}"
    text = visible_text(chromium, f"{live}{seat_url}&lang=xx")
    stray = stray_words(text, NAMES)
    assert [word for word in stray if not MARKS.fullmatch(word.strip(".,:;()"))] == []

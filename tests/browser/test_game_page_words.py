"""The game page's own words (game.js, rating-change.js) go through the catalogues (issue 33):
in the pseudo-locale every text those scripts write is bracketed, whatever the game; in German
and French the page's frame (title, seat, moves seen, the rules' "next" line, the window's
title) reads in that language. The games' own words (board, moves, guide) are their packages'
concern and are checked by tests/i18n/test_pseudo_locale.py."""

from __future__ import annotations

import json
from typing import Any

import httpx2 as httpx
import pytest

from i18n.pseudo import stray_words
from karnak.core.registry import available_games, get_game

#: The seats' names (never translated).
NAMES = frozenset(f"P{i}" for i in range(8))

#: The elements game.js fills in (text) and the attributes it writes.
GAME_JS_TEXTS = """() => {
  const texts = [];
  for (const selector of ["#title", "#status", "#skip-link", "#guide-panel > h2",
                          "#rules-body > p.note", "#moves-toggle", "#sound-toggle",
                          "#board-fit", "#connection", "#clock"]) {
    const node = document.querySelector(selector);
    if (node && !node.hidden) texts.push(node.textContent);
  }
  for (const node of document.querySelectorAll("#status [data-tip], #players .chip[data-tip]"))
    texts.push(node.getAttribute("data-tip"));
  texts.push(document.title);
  return texts;
}"""


def game_page(browser: Any, url: str, game: str, language: str) -> Any:
    count = get_game(game).min_players
    created = httpx.post(
        url + "/api/games",
        json={"game": game, "seats": [{"kind": "human", "name": f"P{i}"} for i in range(count)]},
    )
    assert created.status_code in (200, 201), created.text
    seat = created.json()["seats"][0]
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(f"{url}/games/{created.json()['id']}?token={seat['token']}&lang={language}")
    page.wait_for_selector("#board svg")
    page.wait_for_selector("#status .chip")
    page.wait_for_timeout(300)
    return page


@pytest.mark.parametrize("game", available_games())
def test_the_pages_own_words_are_all_translated(browser: Any, server_url: str, game: str) -> None:
    page = game_page(browser, server_url, game, "xx")
    try:
        texts = page.evaluate(GAME_JS_TEXTS)
        # a seat's title, its chip and the count of moves seen are there to be checked
        assert any("⟦you: P0⟧" in text for text in texts), texts
        assert any("⟦move 0⟧" in text for text in texts), texts
        stray = [word for text in texts for word in stray_words(text, NAMES)]
        assert stray == [], f"{game}: English left in game.js's words: {stray} in {texts}"
        # the seat's chip names its colour in the reader's language too
        tip = page.get_attribute("#status .chip", "data-tip")
        assert tip == "⟦Seat 1 (⟦red⟧)⟧"
    finally:
        page.close()


@pytest.mark.parametrize(
    ("language", "round_word", "you", "move", "seat", "turn"),
    [
        ("de", "Runde 1", "du: P0", "Zug 0", "Platz 1 (rot)", "Du bist dran · "),
        ("fr", "manche 1", "toi : P0", "coup 0", "Place 1 (rouge)", "À toi · "),
    ],
)
def test_the_pages_frame_reads_in_the_language(
    browser: Any,
    server_url: str,
    language: str,
    round_word: str,
    you: str,
    move: str,
    seat: str,
    turn: str,
) -> None:
    for game in available_games():
        page = game_page(browser, server_url, game, language)
        try:
            assert round_word in page.inner_text("#title"), game
            status = page.inner_text("#status")
            assert you in status and move in status, (game, status)
            assert page.get_attribute("#status .chip", "data-tip") == seat
            title = page.evaluate("document.title")
            # the window's title: the seat's turn, else the game and its round
            assert title.startswith(turn) or f": {round_word} · Karnak" in title, (game, title)
            assert "round" not in title and "Your turn" not in title, (game, title)
        finally:
            page.close()


RATED = {
    "status": "rated",
    "seats": [
        {
            "seat": 0,
            "name": "P0",
            "kind": "human",
            "account": "P0",
            "before": 0.0,
            "after": 1.5,
            "change": 1.5,
            "left": False,
        },
        {
            "seat": 1,
            "name": "P1",
            "kind": "bot",
            "bot": "P2",
            "before": 2.0,
            "after": 1.0,
            "change": -1.0,
            "left": True,
        },
    ],
}


@pytest.mark.parametrize(
    "answer",
    # the last: any answer neither rated nor unrated (pending, once the page stops asking)
    [RATED, {"status": "unrated", "reason": "⟦a guest played⟧"}, {"status": "waiting"}],
)
def test_the_rating_changes_are_written_in_the_readers_language(
    browser: Any, server_url: str, answer: dict[str, Any]
) -> None:
    page = game_page(browser, server_url, available_games()[0], "xx")
    try:
        page.route(
            "**/api/games/finished-one/ratings",
            lambda route: route.fulfill(
                status=200, content_type="application/json", body=json.dumps(answer)
            ),
        )
        page.evaluate("() => { document.getElementById('result-panel').hidden = false; }")
        page.evaluate(
            """() => import("/static/rating-change.js").then((m) => m.showRatingChange({
                 status: "finished", game_id: "finished-one", game: "amunre", title: "Amun-Re"}))"""
        )
        page.wait_for_selector("#rating-change")
        page.wait_for_timeout(200)
        text = page.inner_text("#rating-change")
        assert text.strip()
        assert stray_words(text, NAMES) == [], text
    finally:
        page.close()

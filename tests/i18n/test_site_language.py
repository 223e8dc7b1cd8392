"""The site's language: the account's setting, else the browser's, else English; the pages
sent translated, with their scripts' catalogue inlined."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.core.registry import plugins
from karnak.i18n import KARNAK
from karnak.server.pages import CATALOGUE_ID

PASSWORD = "two crowns, one Nile"
PAGES = ["/", "/account", "/me", "/admin", "/players/Someone", "/leaderboard/amunre", "/reset"]


def sign_up(client: TestClient, name: str = "Hatshepsut") -> None:
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def create_game(client: TestClient, game: str) -> str:
    """A game of ``game`` with as few people as it takes (its id)."""
    for count in range(1, 7):
        seats = [{"kind": "human", "name": f"P{i}"} for i in range(count)]
        created = client.post("/api/games", json={"game": game, "seats": seats})
        if created.status_code == 201:
            game_id: str = created.json()["id"]
            return game_id
    raise AssertionError(f"no game of {game} could be created")


def csrf(client: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": client.cookies.get("karnak_csrf") or ""}


def catalogue_of(html: str) -> dict[str, Any]:
    found = re.search(
        rf'<script type="application/json" id="{CATALOGUE_ID}">(.*?)</script>', html, re.S
    )
    assert found is not None
    payload: dict[str, Any] = json.loads(found.group(1))
    return payload


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([a-z]+)">', html)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize("path", PAGES)
def test_each_page_is_sent_in_the_browsers_language(client: TestClient, path: str) -> None:
    for header, expected in [(None, "en"), ("de-DE,de;q=0.9", "de"), ("fr", "fr"), ("es", "en")]:
        headers = {"Accept-Language": header} if header else {}
        page = client.get(path, headers=headers)
        assert page.status_code == 200
        assert page.headers["content-language"] == expected
        assert html_lang(page.text) == expected
        payload = catalogue_of(page.text)
        assert payload["language"] == expected and "karnak" in payload["domains"]
        assert page.text.count(f'id="{CATALOGUE_ID}"') == 1


def test_the_query_and_the_cookie_choose_for_a_guest(client: TestClient) -> None:
    assert html_lang(client.get("/?lang=fr", headers={"Accept-Language": "de"}).text) == "fr"
    # the page keeps it for its scripts' requests (and the next pages)
    assert client.cookies.get("karnak_lang") == "fr"
    assert client.get("/api/language", headers={"Accept-Language": "de"}).json()["language"] == "fr"
    assert html_lang(client.get("/?lang=xx").text) == "xx"
    client.cookies.clear()
    assert html_lang(client.get("/?lang=klingon", headers={"Accept-Language": "de"}).text) == "de"
    assert client.cookies.get("karnak_lang") is None
    answer = client.put("/api/language", json={"language": "fr"})
    assert answer.status_code == 200 and answer.json()["language"] == "fr"
    assert client.cookies.get("karnak_lang") == "fr"
    assert html_lang(client.get("/", headers={"Accept-Language": "de"}).text) == "fr"
    described = client.get("/api/language").json()
    assert described["source"] == "cookie" and described["account"] is None
    assert [c["code"] for c in described["choices"]] == ["en", "de", "fr"]
    cleared = client.put(
        "/api/language", json={"language": None}, headers={"Accept-Language": "de"}
    )
    assert cleared.status_code == 200 and cleared.json()["language"] == "de"
    assert client.cookies.get("karnak_lang") is None
    assert html_lang(client.get("/").text) == "en"


@pytest.mark.parametrize(
    "body",
    [
        {"language": "es"},
        {"language": "xx"},  # the pseudo-locale is no one's setting
        {"language": "DE"},
        {"language": 3},
        {"language": "de" * 1000},
        {},
        {"language": "de", "extra": 1},
        [],
    ],
)
def test_an_unknown_language_is_refused(client: TestClient, body: Any) -> None:
    answer = client.put("/api/language", json=body)
    assert answer.status_code == 422, answer.text
    assert client.cookies.get("karnak_lang") is None


def test_the_accounts_setting_wins_on_every_browser(client: TestClient) -> None:
    sign_up(client)
    assert client.get("/api/language").json()["account"] is None
    refused = client.put("/api/language", json={"language": "de"})  # no CSRF token
    assert refused.status_code == 403
    answer = client.put("/api/language", json={"language": "de"}, headers=csrf(client))
    assert answer.status_code == 200 and answer.json()["account"] == "de"
    # another browser of the same account, asking for French, without the cookie
    client.cookies.delete("karnak_lang")
    page = client.get("/account", headers={"Accept-Language": "fr"})
    assert html_lang(page.text) == "de"
    described = client.get("/api/language", headers={"Accept-Language": "fr"}).json()
    assert described == {**described, "language": "de", "source": "account", "account": "de"}
    # a ?lang= still shows one page in another language
    assert html_lang(client.get("/account?lang=fr").text) == "fr"
    # cleared: the browser decides again
    client.put("/api/language", json={"language": None}, headers=csrf(client))
    assert html_lang(client.get("/", headers={"Accept-Language": "fr"}).text) == "fr"
    assert client.get("/api/language").json()["account"] is None


def test_an_api_refusal_is_in_the_readers_language_and_keeps_its_status(
    client: TestClient,
) -> None:
    english = client.get("/api/games/nonexistent-game")
    german = client.get("/api/games/nonexistent-game", headers={"Accept-Language": "de"})
    assert english.status_code == german.status_code == 404


def test_the_game_page_carries_its_games_domain(client: TestClient) -> None:
    checked = 0
    for name, plugin in plugins().items():
        if plugin.text_domain() is None:
            continue
        game_id = create_game(client, name)
        checked += 1
        page = client.get(f"/games/{game_id}", headers={"Accept-Language": "de"})
        payload = catalogue_of(page.text)
        assert list(payload["domains"]) == [name, KARNAK.name]
        assert html_lang(page.text) == "de"
    assert checked >= 3
    # an unknown game's page has the generic domain only (the API tells what is wrong)
    assert list(catalogue_of(client.get("/games/nope").text)["domains"]) == ["karnak"]


def test_the_pseudo_locale_brackets_the_pages_marked_texts(client: TestClient) -> None:
    page = client.get("/account?lang=xx").text
    assert "⟦Log in⟧" in page and "⟦Your account⟧" in page
    assert html_lang(page) == "xx"


def test_views_and_sockets_speak_the_readers_language(client: TestClient) -> None:
    """The view over HTTP and over the socket are built in the request's language: in the
    pseudo-locale the log's lines come bracketed, in English they do not."""
    game_id = create_game(client, "amunre")
    english = client.get(f"/api/games/{game_id}").json()
    assert english["log"] and not any(line.startswith("⟦") for line in english["log"])
    client.cookies.set("karnak_lang", "xx")
    pseudo = client.get(f"/api/games/{game_id}").json()
    assert pseudo["log"] and all(line.startswith("⟦") for line in pseudo["log"])
    with client.websocket_connect(f"/api/games/{game_id}/ws") as socket:
        live = json.loads(socket.receive_text())
    assert live["log"] == pseudo["log"]


def test_odd_requests_are_answered_in_some_language_never_with_a_500(client: TestClient) -> None:
    many = "&".join(f"f{i}=1" for i in range(500))
    assert client.get(f"/?{many}&lang=de").status_code == 200
    assert html_lang(client.get("/?lang=%FF%FE").text) == "en"
    assert html_lang(client.get("/?lang=" + "d" * 5000).text) == "en"
    assert client.get("/", headers={"Cookie": 'karnak_lang="\\x"; ;;=;'}).status_code == 200
    assert client.get("/", headers={"Accept-Language": "de;q=" + "9" * 4000}).status_code == 200
    odd = client.get("/api/language", headers={"Cookie": "karnak_session=nonsense"})
    assert odd.status_code == 200 and odd.json()["account"] is None

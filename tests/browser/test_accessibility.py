"""An automated accessibility check (axe-core) of every page: the lobby, each game's page
as a seat and as a spectator, a finished game's scoring and its replay, on a laptop and on a
phone. No violation of "serious" or "critical" impact may remain.

axe-core comes from the ``axe-playwright-python`` package (a dev dependency), which ships
``axe.min.js``: nothing is fetched at test time. It is injected through Playwright (not a
script tag), so the pages' Content-Security-Policy stays as it is.
"""

from __future__ import annotations

import time
from typing import Any

import httpx2 as httpx
import pytest

#: Impacts that fail the check (axe's scale: minor, moderate, serious, critical).
FAILING = ("serious", "critical")

SEATS = {
    "amunre": [{"kind": "human"}, *[{"kind": "bot", "bot": "heuristic"}] * 3],
    "aton": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
    "egyptia": [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
}

VIEWPORTS = {"laptop": (1400, 1000), "phone": (390, 844)}


def axe_script() -> str:
    from axe_playwright_python.base import AXE_SCRIPT

    return str(AXE_SCRIPT)


def violations(page: Any, script: str) -> list[dict[str, Any]]:
    page.evaluate(script)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [v for v in result["violations"] if v["impact"] in FAILING]


def report(found: dict[str, list[dict[str, Any]]]) -> str:
    lines = []
    for where, items in found.items():
        for item in items:
            lines.append(f"{where}: {item['id']} ({item['impact']}): {item['help']}")
            lines += [f"    {node['target']} {node['html'][:160]}" for node in item["nodes"][:4]]
    return "\n".join(lines)


def finished_game(server_url: str) -> str:
    """A game of bots, played to its end."""
    created = httpx.post(
        server_url + "/api/games",
        json={"game": "aton", "seats": [{"kind": "bot", "bot": "heuristic"}] * 2, "seed": 4},
    ).json()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        view = httpx.get(f"{server_url}/api/games/{created['id']}").json()
        if view["status"] == "finished":
            return str(created["id"])
        time.sleep(0.2)
    raise AssertionError("the bots' game did not finish")


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_serious_accessibility_violation(browser: Any, server_url: str, viewport: str) -> None:
    width, height = VIEWPORTS[viewport]
    pages = {"lobby": server_url + "/"}
    for game, seats in SEATS.items():
        created = httpx.post(
            server_url + "/api/games", json={"game": game, "seats": seats, "turn_timer": 600}
        ).json()
        pages[f"{game} as a seat"] = server_url + created["seats"][0]["url"]
        pages[f"{game} as a spectator"] = server_url + created["spectator_url"]
    done = finished_game(server_url)
    pages["a finished game"] = f"{server_url}/games/{done}"
    pages["a replay"] = f"{server_url}/games/{done}?replay=1"
    pages["the lobby with a finished game"] = server_url + "/"
    pages["the account page"] = server_url + "/account"

    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=viewport == "phone"
    )
    for name, url in pages.items():
        page = context.new_page()
        page.goto(url)
        if name == "lobby" or name.startswith("the lobby"):
            page.wait_for_selector(".game-card .play-now")
            # the games' cards and the form folded under "More options" (opened: checked too)
            if not page.locator("#more-options").evaluate("d => d.open"):
                page.click("#more-options summary")
            page.wait_for_selector(".seat-row")
            page.wait_for_function("() => !document.querySelector('#running:empty')")
        elif name == "the account page":
            page.wait_for_selector("#logged-out:not([hidden])")
        elif name == "a replay":
            page.wait_for_function(
                "() => document.querySelector('#replay-label').textContent.includes('of')"
            )
        else:
            page.wait_for_selector(".board-wrap svg")
        page.wait_for_timeout(300)  # the page settles (tooltips, fitted boards)
        items = violations(page, script)
        if items:
            found[name] = items
        page.close()
    context.close()
    assert not found, "\n" + report(found)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_serious_violation_on_the_pages_of_a_logged_in_person(
    browser: Any, server_url: str, viewport: str
) -> None:
    """The pages issue 14 added, seen by a logged-in person: my games with a running game
    and an open table, the table's own page, a leaderboard and a profile."""
    width, height = VIEWPORTS[viewport]
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=viewport == "phone"
    )
    page = context.new_page()
    page.goto(server_url + "/account")
    signup = page.evaluate(
        """async () => (await fetch("/api/account/signup", {method: "POST",
            headers: {"Content-Type": "application/json"},
            body: JSON.stringify({name: "Ana", password: "a long password"})})).status"""
    )
    assert signup == 201
    csrf = next(c["value"] for c in context.cookies() if c["name"] == "karnak_csrf")
    headers = {"X-CSRF-Token": csrf}
    running = context.request.post(
        server_url + "/api/games",
        data={"game": "aton", "seats": [{"mine": True}, {"kind": "bot", "bot": "random"}]},
        headers=headers,
    )
    assert running.status == 201, running.text()
    table = context.request.post(
        server_url + "/api/tables",
        data={"game": "aton", "seats": [{"kind": "human"}, {"kind": "open"}]},
        headers=headers,
    )
    assert table.status < 300, table.text()
    table_id = table.json()["table"]["id"]
    pages = {
        "my games": (server_url + "/me", "#waiting .my-game, #running .my-game"),
        "an open table": (f"{server_url}/tables/{table_id}", "#table-title"),
        "a leaderboard": (server_url + "/leaderboard/aton", "main h1, main h2"),
        "a profile": (server_url + "/players/Ana", "main h1, main h2"),
    }
    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}
    for name, (url, ready) in pages.items():
        page.goto(url)
        page.wait_for_selector(ready)
        page.wait_for_timeout(300)
        items = violations(page, script)
        if items:
            found[name] = items
    context.close()
    assert not found, "\n" + report(found)

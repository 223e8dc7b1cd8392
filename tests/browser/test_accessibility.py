"""An automated accessibility check (axe-core) of every page: the lobby, each game's page
as a seat and as a spectator, a finished game's scoring and its replay, on a laptop and on a
phone. No violation of "serious" or "critical" impact may remain.

axe-core comes from the ``axe-playwright-python`` package (a dev dependency), which ships
``axe.min.js``: nothing is fetched at test time. It is injected through Playwright (not a
script tag), so the pages' Content-Security-Policy stays as it is.
"""

from __future__ import annotations

import time
import warnings
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


#: Violations in a game's own files, reported to their owners and excused here until they are
#: fixed, each as (rule, a piece of the element's selector, the file that owns it). They are
#: shown as warnings, so they stay in sight; everything else fails the test.
KNOWN_IN_GAME_FILES = [
    ("color-contrast", ".waiting", "static/aton.css: .aton-preview li.waiting (#8a7a5a)"),
]


def excused(rule: str, node: dict[str, Any]) -> str | None:
    target = " ".join(str(t) for t in node["target"])
    for known_rule, piece, owner in KNOWN_IN_GAME_FILES:
        if rule == known_rule and piece in target:
            return owner
    return None


def violations(page: Any, script: str) -> list[dict[str, Any]]:
    page.evaluate(script)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in result["violations"]:
        if violation["impact"] not in FAILING:
            continue
        nodes = []
        for node in violation["nodes"]:
            owner = excused(violation["id"], node)
            if owner is None:
                nodes.append(node)
            else:
                warnings.warn(f"known {violation['id']} in {owner}: {node['target']}", stacklevel=1)
        if nodes:
            found.append({**violation, "nodes": nodes})
    return found


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

    script = axe_script()
    found: dict[str, list[dict[str, Any]]] = {}
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=viewport == "phone"
    )
    for name, url in pages.items():
        page = context.new_page()
        page.goto(url)
        if name == "lobby" or name.startswith("the lobby"):
            page.wait_for_selector(".seat-row")
            page.wait_for_function("() => !document.querySelector('#running:empty')")
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

"""Blocking from a profile page in Chromium: another player's profile offers "Block", which
blocks them (the list says so) and turns into "Unblock"; one's own profile offers neither."""

from __future__ import annotations

from typing import Any

from .test_friends import person


def test_block_and_unblock_from_a_profile(browser: Any, server_url: str) -> None:
    errors: list[str] = []
    ana = person(browser, server_url, "Ana", errors)
    person(browser, server_url, "Bes", errors)
    ana.goto(f"{server_url}/players/Bes")
    ana.wait_for_selector("#block-button")
    assert ana.inner_text("#block-button") == "Block Bes"
    ana.click("#block-button")
    ana.wait_for_function(
        "() => document.querySelector('#block-button').textContent === 'Unblock Bes'"
    )
    listed = ana.evaluate("async () => (await (await fetch('/api/blocks')).json()).blocked")
    assert [entry["name"] for entry in listed] == ["Bes"]
    assert "do not reach you" in ana.inner_text("#block-action")
    ana.reload()
    ana.wait_for_selector("#block-button")
    assert ana.inner_text("#block-button") == "Unblock Bes"  # from the server's list
    ana.click("#block-button")
    ana.wait_for_function(
        "() => document.querySelector('#block-button').textContent === 'Block Bes'"
    )
    assert ana.evaluate("async () => (await (await fetch('/api/blocks')).json()).blocked") == []
    ana.goto(f"{server_url}/players/Ana")
    ana.wait_for_selector("#title:has-text('Ana')")
    ana.wait_for_timeout(300)
    assert ana.locator("#block-button").count() == 0
    assert not errors, errors

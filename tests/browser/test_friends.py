"""The friends panel (static/friends.js) in Chromium: on the account page, ask by name, the
request shows live on the other side, accept, the acceptance shows live on the first side,
remove with a second click; a refusal is told on the page. On a profile the panel shows on
one's own profile only (where the friend notifications lead); on any other page that
includes it, a stranger is asked to log in. axe-core finds nothing serious in a full panel."""

from __future__ import annotations

from typing import Any

from .test_accessibility import axe_script, report, violations

PASSWORD = "two crowns, one Nile"
#: What any page that includes the panel has: the section, and the module.
MOUNT = """async () => {
  const section = document.createElement("section");
  section.className = "panel";
  section.id = "friends-panel";
  document.querySelector("main").append(section);
  const friends = await import("/static/friends.js");  // the lobby may have loaded it already
  await friends.mountFriends(section);
}"""


def person(browser: Any, server_url: str, name: str, errors: list[str]) -> Any:
    """A page of the account page, logged in as a new account ``name``."""
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    signed = context.request.post(
        f"{server_url}/api/account/signup", data={"name": name, "password": PASSWORD}
    )
    assert signed.ok, signed.text()
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(f"{server_url}/account")  # its account bar follows the notifications live
    page.wait_for_selector("#account-bar .account-name")
    page.wait_for_selector("#friends-panel #friends-mine")
    return page


def names(page: Any, part: str) -> list[str]:
    texts: list[str] = page.locator(f"#{part} .friend-name").all_inner_texts()
    return texts


def count(page: Any, part: str, n: int) -> None:
    page.wait_for_function(f"() => document.querySelectorAll('#{part} li').length === {n}")


def ask(page: Any, name: str) -> None:
    page.fill("#friend-name", name)
    page.press("#friend-name", "Enter")


def test_ask_accept_and_remove_a_friend(browser: Any, server_url: str) -> None:
    errors: list[str] = []
    ana = person(browser, server_url, "Ana", errors)
    bes = person(browser, server_url, "Bes", errors)
    assert "No friends yet" in ana.inner_text("#friends-mine")
    assert ana.locator("#friends-panel").is_visible()

    ana.fill("#friend-name", "nobody here")
    ana.click("#friend-ask")
    ana.wait_for_function("() => document.querySelector('#friends-error').textContent !== ''")
    assert "no account named" in ana.inner_text("#friends-error")

    ask(ana, "bes")
    count(ana, "friends-outgoing", 1)
    assert names(ana, "friends-outgoing") == ["Bes"]
    assert "Bes is asked" in ana.inner_text("#friends-status")
    assert ana.inner_text("#friends-error") == ""
    # Bes's panel hears of it live, through the account bar's notification
    count(bes, "friends-incoming", 1)
    assert names(bes, "friends-incoming") == ["Ana"]
    bes.get_by_role("button", name="Accept Ana").click()
    count(bes, "friends-mine", 1)
    assert names(bes, "friends-mine") == ["Ana"]
    count(ana, "friends-mine", 1)
    assert names(ana, "friends-mine") == ["Bes"] and names(ana, "friends-outgoing") == []

    ask(ana, "Bes")  # asked twice: told so, nothing changes
    ana.wait_for_function(
        "() => document.querySelector('#friends-status').textContent.includes('already')"
    )
    assert "Bes is your friend already" in ana.inner_text("#friends-status")

    remove = ana.get_by_role("button", name="Remove Bes")
    remove.click()
    assert "Click again" in remove.inner_text()
    assert names(ana, "friends-mine") == ["Bes"]  # one click does not remove
    remove.click()
    count(ana, "friends-mine", 0)
    assert "no longer your friend" in ana.inner_text("#friends-status")
    assert not errors, errors


def test_a_request_is_declined_or_withdrawn(browser: Any, server_url: str) -> None:
    errors: list[str] = []
    ra = person(browser, server_url, "Ra", errors)
    set_ = person(browser, server_url, "Set", errors)
    ka = person(browser, server_url, "Ka", errors)
    ask(ra, "Set")
    count(set_, "friends-incoming", 1)
    set_.get_by_role("button", name="Decline Ra").click()
    count(set_, "friends-incoming", 0)
    assert "You declined Ra's request" in set_.inner_text("#friends-status")
    ra.reload()
    ra.wait_for_selector("#friends-panel #friends-mine")
    assert names(ra, "friends-outgoing") == []  # a decline is silent: the request is gone
    ask(ra, "Set")
    ra.wait_for_function("() => document.querySelector('#friends-error').textContent !== ''")
    assert "declined your friend request" in ra.inner_text("#friends-error")

    ask(ra, "Ka")
    count(ka, "friends-incoming", 1)
    count(ra, "friends-outgoing", 1)
    ra.get_by_role("button", name="Withdraw your request to Ka").click()
    count(ra, "friends-outgoing", 0)
    ka.reload()
    ka.wait_for_selector("#friends-panel #friends-mine")
    assert names(ka, "friends-incoming") == []
    assert not errors, errors


def test_the_profile_shows_the_panel_on_ones_own_profile_only(
    browser: Any, server_url: str
) -> None:
    errors: list[str] = []
    nut = person(browser, server_url, "Nut", errors)
    geb = person(browser, server_url, "Geb", errors)
    ask(nut, "Geb")
    count(geb, "friends-incoming", 1)
    # the notification's link leads to the reader's own profile, to the panel
    link = geb.evaluate(
        "async () => (await (await fetch('/api/notifications')).json()).notifications[0].link"
    )
    assert link == "/players/Geb#friends-panel"
    geb.goto(server_url + link)
    geb.wait_for_selector("#friends-panel:not([hidden]) #friends-incoming li")
    assert names(geb, "friends-incoming") == ["Nut"]
    geb.get_by_role("button", name="Accept Nut").click()
    count(geb, "friends-mine", 1)
    # on someone else's profile, one's own friends are not shown
    geb.goto(f"{server_url}/players/Nut")
    geb.wait_for_function("() => document.querySelector('#friends-panel').dataset.player")
    geb.wait_for_selector("#friends-panel #friends-mine", state="attached")
    assert not geb.locator("#friends-panel").is_visible()
    assert not errors, errors


def test_the_panel_asks_a_stranger_to_log_in(browser: Any, server_url: str) -> None:
    page = browser.new_page()
    page.goto(f"{server_url}/account")
    page.wait_for_selector("#logged-out:not([hidden])")
    assert not page.locator("#friends-panel").is_visible()  # the account page: log in first
    page.goto(server_url + "/")  # any page that includes the panel
    page.wait_for_selector("#account-bar a")
    page.evaluate(MOUNT)
    page.wait_for_selector("#friends-panel a[href^='/account?next=']")
    assert "to add friends" in page.inner_text("#friends-panel")
    page.close()


def test_a_full_panel_has_no_serious_accessibility_violation(browser: Any, server_url: str) -> None:
    errors: list[str] = []
    hapi = person(browser, server_url, "Hapi", errors)
    others = {name: person(browser, server_url, name, errors) for name in ("Amun", "Mut", "Khonsu")}
    ask(others["Amun"], "Hapi")  # a request waiting for Hapi
    ask(others["Mut"], "Hapi")  # a friend, once accepted
    ask(hapi, "Khonsu")  # Hapi's request waiting for Khonsu
    count(hapi, "friends-outgoing", 1)
    count(hapi, "friends-incoming", 2)
    hapi.get_by_role("button", name="Accept Mut").click()
    count(hapi, "friends-mine", 1)
    hapi.get_by_role("button", name="Remove Mut").click()  # its second state, too
    script = axe_script()
    found = {}
    for where in ("/account", "/players/Hapi"):
        if where != "/account":
            hapi.goto(server_url + where)
            hapi.wait_for_selector("#friends-panel:not([hidden]) #friends-mine li")
        items = violations(hapi, script)
        if items:
            found[where] = items
    assert not found, "\n" + report(found)
    assert not errors, errors


def test_a_profile_asks_its_player_to_be_friends(browser: Any, server_url: str) -> None:
    """Someone found on a leaderboard can be asked from their profile; they accept from
    yours; afterwards each profile says so. Your own profile and a stranger get no button."""
    errors: list[str] = []
    ana, bes = (
        person(browser, server_url, "Ana", errors),
        person(browser, server_url, "Bes", errors),
    )
    ana.goto(f"{server_url}/players/Bes")
    ana.wait_for_selector("#friend-button")
    assert ana.inner_text("#friend-button") == "Ask Bes to be friends"
    ana.click("#friend-button")
    ana.wait_for_function(
        "() => document.querySelector('#friend-action').textContent.includes('Bes is told')"
    )
    bes.goto(f"{server_url}/players/Ana")
    bes.wait_for_selector("#friend-button")
    assert bes.inner_text("#friend-button") == "Accept Ana's request"
    bes.click("#friend-button")
    bes.wait_for_function(
        "() => document.querySelector('#friend-action').textContent.includes('are friends')"
    )
    ana.goto(f"{server_url}/players/Bes")
    ana.wait_for_function(
        "() => document.querySelector('#friend-action').textContent === 'Bes is your friend.'"
    )
    ana.goto(f"{server_url}/players/Ana")  # your own profile
    ana.wait_for_selector("#title:has-text('Ana')")
    ana.wait_for_timeout(300)
    assert ana.locator("#friend-action").is_hidden()
    stranger = browser.new_page()
    stranger.goto(f"{server_url}/players/Bes")
    stranger.wait_for_selector("#title:has-text('Bes')")
    stranger.wait_for_timeout(300)
    assert stranger.locator("#friend-action").is_hidden()
    assert not errors, errors

"""After log-in the account page goes on to ``next`` only when it is a page of this site, as
Chromium itself resolves it: a backslash is a slash to the browser, tabs and newlines are
dropped, and a path may begin with two slashes. Every one of those links once led to
another site; now they land on this one."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

#: ``next`` values (as they appear in the link) that name another site once resolved.
HOSTILE = [
    "/%5Cevil.example/x",  # /\evil.example/x: a backslash is a slash
    "/%09/evil.example/x",  # a tab, dropped: //evil.example/x
    "/%0A/evil.example/x",  # a newline, dropped
    "%5C%5Cevil.example/x",
    "/.//evil.example/x",  # the path //evil.example/x: followed as a path, another site
    "https://evil.example/x",
    "//evil.example/x",
    "javascript:alert(1)",
]


@pytest.mark.parametrize("wanted", HOSTILE)
def test_a_next_naming_another_site_lands_here(browser: Any, server_url: str, wanted: str) -> None:
    page = browser.new_page()
    page.goto(f"{server_url}/account?next={wanted}")
    page.fill("#signup-form input[name=name]", "Nefertiti")
    page.fill("#signup-form input[name=password]", "two crowns, one Nile")
    page.click("#signup-form button")
    page.wait_for_url(lambda url: "/account" not in url)
    here = urlsplit(server_url)
    landed = urlsplit(page.url)
    assert (landed.scheme, landed.netloc) == (here.scheme, here.netloc), page.url


def test_a_next_on_this_site_is_followed(browser: Any, server_url: str) -> None:
    page = browser.new_page()
    page.goto(f"{server_url}/account?next=/leaderboard/amunre%3Fx%3D1")
    page.fill("#signup-form input[name=name]", "Nefertiti")
    page.fill("#signup-form input[name=password]", "two crowns, one Nile")
    page.click("#signup-form button")
    page.wait_for_url(lambda url: "/account" not in url)
    assert page.url == server_url + "/leaderboard/amunre?x=1"


def test_the_check_resolves_as_the_browser_does(browser: Any, server_url: str) -> None:
    page = browser.new_page()
    page.goto(f"{server_url}/account")
    decided = page.evaluate(
        """async (cases) => {
          const { sameSiteAddress } = await import("/static/account.js");
          return cases.map((wanted) => sameSiteAddress(wanted));
        }""",
        ["/\\evil.example", "/\t/evil.example", "\\\\evil.example", "/me#x", "", "/games/a?b=c"],
    )
    assert decided == ["/", "/", "/", f"{server_url}/me#x", "/", f"{server_url}/games/a?b=c"]

"""The account page's e-mail section in Chromium: an address saved, its confirmation link
(sent to the test's SMTP server) opened in this browser and in a browser that is logged out,
a refused address told on the page, the section with e-mail off, and axe-core on it."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from karnak.server.app import create_app
from karnak.server.mail.routes import configure_mail
from support.smtp import SmtpServer

from .conftest import free_port, running
from .test_accessibility import axe_script, report, violations


@pytest.fixture
def mailing(tmp_path: Path) -> Iterator[tuple[str, SmtpServer]]:
    """A real server that sends e-mail to the test's SMTP server, and that server."""
    with SmtpServer() as smtp:
        port = free_port()
        app = create_app(f"sqlite:///{tmp_path / 'browser.sqlite3'}", bot_workers=0)
        configure_mail(app, smtp.settings(public_url=f"http://127.0.0.1:{port}", tick=3600))
        with running(app, port) as url:
            yield url, smtp


def sign_up(page: Any, url: str, name: str) -> None:
    page.goto(url + "/account?next=/account")
    page.fill("#signup-form input[name=name]", name)
    page.fill("#signup-form input[name=password]", "a long password")
    page.click("#signup-form button")
    page.wait_for_selector("#email:not([hidden])")


def confirmation_link(smtp: SmtpServer, address: str, count: int) -> str:
    deadline = time.monotonic() + 10
    while len(smtp.to(address)) < count:
        assert time.monotonic() < deadline, "no confirmation e-mail came"
        time.sleep(0.05)
    found = re.search(r"http://\S+/account#confirm=[A-Za-z0-9_-]+", smtp.to(address)[-1].body)
    assert found is not None
    return found[0]


def test_an_address_is_saved_and_confirmed_from_its_link(
    browser: Any, mailing: tuple[str, SmtpServer]
) -> None:
    url, smtp = mailing
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    sign_up(page, url, "Nefertiti")
    assert "No address" in page.inner_text("#email-state")
    assert page.is_checked("#email-form input[name=turn]")
    assert not page.is_checked("#email-form input[name=daily]")
    # an address the server refuses (the browser takes it): the reason is shown
    page.fill("#email-form input[name=address]", "nefertiti@localhost")
    page.click("#email-form button[type=submit]")
    page.wait_for_function("() => document.querySelector('#email-error').textContent !== ''")
    assert "domain" in page.inner_text("#email-error")
    page.fill("#email-form input[name=address]", "nefertiti@example.org")
    page.check("#email-form input[name=daily]")
    page.click("#email-form button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('#email-state').textContent.includes('Waiting')"
    )
    assert page.inner_text("#email-error") == ""
    assert page.is_visible("#email-resend")
    link = confirmation_link(smtp, "nefertiti@example.org", 1)
    assert link.startswith(url + "/account#confirm=")
    page.goto(link)
    page.wait_for_selector("#email-confirm-result:not([hidden])")
    assert "is confirmed" in page.inner_text("#email-confirm-result")
    assert "#" not in page.url  # the code leaves the address bar at once
    page.wait_for_function(
        "() => document.querySelector('#email-state').textContent.startsWith('Confirmed')"
    )
    assert page.is_checked("#email-form input[name=daily]")
    assert not page.is_visible("#email-resend")
    # a new address, confirmed from a browser that is not logged in
    page.fill("#email-form input[name=address]", "queen@example.org")
    page.click("#email-form button[type=submit]")
    link = confirmation_link(smtp, "queen@example.org", 1)
    elsewhere = browser.new_context().new_page()
    elsewhere.goto(link)
    elsewhere.wait_for_selector("#email-confirm-result:not([hidden])")
    assert "is confirmed" in elsewhere.inner_text("#email-confirm-result")
    assert elsewhere.is_visible("#logged-out") and not elsewhere.is_visible("#email")
    # a second time, as from the e-mail again (a fresh load: from /account the same link
    # would only change the fragment): it is used
    elsewhere.goto("about:blank")
    elsewhere.goto(link)
    elsewhere.wait_for_selector("#email-confirm-result:not([hidden])")
    assert "does not work" in elsewhere.inner_text("#email-confirm-result")
    page.reload()
    page.wait_for_function(
        "() => document.querySelector('#email-state').textContent.includes('queen@example.org')"
    )
    assert page.inner_text("#email-state") == "Confirmed: queen@example.org."
    found = violations(page, axe_script())
    assert not found, "\n" + report({"the e-mail section": found})
    assert not errors, errors


def test_the_page_says_when_the_server_sends_no_e_mail(browser: Any, server_url: str) -> None:
    page = browser.new_page()
    sign_up(page, server_url, "Nefertiti")
    assert page.is_visible("#email-off") and not page.is_visible("#email-form")
    assert "off on this server" in page.inner_text("#email-off")

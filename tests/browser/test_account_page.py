"""The account page in Chromium: sign up, the header's bar, log out, log in again, a
refused log-in told on the page; the session cookies as the browser keeps them."""

from __future__ import annotations

from typing import Any


def test_sign_up_log_out_and_in_again(browser: Any, server_url: str) -> None:
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server_url + "/account?next=/")
    page.fill("#signup-form input[name=name]", "Nefertiti")
    page.fill("#signup-form input[name=password]", "a long password")
    page.click("#signup-form button")
    page.wait_for_url(server_url + "/")
    page.wait_for_selector("#account-bar .account-name")
    assert page.inner_text("#account-bar .account-name") == "Nefertiti"
    cookies = {c["name"]: c for c in page.context.cookies()}
    assert cookies["karnak_session"]["httpOnly"] and cookies["karnak_session"]["secure"]
    assert not cookies["karnak_csrf"]["httpOnly"]
    assert page.evaluate("() => document.cookie").count("karnak_session") == 0
    page.goto(server_url + "/account")
    page.wait_for_selector("#logged-in:not([hidden])")
    page.click("#logout")
    page.wait_for_url(server_url + "/")
    page.wait_for_selector("#account-bar .account-link")
    page.goto(server_url + "/account")
    page.fill("#login-form input[name=name]", "nefertiti")
    page.fill("#login-form input[name=password]", "the wrong one")
    page.click("#login-form button")
    page.wait_for_function("() => document.querySelector('#login-error').textContent !== ''")
    assert "do not match" in page.inner_text("#login-error")
    page.fill("#login-form input[name=password]", "a long password")
    page.click("#login-form button")
    page.wait_for_url(server_url + "/")
    page.wait_for_selector("#account-bar .account-name")
    assert not errors, errors

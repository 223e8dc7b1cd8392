"""The administration page (static/admin.js) in Chromium. The first administrator is made as
docs/administration.md says, with ``karnak admin create`` on the command line while the
server runs; they log in on the account page, which leads them on to /admin, find a player
by the beginning of the name, suspend them with a reason, and see the player's standing and
the audit log's new row; the player's session is over. A player who opens /admin, and a
visitor who is not logged in, are told plainly that the page is not theirs. No script error,
and axe-core finds nothing serious on the page full or refusing."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from karnak.cli.main import app as cli
from karnak.server.app import create_app

from .conftest import running
from .test_accessibility import axe_script, report, violations
from .test_friends import PASSWORD, person
from .test_leaderboard import shots_dir

REASON = "insults in every game"
#: What Chromium logs of any request the server refused: expected of the refusals below.
REFUSED_REQUEST = "Failed to load resource: the server responded with a status of"


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A server on a SQLite file: its address and the file."""
    database = str(tmp_path / "admin.sqlite3")
    with running(create_app(f"sqlite:///{database}", bot_workers=0)) as url:
        yield url, database


def watched(page: Any, errors: list[str], *, script: bool = True) -> Any:
    """``page``, with its console errors (and its script errors unless ``script`` is false:
    ``person`` hears those already) written to ``errors``."""
    if script:
        page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda msg: msg.type == "error" and errors.append(msg.text))
    return page


def make_admin(database: str, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``karnak admin create NAME``, the password typed (twice) at its prompts."""
    monkeypatch.setattr("getpass.getpass", lambda prompt="": PASSWORD)
    result = CliRunner().invoke(cli, ["admin", "create", name, "--database", database])
    assert result.exit_code == 0, result.output
    assert f"created {name}, an administrator" in result.output


def audit_rows(page: Any) -> list[list[str]]:
    rows: list[list[str]] = page.eval_on_selector_all(
        "#audit tbody tr",
        "(rows) => rows.map((r) => [...r.cells].map((c) => c.textContent))",
    )
    return rows


def facts(page: Any) -> dict[str, str]:
    """The user panel's facts, term by term."""
    terms = page.locator("#user-facts dt").all_inner_texts()
    values = page.locator("#user-facts dd").all_inner_texts()
    return dict(zip(terms, values, strict=True))


def test_an_administrator_finds_and_suspends_a_player(
    browser: Any, site: tuple[str, str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    server_url, database = site
    errors: list[str] = []
    bes = person(browser, server_url, "Bes", errors)  # a player, logged in on the account page
    make_admin(database, "Ra", monkeypatch)  # while the server runs

    context = browser.new_context(viewport={"width": 1280, "height": 800})
    ra = watched(context.new_page(), errors)
    ra.goto(f"{server_url}/account?next=/admin")
    ra.fill("#login-form input[name=name]", "Ra")
    ra.fill("#login-form input[name=password]", PASSWORD)
    ra.click("#login-form button")
    ra.wait_for_url(f"{server_url}/admin")
    ra.wait_for_selector("#admin-body:not([hidden])")
    assert ra.inner_text("#admin-error") == ""
    assert ra.inner_text("#account-bar .account-name") == "Ra"
    # the command line's own row: Ra was made an administrator
    assert [row[1:4] for row in audit_rows(ra)] == [["command line", "create_admin", "account: Ra"]]

    # find the player by the beginning of the name, any case
    ra.fill("#find-text", "be")
    ra.click("#find-form button[type=submit]")
    ra.wait_for_selector("#found li button")
    assert ra.locator("#found li").all_inner_texts() == ["Bes · player · active"]
    ra.click("#found li button:text-is('Bes')")
    ra.wait_for_selector("#user-panel:not([hidden])")
    assert ra.inner_text("#user-heading") == "User: Bes"
    assert facts(ra)["Status"] == "active"

    # suspend for a week, with a reason
    week = (dt.datetime.now() + dt.timedelta(days=7)).replace(second=0, microsecond=0)
    ra.fill("#user-until", week.strftime("%Y-%m-%dT%H:%M"))
    ra.fill("#user-reason", REASON)
    ra.click("#user-form button[data-action=suspend]")
    ra.wait_for_function(
        "() => document.querySelector('#admin-done').textContent === 'Bes is suspended.'"
    )
    assert ra.inner_text("#admin-error") == ""
    ra.wait_for_function("() => document.querySelectorAll('#audit tbody tr').length === 2")
    when, who, what, on, detail = audit_rows(ra)[0]  # newest first
    assert (who, what, on) == ("Ra", "suspend", "account: Bes")
    assert detail.startswith("until ") and detail.endswith(REASON), detail
    assert when and when != "—"
    ra.wait_for_function(
        "() => document.querySelector('#user-facts').textContent.includes('suspended')"
    )
    shown = facts(ra)
    assert shown["Status"] == "suspended"
    assert shown["Suspended until"] != "—"
    # the player's standing changed on the server too: the session is over, logging in refused
    assert bes.evaluate("async () => (await (await fetch('/api/account')).json()).account") is None
    login = bes.context.request.post(
        f"{server_url}/api/account/login", data={"name": "Bes", "password": PASSWORD}
    )
    assert login.status == 403, login.text()
    ra.fill("#find-text", "Bes")
    ra.click("#find-form button[type=submit]")
    ra.wait_for_function("() => document.querySelector('#found').textContent.includes('suspended')")

    found = {"the administration page": violations(ra, axe_script())}
    ra.screenshot(path=str(shots_dir(tmp_path) / "admin.png"), full_page=True)
    context.close()
    assert not any(found.values()), report(found)
    assert not errors, errors


def test_a_player_and_a_visitor_are_refused_plainly(browser: Any, server_url: str) -> None:
    errors: list[str] = []
    bes = watched(person(browser, server_url, "Bes", errors), errors, script=False)
    bes.goto(f"{server_url}/admin")
    bes.wait_for_function("() => document.querySelector('#admin-error').textContent !== ''")
    assert bes.inner_text("#admin-error") == (
        "only administrators may do this, and this account is not one"
    )
    assert bes.locator("#admin-error").is_visible()
    assert bes.locator("#admin-body").is_hidden()
    assert bes.inner_text("#account-bar .account-name") == "Bes"
    found = {"/admin as a player": violations(bes, axe_script())}

    visitor = watched(browser.new_page(viewport={"width": 1280, "height": 800}), errors)
    visitor.goto(f"{server_url}/admin")
    visitor.wait_for_function("() => document.querySelector('#admin-error').textContent !== ''")
    assert visitor.inner_text("#admin-error") == (
        "Log in with an administrator's account to use this page."
    )
    assert visitor.locator("#admin-body").is_hidden()
    assert visitor.get_by_role("link", name="Log in or sign up").get_attribute("href") == (
        "/account?next=%2Fadmin"
    )
    found["/admin logged out"] = violations(visitor, axe_script())
    assert not any(found.values()), report(found)
    # the refused request itself is in the console; nothing else may be
    assert not [e for e in errors if not e.startswith(REFUSED_REQUEST)], errors
    assert any("403" in e for e in errors), errors

"""Forgot password: one answer whatever exists (and before any look-up), a link only to a
confirmed address, used once (of two uses at once, one wins), dead when expired, replaced or
outdated by a password change (one 400 for all), the sign-up's password rules, every session
ended, and the rate limits per client and per account. Each test runs on SQLite and, with
KARNAK_TEST_POSTGRES_URL, on PostgreSQL, against an SMTP server of its own.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.server.accounts.recovery import INVALID_LINK, RecoveryService, RecoveryStore
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from karnak.server.mail.routes import configure_mail
from support.smtp import Captured, SmtpServer

from .conftest import wait_for
from .test_accounts import PASSWORD, csrf
from .test_mail import Person, Site

RESET_LINK = re.compile(r"http://testserver/reset#token=([A-Za-z0-9_-]+)")
NEW_PASSWORD = "a new sun over Thebes, 1479 BC"
#: Allowances large enough for a test's many requests from its one client.
ROOMY = {
    "creates_per_minute": 10_000,
    "account_attempts_per_minute": 1_000,
    "password_resets_per_hour": 1_000,
    "password_reset_mails_per_hour": 1_000,
}


class Recovery(Site):
    """A site that mails, with its recovery service at hand."""

    @property
    def recovery(self) -> RecoveryService:
        recovery: RecoveryService = self.client.app.state.recovery  # type: ignore[attr-defined]
        return recovery

    def ask(self, account: str) -> Any:
        self.as_(None)
        return self.client.post("/api/account/password-reset", json={"account": account})

    def settle(self) -> None:
        """Wait until the requests were looked up and their e-mails handed to SMTP."""
        self.client.portal.call(self.recovery.settle)  # type: ignore[union-attr]
        wait_for(self.mail.sender.idle, timeout=10)

    def resets(self, address: str) -> list[Captured]:
        return [m for m in self.smtp.to(address) if "reset your password" in m.subject]

    def token(self, address: str, count: int = 1) -> str:
        """The token of the ``count``-th reset link sent to ``address``."""
        wait_for(lambda: len(self.resets(address)) >= count, timeout=10)
        found = RESET_LINK.search(self.resets(address)[count - 1].body)
        assert found is not None
        return found[1]

    def use(self, token: str, password: str = NEW_PASSWORD) -> Any:
        self.as_(None)
        return self.client.post(
            "/api/account/password-reset/confirm", json={"token": token, "password": password}
        )

    def log_in(self, name: str, password: str) -> int:
        self.client.cookies.clear()
        answer = self.client.post("/api/account/login", json={"name": name, "password": password})
        return answer.status_code

    def logged_in(self, person: Person) -> bool:
        self.as_(person)
        return self.client.get("/api/account").json()["account"] is not None


def recovery_app(database: str, smtp: SmtpServer | None, **settings: Any) -> Any:
    app = create_app(database, bot_workers=0, settings=ServerSettings(**{**ROOMY, **settings}))
    if smtp is not None:
        configure_mail(app, smtp.settings(tick=3600))
    return app


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture
def site(database: str, smtp: SmtpServer) -> Iterator[Recovery]:
    with TestClient(recovery_app(database, smtp)) as client:
        yield Recovery(client, smtp)


def seen(answer: Any) -> tuple[int, bytes, str | None]:
    """What a client learns from an answer: its status, body and content type."""
    return answer.status_code, answer.content, answer.headers.get("content-type")


# ---------------------------------------------------------------------- asking
def test_every_request_gets_one_answer_and_only_a_confirmed_address_a_link(
    site: Recovery,
) -> None:
    ada = site.person("Ada", "ada@example.org")
    site.person("Bea")  # no address
    site.person("Cy", "cy@example.org", confirm=False)  # an address never confirmed
    asked = [
        "Ada",
        "ADA@example.org",  # an address is found whatever its case
        "Bea",
        "Cy",
        "cy@example.org",
        "Nobody",
        "nobody@example.org",
    ]
    answers = {seen(site.ask(who)) for who in asked}
    assert len(answers) == 1, answers  # the same status, body and type for every one
    [(status, body, _)] = answers
    assert status == 202 and b"if an account has this name" in body
    site.settle()
    assert len(site.resets("ada@example.org")) == 2  # by name, by address
    assert site.resets("cy@example.org") == []  # only its confirmation went there
    assert {m.to for m in site.smtp.received() if "reset" in m.subject} == {"ada@example.org"}
    mail = site.resets("ada@example.org")[-1]
    assert "within 60 minutes" in mail.body and "Ada" not in mail.body
    assert ada.id  # the link names no account: only the token says which


def test_the_answer_comes_before_any_look_up(
    site: Recovery, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The look-up runs after the answer, so its time cannot tell which names exist: with
    the look-up held up, the request is answered all the same."""
    site.person("Ada", "ada@example.org")
    release = threading.Event()
    looked_up = RecoveryStore.recipients

    def slow(store: RecoveryStore, asked: str) -> Any:
        assert release.wait(10)
        return looked_up(store, asked)

    monkeypatch.setattr(RecoveryStore, "recipients", slow)
    answer = site.ask("Ada")
    assert answer.status_code == 202  # answered while the look-up waits
    assert site.resets("ada@example.org") == []
    release.set()
    site.settle()
    assert len(site.resets("ada@example.org")) == 1


# ---------------------------------------------------------------------- using a link
def test_a_link_sets_the_password_once_and_ends_every_session(site: Recovery) -> None:
    ada = site.person("Ada", "ada@example.org")
    site.client.cookies.clear()
    assert site.log_in("Ada", PASSWORD) == 200
    elsewhere = Person("Ada", ada.id, ada.address, dict(site.client.cookies))
    assert site.logged_in(ada) and site.logged_in(elsewhere)
    site.ask("ada@example.org")
    token = site.token("ada@example.org")
    done = site.use(token)
    assert done.status_code == 200, done.text
    assert done.json() == {"reset": True}
    assert "karnak_session" not in done.cookies  # it logs nobody in
    assert not site.logged_in(ada) and not site.logged_in(elsewhere)
    assert site.log_in("Ada", PASSWORD) == 401
    assert site.log_in("Ada", NEW_PASSWORD) == 200
    again = site.use(token, "yet another password, 42 times")
    assert (again.status_code, again.json()) == (400, {"error": INVALID_LINK})
    assert site.log_in("Ada", NEW_PASSWORD) == 200


def test_of_two_uses_at_once_exactly_one_wins(site: Recovery) -> None:
    site.person("Ada", "ada@example.org")
    site.ask("Ada")
    token = site.token("ada@example.org")
    passwords = ["first of the two passwords!", "second of the two passwords?"]
    start = threading.Barrier(2)

    def use(password: str) -> int:
        start.wait()
        answer = site.client.post(
            "/api/account/password-reset/confirm", json={"token": token, "password": password}
        )
        return answer.status_code

    site.as_(None)
    with ThreadPoolExecutor(2) as pool:
        statuses = list(pool.map(use, passwords))
    assert sorted(statuses) == [200, 400]
    winner = passwords[statuses.index(200)]
    loser = passwords[statuses.index(400)]
    assert site.log_in("Ada", winner) == 200
    assert site.log_in("Ada", loser) == 401


def test_the_store_lets_one_of_two_simultaneous_uses_through(site: Recovery) -> None:
    """The same race at the database, without the service's threads in between: the
    conditional DELETE lets one transaction use the link (PostgreSQL: truly at once)."""
    ada = site.person("Ada", "ada@example.org")
    store = site.recovery.store
    now = dt.datetime.now(dt.UTC)
    for attempt in range(5):
        token_hash = f"{attempt:064d}"
        assert store.issue(ada.id, token_hash, now, now + dt.timedelta(hours=1))
        start = threading.Barrier(2)
        use = functools.partial(used_at_once, store, start, token_hash)
        with ThreadPoolExecutor(2) as pool:
            used = list(pool.map(use, ["hash-a", "hash-b"]))
        assert sorted(used, key=lambda x: x is None) == [ada.id, None], used


def used_at_once(
    store: RecoveryStore, start: threading.Barrier, token_hash: str, new_hash: str
) -> int | None:
    start.wait()
    return store.use(token_hash, new_hash, dt.datetime.now(dt.UTC))


def test_unknown_used_expired_replaced_and_outdated_links_get_one_answer(
    site: Recovery,
) -> None:
    ada = site.person("Ada", "ada@example.org")
    refused = (400, {"error": INVALID_LINK})

    def tried(token: str) -> tuple[int, Any]:
        answer = site.use(token)
        return answer.status_code, answer.json()

    assert tried("A" * 43) == refused  # unknown
    # replaced: a newer link makes the older one useless
    site.ask("Ada")
    older = site.token("ada@example.org", 1)
    site.ask("Ada")
    newer = site.token("ada@example.org", 2)
    assert tried(older) == refused
    # expired: an hour later the newer one is dead too
    later = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=61)
    site.recovery.clock = lambda: later
    assert tried(newer) == refused
    site.recovery.clock = lambda: dt.datetime.now(dt.UTC)
    # outdated: the password changed (on the account page) after the link was sent
    site.ask("Ada")
    outdated = site.token("ada@example.org", 3)
    site.as_(ada)
    changed = site.client.post(
        "/api/account/password",
        json={"current": PASSWORD, "new": "changed on the page, 3 times"},
        headers=csrf(site.client),
    )
    assert changed.status_code == 200, changed.text
    assert tried(outdated) == refused
    assert site.log_in("Ada", "changed on the page, 3 times") == 200
    # and a good one still works (used at the last minute)
    site.ask("Ada")
    good = site.token("ada@example.org", 4)
    almost = dt.datetime.now(dt.UTC) + dt.timedelta(minutes=59)
    site.recovery.clock = lambda: almost
    assert tried(good) == (200, {"reset": True})


def test_a_refused_password_leaves_the_link_working(site: Recovery) -> None:
    """The sign-up's rules apply (the same check), and a refusal does not use the link."""
    site.person("Ada", "ada@example.org")
    site.ask("Ada")
    token = site.token("ada@example.org")
    short = site.use(token, "short")
    assert short.status_code == 422
    assert "password" in short.json()["error"]
    signup = site.client.post("/api/account/signup", json={"name": "Zed", "password": "short"})
    assert short.json()["error"] == signup.json()["error"]
    common = site.use(token, "password1234")
    assert common.status_code == 422
    assert "too easy to guess" in common.json()["error"]
    assert site.use(token).status_code == 200


def test_inputs_are_bounded(site: Recovery) -> None:
    site.as_(None)
    post = site.client.post
    for body in (
        {},
        {"account": ""},
        {"account": "a" * 255},
        {"account": 12},
        {"account": "Ada", "more": 1},
    ):
        answer = post("/api/account/password-reset", json=body)
        assert answer.status_code == 422, (body, answer.text)
        assert "error" in answer.json()
    for body in (
        {"token": "", "password": NEW_PASSWORD},
        {"token": "x" * 101, "password": NEW_PASSWORD},
        {"token": "no spaces here", "password": NEW_PASSWORD},
        {"token": "abc", "password": "p" * 201},
        {"token": "abc"},
    ):
        answer = post("/api/account/password-reset/confirm", json=body)
        assert answer.status_code == 422, (body, answer.text)


# ---------------------------------------------------------------------- limits
def test_requests_are_limited_per_client_and_e_mails_per_account(
    database: str, smtp: SmtpServer
) -> None:
    app = recovery_app(database, smtp, password_resets_per_hour=6, password_reset_mails_per_hour=2)
    with TestClient(app) as client:
        site = Recovery(client, smtp)
        site.person("Ada", "ada@example.org")
        site.person("Bea", "bea@example.org")
        answers = [seen(site.ask("Ada")) for _ in range(4)]
        assert len(set(answers)) == 1 and answers[0][0] == 202  # the same, sent or not
        site.settle()
        assert len(site.resets("ada@example.org")) == 2  # the account's most an hour
        assert seen(site.ask("Bea"))[0] == 202
        assert seen(site.ask("Bea"))[0] == 202
        refused = site.ask("Bea")  # the client's seventh this hour
        assert refused.status_code == 429
        assert "at most 6 password resets an hour" in refused.json()["error"]
        assert int(refused.headers["Retry-After"]) >= 1
        site.settle()
        assert len(site.resets("bea@example.org")) == 2


def test_the_uses_of_links_count_against_the_client_s_account_attempts(
    database: str, smtp: SmtpServer
) -> None:
    with TestClient(recovery_app(database, smtp, account_attempts_per_minute=3)) as client:
        site = Recovery(client, smtp)
        statuses = [site.use(f"guess{n}").status_code for n in range(4)]
        assert statuses == [400, 400, 400, 429]


# ---------------------------------------------------------------------- administrators
def test_send_reset_queues_a_link_only_to_a_confirmed_address(site: Recovery) -> None:
    ada = site.person("Ada", "ada@example.org")
    bea = site.person("Bea")
    cy = site.person("Cy", "cy@example.org", confirm=False)
    call = site.client.portal.call  # type: ignore[union-attr]
    assert call(site.recovery.send_reset, ada.id) is True
    assert call(site.recovery.send_reset, bea.id) is False
    assert call(site.recovery.send_reset, cy.id) is False
    assert call(site.recovery.send_reset, 999_999) is False
    token = site.token("ada@example.org")
    assert site.use(token).status_code == 200


def test_without_e_mail_nothing_is_sent_and_the_answer_is_the_same(database: str) -> None:
    with TestClient(recovery_app(database, None)) as client:
        signed = client.post("/api/account/signup", json={"name": "Ada", "password": PASSWORD})
        ada = signed.json()["account"]["id"]
        client.cookies.clear()
        answer = client.post("/api/account/password-reset", json={"account": "Ada"})
        assert answer.status_code == 202
        recovery: RecoveryService = client.app.state.recovery  # type: ignore[attr-defined]
        assert client.portal.call(recovery.send_reset, ada) is False  # type: ignore[union-attr]


# ---------------------------------------------------------------------- pages
def test_the_account_page_links_to_the_reset_page(client: TestClient) -> None:
    assert 'href="/reset"' in client.get("/account").text
    page = client.get("/reset")
    assert page.status_code == 200
    assert "/static/reset.js" in page.text
    assert client.get("/static/reset.js").status_code == 200

"""E-mail: the account's address and choices (checked, bounded, confirmed before anything
else is sent), the "your turn" and invitation e-mails with the rules that keep them few, the
daily reminder (a fake clock, never twice a day, not even across a restart), an SMTP server
that fails (one line in the log, nothing else), links without tokens, and e-mails that tell a
seat nothing hidden from it. Every test runs on SQLite and PostgreSQL, against an SMTP server
the test starts (tests/support/smtp.py).
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.server.app import create_app
from karnak.server.db import make_engine, migrate, run_migrations
from karnak.server.mail.compose import daily_mail, turn_mail, waiting
from karnak.server.mail.reminders import daily_round
from karnak.server.mail.routes import configure_mail
from karnak.server.mail.service import INVITATIONS_PER_HOUR, MailService
from karnak.server.notifications.service import Notification, Notifier
from karnak.server.service import GameService
from support.amunre_hidden import redeal_hidden
from support.egyptia_positions import THREE_IN_GRAIN, roll, set_have
from support.smtp import Captured, SmtpServer

from .conftest import create, humans, wait_for
from .test_accounts import PASSWORD, csrf
from .test_api import play_random

CONFIRM_LINK = re.compile(r"http://testserver/account#confirm=([A-Za-z0-9_-]+)")


@dataclass
class Person:
    name: str
    id: int
    address: str | None
    cookies: dict[str, str]


class Site:
    """A server that mails to the test's SMTP server, and people taking turns at its client
    (each with their own cookies)."""

    def __init__(self, client: TestClient, smtp: SmtpServer):
        self.client, self.smtp = client, smtp

    @property
    def mail(self) -> MailService:
        mail: MailService = self.client.app.state.mail  # type: ignore[attr-defined]
        return mail

    def person(
        self, name: str, address: str | None = None, *, confirm: bool = True, **choices: Any
    ) -> Person:
        self.client.cookies.clear()
        signed = self.client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        person = Person(name, signed.json()["account"]["id"], address, dict(self.client.cookies))
        if address is not None:
            before = len(self.smtp.to(address))
            assert self.set_email(person, address=address, **choices).status_code == 200
            if confirm:
                self.confirm(self.code(address, before + 1))
        return person

    def as_(self, person: Person | None) -> None:
        self.client.cookies.clear()
        if person is not None:
            self.client.cookies.update(person.cookies)

    def set_email(self, person: Person, **body: Any) -> Any:
        self.as_(person)
        return self.client.post("/api/account/email", json=body, headers=csrf(self.client))

    def preferences(self, person: Person) -> dict[str, Any]:
        self.as_(person)
        answer = self.client.get("/api/account/email")
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        return found

    def code(self, address: str, count: int = 1) -> str:
        """The code of the ``count``-th confirmation sent to ``address``."""
        wait_for(lambda: len(self.smtp.to(address)) >= count, timeout=10)
        found = CONFIRM_LINK.search(self.smtp.to(address)[count - 1].body)
        assert found is not None
        return found[1]

    def confirm(self, code: str) -> Any:
        self.as_(None)  # the link works in any browser: the code is the proof
        return self.client.post("/api/account/email/confirm", json={"code": code})

    def game(self, game: str, people: list[Person | None], **extra: Any) -> tuple[str, list[str]]:
        """A game whose seats the people hold (None: a guest seat)."""
        seats = [
            {"kind": "human", "name": p.name if p else f"Guest {i}"} for i, p in enumerate(people)
        ]
        self.as_(None)
        created = self.client.post("/api/games", json={"game": game, "seats": seats, **extra})
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        tokens = [seat["token"] for seat in created.json()["seats"]]
        for seat, person in enumerate(people):
            if person is not None:
                self.as_(person)
                claimed = self.client.post(
                    f"/api/games/{game_id}/claim",
                    params={"token": tokens[seat]},
                    headers=csrf(self.client),
                )
                assert claimed.status_code == 200, claimed.text
        return game_id, tokens

    def notify(self, person: Person, kind: str, text: str, link: str | None) -> Notification:
        notifier: Notifier = self.client.app.state.notifier  # type: ignore[attr-defined]
        note: Notification = self.client.portal.call(  # type: ignore[union-attr]
            notifier.notify, person.id, kind, text, link
        )
        return note

    def decision(self, note: Notification) -> str:
        """What the e-mail service made of the notification (waiting for it)."""

        def found() -> str | None:
            return next((d for n, _, d in list(self.mail.decided) if n == note.id), None)

        wait_for(lambda: found() is not None, timeout=10)
        decided = found()
        assert decided is not None
        return decided

    def mailed(self, person: Person, kind: str) -> list[Captured]:
        """The e-mails of one kind (by subject) the person's address received."""
        assert person.address is not None
        words = {"turn": "your turn", "invitation": "invitation", "daily": "waiting for you"}
        return [m for m in self.smtp.to(person.address) if words[kind] in m.subject]

    def at(self, moment: dt.datetime) -> None:
        """Set the e-mail service's clock."""
        self.mail.clock = lambda: moment

    def daily(self, moment: dt.datetime) -> int:
        self.at(moment)
        sent: int = self.client.portal.call(daily_round, self.mail, moment)  # type: ignore[union-attr]
        return sent


def mailing_app(database: str, smtp: SmtpServer, **settings: Any) -> Any:
    app = create_app(database, bot_workers=0)
    # the daily round runs when a test says so (not on its own clock)
    configure_mail(app, smtp.settings(tick=3600, **settings))
    return app


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture
def site(database: str, smtp: SmtpServer) -> Iterator[Site]:
    with TestClient(mailing_app(database, smtp)) as client:
        yield Site(client, smtp)


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def mover_of(site: Site, game_id: str) -> int:
    site.as_(None)
    movers: list[int] = site.client.get(f"/api/games/{game_id}").json()["to_move"]
    assert len(movers) == 1
    return movers[0]


# ---------------------------------------------------------------------- preferences
def test_the_choices_need_a_session_and_writes_the_csrf_token(site: Site) -> None:
    assert site.client.get("/api/account/email").status_code == 401
    assert site.client.post("/api/account/email", json={}).status_code == 401
    ana = site.person("Ana")
    assert site.preferences(ana) == {
        "enabled": True,
        "address": None,
        "confirmed": False,
        "pending": False,
        "turn": True,
        "invitation": True,
        "daily": False,
        "daily_hour": 8,
        "turn_hours": 12.0,
    }
    site.as_(ana)
    refused = site.client.post("/api/account/email", json={"address": "ana@example.org"})
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    assert site.preferences(ana)["address"] is None
    assert site.smtp.received() == []


def test_email_is_off_without_an_smtp_server(client: TestClient) -> None:
    client.post("/api/account/signup", json={"name": "Ana", "password": PASSWORD})
    shown = client.get("/api/account/email").json()
    assert shown["enabled"] is False and shown["address"] is None
    refused = client.post(
        "/api/account/email", json={"address": "ana@example.org"}, headers=csrf(client)
    )
    assert refused.status_code == 409 and "off on this server" in refused.json()["error"]
    assert client.get("/api/account/email").json()["address"] is None


BAD_ADDRESSES = [
    "ana",
    "ana@",
    "@example.org",
    "ana@@example.org",
    "ana@example",
    "ana@127.0.0.1",
    "ana example@example.org",
    "ana@exa mple.org",
    "ana..b@example.org",
    '"ana"@example.org',
    "<ana@example.org>",
    "ana@example.org, eve@example.org",
    "ana@example.org\r\nBcc: eve@example.org",
    "änä@example.org",
    "ana@-example.org",
    "a" * 65 + "@example.org",
    "ana@" + "a" * 60 + "." + "b" * 60 + "." + "c" * 60 + "." + "d" * 63 + ".info",  # 255
    "ana@" + "a" * 64 + ".org",  # a label of 64
]


def test_addresses_are_checked_and_bounded(site: Site) -> None:
    ana = site.person("Ana")
    for address in BAD_ADDRESSES:
        refused = site.set_email(ana, address=address)
        assert refused.status_code == 422, (address, refused.text)
        assert "address" in refused.json()["error"], address
    for body in ({"address": 5}, {"turn": "yes"}, {"gossip": True}, {"daily": None}):
        assert site.set_email(ana, **body).status_code == 422, body
    assert site.set_email(ana, address="a" * 70_000 + "@example.org").status_code == 413
    assert site.smtp.received() == []  # nothing was stored, nothing sent
    assert site.preferences(ana)["address"] is None
    stored = site.set_email(ana, address="  Ana.B+karnak@Example.ORG ")
    assert stored.json()["address"] == "Ana.B+karnak@example.org"
    assert site.set_email(ana, address="").json()["address"] is None  # empty: no address


def test_a_new_address_gets_a_confirmation_and_nothing_else(site: Site) -> None:
    ana = site.person("Ana", "ana@example.org", confirm=False)
    [confirmation] = site.smtp.wait_for(1)
    assert confirmation.recipients == ("ana@example.org",)
    assert "confirm" in confirmation.subject and "48 hours" in confirmation.body
    shown = site.preferences(ana)
    assert shown["address"] == "ana@example.org" and not shown["confirmed"] and shown["pending"]
    game_id, _ = site.game("aton", [ana, None])
    note = site.notify(ana, "turn", "Your turn in Aton", f"/games/{game_id}")
    assert site.decision(note) == "not asked"  # unconfirmed: nothing but the confirmation
    code = site.code("ana@example.org")
    wrong = site.confirm(("B" if code[0] == "A" else "A") + code[1:])  # one letter off
    assert wrong.status_code == 422 and "does not work" in wrong.json()["error"]
    assert site.confirm("not a code!").status_code == 422
    assert site.confirm(code).json() == {"confirmed": True}
    assert site.client.get("/api/account").json()["account"] is None  # it logged nobody in
    assert site.confirm(code).status_code == 422  # once only
    shown = site.preferences(ana)
    assert shown["confirmed"] and not shown["pending"]
    note = site.notify(ana, "turn", "Your turn in Aton", f"/games/{game_id}")
    assert site.decision(note) == "sent"
    assert len(site.smtp.wait_for(2)) == 2
    # another address is unconfirmed again: it gets its confirmation, the turn goes nowhere
    site.set_email(ana, address="ana@example.net")
    site.code("ana@example.net")
    assert not site.preferences(ana)["confirmed"]
    other_id, _ = site.game("aton", [ana, None])
    note = site.notify(ana, "turn", "Your turn in Aton", f"/games/{other_id}")
    assert site.decision(note) == "not asked"
    assert len(site.smtp.to("ana@example.org")) == 2


def test_confirmations_are_spaced_per_address_and_counted_per_account(site: Site) -> None:
    start = now()
    site.at(start)
    ana = site.person("Ana", "eve@example.org", confirm=False)
    bes = site.person("Bes")
    refused = site.set_email(bes, address="eve@example.org")  # someone else, same address
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 60
    assert "at most one every 10 minutes" in refused.json()["error"]
    assert site.set_email(ana, address="eve@example.org", resend=True).status_code == 429
    first = site.code("eve@example.org")
    site.at(start + dt.timedelta(minutes=11))
    assert site.set_email(ana, address="eve@example.org", resend=True).status_code == 200
    second = site.code("eve@example.org", 2)
    assert site.confirm(first).status_code == 422  # replaced by the newer link
    for n in range(3):  # five confirmations a day from one account
        site.at(start + dt.timedelta(minutes=22 + 11 * n))
        assert site.set_email(ana, address=f"ana{n}@example.org").status_code == 200
    site.at(start + dt.timedelta(minutes=60))
    refused = site.set_email(ana, address="ana9@example.org")
    assert refused.status_code == 429 and "a day per account" in refused.json()["error"]
    assert len(site.smtp.wait_for(5)) == 5
    assert site.confirm(second).status_code == 422  # the address changed since
    site.at(start + dt.timedelta(days=1, minutes=1))
    assert site.set_email(ana, address="ana9@example.org").status_code == 200


# ---------------------------------------------------------------------- your turn
def test_your_turn_says_public_facts_and_links_to_the_game_without_a_token(site: Site) -> None:
    ana = site.person("Ana", "ana@example.org")
    bes = site.person("Bes", "bes@example.org")
    game_id, tokens = site.game("aton", [ana, bes])  # both lay out their cards at once
    note = site.notify(bes, "turn", "Your turn in Aton (with Ana)", f"/games/{game_id}")
    assert site.decision(note) == "sent"
    [mail] = site.smtp.wait_for(3)[2:]
    assert mail.recipients == ("bes@example.org",) and mail.to == "bes@example.org"
    assert mail.subject == "Karnak: your turn in Aton"
    assert str(mail.message["From"]) == "Karnak <karnak@example.org>"
    assert mail.message["Auto-Submitted"] == "auto-generated"
    body = mail.body
    assert "It is your turn in Aton, with Ana and Bes (you)." in body
    assert "The game has waited since" in body
    links = re.findall(r"https?://\S+", body)
    assert f"http://testserver/games/{game_id}" in links
    assert all("?" not in link and "token" not in link for link in links)
    for secret in [*tokens, *ana.cookies.values(), *bes.cookies.values()]:
        assert secret not in body
    # the link alone opens the game as a spectator: it names no seat and logs nobody in
    site.as_(None)
    assert site.client.get(f"/games/{game_id}").status_code == 200
    assert site.client.get(f"/api/games/{game_id}").json()["seat"] is None


def test_one_your_turn_e_mail_per_game_every_few_hours(site: Site) -> None:
    start = now()
    bes = site.person("Bes", "bes@example.org")
    first, _ = site.game("aton", [None, bes])
    second, _ = site.game("aton", [None, bes])
    site.at(start)
    decided = [
        site.decision(site.notify(bes, "turn", "Your turn", f"/games/{game}"))
        for game in (first, first, second)
    ]
    assert decided == ["sent", "recent", "sent"]
    site.at(start + dt.timedelta(hours=11, minutes=59))
    assert site.decision(site.notify(bes, "turn", "Your turn", f"/games/{first}")) == "recent"
    site.at(start + dt.timedelta(hours=12, minutes=1))
    assert site.decision(site.notify(bes, "turn", "Your turn", f"/games/{first}")) == "sent"
    wait_for(lambda: len(site.mailed(bes, "turn")) == 3, timeout=10)
    assert "at most one a game every 12 hours" in site.mailed(bes, "turn")[0].body


def test_no_your_turn_while_a_page_is_open_or_once_the_turn_is_played(site: Site) -> None:
    ana = site.person("Ana", "ana@example.org")
    bes = site.person("Bes", "bes@example.org")
    game_id, _ = site.game("amunre", [bes, None, ana], seed=1)
    assert mover_of(site, game_id) == 2  # Ana bids first; Bes waits
    note = site.notify(bes, "turn", "Your turn", f"/games/{game_id}")
    assert site.decision(note) == "not to move"
    # a page open (the account's live socket): the notification is seen there, not mailed
    site.as_(ana)
    with site.client.websocket_connect("/api/account/ws"):
        wait_for(lambda: site.mail.connected(ana.id), timeout=10)
        note = site.notify(ana, "turn", "Your turn", f"/games/{game_id}")
        assert site.decision(note) == "connected"
    wait_for(lambda: not site.mail.connected(ana.id), timeout=10)
    # switched off: nothing
    site.set_email(ana, address="ana@example.org", turn=False)
    note = site.notify(ana, "turn", "Your turn", f"/games/{game_id}")
    assert site.decision(note) == "not asked"
    # a notification that leads to no game of this server: nothing
    site.set_email(ana, address="ana@example.org", turn=True)
    for link in (None, "/me", "/games/nosuchgame", "https://elsewhere.example/games/x"):
        assert site.decision(site.notify(ana, "turn", "Your turn", link)) in (
            "no game",
            "not to move",
        )
    assert site.mailed(ana, "turn") == [] and site.mailed(bes, "turn") == []
    # and once the page is closed and the turn still Ana's, it is mailed
    assert site.decision(site.notify(ana, "turn", "Your turn", f"/games/{game_id}")) == "sent"


# ---------------------------------------------------------------------- invitations
def test_invitations_are_mailed_without_tokens_and_at_most_ten_an_hour(site: Site) -> None:
    site.at(now())
    ana = site.person("Ana")
    bes = site.person("Bes", "bes@example.org")
    game_id, tokens = site.game("aton", [ana, None])
    link = f"/games/{game_id}?token={tokens[1]}#seat-2"
    note = site.notify(bes, "invitation", "Ana invites you to a game of Aton", link)
    assert site.decision(note) == "sent"
    [mail] = site.smtp.wait_for(2)[1:]
    assert mail.subject == "Karnak: an invitation" and mail.recipients == ("bes@example.org",)
    assert "Ana invites you to a game of Aton" in mail.body
    assert "Aton, with Ana and Guest 1." in mail.body
    assert f"Open it: http://testserver/games/{game_id}\n" in mail.body
    assert tokens[1] not in mail.body and "token" not in mail.body and "#seat" not in mail.body
    decided = [
        site.decision(site.notify(bes, "invitation", f"invitation {n}", "/me"))
        for n in range(INVITATIONS_PER_HOUR)
    ]
    assert decided == ["sent"] * (INVITATIONS_PER_HOUR - 1) + ["too many"]
    wait_for(lambda: len(site.mailed(bes, "invitation")) == INVITATIONS_PER_HOUR, timeout=10)
    assert "Open it: http://testserver/me\n" in site.mailed(bes, "invitation")[-1].body
    site.at(now() + dt.timedelta(hours=1, minutes=1))
    site.set_email(bes, address="bes@example.org", invitation=False)
    assert site.decision(site.notify(bes, "invitation", "again", "/me")) == "not asked"
    # other kinds of notification are never mailed
    friend = site.notify(bes, "friend_request", "Ana asks to be your friend", "/me")
    site.set_email(bes, address="bes@example.org")
    turn = site.notify(bes, "turn", "Your turn", f"/games/{game_id}")
    assert site.decision(turn) == "not to move"  # Bes holds no seat there
    # (decided in order: the friend request, published before it, was not even looked at)
    assert friend.id not in [n for n, _, _ in site.mail.decided]


# ---------------------------------------------------------------------- the daily reminder
def test_the_daily_reminder_lists_the_games_waiting_once_a_day(
    database: str, smtp: SmtpServer
) -> None:
    with TestClient(mailing_app(database, smtp)) as client:
        site = Site(client, smtp)
        ana = site.person("Ana", "ana@example.org", daily=True)
        bes = site.person("Bes", "bes@example.org", daily=True)
        site.person("Ka", "ka@example.org", daily=False)
        older, _ = site.game("amunre", [bes, None, ana], seed=1)  # Ana to move, Bes waits
        newer, _ = site.game("aton", [ana, None])  # Ana lays out her cards
        site.game("amunre", [None, bes, None], seed=1)  # Bes waits there too
        tomorrow = now().replace(hour=0, minute=0, second=0, microsecond=0) + dt.timedelta(days=1)
        assert site.daily(tomorrow + dt.timedelta(hours=7, minutes=59)) == 0  # before 8 UTC
        at_eight = tomorrow + dt.timedelta(hours=8)
        assert site.daily(at_eight) == 1  # Ana only: nothing waits on Bes, Ka did not ask
        wait_for(lambda: len(site.mailed(ana, "daily")) == 1, timeout=10)
        [mail] = site.mailed(ana, "daily")
        assert mail.subject == "Karnak: 2 games waiting for you"
        body = mail.body
        assert body.index(f"/games/{older}") < body.index(f"/games/{newer}")  # longest first
        assert "- Amun-Re, with Bes, Guest 1 and Ana (you)" in body
        assert "- Aton, with Ana (you) and Guest 1" in body
        since = r"  waiting since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(\d+ (minute|hour|day)s?\)\n"
        assert len(re.findall(since, body)) == 2
        assert "token" not in body and "?" not in body
        assert site.mailed(bes, "daily") == [] and smtp.to("ka@example.org")[1:] == []
        assert site.daily(at_eight + dt.timedelta(hours=7)) == 0  # once a day
    with TestClient(mailing_app(database, smtp)) as client:  # a restart the same day
        site = Site(client, smtp)
        assert site.daily(at_eight + dt.timedelta(hours=9)) == 0
        assert site.daily(at_eight + dt.timedelta(days=1)) == 1  # the next day again
        wait_for(lambda: len(site.mailed(ana, "daily")) == 2, timeout=10)
    assert site.mailed(bes, "daily") == []


def test_turning_the_reminder_on_counts_as_the_days_round(site: Site) -> None:
    today = now().replace(hour=9, minute=0, second=0, microsecond=0)
    site.at(today)
    ana = site.person("Ana", "ana@example.org", daily=True)  # after 8: from tomorrow on
    site.game("aton", [ana, None])
    assert site.daily(today + dt.timedelta(hours=1)) == 0
    assert site.daily(today + dt.timedelta(days=1)) == 1


# ---------------------------------------------------------------------- failures
class Heard(logging.Handler):
    """The log records a logger was given."""

    def __init__(self, level: int):
        super().__init__(level)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.mark.parametrize("failure", ["unreachable", "refused"])
def test_an_smtp_failure_is_one_line_in_the_log_and_harms_nothing(
    database: str, failure: str
) -> None:
    heard = Heard(logging.WARNING)
    smtp = SmtpServer().start()
    try:
        with TestClient(mailing_app(database, smtp)) as client:
            site = Site(client, smtp)
            ana = site.person("Ana", "ana@example.org")
            game_id, _ = site.game("amunre", [None, None, ana], seed=1)
            if failure == "unreachable":
                smtp.stop()
            else:
                smtp.refuse = True
            # listen on the logger itself: ``karnak serve`` (tests/cli) may have stopped its
            # propagation to the root logger in this process
            logging.getLogger("karnak.server").addHandler(heard)
            note = site.notify(ana, "turn", "Your turn", f"/games/{game_id}")
            assert site.decision(note) == "sent"  # handed to the sender, which fails
            wait_for(lambda: site.mail.sender.failed == 1, timeout=30)
            lines = [r.getMessage() for r in heard.records if "e-mail" in r.getMessage()]
            assert len(lines) == 1 and "\n" not in lines[0], lines
            assert f"1 not sent (turn for account {ana.id})" in lines[0]
            assert "ana@example.org" not in lines[0]  # addresses stay out of the log
            # the game and the notifications go on
            site.as_(ana)
            mine = client.get(f"/api/games/{game_id}").json()
            move = {"version": mine["version"], "action": mine["legal"][0]["text"]}
            played = client.post(f"/api/games/{game_id}/actions", json=move, headers=csrf(client))
            assert played.status_code == 200, played.text
            listed = client.get("/api/notifications").json()["notifications"]
            assert note.id in [n["id"] for n in listed]
            assert client.get("/api/account/email").status_code == 200
    finally:
        logging.getLogger("karnak.server").removeHandler(heard)
        smtp.stop()


@pytest.mark.parametrize("tls", ["starttls", "ssl"])
@pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")  # TLS from the start
def test_tls_and_the_log_in_reach_the_smtp_server(database: str, tls: str) -> None:
    with (
        SmtpServer(tls=tls, user="karnak", password="a secret") as smtp,
        TestClient(mailing_app(database, smtp)) as client,
    ):
        Site(client, smtp).person("Ana", "ana@example.org", confirm=False)
        [mail] = smtp.wait_for(1)
    assert mail.tls and mail.login == "karnak" and "confirm" in mail.subject
    with SmtpServer(tls=tls, user="karnak", password="a secret") as smtp:
        wrong = smtp.settings(password="not it")
        app = create_app(database, bot_workers=0)
        configure_mail(app, wrong)
        with TestClient(app) as client:
            site = Site(client, smtp)
            site.person("Bes", "bes@example.org", confirm=False)
            wait_for(lambda: site.mail.sender.failed == 1, timeout=10)
        assert smtp.received() == []


# ---------------------------------------------------------------------- hidden information
def test_an_e_mail_tells_a_seat_nothing_hidden_from_it(client: TestClient) -> None:
    """Re-deal what a seat cannot see: its e-mails' words, and whether its turn is mailed,
    stay the same."""
    created = create(client, humans(4), seed=21, options={"expert_provinces": True})
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    since, moment = now() - dt.timedelta(hours=5), now()
    checked = 0
    for chunk in range(10):
        play_random(client, game_id, tokens, 9, seed=chunk)
        if room.is_over:
            break
        truth = room.state
        assert isinstance(truth, AmunReState)
        for seat in range(4):

            def words(seat: int = seat) -> tuple[str, str, bool]:
                game = waiting(room, seat, since)
                turn = turn_mail(game, moment, "http://testserver", 12).body
                daily = daily_mail([game], moment, "http://testserver").body
                return turn, daily, seat in room.state.to_move()

            before = words()
            for k in range(3):
                room.state = redeal_hidden(truth, seat, Rng(100 * chunk + k))
                assert words() == before
            room.state = truth
            checked += 1
    assert checked >= 20


def test_private_steps_change_no_one_elses_e_mail(site: Site) -> None:
    """An Egyptia builder's steps after the reveal are private: the others' reminders and
    turn e-mails (words, waiting time, whether they go) stay the same while they happen."""
    people = [
        site.person(name, f"{name.lower()}@example.org", daily=True)
        for name in ("Ana", "Bes", "Ka")
    ]
    game_id, tokens = site.game(
        "egyptia", list(people), seed=8, options={"cards": "A2,B2,C3,D2,E3"}
    )
    service: GameService = site.client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, THREE_IN_GRAIN)
    for seat in range(3):
        set_have(state, seat, (3, 3, 3, 2))
    room.state = state
    site.as_(None)

    def post(seat: int, text: str) -> dict[str, Any]:
        mine = site.client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
        response = site.client.post(
            f"/api/games/{game_id}/actions",
            params={"token": tokens[seat]},
            json={"version": mine["version"], "action": text},
        )
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()["view"]
        return view

    post(0, "choose diamond")
    post(2, "choose diamond")
    post(1, "choose grain")  # the reveal: public
    moment = now() + dt.timedelta(hours=3)

    def e_mails() -> list[tuple[str, str] | None]:
        """What Ana's and Ka's e-mails would say now."""
        said: list[tuple[str, str] | None] = []
        for person in (people[0], people[2]):
            game = site.client.portal.call(site.mail.waiting_for, game_id, person.id)  # type: ignore[union-attr]
            if game is None:
                said.append(None)
                continue
            turn = turn_mail(game, moment, "http://testserver", 12).body
            said.append((turn, daily_mail([game], moment, "http://testserver").body))
        return said

    before = e_mails()
    assert before[0] is not None and before[1] is not None  # both have their own steps
    steps = 0
    for _ in range(8):  # Bes's round: plague, payments, building, reward
        mine = site.client.get(f"/api/games/{game_id}", params={"token": tokens[1]}).json()
        legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
        after = post(1, legal[-1])
        if after["observation"]["you"]["stage"] == "done":
            break
        steps += 1
        assert e_mails() == before, f"after Bes's step {steps}"
    assert steps >= 2


# ---------------------------------------------------------------------- migration
@pytest.mark.empty_database
def test_the_mail_tables_migrate_up_and_down_on_their_own_branch(database: str) -> None:
    """0009_mail goes up from 0004 alone (whatever other branches, or their merge, exist),
    down again without touching what 0004 holds, and up with every other head."""
    engine = make_engine(database)
    mail_tables = {"mail_preferences", "mail_sent"}
    try:
        run_migrations(engine, "upgrade", "0004")
        base = set(inspect(engine).get_table_names())
        assert not base & mail_tables
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                    "VALUES ('Ana', 'ana', 'x', :now)"
                ),
                {"now": now()},
            )
        run_migrations(engine, "upgrade", "0009_mail")  # this branch only
        assert set(inspect(engine).get_table_names()) == base | mail_tables
        columns = {c["name"] for c in inspect(engine).get_columns("mail_preferences")}
        assert {"address", "confirmed_at", "code_hash", "daily_checked_at"} <= columns
        with engine.begin() as connection:
            connection.execute(
                text(
                    "INSERT INTO mail_preferences (account_id, address, turn, invitation, "
                    "daily, updated_at) SELECT id, 'ana@example.org', true, true, false, "
                    ":now FROM accounts"
                ),
                {"now": now()},
            )
        run_migrations(engine, "downgrade", "0004")
        assert set(inspect(engine).get_table_names()) == base  # the others untouched
        with engine.connect() as connection:
            assert connection.execute(text("SELECT name FROM accounts")).scalars().all() == ["Ana"]
        migrate(engine)  # every head, with any merge of the branches
        assert mail_tables <= set(inspect(engine).get_table_names())
    finally:
        engine.dispose()

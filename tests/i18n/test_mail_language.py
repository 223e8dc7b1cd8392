"""What Karnak tells an account while it is away is written in that account's language.

An idle game's warning and expiry (notification and e-mail) and an invitation to a table
(notification and e-mail), each read by accounts whose setting is German, French and
English, on SQLite, against the SMTP server the test starts (tests/support/smtp.py); the
account e-mails, a time bank refusal (``Accept-Language``) and the terminal's legend of
confidence marks (German, French, the pseudo-locale). The texts compared are the
catalogue's; the English ones are those the server's own tests read.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from karnak.core.terminal import confidence_legend
from karnak.i18n import use_language
from karnak.server.mail.compose import confirmation_mail, reset_mail
from karnak.server.timebank.clock import span
from server.conftest import wait_for
from server.test_accounts import csrf
from server.test_idle_expiry import Idle, backdate, idle_app, idle_notes
from server.test_mail import Person
from support.smtp import Captured, SmtpServer
from support.templates import Templates

DAY = dt.timedelta(days=1)

#: Per language: words of the idle warning, of its e-mail's subject, and of the expiry.
IDLE = {
    "de": ("Wenn bis", "Karnak: Eine Partie verfällt, wenn niemand zieht", "ohne Wertung"),
    "fr": ("si personne ne joue avant", "Karnak : une partie va expirer", "sans classement"),
    "en": ("unless someone moves before", "Karnak: a game will expire", "unfinished and unrated"),
}
#: The accounts that read these texts, and their language settings.
IDLE_NAMES = (("Ada", "de"), ("Bea", "fr"), ("Cyd", "en"))
#: Per language: the invitation's words, its e-mail's subject and the e-mail's own line.
INVITED = {
    "de": (
        "Ana lädt dich an einen Tisch für Amun-Re ein (4 Spieler): Platz {seat} ist für dich "
        "reserviert.",
        "Karnak: eine Einladung",
        "Du bekommst diese E-Mail, weil du Einladungen per E-Mail angefordert hast.",
    ),
    "fr": (
        "Ana t'invite à une table de Amun-Re (4 joueurs) : la place {seat} t'est réservée.",
        "Karnak : une invitation",
        "Tu reçois cet e-mail parce que tu as demandé à recevoir les invitations par e-mail.",
    ),
    "en": (
        "Ana invites you to a table of Amun-Re (4 players): seat {seat} is kept for you.",
        "Karnak: an invitation",
        "You get this e-mail because you asked for invitations by e-mail.",
    ),
}


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


@pytest.fixture
def database(tmp_path: Path, templates: Templates) -> str:
    return templates.sqlite(tmp_path / "karnak.sqlite3")


@pytest.fixture
def site(database: str, smtp: SmtpServer) -> Iterator[Idle]:
    with TestClient(idle_app(database, smtp)) as client:
        yield Idle(client, smtp)


def speaking(site: Idle, name: str, language: str) -> Person:
    """An account with a confirmed address whose language setting is ``language``."""
    person = site.person(name, f"{name.lower()}@example.org")
    site.as_(person)
    chosen = site.client.put(
        "/api/language", json={"language": language}, headers=csrf(site.client)
    )
    assert chosen.status_code == 200 and chosen.json()["account"] == language, chosen.text
    return person


def received(site: Idle, person: Person, subject: str) -> list[Captured]:
    """The e-mails to the person whose subject holds ``subject`` (waiting for one)."""
    address = person.address or ""

    def found() -> list[Captured]:
        return [m for m in site.smtp.to(address) if subject in m.subject]

    wait_for(lambda: bool(found()), timeout=10)
    return found()


def test_an_idle_game_warns_and_expires_in_each_readers_language(site: Idle, database: str) -> None:
    people = {language: speaking(site, name, language) for name, language in IDLE_NAMES}
    game_id, _tokens = site.game("amunre", list(people.values()))
    backdate(database, game_id, 4.5 * DAY)
    assert site.sweep().warned == [game_id]
    for language, person in people.items():
        warning, subject, _ = IDLE[language]
        [text] = idle_notes(database, person)
        assert warning in text, (language, text)
        assert all(p.name in text for p in people.values())  # names as written
        [mail] = received(site, person, subject)
        assert text in mail.body and f"http://testserver/games/{game_id}" in mail.body
        others = [words[1] for other, words in IDLE.items() if other != language]
        assert not any(other in mail.subject for other in others), mail.subject
    assert "Zur Partie: http://testserver/games/" in received(site, people["de"], "Eine")[0].body
    assert site.sweep(dt.datetime.now(dt.UTC) + 1.01 * DAY).expired == [game_id]
    for language, person in people.items():
        assert IDLE[language][2] in idle_notes(database, person)[-1]
    assert "nobody moved for" not in idle_notes(database, people["de"])[-1]


def test_an_invitation_and_its_email_are_in_the_invited_accounts_language(site: Idle) -> None:
    invited = {language: speaking(site, name, language) for name, language in IDLE_NAMES}
    ana = site.person("Ana")
    site.as_(ana)
    made = site.client.post(
        "/api/tables",
        json={"game": "amunre", "seats": [{"kind": "human"}] + [{"kind": "open"}] * 3},
        headers=csrf(site.client),
    )
    assert made.status_code == 201, made.text
    table_id = made.json()["table"]["id"]
    for seat, person in enumerate(invited.values(), start=1):
        site.as_(ana)
        answer = site.client.post(
            f"/api/tables/{table_id}/invite",
            json={"seat": seat, "name": person.name},
            headers=csrf(site.client),
        )
        assert answer.status_code == 200, answer.text
    for seat, (language, person) in enumerate(invited.items(), start=2):
        text, subject, why = INVITED[language]
        site.as_(person)
        [note] = site.client.get("/api/notifications").json()["notifications"]
        assert note["kind"] == "invitation" and note["text"] == text.format(seat=seat)
        [mail] = received(site, person, subject)
        assert mail.subject == subject
        assert text.format(seat=seat) in mail.body and why in mail.body
        assert f"http://testserver/tables/{table_id}" in mail.body


def test_a_time_bank_refusal_follows_accept_language(site: Idle) -> None:
    body = {"game": "aton", "seats": [{"kind": "human"}] * 2, "time_control": {"per_move": 3600}}
    site.as_(None)
    texts = {}
    for language, header in (("en", {}), ("de", {"Accept-Language": "de"})):
        answer = site.client.post("/api/games", json=body, headers=header)
        assert answer.status_code == 422, answer.text
        texts[language] = answer.json()["error"]
    assert "give a speed by name, or both per_move and bank" in texts["en"]
    assert "gib ein Tempo mit Namen an oder sowohl per_move als auch bank" in texts["de"]


def test_durations_and_the_confidence_legend_are_translated() -> None:
    with use_language("de"):
        assert span(36 * 3600) == "1 Tag 12 h" and span(2 * 86400) == "2 Tage"
        legend = confidence_legend("aton", "meanings").plain
        assert "Verlässlichkeit:" in legend and "rekonstruiert ?" in legend
        assert "karnak board aton --dump" in legend and "--board DATEI" in legend
    with use_language("fr"):
        assert span(36 * 3600) == "1 jour 12 h"
        assert "Fiabilité :" in confidence_legend("aton", "").plain
    assert span(36 * 3600) == "1 day 12 h"
    english = confidence_legend("aton", "meanings").plain
    assert english.startswith("Confidence: printed (no mark) · one source * · reconstructed ?")
    with use_language("xx"):
        pseudo = confidence_legend("aton", "meanings").plain
    for words in ("Confidence:", "printed", "one source", "reconstructed", "(no mark)"):
        assert f"⟦{words}⟧" in pseudo, pseudo
    assert "⟦Correct a copy of `karnak board aton --dump`" in pseudo


def test_the_account_mails_are_written_in_the_current_language() -> None:
    with use_language("fr"):
        confirm = confirmation_mail("c0de", "http://testserver", 48)
        reset = reset_mail("t0ken", "http://testserver", 60)
    assert confirm.subject == "Karnak : confirme ton adresse e-mail"
    assert "dans un délai de 48 heures" in confirm.body
    assert "http://testserver/account#confirm=c0de\n" in confirm.body
    assert reset.subject == "Karnak : réinitialise ton mot de passe"
    assert "http://testserver/reset#token=t0ken\n" in reset.body
    with use_language("de"):
        assert "innerhalb von 60 Minuten" in reset_mail("t", "http://testserver", 60).body
    english = confirmation_mail("c0de", "http://testserver", 48)
    assert english.subject == "Karnak: confirm your e-mail address"
    assert "within 48 hours" in english.body

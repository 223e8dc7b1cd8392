"""``karnak serve``'s e-mail options: read from the command line or the environment (the
command line first), checked in one line each, the SMTP password from the environment only,
and given to the server, which then sends with them.

uvicorn is replaced by a stand-in that keeps the application it was given, so no server
starts; the settings are read from it.
"""

from __future__ import annotations

import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.mail.settings import MailSettings
from support.smtp import SmtpServer

#: Every variable the options read, unset (the tests' own environment must not leak in).
MAIL_ENV = [
    "KARNAK_SMTP_HOST",
    "KARNAK_SMTP_PORT",
    "KARNAK_SMTP_USER",
    "KARNAK_SMTP_PASSWORD",
    "KARNAK_SMTP_FROM",
    "KARNAK_SMTP_STARTTLS",
    "KARNAK_SMTP_SSL",
    "KARNAK_PUBLIC_URL",
    "KARNAK_MAIL_DAILY_HOUR",
    "KARNAK_MAIL_TURN_HOURS",
]


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    apps: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **_: apps.append(app))
    return apps


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def serve(tmp_path: Path, *options: str, env: dict[str, str] | None = None) -> Any:
    environment: dict[str, str | None] = {"COLUMNS": "150", **dict.fromkeys(MAIL_ENV)}
    environment.update(env or {})
    command = ["serve", "--port", str(free_port()), "--database", str(tmp_path / "k.sqlite3")]
    return CliRunner(env=environment).invoke(app, [*command, *options])


def mail_of(served: list[Any]) -> MailSettings:
    settings: MailSettings = served[0].state.mail_settings
    return settings


def one_line_error(result: Any) -> str:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


SMTP = ["--smtp-host", "smtp.example.org", "--smtp-from", "karnak@example.org"]


def test_email_is_off_unless_an_smtp_host_is_given(served: list[Any], tmp_path: Path) -> None:
    result = serve(tmp_path)
    assert result.exit_code == 0, result.output
    mail = mail_of(served)
    assert not mail.enabled and mail.host is None
    assert mail.public_url.startswith("http://127.0.0.1:")  # the host and port served
    assert "E-mail: off" in result.output


def test_the_options_reach_the_server(served: list[Any], tmp_path: Path) -> None:
    result = serve(
        tmp_path,
        "--smtp-host",
        "smtp.example.org",
        "--smtp-port",
        "2525",
        "--smtp-user",
        "karnak",
        "--smtp-from",
        "Karnak <karnak@example.org>",
        "--smtp-starttls",
        "--public-url",
        "https://karnak.example.org/play/",
        "--mail-daily-hour",
        "6",
        "--mail-turn-hours",
        "3",
        env={"KARNAK_SMTP_PASSWORD": "two crowns"},
    )
    assert result.exit_code == 0, result.output
    mail = mail_of(served)
    assert (mail.host, mail.port, mail.security) == ("smtp.example.org", 2525, "starttls")
    assert (mail.user, mail.password) == ("karnak", "two crowns")
    assert mail.sender == "Karnak <karnak@example.org>"
    assert mail.public_url == "https://karnak.example.org/play"
    assert (mail.daily_hour, mail.turn_every) == (6, 3 * 3600)
    assert "two crowns" not in result.output and "two crowns" not in repr(mail)
    assert "via smtp.example.org:2525 (starttls, as karnak)" in result.output


def test_the_environment_sets_them_and_the_command_line_wins(
    served: list[Any], tmp_path: Path
) -> None:
    env = {
        "KARNAK_SMTP_HOST": "mail.example.net",
        "KARNAK_SMTP_PORT": "25",
        "KARNAK_SMTP_USER": "k",
        "KARNAK_SMTP_PASSWORD": "pw",
        "KARNAK_SMTP_FROM": "k@example.net",
        "KARNAK_SMTP_SSL": "1",
        "KARNAK_PUBLIC_URL": "https://games.example.net",
        "KARNAK_MAIL_DAILY_HOUR": "20",
        "KARNAK_MAIL_TURN_HOURS": "0.5",
    }
    assert serve(tmp_path, env=env).exit_code == 0
    mail = mail_of(served)
    assert (mail.host, mail.port, mail.security, mail.user) == ("mail.example.net", 25, "ssl", "k")
    assert (mail.sender, mail.public_url) == ("k@example.net", "https://games.example.net")
    assert (mail.daily_hour, mail.turn_every) == (20, 1800)
    assert serve(tmp_path, "--smtp-port", "465", "--mail-daily-hour", "7", env=env).exit_code == 0
    assert (mail_of(served[1:]).port, mail_of(served[1:]).daily_hour) == (465, 7)


@pytest.mark.parametrize(
    ("options", "port", "security"),
    [([], 25, "none"), (["--smtp-starttls"], 587, "starttls"), (["--smtp-ssl"], 465, "ssl")],
)
def test_the_port_follows_the_encryption(
    served: list[Any], tmp_path: Path, options: list[str], port: int, security: str
) -> None:
    assert serve(tmp_path, *SMTP, *options).exit_code == 0
    assert (mail_of(served).port, mail_of(served).security) == (port, security)


@pytest.mark.parametrize("form", [["--smtp-password", "hunter2"], ["--smtp-password=hunter2"]])
def test_the_password_is_never_taken_on_the_command_line(
    served: list[Any], tmp_path: Path, form: list[str]
) -> None:
    result = serve(tmp_path, *SMTP, "--smtp-user", "karnak", *form)
    line = one_line_error(result)
    assert "KARNAK_SMTP_PASSWORD" in line and "hunter2" not in result.output
    assert not served


@pytest.mark.parametrize(
    ("options", "env", "said"),
    [
        (["--smtp-starttls", "--smtp-ssl"], {}, "choose one of --smtp-starttls and --smtp-ssl"),
        (["--smtp-port", "0"], {}, "--smtp-port must be between 1 and 65535"),
        (["--smtp-port", "70000"], {}, "--smtp-port must be between 1 and 65535"),
        (["--smtp-user", "karnak"], {}, "KARNAK_SMTP_PASSWORD is not set"),
        (["--smtp-from", "not an address"], {}, "--smtp-from"),
        (["--smtp-from", "a@example.org, b@example.org"], {}, "--smtp-from"),
        (["--smtp-from", "Bad\u0007Name <k@example.org>"], {}, "--smtp-from"),
        (["--public-url", "ftp://example.org"], {}, "--public-url"),
        (["--public-url", "https://user:pw@example.org"], {}, "no user name or password"),
        (["--public-url", "https://example.org/?x=1"], {}, "no ?query"),
        (["--mail-daily-hour", "24"], {}, "--mail-daily-hour is an hour from 0 to 23"),
        (["--mail-turn-hours", "-1"], {}, "--mail-turn-hours is between 0 and 168"),
        (["--mail-turn-hours", "200"], {}, "--mail-turn-hours is between 0 and 168"),
        ([], {"KARNAK_SMTP_HOST": "smtp host"}, "--smtp-host 'smtp host' is not a host"),
    ],
)
def test_bad_settings_are_one_clear_line(
    served: list[Any], tmp_path: Path, options: list[str], env: dict[str, str], said: str
) -> None:
    base = [] if env else SMTP
    if options and options[0] == "--smtp-from":
        base = ["--smtp-host", "smtp.example.org"]
    result = serve(tmp_path, *base, *options, env=env)
    assert said in one_line_error(result)
    assert not served and "Karnak on" not in result.output  # refused before starting


def test_without_a_sender_e_mail_cannot_start(served: list[Any], tmp_path: Path) -> None:
    line = one_line_error(serve(tmp_path, "--smtp-host", "smtp.example.org"))
    assert "--smtp-from (or KARNAK_SMTP_FROM) is needed" in line


def test_the_server_sends_with_the_settings_it_was_given(served: list[Any], tmp_path: Path) -> None:
    with SmtpServer(tls="starttls", user="karnak", password="two crowns") as smtp:
        result = serve(
            tmp_path,
            "--smtp-host",
            "127.0.0.1",
            "--smtp-port",
            str(smtp.port),
            "--smtp-starttls",
            "--smtp-user",
            "karnak",
            "--smtp-from",
            "karnak@example.org",
            "--public-url",
            "https://karnak.example.org",
            env={"KARNAK_SMTP_PASSWORD": "two crowns"},
        )
        assert result.exit_code == 0, result.output
        server = served[0]
        # the test's authority is trusted here (the system's would be, for a real server)
        server.state.mail_settings = replace(mail_of(served), tls_context=smtp.client_context)
        with TestClient(server) as client:
            client.post(
                "/api/account/signup", json={"name": "Ana", "password": "scarab beetle at dawn"}
            )
            csrf = {"X-CSRF-Token": client.cookies.get("karnak_csrf") or ""}
            answer = client.post(
                "/api/account/email", json={"address": "ana@example.org"}, headers=csrf
            )
            assert answer.status_code == 200, answer.text
            [mail] = smtp.wait_for(1)
    assert mail.tls and mail.login == "karnak"
    assert str(mail.message["From"]) == "karnak@example.org"
    assert "https://karnak.example.org/account#confirm=" in mail.body

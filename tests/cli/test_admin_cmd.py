"""``karnak admin``: the first administrator made on the command line (its password asked
twice, never on the command line), the role granted and revoked, the list; bad input is one
line; each change is in the audit log, done by "command line"."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from karnak.cli.main import app
from karnak.server.db import make_engine

runner = CliRunner(env={"COLUMNS": "150"})
PASSWORD = "two crowns, one Nile"


@pytest.fixture
def database(tmp_path: Path) -> str:
    return str(tmp_path / "karnak.sqlite3")


def typed(monkeypatch: pytest.MonkeyPatch, *answers: str) -> list[str]:
    """The answers getpass gives, in order; the prompts it was asked with."""
    prompts: list[str] = []
    left = list(answers)

    def getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return left.pop(0)

    monkeypatch.setattr("getpass.getpass", getpass)
    return prompts


def admin(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["admin", *args])
    return result.exit_code, result.output


def rows(database: str, query: str) -> list[tuple[object, ...]]:
    engine = make_engine(f"sqlite:///{database}")
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query))]
    finally:
        engine.dispose()


def test_create_makes_an_administrator_with_the_password_typed_twice(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = typed(monkeypatch, PASSWORD, PASSWORD)
    code, output = admin("create", "Hatshepsut", "--database", database)
    assert code == 0, output
    assert "created Hatshepsut, an administrator" in output and PASSWORD not in output
    assert prompts == ["Password: ", "The same password again: "]
    assert rows(database, "SELECT name, role, status FROM accounts") == [
        ("Hatshepsut", "admin", "active")
    ]
    [stored] = rows(database, "SELECT password_hash FROM accounts")
    assert str(stored[0]).startswith("$argon2id$")
    audit = rows(database, "SELECT admin_name, action, target FROM admin_audit")
    assert audit == [("command line", "create_admin", "Hatshepsut")]
    code, output = admin("list", "--database", database)
    assert code == 0 and output.startswith("Hatshepsut\t")


def test_the_new_administrator_logs_in_and_opens_the_admin_api(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from karnak.server.app import create_app

    typed(monkeypatch, PASSWORD, PASSWORD)
    assert admin("create", "Hatshepsut", "--database", database)[0] == 0
    with TestClient(create_app(database, bot_workers=0)) as client:
        logged = client.post(
            "/api/account/login", json={"name": "Hatshepsut", "password": PASSWORD}
        )
        assert logged.status_code == 200
        assert client.get("/api/admin/audit").status_code == 200


@pytest.mark.parametrize(
    ("answers", "told"),
    [
        ((PASSWORD, PASSWORD + "!"), "the two passwords differ"),
        (("short", "short"), "at least 8 characters"),
    ],
)
def test_create_refuses_bad_passwords_in_one_line(
    database: str, monkeypatch: pytest.MonkeyPatch, answers: tuple[str, str], told: str
) -> None:
    typed(monkeypatch, *answers)
    code, output = admin("create", "Hatshepsut", "--database", database)
    assert code == 1 and told in output and "Traceback" not in output
    assert len(output.strip().splitlines()) == 1
    assert rows(database, "SELECT count(*) FROM accounts") == [(0,)]


def test_create_refuses_a_bad_or_taken_name_before_asking(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    prompts = typed(monkeypatch)
    code, output = admin("create", "x", "--database", database)
    assert code == 1 and "2 to 40 characters" in output and prompts == []
    typed(monkeypatch, PASSWORD, PASSWORD)
    admin("create", "Hatshepsut", "--database", database)
    prompts = typed(monkeypatch)
    code, output = admin("create", "hatshepsut", "--database", database)
    assert code == 1 and "karnak admin grant" in output and prompts == []


def test_grant_and_revoke_change_an_existing_accounts_role(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from karnak.server.app import create_app

    with TestClient(create_app(database, bot_workers=0)) as client:
        signed = client.post("/api/account/signup", json={"name": "Bes", "password": PASSWORD})
        assert signed.status_code == 201
    assert admin("list", "--database", database) == (
        0,
        "no administrators yet: make one with 'karnak admin create NAME'\n",
    )
    assert admin("grant", "bes", "--database", database) == (0, "Bes is an administrator now\n")
    assert admin("grant", "Bes", "--database", database) == (
        0,
        "Bes is an administrator already\n",
    )
    assert admin("list", "--database", database)[1].startswith("Bes\t")
    assert admin("revoke", "Bes", "--database", database) == (
        0,
        "Bes is no longer an administrator\n",
    )
    assert admin("revoke", "Bes", "--database", database) == (0, "Bes was not an administrator\n")
    audit = rows(database, "SELECT admin_name, action, target FROM admin_audit ORDER BY id")
    assert audit == [("command line", "grant", "Bes"), ("command line", "revoke", "Bes")]
    code, output = admin("grant", "Nobody", "--database", database)
    assert code == 1 and "there is no account named 'Nobody'" in output


def test_a_database_that_cannot_be_used_is_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.sqlite3"
    broken.write_bytes(b"this is not a database" * 100)
    code, output = admin("list", "--database", str(broken))
    assert code == 1 and "Traceback" not in output and len(output.strip().splitlines()) == 1

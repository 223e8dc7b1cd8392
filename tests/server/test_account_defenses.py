"""Log-ins limited per name as well as per client, and passwords that are hard to guess.

Guesses at one name spread over many addresses stop at the name's allowance (429 with
Retry-After), whether the name is an account's or not (the answer is the same), the right
password included; other names are untouched. A new password is refused when it is common,
made of spaces or controls, or built on the person's own name, with zxcvbn's advice; at
sign-up and at a password change.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from karnak.server.accounts.passwords import MAX_PASSWORD, PasswordError, check_password
from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.redis_server import NOT_INSTALLED, REDIS_SERVER, running_redis

from .test_accounts import PASSWORD, csrf, sign_up

#: Plenty of attempts per client: the per-name allowance is what is tested.
SETTINGS = ServerSettings(account_attempts_per_minute=1000, login_attempts_per_name=3)


@pytest.fixture
def server(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0, settings=SETTINGS)) as client:
        yield client


def from_address(server: TestClient, address: str) -> TestClient:
    """Another client of the same running server, from ``address``."""
    return TestClient(server.app, client=(address, 40000))


def log_in(client: TestClient, name: str, password: str) -> tuple[int, dict[str, str], str]:
    answer = client.post("/api/account/login", json={"name": name, "password": password})
    return answer.status_code, dict(answer.headers), answer.json().get("error", "")


# ---------------------------------------------------------------------- log-in per name
def test_guesses_spread_over_addresses_stop_at_the_names_allowance(server: TestClient) -> None:
    sign_up(server, "Hatshepsut")
    for n in range(3):
        status, _, _ = log_in(from_address(server, f"10.0.0.{n + 1}"), "Hatshepsut", "wrong")
        assert status == 401
    # a fourth address, with the right password even: the name's allowance is spent
    status, headers, error = log_in(from_address(server, "10.0.0.9"), "hatshepsut", PASSWORD)
    assert status == 429
    assert int(headers["retry-after"]) >= 1
    assert "this name" in error and "try again" in error


def test_the_refusal_does_not_tell_whether_the_name_exists(server: TestClient) -> None:
    sign_up(server, "Hatshepsut")
    answers = {}
    for name in ("Hatshepsut", "Nobody"):
        for n in range(4):
            status, _, error = log_in(from_address(server, f"10.1.{n}.1"), name, "wrong guess")
        answers[name] = (status, error.split("try again")[0])
    assert answers["Hatshepsut"] == answers["Nobody"]
    assert answers["Nobody"][0] == 429


def test_other_names_are_untouched(server: TestClient) -> None:
    sign_up(server, "Hatshepsut")
    server.cookies.clear()
    sign_up(server, "Nefertiti")
    for n in range(4):
        log_in(from_address(server, f"10.2.0.{n}"), "Hatshepsut", "wrong")
    status, _, _ = log_in(from_address(server, "10.2.1.1"), "Nefertiti", PASSWORD)
    assert status == 200


def test_a_success_does_not_reset_the_count(server: TestClient) -> None:
    sign_up(server, "Hatshepsut")
    other = from_address(server, "10.3.0.1")
    assert log_in(other, "Hatshepsut", "wrong")[0] == 401
    assert log_in(server, "Hatshepsut", PASSWORD)[0] == 200
    assert log_in(other, "Hatshepsut", "wrong")[0] == 401
    assert log_in(other, "Hatshepsut", "wrong")[0] == 429


def test_the_names_allowance_comes_back_with_time(database: str) -> None:
    settings = ServerSettings(
        account_attempts_per_minute=1000, login_attempts_per_name=1, login_name_minutes=1
    )
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        limiter = client.app.state.rate_limits.limiter  # type: ignore[attr-defined]
        assert log_in(client, "Nobody", "wrong")[0] == 401
        status, headers, _ = log_in(client, "Nobody", "wrong")
        assert status == 429 and 1 <= int(headers["retry-after"]) <= 60
        limiter.local.storage.reset()  # as if the minute had passed
        assert log_in(client, "Nobody", "wrong")[0] == 401


def test_the_default_allowance_is_ten_a_quarter_of_an_hour() -> None:
    settings = ServerSettings()
    assert (settings.login_attempts_per_name, settings.login_name_minutes) == (10, 15)


# ---------------------------------------------------------------------- passwords
@pytest.mark.parametrize(
    ("password", "words"),
    [
        ("password", "too easy to guess"),
        ("12345678", "common password"),
        (" " * 8, "spaces alone"),
        (" " * 30, "spaces alone"),
        ("\x00" * 8, "control characters"),
        ("a long\npassword here", "U+000A"),
        ("Hatshepsut123", "Add another word"),  # built on the name: zxcvbn's advice
        ("hatshepsut1479", "too easy to guess"),  # strong for anyone else (below)
    ],
)
def test_weak_passwords_are_refused_at_sign_up(
    client: TestClient, password: str, words: str
) -> None:
    refused = client.post("/api/account/signup", json={"name": "Hatshepsut", "password": password})
    assert refused.status_code == 422, refused.text
    assert words in refused.json()["error"]


def test_the_name_counts_as_known_to_an_attacker() -> None:
    check_password("hatshepsut1479", "Nefertiti")  # strong enough for someone else
    with pytest.raises(PasswordError, match="too easy"):
        check_password("hatshepsut1479", "Hatshepsut")


def test_a_passphrase_is_accepted(client: TestClient) -> None:
    sign_up(client, "Hatshepsut", "two crowns, one Nile")


def test_a_weak_new_password_is_refused_at_a_change(client: TestClient) -> None:
    sign_up(client, "Hatshepsut")
    refused = client.post(
        "/api/account/password",
        json={"current": PASSWORD, "new": "Hatshepsut1"},
        headers=csrf(client),
    )
    assert refused.status_code == 422 and "too easy to guess" in refused.json()["error"]
    client.cookies.clear()
    assert log_in(client, "Hatshepsut", PASSWORD)[0] == 200  # unchanged


def test_a_long_password_is_scored_quickly() -> None:
    start = time.perf_counter()
    check_password("correct horse battery staple " * 6 + "x", "Ana")
    with pytest.raises(PasswordError, match="too easy"):
        check_password("ab" * (MAX_PASSWORD // 2), "Ana")
    assert time.perf_counter() - start < 1.0


# ---------------------------------------------------------------------- several processes
@pytest.mark.skipif(REDIS_SERVER is None, reason=NOT_INSTALLED)
def test_processes_sharing_a_broker_share_the_names_allowance(
    database: str, tmp_path: Path
) -> None:
    with running_redis(tmp_path) as redis:
        apps = [
            create_app(database, bot_workers=0, settings=SETTINGS, broker=redis.url)
            for _ in range(2)
        ]
        with TestClient(apps[0]) as a, TestClient(apps[1]) as b:
            assert log_in(a, "Nobody", "wrong")[0] == 401
            assert log_in(b, "Nobody", "wrong")[0] == 401
            assert log_in(a, "Nobody", "wrong")[0] == 401
            assert log_in(b, "nobody", "wrong")[0] == 429  # the fourth, on the other process

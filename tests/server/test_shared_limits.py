"""Several server processes behind one load balancer: the rate limits and the sessions hold
across them.

Two apps built on the same database and the same Redis stand for two processes: a client's
allowance is shared (two processes allow what one allows), and a session that ends on one
stops working on the other at once. When Redis is down or hangs, requests are still answered
(counted by each process alone) without a 500 and without a stall. Without a broker nothing
changes (test_http_limits.py and test_accounts.py).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.accounts.service
import karnak.server.http_limits
from karnak.server.accounts.store import AccountStore
from karnak.server.app import create_app
from karnak.server.db import make_engine
from karnak.server.http_limits import Limiter
from karnak.server.hub import Hub
from karnak.server.limits import LimitError, ServerSettings
from support.redis_server import NOT_INSTALLED, REDIS_SERVER, RedisServer, running_redis

from .conftest import humans, wait_for
from .test_accounts import PASSWORD, csrf, sign_up

pytestmark = pytest.mark.skipif(REDIS_SERVER is None, reason=NOT_INSTALLED)

WRONG = {"name": "Nobody", "password": PASSWORD}


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with running_redis(tmp_path) as server:
        yield server


Apps = Callable[..., tuple[TestClient, TestClient]]


@pytest.fixture
def two_apps(database: str, redis_server: RedisServer) -> Iterator[Apps]:
    """Two servers (``a`` and ``b``) on one database and one Redis, with the given settings."""
    opened: list[TestClient] = []

    def make(**settings: Any) -> tuple[TestClient, TestClient]:
        for _ in range(2):
            app = create_app(
                database,
                bot_workers=0,
                settings=ServerSettings(**settings),
                broker=redis_server.url,
            )
            opened.append(TestClient(app).__enter__())
        return opened[-2], opened[-1]

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def create_game(client: TestClient) -> int:
    return client.post("/api/games", json={"game": "amunre", "seats": humans(3)}).status_code


def attempt(client: TestClient) -> int:
    return client.post("/api/account/login", json=WRONG).status_code


# ---------------------------------------------------------------------- rate limits
@pytest.mark.parametrize(
    ("setting", "request_once", "allowed"),
    [("creates_per_minute", create_game, 201), ("account_attempts_per_minute", attempt, 401)],
    ids=["creates", "account attempts"],
)
def test_two_processes_allow_what_one_allows(
    two_apps: Apps,
    setting: str,
    request_once: Callable[[TestClient], int],
    allowed: int,
) -> None:
    a, b = two_apps(**{setting: 4})
    assert [request_once(client) for client in (a, b, a, b)] == [allowed] * 4
    assert request_once(a) == 429
    assert request_once(b) == 429


def test_moves_and_chat_lines_are_counted_in_redis(redis_server: RedisServer) -> None:
    """Every per-client counter goes through the shared storage: one process's refusals
    leave the other nothing (the moves and chat routes call the same two lines)."""
    import redis

    settings = ServerSettings(moves_per_minute=2, chat_lines_per_minute=2)
    limits = [karnak.server.http_limits.RateLimits(settings, redis_server.url) for _ in "ab"]
    limits[0].move("192.0.2.7")
    limits[1].move("192.0.2.7")
    limits[0].chat_line("192.0.2.7")
    limits[1].chat_line("192.0.2.7")
    for check in (limits[1].move, limits[0].chat_line):
        with pytest.raises(LimitError) as refused:
            check("192.0.2.7")
        assert refused.value.status == 429
    keys = redis.Redis.from_url(redis_server.url).keys("karnak:limits:*")
    assert {k.decode().split("/")[1] for k in keys} == {"moves", "chat"}


def test_a_refusal_counts_for_everyone_at_that_address_only(two_apps: Apps) -> None:
    a, b = two_apps(account_attempts_per_minute=2)
    clear_of_a_minute_turning()
    assert [attempt(a), attempt(b), attempt(a)] == [401, 401, 429]
    other = karnak.server.http_limits.client_key("198.51.100.3")
    assert other != karnak.server.http_limits.client_key("testclient")
    limiter = a.app.state.rate_limits  # type: ignore[attr-defined]
    limiter.account("198.51.100.3")  # another address still has its whole allowance


# ---------------------------------------------------------------------- Redis away
def clear_of_a_minute_turning(margin: float = 15.0) -> None:
    """Wait, if need be, until the next few seconds stay inside one minute of the clock.

    The limits count in windows of a minute aligned to the clock, and the sliding-window
    counter weighs the previous window by how much of it remains: just after a minute turns,
    three requests counted a moment before weigh 2.9 and a fourth is let through. An exact
    count is only checked away from that edge."""
    into = time.time() % 60
    if into > 60 - margin:
        time.sleep(60 - into + 0.5)


def test_redis_down_answers_every_request_and_counts_alone(
    two_apps: Apps, redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    a, b = two_apps(account_attempts_per_minute=3)
    assert attempt(a) == 401
    redis_server.stop()
    caplog.set_level(logging.WARNING, "karnak.server")
    clear_of_a_minute_turning()
    answers = [attempt(a) for _ in range(3)]
    started = time.monotonic()
    answers += [attempt(a) for _ in range(2)]
    assert time.monotonic() - started < 1.0  # the refusals hash no password: only the count
    # each process counts alone now, from nothing: three allowed, then refused (never a 500)
    assert answers == [401, 401, 401, 429, 429]
    assert attempt(b) == 401
    warnings = [r for r in caplog.records if "cannot reach Redis" in r.getMessage()]
    assert len(warnings) == 2  # one for each process, not one a request


def test_a_hanging_redis_does_not_stall_the_requests(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Redis that accepts connections and never answers: each check gives up after the
    short timeout, and then Redis is left alone for a pause, so a second request does not
    wait at all."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(16)
        url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
        limits = karnak.server.http_limits.RateLimits(
            ServerSettings(account_attempts_per_minute=2), url
        )
        started = time.monotonic()
        limits.account("192.0.2.7")
        first = time.monotonic() - started
        assert first < karnak.server.http_limits.REDIS_TIMEOUT + 0.3  # one try, no retries
        started = time.monotonic()
        limits.account("192.0.2.7")
        with pytest.raises(LimitError):
            limits.account("192.0.2.7")  # the memory's count: refused past two
        assert time.monotonic() - started < 0.15  # another try would wait 0.2 s


def test_the_counting_goes_back_to_redis_when_it_returns(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(karnak.server.http_limits, "REDIS_PAUSE", 0.2)
    from limits import RateLimitItemPerMinute

    item = RateLimitItemPerMinute(2)
    here, there = Limiter(redis_server.url), Limiter(redis_server.url)
    redis_server.stop()
    assert here.hit(item, "x", "k") is None  # counted in memory
    redis_server.start()  # empty: it kept nothing
    time.sleep(0.3)
    assert here.hit(item, "x", "k") is None  # in Redis again
    assert there.hit(item, "x", "k") is None
    wait = here.hit(item, "x", "k")
    assert wait is not None and wait > 0


# ---------------------------------------------------------------------- sessions
@pytest.fixture
def long_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    """The safety net (a short cache) out of the way: only the revocation can end a session
    on the other process within the test's second."""
    monkeypatch.setattr(karnak.server.accounts.service, "SHARED_SESSION_CACHE_SECONDS", 60.0)


def logged_in(client: TestClient) -> bool:
    return client.get("/api/account").json()["account"] is not None


def ended_within(client: TestClient, seconds: float) -> None:
    wait_for(lambda: not logged_in(client), timeout=seconds)


@pytest.mark.usefixtures("long_cache")
def test_a_log_out_ends_the_session_on_every_process_at_once(two_apps: Apps) -> None:
    a, b = two_apps()
    sign_up(a)
    b.cookies.update(a.cookies)
    assert logged_in(b)  # remembered by b now
    assert a.post("/api/account/logout", headers=csrf(a)).status_code == 204
    ended_within(b, 1.0)
    assert not logged_in(a)


@pytest.mark.usefixtures("long_cache")
def test_a_password_change_ends_the_other_sessions_on_every_process(two_apps: Apps) -> None:
    a, b = two_apps()
    sign_up(a)
    login = {"name": "Hatshepsut", "password": PASSWORD}
    assert b.post("/api/account/login", json=login).status_code == 200
    assert logged_in(b)
    bystander = b.app.state.accounts  # type: ignore[attr-defined]
    changed = a.post(
        "/api/account/password",
        json={"current": PASSWORD, "new": "a new password"},
        headers=csrf(a),
    )
    assert changed.status_code == 200
    ended_within(b, 1.0)
    assert logged_in(a)  # the session that changed it stays, on both processes
    b.cookies.clear()
    b.cookies.update(a.cookies)
    assert logged_in(b)
    assert bystander.cache_seconds == 60.0


def test_a_missed_revocation_ends_within_seconds(two_apps: Apps, database: str) -> None:
    """The safety net: a session deleted without a word on the hub (a revocation lost while
    the broker reconnected) stops on a process that remembers it within its short cache."""
    a, _ = two_apps()
    sign_up(a)
    assert logged_in(a)
    engine = make_engine(database)
    try:
        store = AccountStore(engine)
        session = store.session(a.cookies["karnak_session"])
        assert session is not None
        store.close_session(session.id)
    finally:
        engine.dispose()
    seconds = karnak.server.accounts.service.SHARED_SESSION_CACHE_SECONDS
    ended_within(a, seconds + 1.0)


def test_the_revocation_names_no_secret(two_apps: Apps) -> None:
    a, b = two_apps()
    heard: list[dict[str, Any]] = []
    hub: Hub = b.app.state.hub  # type: ignore[attr-defined]
    hub.subscribe("sessions", lambda event: heard.append(event.payload))
    sign_up(a)
    token = a.cookies["karnak_session"]
    a.post("/api/account/logout", headers=csrf(a))
    wait_for(lambda: bool(heard), timeout=2.0)
    assert len(heard) == 1 and set(heard[0]) == {"session"}
    assert token not in str(heard[0]) and heard[0]["session"] != token


def test_a_look_up_that_crosses_a_revocation_is_not_remembered(database: str) -> None:
    """In one process too: a request that read the session just before the log-out must not
    leave it remembered for a minute."""
    with TestClient(create_app(database, bot_workers=0)) as client:
        sign_up(client)
        accounts = client.app.state.accounts  # type: ignore[attr-defined]
        store = accounts.store
        accounts.forget_sessions()
        reading, revoked = threading.Event(), threading.Event()
        real = store.session

        def slow_session(value: str, client: str | None = None) -> Any:
            found = real(value, client)
            reading.set()
            revoked.wait(5)
            return found

        store.session = slow_session
        outcome: list[bool] = []
        thread = threading.Thread(target=lambda: outcome.append(logged_in(client)))
        thread.start()
        assert reading.wait(5)
        client.portal.call(  # type: ignore[union-attr]
            lambda: accounts.hub.publish("sessions", "revoked", {"session": "elsewhere"})
        )
        revoked.set()
        thread.join(5)
        store.session = real
        assert outcome == [True]  # it was live when read
        assert accounts.remembered_sessions == 0  # but not remembered

"""``/metrics``: each metric moves with what really happens on the server, nothing secret is in
it, and only the networks allowed may read it (karnak.server.observability)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.smtp import SmtpServer

from .conftest import TEST_CREATES_PER_MINUTE, create, humans, wait_for

#: Where the tests' requests come from: this machine, which may read the metrics by default.
LOCAL = ("127.0.0.1", 50000)
PASSWORD = "two crowns, one Nile"

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> Samples:
    response = client.get("/metrics")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain")
    samples: Samples = {}
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def settings(**given: Any) -> ServerSettings:
    return ServerSettings(**{"creates_per_minute": TEST_CREATES_PER_MINUTE, **given})


@pytest.fixture
def local(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(database, bot_workers=0), client=LOCAL) as client:
        yield client


def started(database: str, **given: Any) -> TestClient:
    return TestClient(create_app(database, bot_workers=0, settings=settings(**given)), client=LOCAL)


def first_move(client: TestClient, game_id: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    """The seat to move and its view."""
    seat = client.get(f"/api/games/{game_id}").json()["to_move"][0]
    mine = client.get(f"/api/games/{game_id}", params={"token": tokens[seat]}).json()
    return seat, mine


# ---------------------------------------------------------------------- who may read them
@pytest.mark.parametrize(
    ("allow", "host", "served"),
    [
        (None, "127.0.0.1", True),
        (None, "::1", True),
        (None, "::ffff:127.0.0.1", True),
        (None, "10.1.2.3", False),
        (None, "testclient", False),  # not an address: refused unless everyone may
        ("10.0.0.0/8, 192.168.1.7", "10.1.2.3", True),
        ("10.0.0.0/8, 192.168.1.7", "192.168.1.7", True),
        ("10.0.0.0/8, 192.168.1.7", "127.0.0.1", False),
        ("*", "testclient", True),
        ("*", "203.0.113.9", True),
    ],
)
def test_only_the_networks_allowed_read_the_metrics(
    tmp_path: Any, allow: str | None, host: str, served: bool
) -> None:
    given = {} if allow is None else {"metrics_allow": allow}
    app = create_app(f"sqlite:///{tmp_path / 'k.sqlite3'}", settings=settings(**given))
    answer = TestClient(app, client=(host, 40000)).get("/metrics")
    assert answer.status_code == (200 if served else 403)
    if not served:
        assert answer.json()["error"].startswith("the metrics are not served")
        assert "karnak_" not in answer.text


def test_a_bad_allowance_is_refused_at_once(tmp_path: Any) -> None:
    with pytest.raises(ValueError, match="'nowhere' is not an IP address"):
        create_app(
            f"sqlite:///{tmp_path / 'k.sqlite3'}", settings=settings(metrics_allow="nowhere")
        )


# ---------------------------------------------------------------------- the metrics
def test_every_metric_is_karnak_s_and_explained(local: TestClient) -> None:
    response = local.get("/metrics")
    families = list(text_string_to_metric_families(response.text))
    names = {family.name for family in families}
    for family in families:
        assert family.name.startswith("karnak_"), family.name
        assert family.documentation.strip(), family.name
    expected = {
        "karnak_games_running",
        "karnak_games_stored",
        "karnak_games_loaded",
        "karnak_moves",
        "karnak_move_broadcast_seconds",
        "karnak_bot_queue_length",
        "karnak_bot_workers",
        "karnak_bot_think_seconds",
        "karnak_sockets_open",
        "karnak_refusals",
        "karnak_db_statement_seconds",
        "karnak_mail_queue_length",
        "karnak_mails",
        "karnak_http_responses",
        "karnak_http_request_seconds",
        "karnak_build_info",
    }
    assert expected <= names, expected - names


def test_games_moves_and_the_broadcast_latency(local: TestClient) -> None:
    before = scrape(local)
    assert value(before, "karnak_games_running", game="amunre") == 0
    created = create(local, humans(3), seed=5)
    tokens = [seat["token"] for seat in created["seats"]]
    after_create = scrape(local)
    assert value(after_create, "karnak_games_running", game="amunre") == 1
    assert value(after_create, "karnak_games_stored", game="amunre", status="running") == 1
    assert value(after_create, "karnak_moves_total", game="amunre", by="person") == 0

    seat, mine = first_move(local, created["id"], tokens)
    played = local.post(
        f"/api/games/{created['id']}/actions",
        params={"token": tokens[seat]},
        json={"version": mine["version"], "action": mine["legal"][0]["action"]},
    )
    assert played.status_code == 200 and played.json()["accepted"]
    # the same move sent again is answered as a duplicate: not a second move
    again = local.post(
        f"/api/games/{created['id']}/actions",
        params={"token": tokens[seat]},
        json={"version": mine["version"], "action": mine["legal"][0]["action"]},
    )
    assert again.json()["duplicate"]
    after_move = scrape(local)
    assert value(after_move, "karnak_moves_total", game="amunre", by="person") == 1
    count = value(after_move, "karnak_move_broadcast_seconds_count", game="amunre")
    latency = value(after_move, "karnak_move_broadcast_seconds_sum", game="amunre")
    assert count == 1 and 0 < latency < 10
    # the move was timed through its request: arrival to publication, within the request
    assert value(after_move, "karnak_http_request_seconds_sum") > latency


def test_bots_moves_and_think_times(local: TestClient) -> None:
    bots = [{"kind": "bot", "bot": "random"} for _ in range(3)]
    create(local, bots, seed=3)

    def bot_moves() -> float:
        return value(scrape(local), "karnak_moves_total", game="amunre", by="bot")

    wait_for(lambda: bot_moves() >= 3, timeout=30)
    samples = scrape(local)
    assert value(samples, "karnak_bot_think_seconds_count", game="amunre") >= 3
    assert value(samples, "karnak_bot_workers") == 0  # they think in a thread here
    assert value(samples, "karnak_bot_queue_length") in (0, 1)  # one game, one seat at a time


def test_refusals_by_reason(database: str) -> None:
    with started(
        database, creates_per_minute=2, max_running_games=1, max_body_bytes=2000
    ) as client:
        created = create(client, humans(3), seed=5)
        tokens = [seat["token"] for seat in created["seats"]]
        # cap: the server runs its most games
        full = client.post("/api/games", json={"game": "amunre", "seats": humans(3)})
        assert full.status_code == 429
        assert value(scrape(client), "karnak_refusals_total", reason="cap") == 1
        # rate: a third creation within the minute
        fast = client.post("/api/games", json={"game": "amunre", "seats": humans(3)})
        assert fast.status_code == 429 and "too many requests" in fast.json()["error"]
        # size: a body over the limit, refused before the app reads it
        big = client.post("/api/games", content=b"x" * 5000)
        assert big.status_code == 413
        # stale: a move chosen at a version the game has left
        url = f"/api/games/{created['id']}/actions"
        seat, mine = first_move(client, created["id"], tokens)
        legal = mine["legal"][0]["action"]
        body = {"version": mine["version"], "action": legal}
        assert client.post(url, params={"token": tokens[seat]}, json=body).status_code == 200
        seat, mine = first_move(client, created["id"], tokens)
        legal = mine["legal"][0]["action"]
        body = {"version": mine["version"] - 1, "action": legal}
        stale = client.post(url, params={"token": tokens[seat]}, json=body)
        assert stale.status_code == 409 and "moved on" in stale.json()["error"]
        # forbidden and invalid: FastAPI's and the routes' own refusals, by status
        forged = client.post(url, params={"token": "forged"}, json=body)
        assert forged.status_code == 403
        assert client.post(url, json={"version": "one"}).status_code == 422
        samples = scrape(client)
    assert value(samples, "karnak_refusals_total", reason="cap") == 1
    assert value(samples, "karnak_refusals_total", reason="rate") == 1
    assert value(samples, "karnak_refusals_total", reason="size") == 1
    assert value(samples, "karnak_refusals_total", reason="stale") == 1
    assert value(samples, "karnak_refusals_total", reason="forbidden") == 1
    assert value(samples, "karnak_refusals_total", reason="invalid") == 1
    assert value(samples, "karnak_http_responses_total", status="4xx") == 6


def test_open_sockets_by_kind(local: TestClient) -> None:
    created = create(local, humans(3), seed=5)
    game_id = created["id"]
    token = created["seats"][0]["token"]
    with local.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as first:
        first.receive_text()
        with local.websocket_connect(f"/api/games/{game_id}/ws") as second:
            second.receive_text()
            assert value(scrape(local), "karnak_sockets_open", kind="game") == 2
        wait_for(lambda: value(scrape(local), "karnak_sockets_open", kind="game") == 1)
    wait_for(lambda: value(scrape(local), "karnak_sockets_open", kind="game") == 0)

    signed = local.post("/api/account/signup", json={"name": "Tiye", "password": PASSWORD})
    assert signed.status_code == 201, signed.text
    origin = {"origin": "http://testserver"}
    with local.websocket_connect("/api/account/ws", headers=origin):
        assert value(scrape(local), "karnak_sockets_open", kind="account") == 1
    wait_for(lambda: value(scrape(local), "karnak_sockets_open", kind="account") == 0)

    # a socket refused (no such game: closed with 4404) is counted as a refusal
    with local.websocket_connect("/api/games/nosuchgame/ws") as refused:
        refused.receive()
    wait_for(lambda: value(scrape(local), "karnak_refusals_total", reason="not_found") == 1)
    assert value(scrape(local), "karnak_sockets_open", kind="game") == 0


def test_database_statements_are_timed(local: TestClient) -> None:
    before = scrape(local)
    create(local, humans(3))
    after = scrape(local)
    for kind in ("insert", "select"):
        name = "karnak_db_statement_seconds_count"
        assert value(after, name, statement=kind) > value(before, name, statement=kind), kind
    assert value(after, "karnak_db_statement_seconds_sum", statement="insert") > 0


def test_the_mail_queue_and_its_counts(database: str) -> None:
    from karnak.server.mail.routes import configure_mail

    with SmtpServer() as smtp:
        app = create_app(database, bot_workers=0, settings=settings())
        configure_mail(app, smtp.settings(tick=3600))
        with TestClient(app, client=LOCAL) as client:
            before = scrape(client)
            assert value(before, "karnak_mails_total", outcome="sent") == 0
            signed = client.post(
                "/api/account/signup", json={"name": "Ahmose", "password": PASSWORD}
            )
            assert signed.status_code == 201, signed.text
            csrf = {"X-CSRF-Token": client.cookies.get("karnak_csrf") or ""}
            answer = client.post(
                "/api/account/email", json={"address": "ahmose@example.org"}, headers=csrf
            )
            assert answer.status_code == 200, answer.text
            wait_for(lambda: value(scrape(client), "karnak_mails_total", outcome="sent") == 1)
            samples = scrape(client)
    assert value(samples, "karnak_mails_total", outcome="failed") == 0
    assert value(samples, "karnak_mail_queue_length") == 0


def test_the_metrics_hold_no_secret(local: TestClient) -> None:
    seats = [{"name": "Nefertari"}, {"name": "Khaemwaset"}, {"name": "Merytamun"}]
    created = create(local, seats, seed=5)
    tokens = [seat["token"] for seat in created["seats"]]
    seat, mine = first_move(local, created["id"], tokens)
    local.post(
        f"/api/games/{created['id']}/actions",
        params={"token": tokens[seat]},
        json={"version": mine["version"], "action": mine["legal"][0]["action"]},
    )
    local.get(f"/api/games/{created['id']}", params={"token": "x" * 40})
    text = local.get("/metrics").text
    for secret in [*tokens, created["id"], "Nefertari", "Khaemwaset", "Merytamun", "x" * 40]:
        assert secret not in text


def test_two_servers_in_one_process_count_apart(tmp_path: Any) -> None:
    one = TestClient(
        create_app(f"sqlite:///{tmp_path / 'one.sqlite3'}", bot_workers=0), client=LOCAL
    )
    two = TestClient(
        create_app(f"sqlite:///{tmp_path / 'two.sqlite3'}", bot_workers=0), client=LOCAL
    )
    with one, two:
        create(one, humans(3))
        assert value(scrape(one), "karnak_games_running", game="amunre") == 1
        assert value(scrape(two), "karnak_games_running", game="amunre") == 0
        assert value(scrape(two), "karnak_games_stored", game="amunre", status="running") == 0

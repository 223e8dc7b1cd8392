"""Two servers on one PostgreSQL database: the database decides every write.

Each app built here stands for a server process of its own (its own event loop, rooms, locks
and leases); they share only the database and, where a test says so, a Redis broker. These
are the write path's own tests, quick and in one process; tests/cluster drives real
processes behind a load balancer.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from karnak.server.app import create_app
from karnak.server.limits import ServerSettings
from support.game_calls import move, stored_actions, undo
from support.postgres import POSTGRES, postgres_database
from support.redis_server import running_redis

from .conftest import wait_for
from .test_accounts import csrf, sign_up

pytestmark = pytest.mark.skipif(
    not POSTGRES, reason="several servers need PostgreSQL: set KARNAK_TEST_POSTGRES_URL"
)

SOLO = {"game": "egyptia", "seats": [{"name": "Solo"}], "seed": 21}


@pytest.fixture
def database() -> Iterator[str]:
    """A PostgreSQL database of the test's own (SQLite is one process: no second server)."""
    with postgres_database() as url:
        yield url


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[str]:
    with running_redis(tmp_path) as server:
        yield server.url


def servers(url: str, broker: str | None, count: int = 2) -> list[TestClient]:
    return [TestClient(create_app(url, bot_workers=0, broker=broker)) for _ in range(count)]


def test_an_undo_on_a_stale_copy_deletes_nothing_of_the_other_servers_moves(
    database: str,
) -> None:
    """The issue's reproduction, without a broker (so A's copy stays stale until it writes):
    A's undo and A's move, chosen at versions B has moved past, are refused with 409; B's
    moves stand; and a third server rebuilds the game at the same version."""
    a, b = servers(database, None)
    with a, b:
        created = a.post("/api/games", json=SOLO).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        first = move(a, game_id, token, "ship 1", 0)
        assert first.status_code == 200, first.text
        seen_by_a = first.json()["version"]
        on_b = b.get(f"/api/games/{game_id}", params={"token": token}).json()
        assert on_b["version"] == seen_by_a
        assert undo(b, game_id, token, on_b["version"]).status_code == 200
        after_undo = b.get(f"/api/games/{game_id}", params={"token": token}).json()["version"]
        second = move(b, game_id, token, "ship 2", after_undo)
        assert second.status_code == 200, second.text
        refused = undo(a, game_id, token, seen_by_a)
        assert refused.status_code == 409, refused.text
        assert refused.json()["version"] == second.json()["version"]
        stale = move(a, game_id, token, "choose grain", seen_by_a)
        assert stale.status_code == 409, stale.text
        fresh = move(b, game_id, token, "choose grain", second.json()["version"])
        assert fresh.status_code == 200, fresh.text
        final = fresh.json()["version"]
    texts = [text for _, _, _, text in stored_actions(database, game_id)]
    assert texts == ["ship 2", "choose grain"]
    with TestClient(create_app(database, bot_workers=0)) as third:
        view = third.get(f"/api/games/{game_id}", params={"token": token}).json()
        assert view["version"] == final


def legal(client: TestClient, game_id: str, token: str) -> tuple[int, list[str]]:
    """The seat's version and its legal moves' texts, as ``client``'s server sees them."""
    view = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    return view["version"], [entry["text"] for entry in view["legal"]]


def test_a_stale_server_answers_409_then_catches_up(database: str) -> None:
    """B's copy is behind (no broker): a move chosen at an old version is a 409 naming the
    current version, never a 500; a retry of a move already made is answered as done; and
    nothing is stored twice."""
    a, b = servers(database, None)
    with a, b:
        created = a.post("/api/games", json={"game": "aton", "seats": [{}, {}], "seed": 3}).json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        red_version, red_moves = legal(b, game_id, tokens[0])
        blue_version, blue_moves = legal(b, game_id, tokens[1])
        chosen = red_moves[1]
        assert move(a, game_id, tokens[0], chosen, red_version).status_code == 200
        again = move(b, game_id, tokens[0], chosen, red_version)
        # the same move at the same version is a retry: answered as done, not applied twice
        assert again.status_code == 200, again.text
        assert again.json()["duplicate"] is True
        # the sealed step goes on: Blue's choice at the step's version is still fresh
        played = move(a, game_id, tokens[1], blue_moves[1], blue_version)
        assert played.status_code == 200, played.text
        late = move(b, game_id, tokens[1], blue_moves[2], blue_version)
        assert late.status_code == 409, late.text
        assert late.json()["version"] == legal(a, game_id, tokens[1])[0]
    assert [t for *_, t in stored_actions(database, game_id)] == [chosen, blue_moves[1]]


def test_a_move_on_one_server_reaches_the_other_servers_sockets(database: str, broker: str) -> None:
    a, b = servers(database, broker)
    with a, b:
        body = {"game": "amunre", "seats": [{}, {}, {}], "seed": 5}
        created = a.post("/api/games", json=body).json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        mover = a.get(f"/api/games/{game_id}").json()["to_move"][0]
        with b.websocket_connect(f"/api/games/{game_id}/ws") as spectator:
            first = spectator.receive_json()
            version, moves = legal(a, game_id, tokens[mover])
            assert move(a, game_id, tokens[mover], moves[0], version).status_code == 200
            pushed = spectator.receive_json()
            assert pushed["version"] == first["version"] + 1
        wait_for(
            lambda: (
                b.get(f"/api/games/{game_id}").json()["version"]
                == a.get(f"/api/games/{game_id}").json()["version"]
            ),
            timeout=5,
        )


def test_bots_move_once_with_two_servers(database: str, broker: str) -> None:
    a, b = servers(database, broker)
    with a, b:
        seats = [{"kind": "bot", "bot": "random"} for _ in range(3)]
        created = a.post("/api/games", json={"game": "amunre", "seats": seats, "seed": 9})
        game_id = created.json()["id"]
        b.get(f"/api/games/{game_id}")
        wait_for(lambda: a.get(f"/api/games/{game_id}").json()["status"] == "finished", 120)
    rows = stored_actions(database, game_id)
    assert [number for number, *_ in rows] == list(range(len(rows)))
    versions = [version for _, version, *_ in rows]
    assert versions == sorted(set(versions))


def test_two_accounts_claim_one_guest_seat_through_two_servers(database: str) -> None:
    a, b = servers(database, None)
    with a, b:
        created = a.post("/api/games", json={"game": "aton", "seats": [{}, {}]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        sign_up(a, "Ana")
        sign_up(b, "Bes")
        answers: list[int] = []

        def claim(client: TestClient) -> None:
            answer = client.post(
                f"/api/games/{game_id}/claim", params={"token": token}, headers=csrf(client)
            )
            answers.append(answer.status_code)

        threads = [threading.Thread(target=claim, args=(c,)) for c in (a, b)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(answers) == [200, 409]


def test_a_stopped_servers_bots_carry_on_in_the_other(database: str, broker: str) -> None:
    a, b = servers(database, broker)
    with b:
        with a:
            seats = [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}]
            game_id = a.post("/api/games", json={"game": "aton", "seats": seats}).json()["id"]
            b.get(f"/api/games/{game_id}")
        # A stopped (and handed its leases back): B takes the game over and finishes it
        wait_for(lambda: b.get(f"/api/games/{game_id}").json()["status"] == "finished", 60)
    rows = stored_actions(database, game_id)
    assert [number for number, *_ in rows] == list(range(len(rows)))


def test_a_server_that_missed_events_reloads_from_the_database(
    database: str, tmp_path: Path
) -> None:
    """Redis restarts: what was published meanwhile is lost, and B, once reconnected,
    brings the games it holds up to the database instead of staying behind."""
    with running_redis(tmp_path) as redis:
        a, b = servers(database, redis.url)
        with a, b:
            body = {"game": "amunre", "seats": [{}, {}, {}], "seed": 5}
            created = a.post("/api/games", json=body).json()
            game_id = created["id"]
            tokens = [seat["token"] for seat in created["seats"]]
            before = b.get(f"/api/games/{game_id}").json()["version"]
            redis.stop()
            mover = a.get(f"/api/games/{game_id}").json()["to_move"][0]
            version, moves = legal(a, game_id, tokens[mover])
            assert move(a, game_id, tokens[mover], moves[0], version).status_code == 200
            assert b.get(f"/api/games/{game_id}").json()["version"] == before  # missed it
            redis.start()
            wait_for(lambda: b.get(f"/api/games/{game_id}").json()["version"] > before, 15)


def test_two_servers_share_one_cap_on_running_games(database: str) -> None:
    settings = ServerSettings(max_running_games=2)
    a, b = (TestClient(create_app(database, bot_workers=0, settings=settings)) for _ in range(2))
    with a, b:
        assert a.post("/api/games", json={"seats": [{}, {}, {}]}).status_code == 201
        assert b.post("/api/games", json={"seats": [{}, {}, {}]}).status_code == 201
        for client in (a, b):
            refused = client.post("/api/games", json={"seats": [{}, {}, {}]})
            assert refused.status_code == 429, refused.text


def test_private_steps_on_one_server_change_nothing_public_on_the_other(
    database: str, broker: str
) -> None:
    """Hidden information across the broker: while an Egyptia builder takes private steps
    through server A, everything a stranger can fetch from server B (after B has caught
    up with them) stays byte-identical, sockets included."""
    from .test_public_channels import public_bytes

    a, b = servers(database, broker)
    with a, b:
        seats = [{"kind": "human", "name": n} for n in ("Ana", "Bes", "Ka")]
        body = {
            "game": "egyptia",
            "seats": seats,
            "seed": 8,
            "options": {"cards": "A2,B2,C3,D2,E3"},
        }
        created = a.post("/api/games", json=body).json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        for seat, column in ((0, "diamond"), (2, "diamond"), (1, "grain")):  # the reveal
            version, _ = legal(a, game_id, tokens[seat])
            assert move(a, game_id, tokens[seat], f"choose {column}", version).status_code == 200

        def caught_up() -> bool:
            return legal(b, game_id, tokens[1])[0] == legal(a, game_id, tokens[1])[0]

        wait_for(caught_up, 5)
        before = public_bytes(b, game_id)
        steps = 0
        for _ in range(8):
            view = a.get(f"/api/games/{game_id}", params={"token": tokens[1]}).json()
            if view["observation"]["you"]["stage"] == "done":
                break
            texts = [m["text"] for m in view["legal"] if not m["text"].startswith("ship")]
            answer = move(a, game_id, tokens[1], texts[-1], view["version"])
            assert answer.status_code == 200, answer.text
            if answer.json()["view"]["observation"]["you"]["stage"] == "done":
                break  # being done is public
            steps += 1
            wait_for(caught_up, 5)
            assert public_bytes(b, game_id) == before, f"after Bes's step {steps}"
        assert steps >= 1


def test_a_version_seen_on_one_server_is_taken_by_the_other_at_once(database: str) -> None:
    """Behind a balancer, a page may read version N from A and send its next move to B
    before B has heard of N (here B never hears: no broker): B catches up and plays it,
    instead of calling N a version from the future."""
    a, b = servers(database, None)
    with a, b:
        created = a.post("/api/games", json={"game": "amunre", "seats": [{}, {}, {}]}).json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        b.get(f"/api/games/{game_id}")  # B holds the game at version 0
        for _ in range(3):
            mover = a.get(f"/api/games/{game_id}").json()["to_move"][0]
            version, moves = legal(a, game_id, tokens[mover])
            answer = move(b, game_id, tokens[mover], moves[0], version)
            assert answer.status_code == 200, answer.text
        mover = a.get(f"/api/games/{game_id}").json()["to_move"][0]
        version, moves = legal(a, game_id, tokens[mover])
        future = move(b, game_id, tokens[mover], moves[0], version + 5)
        assert future.status_code == 400, future.text  # still refused when truly ahead


def test_a_stale_refusal_names_the_version_the_database_holds(database: str) -> None:
    """B's copy is behind (no broker), and a move is stale even by B's copy: the refusal
    names the version the database holds, not B's, so the client's next try can be right."""
    a, b = servers(database, None)
    with a, b:
        created = a.post("/api/games", json={"game": "amunre", "seats": [{}, {}, {}]}).json()
        game_id = created["id"]
        tokens = [seat["token"] for seat in created["seats"]]
        first = b.get(f"/api/games/{game_id}").json()["to_move"][0]
        old_version, old_moves = legal(b, game_id, tokens[first])
        assert move(b, game_id, tokens[first], old_moves[0], old_version).status_code == 200
        for _ in range(2):  # through A: B does not hear of them
            now = a.get(f"/api/games/{game_id}").json()["to_move"][0]
            version, moves = legal(a, game_id, tokens[now])
            assert move(a, game_id, tokens[now], moves[0], version).status_code == 200
        refused = move(b, game_id, tokens[first], old_moves[1], old_version)
        assert refused.status_code == 409, refused.text
        assert refused.json()["version"] == legal(a, game_id, tokens[first])[0]

"""The issue's reproductions, each through two real ``karnak serve`` processes (A and B) on
one PostgreSQL database with a Redis broker, talking to each process directly.

Started twice on one database, the server used to corrupt games: an undo on A deleted B's
move, moves through a stale copy got a 500, both processes ran the bots, two accounts both
claimed one seat, a session ended on A lived on in B, limits counted per process, and
processes starting together raced the migrations. Each test here is one of those, with the
outcome the database-decides design promises.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from support.cluster import (
    LocalCluster,
    client,
    cookie_headers,
    running_cluster,
    wait_for,
)

from .helpers import SOLO, Socket, create, increasing, move, stored_actions, undo, view

PASSWORD = "two crowns, one Nile"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A and B: two processes on one new database and one broker, without a balancer."""
    with running_cluster(tmp_path_factory.mktemp("pair"), count=2, balancer=False) as cluster:
        yield cluster


def a_and_b(cluster: LocalCluster) -> tuple[Any, Any]:
    """Clients of processes A and B (any process started later is left out)."""
    return client(cluster.urls[0]), client(cluster.urls[1])


def no_failures(cluster: LocalCluster) -> None:
    errors = cluster.errors()
    assert not errors, "the processes logged failures:\n" + "\n".join(errors[:20])


# ---------------------------------------------------------------------- moves and undo
def test_a_stale_undo_deletes_nothing_and_the_game_reloads(pair: LocalCluster) -> None:
    """1. A: ship 1. 2. B: undo, ship 2. 3. A: undo at the version A saw, refused (409):
    it would take back B's move. 4. A's choose grain at that version: 409; B's: 200. The
    database holds ship 2, choose grain; both processes restarted and a third one started
    afresh show the game at the same version."""
    a, b = a_and_b(pair)
    with a, b:
        game_id, tokens = create(a, SOLO)
        token = tokens[0]
        assert token is not None
        first = move(a, game_id, token, "ship 1", 0)
        assert first.status_code == 200, first.text
        seen_by_a = first.json()["version"]

        on_b = view(b, game_id, token)
        assert on_b["version"] == seen_by_a
        taken_back = undo(b, game_id, token, on_b["version"])
        assert taken_back.status_code == 200, taken_back.text
        second = move(b, game_id, token, "ship 2", taken_back.json()["version"])
        assert second.status_code == 200, second.text
        current = second.json()["version"]

        refused = undo(a, game_id, token, seen_by_a)
        assert refused.status_code == 409, refused.text
        assert refused.json().get("version") == current
        stale = move(a, game_id, token, "choose grain", seen_by_a)
        assert stale.status_code == 409, stale.text
        fresh = move(b, game_id, token, "choose grain", current)
        assert fresh.status_code == 200, fresh.text
        final = view(b, game_id, token)
    texts = [text for *_, text in stored_actions(pair.database_url, game_id)]
    assert texts == ["ship 2", "choose grain"]

    pair.restart(0, 1)
    third = pair.add()
    for url in [*pair.urls[:2], pair.urls[third]]:
        with client(url) as http:
            again = view(http, game_id, token)  # 200: the stored moves replay
        assert again["version"] == final["version"]
        assert again["log"] == final["log"]
        assert again["legal"] == final["legal"]
    no_failures(pair)


def test_a_move_on_a_reaches_b_and_its_sockets_within_a_second(pair: LocalCluster) -> None:
    a, b = a_and_b(pair)
    with a, b:
        body = {"game": "amunre", "seats": [{}, {}, {}], "seed": 5}
        game_id, tokens = create(a, body)
        before = view(b, game_id)  # B holds a copy now
        mover = before["to_move"][0]
        watcher = Socket(pair.urls[1], game_id)
        seat_socket = Socket(pair.urls[1], game_id, tokens[mover])
        try:
            assert watcher.receive(5)["version"] == before["version"]
            seat_socket.receive(5)
            token = tokens[mover]
            assert token is not None
            mine = view(a, game_id, token)
            played = move(a, game_id, token, mine["legal"][0]["text"], mine["version"])
            assert played.status_code == 200, played.text
            version = played.json()["version"]
            # B's sockets get the new view, then B's pages
            assert watcher.until(version, timeout=1.0)["version"] == version
            assert seat_socket.until(version, timeout=1.0)["your_turn"] is False
            wait_for(lambda: view(b, game_id)["version"] == version, 1.0, "B's view of the move")
            assert view(b, game_id, token)["log"] == view(a, game_id, token)["log"]
        finally:
            watcher.close()
            seat_socket.close()


def test_a_stale_move_through_b_is_409_never_500(pair: LocalCluster) -> None:
    """B's copy may lag behind: a move chosen before A's is refused with 409 naming the
    current version; the same move sent again is answered as done; a move at the current
    version goes through B at once (the database decides, not B's copy)."""
    a, b = a_and_b(pair)
    with a, b:
        body = {"game": "amunre", "seats": [{}, {}, {}], "seed": 7}
        game_id, tokens = create(a, body)
        for _ in range(3):
            public = view(b, game_id)
            mover = public["to_move"][0]
            token = tokens[mover]
            assert token is not None
            mine = view(b, game_id, token)  # what B shows the seat before A's move
            legal = [entry["text"] for entry in mine["legal"]]
            played = move(a, game_id, token, legal[0], mine["version"])
            assert played.status_code == 200, played.text
            current = played.json()["version"]
            late = move(b, game_id, token, legal[-1], mine["version"])
            assert late.status_code == 409, late.text
            assert late.json()["version"] == current
            again = move(b, game_id, token, legal[0], mine["version"])
            assert again.status_code == 200, again.text
            assert again.json()["duplicate"] is True
            # at once, whatever B has heard by now
            follower = played.json()["view"]["to_move"][0]
            next_token = tokens[follower]
            assert next_token is not None
            theirs = view(a, game_id, next_token)
            through_b = move(b, game_id, next_token, theirs["legal"][0]["text"], current)
            assert through_b.status_code == 200, through_b.text
            # B's move reaches A through the broker a moment later (not before B answered)
            wait_for(
                lambda: view(a, game_id)["version"] == view(b, game_id)["version"],
                5.0,
                "A to hear of B's move",
            )
        rows = stored_actions(pair.database_url, game_id)
        assert [number for number, *_ in rows] == list(range(len(rows)))
        assert len(rows) == 6
    no_failures(pair)


def test_bots_move_once_with_two_processes(pair: LocalCluster) -> None:
    """A bot game made on A and watched through both: every bot move is stored once, every
    socket sees the versions rise one by one, and both processes show the same end."""
    a, b = a_and_b(pair)
    with a, b:
        seats = [
            {"kind": "bot", "bot": "random"},
            {"kind": "bot", "bot": "heuristic"},
            {"kind": "bot", "bot": "random"},
        ]
        game_id, _ = create(a, {"game": "amunre", "seats": seats, "seed": 9})
        sockets = [Socket(url, game_id) for url in pair.urls]
        try:
            view(b, game_id)  # B loads the game while its bots play
            wait_for(lambda: view(b, game_id)["status"] == "finished", 60, "the bots to finish")
            final = view(a, game_id)
            for socket in sockets:
                socket.until(final["version"], timeout=5)
                assert increasing(socket.versions), socket.versions
        finally:
            for socket in sockets:
                socket.close()
        assert view(b, game_id)["version"] == final["version"]
        record_a = a.get(f"/api/games/{game_id}/record").json()
        record_b = b.get(f"/api/games/{game_id}/record").json()
        assert record_a == record_b
    rows = stored_actions(pair.database_url, game_id)
    assert [number for number, *_ in rows] == list(range(len(rows)))
    assert increasing([version for _, version, *_ in rows])
    assert [[seat, text] for _, _, seat, text in rows] == record_a["actions"]
    no_failures(pair)


# ---------------------------------------------------------------------- accounts
def sign_up(http: Any, name: str) -> dict[str, str]:
    answer = http.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return cookie_headers(answer)


def log_in(http: Any, name: str) -> dict[str, str]:
    answer = http.post("/api/account/login", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 200, answer.text
    return cookie_headers(answer)


def logged_in(http: Any, headers: dict[str, str]) -> bool:
    return http.get("/api/account", headers=headers).json()["account"] is not None


def at_once(calls: dict[str, tuple[Any, str, dict[str, Any], dict[str, str]]]) -> dict[str, int]:
    """POST each of ``calls`` (client, path, query, headers) from its own thread, all let go
    together; the status each got."""
    answers: dict[str, int] = {}
    start = threading.Barrier(len(calls))

    def post(name: str, http: Any, path: str, query: dict[str, Any], headers: Any) -> None:
        start.wait()
        answers[name] = http.post(path, params=query, headers=headers).status_code

    threads = [threading.Thread(target=post, args=(name, *call)) for name, call in calls.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return answers


def test_two_accounts_claiming_one_guest_seat_through_a_and_b_one_wins(
    pair: LocalCluster,
) -> None:
    a, b = a_and_b(pair)
    with a, b:
        suffix = Path(pair.folder).name[-6:]
        ana, bes = sign_up(a, f"Ana{suffix}"), sign_up(b, f"Bes{suffix}")
        for round_ in range(3):
            game_id, tokens = create(a, {"game": "aton", "seats": [{}, {}], "seed": round_})
            token = tokens[0]
            view(a, game_id, token)  # both processes hold the game
            view(b, game_id, token)
            answers = at_once(
                {
                    name: (http, f"/api/games/{game_id}/claim", {"token": token}, headers)
                    for name, http, headers in (("ana", a, ana), ("bes", b, bes))
                }
            )
            assert sorted(answers.values()) == [200, 409], answers
            winner = ana if answers["ana"] == 200 else bes
            loser = bes if winner is ana else ana
            for http in (a, b):  # the winner's session opens the seat on both, the loser's not
                assert http.get(f"/api/games/{game_id}", headers=winner).json()["seat"] == 0
                assert http.get(f"/api/games/{game_id}", headers=loser).json()["seat"] is None


def test_a_session_ended_on_a_ends_on_b_at_once(pair: LocalCluster) -> None:
    a, b = a_and_b(pair)
    with a, b:
        name = f"Tiy{Path(pair.folder).name[-6:]}"
        first = sign_up(a, name)
        assert logged_in(b, first)  # B has looked the session up (and may remember it)
        logged_out = a.post("/api/account/logout", headers=first)
        assert logged_out.status_code == 204, logged_out.text
        wait_for(lambda: not logged_in(b, first), 1.0, "B to forget the ended session")

        here, there = log_in(a, name), log_in(b, name)
        assert logged_in(b, there) and logged_in(a, there)
        changed = a.post(
            "/api/account/password",
            json={"current": PASSWORD, "new": "a new password"},
            headers=here,
        )
        assert changed.status_code == 200, changed.text
        wait_for(lambda: not logged_in(b, there), 1.0, "B to end the other session")
        assert not logged_in(a, there)
        assert logged_in(b, here)  # the session that changed it goes on, on both


# ---------------------------------------------------------------------- limits
def test_rate_limits_and_the_games_cap_count_across_processes(tmp_path: Path) -> None:
    """What one process allows a client, two allow together: 4 creates a minute, 6 moves a
    minute, 3 running games (the cap refuses the 4th create, the rate the 5th)."""
    limits = ["--creates-per-minute", "4", "--moves-per-minute", "6", "--max-games", "3"]
    with running_cluster(tmp_path, count=2, balancer=False, options=limits) as cluster:
        a, b = a_and_b(cluster)
        with a, b:
            body = {"game": "aton", "seats": [{}, {}]}
            created = [a.post("/api/games", json=body) for _ in range(2)]
            created.append(b.post("/api/games", json=body))
            assert [answer.status_code for answer in created] == [201] * 3
            capped = b.post("/api/games", json=body)
            assert capped.status_code == 429, capped.text
            assert "runs 3 games" in capped.json()["error"]
            rated = a.post("/api/games", json=body)
            assert rated.status_code == 429, rated.text
            assert "runs" not in rated.json()["error"]
            assert int(rated.headers["Retry-After"]) >= 1

            game = created[0].json()
            game_id = game["id"]
            tokens = [seat["token"] for seat in game["seats"]]
            statuses = []
            last = a  # the views come from the process that took the last move (current)
            for turn in range(7):
                http = (a, b)[turn % 2]
                token = tokens[view(last, game_id)["to_move"][0]]
                mine = view(last, game_id, token)
                wait_for(  # this test counts moves; a process a moment behind is another's
                    lambda: view(http, game_id, token)["version"] >= mine["version"],  # noqa: B023
                    2.0,
                    "the other process to hear of the last move",
                )
                played = move(http, game_id, token, mine["legal"][0]["text"], mine["version"])
                statuses.append(played.status_code)
                last = http
            assert statuses == [200] * 6 + [429], statuses


# ---------------------------------------------------------------------- start
def test_processes_starting_together_on_a_new_database_all_come_up(tmp_path: Path) -> None:
    """Three processes started at once on an empty database: the migrations run once, under
    a lock, and every process comes up and serves the same games."""
    with running_cluster(tmp_path, count=3, balancer=False, together=True) as cluster:
        clients = [client(url) for url in cluster.urls]
        try:
            game_id, _ = create(clients[0], {"game": "aton", "seats": [{}, {}]})
            for http in clients:
                assert view(http, game_id)["game_id"] == game_id
        finally:
            for http in clients:
                http.close()
        no_failures(cluster)

"""At a crowd (more than CROWD_SEATS seats) a change inside a step waits a moment on each
socket and goes out with the next ones as one view; a new step goes at once; nothing is
ever lost: every socket ends on the newest view.

A crowd's view carries the seat's own builder in full and the others in short (Egyptia's
brief of each published sheet) and the last lines of the log; one builder's sheet is fetched
on demand (``GET /api/games/{id}/sheets/{seat}``), as the reader may see it. Neither changes
when what is hidden from the reader is re-dealt."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.service
import karnak.server.views
from karnak.core import Rng
from karnak.games.egyptia import GAME as EGYPTIA
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.web import board as egyptia_board
from karnak.server.rooms import Room
from karnak.server.service import GameService, Listener


def test_changes_inside_a_window_are_built_once() -> None:
    async def run() -> tuple[str, int]:
        built = 0

        def source(text: str) -> Any:
            def build() -> str:
                nonlocal built
                built += 1
                return text

            return build

        listener = Listener(seat=0)
        listener.stale(source("first"), settle=0.2)
        listener.stale(source("second"), settle=0.2)
        listener.stale(source("third"), settle=0.2)
        view = await asyncio.wait_for(listener.next_view(), 10)
        return view, built

    assert asyncio.run(run()) == ("third", 1)


def test_a_new_step_does_not_wait_for_the_window() -> None:
    async def run() -> str:
        listener = Listener(seat=0)
        listener.stale(lambda: "same step", settle=60.0)
        waiting = asyncio.create_task(listener.next_view())
        await asyncio.sleep(0.05)
        listener.stale(lambda: "new step")  # no settle: at once
        return await asyncio.wait_for(waiting, 10)  # far less than the 60 s window

    assert asyncio.run(run()) == "new step"


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_every_socket_of_a_crowd_ends_on_the_newest_view(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from karnak.server.app import create_app

    monkeypatch.setattr(karnak.server.service, "CROWD_SETTLE", 0.3)
    seats = karnak.server.service.CROWD_SEATS + 2
    with TestClient(create_app(database, bot_workers=0)) as client:
        game = client.post(
            "/api/games", json={"game": "egyptia", "seats": [{"kind": "human"}] * seats}
        ).json()
        tokens = [s["token"] for s in game["seats"]]
        sockets = [
            client.websocket_connect(f"/api/games/{game['id']}/ws?token={t}").__enter__()
            for t in tokens
        ]
        for socket in sockets:
            socket.receive_text()
        for seat in range(seats):  # every builder chooses: the step ends with the last
            mine = client.get(f"/api/games/{game['id']}", params={"token": tokens[seat]}).json()
            answer = client.post(
                f"/api/games/{game['id']}/actions",
                params={"token": tokens[seat]},
                json={"version": mine["version"], "action": mine["legal"][0]["action"]},
            )
            assert answer.status_code == 200, answer.text
        for seat, socket in enumerate(sockets):
            newest = client.get(f"/api/games/{game['id']}", params={"token": tokens[seat]})
            version = newest.json()["version"]
            seen = -1
            while seen < version:  # the views arrive, coalesced, up to the newest
                seen = json.loads(socket.receive_text())["version"]
            assert seen == version
        for socket in sockets:
            socket.__exit__(None, None, None)


def test_a_new_step_is_not_held_back_by_a_change_that_came_after_it() -> None:
    """At a crowd the first choices of a new round come while the round's view is still on
    its way to the last pages: such a change (one that may wait) does not make the new
    step's view wait for the window."""

    async def run() -> str:
        listener = Listener(seat=0)
        listener.stale(lambda: "new round")  # not sent yet
        listener.stale(lambda: "new round, one builder has chosen", settle=60.0)
        return await asyncio.wait_for(listener.next_view(), 10)

    assert asyncio.run(run()) == "new round, one builder has chosen"


# ---------------------------------------------------------------------- a crowd's views
CARDS = "A2,B2,C3,D2,E3"
CROWD = karnak.server.service.CROWD_SEATS + 2


def crowd_game(client: TestClient, seats: int = CROWD, seed: int = 9) -> tuple[str, list[str]]:
    created = client.post(
        "/api/games",
        json={
            "game": "egyptia",
            "seats": [{"kind": "human", "name": f"Builder {n}"} for n in range(seats)],
            "seed": seed,
            "options": {"cards": CARDS},
        },
    )
    assert created.status_code == 201, created.text
    body = created.json()
    return body["id"], [seat["token"] for seat in body["seats"]]


def get(client: TestClient, path: str, token: str | None = None) -> Any:
    return client.get(path, params={"token": token} if token else {})


def room_of(client: TestClient, game_id: str) -> Room:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service.rooms[game_id]


def play_one(client: TestClient, game_id: str, tokens: list[str], rng: Rng) -> None:
    """One random legal move (rarely a ship) of a random builder to move, through the API."""
    room = room_of(client, game_id)
    movers = room.state.to_move()
    seat = movers[rng.below(len(movers))]
    mine = get(client, f"/api/games/{game_id}", tokens[seat]).json()
    legal = [m for m in mine["legal"] if m["action"]["type"] != "ship"] or mine["legal"]
    choice = legal[rng.below(len(legal))]
    answer = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": tokens[seat]},
        json={"version": mine["version"], "action": choice["action"]},
    )
    assert answer.status_code == 200, answer.text


def play_until(client: TestClient, game_id: str, tokens: list[str], done: Any) -> None:
    rng = Rng(11)
    for _ in range(2000):
        if done(room_of(client, game_id).state):
            return
        play_one(client, game_id, tokens, rng)
    raise AssertionError("the game never got there")


def expected_brief(player: dict[str, Any]) -> dict[str, Any]:
    sheet, score = player["sheet"], player["score"]
    return {
        "total": score["total"],
        "plagues": sum(sheet["plagues"].values()),
        "deaths": sheet["deaths"],
        "buildings": sheet["buildings"],
        "ships": sheet["ships"].count("unused"),
        "red": sheet["red"],
    }


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_crowd_view_has_the_seat_in_full_and_the_others_in_short(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from karnak.server.app import create_app

    monkeypatch.setattr(karnak.server.views, "CROWD_LOG_LINES", 20)  # 99 write thousands

    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator
    with TestClient(create_app(database, bot_workers=0)) as client:
        game_id, tokens = crowd_game(client)
        # a round and a half: built cities, crossed plagues, a step under way
        play_until(client, game_id, tokens, lambda s: s.round == 2 and s.revealed)
        room = room_of(client, game_id)
        schema = client.get("/api/games/egyptia/observation-schema").json()
        check = validator(schema)
        for seat in (3, None):
            view = get(client, f"/api/games/{game_id}", tokens[seat] if seat is not None else None)
            view = view.json()
            assert view["crowd"] is True
            check.validate(view["observation"])
            full = room.state.observation(seat)
            for player, truth in zip(view["observation"]["players"], full["players"], strict=True):
                assert {k: player[k] for k in ("seat", "name", "stage", "column")} == {
                    k: truth[k] for k in ("seat", "name", "stage", "column")
                }
                if player["seat"] == seat:  # the seat's own builder, live and in full
                    assert player["sheet"] == truth["sheet"] and player["score"] == truth["score"]
                    assert "brief" not in player
                else:
                    assert "sheet" not in player and "score" not in player
                    assert player["brief"] == expected_brief(truth)
            # what the page itself draws comes from the whole observation, as before
            assert view["page"]["stages"]["building"] + view["page"]["stages"]["done"] == CROWD
            # the log: the last lines the seat may read, as many as the page shows
            lines = room.state.log_lines(seat)
            assert len(lines) > 20
            assert view["log"] == lines[-20:]
        own = get(client, f"/api/games/{game_id}", tokens[3]).json()
        assert own["page"]["sheet_svg"] is not None  # the seat's own sheet, drawn as before


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_small_table_keeps_every_sheet_in_its_view(database: str) -> None:
    from karnak.server.app import create_app

    with TestClient(create_app(database, bot_workers=0)) as client:
        game_id, tokens = crowd_game(client, seats=karnak.server.service.CROWD_SEATS)
        play_until(client, game_id, tokens, lambda s: s.round == 2)
        room = room_of(client, game_id)
        view = get(client, f"/api/games/{game_id}", tokens[0]).json()
        assert "crowd" not in view
        assert view["observation"] == json.loads(json.dumps(room.state.observation(0)))
        assert view["log"] == room.state.log_lines(0)


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_a_builders_sheet_is_fetched_as_the_reader_may_see_it(database: str) -> None:
    from karnak.server.app import create_app

    with TestClient(create_app(database, bot_workers=0)) as client:
        game_id, tokens = crowd_game(client)

        # a builder who has taken private steps since the reveal: the others see its sheet
        # as it was published, the builder its own as it stands
        def changed(state: Any) -> list[int]:
            return [s for s in range(CROWD) if state._sheet_of(s) != state.public[s]]

        play_until(client, game_id, tokens, lambda s: s.round == 2 and s.revealed and changed(s))
        room = room_of(client, game_id)
        state = room.state
        assert isinstance(state, EgyptiaState)
        busy = changed(state)[0]
        reader = next(s for s in range(CROWD) if s != busy)
        theirs = get(client, f"/api/games/{game_id}/sheets/{busy}", tokens[reader])
        assert theirs.status_code == 200, theirs.text
        body = theirs.json()
        published = state.observation(reader)["players"][busy]
        assert body["seat"] == busy and body["name"] == published["name"]
        assert body["sheet"] == published["sheet"] and body["score"] == published["score"]
        assert body["stage"] == published["stage"] and body["column"] == published["column"]
        assert body["svg"] == egyptia_board.sheet_svg(
            EGYPTIA.sheet, published["name"], published["sheet"], published["score"], False
        )
        assert body["version"] == room.version_for(reader)
        own = get(client, f"/api/games/{game_id}/sheets/{busy}", tokens[busy]).json()
        assert own["sheet"] == state.observation(busy)["players"][busy]["sheet"]
        assert own["sheet"] != body["sheet"]  # the private steps: the builder's own alone
        # a spectator sees the published sheet too
        watched = get(client, f"/api/games/{game_id}/sheets/{busy}").json()
        assert watched["sheet"] == body["sheet"] and watched["svg"] == body["svg"]
        # what is not there
        for seat, status in ((CROWD, 404), (-1, 404), (10**30, 404)):
            answer = get(client, f"/api/games/{game_id}/sheets/{seat}", tokens[0])
            assert answer.status_code == status, (seat, answer.text)
            assert "seats 0 to" in answer.json()["error"]
        assert get(client, f"/api/games/{game_id}/sheets/one").status_code == 422
        assert get(client, f"/api/games/{game_id}/sheets/1", "not-a-token").status_code == 403
        assert get(client, "/api/games/nosuchgame/sheets/1").status_code == 404
        # a sealed game (a game of the day's) shows nothing to anyone but its seats
        room.sealed_until = dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)
        assert get(client, f"/api/games/{game_id}/sheets/{busy}").status_code == 403
        assert get(client, f"/api/games/{game_id}/sheets/{busy}", tokens[reader]).is_success
        # a game whose page has no such part
        aton = client.post("/api/games", json={"game": "aton", "seats": [{}, {}]}).json()
        answer = get(client, f"/api/games/{aton['id']}/sheets/0")
        assert answer.status_code == 404 and "every player" in answer.json()["error"]


# ---------------------------------------------------------------------- hidden information
def reads(client: TestClient, game_id: str, token: str | None, others: list[int]) -> list[str]:
    """What a crowd's seat (or a spectator) reads: its view, other builders' sheets, the
    first socket message."""
    texts = [get(client, f"/api/games/{game_id}", token).text]
    for seat in others:
        answer = get(client, f"/api/games/{game_id}/sheets/{seat}", token)
        assert answer.status_code == 200, answer.text
        texts.append(answer.text)
    path = f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
    with client.websocket_connect(path) as socket:
        texts.append(socket.receive_text())
    return [text.replace(game_id, "GAME") for text in texts]


@pytest.mark.parametrize("database", ["sqlite"], indirect=True)
def test_what_a_crowd_seat_reads_does_not_change_with_what_is_hidden_from_it(
    database: str,
) -> None:
    """Through two rounds of a crowd: for a builder and a spectator, re-deal everything they
    cannot see (the others' sealed columns and their private steps since the last public
    moment, every future roll: the engine's own resample). The compact view, the other
    builders' sheets fetched on demand and the socket's message stay the same bytes."""
    from karnak.server.app import create_app

    with TestClient(create_app(database, bot_workers=0)) as client:
        game_id, tokens = crowd_game(client, seed=21)
        room = room_of(client, game_id)
        rng = Rng(5)
        keep: list[EgyptiaState] = []  # no world is freed: no id is reused by a cache
        checked = hidden = moves = 0
        while room.state.round <= 2:
            truth = room.state
            assert isinstance(truth, EgyptiaState)
            if moves % 9 == 0:
                for seat in (4, None):
                    token = tokens[seat] if seat is not None else None
                    others = [s for s in (0, 7, CROWD - 1) if s != seat]
                    before = reads(client, game_id, token, others)
                    viewers = [seat] if seat is not None else list(range(CROWD))
                    for k in range(2):
                        world = truth
                        for viewer in viewers:
                            world = world.resample(viewer, Rng(k))
                        world.log = truth.log  # read per seat: hidden lines stay hidden
                        keep.append(world)
                        hidden += any(
                            world._sheet_of(o) != truth._sheet_of(o)
                            or world.column[o] != truth.column[o]
                            for o in range(CROWD)
                            if o != seat
                        )
                        room.state = world
                        assert reads(client, game_id, token, others) == before
                    room.state = truth
                    checked += 1
            play_one(client, game_id, tokens, rng)
            moves += 1
        # the re-deals changed what was hidden, many times over
        assert checked >= 20 and hidden >= 10, (checked, hidden)

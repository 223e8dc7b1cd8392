"""Egyptia on the server: games created and played through the API, their pages, their
WebSocket messages, and what one builder receives while the others' choices are sealed.

The resource board drawing is public (one per position, the same for every seat and every
spectator); a seat's own sheet is drawn from its own observation; nothing a seat receives
(API view, page data, drawings, WebSocket message, log) changes when another builder's
sealed column or private steps change.
"""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from fastapi.testclient import TestClient

from karnak.bots.base import available_bots
from karnak.core import Rng, replay
from karnak.core.record import GameRecord
from karnak.core.registry import get_game
from karnak.games.egyptia import GAME as EGYPTIA
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.web import board as egyptia_board
from karnak.server import rooms
from karnak.server.rooms import HUMAN, Room, SeatInfo, hash_token
from karnak.server.service import GameService
from support.egyptia_positions import THREE_IN_GRAIN, TWO_EACH, roll, set_have

from .conftest import wait_for

GAME = get_game("egyptia")
CARDS = "A2,B2,C3,D2,E3"
HEX = re.compile(r'data-hex="([A-Z]\d+)"[^>]*data-built="(\w+)"')


# ---------------------------------------------------------------------- helpers
def create_egyptia(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"game": "egyptia", "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def view(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}", params={"token": token} if token else {})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def post(client: TestClient, game_id: str, token: str | None, version: int, action: Any) -> Any:
    return client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token} if token else {},
        json={"version": version, "action": action},
    )


def play(client: TestClient, game_id: str, token: str, text: str) -> dict[str, Any]:
    mine = view(client, game_id, token)
    response = post(client, game_id, token, mine["version"], text)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()["view"]
    return body


def tokens_of(created: dict[str, Any]) -> list[str | None]:
    return [seat["token"] for seat in created["seats"]]


def moves_of(page: dict[str, Any]) -> set[str]:
    """Every move text the page offers through its controls."""
    moves = page["moves"]
    texts = {f"choose {c}" for c in moves["choose"]}
    texts |= {p["text"] for p in moves["plagues"]}
    texts |= {spot["text"] for b in moves["buildings"] for spot in b["hexes"]}
    texts |= {p["text"] for p in moves["payments"]}
    texts |= {g["text"] for g in moves["gains"]}
    texts |= {s["text"] for s in moves["ships"]}
    return texts


def check_views(client: TestClient, game_id: str, tokens: list[str | None]) -> list[dict[str, Any]]:
    """Every person's view and a spectator's, checked against each other and the drawings.

    Bots may move between two requests, so the views are read until a reading is not
    interrupted by a move (the seats' views the same before and after the spectator's).
    """
    for _ in range(50):
        seats = [view(client, game_id, token) for token in tokens if token is not None]
        public = view(client, game_id)
        again = [view(client, game_id, token) for token in tokens if token is not None]
        if again == seats and view(client, game_id) == public:
            break
    else:
        raise AssertionError("the game never stood still long enough to compare its views")
    boards = {v["page"]["board_svg"] for v in [*seats, public]}
    assert len(boards) == 1, "the resource board must be one public drawing"
    svg = boards.pop()
    ET.fromstring(svg)  # well-formed
    assert 'class="board egy egyptia-board"' in svg
    obs = public["observation"]
    for column in obs["columns"]:
        count = len(column["dice"])
        assert f'data-column="{column["resource"]}" data-dice="{count}"' in svg
    assert svg.count('class="die-on-board"') == 6
    assert svg.count('class="plague" data-plague=') == 10
    assert svg.count('class="pharaoh-card"') == 5
    for card in obs["cards"]:
        assert f'data-card="{card["id"]}"' in svg
    assert public["page"]["sheet_svg"] is None and "moves" not in public["page"]
    assert "you" not in obs and public["legal"] == []
    for mine in seats:
        seat, page, own = mine["seat"], mine["page"], mine["observation"]
        me = own["players"][seat]
        sheet = page["sheet_svg"]
        ET.fromstring(sheet)
        # drawn from the seat's own observation, nothing else
        assert sheet == egyptia_board.sheet_svg(
            EGYPTIA.sheet, me["name"], me["sheet"], me["score"], own["over"]
        )
        drawn = dict(HEX.findall(sheet))
        assert len(drawn) == 19
        assert {h: b for h, b in drawn.items() if b not in ("empty", "oasis")} == me["sheet"][
            "city"
        ]
        assert sheet.count('class="ship ') == 3
        for number, state in enumerate(me["sheet"]["ships"], start=1):
            assert f'data-ship="{number}" data-state="{state}"' in sheet
        assert moves_of(page) == {m["text"] for m in mine["legal"]}
        assert page["stages"] == {
            stage: sum(1 for p in own["players"] if p["stage"] == stage)
            for stage in ("choosing", "chosen", "building", "done")
        }
        # what the others see of this seat is the published sheet (and the same for all)
        assert public["observation"]["players"][seat]["stage"] == me["stage"]
    return [*seats, public]


def play_to_the_end(
    client: TestClient,
    game_id: str,
    tokens: list[str | None],
    seed: int,
    check_every: int = 1,
) -> tuple[int, set[str]]:
    """Random legal moves for the human seats until the game ends: (moves, stages seen)."""
    rng = Rng(seed)
    moves = 0
    stages: set[str] = set()
    while True:
        public = view(client, game_id)
        if public["status"] == "finished":
            return moves, stages
        humans = [s for s in public["to_move"] if tokens[s] is not None]
        if not humans:
            wait_for(lambda v=public["version"]: view(client, game_id)["version"] != v)
            continue
        seat = humans[rng.below(len(humans))]
        token = tokens[seat]
        mine = view(client, game_id, token)
        if not mine["legal"]:
            continue  # a bot moved in between and the round went on
        stages.add(mine["observation"]["you"]["stage"])
        legal = [m for m in mine["legal"] if m["action"]["type"] != "ship" or rng.below(10) == 0]
        choice = (legal or mine["legal"])[rng.below(len(legal or mine["legal"]))]
        action = choice["text"] if moves % 2 else choice["action"]
        response = post(client, game_id, token, mine["version"], action)
        assert response.status_code in (200, 409), response.text  # 409: a bot ended the step
        moves += 1
        assert moves < 5000, "the game did not end"
        if moves % check_every == 0:
            check_views(client, game_id, tokens)


def service_of(client: TestClient) -> GameService:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    return service


# ---------------------------------------------------------------------- creating games
def test_egyptia_is_offered_for_1_to_99_builders(client: TestClient) -> None:
    games = client.get("/api/games/available").json()
    egyptia = next(g for g in games if g["name"] == "egyptia")
    assert egyptia["title"] == "Egyptia"
    assert (egyptia["min_players"], egyptia["max_players"]) == (1, 99)
    assert {"random", "ismcts"} <= set(egyptia["bots"])
    assert [o["name"] for o in egyptia["options"]] == ["cards"]
    cards = egyptia["lobby"]["cards"]
    assert {c["letter"] for c in cards} == set("ABCDE") and len(cards) == 15
    assert all(c["text"] for c in cards)
    assert client.get("/static/games/egyptia/egyptia.js").status_code == 200
    for seats, expected in ((0, 422), (100, 422)):
        response = client.post(
            "/api/games", json={"game": "egyptia", "seats": [{"kind": "human"}] * seats}
        )
        assert response.status_code == expected
    solo = create_egyptia(client, [{"kind": "human"}], options={"cards": "a2, e3"})
    obs = view(client, solo["id"], solo["seats"][0]["token"])["observation"]
    assert obs["cards"][0]["id"] == "A2" and obs["cards"][4]["id"] == "E3"


@pytest.mark.parametrize(
    ("cards", "words"),
    [
        ("A9", "there is no Pharaoh card 'A9'"),
        ("A1,A2", "two cards of letter A"),
    ],
)
def test_bad_card_options_are_refused_clearly(client: TestClient, cards: str, words: str) -> None:
    response = client.post(
        "/api/games",
        json={"game": "egyptia", "seats": [{"kind": "human"}], "options": {"cards": cards}},
    )
    assert response.status_code == 422
    assert words in response.json()["error"]


# ---------------------------------------------------------------------- playing
def test_a_solo_game_plays_to_the_end(client: TestClient) -> None:
    created = create_egyptia(client, [{"kind": "human", "name": "Imhotep"}], seed=3)
    game_id = created["id"]
    tokens = tokens_of(created)
    first = check_views(client, game_id, tokens)
    assert first[0]["sealed"] and first[0]["to_move"] == [0]
    assert first[0]["page"]["moves"]["choose"] == ["grain", "diamond", "stone", "favor"]
    moves, stages = play_to_the_end(client, game_id, tokens, seed=1)
    assert moves >= 18 and {"choose", "build"} <= stages
    final = check_views(client, game_id, tokens)
    mine = final[0]
    obs = mine["observation"]
    assert mine["status"] == "finished" and mine["legal"] == []
    assert obs["solo_rank"] in [r["name"] for r in obs["layout"]["ranks"]]
    assert obs["final"][0]["total"] == mine["result"]["scores"][0]
    assert obs["solo_rank"] in obs["decision"]
    assert "Final score" in mine["page"]["sheet_svg"]
    record = GameRecord.from_json(client.get(f"/api/games/{game_id}/record").json())
    assert replay(record).scores() == mine["result"]["scores"]
    steps = client.get(f"/api/games/{game_id}/replay").json()["steps"]
    last = client.get(f"/api/games/{game_id}/replay/{steps}").json()
    # the replay is the spectator's view, plus what a finished game may show: the full sheet
    shown = last["page"].pop("replay")
    assert last == final[1]
    assert [b["name"] for b in shown["builders"]] == ["Imhotep"] and shown["drawn"] == 1
    assert shown["builders"][0]["sheet"] == obs["players"][0]["sheet"]
    assert shown["builders"][0]["svg"] == mine["page"]["sheet_svg"]
    middle = client.get(f"/api/games/{game_id}/replay/{steps // 2}").json()
    assert middle["page"]["sheet_svg"] is None and middle["page"]["board_svg"].startswith("<svg")
    assert "Score if the game ended now" in middle["page"]["replay"]["builders"][0]["svg"]


def test_three_people_play_egyptia_to_the_end(client: TestClient) -> None:
    created = create_egyptia(
        client, [{"kind": "human", "name": n} for n in ("Ana", "Bes", "Ka")], seed=12
    )
    game_id = created["id"]
    tokens = tokens_of(created)
    first = check_views(client, game_id, tokens)
    assert first[0]["to_move"] == [0, 1, 2]
    assert [p["stage"] for p in first[0]["observation"]["players"]] == ["choosing"] * 3
    moves, stages = play_to_the_end(client, game_id, tokens, seed=5, check_every=3)
    assert moves > 40 and {"choose", "build"} <= stages
    final = check_views(client, game_id, tokens)
    result = final[0]["result"]
    assert final[3]["result"] == result and result["winners"]
    ranks = {line["seat"]: line["rank"] for line in final[0]["observation"]["final"]}
    assert [ranks[s] for s in range(3)] == result["ranks"]
    listed = client.get("/api/games").json()
    assert listed[0]["id"] == game_id and listed[0]["winners"] == result["winners"]


BOTS = ["random", *(["heuristic"] if "heuristic" in available_bots(GAME) else [])]


def test_a_person_plays_egyptia_against_bots(client: TestClient) -> None:
    seats = [{"kind": "human"}, *({"kind": "bot", "bot": bot} for bot in BOTS)]
    created = create_egyptia(client, seats, seed=6, options={"cards": CARDS})
    game_id = created["id"]
    assert all(seat["token"] is None for seat in created["seats"][1:])
    tokens = tokens_of(created)
    play_to_the_end(client, game_id, tokens, seed=2, check_every=5)
    final = view(client, game_id, tokens[0])
    assert final["status"] == "finished" and final["result"]["winners"]
    assert [p["bot"]["spec"] for p in final["players"][1:]] == BOTS
    assert len(final["observation"]["final"]) == len(seats)


def test_a_search_bot_plays_its_rounds(client: TestClient) -> None:
    """The search bot (one iteration a decision, to keep the test quick) goes through every
    step of its rounds."""
    created = create_egyptia(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:1"}], seed=7
    )
    game_id = created["id"]
    token = created["seats"][0]["token"]
    rng = Rng(1)
    while view(client, game_id)["observation"]["round"] < 3:
        mine = view(client, game_id, token)
        if mine["observation"]["round"] >= 3:
            break
        if not mine["your_turn"]:  # waiting (its ships are legal, but nobody waits for them)
            # versions are the seat's own: wait for a change this seat can see
            wait_for(lambda v=mine["version"]: view(client, game_id, token)["version"] != v)
            continue
        legal = [m for m in mine["legal"] if m["action"]["type"] != "ship"]
        choice = legal[rng.below(len(legal))]
        assert post(client, game_id, token, mine["version"], choice["text"]).status_code in (
            200,
            409,
        )
    bot = view(client, game_id)["observation"]["players"][1]
    assert bot["sheet"]["buildings"] == 2  # its two rounds' buildings, as published


def test_every_step_of_a_round_is_drawn(client: TestClient) -> None:
    """A plague with a choice of payment, a building with one, and a Burial Mound's reward:
    the page and both drawings at each of these steps, for the seat and a spectator."""
    created = create_egyptia(client, [{"kind": "human"}, {"kind": "human"}], seed=1)
    game_id = created["id"]
    tokens = tokens_of(created)
    service = service_of(client)
    room = service.rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, THREE_IN_GRAIN)  # Pyramid, Quarry and Mine in grain: a plague
    set_have(state, 0, (2, 2, 2, 1))
    set_have(state, 1, (0, 0, 0, 0))
    room.state = state  # a new object: the cached views of the old position are not used
    ana, bes = tokens
    assert ana is not None and bes is not None
    stages = []

    def step(token: str, text: str) -> dict[str, Any]:
        play(client, game_id, token, text)
        views = check_views(client, game_id, tokens)
        stages.append(views[0]["observation"]["you"]["stage"])
        return views[0]

    start = check_views(client, game_id, tokens)[0]
    grain = next(c for c in start["page"]["columns"] if c["resource"] == "grain")
    assert grain == {"resource": "grain", "dice": 3, "plague": True, "produce": 3}
    assert 'data-column="grain" data-dice="3"' in start["page"]["board_svg"]
    assert "⚠ plague!" in start["page"]["board_svg"]
    step(ana, "choose grain")
    assert stages[-1] == "chosen"
    ana_view = step(bes, "choose diamond")  # the reveal
    assert stages[-1] == "plague"
    plagues = {p["plague"] for p in ana_view["page"]["moves"]["plagues"]}
    assert {"locusts", "hail-fire", "death"} <= plagues
    assert len([p for p in ana_view["page"]["moves"]["plagues"] if p["plague"] == "hail-fire"]) == 3
    ana_view = step(ana, "plague locusts")
    assert stages[-1] == "plague_pay"
    payments = ana_view["page"]["moves"]["payments"]
    assert len(payments) > 1 and payments[0]["text"] == "pay 2g"
    counts = [p["count"] for p in payments]
    assert counts == sorted(counts)
    ana_view = step(ana, "pay 2g")
    assert stages[-1] == "build"
    offered = {b["building"] for b in ana_view["page"]["moves"]["buildings"]}
    assert {"quarry", "mound"} <= offered
    quarry = next(b for b in ana_view["page"]["moves"]["buildings"] if b["building"] == "quarry")
    sacred = next(spot for spot in quarry["hexes"] if spot["sacred"])
    assert "favor" in sacred["cost"]
    ana_view = step(ana, "build quarry B2")
    assert stages[-1] in ("build_pay", "done")
    if stages[-1] == "build_pay":
        assert ana_view["observation"]["you"]["pending"]["building"] == "quarry"
        ana_view = step(ana, ana_view["page"]["moves"]["payments"][0]["text"])
    assert stages[-1] == "done"
    assert 'data-hex="B2" data-kind="plain" data-built="quarry"' in ana_view["page"]["sheet_svg"]
    # Bes, who builds a Burial Mound, has not finished: Ana's quarry is hers alone so far
    bes_view = view(client, game_id, bes)
    assert "B2" not in bes_view["observation"]["players"][0]["sheet"]["city"]
    assert bes_view["observation"]["players"][0]["stage"] == "done"
    mine = play(client, game_id, bes, "build mound A2")
    assert mine["observation"]["you"]["stage"] == "gain"
    gains = [g["words"] for g in mine["page"]["moves"]["gains"]]
    assert "1 favor" in gains and "2 grain" in gains
    check_views(client, game_id, tokens)
    after = play(client, game_id, bes, "gain 1g+1s")
    assert after["observation"]["round"] == 2  # the round ended: the sheets are published
    assert after["observation"]["players"][0]["sheet"]["city"] == {"B2": "quarry"}
    check_views(client, game_id, tokens)
    assert stages == ["chosen", "plague", "plague_pay", "build", *stages[4:]]


def test_bad_moves_are_refused_with_clear_messages(client: TestClient) -> None:
    created = create_egyptia(client, [{"kind": "human"}, {"kind": "human"}], seed=2)
    game_id = created["id"]
    ana, bes = tokens_of(created)
    room = service_of(client).rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, TWO_EACH)  # two dice in each column but favor: nobody suffers a plague
    room.state = state

    def refused(token: str | None, version: int, action: Any, status: int, words: str) -> None:
        response = post(client, game_id, token, version, action)
        assert response.status_code == status, response.text
        assert words in response.json()["error"], response.json()

    refused(ana, 0, "choose gold", 422, "cannot read 'choose gold'")
    refused(ana, 0, {"type": "fly"}, 422, "unknown Egyptia move type 'fly'")
    refused(ana, 0, "plague frogs", 422, "a plague is suffered only after choosing a column")
    refused(ana, 0, "build quarry B2", 422, "you are choosing a column")
    refused(ana, 0, "pay 2g", 422, "there is nothing to pay for now")
    refused(ana, 0, "ship 7", 422, "the ships are numbered 1 to 3")
    refused(ana, 0, "gain 2g", 422, "only a Burial Mound gives resources")
    refused(None, 0, "choose stone", 403, "spectators cannot move")
    refused(ana, 5, "choose stone", 400, "version 5 does not exist")
    assert post(client, game_id, ana, 0, "choose stone").status_code == 200
    refused(ana, 1, "choose grain", 422, "you have chosen your column and wait for the others")
    assert post(client, game_id, bes, 1, "choose stone").status_code == 200
    # the reveal started a new step: an answer chosen before it is stale
    refused(ana, 1, "build mound A1", 409, "the game has moved on since version 1")
    refused(ana, 2, "build mound C3", 422, "nothing may be built on the Oasis")
    refused(ana, 2, "build mound Z9", 422, "there is no hex Z9 on the sheet")
    refused(ana, 2, "build pyramid A1", 422, "'build pyramid A1' is not allowed now")
    assert post(client, game_id, ana, 2, "build mound A1").status_code == 200
    refused(ana, 3, "gain 2f", 422, "a Burial Mound gives 2 basic resources or a favor")
    refused(ana, 3, "build mound A2", 422, "you are taking the Burial Mound's resources")
    assert post(client, game_id, ana, 3, "ship 1").status_code == 200
    refused(ana, 4, "ship 1", 422, "that ship is already crossed off")


def test_the_websocket_sends_egyptia_views(client: TestClient) -> None:
    created = create_egyptia(client, [{"kind": "human"}] * 3, seed=8)
    game_id = created["id"]
    tokens = tokens_of(created)
    with (
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[0]}") as first,
        client.websocket_connect(f"/api/games/{game_id}/ws?token={tokens[1]}") as second,
        client.websocket_connect(f"/api/games/{game_id}/ws") as spectator,
    ):
        starts = [first.receive_json(), second.receive_json(), spectator.receive_json()]
        assert [v["seat"] for v in starts] == [0, 1, None]
        assert len({v["page"]["board_svg"] for v in starts}) == 1
        assert starts[0]["page"]["sheet_svg"] != starts[1]["page"]["sheet_svg"]
        assert post(client, game_id, tokens[1], 0, "choose favor").status_code == 200
        after = [first.receive_json(), second.receive_json(), spectator.receive_json()]
        assert [v["version"] for v in after] == [1, 1, 1]
        assert after[1]["observation"]["players"][1]["column"] == "favor"
        for other in (after[0], after[2]):
            entry = other["observation"]["players"][1]
            assert entry["stage"] == "chosen" and entry["column"] is None
            assert other["page"]["stages"]["chosen"] == 1
        assert after[0]["to_move"] == [0, 2] and after[0]["your_turn"]
        assert not after[1]["your_turn"]
        first.send_text("view")
        assert first.receive_json() == view(client, game_id, tokens[0])
        # the others choose: the columns are revealed to everyone
        assert post(client, game_id, tokens[0], 1, "choose stone").status_code == 200
        assert post(client, game_id, tokens[2], 2, "choose stone").status_code == 200
        revealed = spectator.receive_json()
        while revealed["version"] < 3:
            revealed = spectator.receive_json()
        columns = [p["column"] for p in revealed["observation"]["players"]]
        assert columns == ["stone", "favor", "stone"] and revealed["observation"]["revealed"]


# ---------------------------------------------------------------------- non-interference
def raw(client: TestClient, game_id: str, token: str | None) -> str:
    response = client.get(f"/api/games/{game_id}", params={"token": token} if token else {})
    assert response.status_code == 200
    return response.text.replace(game_id, "GAME")


def socket_text(client: TestClient, game_id: str, token: str | None) -> str:
    path = f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
    with client.websocket_connect(path) as socket:
        text: str = socket.receive_text()
    return text.replace(game_id, "GAME")


def seen_by(client: TestClient, game_id: str, tokens: list[str | None]) -> list[str]:
    """What the first seat and a spectator receive, as bytes: views and socket messages."""
    return [
        raw(client, game_id, tokens[0]),
        raw(client, game_id, None),
        socket_text(client, game_id, tokens[0]),
        socket_text(client, game_id, None),
    ]


def twin_games(client: TestClient) -> tuple[list[str], list[list[str | None]]]:
    """Two games alike in everything: three builders, the same seed, dice and resources."""
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Bes", "Ka")]
    games = [create_egyptia(client, seats, seed=31, options={"cards": CARDS}) for _ in range(2)]
    ids = [g["id"] for g in games]
    for game_id in ids:
        room = service_of(client).rooms[game_id]
        state = room.state.clone()
        assert isinstance(state, EgyptiaState)
        roll(state, THREE_IN_GRAIN)  # three dice in grain (a plague), two in diamond
        for seat in range(3):
            set_have(state, seat, (3, 3, 3, 2))
        room.state = state
    return ids, [tokens_of(g) for g in games]


def test_what_a_builder_receives_does_not_depend_on_a_sealed_column(client: TestClient) -> None:
    """Two games alike but for Bes's sealed column: what Ana and a spectator receive (views,
    drawings, page data, socket messages, logs) is the same bytes until the reveal."""
    ids, tokens = twin_games(client)
    check_twins(client, ids, tokens)
    play_twins(client, ids, tokens, 1, ("choose grain", "choose stone"))
    check_twins(client, ids, tokens)
    play_twins(client, ids, tokens, 0, ("choose diamond", "choose diamond"))
    check_twins(client, ids, tokens)
    # the reveal makes the difference public (and shows that the comparison can see it)
    play_twins(client, ids, tokens, 2, ("choose favor", "choose favor"))
    assert seen_by(client, ids[0], tokens[0])[0] != seen_by(client, ids[1], tokens[1])[0]


def play_twins(
    client: TestClient, ids: list[str], tokens: list[list[str | None]], seat: int, texts: Any
) -> None:
    """Play ``texts[g]`` for ``seat`` in game ``g`` (a text, or a function of the view)."""
    for g in range(2):
        token = tokens[g][seat]
        assert token is not None
        mine = view(client, ids[g], token)
        text = texts[g](mine) if callable(texts[g]) else texts[g]
        response = post(client, ids[g], token, mine["version"], text)
        assert response.status_code == 200, response.text


def check_twins(client: TestClient, ids: list[str], tokens: list[list[str | None]]) -> None:
    a, b = (seen_by(client, ids[g], tokens[g]) for g in range(2))
    for one, other in zip(a, b, strict=True):
        assert one == other


def last_payment(mine: dict[str, Any]) -> str:
    text: str = mine["page"]["moves"]["payments"][-1]["text"]
    return text


def first_payment(mine: dict[str, Any]) -> str:
    text: str = mine["page"]["moves"]["payments"][0]["text"]
    return text


def test_what_a_builder_receives_does_not_depend_on_private_steps(client: TestClient) -> None:
    """Two games alike but for what Bes does after the reveal (which plague, what it pays,
    what it builds where, what it takes): the same bytes for Ana and a spectator until the
    round's end publishes Bes's sheet."""
    ids, tokens = twin_games(client)
    play_twins(client, ids, tokens, 1, ("choose grain", "choose grain"))  # a plague for Bes
    play_twins(client, ids, tokens, 0, ("choose diamond", "choose diamond"))
    play_twins(client, ids, tokens, 2, ("choose diamond", "choose diamond"))
    check_twins(client, ids, tokens)
    bes_steps = [
        ("plague locusts", "plague frogs"),
        (last_payment, first_payment),
        ("build mound E3", "build quarry B2"),
        ("gain 2g", last_payment),
    ]
    for texts in bes_steps[:2]:
        play_twins(client, ids, tokens, 1, texts)
        check_twins(client, ids, tokens)
    # Ana moves in between, alike in both games
    play_twins(client, ids, tokens, 0, ("build mound A1", "build mound A1"))
    check_twins(client, ids, tokens)
    play_twins(client, ids, tokens, 0, ("gain 2g", "gain 2g"))
    check_twins(client, ids, tokens)
    for texts in bes_steps[2:]:
        play_twins(client, ids, tokens, 1, texts)
        check_twins(client, ids, tokens)
    bes = [view(client, ids[g], tokens[g][1])["observation"] for g in (0, 1)]
    assert [o["you"]["stage"] for o in bes] == ["done", "done"]
    assert bes[0]["players"][1]["sheet"] != bes[1]["players"][1]["sheet"]
    # Ka ends the round: now the sheets are published, and differ
    play_twins(client, ids, tokens, 2, ("build mound A1", "build mound A1"))
    play_twins(client, ids, tokens, 2, ("gain 1f", "gain 1f"))
    assert seen_by(client, ids[0], tokens[0])[0] != seen_by(client, ids[1], tokens[1])[0]


def test_how_many_private_steps_the_others_take_is_not_seen(client: TestClient) -> None:
    ids, tokens = twin_games(client)
    play_twins(client, ids, tokens, 1, ("choose grain", "choose grain"))
    play_twins(client, ids, tokens, 0, ("choose diamond", "choose diamond"))
    play_twins(client, ids, tokens, 2, ("choose diamond", "choose diamond"))
    # Death needs no payment; Locusts asks which resources to lose: one move more
    play_twins(client, ids, tokens, 1, ("plague death", "plague locusts"))
    play_twins(client, ids, tokens, 1, ("build mound E3", last_payment))
    bes = tokens[1][1]
    assert bes is not None
    play(client, ids[1], bes, "build mound E3")
    stages = [view(client, ids[g], tokens[g][1])["observation"]["you"]["stage"] for g in (0, 1)]
    assert stages == ["gain", "gain"]
    check_twins(client, ids, tokens)


def test_views_do_not_change_when_hidden_information_is_redealt(client: TestClient) -> None:
    """Through a whole game: for each seat and a spectator, re-deal everything it cannot see
    (the engine's own resample); its view and socket message stay the same bytes."""
    created = create_egyptia(client, [{"kind": "human"}] * 3, seed=21, options={"cards": CARDS})
    game_id = created["id"]
    tokens = tokens_of(created)
    room = service_of(client).rooms[game_id]
    rng = Rng(5)
    keep: list[EgyptiaState] = []  # no world is freed, so no id is reused by the view cache
    checked = hidden = 0
    while not room.is_over and checked < 90:
        truth = room.state
        assert isinstance(truth, EgyptiaState)
        sealed_here = any(stage in ("chosen", "done") for stage in truth.stage) and not all(
            stage == "done" for stage in truth.stage
        )
        for seat in (0, 1, 2, None):
            token = tokens[seat] if seat is not None else None
            before = [raw(client, game_id, token), socket_text(client, game_id, token)]
            viewers = [seat] if seat is not None else [0, 1, 2]
            for k in range(2):
                world = truth
                for viewer in viewers:
                    world = world.resample(viewer, Rng(k))
                world.log = truth.log  # the log is read per seat: hidden lines stay hidden
                keep.append(world)
                room.state = world
                assert [raw(client, game_id, token), socket_text(client, game_id, token)] == (
                    before
                )
            room.state = truth
            checked += 1
            hidden += sealed_here
        seat = truth.to_move()[rng.below(len(truth.to_move()))]
        mine = view(client, game_id, tokens[seat])
        legal = [m for m in mine["legal"] if m["action"]["type"] != "ship"] or mine["legal"]
        choice = legal[rng.below(len(legal))]
        assert post(client, game_id, tokens[seat], mine["version"], choice["text"]).is_success
    assert checked >= 90 and hidden >= 20


# ---------------------------------------------------------------------- undo and timers
def test_no_undo_at_a_table_of_several_builders(client: TestClient) -> None:
    """Whether another builder has moved since (privately) must not change the answer, so a
    table of several builders refuses every undo, with the same words."""
    created = create_egyptia(client, [{"kind": "human"}] * 3, seed=4)
    game_id = created["id"]
    tokens = tokens_of(created)
    chosen = play(client, game_id, tokens[0], "choose grain")  # type: ignore[arg-type]
    assert not chosen["can_undo"]
    response = client.post(
        f"/api/games/{game_id}/undo",
        params={"token": tokens[0]},
        json={"version": chosen["version"]},
    )
    assert response.status_code == 409
    assert "others decide in private" in response.json()["error"]


def test_a_solo_builder_takes_back_a_step_but_not_a_new_roll(client: TestClient) -> None:
    created = create_egyptia(client, [{"kind": "human"}], seed=4)
    game_id = created["id"]
    token = tokens_of(created)[0]
    assert token is not None
    first = view(client, game_id, token)
    column = next(c for c in first["observation"]["columns"] if len(c["dice"]) < 3)
    chosen = play(client, game_id, token, f"choose {column['resource']}")
    assert chosen["can_undo"]
    response = client.post(
        f"/api/games/{game_id}/undo", params={"token": token}, json={"version": chosen["version"]}
    )
    assert response.status_code == 200, response.text
    back = response.json()["view"]
    assert back["observation"]["you"]["stage"] == "choose" and not back["can_undo"]
    play(client, game_id, token, f"choose {column['resource']}")
    mound = next(m["text"] for m in view(client, game_id, token)["legal"] if "mound" in m["text"])
    play(client, game_id, token, mound)
    done = play(client, game_id, token, "gain 1f")  # the round ends: a new roll
    assert done["observation"]["round"] == 2 and not done["can_undo"]
    response = client.post(
        f"/api/games/{game_id}/undo", params={"token": token}, json={"version": done["version"]}
    )
    assert response.status_code == 409
    assert "revealed hidden information or a random draw" in response.json()["error"]


def big_room(seats: int, seed: int = 1) -> Room:
    names = GAME.seat_names(seats)
    infos = [SeatInfo(s, names[s], HUMAN, None, hash_token(f"t{s}")) for s in range(seats)]
    return Room("big", GAME, GAME.new_state(names, seed=seed), infos, seed)


def first_choice(room: Room, seat: int) -> Any:
    return next(a for a in room.state.legal_actions(seat) if a.to_text().startswith("choose"))


def count_observations(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    seen: list[int | None] = []
    original = EgyptiaState.observation

    def counted(self: EgyptiaState, seat: int | None) -> dict[str, Any]:
        seen.append(seat)
        return original(self, seat)

    monkeypatch.setattr(EgyptiaState, "observation", counted)
    return seen


def test_the_undo_check_at_a_big_table_looks_through_a_few_eyes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """99 builders: a move within the sealed step is checked through the mover's eyes and a
    few others' (each look costs an observation of the whole table); a move that ends the
    step through everyone's, mover first; a small table keeps the full check. Egyptia's own
    tables of several refuse undo outright (private steps), so the check is exercised here
    with that rule switched off, as for a big table of a game without private steps."""
    monkeypatch.setattr(GAME, "private_steps", False)
    room = big_room(99)
    for seat in range(97):
        room.accept(seat, first_choice(room, seat))
    seen = count_observations(monkeypatch)
    started = time.perf_counter()
    assert room.undo_refusal(96) is None
    elapsed = time.perf_counter() - started
    looks = 1 + rooms.UNDO_SAMPLED_VIEWERS
    assert len(seen) == looks * (1 + rooms.UNDO_WORLDS)
    assert seen[0] == 96 and len(set(seen)) == looks
    assert elapsed < 2.0  # about 0.05 s here; the full check took 1 to 4 s
    # another move, another sample of viewers
    room.accept(97, first_choice(room, 97))
    seen.clear()
    assert room.undo_refusal(97) is None
    assert seen[0] == 97 and len(set(seen)) == looks
    # the last column ends the step: checked through everyone's eyes, the mover's first,
    # and refused at once (the mover sees the others' columns)
    room.accept(98, first_choice(room, 98))
    seen.clear()
    assert room.undo_refusal(98) == "the move revealed hidden information or a random draw"
    assert seen[:2] == [98, 98]
    # a small table: every seat, in seat order, as always
    small = big_room(3)
    small.accept(1, first_choice(small, 1))
    seen.clear()
    assert small.undo_refusal(1) is None
    assert sorted(set(seen)) == [0, 1, 2] and seen[0] == 0
    assert len(seen) == 3 * (1 + rooms.UNDO_WORLDS)


def test_the_turn_timer_plays_every_private_step(client: TestClient) -> None:
    """When the timer runs out in the building part of a round, the quick bot plays all of
    a builder's steps (plague, building, payment, reward), so the next round comes."""
    created = create_egyptia(client, [{"kind": "human"}, {"kind": "human"}], seed=9, turn_timer=1)
    game_id = created["id"]
    first = view(client, game_id)
    assert first["turn_timer"] == 1 and first["deadline"] is not None
    wait_for(lambda: view(client, game_id)["observation"]["round"] >= 3, timeout=30)
    later = view(client, game_id)
    assert len(later["timeouts"]) >= 8
    assert later["deadline"] is not None and later["deadline"] > first["deadline"]


# ---------------------------------------------------------------------- a big table
def test_a_table_of_99_builders(client: TestClient) -> None:
    """99 seats: every view is built from the seat's own observation, within a size budget,
    and the board drawing is shared by all of them."""
    created = create_egyptia(client, [{"kind": "human"}] * 99, seed=5, options={"cards": CARDS})
    game_id = created["id"]
    tokens = tokens_of(created)
    room = service_of(client).rooms[game_id]
    rng = Rng(3)
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    while state.round < 3:  # two rounds played in memory (quicker than 600 requests)
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = [a for a in state.legal_actions(seat) if not a.to_text().startswith("ship")]
        state.apply(seat, legal[rng.below(len(legal))])
    for seat in range(60):
        legal = state.legal_actions(seat)
        state.apply(seat, legal[0])
    room.state = state
    started = time.perf_counter()
    texts = [raw(client, game_id, tokens[s]) for s in (0, 70)] + [raw(client, game_id, None)]
    elapsed = (time.perf_counter() - started) / 3
    assert max(len(t) for t in texts) < 400_000, [len(t) for t in texts]
    assert elapsed < 1.0
    views = [view(client, game_id, tokens[s]) for s in (0, 70)]
    assert views[0]["page"]["board_svg"] == views[1]["page"]["board_svg"]
    assert views[0]["page"]["stages"] == {"choosing": 39, "chosen": 60, "building": 0, "done": 0}
    assert views[1]["your_turn"] and not views[0]["your_turn"]
    assert len(views[1]["observation"]["players"]) == 99


def test_remembered_drawings_match_fresh_ones() -> None:
    """The board and sheet drawings are remembered by what they show: a remembered drawing
    must be exactly what drawing from scratch gives, move after move."""
    state = EGYPTIA.new_state(3, seed=3, options={"cards": CARDS})
    rng = Rng(3)
    steps = 0
    while not state.is_over() and steps < 300:
        seat = steps % 3
        obs = state.observation(seat)
        me = obs["players"][seat]
        remembered = (
            egyptia_board.board_svg(state.game, state.observation(None)),
            egyptia_board.sheet_svg(state.sheet, me["name"], me["sheet"], me["score"]),
        )
        egyptia_board._board.cache_clear()
        egyptia_board._sheet.cache_clear()
        fresh = (
            egyptia_board.board_svg(state.game, state.observation(None)),
            egyptia_board.sheet_svg(state.sheet, me["name"], me["sheet"], me["score"]),
        )
        assert fresh == remembered
        movers = state.to_move()
        mover = movers[rng.below(len(movers))]
        legal = state.legal_actions(mover)
        state.apply(mover, legal[rng.below(len(legal))])
        steps += 1
    assert steps > 30


def test_a_private_step_sends_the_other_sockets_nothing(client: TestClient) -> None:
    """Even an unchanged message would tell that something happened: the other seats' and
    spectators' sockets stay quiet during a builder's private steps, and their versions
    stand still."""
    created = create_egyptia(client, [{"kind": "human"}] * 2, seed=3)
    game_id = created["id"]
    tokens = tokens_of(created)
    service = service_of(client)
    room = service.rooms[game_id]
    listeners = [service.subscribe(room, seat) for seat in (0, 1, None)]
    try:
        for listener in listeners:
            listener.ready.clear()
        play(client, game_id, tokens[0], "choose grain")  # type: ignore[arg-type]
        play(client, game_id, tokens[1], "choose grain")  # type: ignore[arg-type]
        assert all(listener.ready.is_set() for listener in listeners)  # the reveal
        for listener in listeners:
            listener.ready.clear()
        before = [view(client, game_id, tokens[1])["version"], view(client, game_id)["version"]]
        mine = view(client, game_id, tokens[0])
        private = next(
            m["text"] for m in mine["legal"] if not m["text"].startswith(("build mound", "ship"))
        )
        after_move = play(client, game_id, tokens[0], private)  # type: ignore[arg-type]
        assert room.accepted[-1].private
        assert after_move["version"] == mine["version"] + 1
        assert listeners[0].ready.is_set()
        assert not listeners[1].ready.is_set() and not listeners[2].ready.is_set()
        assert [view(client, game_id, tokens[1])["version"], view(client, game_id)["version"]] == (
            before
        )
    finally:
        for listener in listeners:
            service.unsubscribe(room, listener)


def test_a_waiting_builder_uses_a_ship_and_the_others_see_nothing(client: TestClient) -> None:
    """A builder who has chosen (or built) and waits for the others may use a ship from the
    page: it is offered without calling it their turn, and what Ana and a spectator receive
    stays the same bytes (views, socket messages, version numbers) until the reveal."""
    ids, tokens = twin_games(client)
    play_twins(client, ids, tokens, 1, ("choose diamond", "choose diamond"))
    bes = view(client, ids[0], tokens[0][1])
    assert not bes["your_turn"] and bes["observation"]["you"]["stage"] == "chosen"
    assert {s["text"] for s in bes["page"]["moves"]["ships"]} == {"ship 1", "ship 2", "ship 3"}
    token = tokens[0][1]
    assert token is not None
    response = post(client, ids[0], token, bes["version"], "ship 3")
    assert response.status_code == 200, response.text
    assert response.json()["view"]["observation"]["you"]["stage"] == "chosen"
    check_twins(client, ids, tokens)  # game 0's Bes used a ship; game 1's did not
    # after building, waiting for the others to finish the round
    play_twins(client, ids, tokens, 0, ("choose diamond", "choose diamond"))
    play_twins(client, ids, tokens, 2, ("choose stone", "choose stone"))
    for texts in (("build mound E3", "build mound E3"), ("gain 2g", "gain 2g")):
        play_twins(client, ids, tokens, 1, texts)
    bes = view(client, ids[1], tokens[1][1])
    assert bes["observation"]["you"]["stage"] == "done" and not bes["your_turn"]
    before = [seen_by(client, ids[g], tokens[g]) for g in range(2)]
    token = tokens[1][1]
    assert token is not None
    assert post(client, ids[1], token, bes["version"], "ship 1").status_code == 200
    assert seen_by(client, ids[1], tokens[1]) == before[1]

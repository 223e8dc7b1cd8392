"""Chat per game: the seats write (by link or by the holding account's session), everyone
who can open the game reads (history and socket); lines are stored exactly as written and
never interpreted, bounded, rate-limited per client, delivered live to their game's sockets
only; and nothing in the chat depends on what a reader may not see."""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.chat.service
from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.server.app import create_app
from karnak.server.chat.service import ChatService
from karnak.server.limits import ServerSettings
from karnak.server.rooms import BOT
from karnak.server.service import GameService
from support.amunre_hidden import redeal_hidden
from support.egyptia_positions import THREE_IN_GRAIN, roll, set_have

from .conftest import create, humans
from .test_accounts import csrf, sign_up
from .test_api import play_random
from .test_public_channels import post

FIXED = dt.datetime(2026, 5, 1, 12, 30, 45, 123456, tzinfo=dt.UTC)


def aton(client: TestClient, names: tuple[str, str] = ("Ana", "Bes")) -> tuple[str, list[str]]:
    created = client.post(
        "/api/games",
        json={"game": "aton", "seats": [{"name": n} for n in names], "seed": 3},
    ).json()
    return created["id"], [seat["token"] for seat in created["seats"]]


def say(client: TestClient, game_id: str, token: str | None, text: str, **kw: Any) -> Any:
    params = {"token": token} if token else {}
    return client.post(f"/api/games/{game_id}/chat", params=params, json={"text": text}, **kw)


def said(client: TestClient, game_id: str, token: str, text: str) -> dict[str, Any]:
    response = say(client, game_id, token, text)
    assert response.status_code == 201, response.text
    line: dict[str, Any] = response.json()["line"]
    return line


def history(client: TestClient, game_id: str, token: str | None = None, **params: Any) -> Any:
    if token:
        params["token"] = token
    return client.get(f"/api/games/{game_id}/chat", params=params)


def texts(client: TestClient, game_id: str, **params: Any) -> list[str]:
    response = history(client, game_id, **params)
    assert response.status_code == 200, response.text
    return [line["text"] for line in response.json()["lines"]]


def fix_clock(client: TestClient) -> None:
    chat: ChatService = client.app.state.chat  # type: ignore[attr-defined]
    chat.clock = lambda: FIXED


HOSTILE = [
    "<script>alert(1)</script>",
    '<img src=x onerror="alert(1)">',
    "&lt;b&gt; &amp; \"quotes\" 'single'",
    "{{7*7}} ${7*7} %s %(x)s \\n \\u0000",
    "Ra ☀️ 𓂀 مرحبا 漢字 e\u0301",  # emoji, hieroglyph, right-to-left script, combining mark
    "   spaces   kept   ",
]


def test_a_seat_writes_and_everyone_reads_exactly_what_it_wrote(client: TestClient) -> None:
    game_id, tokens = aton(client)
    fix_clock(client)
    lines = [said(client, game_id, tokens[n % 2], text) for n, text in enumerate(HOSTILE)]
    assert lines[0] == {
        "n": 1,
        "seat": 0,
        "name": "Ana",
        "account": None,
        "text": HOSTILE[0],
        "at": "2026-05-01T12:30:45+00:00",
    }
    assert [line["n"] for line in lines] == list(range(1, len(HOSTILE) + 1))
    assert [line["seat"] for line in lines] == [0, 1] * (len(HOSTILE) // 2)
    for token in (None, *tokens):
        response = history(client, game_id, token)
        assert response.json()["lines"] == lines
        assert [line["text"] for line in response.json()["lines"]] == HOSTILE
        assert response.headers["content-type"] == "application/json"
    assert history(client, game_id).json()["seat"] is None
    assert history(client, game_id).json()["can_write"] is False
    mine = client.get(f"/api/games/{game_id}/chat", headers={"X-Karnak-Token": tokens[1]})
    assert mine.json()["seat"] == 1 and mine.json()["can_write"] is True


def test_the_seat_of_an_account_writes_by_its_session_with_the_csrf_token(
    client: TestClient,
) -> None:
    game_id, tokens = aton(client)
    sign_up(client, "Hatshepsut")
    claimed = client.post(
        f"/api/games/{game_id}/claim", params={"token": tokens[1]}, headers=csrf(client)
    )
    assert claimed.status_code == 200, claimed.text
    refused = say(client, game_id, None, "no token, no CSRF")
    assert refused.status_code == 403 and "CSRF" in refused.json()["error"]
    line = say(client, game_id, None, "by my session", headers=csrf(client)).json()["line"]
    assert (line["seat"], line["name"], line["account"]) == (1, "Bes", "Hatshepsut")
    by_link = said(client, game_id, tokens[1], "by my link")  # the holder is named either way
    assert by_link["account"] == "Hatshepsut"
    assert history(client, game_id).json()["seat"] == 1  # the session opens the seat
    client.cookies.clear()
    spectator = history(client, game_id).json()
    assert spectator["seat"] is None
    assert [(x["name"], x["account"]) for x in spectator["lines"]] == [("Bes", "Hatshepsut")] * 2


def test_spectators_and_strangers_cannot_write(client: TestClient) -> None:
    game_id, tokens = aton(client)
    spectator = say(client, game_id, None, "hello")
    assert spectator.status_code == 403 and "spectators cannot chat" in spectator.json()["error"]
    sign_up(client, "Nobody")  # an account that holds no seat of the game is a spectator
    assert say(client, game_id, None, "hello", headers=csrf(client)).status_code == 403
    client.cookies.clear()
    assert say(client, game_id, "forged", "hello").status_code == 403
    assert history(client, game_id, "forged").status_code == 403
    for bad_id in ("nope", "x" * 65, "bad id!"):
        assert say(client, bad_id, tokens[0], "hello").status_code == 404
        assert history(client, bad_id).status_code == 404
    other_id, _ = aton(client)
    assert say(client, other_id, tokens[0], "wrong game").status_code == 403
    assert texts(client, game_id) == [] and texts(client, other_id) == []


def test_the_seat_of_a_bot_has_no_voice(client: TestClient) -> None:
    created = client.post(
        "/api/games",
        json={"game": "aton", "seats": [{"name": "Ana"}, {"kind": "bot", "bot": "random"}]},
    ).json()
    assert created["seats"][1]["token"] is None  # nothing to write with
    assert say(client, created["id"], None, "beep").status_code == 403


def test_a_seat_taken_over_by_a_bot_no_longer_writes(client: TestClient) -> None:
    """A person who left hands the seat to a bot: their link reads the chat, writes no more."""
    game_id, tokens = aton(client)
    said(client, game_id, tokens[1], "I must go")
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    room.seats[1] = dataclasses.replace(room.seats[1], kind=BOT, bot="random")
    refused = say(client, game_id, tokens[1], "still here?")
    assert refused.status_code == 403 and "a bot plays this seat" in refused.json()["error"]
    mine = history(client, game_id, tokens[1]).json()
    assert (mine["seat"], mine["can_write"]) == (1, False)
    assert [line["text"] for line in mine["lines"]] == ["I must go"]
    assert history(client, game_id, tokens[0]).json()["can_write"] is True
    said(client, game_id, tokens[0], "bye")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "at least 1 character"),
        ("   ", "needs some text"),
        ("x" * 501, "at most 500 characters"),
        ("two\nlines", "control characters (found U+000A)"),
        ("tab\there", "U+0009"),
        ("\x1b[31mred", "U+001B"),
        ("nul\x00", "U+0000"),
        ("next\x85line", "U+0085"),
        ("evil\u202etxt.exe", "U+202E"),
        ("isolate\u2066", "U+2066"),
    ],
)
def test_bad_lines_are_refused_clearly(client: TestClient, text: str, words: str) -> None:
    game_id, tokens = aton(client)
    refused = say(client, game_id, tokens[0], text)
    assert refused.status_code == 422, refused.text
    assert words in refused.json()["error"]
    assert texts(client, game_id) == []


def test_the_longest_line_and_joiners_are_taken(client: TestClient) -> None:
    game_id, tokens = aton(client)
    longest = "𓂀" * 500  # characters, not bytes
    family = "👩\u200d👩\u200d👧"  # zero-width joiners are no control characters
    assert said(client, game_id, tokens[0], longest)["text"] == longest
    assert said(client, game_id, tokens[0], family)["text"] == family


@pytest.mark.parametrize(
    "body",
    [
        b'{"text": "\\ud800"}',
        b'{"text": "a\\udfffb"}',
        b'{"text": 3}',
        b'{"text": ["a"]}',
        b'{"text": "a", "seat": 1}',
        b"{}",
        b"[]",
        b"not json",
    ],
)
def test_malformed_bodies_are_refused(client: TestClient, body: bytes) -> None:
    game_id, tokens = aton(client)
    refused = client.post(
        f"/api/games/{game_id}/chat",
        params={"token": tokens[0]},
        content=body,
        headers={"Content-Type": "application/json"},
    )
    assert refused.status_code in (400, 422), refused.text
    assert "error" in refused.json()
    assert texts(client, game_id) == []


def test_the_history_is_numbered_per_game_and_pages_back(client: TestClient) -> None:
    game_id, tokens = aton(client)
    other_id, other_tokens = aton(client)
    for n in range(1, 8):
        said(client, game_id, tokens[n % 2], f"line {n}")
    assert said(client, other_id, other_tokens[0], "elsewhere")["n"] == 1  # no global count
    assert texts(client, game_id) == [f"line {n}" for n in range(1, 8)]
    assert texts(client, game_id, limit=3) == ["line 5", "line 6", "line 7"]
    assert texts(client, game_id, limit=3, before=5) == ["line 2", "line 3", "line 4"]
    assert texts(client, game_id, before=1) == []
    for params in ({"limit": 0}, {"limit": 501}, {"before": 0}, {"before": 2**31}):
        assert history(client, game_id, **params).status_code == 422, params


def test_lines_are_rate_limited_per_client(database: str) -> None:
    settings = ServerSettings(chat_lines_per_minute=3)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        game_id, tokens = aton(client)
        other_id, other_tokens = aton(client)
        said(client, game_id, tokens[0], "one")
        assert say(client, game_id, tokens[1], "\n").status_code == 422  # a bad line counts too
        said(client, other_id, other_tokens[0], "three")  # every game of the client counts
        over = say(client, game_id, tokens[0], "four")
        assert over.status_code == 429
        assert "at most 3 chat lines a minute" in over.json()["error"]
        assert 1 <= int(over.headers["Retry-After"]) <= 60
        assert texts(client, game_id) == ["one"]
        assert history(client, game_id).status_code == 200  # reading is not limited


def test_a_games_chat_is_bounded(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(karnak.server.chat.service, "MAX_LINES_PER_GAME", 3)
    game_id, tokens = aton(client)
    for n in range(3):
        said(client, game_id, tokens[0], f"line {n}")
    full = say(client, game_id, tokens[1], "one too many")
    assert full.status_code == 422 and "at most 3 lines" in full.json()["error"]
    other_id, other_tokens = aton(client)
    said(client, other_id, other_tokens[0], "another game has room")


def test_a_line_reaches_every_socket_of_its_game_and_no_other(client: TestClient) -> None:
    game_id, tokens = aton(client)
    other_id, other_tokens = aton(client)
    paths = [f"/api/games/{game_id}/ws?token={t}" for t in tokens] + [f"/api/games/{game_id}/ws"]
    with (
        client.websocket_connect(paths[0]) as ana,
        client.websocket_connect(paths[1]) as bes,
        client.websocket_connect(paths[2]) as spectator,
        client.websocket_connect(f"/api/games/{other_id}/ws") as elsewhere,
    ):
        for socket in (ana, bes, spectator, elsewhere):
            assert "observation" in socket.receive_json()  # the view comes first
        line = said(client, game_id, tokens[0], "<b>hello</b>")
        for socket in (ana, bes, spectator):
            socket.send_text("view")  # a view after the line: a missing line fails, never hangs
            assert socket.receive_json() == {"event": "chat", "line": line}
            assert "observation" in socket.receive_json()
        # the other game's socket: its next message is its own game's line, not this one's
        own = said(client, other_id, other_tokens[1], "here")
        elsewhere.send_text("view")
        assert elsewhere.receive_json() == {"event": "chat", "line": own}
        assert "observation" in elsewhere.receive_json()
        # a move still sends views after the chat
        play_random(client, game_id, tokens, 1)
        assert "observation" in spectator.receive_json()


def test_the_chat_is_kept_across_a_restart(database: str) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        game_id, tokens = aton(client)
        lines = [said(client, game_id, tokens[n % 2], f"line {n}") for n in range(3)]
    with TestClient(create_app(database, bot_workers=0)) as client:
        assert history(client, game_id).json()["lines"] == lines
        assert said(client, game_id, tokens[0], "after")["n"] == 4


def chat_channels(client: TestClient, game_id: str, tokens: list[str], token: str | None) -> Any:
    """What one reader gets of the chat: the history, and the socket's message for a line
    the first seat posts now (after the socket's first view)."""
    path = f"/api/games/{game_id}/ws" + (f"?token={token}" if token else "")
    with client.websocket_connect(path) as socket:
        socket.receive_text()
        said(client, game_id, tokens[0], "what do you hold?")
        socket.send_text("view")  # a view after the line: a missing line fails, never hangs
        live = socket.receive_text()
        assert '"event":"chat"' in live
    return history(client, game_id, token).text, live


def test_the_chat_does_not_depend_on_hidden_information(client: TestClient) -> None:
    """Two games alike but for what is hidden from the reader: byte for byte the same chat."""
    fix_clock(client)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    games = []
    for _ in range(2):
        created = create(client, humans(4), seed=21, options={"expert_provinces": True})
        tokens = [seat["token"] for seat in created["seats"]]
        play_random(client, created["id"], tokens, 12, seed=5)
        said(client, created["id"], tokens[2], "well bid")
        games.append((created["id"], tokens))
    truth = service.rooms[games[0][0]].state
    assert isinstance(truth, AmunReState)
    for reader in (None, 1):
        service.rooms[games[1][0]].state = redeal_hidden(truth, reader, Rng(7 + (reader or 0)))
        token_of = [None if reader is None else tokens[reader] for _, tokens in games]
        # the games differ in what the reader cannot see (seat 0's hand, to these readers)
        seat0 = [client.get(f"/api/games/{g}", params={"token": t[0]}).json() for g, t in games]
        assert seat0[0]["observation"] != seat0[1]["observation"]
        first = chat_channels(client, games[0][0], games[0][1], token_of[0])
        second = chat_channels(client, games[1][0], games[1][1], token_of[1])
        assert first == second
        assert '"well bid"' in first[0] and '"event":"chat"' in first[1]


def egyptia_after_the_reveal(client: TestClient) -> tuple[str, list[str]]:
    """Three builders after the reveal of round 1: Bes (seat 1) builds in private now."""
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Bes", "Ka")]
    created = client.post(
        "/api/games",
        json={"game": "egyptia", "seats": seats, "seed": 8, "options": {"cards": "A2,B2,C3,D2,E3"}},
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    room = service.rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, THREE_IN_GRAIN)
    for seat in range(3):
        set_have(state, seat, (3, 3, 3, 2))
    room.state = state
    for seat, move in ((0, "choose diamond"), (2, "choose diamond"), (1, "choose grain")):
        post(client, game_id, tokens[seat], move)
    return game_id, tokens


def test_private_steps_leave_no_trace_in_the_chat(client: TestClient) -> None:
    """A line posted after another builder's private steps looks, to everyone who cannot see
    them, exactly like one posted without them: no version, no count, no time that moved."""
    fix_clock(client)
    quiet_id, quiet_tokens = egyptia_after_the_reveal(client)
    busy_id, busy_tokens = egyptia_after_the_reveal(client)
    steps = 0
    for _ in range(3):
        mine = client.get(f"/api/games/{busy_id}", params={"token": busy_tokens[1]}).json()
        legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
        after = post(client, busy_id, busy_tokens[1], legal[-1])
        if after["observation"]["you"]["stage"] == "done":
            break
        steps += 1
    assert steps >= 2
    for reader in (None, 0, 2):  # a spectator, and the builders who cannot see Bes's steps
        quiet = chat_channels(
            client, quiet_id, quiet_tokens, None if reader is None else quiet_tokens[reader]
        )
        busy = chat_channels(
            client, busy_id, busy_tokens, None if reader is None else busy_tokens[reader]
        )
        assert quiet == busy, reader
    # the comparison can tell: the two games' versions differ (a line that carried one would)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    assert service.rooms[busy_id].version >= service.rooms[quiet_id].version + steps

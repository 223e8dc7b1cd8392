"""The time bank: a time per move and a bank per person, on a fake clock (no sleeping for
days), over restarts, within bounds, with reminders sent once, and clocks that tell nobody
about a private step."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.timebank.clock as clock_module
from karnak.core import Rng
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.server.app import create_app
from karnak.server.service import CreateError, GameService, SeatRequest
from karnak.server.timebank.clock import DAY, HOUR, MINUTE, SeatClock, TimeControl, span
from karnak.server.timebank.service import TimeBank
from support.amunre_hidden import redeal_hidden
from support.egyptia_positions import THREE_IN_GRAIN, roll, set_have

from .conftest import create, humans, wait_for
from .test_accounts import csrf, sign_up
from .test_api import view
from .test_public_channels import public_bytes

DAYS_CONTROL = {"per_move": DAY, "bank": 3 * DAY}
START = 1_800_000_000.0  # the fake clock's first reading (seconds since the epoch)


class FakeClock:
    def __init__(self) -> None:
        self.time = START

    def __call__(self) -> float:
        return self.time

    def advance(self, seconds: float) -> None:
        self.time += seconds


@pytest.fixture
def fake_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    fake = FakeClock()
    monkeypatch.setattr(clock_module, "now", fake)
    yield fake


def timebank(client: TestClient) -> TimeBank:
    bank: TimeBank = client.app.state.timebank  # type: ignore[attr-defined]
    return bank


def service(client: TestClient) -> GameService:
    found: GameService = client.app.state.service  # type: ignore[attr-defined]
    return found


def check(client: TestClient, game_id: str) -> None:
    """What the game's timer does when it fires (called at once: the clock is fake)."""
    room = client.portal.call(service(client).room, game_id)  # type: ignore[union-attr]
    client.portal.call(timebank(client).check, room)  # type: ignore[union-attr]


def move(client: TestClient, game_id: str, token: str, index: int = 0) -> dict[str, Any]:
    """The seat's ``index``-th legal move; its new view."""
    mine = view(client, game_id, token)
    response = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"version": mine["version"], "action": mine["legal"][index]["action"]},
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()["view"]
    return answer


def mover(client: TestClient, game_id: str) -> int:
    to_move: list[int] = view(client, game_id)["to_move"]
    assert len(to_move) == 1
    return to_move[0]


def clocks(client: TestClient, game_id: str) -> list[Any]:
    return [p["clock"] for p in view(client, game_id)["players"]]


# ---------------------------------------------------------------------- bounds
@pytest.mark.parametrize(
    ("control", "says"),
    [
        ({"per_move": 59, "bank": 0}, "per_move"),
        ({"per_move": 7 * DAY + 1, "bank": 0}, "per_move"),
        ({"per_move": 60, "bank": -1}, "bank"),
        ({"per_move": 60, "bank": 30 * DAY + 1}, "bank"),
        ({"per_move": 60}, "bank"),
        ({"per_move": 60, "bank": 0, "increment": 5}, "increment"),
        ({"per_move": "60", "bank": 0}, "per_move"),
        ({"per_move": True, "bank": 0}, "per_move"),
    ],
)
def test_a_time_control_out_of_bounds_is_refused_clearly(
    client: TestClient, control: dict[str, Any], says: str
) -> None:
    response = client.post(
        "/api/games", json={"game": "amunre", "seats": humans(3), "time_control": control}
    )
    assert response.status_code == 422, response.text
    assert says in response.json()["error"]


def test_the_bounds_themselves_are_accepted_and_a_timer_excludes_a_control(
    client: TestClient,
) -> None:
    for control in ({"per_move": 60, "bank": 0}, {"per_move": 7 * DAY, "bank": 30 * DAY}):
        created = create(client, humans(3), time_control=control)
        assert view(client, created["id"])["time_control"] == control
    both = client.post(
        "/api/games",
        json={"game": "amunre", "seats": humans(3), "turn_timer": 60, "time_control": DAYS_CONTROL},
    )
    assert both.status_code == 422 and "not both" in both.json()["error"]


def test_the_service_checks_the_bounds_for_callers_other_than_the_api(
    client: TestClient,
) -> None:
    """Open tables create their games through GameService.create with a mapping."""
    seats = [SeatRequest(), SeatRequest(), SeatRequest()]
    for control in ({"per_move": 30, "bank": 0}, {"per_move": 60, "bank": 31 * DAY}, {"x": 1}):
        with pytest.raises(CreateError):
            client.portal.call(  # type: ignore[union-attr]
                lambda c=control: service(client).create("amunre", seats, time_control=c)
            )
    created = client.portal.call(  # type: ignore[union-attr]
        lambda: service(client).create("amunre", seats, time_control=DAYS_CONTROL)
    )
    assert created.room.time_control == TimeControl(DAY, 3 * DAY)


def test_a_game_without_a_control_shows_no_clocks(client: TestClient) -> None:
    created = create(client, humans(3))
    seen = view(client, created["id"], created["seats"][0]["token"])
    assert seen["time_control"] is None
    assert [p["clock"] for p in seen["players"]] == [None, None, None]
    assert [p["replaced"] for p in seen["players"]] == [False, False, False]


# ---------------------------------------------------------------------- the clock
def test_views_show_every_clock_and_the_seat_its_own_deadline(
    client: TestClient, fake_clock: FakeClock
) -> None:
    created = create(
        client, [*humans(2), {"kind": "bot", "bot": "random"}], seed=3, time_control=DAYS_CONTROL
    )
    game_id = created["id"]
    wait_for(lambda: 2 not in view(client, game_id)["to_move"])  # the bot begins
    first = mover(client, game_id)
    shown = clocks(client, game_id)
    assert shown[2] is None  # a bot has no clock
    for seat in (0, 1):
        waiting = START if seat == first else None
        runs_out = START + 4 * DAY if seat == first else None
        assert shown[seat] == {"bank": 3 * DAY, "waiting_since": waiting, "runs_out": runs_out}
    tokens = [s["token"] for s in created["seats"]]
    assert view(client, game_id, tokens[first])["deadline"] == START + 4 * DAY
    assert view(client, game_id, tokens[1 - first])["deadline"] is None  # only its own
    assert view(client, game_id)["deadline"] is None


def test_a_move_refills_the_time_per_move_and_the_bank_never_grows(
    client: TestClient, fake_clock: FakeClock
) -> None:
    created = create(client, humans(3), seed=5, time_control=DAYS_CONTROL)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    first = mover(client, game_id)
    fake_clock.advance(DAY + 5 * HOUR)  # 5 hours into the bank
    move(client, game_id, tokens[first])
    shown = clocks(client, game_id)
    assert shown[first] == {"bank": 3 * DAY - 5 * HOUR, "waiting_since": None, "runs_out": None}
    second = mover(client, game_id)
    assert second != first and shown[second]["waiting_since"] == fake_clock.time
    fake_clock.advance(2 * HOUR)  # well within the time per move: the bank stays full
    move(client, game_id, tokens[second])
    assert clocks(client, game_id)[second]["bank"] == 3 * DAY
    # the first seat's next wait has the whole time per move again, not a bigger bank
    while mover(client, game_id) != first:
        move(client, game_id, tokens[mover(client, game_id)])
    again = clocks(client, game_id)[first]
    assert again["bank"] == 3 * DAY - 5 * HOUR
    assert again["runs_out"] == again["waiting_since"] + DAY + 3 * DAY - 5 * HOUR


def test_an_undo_restarts_the_undoer_s_clock(client: TestClient, fake_clock: FakeClock) -> None:
    """A sealed offering stops its seat's clock; taking it back starts the clock again."""
    created = create(client, humans(3), seed=4, time_control=DAYS_CONTROL)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    for _ in range(40):  # the last legal move each time, up to an offering that can be undone
        seat = view(client, game_id)["to_move"][0]
        fake_clock.advance(HOUR)
        after = move(client, game_id, tokens[seat], -1)
        if seat not in after["to_move"] and after["can_undo"]:
            break
    else:
        raise AssertionError("no move to take back came")
    assert after["sealed"] and clocks(client, game_id)[seat]["waiting_since"] is None
    waiting = [c["waiting_since"] for c in clocks(client, game_id)]
    fake_clock.advance(HOUR)
    undone = client.post(
        f"/api/games/{game_id}/undo",
        params={"token": tokens[seat]},
        json={"version": after["version"]},
    )
    assert undone.status_code == 200, undone.text
    shown = clocks(client, game_id)
    assert shown[seat]["waiting_since"] == fake_clock.time  # a fresh time per move
    for other in {0, 1, 2} - {seat}:
        assert shown[other]["waiting_since"] == waiting[other]  # the others' waits go on


def test_the_clock_survives_a_restart(database: str, fake_clock: FakeClock) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, humans(3), seed=7, time_control=DAYS_CONTROL)
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        first = mover(client, game_id)
        fake_clock.advance(DAY + 3 * HOUR)
        move(client, game_id, tokens[first])
        fake_clock.advance(HOUR)
        before = view(client, game_id, tokens[mover(client, game_id)])
    fake_clock.advance(6 * HOUR)  # the server is down for six hours: the clock runs on
    with TestClient(create_app(database, bot_workers=0)) as client:
        after = view(client, game_id, tokens[mover(client, game_id)])
        assert after == before  # nobody's clock was reset
        assert after["players"][first]["clock"]["bank"] == 3 * DAY - 3 * HOUR


def test_time_that_ran_out_while_the_server_was_down_hands_the_seat_to_a_bot(
    database: str, fake_clock: FakeClock
) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, humans(3), seed=7, time_control={"per_move": HOUR, "bank": 0})
        game_id = created["id"]
        first = mover(client, game_id)
    fake_clock.advance(HOUR + 1)
    with TestClient(create_app(database, bot_workers=0)) as client:
        # the timer armed at load finds the time gone: no call of ours does it
        wait_for(lambda: view(client, game_id)["players"][first]["replaced"], timeout=20)
        seen = view(client, game_id)["players"][first]
        assert seen["left"] == "timeout" and seen["kind"] == "bot" and seen["clock"] is None


def test_running_out_hands_the_seat_to_the_medium_bot(
    client: TestClient, fake_clock: FakeClock
) -> None:
    created = create(client, humans(3), seed=9, time_control={"per_move": HOUR, "bank": HOUR})
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    first = mover(client, game_id)
    fake_clock.advance(2 * HOUR - 1)
    check(client, game_id)
    assert not view(client, game_id)["players"][first]["replaced"]  # one second left
    fake_clock.advance(1)
    check(client, game_id)
    seen = view(client, game_id)
    player = seen["players"][first]
    assert player["kind"] == "bot" and player["bot"]["spec"] == "heuristic"
    assert player["bot"]["level"] == "medium"
    assert player["replaced"] and player["left"] == "timeout"
    assert any("time ran out" in line for line in seen["log"])
    # the bot plays the seat's turn
    wait_for(lambda: first not in view(client, game_id)["to_move"], timeout=30)
    refused = client.get(f"/api/games/{game_id}", params={"token": tokens[first]})
    assert refused.status_code == 403 and "bot plays it now" in refused.json()["error"]


def test_a_move_made_in_time_beats_the_timer(client: TestClient, fake_clock: FakeClock) -> None:
    """The timeout is checked again under the game's lock: a move that got in first wins."""
    from karnak.server.timebank.abandonment import TIMEOUT, replace

    created = create(client, humans(3), seed=9, time_control={"per_move": HOUR, "bank": 0})
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    first = mover(client, game_id)
    fake_clock.advance(HOUR - 1)
    move(client, game_id, tokens[first])
    fake_clock.advance(10)  # the timer, armed for before the move, fires late
    room = service(client).rooms[game_id]
    client.portal.call(replace, service(client), timebank(client).store, room, first, TIMEOUT)  # type: ignore[union-attr]
    assert not view(client, game_id)["players"][first]["replaced"]


# ---------------------------------------------------------------------- reminders
def held_game(
    client: TestClient, control: dict[str, float], seed: int = 5
) -> tuple[str, list[str], int]:
    """A game whose first mover's seat the logged-in account holds."""
    sign_up(client, "Ana")
    created = create(client, humans(3), seed=seed, time_control=control)
    game_id = created["id"]
    tokens = [s["token"] for s in created["seats"]]
    first = mover(client, game_id)
    claimed = client.post(
        f"/api/games/{game_id}/claim", params={"token": tokens[first]}, headers=csrf(client)
    )
    assert claimed.status_code == 200, claimed.text
    return game_id, tokens, first


def reminders(client: TestClient) -> list[str]:
    """The time reminders the logged-in account got, oldest first (other kinds, like a
    turn's, are not ours to count)."""
    notes = client.get("/api/notifications").json()["notifications"]
    mine = [n for n in reversed(notes) if n["kind"] == "time"]
    assert all(n["link"].startswith("/games/") for n in mine)
    return [n["text"] for n in mine]


def test_reminders_come_at_half_the_bank_12_hours_and_1_hour_once_each(
    client: TestClient, fake_clock: FakeClock
) -> None:
    game_id, _, _ = held_game(client, DAYS_CONTROL)
    check(client, game_id)
    assert reminders(client) == []
    fake_clock.advance(DAY + 1.5 * DAY)  # half the bank used
    check(client, game_id)
    check(client, game_id)  # nothing new is due: nothing is sent twice
    (text,) = reminders(client)
    assert text.endswith(
        ": half your time bank is gone (1 day 12 h left in it); 1 day 12 h left to move."
    )
    fake_clock.advance(DAY)  # 12 h left
    check(client, game_id)
    fake_clock.advance(11 * HOUR + 30 * MINUTE)  # 30 min left: the 1-hour one
    check(client, game_id)
    check(client, game_id)
    texts = reminders(client)
    assert len(texts) == 3
    assert "half your time bank is gone" in texts[0]
    assert "12 h left for your move" in texts[1] and "30 min left for your move" in texts[2]
    assert all("then a bot takes your seat" in text for text in texts[1:])


def test_reminders_due_together_make_one_and_are_not_sent_again_after_a_restart(
    database: str, fake_clock: FakeClock
) -> None:
    with TestClient(create_app(database, bot_workers=0)) as client:
        game_id, _, _ = held_game(client, DAYS_CONTROL)
        fake_clock.advance(4 * DAY - 30 * MINUTE)  # every reminder due at once
        check(client, game_id)
        texts = reminders(client)
        assert len(texts) == 1 and "30 min left for your move" in texts[0]
        cookies = dict(client.cookies)
    with TestClient(create_app(database, bot_workers=0)) as client:
        client.cookies.update(cookies)
        check(client, game_id)
        assert len(reminders(client)) == 1  # stored as sent: never again


def test_a_new_wait_brings_the_time_reminders_again_but_not_the_half_bank_one(
    client: TestClient, fake_clock: FakeClock
) -> None:
    game_id, tokens, first = held_game(client, DAYS_CONTROL)
    fake_clock.advance(4 * DAY - 30 * MINUTE)
    check(client, game_id)
    move(client, game_id, tokens[first])  # in time: 30 min of bank left
    while mover(client, game_id) != first:
        move(client, game_id, tokens[mover(client, game_id)])
    fake_clock.advance(DAY + 20 * MINUTE)  # 10 min left of this wait
    check(client, game_id)
    texts = reminders(client)
    assert len(texts) == 2 and "10 min left for your move" in texts[1]


def test_a_quick_control_and_a_guest_get_no_reminders(
    client: TestClient, fake_clock: FakeClock
) -> None:
    game_id, _, _ = held_game(client, {"per_move": 10 * MINUTE, "bank": 20 * MINUTE})
    fake_clock.advance(29 * MINUTE)
    check(client, game_id)
    assert reminders(client) == []  # the page's countdown warns instead
    guest = create(client, humans(3), seed=5, time_control=DAYS_CONTROL)
    fake_clock.advance(4 * DAY - MINUTE)
    check(client, guest["id"])
    assert reminders(client) == [] and timebank(client).due(service(client).rooms[guest["id"]])


def test_a_reminder_says_nothing_hidden(client: TestClient, fake_clock: FakeClock) -> None:
    game_id, _, first = held_game(client, DAYS_CONTROL)
    room = service(client).rooms[game_id]
    truth = room.state
    assert isinstance(truth, AmunReState)
    at = START + 3.9 * DAY
    texts = set()
    for k in range(4):
        room.state = redeal_hidden(truth, first, Rng(k))
        texts.add(TimeBank.reminder_text(room, first, 4, at))
    room.state = truth
    assert len(texts) == 1


# ---------------------------------------------------------------------- private steps
def test_a_builder_s_private_steps_move_no_clock(client: TestClient, fake_clock: FakeClock) -> None:
    """Egyptia: steps after the reveal are private; clocks change only with who is to move."""
    seats = [{"kind": "human", "name": n} for n in ("Ana", "Bes", "Ka")]
    created = client.post(
        "/api/games",
        json={
            "game": "egyptia",
            "seats": seats,
            "seed": 8,
            "options": {"cards": "A2,B2,C3,D2,E3"},
            "time_control": DAYS_CONTROL,
        },
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    room = service(client).rooms[game_id]
    state = room.state.clone()
    assert isinstance(state, EgyptiaState)
    roll(state, THREE_IN_GRAIN)
    for seat in range(3):
        set_have(state, seat, (3, 3, 3, 2))
    room.state = state
    for seat, column in ((0, "diamond"), (2, "diamond"), (1, "grain")):
        fake_clock.advance(HOUR)
        move_text(client, game_id, tokens[seat], f"choose {column}")
    before = public_bytes(client, game_id)
    steps = 0
    for _ in range(8):
        fake_clock.advance(HOUR)
        mine = view(client, game_id, tokens[1])
        legal = [m["text"] for m in mine["legal"] if not m["text"].startswith("ship")]
        after = move_text(client, game_id, tokens[1], legal[-1])
        if after["observation"]["you"]["stage"] == "done":
            break
        steps += 1
        assert public_bytes(client, game_id) == before, f"after Bes's step {steps}"
        others = [view(client, game_id, tokens[s])["players"] for s in (0, 2)]
        # Bes chose last, so was to move all along: one wait since the start
        assert all(p[1]["clock"]["waiting_since"] == START for p in others)
    assert steps >= 2
    # being done is public, and stops Bes's clock
    assert clocks(client, game_id)[1]["waiting_since"] is None


def move_text(client: TestClient, game_id: str, token: str, text: str) -> dict[str, Any]:
    mine = view(client, game_id, token)
    response = client.post(
        f"/api/games/{game_id}/actions",
        params={"token": token},
        json={"version": mine["version"], "action": text},
    )
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()["view"]
    return answer


# ---------------------------------------------------------------------- units
def test_the_rule_in_numbers() -> None:
    control = TimeControl(DAY, 3 * DAY)
    waiting = SeatClock(3 * DAY).start(100.0)
    assert waiting.runs_out(control) == 100.0 + 4 * DAY
    assert waiting.stop(control, 100.0 + DAY).bank == 3 * DAY  # the time per move is free
    assert waiting.stop(control, 100.0 + DAY + 7).bank == 3 * DAY - 7
    assert waiting.stop(control, 100.0 + 9 * DAY).bank == 0  # never below nothing
    assert [span(s) for s in (0, 40, 60, 90, 3600, 5400, DAY, 1.5 * DAY, 2 * DAY)] == [
        "0 s", "40 s", "1 min", "1 min 30 s", "1 h", "1 h 30 min", "1 day", "1 day 12 h",
        "2 days",
    ]  # fmt: skip
    assert TimeControl(MINUTE, 0).thresholds() == []
    assert [bit for bit, _ in TimeControl(HOUR, 2 * HOUR).thresholds()] == [4]


# ---------------------------------------------------------------------- the migration
def test_the_migration_keeps_existing_games_and_goes_down_again(database: str) -> None:
    """0006_time adds empty columns to the games of an older schema (no time control, nobody
    left), which load as before; its downgrade removes them again."""
    from sqlalchemy import inspect
    from sqlalchemy import text as sql

    from karnak.server.db import make_engine, migrate, run_migrations

    with TestClient(create_app(database, bot_workers=0)) as client:
        created = create(client, humans(3), seed=2)
        game_id = created["id"]
        tokens = [s["token"] for s in created["seats"]]
        move(client, game_id, tokens[mover(client, game_id)])
        before = view(client, game_id)
    engine = make_engine(database)
    run_migrations(engine, "downgrade", "0004")
    assert "bank_left" not in {c["name"] for c in inspect(engine).get_columns("seats")}
    run_migrations(engine, "upgrade", "0006_time")
    with engine.connect() as connection:
        games = connection.execute(sql("SELECT time_per_move, time_bank FROM games")).all()
        seats = connection.execute(
            sql("SELECT bank_left, waiting_since, reminders, departure FROM seats")
        ).all()
    assert [tuple(g) for g in games] == [(None, None)]
    assert {tuple(s) for s in seats} == {(None, None, 0, None)}
    run_migrations(engine, "downgrade", "0004")
    columns = {c["name"] for c in inspect(engine).get_columns("seats")}
    assert not columns & {"bank_left", "waiting_since", "reminders", "departure"}
    migrate(engine)
    engine.dispose()
    with TestClient(create_app(database, bot_workers=0)) as client:
        assert view(client, game_id) == before

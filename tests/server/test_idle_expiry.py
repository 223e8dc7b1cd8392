"""Idle games without a clock expire: the seats are warned once (a notification, and an
e-mail to those who asked for "your turn" e-mails), then the game ends unfinished and
unrated; a move after the warning saves it; clocked games never expire this way; an expired
game stops counting as running; and two servers on one database warn and expire once.

Idleness is made by moving a game's last change back in the database and the service's
clock forward, rather than by waiting days.
"""

from __future__ import annotations

import datetime as dt
import functools
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from karnak.server.app import create_app
from karnak.server.conflicts import StaleWriteError
from karnak.server.db import GameRow, make_engine
from karnak.server.expiry import EXPIRED, IdleGames, IdleStore, Swept, Timing
from karnak.server.limits import ServerSettings
from karnak.server.mail.routes import configure_mail
from karnak.server.notifications.tables import NotificationRow
from karnak.server.ratings.tables import RatedGameRow
from support.postgres import POSTGRES, postgres_database
from support.smtp import SmtpServer

from .conftest import create, humans, wait_for
from .test_mail import Person, Site

SETTINGS = ServerSettings(creates_per_minute=10_000, account_attempts_per_minute=1_000)
DAY = dt.timedelta(days=1)
T = TypeVar("T")


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Idle(Site):
    @property
    def idle(self) -> IdleGames:
        idle: IdleGames = self.client.app.state.idle_games  # type: ignore[attr-defined]
        return idle

    def sweep(self, at: dt.datetime | None = None) -> Swept:
        """One round of the idle games, at ``at`` (now by default)."""
        moment = at or now()
        self.idle.clock = lambda: moment
        swept: Swept = self.client.portal.call(self.idle.sweep)  # type: ignore[union-attr]
        return swept

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        self.as_(None)
        params = {"token": token} if token else {}
        found: dict[str, Any] = self.client.get(f"/api/games/{game_id}", params=params).json()
        return found

    def planned(self, game_id: str, tokens: list[str]) -> tuple[str, dict[str, Any]]:
        """The first legal move of the seat to move: its token, and the request's body."""
        seat = self.view(game_id)["to_move"][0]
        mine = self.view(game_id, tokens[seat])
        return tokens[seat], {"version": mine["version"], "action": mine["legal"][0]["action"]}

    def post_move(self, game_id: str, planned: tuple[str, dict[str, Any]]) -> Any:
        token, body = planned
        return self.client.post(f"/api/games/{game_id}/actions", params={"token": token}, json=body)

    def play_one(self, game_id: str, tokens: list[str]) -> Any:
        return self.post_move(game_id, self.planned(game_id, tokens))


def backdate(database: str, game_id: str, idle: dt.timedelta) -> None:
    """Make the game's last change ``idle`` ago."""
    engine = make_engine(database)
    try:
        with engine.begin() as connection:
            connection.execute(
                update(GameRow).where(GameRow.id == game_id).values(updated_at=now() - idle)
            )
    finally:
        engine.dispose()


def idle_notes(database: str, person: Person | None = None) -> list[str]:
    """The texts of the "idle" notifications (of one account), oldest first."""
    engine = make_engine(database)
    try:
        query = select(NotificationRow.text).where(NotificationRow.kind == "idle")
        if person is not None:
            query = query.where(NotificationRow.account_id == person.id)
        with engine.connect() as connection:
            return list(connection.scalars(query.order_by(NotificationRow.id)))
    finally:
        engine.dispose()


def stored(database: str, game_id: str) -> GameRow:
    """The game's row as the database holds it now (its columns only)."""
    engine = make_engine(database)
    try:
        with Session(engine) as session:
            row = session.get(GameRow, game_id)
            assert row is not None
            session.expunge(row)
            return row
    finally:
        engine.dispose()


@pytest.fixture
def smtp() -> Iterator[SmtpServer]:
    with SmtpServer() as server:
        yield server


def idle_app(database: str, smtp: SmtpServer | None = None, **settings: Any) -> Any:
    given = {**SETTINGS.__dict__, **settings}
    app = create_app(database, bot_workers=0, settings=ServerSettings(**given))
    if smtp is not None:
        configure_mail(app, smtp.settings(tick=3600))
    return app


@pytest.fixture
def site(database: str, smtp: SmtpServer) -> Iterator[Idle]:
    with TestClient(idle_app(database, smtp)) as client:
        yield Idle(client, smtp)


# ---------------------------------------------------------------------- warn, then expire
def test_an_idle_game_is_warned_once_then_ends_unfinished_and_unrated(
    site: Idle, database: str
) -> None:
    ada = site.person("Ada", "ada@example.org")  # asked for "your turn" e-mails (the default)
    bea = site.person("Bea")
    game_id, tokens = site.game("amunre", [ada, bea, None])
    assert site.sweep().warned == []  # a fresh game is not idle
    backdate(database, game_id, 3.5 * DAY)
    assert site.sweep() == Swept()  # five days less one: not yet
    backdate(database, game_id, 4.5 * DAY)
    assert site.sweep().warned == [game_id]
    for person in (ada, bea):
        [text] = idle_notes(database, person)
        assert "unless someone moves before" in text and "unfinished and unrated" in text
        assert "Ada" in text and "Bea" in text  # the table, as everyone sees it
    wait_for(lambda: any("will expire" in m.subject for m in site.smtp.to("ada@example.org")))
    [mail] = [m for m in site.smtp.to("ada@example.org") if "will expire" in m.subject]
    assert f"http://testserver/games/{game_id}" in mail.body and "token" not in mail.body
    # warned once, however many rounds look (the database holds the warning)
    assert site.sweep() == Swept()
    assert site.sweep(now() + 0.4 * DAY) == Swept()  # five days are not up yet
    assert len(idle_notes(database)) == 2
    planned = site.planned(game_id, tokens)
    # a day after the warning, the game expires
    assert site.sweep(now() + 1.01 * DAY).expired == [game_id]
    public = site.view(game_id)
    assert public["status"] == EXPIRED
    assert public["ended"]["reason"].startswith("nobody moved for 5 days")
    assert public["to_move"] == [] and "result" not in public
    seat_view = site.view(game_id, tokens[0])
    assert seat_view["legal"] == [] and not seat_view["your_turn"]
    row = stored(database, game_id)
    assert row.status == EXPIRED and row.finished_at is not None
    assert row.result is not None and row.result["ended"] == EXPIRED
    assert "scores" not in row.result
    refused = site.post_move(game_id, planned)
    assert refused.status_code == 409 and "over" in refused.json()["error"]
    for person in (ada, bea):
        assert "ended unfinished and unrated" in idle_notes(database, person)[-1]
    # never rated, and no longer among the running games
    ratings = site.client.app.state.ratings  # type: ignore[attr-defined]
    site.client.portal.call(ratings.idle)  # type: ignore[union-attr]
    engine = make_engine(database)
    with engine.connect() as connection:
        rated = connection.scalar(select(RatedGameRow.rated).where(RatedGameRow.game_id == game_id))
    engine.dispose()
    assert not rated
    assert site.client.app.state.service.running == 0  # type: ignore[attr-defined]
    listed = {g["id"]: g["status"] for g in site.client.get("/api/games").json()}
    assert listed[game_id] == EXPIRED
    assert site.sweep(now() + 9 * DAY) == Swept()  # nothing more to do with it


def test_an_expired_game_stays_expired_after_a_restart(database: str) -> None:
    with TestClient(idle_app(database)) as client:
        site = Idle(client, None)  # type: ignore[arg-type]
        created = create(client, humans(3))
        backdate(database, created["id"], 4.5 * DAY)
        assert site.sweep().warned == [created["id"]]
        assert site.sweep(now() + 1.01 * DAY).expired == [created["id"]]
    with TestClient(idle_app(database)) as client:
        view = client.get(f"/api/games/{created['id']}").json()
        assert view["status"] == EXPIRED and view["to_move"] == []
        assert client.app.state.service.running == 0  # type: ignore[attr-defined]
        token = created["seats"][0]["token"]
        mine = client.get(f"/api/games/{created['id']}", params={"token": token}).json()
        assert mine["legal"] == []


def test_a_move_after_the_warning_saves_the_game(site: Idle, database: str) -> None:
    ada, bea = site.person("Ada"), site.person("Bea")
    game_id, tokens = site.game("amunre", [ada, bea, None])
    backdate(database, game_id, 4.5 * DAY)
    assert site.sweep().warned == [game_id]
    assert site.play_one(game_id, tokens).status_code == 200
    assert site.sweep(now() + 1.01 * DAY) == Swept()  # not idle any more: no expiry, no warning
    assert stored(database, game_id).status == "running"
    assert site.view(game_id)["status"] == "running"
    # a later idle spell is warned anew, and only then expires
    later = now() + 4.5 * DAY
    assert site.sweep(later) == Swept(warned=[game_id])
    assert len(idle_notes(database, ada)) == 2
    assert site.sweep(later + 0.9 * DAY) == Swept()
    assert site.sweep(later + 1.01 * DAY).expired == [game_id]


def test_games_with_a_clock_never_expire_this_way(site: Idle, database: str) -> None:
    ada = site.person("Ada")
    timed, _ = site.game("amunre", [ada, None, None], turn_timer=3600)
    banked, _ = site.game(
        "amunre", [ada, None, None], time_control={"per_move": 86_400, "bank": 86_400 * 3}
    )
    plain, _ = site.game("amunre", [ada, None, None])
    for game_id in (timed, banked, plain):
        backdate(database, game_id, 30 * DAY)
    assert site.sweep().warned == [plain]
    assert site.sweep(now() + 2 * DAY).expired == [plain]
    for game_id in (timed, banked):
        assert stored(database, game_id).status == "running"
    assert len(idle_notes(database, ada)) == 2  # the plain game's warning and its end


def test_an_expiry_of_zero_days_means_never(database: str) -> None:
    with TestClient(idle_app(database, idle_game_expiry_days=0)) as client:
        site = Idle(client, None)  # type: ignore[arg-type]
        created = create(client, humans(3))
        backdate(database, created["id"], 365 * DAY)
        assert site.sweep(now() + 365 * DAY) == Swept()
        assert stored(database, created["id"]).status == "running"


def test_an_expired_game_frees_its_place_under_the_cap(database: str) -> None:
    with TestClient(idle_app(database, max_running_games=1)) as client:
        site = Idle(client, None)  # type: ignore[arg-type]
        first = create(client, humans(3))
        assert (
            client.post("/api/games", json={"game": "amunre", "seats": humans(3)}).status_code
            == 429
        )
        backdate(database, first["id"], 4.5 * DAY)
        site.sweep()
        site.sweep(now() + 1.01 * DAY)
        assert stored(database, first["id"]).status == EXPIRED
        assert create(client, humans(3))["id"]  # its place is free


def test_the_timing_never_expires_before_the_warning_period() -> None:
    """A game idle far longer than the wait (a server that was down) is warned first and
    expires a warning period later, never at once."""
    timing = Timing.of(ServerSettings(idle_game_expiry_days=5, idle_game_warning_hours=24))
    assert timing is not None
    since, warned = now() - 30 * DAY, now()
    assert timing.expires_at(since, warned) == warned + DAY
    short = Timing.of(ServerSettings(idle_game_expiry_days=0.5, idle_game_warning_hours=24))
    assert short is not None and short.lead == dt.timedelta(hours=6)  # halfway
    assert Timing.of(ServerSettings(idle_game_expiry_days=-1)) is None


# ---------------------------------------------------------------------- once, at the database
def at_once(*calls: Callable[[], T]) -> list[T]:
    """Run the calls in threads of their own, released together."""
    start = threading.Barrier(len(calls))

    def run(call: Callable[[], T]) -> T:
        start.wait()
        return call()

    with ThreadPoolExecutor(len(calls)) as pool:
        return list(pool.map(run, calls))


def expired_by(store: IdleStore, game_id: str, version: int, later: dt.datetime) -> str:
    """What one expiry of the game at ``version`` did: "done", "stale" or "no"."""
    timing = Timing.of(SETTINGS)
    assert timing is not None
    result = {"ended": EXPIRED, "reason": "a test"}
    versions = (version + 1, version + 1)
    try:
        done = store.expire(game_id, version, versions, result, later, timing, None)
    except StaleWriteError:
        return "stale"
    return "done" if done else "no"


def test_of_two_warnings_or_expiries_at_once_the_database_takes_one(
    site: Idle, database: str
) -> None:
    store = site.idle.store
    timing = site.idle.timing
    assert timing is not None
    for _ in range(3):
        game_id = create(site.client, humans(3))["id"]
        backdate(database, game_id, 4.5 * DAY)
        warn = functools.partial(store.mark_warned, game_id, now(), timing)
        assert sorted(at_once(warn, warn)) == [False, True]
        version = stored(database, game_id).version
        expire = functools.partial(expired_by, store, game_id, version, now() + 1.01 * DAY)
        outcomes = sorted(at_once(expire, expire))
        assert outcomes in (["done", "stale"], ["done", "no"]), outcomes
        assert stored(database, game_id).version == version + 1


@pytest.mark.skipif(
    not POSTGRES, reason="two servers need PostgreSQL: set KARNAK_TEST_POSTGRES_URL"
)
def test_two_servers_on_one_database_warn_and_expire_once() -> None:
    with postgres_database() as url:
        a, b = TestClient(idle_app(url)), TestClient(idle_app(url))
        with a, b:
            names = []
            for name, client in (("Ada", a), ("Bea", b)):
                signed = client.post(
                    "/api/account/signup", json={"name": name, "password": "two crowns, one Nile"}
                )
                assert signed.status_code == 201, signed.text
                names.append(dict(client.cookies))
            created = create(a, humans(3))
            game_id = created["id"]
            for seat, (client, cookies) in enumerate(zip((a, b), names, strict=True)):
                client.cookies.clear()
                client.cookies.update(cookies)
                claimed = client.post(
                    f"/api/games/{game_id}/claim",
                    params={"token": created["seats"][seat]["token"]},
                    headers={"X-CSRF-Token": cookies["karnak_csrf"]},
                )
                assert claimed.status_code == 200, claimed.text
            backdate(url, game_id, 4.5 * DAY)
            servers = [Idle(a, None), Idle(b, None)]  # type: ignore[arg-type]

            def rounds(at: dt.datetime) -> list[Swept]:
                start = threading.Barrier(len(servers) * 2)

                def one(index: int) -> Swept:
                    start.wait()
                    return servers[index % 2].sweep(at)

                with ThreadPoolExecutor(4) as pool:
                    return list(pool.map(one, range(4)))

            warned = [g for swept in rounds(now()) for g in swept.warned]
            assert warned == [game_id]
            expired = [g for swept in rounds(now() + 1.01 * DAY) for g in swept.expired]
            assert expired == [game_id]
            assert len(idle_notes(url)) == 4  # two accounts: one warning and one end each
            engine = make_engine(url)
            with engine.connect() as connection:
                count = connection.scalar(
                    select(func.count()).select_from(GameRow).where(GameRow.status == EXPIRED)
                )
            engine.dispose()
            assert count == 1
            # the other server's copy (it claimed a seat) learns of it at its next write:
            # a move there is refused, and its views say so from then on
            b.cookies.clear()
            refused = servers[1].play_one(game_id, [s["token"] for s in created["seats"]])
            assert refused.status_code == 409, refused.text
            assert b.get(f"/api/games/{game_id}").json()["status"] == EXPIRED

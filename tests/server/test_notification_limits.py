"""Notifications bounded per sender and reader and per reader a day, pruned after their
retention, and kept to a bounded number per account (the oldest read ones going first).

The flood the issue measured: inviting a name to a table and withdrawing it, in a loop,
stored 320 notifications for one person in a minute. Now the loop stops at the sender's
hourly allowance for that person, answered 429 with Retry-After.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from karnak.server.app import create_app
from karnak.server.db import make_engine
from karnak.server.limits import ServerSettings
from karnak.server.notifications.bounds import Sender
from karnak.server.notifications.service import Notifier

from .test_accounts import csrf
from .test_friends import People as Friends
from .test_tables import People, act, new_table


def notifier_of(client: TestClient) -> Notifier:
    notifier: Notifier = client.app.state.notifier  # type: ignore[attr-defined]
    return notifier


def stored(database: str, account: int) -> list[tuple[int, str, bool]]:
    """The account's notifications in the database: id, kind, read."""
    engine = make_engine(database)
    try:
        with engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT id, kind, read_at IS NOT NULL FROM notifications "
                    "WHERE account_id = :account ORDER BY id"
                ),
                {"account": account},
            ).all()
    finally:
        engine.dispose()
    return [(int(row[0]), str(row[1]), bool(row[2])) for row in rows]


@pytest.fixture
def server(database: str) -> Iterator[TestClient]:
    settings = ServerSettings(moves_per_minute=100_000, creates_per_minute=100_000)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        yield client


# ---------------------------------------------------------------------- per sender
def test_the_invite_withdraw_loop_stays_bounded(server: TestClient, database: str) -> None:
    people = People(server)
    people.sign_up("Ana")
    bes = people.sign_up("Bes")
    people.be("Ana")
    # a big table: its own bound (two invitations a seat) would allow 60
    seats = [{"kind": "human"}] + [{"kind": "open"} for _ in range(29)]
    table = new_table(server, seats, game="egyptia")["table"]
    answers = []
    for _ in range(40):
        answers.append(act(server, table["id"], "invite", seat=1, name="Bes"))
        act(server, table["id"], "withdraw", seat=1)
    statuses = [answer.status_code for answer in answers]
    assert statuses[:10] == [200] * 10
    assert set(statuses[10:]) == {429}
    refused = answers[10]
    assert 1 <= int(refused.headers["Retry-After"]) <= 3600
    assert "in the last hour" in refused.json()["error"]
    assert [kind for _, kind, _ in stored(database, bes)] == ["invitation"] * 10


def test_friend_requests_count_against_the_same_allowance(database: str) -> None:
    settings = ServerSettings(notifications_per_sender_hour=2)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        friends = Friends(client)
        friends.add("Ana", "Bes", "Ka")
        for _ in range(2):
            assert friends.ask("Ana", "Bes").status_code == 201
            assert friends.remove("Ana", "Bes").status_code == 200
        refused = friends.ask("Ana", "Bes")
        assert refused.status_code == 429 and "Retry-After" in refused.headers
        assert friends.ask("Ana", "Ka").status_code == 201  # another reader: its own count
        assert friends.ask("Bes", "Ka").status_code == 201  # another sender too
        assert len(stored(database, friends.ids["Bes"])) == 2


def test_a_reader_receives_a_bounded_number_a_day_from_everyone(database: str) -> None:
    settings = ServerSettings(notifications_per_recipient_day=3)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        friends = Friends(client)
        friends.add("Nut", "Ana", "Bes", "Ka", "Geb")
        for name in ("Ana", "Bes", "Ka"):
            assert friends.ask(name, "Nut").status_code == 201
        refused = friends.ask("Geb", "Nut")
        assert refused.status_code == 429 and "today" in refused.json()["error"]
        assert len(stored(database, friends.ids["Nut"])) == 3


def test_the_servers_own_notifications_are_not_counted(server: TestClient, database: str) -> None:
    people = People(server)
    ana = people.sign_up("Ana")
    for n in range(15):
        server.portal.call(notifier_of(server).notify, ana, "turn", f"turn {n}")  # type: ignore[union-attr]
    assert len(stored(database, ana)) == 15


def test_a_notice_past_a_bound_is_dropped_not_an_error(database: str) -> None:
    settings = ServerSettings(notifications_per_sender_hour=1)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        people = People(client)
        ana = people.sign_up("Ana")
        bes = people.sign_up("Bes")
        notifier = notifier_of(client)
        call = client.portal.call  # type: ignore[union-attr]
        assert call(notifier.notify_from, Sender(bes), ana, "table", "one") is not None
        assert call(notifier.notify_from, Sender(bes), ana, "table", "two") is None
        guest = Sender(client="ab" * 32)
        assert call(notifier.notify_from, guest, ana, "invitation", "from a guest") is not None
        assert call(notifier.notify_from, guest, ana, "invitation", "again") is None
        assert [kind for _, kind, _ in stored(database, ana)] == ["table", "invitation"]


# ---------------------------------------------------------------------- kept
def age(database: str, account: int, days: float, *, read: bool) -> None:
    """Make every notification of ``account`` ``days`` old (and read, or not)."""
    engine = make_engine(database)
    when = dt.datetime.now(dt.UTC) - dt.timedelta(days=days)
    try:
        with engine.begin() as connection:
            connection.execute(
                text(
                    "UPDATE notifications SET created_at = :when, read_at = :read "
                    "WHERE account_id = :account"
                ),
                {"when": when, "read": when if read else None, "account": account},
            )
    finally:
        engine.dispose()


def test_read_notifications_are_pruned_after_their_retention(database: str) -> None:
    settings = ServerSettings(notification_retention_days=30)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        people = People(client)
        old_read, old_unread, fresh = (people.sign_up(n) for n in ("Ana", "Bes", "Ka"))
        notifier = notifier_of(client)
        call = client.portal.call  # type: ignore[union-attr]
        for account in (old_read, old_unread, fresh):
            call(notifier.notify, account, "turn", "your turn")
        age(database, old_read, 31, read=True)
        age(database, old_unread, 31, read=False)
        age(database, fresh, 29, read=True)
        notifier.prune_next_time()  # as if the last sweep were an hour ago
        call(notifier.notify, fresh, "turn", "another turn")
        assert stored(database, old_read) == []
        assert len(stored(database, old_unread)) == 1  # unread: kept (bounded per account)
        assert len(stored(database, fresh)) == 2


def test_two_processes_pruning_at_once_do_no_harm(database: str) -> None:
    settings = ServerSettings(notification_retention_days=30)
    with (
        TestClient(create_app(database, bot_workers=0, settings=settings)) as one,
        TestClient(create_app(database, bot_workers=0, settings=settings)) as two,
    ):
        people = People(one)
        ana = people.sign_up("Ana")
        for _ in range(3):
            one.portal.call(notifier_of(one).notify, ana, "turn", "your turn")  # type: ignore[union-attr]
        age(database, ana, 40, read=True)
        for client in (one, two):
            notifier_of(client).prune_next_time()
            client.portal.call(notifier_of(client).notify, ana, "turn", "now")  # type: ignore[union-attr]
        assert [kind for _, kind, _ in stored(database, ana)] == ["turn", "turn"]


def test_an_account_keeps_a_bounded_number_oldest_read_first(database: str) -> None:
    settings = ServerSettings(notifications_kept_per_account=4)
    with TestClient(create_app(database, bot_workers=0, settings=settings)) as client:
        people = People(client)
        ana = people.sign_up("Ana")
        notifier = notifier_of(client)
        call = client.portal.call  # type: ignore[union-attr]
        for n in range(3):
            call(notifier.notify, ana, "turn", f"unread {n}")
        people.be("Ana")
        newest = stored(database, ana)[-1][0]
        client.post("/api/notifications/read", json={"up_to": newest - 1}, headers=csrf(client))
        # the first two are read, the third not
        for n in range(3):
            call(notifier.notify, ana, "turn", f"more {n}")
        kept = stored(database, ana)
        assert len(kept) == 4
        texts = [n["text"] for n in client.get("/api/notifications").json()["notifications"]]
        assert texts == ["more 2", "more 1", "more 0", "unread 2"]  # the read ones went first
        for n in range(3):
            call(notifier.notify, ana, "turn", f"last {n}")
        texts = [n["text"] for n in client.get("/api/notifications").json()["notifications"]]
        assert texts == ["last 2", "last 1", "last 0", "more 2"]  # then the oldest unread


def test_the_defaults() -> None:
    settings = ServerSettings()
    assert settings.notifications_per_sender_hour == 10
    assert settings.notification_retention_days == 90

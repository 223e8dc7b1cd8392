"""Account names compared by how they look: case, width, spaces and look-alike letters of
other scripts (the UTS #39 skeleton) make no new name; invisible and control characters and
doubled spaces are refused; existing look-alikes survive the migration that adds the
comparison, and no third one can join them; a guest cannot sit under a look-alike of an
account's name."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import inspect, text

from karnak.server.accounts.names import BadNameError, name_skeleton, shown_name, skeleton
from karnak.server.app import create_app
from karnak.server.db import make_engine, migrate, run_migrations

from .test_accounts import PASSWORD, sign_up

CYRILLIC_DZE = "\u0455"  # looks like a Latin s


def full_width(name: str) -> str:
    """``name`` in the full-width forms of East Asian text (ASCII letters only)."""
    return "".join(chr(ord(c) + 0xFEE0) for c in name)


LOOK_ALIKES = [
    f"Hat{CYRILLIC_DZE}hepsut",  # a Cyrillic letter among Latin ones
    full_width("Hatshepsut"),
    "Hat shepsut",  # a space put in
    "HATSHEPSUT",
    "Hat\u0455hep\u0455ut",
    "Hatshep\u0455ut ",
]


# ---------------------------------------------------------------------- the rules
@pytest.mark.parametrize("other", LOOK_ALIKES)
def test_look_alikes_share_a_skeleton(other: str) -> None:
    assert name_skeleton(other) == name_skeleton("Hatshepsut")


@pytest.mark.parametrize(
    ("one", "other"),
    [("AnaI", "Anal"), ("Ana1", "Anal"), ("Ramses", "Rarnses"), ("Ana", "\u0410na")],
)
def test_letters_unicode_calls_confusable_share_a_skeleton(one: str, other: str) -> None:
    assert name_skeleton(one) == name_skeleton(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [("Hatshepsut", "Nefertiti"), ("Ana", "Ana-Bes"), ("Zoe", "Zo\u00eb"), ("Ana", "Anna")],
)
def test_different_names_stay_different(one: str, other: str) -> None:
    assert name_skeleton(one) != name_skeleton(other)


def test_the_skeleton_is_a_fixed_point_and_bounded() -> None:
    for name in ["Hatshepsut", "Ramses", "\u2474\u2475 x"]:
        once = skeleton(name)
        assert skeleton(once) == once
    assert len(name_skeleton("\ufdfa" * 40)) <= 200


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("Hat  shepsut", "two spaces in a row"),
        ("Ana\u200dBes", "U+200D"),  # a zero-width joiner
        ("Ana\u3164", "invisible"),  # a Hangul filler, which \\w takes for a letter
        ("Ana\tBes", "U+0009"),
        ("Ana\u00a0\u00a0Bes", "two spaces in a row"),  # NFKC makes them ordinary spaces
        ("Ana\u2028Bes", "U+2028"),
    ],
)
def test_invisible_and_control_characters_and_doubled_spaces_are_refused(
    name: str, words: str
) -> None:
    with pytest.raises(BadNameError, match=re.escape(words)):
        shown_name(name)


def test_full_width_letters_are_shown_as_plain_ones() -> None:
    assert shown_name(full_width("Hatshepsut")) == "Hatshepsut"


# ---------------------------------------------------------------------- at sign-up
@pytest.mark.parametrize("other", LOOK_ALIKES)
def test_a_look_alike_of_a_taken_name_is_refused(client: TestClient, other: str) -> None:
    sign_up(client, "Hatshepsut")
    client.cookies.clear()
    refused = client.post("/api/account/signup", json={"name": other, "password": PASSWORD})
    assert refused.status_code == 409, refused.text
    error = refused.json()["error"]
    # a look-alike is named; the same name in another case or width is plainly taken
    assert "looks like 'Hatshepsut'" in error or error.endswith("is taken; choose another")


def test_the_message_names_the_look_alike(client: TestClient) -> None:
    sign_up(client, "Hatshepsut")
    client.cookies.clear()
    refused = client.post(
        "/api/account/signup", json={"name": f"Hat{CYRILLIC_DZE}hepsut", "password": PASSWORD}
    )
    assert "looks like 'Hatshepsut'" in refused.json()["error"]


def test_a_doubled_space_is_refused_at_sign_up(client: TestClient) -> None:
    refused = client.post(
        "/api/account/signup", json={"name": "Hat  shepsut", "password": PASSWORD}
    )
    assert refused.status_code == 422 and "two spaces" in refused.json()["error"]


def test_the_skeleton_is_stored_and_unique(client: TestClient, database: str) -> None:
    sign_up(client, "Hatshepsut")
    engine = make_engine(database)
    try:
        with engine.begin() as connection:
            stored = connection.execute(text("SELECT name_skeleton FROM accounts")).scalar_one()
            assert stored == "hatshepsut"
        with pytest.raises(Exception, match=r"(?i)unique|duplicate"), engine.begin() as c:
            c.execute(
                text(
                    "INSERT INTO accounts (name, name_key, name_skeleton, password_hash, "
                    "created_at) VALUES ('X', 'x', 'hatshepsut', 'h', CURRENT_TIMESTAMP)"
                )
            )
    finally:
        engine.dispose()


# ---------------------------------------------------------------------- the migration
@pytest.mark.empty_database
def test_existing_look_alikes_survive_the_migration_and_no_third_joins(database: str) -> None:
    engine = make_engine(database)
    try:
        run_migrations(engine, "upgrade", "0013_admin")
        with engine.begin() as connection:
            for name in ("Hatshepsut", f"Hat{CYRILLIC_DZE}hepsut", "Nefertiti"):
                connection.execute(
                    text(
                        "INSERT INTO accounts (name, name_key, password_hash, created_at) "
                        "VALUES (:name, :key, 'h', CURRENT_TIMESTAMP)"
                    ),
                    {"name": name, "key": name.casefold()},
                )
        migrate(engine)
        with engine.connect() as connection:
            rows = connection.execute(
                text("SELECT id, name, name_skeleton FROM accounts ORDER BY id")
            ).all()
    finally:
        engine.dispose()
    skeletons = {name: stored for _, name, stored in rows}
    second = rows[1][0]
    assert skeletons == {
        "Hatshepsut": "hatshepsut",
        f"Hat{CYRILLIC_DZE}hepsut": f"hatshepsut#{second}",
        "Nefertiti": "nefertiti",
    }
    with TestClient(create_app(database, bot_workers=0)) as client:
        refused = client.post(
            "/api/account/signup", json={"name": "HatshepsuT ", "password": PASSWORD}
        )
        assert refused.status_code == 409
        refused = client.post(
            "/api/account/signup", json={"name": "Hat shepsut", "password": PASSWORD}
        )
        assert refused.status_code == 409
        login = {"name": f"Hat{CYRILLIC_DZE}hepsut", "password": PASSWORD}
        assert client.post("/api/account/login", json=login).status_code == 401  # still there


def test_the_migration_goes_down_and_up_again(database: str) -> None:
    engine = make_engine(database)
    try:
        migrate(engine)
        run_migrations(engine, "downgrade", "0013_admin")
        assert "name_skeleton" not in {c["name"] for c in inspect(engine).get_columns("accounts")}
        assert "blocks" not in inspect(engine).get_table_names()
        migrate(engine)
        assert "name_skeleton" in {c["name"] for c in inspect(engine).get_columns("accounts")}
        assert "sender" in {c["name"] for c in inspect(engine).get_columns("notifications")}
    finally:
        engine.dispose()


# ---------------------------------------------------------------------- guests at tables
def test_a_guest_cannot_sit_under_a_look_alike_of_an_account(client: TestClient) -> None:
    sign_up(client, "Hatshepsut")
    client.cookies.clear()
    seats = [
        {"kind": "human", "name": f"Hat{CYRILLIC_DZE}hepsut"},
        {"kind": "open"},
        {"kind": "open"},
    ]
    refused = client.post("/api/tables", json={"game": "amunre", "seats": seats})
    assert refused.status_code == 422, refused.text
    assert "account" in refused.json()["error"]

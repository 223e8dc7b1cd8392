"""The server's refusals speak the reader's language, keep their status and JSON shape, and
tell nothing more in one language than in another.

Each family of messages (validation, HTTP, accounts, chat, friends and blocks, tables, moves)
is asked three times: in English (no ``Accept-Language``), in German and in French. The
answer keeps its status and its ``{"error": ...}`` shape (``version`` where it had one); the
German and French texts are the catalogue's, not the English.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import karnak.server.app
from karnak.i18n import use_language
from karnak.server.app import create_app
from karnak.server.errors import describe_validation
from karnak.server.limits import ServerSettings
from support.templates import Templates

PASSWORD = "two crowns, one Nile"
LANGUAGES = {"en": {}, "de": {"Accept-Language": "de"}, "fr": {"Accept-Language": "fr-FR,fr"}}


@pytest.fixture(autouse=True)
def generous_account_attempts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each request here is sent three times: the allowance of account attempts is raised
    (the test of the limit's own message sets its own)."""
    base = karnak.server.app.ServerSettings

    def settings(**given: Any) -> ServerSettings:
        return base(**{"account_attempts_per_minute": 10_000, **given})

    monkeypatch.setattr(karnak.server.app, "ServerSettings", settings)


def asked(
    client: TestClient,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    **kwargs: Any,
) -> dict[str, tuple[int, dict[str, Any]]]:
    """The same request in each language: its status and JSON body."""
    answers = {}
    for language, chosen in LANGUAGES.items():
        response = client.request(method, path, headers={**(headers or {}), **chosen}, **kwargs)
        answers[language] = (response.status_code, response.json())
    return answers


def check(
    answers: dict[str, tuple[int, dict[str, Any]]],
    status: int,
    english: str,
    german: str,
    french: str,
) -> None:
    """One status and one shape in every language, each text in its language."""
    statuses = {language: answer[0] for language, answer in answers.items()}
    assert set(statuses.values()) == {status}, answers
    shapes = {tuple(sorted(answer[1])) for answer in answers.values()}
    assert len(shapes) == 1 and "error" in next(iter(shapes)), answers
    texts = {language: answer[1]["error"] for language, answer in answers.items()}
    assert english in texts["en"], texts
    assert german in texts["de"], texts
    assert french in texts["fr"], texts
    assert texts["de"] != texts["en"] and texts["fr"] != texts["en"], texts


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return {"X-CSRF-Token": client.cookies.get("karnak_csrf") or ""}


# ------------------------------------------------------------------------------ validation
def test_a_validation_error_is_a_sentence_in_the_readers_language(client: TestClient) -> None:
    long_name = [{"kind": "human", "name": "x" * 41}, {"kind": "human"}]
    answers = {
        language: (
            (
                response := client.post(
                    "/api/games", json={"game": "amunre", "seats": long_name}, headers=headers
                )
            ).status_code,
            response.json(),
        )
        for language, headers in LANGUAGES.items()
    }
    check(
        answers,
        422,
        "seats.0.name: is too long: at most 40 characters",
        "seats.0.name: ist zu lang: höchstens 40 Zeichen",
        "seats.0.name : est trop long : au plus 40 caractères",
    )
    # the quotation of what was sent is kept in every language
    assert all("'xxxxxxxx" in body["error"] for _, body in answers.values())


@pytest.mark.parametrize(
    ("body", "english", "german", "french"),
    [
        (
            {"game": "amunre"},
            "seats: is required",
            "seats: fehlt, ist aber nötig",
            "seats : est obligatoire",
        ),
        (
            {"game": "amunre", "seats": [{"kind": "human"}], "seed": 1.5},
            "seed: should be a whole number (got 1.5)",
            "seed: sollte eine ganze Zahl sein (erhalten: 1.5)",
            "seed : devrait être un nombre entier (reçu : 1.5)",
        ),
        (
            {"game": "amunre", "seats": [{"kind": "human"}], "seed": -1},
            "seed: is too small: at least 0 (got -1)",
            "seed: ist zu klein: mindestens 0 (erhalten: -1)",
            "seed : est trop petit : au moins 0 (reçu : -1)",
        ),
        (
            {"game": "amunre", "seats": "two"},
            "seats: should be a list",
            "seats: sollte eine Liste sein",
            "seats : devrait être une liste",
        ),
    ],
)
def test_the_common_validation_errors(
    client: TestClient, body: dict[str, Any], english: str, german: str, french: str
) -> None:
    answers = {
        language: ((r := client.post("/api/games", json=body, headers=h)).status_code, r.json())
        for language, h in LANGUAGES.items()
    }
    check(answers, 422, english, german, french)


def test_many_validation_errors_are_counted_with_the_languages_plural() -> None:
    errors = [
        {"type": "missing", "loc": ("body", f"f{i}"), "msg": "Field required"} for i in range(5)
    ]
    assert describe_validation(errors).endswith("and 2 more problems")
    with use_language("de"):
        assert describe_validation(errors[:4]).endswith("und 1 weiteres Problem")
        assert describe_validation(errors).endswith("und 2 weitere Probleme")
    with use_language("fr"):
        assert describe_validation(errors[:4]).endswith("et 1 autre problème")
    # a validator's ValueError is told in its own words, without pydantic's prefix
    raised = [
        {
            "type": "value_error",
            "loc": ("body", "name"),
            "msg": "Value error, too odd",
            "ctx": {"error": ValueError("too odd")},
            "input": "x",
        }
    ]
    assert describe_validation(raised) == "name: too odd (got 'x')"
    # an error of a kind we do not word ourselves keeps the message it came with
    odd = [{"type": "odd_kind", "loc": ("query", "limit"), "msg": "odd", "input": 3}]
    with use_language("de"):
        assert describe_validation(odd) == "Abfrageparameter limit: odd (erhalten: 3)"


def test_the_games_and_bots_refusals(client: TestClient) -> None:
    many = {"game": "amunre", "seats": [{"kind": "human"}] * 9}
    check(
        asked(client, "POST", "/api/games", json=many),
        422,
        "Amun-Re is for 3 to 5 players, not 9",
        "Amun-Re ist für 3 bis 5 Spieler, nicht 9",
        "Amun-Re se joue de 3 à 5 joueurs, pas 9",
    )
    robot = {"game": "amunre", "seats": [{"kind": "bot", "bot": "robot"}] * 3}
    check(
        asked(client, "POST", "/api/games", json=robot),
        422,
        "unknown bot 'robot' for Amun-Re",
        "unbekannter Bot 'robot' für Amun-Re",
        "bot 'robot' inconnu pour Amun-Re",
    )


# ------------------------------------------------------------------------------ HTTP
def test_starlettes_refusals_and_the_body_limit(client: TestClient) -> None:
    check(
        asked(client, "GET", "/api/no-such-thing"),
        404,
        "nothing is served at this address",
        "unter dieser Adresse gibt es nichts",
        "rien n'est servi à cette adresse",
    )
    check(
        asked(client, "DELETE", "/api/games"),
        405,
        "this address does not take that method",
        "diese Adresse nimmt diese Methode nicht an",
        "cette adresse n'accepte pas cette méthode",
    )
    huge = b"{" + b" " * (2 * 1024 * 1024) + b"}"
    answers = {
        language: (
            (
                r := client.post(
                    "/api/games", content=huge, headers={**h, "Content-Type": "application/json"}
                )
            ).status_code,
            r.json(),
        )
        for language, h in LANGUAGES.items()
    }
    check(
        answers,
        413,
        "the request body is too large",
        "der Inhalt der Anfrage ist zu groß",
        "le corps de la requête est trop gros",
    )


# ------------------------------------------------------------------------------ accounts
def test_account_refusals(client: TestClient) -> None:
    check(
        asked(client, "POST", "/api/account/signup", json={"name": "Ana", "password": "short"}),
        422,
        "a password has at least 8 characters",
        "ein Passwort hat mindestens 8 Zeichen",
        "un mot de passe compte au moins 8 caractères",
    )
    # zxcvbn's advice is translated too
    check(
        asked(client, "POST", "/api/account/signup", json={"name": "Ana", "password": "password1"}),
        422,
        "this password is too easy to guess: This is a very common password.",
        "dieses Passwort ist zu leicht zu erraten: Das ist ein sehr häufiges Passwort.",
        "ce mot de passe est trop facile à deviner : C'est un mot de passe très courant.",
    )
    check(
        asked(client, "POST", "/api/account/signup", json={"name": "-Ana-", "password": PASSWORD}),
        422,
        "a name is made of letters",
        "ein Name besteht aus Buchstaben",
        "un nom se compose de lettres",
    )
    check(
        asked(client, "POST", "/api/account/login", json={"name": "Nobody", "password": PASSWORD}),
        401,
        "that name and password do not match an account",
        "dieser Name und dieses Passwort passen zu keinem Konto",
        "ce nom et ce mot de passe ne correspondent à aucun compte",
    )
    sign_up(client, "Ana")
    client.cookies.clear()
    check(
        asked(client, "POST", "/api/account/signup", json={"name": "ana", "password": PASSWORD}),
        409,
        "the name 'ana' is taken; choose another",
        "der Name 'ana' ist vergeben; wähl einen anderen",
        "le nom 'ana' est déjà pris ; choisis-en un autre",
    )


def test_a_rate_limit_is_told_in_the_readers_language(tmp_path: Path, templates: Templates) -> None:
    url = templates.sqlite(tmp_path / "limited.sqlite3")
    settings = ServerSettings(account_attempts_per_minute=1)
    with TestClient(create_app(url, bot_workers=0, settings=settings)) as client:
        body = {"name": "Nobody", "password": PASSWORD}
        assert client.post("/api/account/login", json=body).status_code == 401
        answers = asked(client, "POST", "/api/account/login", json=body)
    check(
        answers,
        429,
        "too many requests from your address: at most 1 account attempts",
        "zu viele Anfragen von deiner Adresse: höchstens 1 Kontoversuche",
        "trop de demandes depuis ton adresse : au plus 1 tentatives de compte",
    )


# ------------------------------------------------------------------------------ chat
def test_chat_refusals(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"game": "amunre", "seats": [{"kind": "human"}] * 3}
    ).json()
    game_id, token = created["id"], created["seats"][0]["token"]
    check(
        asked(client, "POST", f"/api/games/{game_id}/chat", json={"text": "hello"}),
        403,
        "spectators cannot chat",
        "Zuschauer können nicht chatten",
        "les spectateurs ne peuvent pas discuter",
    )
    check(
        asked(
            client,
            "POST",
            f"/api/games/{game_id}/chat",
            params={"token": token},
            json={"text": "a\u0007b"},
        ),
        422,
        "a chat line cannot hold control characters (found U+0007)",
        "eine Chatzeile darf keine Steuerzeichen enthalten (gefunden: U+0007)",
        "une ligne de discussion ne peut pas contenir de caractères de contrôle (trouvé : U+0007)",
    )


# ------------------------------------------------------------------------------ friends
def test_friend_and_block_refusals(client: TestClient) -> None:
    headers = sign_up(client, "Ana")
    check(
        asked(client, "POST", "/api/friends/requests", json={"name": "Ana"}, headers=headers),
        422,
        "you cannot ask yourself to be your friend",
        "du kannst dich nicht selbst als Freund anfragen",
        "tu ne peux pas te demander toi-même en ami",
    )
    check(
        asked(client, "POST", "/api/friends/requests", json={"name": "Ghost"}, headers=headers),
        404,
        "there is no account named 'Ghost'",
        "es gibt kein Konto namens 'Ghost'",
        "aucun compte ne s'appelle 'Ghost'",
    )
    check(
        asked(client, "POST", "/api/blocks", json={"name": "Ana"}, headers=headers),
        422,
        "you cannot block yourself",
        "du kannst dich nicht selbst blockieren",
        "tu ne peux pas te bloquer toi-même",
    )


# ------------------------------------------------------------------------------ tables
def test_table_refusals(client: TestClient) -> None:
    check(
        asked(client, "GET", "/api/tables/abcdefghijklmnop"),
        404,
        "there is no table with this id",
        "es gibt keinen Tisch mit dieser Kennung",
        "aucune table ne porte cet identifiant",
    )


# ------------------------------------------------------------------------------ moves
def test_move_refusals_keep_their_version(client: TestClient) -> None:
    created = client.post(
        "/api/games", json={"game": "amunre", "seats": [{"kind": "human"}] * 3, "seed": 5}
    ).json()
    game_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"]]
    view = client.get(f"/api/games/{game_id}", params={"token": tokens[0]}).json()
    mover = view["to_move"][0]
    mine = client.get(f"/api/games/{game_id}", params={"token": tokens[mover]}).json()
    legal = mine["legal"][0]["text"]
    url = f"/api/games/{game_id}/actions"
    future = asked(
        client,
        "POST",
        url,
        params={"token": tokens[mover]},
        json={"version": mine["version"] + 7, "action": legal},
    )
    check(
        future,
        400,
        f"version {mine['version'] + 7} does not exist",
        f"Version {mine['version'] + 7} gibt es nicht",
        f"la version {mine['version'] + 7} n'existe pas",
    )
    assert {body["version"] for _, body in future.values()} == {mine["version"]}
    illegal = asked(
        client,
        "POST",
        url,
        params={"token": tokens[mover]},
        json={"version": mine["version"], "action": "bid THEBES 99"},
    )
    check(
        illegal, 422, "is not allowed now", "ist jetzt nicht erlaubt", "n'est pas permis maintenant"
    )
    check(
        asked(client, "GET", f"/api/games/{game_id}/record"),
        409,
        "the record is published when the game is over",
        "die Aufzeichnung wird veröffentlicht, wenn die Partie vorbei ist",
        "l'enregistrement est publié quand la partie est finie",
    )


def test_a_refusal_tells_no_more_in_one_language_than_in_english(client: TestClient) -> None:
    """Games whose hidden cards differ (their seeds) refuse the same moves of the first seat:
    the German and French refusals are a function of the English one, so a translation can
    tell apart no two hidden states the English refusal did not already tell apart."""
    seen: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for game in ("amunre", "aton"):
        for seed in range(4):
            created = client.post(
                "/api/games",
                json={"game": game, "seats": [{"kind": "human"}] * 2, "seed": seed},
            )
            if created.status_code != 201:
                created = client.post(
                    "/api/games",
                    json={"game": game, "seats": [{"kind": "human"}] * 3, "seed": seed},
                )
            game_id = created.json()["id"]
            tokens = [seat["token"] for seat in created.json()["seats"]]
            for token in tokens:
                view = client.get(f"/api/games/{game_id}", params={"token": token}).json()
                for action in ("pass", "bid THEBES 99", "done", "play 1", "buy-cards 9"):
                    answers = asked(
                        client,
                        "POST",
                        f"/api/games/{game_id}/actions",
                        params={"token": token},
                        json={"version": view["version"], "action": action},
                    )
                    statuses = {status for status, _ in answers.values()}
                    assert len(statuses) == 1, answers
                    if statuses == {200}:
                        break  # a move was played: the next seat's view is another one
                    english = answers["en"][1]["error"]
                    for language in ("de", "fr"):
                        seen[language][english].add(answers[language][1]["error"])
    assert seen["de"], "no refusal was met"
    for language, by_english in seen.items():
        for english, translated in by_english.items():
            assert len(translated) == 1, (language, english, translated)

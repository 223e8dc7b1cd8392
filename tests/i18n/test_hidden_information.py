"""The hidden-information tests of the pages, the API and the sockets, in every language.

A translation must not leak either: a word chosen by a hidden fact, a label that differs by
what a seat may not see. Each test below re-deals or changes what a seat may not know and
compares, byte for byte, what that seat (and a spectator) receives; here it runs again with
the browser's language set (the ``karnak_lang`` cookie, which every request and socket of the
client carries) to German, French or the pseudo-locale.

Each check runs in German and in French, the two languages Karnak is translated into (its own
module runs it in English); every third check runs in the pseudo-locale too, which brackets
every translated text, so a text left out of the catalogue is compared there as well.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from server import (
    test_abandonment,
    test_aton_web,
    test_egyptia_web,
    test_live,
    test_profiles,
    test_public_channels,
)

LANGUAGES = ["de", "fr", "xx"]
TESTS: list[Callable[[TestClient], None]] = [
    test_live.test_views_do_not_change_when_hidden_information_does,
    test_aton_web.test_views_do_not_change_when_hidden_information_does,
    test_egyptia_web.test_what_a_builder_receives_does_not_depend_on_a_sealed_column,
    test_egyptia_web.test_views_do_not_change_when_hidden_information_is_redealt,
    test_public_channels.test_private_steps_change_no_public_channel,
    test_profiles.test_re_dealt_hidden_information_changes_no_profile,
    test_abandonment.test_replacing_a_seat_shows_the_others_nothing_hidden,
]


#: Each check in each language, and every third one in the pseudo-locale as well.
CASES = [
    pytest.param(check, language, id=f"{check.__module__}.{check.__name__}-{language}")
    for index, check in enumerate(TESTS)
    for language in (*LANGUAGES[:2], *LANGUAGES[2:] * (index % 3 == 0))
]


def test_every_check_runs_in_every_language() -> None:
    for check in TESTS:
        assert {"de", "fr"} <= {case.values[1] for case in CASES if case.values[0] is check}
    assert sum(case.values[1] == "xx" for case in CASES) >= 2


@pytest.mark.parametrize(("check", "language"), CASES)
def test_hidden_information_in_every_language(
    client: TestClient, language: str, check: Callable[[TestClient], None]
) -> None:
    client.cookies.set("karnak_lang", language)
    # the client's requests are answered in that language (else this test proves nothing)
    page = client.get("/")
    assert re.search(rf'<html lang="{language}">', page.text)
    assert client.get("/api/language").json()["language"] == language
    check(client)

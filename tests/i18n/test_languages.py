"""How a language is chosen: browsers' headers, the environment, a request's sources."""

from __future__ import annotations

import pytest

from karnak.i18n import ENGLISH, current_language, from_environment, negotiate, use_language
from karnak.i18n.languages import MAX_ENTRIES, MAX_HEADER, normalise
from karnak.server.language import choose


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (None, "en"),
        ("", "en"),
        ("de", "de"),
        ("de-AT,de;q=0.9,en;q=0.8", "de"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("en;q=0.5, fr;q=0.9", "fr"),  # ranked by weight, not by order
        ("es, it;q=0.9, de;q=0.1", "de"),  # the unsupported ones are passed over
        ("es, it", "en"),
        ("de;q=0, fr;q=0.2", "fr"),  # q=0: "not this one"
        ("de;q=abc, fr;q=0.1", "fr"),  # a malformed weight counts as 0
        ("de;q=1.5, fr", "fr"),  # a weight above 1 is malformed too
        ("*", "en"),
        ("xx", "en"),  # the pseudo-locale is never negotiated
        ("FR", "fr"),
        ("de_DE", "de"),
        (";;;,,,;q=", "en"),
        ("de, fr", "de"),  # ties keep the header's order
        ("fr, de", "fr"),
    ],
)
def test_accept_language(header: str | None, expected: str) -> None:
    assert negotiate(header) == expected


def test_a_long_header_is_read_only_so_far() -> None:
    # a supported language past the bounds is never reached, and nothing blows up
    assert negotiate("es," * (MAX_ENTRIES + 1) + "de") == "en"
    assert negotiate("x" * (MAX_HEADER + 10) + ",de") == "en"
    assert negotiate(("es;q=0.5," * 2000) + "de") == "en"
    assert negotiate("de," + "\x00\uffff" * 100_000) == "de"


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "fr_FR.UTF-8", "LC_ALL": "de_DE.UTF-8"}, "de"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "POSIX", "LANG": "fr_FR"}, "en"),
        ({"LANGUAGE": "es:fr:de", "LANG": "de_DE"}, "fr"),
        ({"LANGUAGE": "es:it", "LANG": "de_DE"}, "de"),  # LANGUAGE without one: go on
        ({"LANG": "es_ES.UTF-8"}, "en"),
        ({"KARNAK_LANG": "xx", "LANG": "de_DE"}, "xx"),  # the pseudo-locale, explicitly
        ({"KARNAK_LANG": "fr", "LANG": "de_DE"}, "fr"),
        ({"KARNAK_LANG": "klingon", "LANG": "de_DE"}, "de"),
        ({"LC_MESSAGES": "fr_BE@euro"}, "fr"),
    ],
)
def test_environment(environ: dict[str, str], expected: str) -> None:
    assert from_environment(environ) == expected


def test_normalise() -> None:
    assert normalise("de-AT") == "de" and normalise(" fr_CH.UTF-8 ") == "fr"
    assert normalise("xx") is None and normalise("xx", pseudo=True) == "xx"
    assert normalise("") is None and normalise(None) is None and normalise("deu") is None


def test_a_request_chooses_in_order() -> None:
    browser = "fr-FR,fr;q=0.9"
    assert choose(query="de", account="fr", cookie="fr", accept_language=browser) == (
        "de",
        "query",
    )
    assert choose(query="es", account="fr", cookie="de", accept_language=browser) == (
        "fr",
        "account",
    )
    assert choose(account=None, cookie="de", accept_language=browser) == ("de", "cookie")
    assert choose(account="zz", cookie="nonsense", accept_language=browser) == ("fr", "browser")
    assert choose() == ("en", "default")
    assert choose(query="xx") == ("xx", "query")  # translators' and the tests' way in
    assert choose(account="xx", accept_language="de") == ("de", "browser")  # never stored
    assert choose(query="d" * 10_000, cookie="e" * 10_000) == ("en", "default")


def test_the_language_is_per_context() -> None:
    assert current_language() == ENGLISH
    with use_language("de"):
        assert current_language() == "de"
        with use_language("xx"):
            assert current_language() == "xx"
        assert current_language() == "de"
    assert current_language() == ENGLISH
    with pytest.raises(ValueError), use_language("klingon"):
        pass

"""The catalogues: every text of every domain translated into German and French, plural
forms right, and the pseudo-locale bracketing what goes through a catalogue."""

from __future__ import annotations

from pathlib import Path

import pytest

from karnak.i18n import KARNAK, TRANSLATED, Domain, use_language
from karnak.i18n.catalogs import domains, extract, missing

DOMAINS = {domain.name: domain for domain in domains()}

PO = """msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "Place a farmer in {province}"
msgstr "Placer un paysan en {province}"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} carte"
msgstr[1] "{n} cartes"

msgctxt "verb"
msgid "Play"
msgstr "Jouer"

#, fuzzy
msgid "Pass"
msgstr "Passer"
"""


@pytest.fixture
def toy(tmp_path: Path) -> Domain:
    path = tmp_path / "locale" / "fr" / "LC_MESSAGES" / "toy.po"
    path.parent.mkdir(parents=True)
    path.write_text(PO, encoding="utf-8")
    return Domain("toy", tmp_path / "locale")


def test_a_domain_translates_fills_in_and_falls_back(toy: Domain) -> None:
    with use_language("fr"):
        assert toy.t("Place a farmer in {province}", province="Thèbes") == (
            "Placer un paysan en Thèbes"
        )
        assert toy.pgettext("verb", "Play") == "Jouer"
        assert toy.gettext("Pass") == "Pass"  # fuzzy: English until a translator looks
        assert toy.gettext("Unknown") == "Unknown"
        # French: 0 and 1 are singular
        assert [toy.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (0, 1, 2)] == [
            "0 carte",
            "1 carte",
            "2 cartes",
        ]
    with use_language("de"):  # no German catalogue: English, with English plurals
        assert toy.ngettext("{n} card", "{n} cards", 0).format(n=0) == "0 cards"
    with use_language("en"):
        assert toy.ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 card"


def test_the_pseudo_locale_brackets(toy: Domain) -> None:
    with use_language("xx"):
        assert toy.t("Place a farmer in {province}", province="P") == "⟦Place a farmer in P⟧"
        assert toy.ngettext("{n} card", "{n} cards", 2) == "⟦{n} cards⟧"
        assert toy.pgettext("verb", "Play") == "⟦Play⟧"


def test_the_pages_catalogue_for_scripts(toy: Domain) -> None:
    payload = toy.messages("fr")
    assert payload["plural"] == "(n > 1)"
    assert payload["messages"]["{n} card"] == ["{n} carte", "{n} cartes"]
    assert payload["messages"]["verb\x04Play"] == "Jouer"
    assert "Pass" not in payload["messages"]  # fuzzy entries stay English
    assert toy.messages("xx")["messages"] == {} and toy.messages("en")["messages"] == {}


def test_every_game_has_a_domain_and_the_generic_one_is_found() -> None:
    assert DOMAINS["karnak"] is KARNAK
    assert {"amunre", "aton", "egyptia"} <= set(DOMAINS)


def test_extraction_finds_the_sites_scripts_and_pages() -> None:
    found = {
        message.id if isinstance(message.id, str) else message.id[0] for message in extract(KARNAK)
    }
    assert "Log in or sign up" in found  # session.js
    assert "Your account" in found  # account.html
    assert "Language" in found  # language.js


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_every_message_is_translated(name: str, language: str) -> None:
    """The completeness check (``python -m karnak.i18n.catalogs check``): every text of
    every domain has a translation in German and French."""
    absent = missing(DOMAINS[name]).get(language, [])
    assert not absent, f"{len(absent)} untranslated in {name} [{language}], e.g. {absent[:5]}"


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", sorted(DOMAINS))
def test_plural_forms_and_placeholders(name: str, language: str) -> None:
    """Each catalogue declares its plural forms, and every translation keeps the English
    text's placeholders (a translation may reorder them, not rename or drop them)."""
    import re

    from babel.messages.pofile import read_po

    path = DOMAINS[name].po_path(language)
    if not path.is_file():
        pytest.fail(f"{path} is missing: run make messages")
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    assert catalog.num_plurals == 2
    expected = "(n != 1)" if language == "de" else "(n > 1)"
    assert catalog.plural_expr.replace(" ", "") == expected.replace(" ", "")
    names = re.compile(r"\{(\w*)[^{}]*\}")
    for message in catalog:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        wanted = set().union(*(set(names.findall(text)) for text in ids))
        for text in strings:
            if text:
                assert set(names.findall(text)) <= wanted | {"n"}, (message.id, text)

"""How Egyptia's catalogues speak to the player, and how its board names a die.

Karnak speaks to the player familiarly: "tu" in French, "du" in German, in every text of
Egyptia's catalogue (the terminal, the board, the game's script, the guide). A die is
named the way the reader's board games write it: d6 in English and French, W6 in German.
"""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import karnak.games.egyptia as egyptia_package
from karnak.core.registry import get_game
from karnak.games.egyptia import words
from karnak.games.egyptia.web.board import board_svg
from karnak.i18n import use_language

LOCALE = Path(egyptia_package.__file__).parent / "locale"
#: French "vous" address: the pronoun and its possessives.
VOUS = re.compile(r"\b(vous|votre|vos)\b", re.IGNORECASE)
#: A French imperative or present of the "vous" form (choisissez, payez, cliquez-la).
VOUS_VERB = re.compile(r"\b\w{2,}ez\b", re.IGNORECASE)
#: German polite address: capitalised Sie/Ihnen/Ihr... where a sentence does not start
#: (at a sentence's start "Sie"/"Ihr" may be "she/it"/"her/its", so only mid-sentence).
SIE = re.compile(r"(?<![.!?:;(\n]\s)(?<!^)\b(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b")


def translations(language: str) -> list[tuple[str, str]]:
    """(English text, one of its translations) for every translated text of egyptia.po."""
    path = LOCALE / language / "LC_MESSAGES" / "egyptia.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain="egyptia")
    pairs: list[tuple[str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        english = str(message.id[0] if isinstance(message.id, tuple) else message.id)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs.extend((english, str(text)) for text in strings if text)
    return pairs


def test_the_patterns_catch_the_polite_address() -> None:
    """The checks below can fail: they find the forms this catalogue once used."""
    assert VOUS.search("Ce que vous pouvez construire")
    assert VOUS.search("Votre feuille")
    assert VOUS_VERB.search("Choisissez une plaie")
    assert not VOUS.search("Ce que tu peux construire") and not VOUS_VERB.search("choisis")
    assert SIE.search("Wählen Sie eine Spalte")
    assert SIE.search("Das ist Ihre Stadt")
    assert not SIE.search("Sie wertet am Ende jede Stadt.")  # "it", at a sentence's start
    assert not SIE.search("Wähle eine Spalte, sie bleibt geheim")
    assert not SIE.search("Deine Stadt")


def test_french_says_tu() -> None:
    pairs = translations("fr")
    assert len(pairs) > 300
    polite = [(en, fr) for en, fr in pairs if VOUS.search(fr) or VOUS_VERB.search(fr)]
    assert polite == []
    # and it does speak to the player, familiarly
    assert sum(bool(re.search(r"\b(tu|ton|ta|tes|toi)\b", fr, re.I)) for _, fr in pairs) > 30


def test_german_says_du() -> None:
    pairs = translations("de")
    assert len(pairs) > 300
    assert [(en, de) for en, de in pairs if SIE.search(de)] == []
    assert sum(bool(re.search(r"\b(du|dein\w*|dir|dich)\b", de, re.I)) for _, de in pairs) > 30


@pytest.mark.parametrize(("language", "letter"), [("en", "d"), ("fr", "d"), ("de", "W")])
def test_a_die_is_named_the_readers_way(language: str, letter: str) -> None:
    with use_language(language):
        assert words.die(6) == f"{letter}6"
        assert words.die(20) == f"{letter}20"


def board_words(language: str, seed: int) -> list[str]:
    """Every text the board shows a reader: its drawn words and its tooltips."""
    game = get_game("egyptia")
    state = game.new_state(["Ani", "Bek", "Cleo"], seed=seed)
    with use_language(language):
        svg = board_svg(state.game, state.observation(None))
    drawn = re.findall(r">([^<>]+)</text>", svg)
    tips = re.findall(r'data-tip="([^"]*)"', svg)
    return [unescape(text) for text in drawn + tips]


@pytest.mark.parametrize("seed", [1, 4])
def test_the_german_board_writes_w_for_a_die(seed: int) -> None:
    german = board_words("de", seed)
    bare = [text for text in german if re.search(r"\bd\d+\b", text)]
    assert bare == []
    # each die's row head shows its label alone, as drawn text
    labels = {text for text in german if re.fullmatch(r"W\d+", text)}
    assert {"W4", "W6", "W8", "W10", "W12"} <= labels
    assert any(re.search(r"\bW\d+ \d+ \(", text) for text in german)  # a column's dice
    english = board_words("en", seed)
    assert {"d4", "d6", "d8", "d10", "d12"} <= {t for t in english if re.fullmatch(r"d\d+", t)}
    french = board_words("fr", seed)
    assert {"d4", "d6", "d8", "d10", "d12"} <= {t for t in french if re.fullmatch(r"d\d+", t)}

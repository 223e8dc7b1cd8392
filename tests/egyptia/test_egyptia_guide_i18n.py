"""Egyptia's guide and the view's own words (the decision, the phase, the seat's step) in
German and French.

Random games are played out in English and in each language: no sentence of the English
guide or view survives a translated one, and the pseudo-locale brackets every text (none
is left outside the catalogue). Re-dealing what a seat cannot see leaves its guide and its
view's words the same in every language.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from karnak.core import Rng
from karnak.core.registry import get_game
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.web.guide import guide
from karnak.i18n import PSEUDO, use_language
from support.egyptia_positions import random_positions

GAME = get_game("egyptia")
#: Builders at a table, and the seed of the random game they play.
GAMES = [(1, 3), (2, 5), (3, 7), (4, 2)]
#: Words that are not texts: builder names, hexes (A1), dice (d6, d20) and figures.
NOT_TEXT = re.compile(r"^(Builder\d+|[A-Z]\d*|d\d+(=\d+)?|[+-]?\d+)$")
#: Pieces of English that must not be left inside a translated text.
ENGLISH = (
    " the ",
    " you ",
    " your ",
    " each ",
    " column",
    " ship ",
    " on hand",
    " favor ",
    " grain",
    " builder ",
    " score if",
    "Waiting",
    "Choose",
)


def positions(players: int, seed: int, every: int = 2) -> list[tuple[EgyptiaState, int]]:
    """(state, a seat to move) along a random game (tests/support/egyptia_positions.py)."""
    return random_positions(players, seed, every)


def texts(found: dict[str, Any]) -> list[str]:
    out = [found["task"], found["next"]]
    for phase in found["phases"]:
        out += [phase["name"], phase["text"]]
    for item in found["explain"]:
        out += [item["title"], *item["lines"]]
    return [text for text in out if text]


def view_texts(view: dict[str, Any]) -> list[str]:
    """The view's own words: the decision, the phase and the seat's step."""
    out = [view["decision"], view["phase_name"]]
    if "you" in view:
        out.append(view["you"]["stage_name"])
    return out


def seen_texts(state: EgyptiaState, seat: int | None, language: str) -> list[str]:
    """What the seat reads of the guide and the view, in ``language``."""
    legal = state.legal_actions(seat) if seat is not None and not state.is_over() else []
    with use_language(language):
        view = state.observation(seat)
        return texts(guide(state.game, view, seat, legal)) + view_texts(dict(view))


def untranslated(text: str) -> list[str]:
    """The words of ``text`` outside every ``⟦…⟧`` that are texts (two letters or more,
    not a name, a hex, a die or a figure)."""
    outside: list[str] = []
    depth = 0
    for char in text:
        if char == "⟦":
            depth += 1
            outside.append(" ")
        elif char == "⟧":
            depth -= 1
            outside.append(" ")
        elif depth == 0:
            outside.append(char)
    found = []
    for word in "".join(outside).split():
        bare = word.strip("()[]{},.;:·|*~/\\-+…→")
        if re.search(r"[A-Za-z]{2}", bare) and not NOT_TEXT.match(bare):
            found.append(word)
    return found


def test_the_check_sees_an_english_text() -> None:
    assert untranslated("⟦Pay ⟦2 grain⟧: leaves⟧ B2 d20 +3 → 5 Builder2") == []
    assert untranslated("⟦Pay⟧ 2 grain: leaves") == ["grain:", "leaves"]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_english_sentence_survives_in_the_guide_or_the_view(language: str) -> None:
    checked = 0
    for players, seed in GAMES:
        for state, seat in positions(players, seed)[::3]:
            for who in (None, seat):
                english = seen_texts(state, who, "en")
                translated = seen_texts(state, who, language)
                assert len(translated) == len(english)
                for text in english:
                    if len(re.findall(r"[A-Za-z]{3,}", text)) >= 3:
                        assert text not in translated, text
                        checked += 1
                for text in translated:
                    for phrase in ENGLISH:
                        assert phrase not in text, (phrase, text)
    assert checked > 1000


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_pseudo_locale_brackets_every_guide_and_view_text(players: int, seed: int) -> None:
    checked = 0
    for state, seat in positions(players, seed):
        for who in (None, seat):
            for text in seen_texts(state, who, PSEUDO):
                assert text.startswith("⟦"), text
                assert untranslated(text) == [], text
                checked += 1
    assert checked > 200


def test_the_guide_speaks_german_and_french_with_the_sheets_figures() -> None:
    state = GAME.new_state(["Builder1", "Builder2"], seed=4)
    assert isinstance(state, EgyptiaState)
    with use_language("de"):
        found = guide(state.game, state.observation(0), 0, state.legal_actions(0))
        roll = found["phases"][0]["text"]
        assert roll.startswith("Die 6 Würfel werden geworfen.") and "1 Gunst mehr" in roll
        assert found["phases"][1]["name"] == "Wähle eine Spalte (verdeckt)"
        assert found["task"] == "Wähle eine Spalte (verdeckt)"
        assert found["explain"][0]["title"] == "Was dir jede Spalte bringt"
        assert state.observation(0)["phase_name"] == "Spaltenwahl"
    with use_language("fr"):
        found = guide(state.game, state.observation(0), 0, state.legal_actions(0))
        assert found["task"] == "Choisis une colonne (en secret)"
        assert found["phases"][-1]["name"] == "Décompte final"
        lines = found["explain"][0]["lines"]
        assert lines[0].startswith(("Blé : ", "Blé :")) and " ; " in lines[0]
        assert state.observation(0)["phase_name"] == "choix des colonnes"
    with use_language("en"):
        assert state.observation(0)["phase_name"] == "choosing columns"


def test_waiting_builders_are_counted_in_each_language() -> None:
    state = GAME.new_state(["Builder1", "Builder2", "Builder3"], seed=1)
    assert isinstance(state, EgyptiaState)
    expected = {
        "en": ("Waiting for 3 builders", "Waiting for 1 builder to"),
        "de": ("Noch 3 Baumeister wählen", "Noch 1 Baumeister wählt"),
        "fr": ("En attente de 3 bâtisseurs", "En attente de 1 bâtisseur qui"),
    }
    for language, (many, _one) in expected.items():
        with use_language(language):
            assert state.observation(None)["decision"].startswith(many)
    for seat in (0, 1):
        state.apply(seat, state.legal_actions(seat)[0])
    for language, (_many, one) in expected.items():
        with use_language(language):
            assert state.observation(None)["decision"].startswith(one)


@pytest.mark.parametrize("language", ["de", "fr"])
def test_guide_and_view_read_only_what_the_seat_sees_in_every_language(language: str) -> None:
    """Re-deal everything a builder cannot see (the engine's resample: the others' sealed
    columns and private steps, future rolls): its guide and its view's words stay the same
    text, in German and French."""
    checked = 0
    for state, seat in positions(3, 11, every=3):
        if state.is_over():
            continue
        before = seen_texts(state, seat, language)
        for k in range(2):
            world = state.resample(seat, Rng(k))
            assert isinstance(world, EgyptiaState)
            assert seen_texts(world, seat, language) == before
            checked += 1
    assert checked > 30

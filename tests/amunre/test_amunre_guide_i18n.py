"""Amun-Re's guide, figures and composed log lines in German and French.

The guide is played out over random games in English and in each language: no sentence of
the English guide survives a translated one, and the pseudo-locale brackets every text (none
is left outside the catalogue). The log's composed arguments (the offerings of a reveal, the
lines of a scoring, the cards of a bid, a list of provinces, the result) read in the language,
from the English the rules stored (old logs included).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from karnak.core import Rng
from karnak.games.amunre import GAME
from karnak.games.amunre.i18n import DOMAIN
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.amunre.terminal import AmunReRenderer
from karnak.games.amunre.web.guide import guide
from karnak.i18n import use_language


def positions(seed: int, players: int = 4, **options: Any) -> list[tuple[AmunReState, int]]:
    """Copies of one random game at every step, with the seat to move."""
    state = GAME.new_state(
        [f"P{i}" for i in range(players)], seed=seed, options=GAME.resolve_options(options)
    )
    assert isinstance(state, AmunReState)
    rng = random.Random(seed)
    seen = []
    while not state.is_over():
        seat = state.to_move()[0]
        seen.append((state.clone(), seat))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    seen.append((state, 0))
    return seen


def texts(g: dict[str, Any]) -> list[str]:
    out = [g["task"], g["next"]]
    for phase in g["phases"]:
        out += [phase["name"], phase["text"]]
    for item in g["explain"]:
        out += [item["title"], *item["lines"]]
    return [text for text in out if text]


def guide_texts(state: AmunReState, seat: int | None, language: str) -> list[str]:
    legal = state.legal_actions(seat) if seat is not None and not state.is_over() else []
    with use_language(language):
        return texts(guide(state.game, state.observation(seat), seat, legal))


GAMES = [(3, {}), (4, {"expert_provinces": True}), (5, {})]


@pytest.mark.parametrize("language", ["de", "fr"])
def test_no_english_sentence_survives_in_the_guide(language: str) -> None:
    checked = 0
    for seed, (players, options) in enumerate(GAMES):
        for state, seat in positions(seed, players, **options)[::3]:
            for who in (None, seat):
                english = guide_texts(state, who, "en")
                translated = set(guide_texts(state, who, language))
                for text in english:
                    words = re.findall(r"[A-Za-z]{3,}", text)
                    if len(words) >= 4:
                        assert text not in translated, text
                        checked += 1
                for text in translated:
                    # no English sentence fragment left inside a translated line
                    for phrase in (" the ", " you ", " your ", " gold per farmer", " each "):
                        assert phrase not in text, text
    assert checked > 500


def test_the_pseudo_locale_brackets_every_guide_text() -> None:
    checked = 0
    for state, seat in positions(1, 4, expert_provinces=True)[::2]:
        for who in (None, seat):
            for text in guide_texts(state, who, "xx"):
                assert "⟦" in text, text
                checked += 1
    assert checked > 200


@pytest.mark.parametrize("language", ["de", "fr"])
def test_guide_reads_only_what_the_seat_sees_in_every_language(language: str) -> None:
    """Two games that differ only in what a seat cannot see (the deck order, others' hands)
    give that seat the same guide, translated too."""
    from support.amunre_hidden import redeal_hidden

    for state, seat in positions(7, 4)[::5]:
        if state.is_over():
            continue
        other = redeal_hidden(state, seat, Rng(1))
        for _ in range(2):
            assert guide_texts(state, seat, language) == guide_texts(other, seat, language)


# ---------------------------------------------------------------------------- the log
def line(template: str, language: str, **args: Any) -> str:
    with use_language(language):
        return DOMAIN.event_text(template, args)


def test_composed_log_arguments_read_in_german() -> None:
    parts = (
        "Ana 4 gold and 2 power card(s) (builder, 8 gold) with a correction card, "
        "Bo the theft card (-3), Cy 0 gold"
    )
    text = line("Offerings revealed: {parts}; the total is {total}.", "de", parts=parts, total=3)
    assert text == (
        "Die Opfer werden aufgedeckt: Ana: 4 Gold und 2 Machtkarte(n) ("
        + line("{card}", "de", card="builder")
        + ", "
        + line("{card}", "de", card="8 gold")
        + ") mit einer Korrekturkarte, Bo: die Diebstahlkarte (-3), Cy: 0 Gold; die Summe ist 3."
    )
    detail = "pyramids 3, west bank 5, gold ranking 2"
    text = line(
        "Scoring: {player} scores {total} ({detail}); {score} in all.",
        "de",
        player="Ana",
        total=10,
        detail=detail,
        score=20,
    )
    assert "Pyramiden 3, Westufer 5, Goldwertung 2" in text and "pyramids" not in text
    text = line(
        "{player} bids {amount} on {province}{extra}.",
        "de",
        player="Ana",
        amount=3,
        province="THEBES",
        extra=" playing bidding blockade and overbid in same province",
    )
    assert text.startswith("Ana bietet 3 auf THEBEN mit ") and "playing" not in text
    assert " und " in text
    text = line("{player} is dealt {provinces}.", "de", player="Ana", provinces="THEBES, EDFU")
    assert text == "Ana erhält THEBEN, EDFU."
    assert line("The game ends. {result}", "de", result="Ana wins.") == (
        "Die Partie ist zu Ende. Ana gewinnt."
    )
    assert line("The game ends. {result}", "fr", result="Shared victory: Ana, Bo.") == (
        "La partie est terminée. Victoire partagée : Ana, Bo."
    )


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_log_line_of_a_game_reads_in_the_language(language: str) -> None:
    english_words = (" gold and ", "theft card", "pyramids ", " bank ", " playing ", " wins.")
    lines = 0
    for seed, (players, options) in enumerate(GAMES):
        state = positions(seed, players, **options)[-1][0]
        for event in state.log.events:
            text = line(event.template, language, **event.args)
            for word in english_words:
                assert word not in text, text
            lines += 1
    assert lines > 100


def test_a_name_that_does_not_read_as_an_offering_is_shown_as_written() -> None:
    assert line("Offerings revealed: {parts}; the total is {total}.", "de", parts="??", total=1)
    assert "??" in line(
        "Offerings revealed: {parts}; the total is {total}.", "de", parts="??", total=1
    )


# ---------------------------------------------------------------------------- the figures
@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_figures_view_speaks_the_language(language: str) -> None:
    from rich.console import Console

    console = Console(record=True, width=160)
    with use_language(language):
        for part in AmunReRenderer().figures(GAME):
            console.print(part)
    out = console.export_text()
    for english in ("Constants (printed)", "bid spaces", "What it does", "2003 name", "upper"):
        assert english not in out

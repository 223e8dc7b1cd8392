"""Aton in German and French: the log's game words, the move labels in a player's words, and
no text of the package outside the catalogue (the pseudo-locale brackets every one)."""

from __future__ import annotations

import re

import pytest

from karnak.core import Rng
from karnak.games.aton import GAME
from karnak.games.aton.i18n import DOMAIN
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.state import AtonState
from karnak.games.aton.terminal import AtonRenderer
from karnak.games.aton.web import board as web_board
from karnak.games.aton.web import guide as web_guide
from karnak.i18n import use_language

#: English words of the game that must not show through a German or French line.
ENGLISH = {
    "de": ("Kingdom", "temple", "square", "counter", " scores ", "'s", "yellow", "every "),
    "fr": ("Kingdom", "square", "counter", " scores ", "'s", "yellow", "green", "every "),
}


def played(seed: int) -> AtonState:
    state = GAME.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    while not state.is_over():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


@pytest.mark.parametrize("language", ["de", "fr"])
def test_every_log_line_reads_in_the_language_game_words_included(language: str) -> None:
    seen = 0
    for seed in range(6):
        state = played(seed)
        with use_language(language):
            for event in state.log:
                line = DOMAIN.event_text(event.template, event.args)
                english = template_english(event.template, event.args)
                assert line != english or not re.search(r"[a-z]{4}", english), line
                for word in ENGLISH[language]:
                    assert word not in line, (word, line)
                seen += 1
    assert seen > 500


def template_english(template: str, args: dict[str, object]) -> str:
    return template.format(**args)


def test_the_log_keeps_names_and_says_whose_counter() -> None:
    template = "{by} sends {whose} counter from {where} to the Kingdom of the Dead."
    args = {"by": "Red", "whose": "Blue's", "where": "temple 2 square 5"}
    with use_language("de"):
        assert DOMAIN.event_text(template, args) == (
            "Red schickt einen Stein von Blue aus Tempel 2, Feld 5 ins Totenreich."
        )
    with use_language("fr"):
        line = DOMAIN.event_text(template, args)
        assert "Blue" in line and "Royaume des Morts" in line and "temple 2, case 5" in line
    reason = {"who": "Red", "reason": "every square of temple 3"}
    with use_language("de"):
        assert DOMAIN.event_text("{who} wins at once: {reason}.", reason) == (
            "Red gewinnt sofort: alle Felder von Tempel 3."
        )
    with use_language("en"):
        assert DOMAIN.event_text(template, args) == (
            "Red sends Blue's counter from temple 2 square 5 to the Kingdom of the Dead."
        )


def test_move_buttons_say_what_they_do() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=6)
    labels = web_board.page_data(GAME, state.observation(0), 0, state.legal_actions(0))["labels"]
    legal = state.legal_actions(0)
    for action, label in zip(legal, labels, strict=True):
        if isinstance(action, Exchange):
            assert label == "Exchange your four cards for four new ones (once a game)"
        else:
            assert isinstance(action, Allocate)
            assert label == f"Lay out {' '.join(map(str, action.cards))} on cartouches 1 to 4"
    rng = Rng(6)
    kinds: set[type] = set()
    while not state.is_over() and len(kinds) < 2:
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(seat)
        if legal and isinstance(legal[0], Remove | Place) and state.phase != "cleanup":
            labels = web_board.page_data(GAME, state.observation(seat), seat, legal)["labels"]
            for action, label in zip(legal, labels, strict=True):
                assert action.to_text() not in label  # never the engine's "place 1.3"
                where = f"temple {action.temple}, square {action.square} ("
                if isinstance(action, Place):
                    assert label.startswith(f"Place a counter on {where}")
                else:
                    assert label.startswith("Remove ") and where in label
                kinds.add(type(action))
        state.apply(seat, legal[rng.below(len(legal))])
    assert kinds == {Remove, Place}
    with use_language("de"):
        assert (
            web_board.move_label(GAME.board, state.observation(0), 0, Place(2, 4))
            == "Einen Stein auf Tempel 2, Feld 4 (grün) setzen"
        )


BRACKETED = re.compile(r"^⟦.*⟧$", re.S)
TIP = re.compile(r'data-tip="([^"]*)"')


def test_the_pseudo_locale_finds_no_text_outside_the_catalogue() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=4)
    rng = Rng(4)
    for _step in range(60):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        with use_language("xx"):
            view, public = state.observation(seat), state.observation(None)
            svg = web_board.board_svg(GAME, public)
            assert all(BRACKETED.match(tip) for tip in TIP.findall(svg))
            page = web_board.page_data(GAME, view, seat, legal)
            for text in (*page["labels"], *page["hints"], *page["about_figures"]):
                assert BRACKETED.match(text), text
            guide = web_guide.guide(GAME, view, seat, legal)
            for item in guide["explain"]:
                assert BRACKETED.match(item["title"])
                assert all(BRACKETED.match(line) for line in item["lines"])
            for key in ("task", "next"):
                assert guide[key] is None or BRACKETED.match(guide[key])
            assert BRACKETED.match(view["decision"]) and BRACKETED.match(view["phase_name"])
            assert BRACKETED.match(AtonRenderer().decision(GAME, view))
        state.apply(seat, legal[rng.below(len(legal))])

"""Amun-Re's page in a player's words: every move button has a label in plain words (the
engine's text stays what is sent), rewards carry a hint, the board's counters are labelled,
and notes about where the figures come from live in "About these figures", not in the play
tooltips; in German and French too."""

from __future__ import annotations

import re

from karnak.core import Rng
from karnak.core.registry import get_game
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.amunre.web.board import board_svg, page_data
from karnak.i18n import use_language

GAME = get_game("amunre")
ENGINE_SYNTAX = re.compile(r"buy-cards|free-farmer|eight-gold|harvest-increase|_|\b[A-Z]{3,}\b")


def market_state() -> AmunReState:
    state = GAME.new_state(["Ana", "Bo", "Cy", "Di"], seed=5)
    assert isinstance(state, AmunReState)
    for text in ("bid THEBES 3", "bid THEBES 6", "bid EDFU 0", "bid BAHARYA 1", "bid BERENIKE 0"):
        state.apply(state.to_move()[0], GAME.parse_action(text))
    assert state.phase == "market"
    return state


def data_for(state: AmunReState, seat: int) -> dict:
    legal = state.legal_actions(seat)
    return page_data(GAME, state.observation(seat), seat, legal)


def test_market_buttons_say_what_they_do() -> None:
    state = market_state()
    seat = state.to_move()[0]
    data = data_for(state, seat)
    legal = state.legal_actions(seat)
    assert len(data["labels"]) == len(data["groups"]) == len(legal)
    labels = dict(zip((a.to_text() for a in legal), data["labels"], strict=True))
    assert labels["buy-cards 1"] == "Buy 1 power card (1 gold)"
    assert labels["done"] == "End your market turn"
    owned = state.observation(seat)["players"][seat]["provinces"][0]
    assert labels[f"stone {owned}"] == f"Place a stone in {owned.title()} (1 gold)"
    for label in data["labels"]:
        assert not ENGINE_SYNTAX.search(label), label


def test_every_move_of_random_games_has_plain_words_and_rewards_a_hint() -> None:
    rewards = 0
    for seed in range(6):
        state = GAME.new_state(["Ana", "Bo", "Cy", "Di"], seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            seat = state.to_move()[0]
            legal = state.legal_actions(seat)
            data = data_for(state, seat)
            for action, label, hint in zip(legal, data["labels"], data["hints"], strict=True):
                assert label and label != action.to_text(), label
                assert not ENGINE_SYNTAX.search(label), label
                if isinstance(action, A.TakeCard | A.TakeFarmer | A.TakeStone):
                    assert hint, action
                    rewards += 1
            state.apply(seat, legal[rng.below(len(legal))])
    assert rewards > 10


def test_counters_are_labelled_and_figures_notes_are_not_in_play_tooltips() -> None:
    state = market_state()
    svg = board_svg(GAME, state.observation(None))
    assert "Reconstructed" not in svg and "not printed" not in svg
    for word in ("farmers", "stones", "pyramids"):
        assert f'class="tiny piece-label">{word}</text>' in svg
    about = data_for(state, 0)["about_figures"]
    assert "reconstructed" in about["note"]
    assert any(p["reconstructed"] for p in about["provinces"])


def test_the_words_in_german_and_french() -> None:
    state = market_state()
    seat = state.to_move()[0]
    with use_language("de"):
        data = data_for(state, seat)
        assert "1 Machtkarte kaufen (1 Gold)" in data["labels"]
        assert "Marktzug beenden" in data["labels"]
        svg = board_svg(GAME, state.observation(None))
        assert "Theben" in svg and ">Bauern</text>" in svg
    with use_language("fr"):
        data = data_for(state, seat)
        assert "Acheter 1 carte de pouvoir (1 or)" in data["labels"]
        assert "Thèbes" in board_svg(GAME, state.observation(None))
        assert data["card_names"]["builder"] == "bâtisseur"
    with use_language("fr"):
        game = GAME.new_state(
            ["A", "B", "C"], seed=1, options=GAME.resolve_options({"edition": "2016"})
        )
        obs = game.observation(0)
        assert page_data(GAME, obs, 0, [])["card_names"]["builder"] == "Architecte"

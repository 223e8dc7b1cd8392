"""Egyptia's terminal in the reader's language: with the pseudo-locale every text of the
full status screen, the final scoring and the sheet's figures comes from the catalogue
(bracketed ``⟦…⟧``; only names, numbers and symbols are not), and in German and French a
seat's status screen and hints stay the same when what it cannot see is re-dealt."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console, RenderableType

from karnak.core import Rng
from karnak.core.registry import get_game
from karnak.core.terminal import confidence_legend
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.terminal import BUILDING_LOOK, EgyptiaRenderer
from karnak.i18n import PSEUDO, use_language
from support.egyptia_positions import random_positions

RENDERER = EgyptiaRenderer()
GAME = get_game("egyptia")
#: Words that are not texts: builder names, hexes (A1), the map's building codes (PYR), the
#: dice (d6=3, d20), resources in short (1g+2d, +1f, g/d/s/f) and card letters.
NOT_TEXT = re.compile(
    r"^(Builder\d+|[A-Z]\d*|d\d+(=\d+)?|[+-]?\d*[gdsf]([+/]\d*[gdsf])*|x?"
    + "|".join(code for code, _style in BUILDING_LOOK.values())
    + r")$"
)


def printed(parts: list[RenderableType], width: int = 200) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), color_system=None)
    for part in parts:
        console.print(part)
    return console.export_text()


def figures() -> str:
    """The sheet's figures less the generic legend of the confidence marks (the core's
    words, not the game's; the game's own sentence in it is checked)."""
    text = printed(RENDERER.figures(GAME))
    for line in printed([confidence_legend("egyptia", "")]).splitlines():
        if line.strip():
            text = text.replace(line.rstrip(), "")
    return text


def untranslated(text: str) -> list[str]:
    """The words of ``text`` outside every ``⟦…⟧`` (a bracket may wrap over lines) that
    are texts: two letters or more, not a name, a hex, a code or a symbol."""
    outside: list[str] = []
    depth = 0
    for char in text:
        if char == "⟦":
            depth += 1
            outside.append(" ")
        elif char == "⟧":
            depth -= 1
            outside.append(" ")
        elif depth == 0 or char == "\n":
            outside.append(char)
    found = []
    for word in "".join(outside).split():
        bare = word.strip("()[]{},.;:·|*~/\\-+…")
        if re.search(r"[A-Za-z]{2}", bare) and not NOT_TEXT.match(bare):
            found.append(word)
    return found


def positions(players: int, seed: int, every: int = 3) -> list[tuple[EgyptiaState, int]]:
    """(state, a seat to move) along a random game (tests/support/egyptia_positions.py)."""
    return random_positions(players, seed, every)


def test_the_check_sees_an_english_text() -> None:
    """The check itself: English words outside brackets are found, names and symbols not."""
    assert untranslated("⟦Round 3⟧ · Builder2: ⟦choosing⟧ PYR A1 d6=3 1g+2d") == []
    assert untranslated("⟦Round 3⟧ · Builder2: choosing a column") == ["choosing", "column"]
    english = printed(RENDERER.figures(GAME))
    assert "Confidence" in english and len(untranslated(english)) > 20


@pytest.mark.parametrize(("players", "seed"), [(1, 3), (2, 5), (3, 7), (12, 2)])
def test_every_text_of_the_screens_is_translated(players: int, seed: int) -> None:
    with use_language(PSEUDO):
        shown = [figures()]
        for state, seat in positions(players, seed):
            view = state.observation(seat)
            shown.append(printed(RENDERER.status(GAME, view, seat)))
            for action in state.legal_actions(seat) if not state.is_over() else []:
                hint = RENDERER.action_hint(GAME, view, seat, action)
                assert not hint or hint.startswith(("⟦", "+⟦", "0", "1", "2", "3", "4")), hint
        final = state.observation(None)
        shown.append(printed(RENDERER.final(GAME, final)))
        for s in range(players):
            shown.append(printed(RENDERER.final_for(GAME, state.observation(s), s)))
    for text in shown:
        assert "⟦" in text
        assert untranslated(text) == [], text


@pytest.mark.parametrize("language", ["de", "fr"])
def test_the_status_screen_does_not_change_when_hidden_facts_are_redealt(language: str) -> None:
    """For each builder through whole games: re-deal everything it cannot see (the
    engine's resample: the others' sealed columns and private steps, future rolls); its
    status screen and the hints of its moves stay the same text, in German and French."""
    checked = differed = step = 0
    with use_language(language):
        state = GAME.new_state(["Builder1", "Builder2", "Builder3"], seed=1)
        assert isinstance(state, EgyptiaState)
        rng = Rng(11)
        while not state.is_over():
            seat = step % 3
            if step % 4 == 0:
                view = state.observation(seat)
                screen = printed(RENDERER.status(GAME, view, seat), 100)
                hints = [
                    RENDERER.action_hint(GAME, view, seat, a) for a in state.legal_actions(seat)
                ]
                world = state.resample(seat, Rng(step))
                seen = world.observation(seat)
                assert printed(RENDERER.status(GAME, seen, seat), 100) == screen
                assert [
                    RENDERER.action_hint(GAME, seen, seat, a) for a in world.legal_actions(seat)
                ] == hints
                others = [s for s in range(3) if s != seat]
                differed += any(world.observation(s) != state.observation(s) for s in others)
                checked += 1
            movers = state.to_move()
            mover = movers[rng.below(len(movers))]
            legal = state.legal_actions(mover)
            state.apply(mover, legal[rng.below(len(legal))])
            step += 1
    assert checked > 20
    assert differed > 5  # the re-deal really changed what the others see

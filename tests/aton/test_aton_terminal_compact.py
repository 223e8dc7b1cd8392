"""Aton in the terminal at 80x24 and 120x40 (Rich's recording console): the compact screen
fits with the prompt and the moves, prose wraps between words, no table header is cut,
and the prompt says what is true for the reader."""

from __future__ import annotations

import pytest

from karnak.core import Rng
from karnak.games.aton import GAME
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.state import AtonState
from karnak.games.aton.terminal import AtonRenderer
from karnak.i18n import use_language
from support.terminal_text import printed, words

RED, BLUE = 0, 1
RENDERER = AtonRenderer()
#: The most lines the compact screen may take: 24 less the prompt, the decision line, a
#: blank line and room for the numbered moves (grouped where they are many).
COMPACT_LINES = 14


#: Table rules and padding: not words.
def states(seed: int, every: int = 3) -> list[AtonState]:
    """Positions of a random game (each phase comes up), the half-sealed step included."""
    state = GAME.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    seen = [state.clone()]
    step = 0
    while not state.is_over():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        step += 1
        if step % every == 0:
            seen.append(state.clone())
    return seen


def seats_to_draw(state: AtonState) -> list[int]:
    return list(state.to_move()) or [RED]


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_the_compact_screen_fits_and_wraps_between_words(
    language: str, width: int, height: int
) -> None:
    phases: set[str] = set()
    with use_language(language):
        for state in states(5)[:80]:
            for seat in seats_to_draw(state):
                view = state.observation(seat)
                parts = RENDERER.compact(GAME, view, seat)
                text = printed(parts, width, height)
                lines = text.rstrip("\n").split("\n")
                assert len(lines) <= COMPACT_LINES, text
                assert all(len(line) <= width for line in lines)
                # every word printed at this width is a whole word of the unwrapped text
                assert words(text) <= words(printed(parts, 1000)), text
                phases.add(state.phase)
    assert {"allocate", "remove", "place"} <= phases


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_full_board_at_80_columns_cuts_no_header_and_no_word(language: str) -> None:
    with use_language(language):
        for state in states(9, every=7)[:25]:
            for seat in seats_to_draw(state):
                view = state.observation(seat)
                parts = RENDERER.status(GAME, view, seat)
                text = printed(parts, 80)
                assert "…" not in text, text
                assert all(len(line) <= 80 for line in text.split("\n"))
                assert words(text) <= words(printed(parts, 1000)), text
                help_text = printed(list(RENDERER.help_lines()), 80)
                assert words(help_text) <= words(printed(list(RENDERER.help_lines()), 1000))


def test_the_prompt_says_what_is_true_for_the_reader() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=2)
    red = RENDERER.decision(GAME, state.observation(RED))
    assert "Waiting for Red" not in red and "Red," not in red
    assert red.startswith("Lay out your four cards") and "Blue is choosing too" in red
    spectator = RENDERER.decision(GAME, state.observation(None))
    assert spectator == (
        "Waiting for Red and Blue to lay out their cards on the cartouches (sealed)."
    )
    hand = state.hands[RED]
    state.apply(RED, Allocate((hand[0], hand[1], hand[2], hand[3])))
    assert RENDERER.decision(GAME, state.observation(RED)) == (
        "Your cards are laid face down; waiting for Blue to lay out theirs."
    )
    blue = RENDERER.decision(GAME, state.observation(BLUE))
    assert blue.startswith("Lay out your four cards") and "Red has laid theirs" in blue


def test_the_compact_screen_shows_what_the_decision_needs() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=2)
    text = printed(RENDERER.compact(GAME, state.observation(RED), RED), 80)
    hand = " ".join(map(str, sorted(state.hands[RED])))
    assert f"Your cards (Red): {hand}" in text
    assert "Kingdom of the Dead (0 of 8)" in text
    assert "Red (you): 0 points" in text and "exchange available" in text
    assert text.count("R 0 : 0 B") == 4  # one line a temple
    # the other priest's hand is never in it
    assert "Your cards (Blue)" not in text


def test_long_move_lists_come_in_groups() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=2)
    legal = state.legal_actions(RED)
    groups = RENDERER.move_groups(GAME, state.observation(RED), RED, legal)
    indices = [i for _, members in groups for i in members]
    assert sorted(indices) == list(range(len(legal)))
    for heading, members in groups:
        kinds = {type(legal[i]) for i in members}
        assert len(kinds) == 1
        if kinds == {Allocate}:
            first = {legal[i].cards[0] for i in members}  # type: ignore[attr-defined]
            assert heading == f"Lay-outs with a {first.pop()} on cartouche 1"
        else:
            assert kinds == {Exchange}
    # squares by temple
    for later in states(3):
        seat = later.to_move()[0] if later.to_move() else RED
        moves = later.legal_actions(seat)
        if moves and isinstance(moves[0], Remove | Place):
            groups = RENDERER.move_groups(GAME, later.observation(seat), seat, moves)
            for heading, members in groups:
                temples = {moves[i].temple for i in members}  # type: ignore[attr-defined]
                assert heading == f"Temple {temples.pop()}" and not temples
            return
    raise AssertionError("no removal or placement came up")

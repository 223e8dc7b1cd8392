"""Amun-Re in the terminal at 80x24 and 120x40 (Rich's recording console): the compact screen
fits with the prompt and the moves, prose wraps between words, no table header is cut, long
move lists come in groups, and the seat's own hand is shown to it alone."""

from __future__ import annotations

import pytest

from karnak.core import Rng
from karnak.core.registry import get_game
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.amunre.terminal import AmunReRenderer
from karnak.i18n import use_language
from support.terminal_text import printed, words

RENDERER = AmunReRenderer()
GAME = get_game("amunre")
NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]
#: The most lines the compact screen may take: 24 less the prompt, the decision line, a
#: blank line and room for the numbered moves (grouped where they are many).
COMPACT_LINES = 14


#: Table rules and padding: not words.
def states(players: int, seed: int, every: int = 5, **options: object) -> list[AmunReState]:
    """Positions of a random game (each phase comes up)."""
    state = GAME.new_state(NAMES[:players], seed=seed, options=GAME.resolve_options(options))
    assert isinstance(state, AmunReState)
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


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
def test_the_compact_screen_fits_and_wraps_between_words(
    language: str, width: int, height: int
) -> None:
    phases: set[str] = set()
    tallest = 0
    with use_language(language):
        for players, seed, options in ((5, 3, {}), (3, 4, {"edition": "2016"})):
            for state in states(players, seed, **options):
                for seat in list(state.to_move()) or [0]:
                    parts = RENDERER.compact(GAME, state.observation(seat), seat)
                    text = printed(parts, width, height)
                    lines = text.rstrip("\n").split("\n")
                    tallest = max(tallest, len(lines))
                    assert len(lines) <= COMPACT_LINES, text
                    assert all(len(line) <= width for line in lines)
                    # every word printed at this width is a whole word of the unwrapped text
                    assert words(text) <= words(printed(parts, 1000)), text
                    phases.add(state.phase)
    assert {"auction", "market", "offering", "rewards", "harvest"} <= phases
    assert tallest >= 5


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_full_board_at_80_columns_cuts_no_header_and_no_word(language: str) -> None:
    with use_language(language):
        for state in states(5, 8, every=23):
            for seat in list(state.to_move())[:1] or [0]:
                parts = RENDERER.status(GAME, state.observation(seat), seat)
                text = printed(parts, 80)
                assert "…" not in text, text
                assert all(len(line) <= 80 for line in text.split("\n"))
                assert words(text) <= words(printed(parts, 1000)), text


def test_the_compact_screen_shows_what_the_decision_needs() -> None:
    state = states(4, 5, every=1)[0]
    seat = state.to_move()[0]
    text = printed(RENDERER.compact(GAME, state.observation(seat), seat), 80)
    assert "Round 1 of 6" in text
    # every province on auction with its figures, every player with gold and cards
    for entry in state.observation(None)["provinces"]:
        if entry["on_auction"]:
            assert entry["name"].title() + ":" in text
    for name in NAMES[:4]:
        assert name in text
    assert f"{NAMES[seat]} (you)" in text
    hand = state.observation(seat)["you"]["hand"]
    assert "Your hand:" in text and ("Builder" in text or "builder" in text) == bool(
        hand.get("builder")
    )
    # at the harvest the seat's provinces show what stands on them
    for later in states(4, 5, every=1):
        if later.phase == "harvest":
            mover = later.current
            shown = printed(RENDERER.compact(GAME, later.observation(mover), mover), 80)
            for name in later.observation(mover)["players"][mover]["provinces"]:
                assert name.title() + ": farmers" in shown
            break
    else:
        pytest.fail("no harvest")


def test_another_seats_hand_never_shows() -> None:
    for state in states(4, 6, every=9):
        for seat in range(4):
            parts = RENDERER.compact(GAME, state.observation(seat), seat)
            text = printed(parts, 120)
            again = state.clone()
            # swap the other seats' hands for ones of other kinds: the screen is the same
            for other in range(4):
                if other != seat:
                    again.hand[other] = list(reversed(again.hand[other]))
            assert printed(RENDERER.compact(GAME, again.observation(seat), seat), 120) == text


def test_long_move_lists_come_in_groups() -> None:
    found = set()
    for state in states(4, 7, every=1):
        if state.is_over():
            continue
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        groups = RENDERER.move_groups(GAME, state.observation(seat), seat, legal)
        indices = [i for _, members in groups for i in members]
        assert sorted(indices) == list(range(len(legal)))
        for heading, members in groups:
            kinds = {type(legal[i]) for i in members}
            if kinds == {A.Bid}:
                provinces = {legal[i].province for i in members}  # type: ignore[attr-defined]
                assert len(provinces) == 1
                assert heading == f"Bid on {provinces.pop().title()}"
                found.add("bid")
            elif A.Sell in kinds:
                assert kinds == {A.Sell} and heading == "Sell a card"
                found.add("sell")
    assert found == {"bid", "sell"}

"""Egyptia in the terminal at 80x24 and 120x40 (Rich's recording console): the compact
screen fits with the prompt and the moves, prose wraps between words, no table header of
the full board is cut, and the build step's long move list is grouped by building, then
hex."""

from __future__ import annotations

import pytest

from karnak.core.registry import get_game
from karnak.games.egyptia.rules.actions import Build
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.terminal import EgyptiaRenderer
from karnak.i18n import use_language
from support.egyptia_positions import random_positions
from support.terminal_text import printed, words

RENDERER = EgyptiaRenderer()
GAME = get_game("egyptia")
#: The most lines the compact screen may take: 24 less the prompt, the decision line, a
#: blank line and room for the numbered moves (grouped where they are many).
COMPACT_LINES = 14


#: Table rules and padding: not words.
def words_in(heading: str, building: str) -> bool:
    """Whether a group's heading names its building (in English)."""
    return ("Burial Mound" if building == "mound" else building.capitalize()) in heading


def positions(players: int, seed: int, every: int = 2) -> list[tuple[EgyptiaState, int]]:
    """(state, a seat to move) along a random game (tests/support/egyptia_positions.py)."""
    return random_positions(players, seed, every, finished=False)


@pytest.mark.parametrize("language", ["en", "de", "fr"])
@pytest.mark.parametrize(("width", "height"), [(80, 24), (120, 40)])
@pytest.mark.parametrize("players", [1, 4])
def test_the_compact_screen_fits_and_wraps_between_words(
    language: str, width: int, height: int, players: int
) -> None:
    stages: set[str] = set()
    with use_language(language):
        for state, seat in positions(players, 7 + players)[:60]:
            view = state.observation(seat)
            parts = RENDERER.compact(GAME, view, seat)
            text = printed(parts, width, height)
            lines = text.rstrip("\n").split("\n")
            assert len(lines) <= COMPACT_LINES, text
            assert all(len(line) <= width for line in lines)
            # every word printed at this width is a whole word of the unwrapped text
            assert words(text) <= words(printed(parts, 1000)), text
            stages.add(state.stage[seat])
    assert {"choose", "build"} <= stages


def test_the_build_step_shows_what_may_be_built() -> None:
    for state, seat in positions(1, 3):
        if state.stage[seat] != "build":
            continue
        view = state.observation(seat)
        text = printed(RENDERER.compact(GAME, view, seat), 80)
        assert "What you may build" in text
        assert "Burial Mound" in text
        return
    pytest.fail("no build step came up")


def test_the_build_moves_are_grouped_by_building_then_hex() -> None:
    sheet = GAME.sheet  # type: ignore[attr-defined]
    for state, seat in positions(3, 11, every=1):
        if state.stage[seat] != "build":
            continue
        legal = state.legal_actions(seat)
        builds = [i for i, a in enumerate(legal) if isinstance(a, Build)]
        if len(builds) < 20:
            continue
        groups = RENDERER.move_groups(GAME, state.observation(seat), seat, legal)
        grouped = [i for _heading, indices in groups for i in indices]
        assert sorted(grouped) == list(range(len(legal)))  # each move once
        for heading, indices in groups:
            kinds = {legal[i].building for i in indices if isinstance(legal[i], Build)}
            if not kinds:
                continue
            assert len(kinds) == 1 and all(isinstance(legal[i], Build) for i in indices)
            (building,) = kinds
            assert words_in(heading, building)
            assert str(len(indices)) in heading
            places = [sheet.by_label[legal[i].hex] for i in indices]  # type: ignore[union-attr]
            assert places == sorted(places)
        assert sum(1 for _h, ix in groups if isinstance(legal[ix[0]], Build)) >= 2
        return
    pytest.fail("no build step with many moves came up")


@pytest.mark.parametrize("language", ["en", "de", "fr"])
def test_the_full_board_cuts_no_header_at_80_columns(language: str) -> None:
    with use_language(language):
        for state, seat in positions(4, 5, every=5)[:20]:
            view = state.observation(seat)
            text = printed(RENDERER.status(GAME, view, seat), 80, 24)
            headers = [line for line in text.split("\n") if "…" in line]
            assert headers == [], "\n".join(headers)

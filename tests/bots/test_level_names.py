"""The level a bot spec is (``karnak.bots.levels.level_of``): the reverse of the levels'
specs, so that a seat is named "Medium" rather than ``heuristic``."""

from __future__ import annotations

import pytest

from karnak.bots.levels import LADDER, LEVELS, game_levels, level_of, level_spec
from karnak.core.registry import get_game

GAMES = ("amunre", "aton", "egyptia")


@pytest.mark.parametrize("name", GAMES)
def test_each_levels_spec_names_its_level(name: str) -> None:
    for level, spec in game_levels(name).items():
        assert level_of(spec, name) == level
        assert level_of(spec, get_game(name)) == level
        assert level_of(f" {spec.upper()}@style=42 ", name) == level


def test_the_standard_specs_read_as_their_levels() -> None:
    assert level_of("random", "aton") == "easy"
    assert level_of("heuristic", "amunre") == "medium"
    assert level_of("heuristic@style=0", "egyptia") == "medium"
    assert level_of("ismcts:0.25s", "aton") == "hard"
    assert level_of("ismcts:250ms", "aton") == "hard"
    assert level_of("ismcts:1s", "egyptia") == "expert"
    assert level_of("ismcts:4s", "amunre") == "master"
    # stepped down to a shorter think time at a big table: still its level
    assert level_of("ismcts:0.5s", "egyptia") == "expert"
    assert level_of("ismcts:2s", "egyptia") == "master"
    assert level_of("ismcts:0.1s", "egyptia") == "hard"
    # the judged search measured weaker than the plain one (issue 35): a bot, not a level
    assert level_of("judged:1s", "aton") is None


@pytest.mark.parametrize(
    "spec",
    [
        "ismcts:5000",
        "ismcts:3s",
        "ismcts:0.3s",
        "judged:1s",
        "nonsense",
        "",
        "heuristic@3",
        "ismcts:x",
    ],
)
def test_a_spec_that_is_no_levels_bot_has_no_level(spec: str) -> None:
    assert level_of(spec, "amunre") is None


@pytest.mark.parametrize(
    ("name", "bots"),
    [
        (name, bots)
        for name in GAMES
        for bots in (1, 3, 30, 98)
        if bots < get_game(name).max_players  # the bots and a person at one table
    ],
)
def test_a_level_as_a_server_seats_it_reads_back_as_that_level_or_a_weaker(
    name: str, bots: int
) -> None:
    game = get_game(name)
    for level in LEVELS:
        plain = level_spec(level, game, bots)
        assert level_of(plain, game) == level  # no limits: the level's own spec
        limited = level_spec(level, game, bots, max_think=2.0, max_game_think=6.0)
        found = level_of(limited, game)
        assert found is not None and LEVELS.index(found) <= LEVELS.index(level)
        if limited.partition(":")[0] == game_levels(name)[level].partition(":")[0]:
            # the same bot, maybe thinking less: a ladder's time reads as a searching level
            assert limited == game_levels(name)[level] or any(
                limited.endswith(f":{s:g}s") for s in LADDER
            )

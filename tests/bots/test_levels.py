"""Bot levels: each name is a real bot of the game, stronger levels think longer, and a big
table's levels fit the server's limits."""

from __future__ import annotations

import pytest

from karnak.bots import BotSpecError, make_bot
from karnak.bots.levels import (
    LEVELS,
    PRACTICAL_TABLE_THINK,
    default_level,
    describe,
    is_level,
    level_bands,
    level_spec,
    levels,
    think_seconds,
)
from karnak.core.registry import available_games, get_game
from karnak.server.limits import ServerSettings

LIMITS = {
    "max_think": ServerSettings().max_think,
    "max_game_think": ServerSettings().max_game_think,
}


@pytest.mark.parametrize("name", available_games())
def test_every_level_is_a_bot_of_the_game(name: str) -> None:
    game = get_game(name)
    for bots in (1, 2, 4, game.max_players):
        for level in levels(game, bots, **LIMITS):
            make_bot(level.spec, game)  # raises for a bot the game does not have
            assert level.label.lower().startswith(level.name)


@pytest.mark.parametrize("name", available_games())
def test_stronger_levels_never_think_less(name: str) -> None:
    game = get_game(name)
    for bots in (1, 3, game.max_players):
        times = [think_seconds(level.spec) for level in levels(game, bots, **LIMITS)]
        assert times == sorted(times), (bots, times)


def test_the_levels_of_a_small_table() -> None:
    amunre = get_game("amunre")
    assert [lv.spec for lv in levels(amunre, 4, **LIMITS)] == [
        "random",
        "heuristic",
        "ismcts:0.25s",
        "ismcts:1s",
        "ismcts:4s",
    ]
    assert default_level(amunre, 4, **LIMITS) == "expert"  # master is chosen, never a default
    # Aton, one bot: the same levels as everywhere
    aton = get_game("aton")
    assert level_spec("expert", aton, 1, **LIMITS) == "ismcts:1s"
    assert level_spec("master", aton, 1, **LIMITS) == "ismcts:4s"
    assert default_level(aton, 1, **LIMITS) == "expert"


def test_a_big_table_fits_the_servers_limits() -> None:
    egyptia = get_game("egyptia")
    settings = ServerSettings()
    for bots in range(1, 100):
        for level in levels(egyptia, bots, **LIMITS):
            seconds = think_seconds(level.spec)
            assert seconds <= settings.max_think
            assert seconds * bots <= settings.max_game_think + 1e-9, (bots, level)
    # expert searches a second a move while 60 bots can, half a second beyond
    assert level_spec("expert", egyptia, 60, **LIMITS) == "ismcts:1s"
    assert level_spec("expert", egyptia, 98, **LIMITS) == "ismcts:0.5s"
    # master at a big table thinks what fits, never less than expert there
    assert level_spec("master", egyptia, 15, **LIMITS) == "ismcts:4s"
    assert level_spec("master", egyptia, 98, **LIMITS) == "ismcts:0.5s"
    # a tight server: the search makes way for the instant heuristic
    assert level_spec("hard", egyptia, 98, max_game_think=5) == "heuristic"


def test_the_default_is_the_strongest_practical_level() -> None:
    egyptia = get_game("egyptia")
    assert default_level(egyptia, 3, **LIMITS) == "expert"
    assert default_level(egyptia, 12, **LIMITS) == "hard"
    assert default_level(egyptia, 98, **LIMITS) == "medium"
    for bots in (1, 5, 20, 60, 98):
        chosen = level_spec(default_level(egyptia, bots, **LIMITS), egyptia, bots, **LIMITS)
        assert think_seconds(chosen) * bots <= PRACTICAL_TABLE_THINK


def test_bands_cover_every_table_once() -> None:
    egyptia = get_game("egyptia")
    bands = level_bands(egyptia, **LIMITS)
    covered = [n for band in bands for n in range(band["bots_from"], band["bots_to"] + 1)]
    assert covered == list(range(1, 100))
    assert len(bands) < 10  # runs of equal levels, not one entry per count
    first = bands[0]
    assert first["default"] == "expert"
    assert [lv["name"] for lv in first["levels"]] == list(LEVELS)
    assert first["levels"][3] == {
        "name": "expert",
        "spec": "ismcts:1s",
        "label": "Expert: searches 1 s a move",
    }


def test_names_and_descriptions() -> None:
    assert is_level("Expert") and is_level(" easy ") and not is_level("ismcts")
    assert describe("random") == "plays at random"
    assert describe("heuristic") == "rules of thumb, instant"
    assert describe("ismcts:0.25s") == "searches 0.25 s a move"
    with pytest.raises(BotSpecError, match="levels: easy, medium, hard, expert"):
        level_spec("genius", get_game("amunre"))

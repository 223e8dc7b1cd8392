"""The registry of games: every built-in plugin's parts load as what they claim to be, games
from other distributions arrive through the ``karnak.games`` entry points, and a broken or
clashing one is skipped with a warning instead of taking Karnak down."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from importlib.metadata import EntryPoint

import pytest

from karnak.bots.levels import STANDARD_LEVELS, game_levels
from karnak.core import registry
from karnak.core.game import Game
from karnak.core.knowledge import Knowledge
from karnak.core.plugin import GamePlugin, PluginError, WebPage, load_reference
from karnak.core.registry import UnknownGameError, get_game, get_plugin, plugin_for, plugins

#: A plugin reusing Aton's rules under another name, as a distribution would declare it.
TWIN = GamePlugin(name="aton-twin", rules="karnak.games.aton.rules:GAME")
#: A plugin whose rules are not a Game.
NOT_A_GAME = GamePlugin(name="not-a-game", rules="karnak.core.registry:BUILTIN")
#: Not a plugin at all.
NOT_A_PLUGIN = "a plain string"


@pytest.fixture
def entry_points(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The ``karnak.games`` entry points the registry will find: append to the list."""
    found: list[EntryPoint] = []

    def fake(*, group: str) -> list[EntryPoint]:
        assert group == registry.ENTRY_POINT_GROUP
        return found

    monkeypatch.setattr(registry, "entry_points", fake)
    registry.refresh()
    yield found
    registry.refresh()


def point(name: str, value: str) -> EntryPoint:
    return EntryPoint(name=name, value=value, group=registry.ENTRY_POINT_GROUP)


@pytest.mark.parametrize("name", sorted(registry.BUILTIN))
def test_every_builtin_plugin_names_parts_of_the_right_kind(name: str) -> None:
    plugin = get_plugin(name)
    assert plugin.name == name
    game = plugin.game()
    assert isinstance(game, Game) and game.name == name
    assert plugin_for(game) is plugin
    knowledge = plugin.load_knowledge()
    assert isinstance(knowledge, Knowledge) and knowledge.heuristic is not None
    assert isinstance(plugin.web_page(), WebPage)
    assert plugin.terminal_renderer() is not None
    for module in plugin.compiled:
        assert module.startswith(f"karnak.games.{name}.")


def test_names_and_aliases_are_looked_up_without_regard_to_case() -> None:
    assert get_game("AMUN-RE") is get_game("amunre")
    assert get_game("Aton").name == "aton"


def test_an_unknown_game_is_told_with_the_games_there_are() -> None:
    with pytest.raises(UnknownGameError, match=r"unknown game 'senet'.*aton"):
        get_game("senet")


def test_a_game_from_another_distribution_arrives_through_its_entry_point(
    entry_points: list[EntryPoint],
) -> None:
    entry_points.append(point("aton-twin", f"{__name__}:TWIN"))
    assert "aton-twin" in plugins()
    twin = get_plugin("aton-twin")
    assert twin is TWIN
    # it names nothing but its rules: every other part falls back, the standard levels apply
    assert twin.load_knowledge() is None
    assert twin.web_page() is None and twin.terminal_renderer() is None
    assert game_levels("aton-twin") == STANDARD_LEVELS


@pytest.mark.parametrize(
    ("name", "value", "why"),
    [
        ("aton", f"{__name__}:TWIN", "the name is taken"),
        ("twin", f"{__name__}:TWIN", "its entry point is named 'twin'"),
        ("ghost", "karnak.no_such_module:PLUGIN", "could not be loaded"),
        ("plain", f"{__name__}:NOT_A_PLUGIN", "could not be loaded"),
    ],
)
def test_a_broken_or_clashing_entry_point_is_skipped_with_a_warning(
    entry_points: list[EntryPoint],
    caplog: pytest.LogCaptureFixture,
    name: str,
    value: str,
    why: str,
) -> None:
    entry_points.append(point(name, value))
    with caplog.at_level(logging.WARNING, logger="karnak.core.registry"):
        found = plugins()
    assert set(found) == set(registry.BUILTIN)
    assert found["aton"].rules == "karnak.games.aton.rules:GAME"  # a built-in is never replaced
    assert why in caplog.text


def test_a_plugin_whose_rules_are_not_a_game_is_refused_when_played(
    entry_points: list[EntryPoint],
) -> None:
    entry_points.append(point("not-a-game", f"{__name__}:NOT_A_GAME"))
    with pytest.raises(PluginError, match="is not a Game"):
        get_game("not-a-game")


@pytest.mark.parametrize("reference", ["no-colon", ":attr", "module:", "karnak.core:nothing"])
def test_a_malformed_reference_is_one_clear_error(reference: str) -> None:
    with pytest.raises(PluginError):
        load_reference(reference)

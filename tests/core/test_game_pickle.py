"""Games pickle by reference: worker processes and Ray tasks receive game objects, and a
compiled board (mypyc) cannot be rebuilt field by field from a pickle."""

from __future__ import annotations

import pickle

import pytest

from karnak.core import get_game
from karnak.core.registry import available_games


@pytest.mark.parametrize("name", available_games())
def test_the_registered_game_and_its_older_versions_pickle_by_reference(name: str) -> None:
    game = get_game(name)
    assert pickle.loads(pickle.dumps(game)) is game
    for version in game.playable_versions():
        older = game.at_version(version)
        again = pickle.loads(pickle.dumps(older))
        assert again.version == version and again.name == name
        state = again.new_state(again.min_players, seed=3)
        assert state.legal_actions(state.to_move()[0])


@pytest.mark.parametrize("name", available_games())
def test_an_older_version_is_a_copy_and_the_registered_game_keeps_its_version(name: str) -> None:
    game = get_game(name)
    newest = game.version
    for version in game.playable_versions():
        older = game.at_version(version)
        assert older.version == version
        assert get_game(name).version == newest
        assert (older is game) == (version == newest)

"""Rules versions: every game declares one, records carry it, old records replay under the
rules they were played with, and a version the engine does not play is refused by name."""

from __future__ import annotations

import pytest

from karnak.bots.base import play_out
from karnak.bots.random_bot import RandomBot
from karnak.core import GameRecord, RecordError, Rng, available_games, get_game, replay
from karnak.core.errors import RulesVersionError


@pytest.mark.parametrize("name", available_games())
def test_every_game_declares_its_versions(name: str) -> None:
    game = get_game(name)
    versions = game.playable_versions()
    assert versions[-1] == game.version == game.newest_version
    assert len(set(versions)) == len(versions)
    assert all(game.at_version(v).version == v for v in versions)
    assert game.at_version(game.version) is game


@pytest.mark.parametrize("name", available_games())
def test_a_state_and_its_record_carry_the_version_they_are_played_under(name: str) -> None:
    game = get_game(name)
    for version in game.playable_versions():
        old = game.at_version(version)
        state = old.new_state(old.min_players if name != "egyptia" else 2, seed=3)
        assert state.record().version == version
        assert state.to_json()["version"] == version
        assert game.state_from_json(state.to_json()).game.version == version


@pytest.mark.parametrize("name", ["amunre", "egyptia"])
def test_an_old_record_replays_under_its_own_rules(name: str) -> None:
    game = get_game(name)
    old = game.at_version("1.0")
    players = 3 if name == "amunre" else 2
    state = old.new_state(players, seed=11)
    play_out(state, [RandomBot() for _ in range(players)], [Rng(s) for s in range(players)])
    record = state.record()
    record.result = {"scores": state.scores()}
    loaded = GameRecord.from_json(record.to_json())
    replayed = replay(loaded)
    assert replayed.game.version == "1.0"
    assert replayed == state


@pytest.mark.parametrize("version", ["0.9", "1.9", "2.0"])
@pytest.mark.parametrize("name", available_games())
def test_a_version_the_engine_does_not_play_is_refused_naming_both(name: str, version: str) -> None:
    game = get_game(name)
    record = game.new_state(2 if name != "amunre" else 3, seed=1).record()
    record.version = version
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert f"version {version}" in message and f"newest {game.version}" in message
    with pytest.raises(RulesVersionError):
        game.at_version(version)


def test_board_variants_keep_the_rules_version() -> None:
    game = get_game("amunre").at_version("1.0")
    assert game.with_board(game.board).version == "1.0"

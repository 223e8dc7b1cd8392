"""The example game, found only through its ``karnak.games`` entry point, plays through the
engine (new states, checked moves, records and their replay, JSON), keeps its hidden
information (resampled worlds, tensors) and through the bots (the arena, the levels).

Nothing of it is in Karnak: tests/example_game holds the game and its pyproject.toml, and
support.example_game installs it as ``pip install`` would.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import numpy as np
import pytest

from karnak.bots import make_bot
from karnak.bots.arena import run_arena
from karnak.bots.base import available_bots, play_out
from karnak.bots.ismcts import game_knowledge
from karnak.bots.levels import LEVELS, level_spec
from karnak.core import GameRecord, IllegalActionError, Rng, replay
from karnak.core.game import Game
from karnak.core.knowledge import Knowledge
from karnak.core.registry import available_games, get_game, get_plugin, plugins
from karnak.core.state import State
from karnak.core.view_schema import json_schema, observation_schema
from support.example_game import EXAMPLE, NAME, entry_points_text, installed


def random_game(game: Game, players: int, seed: int, stop: int | None = None) -> State:
    """A game of random bids from ``seed``, stopped after ``stop`` moves if given."""
    state = game.new_state(players, seed=seed)
    rng = Rng(seed)
    while not state.is_over() and (stop is None or len(state.history) < stop):
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


# ---------------------------------------------------------------------- the registration
def test_the_entry_point_is_the_one_its_pyproject_declares() -> None:
    assert entry_points_text().splitlines()[:2] == [
        "[karnak.games]",
        "goofspiel = karnak_goofspiel.plugin:PLUGIN",
    ]


def test_the_game_is_found_through_its_entry_point_and_gone_without_it(
    tmp_path: Path,
) -> None:
    assert NAME not in available_games()
    with installed(tmp_path):
        assert NAME in available_games()
        plugin = get_plugin("GOOF")  # an alias, any case
        assert plugin is importlib.import_module("karnak_goofspiel.plugin").PLUGIN
        assert get_game(NAME).title == "Goofspiel"
        # only the rules and the observation: every other part falls back
        assert plugin.load_knowledge() is None
        assert plugin.terminal_renderer() is None and plugin.web_page() is None
    assert NAME not in available_games()


def test_the_game_is_one_folder_that_imports_only_karnak_and_itself() -> None:
    package = EXAMPLE / "karnak_goofspiel"
    folders = {p.name for p in package.iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert folders == {"rules", "research"}
    for source in package.rglob("*.py"):
        for line in source.read_text().splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and not line.startswith(" "):
                top = words[1].split(".")[0]
                assert top in {
                    "__future__",
                    "karnak",
                    "karnak_goofspiel",
                    "collections",
                    "dataclasses",
                    "functools",
                    "typing",
                }, (source, line)


# ---------------------------------------------------------------------- the engine
def test_a_game_plays_to_the_end_and_its_record_replays(goofspiel: Game) -> None:
    state = random_game(goofspiel, 3, seed=5)
    assert state.is_over() and state.to_move() == ()
    assert len(state.history) == 3 * 5
    prizes = sorted(p for seat in range(3) for p in state.won[seat]) + state.unclaimed
    assert sorted(prizes) == [1, 2, 3, 4, 5]
    assert state.scores() == [sum(state.won[s]) for s in range(3)]
    record = GameRecord.from_json(state.record().to_json())
    again = replay(record, check_result=False)
    assert again == state
    assert goofspiel.state_from_json(state.to_json()) == state


def test_a_sealed_round_waits_for_every_seat_and_refuses_a_card_not_held(goofspiel: Game) -> None:
    state = goofspiel.new_state(["Ann", "Bob"], seed=2, options={"prizes": "3"})
    assert state.is_simultaneous() and state.to_move() == (0, 1)
    assert [a.to_text() for a in state.legal_actions(0)] == ["bid 1", "bid 2", "bid 3"]
    state.apply_text(0, "bid 3")
    assert state.to_move() == (1,) and state.legal_actions(0) == []
    # Bob's view says that Ann has bid, not what
    bob = state.observation(1)
    assert bob["players"][0]["committed"] and bob["players"][0]["hand"] == [1, 2, 3]
    assert bob["you"] == {"bid": None} and state.observation(0)["you"] == {"bid": 3}
    assert "bid 3" not in " ".join(state.log_lines(1))
    with pytest.raises(IllegalActionError, match="holds no 4"):
        state.apply_text(1, "bid 4")
    state.apply_text(1, "bid 2")
    assert state.observation(None)["last_round"]["bids"] == [3, 2]
    assert state.round == 2


@pytest.mark.parametrize("seed", range(12))
def test_a_resampled_world_is_the_same_to_the_seat_and_knows_nothing_hidden(
    goofspiel: Game, seed: int
) -> None:
    players = 2 + seed % 3
    state = random_game(goofspiel, players, seed, stop=seed * 2 % 13)
    for seat in range(players):
        world = state.resample(seat, Rng(seed))
        assert world.observation(seat) == state.observation(seat)
        assert world.information_state(seat) == state.information_state(seat)
        assert np.array_equal(
            world.information_state_tensor(seat), state.information_state_tensor(seat)
        )
        assert world.observation_string(seat) == state.observation_string(seat)
        # the world depends on what the seat knows only: re-deal the hidden part of the
        # true state (another world) and the same draw gives the same world
        other = state.resample(seat, Rng(seed + 100))
        assert state.resample(seat, Rng(7)).to_json() == other.resample(seat, Rng(7)).to_json()


def test_the_observation_has_the_shape_its_typed_dict_declares(goofspiel: Game) -> None:
    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator
    schema = observation_schema(get_plugin(NAME))
    assert schema is not None
    check = validator(schema)
    for seed in range(6):
        state = random_game(goofspiel, 2 + seed % 3, seed, stop=seed * 3)
        for seat in [None, *range(len(state.players))]:
            observation = state.observation(seat)
            check.validate(observation)
            assert ("you" in observation) == (seat is not None)
    assert schema["required"] and "you" not in schema["required"]
    assert json_schema(importlib.import_module("karnak_goofspiel.view").SeatShown)["required"]


def test_a_wrong_shape_is_refused_by_the_schema(goofspiel: Game) -> None:
    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator
    schema = observation_schema(get_plugin(NAME))
    assert schema is not None
    observation = goofspiel.new_state(2).observation(0)
    for broken in (
        {**observation, "round": "one"},
        {**observation, "extra": 1},
        {k: v for k, v in observation.items() if k != "prize"},
        {**observation, "phase": "dance"},
    ):
        assert not validator(schema).is_valid(broken)


# ---------------------------------------------------------------------- the bots
def test_the_search_plays_it_with_random_rollouts_and_no_heuristic_is_offered(
    goofspiel: Game,
) -> None:
    bots = available_bots(goofspiel)
    assert "random" in bots and "ismcts" in bots and "heuristic" not in bots
    assert game_knowledge(goofspiel) == Knowledge()
    specs = {level: level_spec(level, goofspiel) for level in LEVELS}
    assert specs["easy"] == "random" and specs["medium"] == "random"
    assert specs["expert"].startswith("ismcts:")
    state = goofspiel.new_state(2, seed=4)
    play_out(
        state, [make_bot("ismcts:50", goofspiel), make_bot("random", goofspiel)], [Rng(1), Rng(2)]
    )
    assert state.is_over()
    # the judged search too: no judge, no hand evaluator, so its rollouts play out
    state = goofspiel.new_state(2, seed=5)
    play_out(
        state, [make_bot("judged:30", goofspiel), make_bot("random", goofspiel)], [Rng(1), Rng(2)]
    )
    assert state.is_over()


def test_the_arena_plays_it(goofspiel: Game) -> None:
    result = run_arena(goofspiel, ["ismcts:60", "random"], games=8, seed=1, options={})
    rows = {row.bot: row for row in result.rows}
    assert set(rows) == {"ismcts:60", "random"}
    assert [row.seat_games for row in rows.values()] == [(4, 4), (4, 4)]
    assert sum(row.wins for row in rows.values()) == 8
    assert result.mean_actions == 10


def test_the_search_beats_random_bids(goofspiel: Game) -> None:
    result = run_arena(goofspiel, ["ismcts:60", "random"], games=30, seed=1, options={})
    rows = {row.bot: row for row in result.rows}
    assert rows["ismcts:60"].wins > 20


def test_every_registered_game_is_listed_with_the_example(goofspiel: Game) -> None:
    assert set(plugins()) >= {"amunre", "aton", "egyptia", NAME}

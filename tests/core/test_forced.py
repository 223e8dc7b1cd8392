"""The generic forced-move check (karnak.core.forced): sound over every game's random games,
decided from the public view alone, and guarded against a rule that proposes a move that is
not the seat's only one."""

from __future__ import annotations

import logging
from collections import Counter

import pytest

from karnak.core import Rng
from karnak.core.actions import Action
from karnak.core.forced import forced_move
from karnak.core.registry import available_games, get_game, get_plugin
from karnak.core.state import State

GAMES = available_games()


def random_game(name: str, seed: int) -> tuple[int, Counter[str]]:
    """Plays a random game of ``name``, checking every seat to move at every step: a forced
    move is exactly the seat's one legal move, and a world re-dealt behind any seat's back
    (``resample``: the same public view) gets the same decision. Returns (checks, fired)."""
    game = get_game(name)
    players = game.min_players + seed % (game.max_players - game.min_players + 1)
    state = game.new_state([f"P{i}" for i in range(players)], seed=seed)
    rng = Rng(seed)
    checks = 0
    fired: Counter[str] = Counter()
    steps = 0
    while not state.is_over() and steps < 1500:
        steps += 1
        public = state.observation(None)
        for seat in state.to_move():
            move = forced_move(state, seat)
            checks += 1
            if move is not None:
                fired[move.to_text()] += 1
                assert state.legal_actions(seat) == [move], (name, seed, seat)
            # the same public facts, other hidden ones: the same decision
            for viewer in range(players):
                world = state.resample(viewer, Rng(seed * 31 + steps + viewer))
                assert world.observation(None) == public
                assert forced_move(world, seat) == move, (name, seed, seat, viewer)
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return checks, fired


@pytest.mark.parametrize("name", GAMES)
def test_sound_and_decided_from_public_facts_over_random_games(name: str) -> None:
    checks = 0
    for seed in range(4):
        found, _fired = random_game(name, seed)
        checks += found
    assert checks > 50


def test_it_fires_in_a_game_whose_rule_has_common_cases() -> None:
    """Amun-Re's rule plays "done" for seats with no power card: random games meet it."""
    fired: Counter[str] = Counter()
    for seed in range(3):
        fired += random_game("amunre", seed)[1]
    assert sum(fired.values()) > 0


def test_no_rule_no_forced_move() -> None:
    names = [name for name in GAMES if get_plugin(name).forced_move is None]
    for name in names:
        game = get_game(name)
        state = game.new_state([f"P{i}" for i in range(game.min_players)], seed=1)
        assert all(forced_move(state, seat) is None for seat in state.to_move())


def test_a_seat_not_to_move_has_none() -> None:
    game = get_game("amunre")
    state = game.new_state(["A", "B", "C"], seed=2)
    idle = [seat for seat in range(3) if seat not in state.to_move()]
    assert idle
    assert all(forced_move(state, seat) is None for seat in idle)


def test_a_rule_proposing_more_than_the_only_move_is_refused_and_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A rule that names one of several legal moves is a bug in the game: nothing is
    played, and the log says so once."""
    game = get_game("amunre")
    state = game.new_state(["A", "B", "C"], seed=3)
    seat = state.to_move()[0]
    legal = state.legal_actions(seat)
    assert len(legal) > 1

    def greedy(_game: object, _view: object, _seat: int) -> Action:
        return legal[0]

    plugin = get_plugin("amunre")
    monkeypatch.setattr(type(plugin), "forced_move_rule", lambda self: greedy)
    import karnak.core.forced as forced

    monkeypatch.setattr(forced, "_warned", set())
    with caplog.at_level(logging.WARNING, logger="karnak.core.forced"):
        assert forced_move(state, seat) is None
        assert forced_move(state, seat) is None
    assert len([r for r in caplog.records if "not its only legal move" in r.message]) == 1


def test_the_rule_reads_the_spectators_view(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[object] = []
    game = get_game("amunre")
    state: State = game.new_state(["A", "B", "C"], seed=5)

    def spy(_game: object, view: object, _seat: int) -> None:
        seen.append(view)

    plugin = get_plugin("amunre")
    monkeypatch.setattr(type(plugin), "forced_move_rule", lambda self: spy)
    forced_move(state, state.to_move()[0])
    assert seen == [state.observation(None)]

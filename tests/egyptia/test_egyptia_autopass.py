"""Egyptia's forced moves (``autopass.forced_move``): Egyptia has no step whose single move
changes nothing, so the function answers None; these tests hold the claim behind that
answer over many random games, solo and at several seats."""

from __future__ import annotations

from karnak.core import Rng
from karnak.core.registry import get_game, get_plugin
from karnak.games.egyptia.autopass import forced_move
from karnak.games.egyptia.rules.state import EgyptiaState

NAMES = [f"B{i}" for i in range(6)]


def new_state(players: int, seed: int) -> EgyptiaState:
    game = get_game("egyptia")
    state = game.new_state(NAMES[:players], seed=seed)
    assert isinstance(state, EgyptiaState)
    return state


def snapshot(state: EgyptiaState, seat: int) -> object:
    """Everything of ``seat``'s round and sheet that a move could change."""
    return state._sheet_of(seat), state.stage[seat], state.column[seat], state.pending[seat]


def random_game(players: int, seed: int) -> tuple[int, int]:
    """Plays a random game, asking forced_move for every seat at every step and checking
    that every move a seat is asked for changes its sheet or its round. Returns (positions
    checked, positions where the seat to move had a single legal move)."""
    state = new_state(players, seed)
    rng = Rng(seed)
    checked = single = 0
    while not state.is_over():
        public = state.observation(None)
        for seat in range(players):
            assert forced_move(state.game, public, seat) is None
            checked += 1
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        single += len(legal) == 1
        move = legal[rng.below(len(legal))]
        before = snapshot(state, seat)
        state.apply(seat, move)
        if not state.is_over():
            assert snapshot(state, seat) != before, (move.to_text(), seat)
    return checked, single


def test_the_plugin_names_the_function() -> None:
    assert get_plugin("egyptia").forced_move == "karnak.games.egyptia.autopass:forced_move"


def test_solo_games_have_no_move_that_changes_nothing() -> None:
    checked = 0
    for seed in range(12):
        checked += random_game(1, seed)[0]
    assert checked > 300


def test_tables_of_several_builders_have_no_move_that_changes_nothing() -> None:
    checked = single = 0
    for players in (2, 3, 5):
        for seed in range(6):
            found = random_game(players, 100 * players + seed)
            checked += found[0]
            single += found[1]
    assert checked > 1000

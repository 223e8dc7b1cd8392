"""Aton's forced moves (``autopass.forced_move``): sound over many random games, read from
the public view alone, and played where the public view proves a seat's only lay-out."""

from __future__ import annotations

import copy

import pytest

from karnak.core import Rng
from karnak.core.registry import get_plugin
from karnak.games.aton import GAME, Aton
from karnak.games.aton.autopass import forced_move, unseen_values
from karnak.games.aton.rules.actions import Allocate, Exchange
from karnak.games.aton.rules.board import default_board, parse_board
from karnak.games.aton.rules.state import AtonState

RED, BLUE = 0, 1


def small_deck_game(cards_per_value: int) -> Aton:
    """Aton on a corrected board file with fewer cards of each value: piles run out every
    round or two, so hands that the public view proves come up often."""
    raw = copy.deepcopy(dict(default_board().raw))
    raw["constants"] = {**raw["constants"], "cards_per_value": cards_per_value}
    return GAME.with_board(parse_board(raw, source="test"))


def check_game(game: Aton, seed: int) -> tuple[int, int]:
    """Plays a random game (a random mover at the sealed step, the exchange often), checking
    every seat at every step: whatever forced_move answers is that seat's only legal move.
    Returns (positions checked, moves forced)."""
    state = game.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    checked = fired = 0
    while not state.is_over():
        public = state.observation(None)
        for seat in (RED, BLUE):
            move = forced_move(game, public, seat)
            checked += 1
            if move is not None:
                fired += 1
                assert state.legal_actions(seat) == [move], (seed, state.round, seat)
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        exchange = [a for a in legal if isinstance(a, Exchange)]
        choice = exchange[0] if exchange and rng.below(3) == 0 else legal[rng.below(len(legal))]
        state.apply(seat, choice)
    return checked, fired


def test_the_plugin_names_the_rule() -> None:
    assert get_plugin("aton").forced_move_rule() is forced_move


def test_sound_over_many_random_games_of_the_printed_board() -> None:
    checked = 0
    for seed in range(60):
        seen, _ = check_game(GAME, seed)
        checked += seen
    assert checked > 5_000


@pytest.mark.parametrize("cards_per_value", [4, 5])
def test_sound_with_small_piles(cards_per_value: int) -> None:
    """With four or five cards of each value (a hand is four) the piles run out every few
    rounds and a proven hand can come up in play; whatever the rule finds is the seat's only
    move."""
    game = small_deck_game(cards_per_value)
    checked = 0
    for seed in range(150):
        seen, _ = check_game(game, seed)
        checked += seen
    assert checked > 5_000


def proven_hand(state: AtonState, seat: int, value: int) -> None:
    """Arranges ``seat``'s cards so that every card nobody has seen is a ``value``: the other
    values all lie face up in its discards."""
    per_value = state.board.cards_per_value
    state.exchanged[seat] = True
    state.discards[seat] = [v for v in (1, 2, 3, 4) if v != value for _ in range(per_value)]
    state.face_down[seat] = []
    state.hands[seat] = [value] * 4
    state.piles[seat] = [value] * (per_value - 4)


def test_fires_when_the_public_view_proves_four_equal_cards() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=4)
    proven_hand(state, RED, 3)
    public = state.observation(None)
    assert unseen_values(GAME, public, RED) == {1: 0, 2: 0, 3: 9, 4: 0}
    move = forced_move(GAME, public, RED)
    assert move == Allocate((3, 3, 3, 3))
    assert state.legal_actions(RED) == [move]
    # Blue's hand is not proven: nothing for Blue
    assert forced_move(GAME, public, BLUE) is None
    # once laid, nothing more
    state.apply(RED, move)
    assert forced_move(GAME, state.observation(None), RED) is None


def test_does_not_fire_while_the_exchange_is_unused_or_a_value_is_unaccounted() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=4)
    proven_hand(state, RED, 2)
    state.exchanged[RED] = False  # the exchange is a second move
    assert len(state.legal_actions(RED)) == 2
    assert forced_move(GAME, state.observation(None), RED) is None
    state = GAME.new_state(["Red", "Blue"], seed=4)
    proven_hand(state, RED, 2)
    state.discards[RED].remove(4)  # one 4 not shown: the hand could hold it
    state.piles[RED].append(4)
    assert forced_move(GAME, state.observation(None), RED) is None


def test_the_answer_does_not_depend_on_hidden_cards() -> None:
    """Two worlds with the same public view give the same answer, whatever the hands."""
    state = GAME.new_state(["Red", "Blue"], seed=8)
    rng = Rng(8)
    for _ in range(300):
        if state.is_over():
            break
        public = state.observation(None)
        for seat in (RED, BLUE):
            for k in range(3):
                world = state.resample(1 - seat, Rng(k + rng.below(1000)))
                assert world.observation(None) == public
                assert forced_move(GAME, world.observation(None), seat) == forced_move(
                    GAME, public, seat
                )
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])


def test_fires_at_proven_hands_in_the_middle_of_random_games() -> None:
    """Random games, stopped at each lay-out step of a later round, with one seat's cards
    arranged so that its unseen cards are all of one value: the rule plays that hand, and
    it is the seat's only move."""
    fired = 0
    for seed in range(12):
        state = GAME.new_state(["Red", "Blue"], seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            if state.phase == "allocate" and state.round > 1 and state.alloc[RED] is None:
                world = state.clone()
                value = 1 + rng.below(4)
                proven_hand(world, RED, value)
                move = forced_move(GAME, world.observation(None), RED)
                assert move == Allocate((value,) * 4)
                assert world.legal_actions(RED) == [move]
                fired += 1
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
    assert fired >= 12

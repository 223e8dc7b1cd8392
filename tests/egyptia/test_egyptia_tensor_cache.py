"""The caches behind Egyptia's tensors (karnak.games.egyptia.research.tensors) are exact.

A publication's backgrounds live in ``state.public_cache`` (shared by every copy of the
state until the next publication) and the reveal tallies are remembered by the last event
they counted. Each test builds tensors through warm caches, in orders that put them to the
test (copies first, a copy without a log first, worlds re-dealt and played on, dice changed
under a publication), and compares every one with a tensor made from cold caches.

test_cached_tensors_equal_fresh_ones_along_games
                                    every seat, every position, copies and worlds too
test_a_copy_without_a_log_and_a_logged_state_share_a_publication
                                    zero history for the one, the tally for the other, in
                                    either order
test_logs_that_share_a_prefix_then_part_count_apart
                                    a tally remembered for one log is not another's
test_dice_changed_under_a_publication_are_read_live
"""

from __future__ import annotations

import numpy as np
import pytest

from karnak.core import Rng, get_game
from karnak.games.egyptia.research import tensors
from karnak.games.egyptia.rules.state import EgyptiaState

GAME = get_game("egyptia")


def fresh(state: EgyptiaState, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """Both tensors of ``seat`` made from cold caches, on a copy (so as to leave the state's
    own caches alone) whose published sheet of ``seat`` is its live one: the viewer's own
    row is then written whole, not patched from the published one."""
    copy = state.clone(log=True)
    copy.log = state.log  # the same log (a copy of the state copies it, or switches it off)
    copy.public = list(state.public)
    copy.public[seat] = state._sheet_of(seat)
    copy.public_cache = {}
    tensors._MARKS.clear()
    return copy.information_state_tensor(seat), copy.observation_tensor(seat)


def same(state: EgyptiaState, seat: int) -> None:
    info, observation = state.information_state_tensor(seat), state.observation_tensor(seat)
    cold_info, cold_observation = fresh(state, seat)
    assert info.tobytes() == cold_info.tobytes()
    assert observation.tobytes() == cold_observation.tobytes()


def random_step(state: EgyptiaState, rng: Rng) -> None:
    """A random move of a random builder with something to do (a waiting one's ship too)."""
    movers = [s for s in range(state.n) if state.legal_actions(s)]
    seat = movers[rng.below(len(movers))]
    legal = state.legal_actions(seat)
    state.apply_unchecked(seat, legal[rng.below(len(legal))])


@pytest.mark.parametrize(("players", "cards"), [(1, ""), (2, "A2,B2,C3,D2,E3"), (3, "D2"), (4, "")])
def test_cached_tensors_equal_fresh_ones_along_games(players: int, cards: str) -> None:
    for seed in range(2):
        state = GAME.new_state(players, seed=seed, options={"cards": cards})
        rng = Rng(seed)
        step = 0
        while not state.is_over():
            copy = state.clone(log=True)
            if step % 2:  # a copy warms the shared caches first
                for seat in range(players):
                    same(copy, seat)
            for seat in range(players):
                same(state, seat)
            if step % 5 == 0:
                seat = rng.below(players)
                world = state.resample(seat, Rng(step))
                for _ in range(3):
                    same(world, seat)
                    if world.is_over():
                        break
                    random_step(world, rng)
            random_step(state, rng)
            if not copy.is_over():  # the copy parts from the state
                random_step(copy, Rng(step))
                same(copy, step % players)
            step += 1
        for seat in range(players):
            same(state, seat)


@pytest.mark.parametrize("logged_first", [False, True])
def test_a_copy_without_a_log_and_a_logged_state_share_a_publication(logged_first: bool) -> None:
    state = GAME.new_state(3, seed=5)
    rng = Rng(5)
    while state.round < 3 or not state.revealed:
        random_step(state, rng)
    search = state.clone(log=False)
    assert search.public_cache is state.public_cache
    layout = GAME.information_state_layout(3)
    order = [state, search] if logged_first else [search, state]
    made = {id(s): [s.information_state_tensor(seat) for seat in range(3)] for s in order}
    for seat in range(3):
        logged, blank = made[id(state)][seat], made[id(search)][seat]
        assert layout.view(logged, "columns_taken").any()
        assert not layout.view(blank, "columns_taken").any()
        assert not layout.view(blank, "last_columns").any()
        same(state, seat)
        same(search, seat)
    # a log switched off after its events: every call counts what the seat may read
    state.log.enabled = False
    for seat in range(3):
        same(state, seat)


def test_logs_that_share_a_prefix_then_part_count_apart() -> None:
    state = GAME.new_state(2, seed=9)
    rng = Rng(9)
    while state.round < 3:
        random_step(state, rng)
    state.information_state_tensor(0)  # a tally remembered at this point of the log
    first, second = state.clone(log=True), state.clone(log=True)
    for k, copy in enumerate((first, second)):
        other = Rng(100 + k)
        while copy.round < 6 and not copy.is_over():
            random_step(copy, other)
            for seat in range(2):
                same(copy, seat)
    assert first.log.events[-1] is not second.log.events[-1]
    # a log that lost a reveal (no engine path drops an event) does not borrow the tally
    # remembered at an event it shares with the original
    same(first, 0)
    reveal = next(
        i for i, e in enumerate(first.log.events) if e.template.startswith(tensors.REVEAL_PREFIX)
    )
    first.log.events = first.log.events[:reveal] + first.log.events[reveal + 1 :]
    first.public_cache = {}
    same(first, 0)
    # a world's log holds only what the seat saw, the events shared with the original
    world = first.resample(1, Rng(3))
    while not world.is_over() and world.round < 8:
        random_step(world, rng)
        same(world, 1)


def test_dice_changed_under_a_publication_are_read_live() -> None:
    state = GAME.new_state(2, seed=4)
    before = state.information_state_tensor(0)
    copy = state.clone(log=True)
    copy.dice = [1] * len(copy.dice)
    assert copy.public_cache is state.public_cache
    for seat in range(2):
        same(copy, seat)
        same(state, seat)
    assert state.information_state_tensor(0).tobytes() == before.tobytes()
    assert copy.information_state_tensor(0).tobytes() != before.tobytes()

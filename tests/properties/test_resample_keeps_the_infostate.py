"""OpenSpiel's ``resample_from_infostate`` contract, for every game: a world re-dealt for a
seat is one that seat cannot tell from the true state, history included. Its information
state (observation and the log as the seat saw it) is the true one's, its log holds nothing
the seat did not witness, and play goes on in it with the log recording as usual. Search's
worlds (``history=False``, through ``InfoSet.sample``) carry no log at all."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karnak.core import Rng, get_game
from karnak.core.state import State

TABLES = {"amunre": (3, 4, 5), "aton": (2,), "egyptia": (1, 2, 4)}


def position(game: str, players: int, seed: int, steps: int) -> State:
    """A position after up to ``steps`` random moves (the game may end sooner)."""
    state = get_game(game).new_state(players, seed=seed)
    rng = Rng(seed + 7)
    for _ in range(steps):
        if state.is_over():
            break
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


@settings(max_examples=30, deadline=None)
@given(
    game=st.sampled_from(sorted(TABLES)),
    choice=st.integers(0, 2),
    seed=st.integers(0, 10_000),
    steps=st.integers(0, 250),
)
def test_a_resampled_world_keeps_the_seats_information_state(
    game: str, choice: int, seed: int, steps: int
) -> None:
    tables = TABLES[game]
    players = tables[choice % len(tables)]
    state = position(game, players, seed, steps)
    for seat in range(players):
        known = state.information_state(seat)
        for k in range(2):
            world = state.resample(seat, Rng(seed * 3 + k))
            assert world.information_state(seat) == known
            assert all(event.visible_to(seat) for event in world.log)
            search = state.infoset(seat).sample(Rng(k))
            assert len(search.log) == 0
            assert search.observation(seat) == known["observation"]
        if not world.is_over():  # the world plays on and logs what follows
            mover = world.to_move()[0]
            before = len(world.log)
            world.apply(mover, world.legal_actions(mover)[0])
            assert len(world.log) >= before

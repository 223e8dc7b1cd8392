"""The id-level game every adapter stands on, checked on Aton (the other games' spaces have
their own suites, and the adapters' suites play all three through this)."""

from __future__ import annotations

import numpy as np
import pytest

from karnak.core import Rng
from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.envs import TERMINAL, IdGame


def play(idgame: IdGame, seed: int) -> tuple[list[list[float]], object]:
    state = idgame.new_state(seed)
    rng = Rng(seed)
    totals = [0.0] * idgame.players
    before = state.standing()
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == min(state.state.to_move())
        ids = state.legal_ids()
        assert ids and list(np.flatnonzero(state.mask(seat))) == ids
        for other in range(idgame.players):
            if other != seat:
                assert not state.mask(other).any() and state.legal_ids(other) == []
        state.apply_id(ids[rng.below(len(ids))])
        after = state.standing()
        totals = [t + a - b for t, a, b in zip(totals, after, before, strict=True)]
        before = after
    return [totals, state.standing()], state


@pytest.mark.parametrize("rewards", ["win", "score", "rank"])
def test_rewards_add_up_to_the_final_standing(rewards: str) -> None:
    idgame = IdGame("aton", rewards=rewards)
    for seed in range(3):
        (totals, final), _ = play(idgame, seed)
        assert totals == pytest.approx(final)
        assert sum(final) == pytest.approx(0.0)
        d = idgame.description
        assert all(d.min_utility <= value <= d.max_utility for value in final)
        if rewards != "score":
            assert sorted(final) in ([-1.0, 1.0], [0.0, 0.0])


def test_an_illegal_id_changes_nothing_and_a_finished_game_takes_none() -> None:
    idgame = IdGame("aton")
    state = idgame.new_state(1)
    illegal = next(i for i in range(idgame.num_actions) if i not in state.legal_ids())
    with pytest.raises(ActionIdError):
        state.apply_id(illegal)
    assert state.ids == [] and state.state == idgame.new_state(1).state
    _, done = play(idgame, 1)
    assert done.current_player() == TERMINAL and done.legal_ids() == []  # type: ignore[attr-defined]
    with pytest.raises(ActionIdError, match="over"):
        done.apply_id(0)  # type: ignore[attr-defined]


def test_observations_have_the_declared_size_and_hide_the_sealed_lay_out() -> None:
    idgame = IdGame("aton")
    state = idgame.new_state(2)
    assert state.observation(0).shape == (idgame.observation_size,)
    first = state.current_player()
    other = 1 - first
    seen_by_other = []
    lay_outs = [i for i in state.legal_ids() if idgame.id_name(i).startswith("allocate")]
    for choice in (lay_outs[0], lay_outs[-1]):
        world = state.clone()
        world.apply_id(choice)  # the first seat lays out, sealed
        assert world.current_player() == other
        seen_by_other.append((world.observation(other), world.information_state_string(other)))
    assert np.array_equal(seen_by_other[0][0], seen_by_other[1][0])
    assert seen_by_other[0][1] == seen_by_other[1][1]


def test_bad_tables_and_options_are_refused_clearly() -> None:
    with pytest.raises(InvalidOptionError, match="players"):
        IdGame("aton", 3)
    with pytest.raises(InvalidOptionError, match="rewards"):
        IdGame("aton", rewards="money")
    with pytest.raises(InvalidOptionError, match="observation"):
        IdGame("aton", observation="pixels")


def test_a_cut_off_game_is_truncated_and_ends_as_it_stands() -> None:
    idgame = IdGame("aton", rewards="score")
    idgame.max_game_length = 5
    state = idgame.new_state(3)
    for _ in range(5):
        state.apply_id(state.legal_ids()[0])
    assert state.truncated and state.is_terminal() and state.current_player() == TERMINAL


def test_a_resampled_world_keeps_the_count_of_ids_not_the_ids() -> None:
    idgame = IdGame("aton")
    state = idgame.new_state(4)
    lay_out = next(i for i in state.legal_ids() if idgame.id_name(i).startswith("allocate"))
    state.apply_id(lay_out)  # the first seat's sealed lay-out: the other never sees it
    other = state.current_player()
    world = state.resample(other, Rng(9))
    assert world.length == state.length == 1
    assert world.ids == []  # the hidden lay-out's id is not handed to the other seat
    assert np.array_equal(world.observation(other), state.observation(other))
    assert world.information_state_string(other) == state.information_state_string(other)

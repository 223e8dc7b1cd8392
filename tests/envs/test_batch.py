"""The batch stepper: stacked arrays that agree with single games, automatic resets with the
documented seeds, and refusals that leave every game as it was."""

from __future__ import annotations

import numpy as np
import pytest

from karnak.core.action_ids import ActionIdError
from karnak.core.errors import InvalidOptionError
from karnak.envs import IdGame
from karnak.envs.batch import Batch, BatchStepper

TABLES = [("aton", 2), ("amunre", 3), ("egyptia", 1), ("egyptia", 2)]


def random_actions(batch: Batch, rng: np.random.Generator) -> np.ndarray:
    """One legal id per row, uniformly among that row's legal ids."""
    noise = rng.random(batch.legal_action_mask.shape)
    return np.argmax(np.where(batch.legal_action_mask, noise, -1.0), axis=1)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_shapes_and_dtypes(game: str, players: int) -> None:
    stepper = BatchStepper(game, 3, players=players, seed=5)
    batch = stepper.reset()
    n, obs, ids = 3, stepper.observation_size, stepper.num_actions
    assert batch.current_player.shape == (n,) and batch.current_player.dtype == np.int32
    assert batch.observation.shape == (n, obs) and batch.observation.dtype == np.float32
    assert batch.legal_action_mask.shape == (n, ids) and batch.legal_action_mask.dtype == bool
    assert batch.rewards.shape == (n, players) and batch.rewards.dtype == np.float32
    assert batch.terminated.shape == batch.truncated.shape == (n,)
    assert batch.legal_action_mask.any(axis=1).all()
    batch = stepper.step(random_actions(batch, np.random.default_rng(0)))
    assert batch.observation.shape == (n, obs)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_rows_are_the_single_games_and_finished_games_restart(game: str, players: int) -> None:
    n, seed = 2, 40
    stepper = BatchStepper(game, n, players=players, seed=seed)
    batch = stepper.reset()
    idgame = IdGame(game, players)
    singles = [idgame.new_state(seed + slot) for slot in range(n)]
    totals = np.zeros((n, players))
    rng = np.random.default_rng(1)
    finished = [0] * n
    while min(finished) < 2:
        for slot, single in enumerate(singles):
            seat = single.current_player()
            assert batch.current_player[slot] == seat
            assert np.array_equal(batch.observation[slot], single.observation(seat))
            assert np.array_equal(batch.legal_action_mask[slot], single.mask())
        actions = random_actions(batch, rng)
        batch = stepper.step(actions)
        totals += batch.rewards
        for slot, single in enumerate(singles):
            single.apply_id(int(actions[slot]))
            assert batch.terminated[slot] == single.state.is_over()
            assert not batch.truncated[slot]
            if single.is_terminal():
                assert totals[slot] == pytest.approx(single.standing())
                totals[slot] = 0.0
                finished[slot] += 1
                # Slot i's k-th game is seed + i + k * n.
                assert stepper.seeds[slot] == seed + slot + finished[slot] * n
                singles[slot] = idgame.new_state(stepper.seeds[slot])
    assert stepper.games_started == [f + 1 for f in finished]


def test_the_same_seed_and_actions_replay_exactly() -> None:
    def run() -> list[np.ndarray]:
        stepper = BatchStepper("amunre", 4, players=3, seed=7)
        batch = stepper.reset()
        rng = np.random.default_rng(3)
        seen = []
        for _ in range(300):
            batch = stepper.step(random_actions(batch, rng))
            seen.append(batch.observation.copy())
            seen.append(batch.rewards.copy())
        return seen

    first, second = run(), run()
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


def test_cut_off_games_report_truncated() -> None:
    stepper = BatchStepper("aton", 2, rewards="score")
    stepper.idgame.max_game_length = 4
    batch = stepper.reset()
    rng = np.random.default_rng(0)
    for _ in range(3):
        batch = stepper.step(random_actions(batch, rng))
        assert not batch.truncated.any()
    batch = stepper.step(random_actions(batch, rng))
    assert batch.truncated.all() and not batch.terminated.any()
    assert stepper.games_started == [2, 2] and stepper.seeds == [2, 3]


def test_illegal_or_malformed_actions_move_no_game() -> None:
    stepper = BatchStepper("aton", 3, seed=1)
    batch = stepper.reset()
    actions = random_actions(batch, np.random.default_rng(0))
    illegal = actions.copy()
    illegal[2] = int(np.flatnonzero(~batch.legal_action_mask[2])[0])
    with pytest.raises(ActionIdError, match="game 2"):
        stepper.step(illegal)
    with pytest.raises(ActionIdError, match="game 0"):
        stepper.step(np.full(3, stepper.num_actions))
    with pytest.raises(ActionIdError, match="shape"):
        stepper.step(actions[:2])
    with pytest.raises(ActionIdError, match="integer"):
        stepper.step(actions.astype(float))
    assert all(state.ids == [] for state in stepper.states)
    stepper.step(actions)
    assert all(len(state.ids) == 1 for state in stepper.states)


def test_bad_settings() -> None:
    with pytest.raises(InvalidOptionError, match="at least 1"):
        BatchStepper("aton", 0)
    with pytest.raises(RuntimeError, match="reset"):
        BatchStepper("aton", 1).step(np.zeros(1, dtype=np.int64))


def test_two_worker_processes_give_the_same_arrays_as_one_process() -> None:
    """The multi-process mode: slices of the games in 2 workers (5 games: an uneven cut),
    the same arrays, seeds and game counts as in this process for the same actions."""

    def run(workers: int) -> tuple[list[np.ndarray], list[int], list[int]]:
        with BatchStepper("egyptia", 5, players=2, seed=11, workers=workers) as stepper:
            batch = stepper.reset()
            rng = np.random.default_rng(4)
            seen = [batch.observation, batch.legal_action_mask, batch.current_player]
            for _ in range(150):
                batch = stepper.step(random_actions(batch, rng))
                seen += [
                    batch.current_player,
                    batch.observation,
                    batch.legal_action_mask,
                    batch.rewards,
                    batch.terminated,
                    batch.truncated,
                ]
            if workers:
                illegal = random_actions(batch, rng)
                illegal[4] = int(np.flatnonzero(~batch.legal_action_mask[4])[0])
                with pytest.raises(ActionIdError, match="game 4"):
                    stepper.step(illegal)
                assert stepper.states == []
            return seen, stepper.seeds, stepper.games_started

    local, parallel = run(0), run(2)
    assert local[1] == parallel[1] and local[2] == parallel[2]
    assert sum(local[2]) > 5, "no game finished: the restarts went untested"
    assert len(local[0]) == len(parallel[0])
    for a, b in zip(local[0], parallel[0], strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_bad_worker_counts_are_refused() -> None:
    with pytest.raises(InvalidOptionError, match="workers"):
        BatchStepper("aton", 2, workers=3)
    with pytest.raises(InvalidOptionError, match="workers"):
        BatchStepper("aton", 2, workers=-1)


def first_illegal(batch: Batch, row: int) -> int:
    return int(np.flatnonzero(~batch.legal_action_mask[row])[0])


@pytest.mark.parametrize("workers", [0, 2])
def test_under_the_penalty_an_illegal_id_ends_only_its_game(workers: int) -> None:
    """Row 1 chooses an id its mask forbids: its game ends without the id being played
    (the offender's rewards add up to -1, the other seat's to 0), the slot deals its next
    game, and the other rows play on exactly as they would have."""
    with (
        BatchStepper("aton", 3, seed=7, illegal="penalty", workers=workers) as stepper,
        BatchStepper("aton", 3, seed=7) as reference,
    ):
        batch, expected = stepper.reset(), reference.reset()
        legal = random_actions(batch, np.random.default_rng(1))
        offender = int(batch.current_player[1])
        actions = legal.copy()
        actions[1] = first_illegal(batch, 1)
        after = stepper.step(actions)
        expected = reference.step(legal)
        assert after.illegal.tolist() == [False, True, False]
        assert after.terminated.tolist() == [False, True, False]
        assert not after.truncated.any()
        assert after.rewards[1, offender] == -1.0 and after.rewards[1, 1 - offender] == 0.0
        assert stepper.games_started == [1, 2, 1]
        assert stepper.seeds[1] == 7 + 1 + 3  # the slot's next game, as after any end
        fresh = IdGame("aton").new_state(stepper.seeds[1])
        assert np.array_equal(after.observation[1], fresh.observation(fresh.current_player()))
        for row in (0, 2):
            assert np.array_equal(after.observation[row], expected.observation[row])
            assert np.array_equal(after.rewards[row], expected.rewards[row])


def test_out_of_range_ids_raise_under_either_policy_and_bad_policies_are_refused() -> None:
    stepper = BatchStepper("aton", 2, seed=3, illegal="penalty")
    batch = stepper.reset()
    for wrong in (-1, stepper.num_actions):
        actions = random_actions(batch, np.random.default_rng(0))
        actions[0] = wrong
        with pytest.raises(ActionIdError, match="out of range"):
            stepper.step(actions)
    assert stepper.games_started == [1, 1]
    with pytest.raises(InvalidOptionError, match="illegal must be one of raise, penalty"):
        BatchStepper("aton", 2, illegal="ignore")
    raising = BatchStepper("aton", 2, seed=3)
    batch = raising.reset()
    actions = random_actions(batch, np.random.default_rng(0))
    actions[1] = first_illegal(batch, 1)
    with pytest.raises(ActionIdError, match=r"game 1: .* is not legal"):
        raising.step(actions)

"""The fast path of the id layer: masks worked out once a position (IdState), spellings
remembered by move identity (Speller), and the same answers as the plain reference: every
legal move spelled with ``space.spell`` and its next id collected, at every step of random
games of every game; pure Python and compiled alike."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from karnak.core import Rng
from karnak.core.action_ids import MEMO_LIMIT, ActionIdError, Speller, Spelling
from karnak.core.state import State
from karnak.envs import TERMINAL, IdGame, IdState

#: (game, players, options): every game, spelled moves included (Amun-Re's offerings with
#: cards, Egyptia's payments).
TABLES: list[tuple[str, int, dict[str, Any]]] = [
    ("aton", 2, {}),
    ("amunre", 3, {"offer_cards": True}),
    ("egyptia", 2, {}),
]
DIGEST = Path(__file__).with_name("fast_path_digest.py")


def reference_ids(idgame: IdGame, state: State, seat: int, prefix: Spelling) -> list[int]:
    """The ids legal next, the plain way: spell every legal move, keep the next id of those
    that begin with ``prefix``."""
    depth = len(prefix)
    found = set()
    for action in state.legal_actions(seat):
        spelling = idgame.space.spell(action)
        if len(spelling) > depth and spelling[:depth] == prefix:
            found.add(spelling[depth])
    return sorted(found)


@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_masks_and_steps_agree_with_the_reference(
    game: str, players: int, options: dict[str, Any]
) -> None:
    idgame = IdGame(game, players, options=options)
    spelled = 0
    for seed in range(2):
        state = idgame.new_state(seed)
        rng = Rng(seed)
        while not state.is_terminal():
            seat = state.current_player()
            expected = reference_ids(idgame, state.state, seat, state.prefix)
            mask = state.mask(seat)
            assert list(np.flatnonzero(mask)) == expected == state.legal_ids()
            # a NumPy integer is a seat too (compiled as well)
            assert state.legal_ids(np.int64(seat)) == expected
            assert state.mask(np.int64(seat)).tobytes() == mask.tobytes()
            assert state.observation(np.int64(seat)).tobytes() == state.observation(seat).tobytes()
            assert mask.dtype == np.bool_ and mask.shape == (idgame.num_actions,)
            mask[:] = True  # the caller's own array: the next answer is unchanged
            assert list(np.flatnonzero(state.mask())) == expected
            fresh = Speller(idgame.space)  # nothing remembered yet
            assert fresh.legal_ids(state.state, seat, state.prefix) == expected
            for other in range(players):
                if other != seat:
                    assert not state.mask(other).any() and state.legal_ids(other) == []
                # written into a used buffer: the same bits as a fresh vector
                out = np.full(idgame.observation_size, np.nan, dtype=np.float32)
                assert state.observation(other, out=out) is out
                vector = state.observation(other)
                assert out.tobytes() == vector.tobytes()
                # the remembered tensor (while a seat spells) is the one worked out afresh,
                # and the vector handed out is the caller's own: writing to it changes
                # nothing remembered
                spelling = state.prefix if other == seat else ()
                fresh = idgame.vector(state.state, other, spelling)
                assert vector.tobytes() == fresh.tobytes()
                vector[:] = -1.0
                assert state.observation(other).tobytes() == fresh.tobytes()
            if rng.below(4) == 0:  # an illegal id: refused, nothing changes
                illegal = next(i for i in range(idgame.num_actions) if i not in expected)
                before = (state.prefix, state.length, len(state.state.history))
                with pytest.raises(ActionIdError):
                    state.apply_id(illegal)
                assert (state.prefix, state.length, len(state.state.history)) == before
            chosen = expected[rng.below(len(expected))]
            reference = Speller(idgame.space).choose(state.state, seat, state.prefix, chosen)
            # a NumPy integer is an id too (what a policy's argmax gives), compiled as well
            state.apply_id(np.int64(chosen) if state.length % 2 else chosen)
            spelled += bool(state.prefix)
            if not reference[0]:  # the move was played: the same move as the reference
                assert state.state.history[-1] == (seat, reference[1])
            else:
                assert state.prefix == reference[0]
        assert state.legal_ids() == [] and not state.mask().any()
        assert state.current_player() == TERMINAL
    if game != "aton":
        assert spelled, "no spelled move was played: the test misses the spelling path"


def test_a_state_changed_behind_the_id_state_is_worked_out_afresh() -> None:
    idgame = IdGame("aton")
    state = idgame.new_state(3)
    first = state.legal_ids()
    seat = state.current_player()
    move = state.state.legal_actions(seat)[-1]
    state.state.apply(seat, move)  # not through apply_id
    assert state.legal_ids() == reference_ids(idgame, state.state, state.current_player(), ())
    assert state.legal_ids() != first or state.current_player() != seat
    # a different state object in the same slot
    other = idgame.new_state(4)
    state.state = other.state
    assert state.legal_ids() == other.legal_ids()


def test_a_remembered_tensor_is_dropped_when_the_state_changes_behind_the_id_state() -> None:
    idgame = IdGame("amunre", 3, options={"offer_cards": True})
    state = idgame.new_state(2)
    rng = Rng(2)
    while not state.prefix:  # play on until a seat is half way through a spelling
        state.apply_id(state.legal_ids()[rng.below(len(state.legal_ids()))])
        assert not state.is_terminal()
    seat = state.current_player()
    others = [s for s in range(3) if s != seat]
    state.observation(others[0])  # remembered now
    # another state object in the same slot
    state.state = idgame.new_state(9).state
    state.prefix = ()
    assert state.observation(others[0]).tobytes() == (
        idgame.vector(state.state, others[0], ()).tobytes()
    )
    mover = state.current_player()
    state.state.apply(mover, state.state.legal_actions(mover)[0])  # same object, one move on
    for viewer in range(3):
        assert state.observation(viewer).tobytes() == (
            idgame.vector(state.state, viewer, ()).tobytes()
        )


@pytest.mark.parametrize(("game", "players", "options"), TABLES)
def test_a_whole_move_is_its_ids_chosen_one_by_one(
    game: str, players: int, options: dict[str, Any]
) -> None:
    """``apply_move`` (a bot's move, as the Gymnasium env plays its opponents) leaves the
    same state, ids and length as choosing the move's ids one at a time."""
    idgame = IdGame(game, players, options=options)
    whole, by_id = idgame.new_state(4), idgame.new_state(4)
    rng = Rng(4)
    several = 0
    while not whole.is_terminal():
        seat = whole.current_player()
        legal = whole.state.legal_actions(seat)
        move = legal[rng.below(len(legal))]
        spelling = idgame.space.spell(move)
        several += len(spelling) > 1
        # with the list the move was drawn from (as a bot's SeatView holds it), or without
        whole.apply_move(move, legal if whole.length % 2 else None)
        for action_id in spelling:
            by_id.apply_id(action_id)
        assert whole.ids == by_id.ids and whole.length == by_id.length
        assert whole.state.to_json() == by_id.state.to_json()
        assert whole.legal_ids() == by_id.legal_ids()
    assert by_id.is_terminal()
    if game != "aton":
        assert several, "no move of several ids: the test misses what apply_move saves"


def test_a_whole_move_is_checked_and_refused_whole() -> None:
    from karnak.core.errors import IllegalActionError

    idgame = IdGame("aton")
    state = idgame.new_state(1)
    seat = state.current_player()
    legal = state.state.legal_actions(seat)
    stranger = next(
        idgame.space.action_of_id(i)
        for i in range(idgame.num_actions)
        if idgame.space.action_of_id(i) not in legal
    )
    before = (state.state.to_json(), list(state.ids), state.length)
    with pytest.raises(IllegalActionError):
        state.apply_move(stranger)
    with pytest.raises(IllegalActionError):  # a list that does not hold it changes nothing
        state.apply_move(stranger, legal)
    assert (state.state.to_json(), state.ids, state.length) == before
    # an equal move that is not the engine's own object is checked and played
    twin = idgame.space.action_of_id(idgame.space.spell(legal[0])[0])
    state.apply_move(twin)
    assert state.ids == [idgame.space.spell(legal[0])[0]] and state.length == 1


def test_a_whole_move_at_the_length_limit_is_cut_off_as_its_ids_would_be() -> None:
    idgame = IdGame("amunre", 3, options={"offer_cards": True})
    whole, by_id = idgame.new_state(6), idgame.new_state(6)
    idgame.max_game_length = 12  # this object only: the cut comes early
    rng = Rng(6)
    while not whole.is_terminal():
        seat = whole.current_player()
        legal = whole.state.legal_actions(seat)
        move = legal[rng.below(len(legal))]
        whole.apply_move(move)
        for action_id in idgame.space.spell(move):
            if by_id.is_terminal():
                break
            by_id.apply_id(action_id)
        assert (whole.ids, whole.length, whole.prefix, whole.truncated) == (
            by_id.ids,
            by_id.length,
            by_id.prefix,
            by_id.truncated,
        )
    assert whole.truncated and whole.length == 12


def test_a_full_memory_starts_afresh() -> None:
    idgame = IdGame("aton")
    speller = Speller(idgame.space)
    assert speller.memo_limit == MEMO_LIMIT
    speller.memo_limit = 3
    state = idgame.new_state(0)
    seat = state.current_player()
    actions = state.state.legal_actions(seat)
    assert len(actions) > 3
    assert speller.spellings(actions) == [idgame.space.spell(a) for a in actions]
    assert len(speller._memo) <= 3
    assert speller.legal_ids(state.state, seat) == reference_ids(idgame, state.state, seat, ())


def test_a_clone_and_a_world_answer_for_themselves() -> None:
    idgame = IdGame("amunre", 3)
    state = idgame.new_state(5)
    state.mask()
    copy = state.clone()
    copy.apply_id(copy.legal_ids()[0])
    assert state.legal_ids() == reference_ids(idgame, state.state, state.current_player(), ())
    assert copy.legal_ids() == reference_ids(idgame, copy.state, copy.current_player(), copy.prefix)
    world: IdState = state.resample(state.current_player(), Rng(1))
    assert world.legal_ids() == reference_ids(idgame, world.state, world.current_player(), ())


def run_digest(native: bool) -> dict[str, str]:
    env = {**os.environ, "KARNAK_NATIVE": "1" if native else "0"}
    done = subprocess.run(
        [sys.executable, str(DIGEST)], env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    answer: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def test_compiled_and_pure_python_give_the_same_masks_and_vectors() -> None:
    compiled = run_digest(native=True)
    if compiled["native"] != "on":
        if os.environ.get("KARNAK_REQUIRE_NATIVE") == "1":
            pytest.fail(f"the compiled modules are not in use: {compiled}")
        pytest.skip("nothing compiled here (make native)")
    pure = run_digest(native=False)
    assert pure["native"] == "off"
    assert compiled["digest"] == pure["digest"]

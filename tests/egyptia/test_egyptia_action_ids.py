"""Egyptia's integer actions: 201 ids on the printed sheet at any table size; a payment is
spelled in parts; every legal move has one spelling that comes back to it; masks are the next
parts of the legal moves; whole games play by ids within the declared length and scores."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import Rng
from karnak.core.action_ids import ActionIdError, Speller
from karnak.core.errors import InvalidActionTextError
from karnak.games.aton.rules.actions import Exchange
from karnak.games.egyptia import GAME, Egyptia, EgyptiaState
from karnak.games.egyptia.rules.actions import Build, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.sheet import default_sheet, parse_sheet
from support.hypothesis_settings import deterministic

SPACE = GAME.action_space(2)


def _bigger_sheet_game() -> Egyptia:
    """A corrected sheet with moves the printed one lacks: a fourth ship (more ship and
    Hail-fire ids) and a Burial Mound of 3 basic resources (more gains)."""
    raw = copy.deepcopy(dict(default_sheet().raw))
    raw["ships"].append({"number": 4, "gives": {"stone": 1, "favor": 1}})
    raw["surcharges"]["burial_mound_basic"] = 3
    return GAME.with_sheet(parse_sheet(raw, source="test"))


BIGGER = _bigger_sheet_game()


def test_the_space_of_the_printed_sheet() -> None:
    assert SPACE.size == 4 + 3 + 9 + 3 + 6 * 18 + 7 + (18 * 3 + 12) + 1 == 201
    assert SPACE.id_name(0) == "choose grain"
    assert SPACE.id_name(6) == "ship 3"
    assert SPACE.id_name(7) == "plague locusts"
    assert SPACE.id_name(16) == "plague hail-fire 1"
    assert SPACE.id_name(19) == "build pyramid A1"
    assert SPACE.id_name(19 + 18 + 4) == "build quarry B2"
    assert SPACE.id_name(126) == "build mound E3"
    assert SPACE.id_name(127) == "gain 2g"
    assert SPACE.id_name(134) == "pay part 1g"
    assert SPACE.id_name(134 + 18 + 1) == "pay part 2d"
    assert SPACE.id_name(199) == "pay part 12f"
    assert SPACE.id_name(200) == "pay done"
    parts = 0
    for action_id in range(SPACE.size):  # a single-id move's name is its text, and back
        name = SPACE.id_name(action_id)
        try:
            action = GAME.parse_action(name)
        except InvalidActionTextError:
            assert name.startswith("pay ")  # only a payment's parts are not moves
            parts += 1
            continue
        assert action.to_text() == name and SPACE.spell(action) == (action_id,)
    assert parts == 18 * 3 + 12 + 1
    for bad in (-1, SPACE.size, True):
        with pytest.raises(ActionIdError):
            SPACE.id_name(bad)


def test_the_size_does_not_grow_with_the_table_but_the_game_length_does() -> None:
    for players in (1, 4, 99):
        space = GAME.action_space(players, {"cards": "A1,B2"})
        assert space.size == SPACE.size
        assert [space.id_name(i) for i in range(space.size)] == [
            SPACE.id_name(i) for i in range(SPACE.size)
        ]
        assert space.max_game_length == players * (18 * 8 + 5 * 5 + 3)
    for players in (0, 100):
        with pytest.raises(Exception, match="players"):
            GAME.action_space(players)
    with pytest.raises(Exception, match="Pharaoh card"):
        GAME.action_space(2, {"cards": "Z9"})
    bigger = BIGGER.action_space(2)
    for game, space in ((GAME, SPACE), (BIGGER, bigger)):  # the gains the engine offers
        assert list(space.gains) == game.new_state(1).mound_gains()
    assert bigger.size == SPACE.size + 2 + 4  # a ship, its Hail-fire, 11 gains instead of 7
    assert bigger.id_name(7) == "ship 4"
    assert bigger.max_game_length == 2 * (18 * 8 + 5 * 5 + 4)


def test_payments_are_spelled_by_their_parts_then_done() -> None:
    part = {name: i for i in range(SPACE.size) if (name := SPACE.id_name(i)).startswith("pay")}
    assert SPACE.spell(Pay((1, 2, 0, 0))) == (part["pay part 1g"], part["pay part 2d"], 200)
    assert SPACE.spell(Pay((0, 0, 3, 1))) == (part["pay part 3s"], part["pay part 1f"], 200)
    assert SPACE.spell(Pay((0, 0, 0, 12))) == (199, 200)
    assert SPACE.spell(Pay((18, 18, 18, 12))) == (151, 169, 187, 199, 200)
    assert SPACE.spell(Pay((1, 2, 0, 0))) is SPACE.spell(Pay((1, 2, 0, 0)))  # remembered


def test_a_move_not_on_the_sheet_or_of_another_game_has_no_spelling() -> None:
    for action in (
        Exchange(),
        "choose grain",
        Build("pyramid", "Z9"),
        Build("mound", "C3"),  # the Oasis
        UseShip(4),
        Plague("hail-fire", 4),
        Gain((3, 0, 0, 0)),
        Pay((0, 0, 0, 13)),
        Pay((-1, 0, 0, 0)),
    ):
        with pytest.raises(ActionIdError):
            SPACE.spell(action)
    assert BIGGER.action_space(1).spell(Gain((3, 0, 0, 0)))


def _random_position(game: Egyptia, players: int, seed: int, cards: str) -> EgyptiaState:
    """Random legal moves, seats interleaved (waiting ones now and then using a ship)."""
    state = game.new_state(players, seed=seed, options={"cards": cards})
    rng = Rng(seed)
    for _ in range(rng.below(40 * players)):
        if state.is_over():
            break
        seats = [s for s in range(players) if state.legal_actions(s)]
        seat = seats[rng.below(len(seats))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


def _check_spellings(game: Egyptia, state: EgyptiaState) -> int:
    """Every legal move of every seat: one spelling, back to the move; the ids legal after
    each prefix are the next parts of the legal spellings. Returns the moves checked."""
    space = game.action_space(state.n)
    speller = Speller(space)
    checked = 0
    for seat in range(state.n):
        legal = state.legal_actions(seat)
        spellings = {space.spell(action): action for action in legal}
        assert len(spellings) == len(legal)  # no two moves share a spelling
        for spelling, action in spellings.items():
            assert all(0 <= i < space.size for i in spelling)
            assert speller.action_of(state, seat, spelling) == action
            checked += 1
        prefixes = {s[:k] for s in spellings for k in range(len(s))}
        assert not prefixes & spellings.keys()  # prefix-free: no spelling begins another
        for prefix in prefixes:
            nexts = {s[len(prefix)] for s in spellings if s[: len(prefix)] == prefix}
            assert speller.legal_ids(state, seat, prefix) == sorted(nexts)
            mask = speller.mask(state, seat, prefix)
            assert set(mask.nonzero()[0].tolist()) == nexts
        if not legal:
            assert not speller.mask(state, seat).any()
    return checked


@deterministic(25)
@given(
    players=st.sampled_from([1, 2, 3, 5]),
    seed=st.integers(0, 100_000),
    cards=st.sampled_from(["", "A1,B2,C3,D2,E1"]),
    bigger=st.booleans(),
)
def test_every_legal_move_has_one_spelling_back_to_it(
    players: int, seed: int, cards: str, bigger: bool
) -> None:
    game = BIGGER if bigger else GAME
    state = _random_position(game, players, seed, cards)
    _check_spellings(game, state)


def test_payments_and_plagues_are_reached_at_random_positions() -> None:
    """The positions above do reach the spelled-out moves (else they test little)."""
    kinds: set[str] = set()
    for seed in range(60):
        state = _random_position(GAME, 2, seed, "")
        for seat in range(2):
            for action in state.legal_actions(seat):
                kinds.add(type(action).__name__)
                if isinstance(action, Pay) and len(SPACE.spell(action)) > 2:
                    kinds.add("mixed payment")
        _check_spellings(GAME, state)
    assert kinds >= {"Choose", "UseShip", "Plague", "Build", "Pay", "Gain", "mixed payment"}


def play_by_ids(game: Egyptia, players: int, seed: int) -> tuple[EgyptiaState, int]:
    """A whole game by ids only, through Speller.choose: each step a random seat that may act
    (the seats of one round interleave, spelling payments side by side), a random legal id.
    Returns the game's end and the ids it took."""
    space = game.action_space(players)
    speller = Speller(space)
    low, high = game.score_bounds(players)
    state = game.new_state(players, seed=seed)
    rng = Rng(seed)
    prefixes: dict[int, tuple[int, ...]] = dict.fromkeys(range(players), ())
    taken = 0
    while not state.is_over():
        seats = list(state.to_move())
        waiting = [s for s in range(players) if s not in seats and state.legal_actions(s)]
        if waiting and rng.below(8) == 0:
            seats = waiting  # a builder waiting for the others uses a ship
        seat = seats[rng.below(len(seats))]
        ids = speller.legal_ids(state, seat, prefixes[seat])
        assert ids, "a seat to move always has an id"
        prefixes[seat], action = speller.choose(
            state, seat, prefixes[seat], ids[rng.below(len(ids))]
        )
        taken += 1
        if action is not None:
            state.apply(seat, action)
            assert all(low <= score <= high for score in state.scores())
    assert all(prefix == () for prefix in prefixes.values())
    return state, taken


@deterministic(6)
@given(players=st.sampled_from([1, 2, 3, 4]), seed=st.integers(0, 100_000))
def test_whole_games_play_by_ids_within_the_declared_length(players: int, seed: int) -> None:
    state, taken = play_by_ids(GAME, players, seed)
    assert state.is_over() and len(state.history) <= taken
    assert taken <= GAME.action_space(players).max_game_length


def test_several_seats_spell_payments_in_the_same_round() -> None:
    """Interleaved spelling: one seat's unfinished payment survives the others' moves."""
    for seed in range(40):
        state = GAME.new_state(3, seed=seed)
        speller = Speller(SPACE)
        rng = Rng(seed)
        while not state.is_over():
            paying = [s for s in state.to_move() if state.stage[s].endswith("_pay")]
            mixed = [
                s for s in paying if any(len(SPACE.spell(a)) > 2 for a in state.legal_actions(s))
            ]
            if len(paying) >= 2 and mixed:
                first = mixed[0]
                start = next(
                    SPACE.spell(a) for a in state.legal_actions(first) if len(SPACE.spell(a)) > 2
                )
                prefix, action = speller.choose(state, first, (), start[0])
                assert action is None
                other = next(s for s in paying if s != first)
                move = state.legal_actions(other)[0]
                state.apply(other, speller.action_of(state, other, SPACE.spell(move)))
                for part in start[1:]:
                    prefix, action = speller.choose(state, first, prefix, part)
                assert action is not None and SPACE.spell(action) == start
                return
            seats = state.to_move()
            seat = seats[rng.below(len(seats))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
    pytest.fail("no round had two builders paying at once")


def test_score_bounds() -> None:
    # D2 scores 189 for 18 Obelisks; 12 favor make 6 points; 3 unused ships 6; Pestilence -2
    assert GAME.score_bounds(2) == (-2, 189 + 6 + 6)
    # A1 5, B1 3, C1 3, D1 4 a building; E1 a Field 1 per Sacred Site it touches (2 at most)
    assert GAME.score_bounds(1, {"cards": "A1,B1,C1,D1,E1"}) == (-2, 18 * 5 + 6 + 6)
    # rules 1.0: the end trade may take favor past its track, 54 basic dots making 18 favor
    assert GAME.at_version("1.0").score_bounds(3) == (-2, 189 + (12 + 18) // 2 + 6)
    with pytest.raises(Exception, match="players"):
        GAME.score_bounds(100)
    for seed in range(3):  # the extremes are never passed in random games
        state, _ = play_by_ids(GAME, 2, seed)
        low, high = GAME.score_bounds(2, state.options)
        assert all(low <= score <= high for score in state.scores())

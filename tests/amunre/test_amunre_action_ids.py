"""Amun-Re's integer actions (karnak.games.amunre.research.action_ids).

Every one-id move's name is its text and comes back to its id; offerings are spelled in parts
(gold or theft, cards, correction, "offer done"). At random positions of random games (every
table size, the options that change the moves) each legal move has exactly one spelling, none
begins another, the Speller turns it back into the move, and the ids legal after each prefix
are the next ids of the legal spellings. Whole games play to the end by ids alone, within
``max_game_length`` and the score bounds.
"""

from __future__ import annotations

from itertools import product
from typing import Any, get_args

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import Rng
from karnak.core.action_ids import ActionIdError, Speller, Spelling
from karnak.core.actions import Action
from karnak.games.amunre import GAME
from karnak.games.amunre.research.action_ids import GOLD_CARRY, AmunReActionSpace, _most_stones
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import BONUS_KINDS, CARD_KINDS
from karnak.games.amunre.rules.state import OFFERING, AmunReState
from karnak.games.aton.rules.actions import Exchange
from support.hypothesis_settings import deterministic

NAMES = GAME.board.province_names
SPACES = GAME.board.bid_spaces
OPTIONS = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(["2003", "2016"]),
        "expert_provinces": st.booleans(),
        "offer_cards": st.booleans(),
    }
)


def test_the_space_of_the_printed_board() -> None:
    space = GAME.action_space(4)
    provinces, bids = len(NAMES), len(SPACES)
    assert (provinces, bids) == (15, 9)
    # done, take card, 2 adjusts, 4 buy-cards, 12 sells, 5 bonuses, 9 province blocks, the
    # bids, then theft, offer 0-99, +100, 12 cards, +correction, offer done.
    expected = 1 + 1 + 2 + 4 + 12 + 5 + 9 * provinces + 4 * provinces * bids
    expected += 1 + GOLD_CARRY + 1 + 12 + 1 + 1
    assert space.size == expected == 816
    for players in (3, 4, 5):
        for options in ({}, {"expert_provinces": True}, {"offer_cards": True}):
            assert GAME.action_space(players, options).size == expected  # ids mean one thing
    assert space.id_name(0) == "done"
    assert space.id_name(7) == "buy-cards 4"
    assert space.id_name(8) == "sell blockade"
    assert space.id_name(space.bid_base) == f"bid {NAMES[0]} 0"
    assert space.id_name(space.bid_base + 4 * bids - 1) == f"bid {NAMES[0]} 36 +blockade +overbid"
    assert space.id_name(space.theft_id - 1) == f"bid {NAMES[-1]} 36 +blockade +overbid"
    assert space.id_name(space.theft_id) == "offer theft"
    assert space.id_name(space.gold_base + 7) == "offer 7"
    assert space.id_name(space.carry_id) == "offer +100"
    assert space.id_name(space.card_base + 4) == "card correction"
    assert space.id_name(space.size - 2) == "+correction"
    assert space.id_name(space.size - 1) == "offer done"
    named = 0
    for action_id in range(space.theft_id):  # every one-id move's name is its text, and back
        action = GAME.parse_action(space.id_name(action_id))
        assert space.spell(action) == (action_id,)
        assert action.to_text() == space.id_name(action_id)
        named += 1
    assert named == space.theft_id
    names = [space.id_name(i) for i in range(space.size)]
    assert len(set(names)) == space.size
    for bad in (-1, space.size, True):
        with pytest.raises(ActionIdError):
            space.id_name(bad)
    with pytest.raises(Exception, match="players"):
        GAME.action_space(6)


def test_every_kind_of_move_has_ids() -> None:
    space = GAME.action_space(3)
    samples: list[Any] = [
        A.Bid(NAMES[2], 0),
        A.Bid(NAMES[2], 21, blockade=True, overbid=True),
        A.BuyCards(1),
        A.Farmer(NAMES[0]),
        A.Stone(NAMES[0]),
        A.Builder(NAMES[0]),
        A.FreeFarmer(NAMES[0]),
        A.DONE,
        A.Sell("blockade"),
        A.Offer(gold=3),
        A.Adjust(-3),
        A.TAKE_CARD,
        A.TakeFarmer(NAMES[1]),
        A.TakeStone(NAMES[1]),
        A.EightGold(NAMES[1]),
        A.HarvestIncrease(NAMES[1]),
        A.PlayBonus("side_bonus"),
        A.Pick(NAMES[3]),
    ]
    assert {type(a) for a in samples} == set(get_args(A.AmunReAction))
    seen: set[Spelling] = set()
    for action in samples:
        spelling = space.spell(action)
        assert all(0 <= i < space.size for i in spelling)
        seen.add(spelling)
    assert len(seen) == len(samples)
    for kind in CARD_KINDS:
        assert space.id_name(space.spell(A.Sell(kind))[0]) == f"sell {kind}"
    for kind in BONUS_KINDS:
        assert space.id_name(space.spell(A.PlayBonus(kind))[0]) == f"bonus {kind}"


def test_offerings_are_spelled_in_parts() -> None:
    space = GAME.action_space(5)

    def names(offer: A.Offer) -> list[str]:
        return [space.id_name(i) for i in space.spell(offer)]

    assert names(A.Offer(gold=5)) == ["offer 5", "offer done"]
    assert names(A.Offer(theft=True, correction=True)) == [
        "offer theft",
        "+correction",
        "offer done",
    ]
    # Cards in sorted order whatever the tuple's order; gold past 99 with the carry id.
    offer = A.Offer(gold=250, correction=True, cards=("overbid", "blockade", "overbid"))
    assert names(offer) == [
        *("offer +100", "offer +100", "offer 50"),
        *("card blockade", "card overbid", "card overbid"),
        *("+correction", "offer done"),
    ]
    assert names(A.Offer(gold=0, cards=("builder",))) == ["offer 0", "card builder", "offer done"]
    assert names(A.Offer(gold=100)) == ["offer +100", "offer 0", "offer done"]
    for bad in (
        A.Offer(gold=2, theft=True),
        A.Offer(theft=True, cards=("builder",)),
        A.Offer(gold=-1),
        A.Bid(NAMES[0], 2),  # not a bid space
        A.Bid("NOWHERE", 0),
        A.BuyCards(0),
        A.BuyCards(5),
        A.Adjust(2),
        Exchange(),  # an Aton move
        "done",
        ["done"],
    ):
        with pytest.raises(ActionIdError):
            space.spell(bad)


def test_rich_offerings_are_reached_through_the_carry_id() -> None:
    state = GAME.new_state(3, seed=3, options={"offer_cards": True})
    rng = Rng(3)
    while state.phase != OFFERING:
        seat = state.to_move()[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    seat = state.to_move()[0]
    state.gold[seat] = 234  # a position richer than the game reaches, for the spelling only
    space = GAME.action_space(3, {"offer_cards": True})
    speller = Speller(space)
    first = speller.legal_ids(state, seat)
    assert space.carry_id in first and space.gold_base + 99 in first
    prefix, action = speller.choose(state, seat, (), space.carry_id)
    assert action is None
    after = speller.legal_ids(state, seat, prefix)
    assert space.carry_id in after and space.gold_base + 99 in after  # 100 + 99 <= 234
    prefix, action = speller.choose(state, seat, prefix, space.carry_id)
    assert speller.legal_ids(state, seat, prefix)[-1] == space.gold_base + 34
    assert space.carry_id not in speller.legal_ids(state, seat, prefix)
    prefix, action = speller.choose(state, seat, prefix, space.gold_base + 34)
    prefix, action = speller.choose(state, seat, prefix, space.offer_done_id)
    assert action == A.Offer(gold=234)


def _check_position(state: AmunReState, seat: int, space: AmunReActionSpace, rng: Rng) -> None:
    """One spelling a legal move, prefix-free, the Speller's reading and masks agree."""
    speller = Speller(space)
    legal = state.legal_actions(seat)
    spellings = {space.spell(a): a for a in legal}
    assert len(spellings) == len(legal)  # one spelling a move, no two moves share one
    nexts: dict[Spelling, set[int]] = {}
    for spelling in spellings:
        for depth in range(len(spelling)):
            nexts.setdefault(spelling[:depth], set()).add(spelling[depth])
    assert not set(nexts) & set(spellings)  # prefix-free: no spelling begins another
    prefixes = sorted(nexts, key=len)
    if len(prefixes) > 40:  # big card offerings: the start and a sample of the rest
        prefixes = [()] + [prefixes[1 + rng.below(len(prefixes) - 1)] for _ in range(39)]
    for prefix in prefixes:
        mask = speller.mask(state, seat, prefix)
        assert sorted(nexts[prefix]) == list(np.flatnonzero(mask))
    moves = list(spellings.items())
    if len(moves) > 60:
        moves = [moves[rng.below(len(moves))] for _ in range(60)]
    for spelling, action in moves:
        assert speller.action_of(state, seat, spelling) == action
        if len(spelling) > 1:
            with pytest.raises(ActionIdError):
                speller.action_of(state, seat, spelling[:-1])


def _random_move(state: AmunReState, seat: int, rng: Rng) -> Action:
    legal = state.legal_actions(seat)
    return legal[rng.below(len(legal))]


@deterministic(12)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5), options=OPTIONS)
def test_every_legal_move_has_one_spelling_and_masks_follow_it(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    state = GAME.new_state(players, seed=seed, options=options)
    space = GAME.action_space(players, options)
    rng = Rng(seed)
    checked = 0
    while not state.is_over():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        if rng.below(4) == 0 or state.phase in ("offering", "adjust", "scoring"):
            _check_position(state, seat, space, rng)
            checked += 1
        state.apply(seat, _random_move(state, seat, rng))
    assert checked > 10


def _play_by_ids(seed: int, players: int, options: dict[str, Any]) -> int:
    """A whole game chosen id by id among the Speller's legal ids; the ids it took."""
    state = GAME.new_state(players, seed=seed, options=options)
    space = GAME.action_space(players, options)
    lo, hi = GAME.score_bounds(players, options)
    speller = Speller(space)
    rng = Rng(seed)
    used = 0
    while not state.is_over():
        movers = state.to_move()
        for other in range(players):
            if other not in movers:
                assert not speller.mask(state, other).any()
        seat = movers[rng.below(len(movers))]
        prefix: Spelling = ()
        while True:
            ids = speller.legal_ids(state, seat, prefix)
            assert ids
            prefix, action = speller.choose(state, seat, prefix, ids[rng.below(len(ids))])
            used += 1
            if action is not None:
                break
        state.apply(seat, action)
        assert all(lo <= s <= hi for s in state.scores())
    assert used <= space.max_game_length
    return used


@deterministic(30)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 5), options=OPTIONS)
def test_whole_games_play_by_ids_within_the_bounds(
    seed: int, players: int, options: dict[str, Any]
) -> None:
    assert _play_by_ids(seed, players, options) > 20 * players


def test_the_bounds_grow_with_the_table_and_the_options() -> None:
    lengths = [GAME.action_space(n).max_game_length for n in (3, 4, 5)]
    assert lengths == sorted(set(lengths))
    expert = GAME.action_space(4, {"expert_provinces": True}).max_game_length
    assert expert == lengths[1] + 4 * 6  # one pick a round a seat
    for n in (3, 4, 5):
        lo, hi = GAME.score_bounds(n)
        assert lo == 0 and hi > 100
    with pytest.raises(Exception, match="players"):
        GAME.score_bounds(2)


def test_the_stone_bound_is_the_most_stones_the_gold_buys() -> None:
    """The greedy behind ``max_game_length`` against every split of stones over the turns."""
    for turns in (1, 2, 3):
        for gold in range(0, 40):
            best = max(
                sum(split)
                for split in product(range(10), repeat=turns)
                if sum(t * (t + 1) // 2 for t in split) <= gold
            )
            assert _most_stones(turns, gold) == best, (turns, gold)
    assert _most_stones(0, 100) == 0

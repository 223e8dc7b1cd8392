"""Amun-Re's heuristic defends a Nile-side majority before a rival draws level with it.

The +5 of a side of the Nile goes to the province with the most pyramids there (stones break
a tie). A rival province one pyramid behind can draw level in one market (three stones, or
fewer with a builder or stones already there) and then take the bonus on stones; the old
rule of thumb only defended a lead that was already tied. These positions are built by hand
on a state of a real game, at a market decision.
"""

from __future__ import annotations

import pytest

from karnak.core import Rng, get_game
from karnak.games.amunre import bot
from karnak.games.amunre.rules.state import MARKET, AmunReState

GAME = get_game("amunre")


def market_position() -> tuple[AmunReState, int]:
    """A 4-player game at seat 0's first market decision, every province unowned and
    empty: the positions below are laid out on it."""
    state = GAME.new_state(4, seed=11)
    assert isinstance(state, AmunReState)
    rng = Rng(11)
    while not (state.phase == MARKET and 0 in state.to_move()):
        seat = state.to_move()[0]
        state.apply(seat, bot.act(state, seat, rng))
    state = state.clone()
    state.owner = [-1] * len(state.owner)
    state.pyramids = [0] * len(state.pyramids)
    state.stones = [0] * len(state.stones)
    state.on_auction = []
    state._rebuild_own()
    return state, 0


def sides(state: AmunReState) -> tuple[list[int], list[int]]:
    east = bot._tables(state.board).east
    return [p for p in range(len(east)) if not east[p]], [p for p in range(len(east)) if east[p]]


def lay_out(
    state: AmunReState,
    seat: int,
    mine: dict[int, tuple[int, int]],
    rival: dict[int, tuple[int, int]],
) -> None:
    """Give ``seat`` the provinces of ``mine`` and seat (seat + 1) those of ``rival``, each
    with its (pyramids, stones)."""
    for owner, provinces in ((seat, mine), ((seat + 1) % state.n, rival)):
        for p, (pyramids, stones) in provinces.items():
            state.owner[p] = owner
            state.pyramids[p] = pyramids
            state.stones[p] = stones
    state._rebuild_own()


def majority_credit(rival_pyramids: int, mine: int = 2) -> float:
    """What one more pyramid in my west majority province is worth over the same position
    with no rival on the west bank."""
    state, seat = market_position()
    west, east = sides(state)
    ours, theirs, other = west[0], west[1], east[0]
    lay_out(state, seat, {ours: (mine, 0), other: (mine, 0)}, {theirs: (rival_pyramids, 0)})
    threatened = bot.pyramid_value(state, seat, ours, bot._nile_keys(state, seat))
    lay_out(state, seat, {}, {theirs: (0, 0)})
    alone = bot.pyramid_value(state, seat, ours, bot._nile_keys(state, seat))
    return threatened - alone


def test_a_rival_one_pyramid_behind_is_a_threat_to_defend() -> None:
    assert majority_credit(1) == pytest.approx(bot.KEEP_ONE_BEHIND)
    assert bot.KEEP_ONE_BEHIND > 0.0


def test_a_rival_level_with_the_lead_is_defended_as_before() -> None:
    assert majority_credit(2) == pytest.approx(bot.KEEP_TIED)


def test_a_rival_two_pyramids_behind_is_no_threat_yet() -> None:
    assert majority_credit(1, mine=3) == pytest.approx(0.0)


def test_the_values_of_every_province_agree_with_the_value_of_one() -> None:
    """The market asks for all of a seat's provinces at once (a faster path): same figures."""
    state, seat = market_position()
    west, east = sides(state)
    lay_out(state, seat, {west[0]: (2, 0), east[0]: (1, 2)}, {west[1]: (1, 2), east[1]: (1, 0)})
    nile = bot._nile_keys(state, seat)
    each = [bot.pyramid_value(state, seat, p, nile) for p in state.own[seat]]
    assert bot._pyramid_values(state, seat, nile) == each


def test_the_market_puts_its_stone_where_the_majority_is_threatened() -> None:
    """Two provinces of mine, each two stones from nothing and one stone from a pyramid,
    level with each other: the stone goes to the west one, whose majority a rival one
    pyramid behind threatens, and not to the east one, where nothing is at stake."""
    state, seat = market_position()
    west, east = sides(state)
    ours, theirs = west[0], west[1]
    calm = east[0]
    lay_out(state, seat, {ours: (2, 2), calm: (2, 2)}, {theirs: (1, 2), east[1]: (3, 1)})
    state.gold[seat] = 10
    nile = bot._nile_keys(state, seat)
    lam = bot.points_per_gold(state)
    chosen, surplus = bot._stone_choice(state, seat, 0, state.gold[seat], lam, nile)
    assert (chosen, surplus > 0) == (ours, True)

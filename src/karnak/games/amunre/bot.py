"""The Amun-Re heuristic: rules of thumb that value everything in gold and points.

Why this shape
    Search bots call :func:`act` thousands of times per second inside rollouts, so every
    decision is a few arithmetic formulas over the state's lists, never a copy of the state,
    never an observation dict and never ``legal_actions`` (a bid list alone is dozens of
    objects). Each decision builds its action from the game's interned catalogue and mirrors
    the engine's legality rules exactly; the tests check it against ``legal_actions`` over
    thousands of random positions.

What it may look at
    Only what its seat may see: its own hand, every public figure (gold, board, owners,
    farmers, stones, pyramids, bids, the temple, the round and phase, hand *sizes*, the
    discard pile and deck *sizes*). Never other seats' hands, the deck order, face-down cards
    or other seats' sealed offers. :meth:`AmunReHeuristic.choose` decides on a world sampled
    from the seat's information set, so it plays the same whatever the hidden cards are;
    :func:`act` keeps the same discipline on any state it is given.

The common currency
    Points and gold are exchanged at ``lam`` points per gold (:func:`points_per_gold`): gold
    turns into pyramids early on and only into the 6/4/2 gold ranking at the end, so a gold
    coin is worth less and less as the game goes on. A pyramid is worth its point, its share of
    a complete set, the Nile-side majority it may win, and a little for the next kingdom.

The opponents
    Sealed offers are valued against a simple model of the others: each offers the theft card
    or an amount spread evenly over what they hold (how a random player offers). Heuristic
    opponents offer less; modelling them so (spreading their offers over a third or half of
    their gold) still measured worse, even in games against the heuristic itself.

Tuning
    The constants below were set by measurement: the heuristic's games against random
    players (``bench/strength_heuristic.py``) and paired self-play runs, two seats with one
    setting against two with another, seats rotated, 1,200 games per comparison.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, cast

from karnak.core.actions import Action
from karnak.core.agent import Bot, SeatView
from karnak.core.knowledge import Candidates, Evaluator, Knowledge, Policy, weight
from karnak.core.rng import Rng
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS, Board
from karnak.games.amunre.rules.scoring import bonus_condition
from karnak.games.amunre.rules.state import (
    ADJUST,
    AUCTION,
    BLOCKADE,
    BONUS,
    BUILDER,
    CORRECTION,
    EIGHT_GOLD,
    FREE_FARMER,
    HARVEST,
    HARVEST_INCREASE,
    MARKET,
    NKINDS,
    OFFERING,
    OVERBID,
    PICK,
    REWARDS,
    SCORING,
    SELLS,
    AmunReState,
    K,
)

if TYPE_CHECKING:
    from karnak.core.game import Game

# ------------------------------------------------------------------ tuning constants
#: Points one gold is worth with five rounds to go and in the last round (linear between).
LAMBDA_EARLY: Final = 0.40
LAMBDA_LATE: Final = 0.25
#: Expected worth (gold) of a power card drawn blind, before the last round and in it.
CARD_VALUE: Final = 2.5
CARD_VALUE_LAST: Final = 1.5
#: Prior of the temple space when nothing is known yet; weight of the last temple seen.
TEMPLE_PRIOR: Final = 2.0
TEMPLE_MEMORY: Final = 0.5
#: Chance that the caravans (temple space 1-2) pay, after a high and after a low temple.
CARAVAN_AFTER_HIGH: Final = 0.5
CARAVAN_AFTER_LOW: Final = 0.65
#: Share of a complete set (3 points) credited to each pyramid of a balanced layer.
SET_CREDIT: Final = 1.0
#: Worth (points) of a pyramid for the next kingdom, where someone else may own it.
PYRAMID_FUTURE: Final = 0.3
#: Confidence that a Nile-side majority won now is still ours at the scoring.
NILE_CONFIDENCE: Final = (0.8, 0.5, 0.35)  # indexed by rounds left in the kingdom after this one
#: Worth (points) of a pyramid that keeps a Nile-side majority a rival is level with, and one
#: a rival is a single pyramid behind: three stones in one market (fewer with a builder or
#: stones already there) draw level, so the lead is defended a step before it is tied.
#: Against three heuristics without the second credit, 0.5 changed 6 decisions in 20,750;
#: 2.0 changes 1% of them and won 26.0% [24.9, 27.2] of 6,000 four-seat games over three
#: seed ranges (chance 25%; ``bench/heuristic_versions.py``): no loss, a gain not shown.
KEEP_TIED: Final = 1.0
KEEP_ONE_BEHIND: Final = 2.0
#: A stone that does not complete a pyramid now keeps this share of its value.
PARTIAL_STONE: Final = 0.85
#: Least surplus (gold) over its price that a farmer must return.
FARMER_MARGIN: Final = 0.5
#: Bid at most this share of a province's value.
BID_FRACTION: Final = 0.8
#: Gold kept out of any bid above 0, for the market.
BID_RESERVE: Final = 0
#: Surplus (gold) given up for bidding on a card that already holds a marker: between close
#: values the uncontested card wins (a larger penalty measured clearly worse in self-play).
CONTEST_PENALTY: Final = 0.5
#: Surplus (gold) above which a bid is guarded with a bidding blockade.
BLOCKADE_SURPLUS: Final = 6.0
#: Gold kept back for the offering when shopping.
OFFER_RESERVE: Final = 1
#: Least spread (gold) between the temple spaces' values for a correction card to be played.
CORRECTION_STAKE: Final = 4.0
#: Share of its gold over which an opponent's offer is modelled as spread evenly (1: random).
OPPONENT_SPREAD: Final = 1.0
#: Largest offer considered (the model's benefit is flat beyond it).
OFFER_CAP: Final = 30

#: Chance that a bonus card held before the third province is known will score.
BONUS_HELD_CHANCE: Final = 0.35
#: Weight of gold and income to come, converted to points, in the evaluation.
WEALTH_WEIGHT: Final = 1.0
EGYPT_BONUS, SIDE_BONUS, BANK_BONUS = K["egypt_bonus"], K["side_bonus"], K["bank_bonus"]
CARD_BONUS: Final = K["card_bonus"]

#: The weights a bot's style varies (:class:`~karnak.core.knowledge.Style`), each with the
#: largest relative change: what gold is worth, how eagerly provinces are bid for, farmers
#: and cards bought, and pyramids built for sets and later rounds. Mild, so that a styled
#: heuristic keeps the level's strength (``bench/results/bot_styles.md``).
STYLE_WEIGHTS: Final = {
    "LAMBDA_EARLY": 0.1,
    "LAMBDA_LATE": 0.1,
    "CARD_VALUE": 0.15,
    "SET_CREDIT": 0.25,
    "PYRAMID_FUTURE": 0.3,
    "BID_FRACTION": 0.1,
    "CONTEST_PENALTY": 0.3,
    "BLOCKADE_SURPLUS": 0.2,
    "FARMER_MARGIN": 0.3,
}
ADJUST_UP, ADJUST_DOWN = A.Adjust(3), A.Adjust(-3)


# ------------------------------------------------------------------ board tables
@dataclass(frozen=True)
class _Tables:
    """Per-board figures as tuples of plain numbers (attribute lookups are slow)."""

    east: tuple[bool, ...]
    upper: tuple[bool, ...]
    nile: tuple[bool, ...]
    temples: tuple[int, ...]
    symbols: tuple[int, ...]
    rounds_per_kingdom: int
    total_rounds: int
    thresholds: tuple[int, ...]
    caravan_spaces: frozenset[int]
    bid_spaces: tuple[int, ...]
    set_points: int
    nile_points: int
    bonus_points: int
    treasury: int
    theft_gold: int
    card_bonus_symbols: int
    farmer_bonus_farmers: int
    gold_ranking: tuple[int, ...]


_TABLES: Final[dict[int, tuple[Board, _Tables]]] = {}


def _tables(board: Board) -> _Tables:
    found = _TABLES.get(id(board))
    if found is not None and found[0] is board:
        return found[1]
    provs = board.provinces
    tables = _Tables(
        east=tuple(p.side == "east" for p in provs),
        upper=tuple(p.half == "upper" for p in provs),
        nile=tuple(p.nile for p in provs),
        temples=tuple(p.temples for p in provs),
        symbols=tuple(p.card_symbols for p in provs),
        rounds_per_kingdom=board.rounds_per_kingdom,
        total_rounds=board.rounds_per_kingdom * board.kingdoms,
        thresholds=board.temple_thresholds,
        caravan_spaces=frozenset(board.caravan_spaces),
        bid_spaces=board.bid_spaces,
        set_points=board.complete_set_points,
        nile_points=board.nile_side_points,
        bonus_points=board.bonus_card_points,
        treasury=board.treasury_gold,
        theft_gold=board.theft_gold,
        card_bonus_symbols=board.power_card_bonus_symbols,
        farmer_bonus_farmers=board.farmer_bonus_farmers,
        gold_ranking=board.gold_ranking_points,
    )
    _TABLES[id(board)] = (board, tables)
    return tables


# ------------------------------------------------------------------ shared estimates
def round_in_kingdom(state: AmunReState) -> int:
    """1, 2 or 3: which round of the current kingdom is being played."""
    rpk = state.board.rounds_per_kingdom
    return (state.round - 1) % rpk + 1


def points_per_gold(state: AmunReState) -> float:
    """How many points a gold coin is worth now (falls as the game runs out)."""
    total = state.board.rounds_per_kingdom * state.board.kingdoms
    left = max(0, total - state.round)
    late = weight("LAMBDA_LATE", LAMBDA_LATE)
    early = weight("LAMBDA_EARLY", LAMBDA_EARLY)
    return late + (early - late) * left / max(1, total - 1)


def expected_temple(state: AmunReState) -> float:
    """Expected temple space of a coming offering: the prior, pulled toward the last one."""
    t = state.temple
    if t <= 0:
        return TEMPLE_PRIOR
    return TEMPLE_MEMORY * t + (1.0 - TEMPLE_MEMORY) * TEMPLE_PRIOR


def _caravan_chance(state: AmunReState, tab: _Tables) -> float:
    t = state.temple
    if t <= 0:
        return 0.5 * (CARAVAN_AFTER_LOW + CARAVAN_AFTER_HIGH)
    return CARAVAN_AFTER_LOW if t in tab.caravan_spaces else CARAVAN_AFTER_HIGH


def _card_value(state: AmunReState) -> float:
    if state.round >= state.board.rounds_per_kingdom * 2:
        return CARD_VALUE_LAST
    return weight("CARD_VALUE", CARD_VALUE)


NileKeys = tuple[list[tuple[int, int]], list[tuple[int, int]]]


def _nile_keys(state: AmunReState, seat: int) -> NileKeys:
    """Best (pyramids, stones) per side [west, east] among my provinces and among the others'.

    "Others" are provinces owned by another seat or lying on the auction table (someone will
    own them): the rivals of a Nile-side majority.
    """
    tab = _tables(state.board)
    owner, pyr, stones, east = state.owner, state.pyramids, state.stones, tab.east
    on_auction = state.on_auction
    mine = [(0, 0), (0, 0)]
    others = [(0, 0), (0, 0)]
    for p, level in enumerate(pyr):
        if level == 0:
            continue
        o = owner[p]
        side = 1 if east[p] else 0
        key = (level, stones[p])
        if o == seat:
            if key > mine[side]:
                mine[side] = key
        elif (o >= 0 or p in on_auction) and key > others[side]:
            others[side] = key
    return mine, others


def _nile_confidence(state: AmunReState) -> float:
    left = state.board.rounds_per_kingdom - round_in_kingdom(state)
    return NILE_CONFIDENCE[min(left, len(NILE_CONFIDENCE) - 1)]


def _keep_majority(level: int, rival: int) -> float:
    """What one more pyramid is worth for keeping a Nile-side majority held at ``level``
    pyramids, the best rival province on that side holding ``rival``: a rival level with
    it takes it on stones, one a pyramid behind can draw level in a single market."""
    if rival >= level:
        return KEEP_TIED
    if rival > 0 and rival == level - 1:
        return KEEP_ONE_BEHIND
    return 0.0


def pyramid_value(
    state: AmunReState,
    seat: int,
    p: int,
    nile: NileKeys,
) -> float:
    """Points that one more pyramid in my province ``p`` should bring at the coming scoring."""
    tab = _tables(state.board)
    pyr = state.pyramids
    own = state.own[seat]
    value = 1.0
    # complete sets: exact once all three provinces are known, else credit a balanced layer
    levels = [pyr[q] for q in own]
    if len(own) >= 3:
        low = min(levels)
        if pyr[p] == low and levels.count(low) == 1:
            value += tab.set_points
    else:
        target = max(1, max(levels, default=0))
        if pyr[p] < target:
            value += weight("SET_CREDIT", SET_CREDIT)
    # Nile-side majority (ties share the points)
    mine, others = nile
    side = 1 if tab.east[p] else 0
    rival = others[side]
    won = mine[side][0] > 0 and mine[side] >= rival
    new = (pyr[p] + 1, 0)
    if not won and new >= rival:
        value += tab.nile_points * _nile_confidence(state)
    elif won and mine[side][0] == pyr[p]:
        value += _keep_majority(pyr[p], rival[0])
    if state.round <= state.board.rounds_per_kingdom:
        value += weight("PYRAMID_FUTURE", PYRAMID_FUTURE)
    return value


def _pyramid_values(state: AmunReState, seat: int, nile: NileKeys) -> list[float]:
    """:func:`pyramid_value` of each of ``seat``'s provinces, in the order of
    ``state.own[seat]``: the same figures, with the parts they share worked out once (the
    market's stone rule asks for all of them at every purchase of every rollout)."""
    tab = _tables(state.board)
    pyr = state.pyramids
    own = state.own[seat]
    levels = [pyr[q] for q in own]
    complete = len(own) >= 3
    low = min(levels) if complete else 0
    single_low = complete and levels.count(low) == 1
    target = 0 if complete else max(1, max(levels, default=0))
    mine, others = nile
    east = tab.east
    future = state.round <= state.board.rounds_per_kingdom
    set_credit = weight("SET_CREDIT", SET_CREDIT)
    pyramid_future = weight("PYRAMID_FUTURE", PYRAMID_FUTURE)
    out = []
    for p, level in zip(own, levels, strict=True):
        value = 1.0
        if complete:
            if single_low and level == low:
                value += tab.set_points
        elif level < target:
            value += set_credit
        side = 1 if east[p] else 0
        mine_side, rival = mine[side], others[side]
        won = mine_side[0] > 0 and mine_side >= rival
        if not won and (level + 1, 0) >= rival:
            value += tab.nile_points * _nile_confidence(state)
        elif won and mine_side[0] == level:
            value += _keep_majority(level, rival[0])
        if future:
            value += pyramid_future
        out.append(value)
    return out


def _harvests_left(state: AmunReState) -> int:
    """Harvests still to come in this kingdom, this round's included (before the harvest)."""
    return state.board.rounds_per_kingdom - round_in_kingdom(state) + 1


def province_values(state: AmunReState, seat: int, provinces: list[int]) -> list[float]:
    """What owning each of ``provinces`` until the end of the kingdom is worth to ``seat`` (gold).

    Income (fixed gold, caravans when the temple is likely low, farmers on fields and printed
    ones), temples at the scoring, pyramids and stones already there, free gold, free cards,
    a higher card limit, and the fit with the bonus cards in hand.
    """
    tab = _tables(state.board)
    cat = state.cat
    lam = points_per_gold(state)
    h = _harvests_left(state)
    et = expected_temple(state)
    caravan_chance = _caravan_chance(state, tab)
    card_v = _card_value(state)
    nile_conf = _nile_confidence(state)
    own = state.own[seat]
    mine, others = _nile_keys(state, seat)
    pyramids, stones = state.pyramids, state.stones
    own_low = min([pyramids[q] for q in own], default=0)
    limit = max([cat.card_limit[q] for q in own], default=0)
    last_province = len(own) + 1 >= 3
    per_field = h * et
    hand = state.hand[seat]
    any_bonus = any(hand[k] for k in BONUS) and len(own) < 3
    values = []
    for p in provinces:
        gold = h * (cat.gold[p] + cat.caravan[p] * caravan_chance + cat.printed[p] * et)
        # empty fields: farmers to buy at 1, 2, 3... gold, each returning about h * et
        empty = cat.fields[p] - state.field_farmers[p]
        for k in range(1, min(empty, 3) + 1):
            if per_field > k + 1:
                gold += 0.6 * (per_field - k - 1)
        points = tab.temples[p] * et + 0.6 * stones[p]
        pyr = pyramids[p]
        if pyr:
            points += pyr
            if last_province:
                points += tab.set_points * (min(own_low, pyr) if own else pyr)
            else:
                points += weight("SET_CREDIT", SET_CREDIT) * min(pyr, 2)
            side = 1 if tab.east[p] else 0
            rival = others[side]
            won = mine[side][0] > 0 and mine[side] >= rival
            if not won and (pyr, stones[p]) >= rival:
                points += tab.nile_points * nile_conf
        gold += len(state.face_down[p]) * card_v + state.free_gold[p]
        if cat.card_limit[p] > limit:
            gold += h * (1.0 if limit == 0 else 0.3) * min(cat.card_limit[p] - limit, 2)
        if any_bonus:
            points += _bonus_fit(state, seat, p, tab)
        values.append(gold + points / lam)
    return values


def _bonus_fit(state: AmunReState, seat: int, p: int, tab: _Tables) -> float:
    """Expected bonus-card points (egypt, side, banks, card symbols) if ``seat`` takes ``p``."""
    hand = state.hand[seat]
    own = state.own[seat]
    if len(own) >= 3:
        return 0.0
    after = [*own, p]
    left = 3 - len(after)
    chance = 1.0 if left == 0 else (0.45 if left == 1 else 0.2)
    points = 0.0
    for kind, flags in ((EGYPT_BONUS, tab.upper), (SIDE_BONUS, tab.east), (BANK_BONUS, tab.nile)):
        if hand[kind]:
            first = flags[after[0]]
            if all(flags[q] == first for q in after):
                points += tab.bonus_points * chance
    if hand[CARD_BONUS]:
        symbols = sum(tab.symbols[q] for q in after)
        need = tab.card_bonus_symbols - symbols
        if need <= 0:
            points += tab.bonus_points * (1.0 if left == 0 else 0.9)
        elif need <= 2 * left:
            points += tab.bonus_points * chance
    return points


# ------------------------------------------------------------------ the phases
def _act_auction(state: AmunReState, seat: int) -> Action:
    """Bid the least that takes the province with the best value surplus."""
    tab = _tables(state.board)
    n = state.n
    bid_prov, bid_space, blockade = state.bid_prov, state.bid_space, state.blockade
    hand = state.hand[seat]
    played = state.played[seat]
    can_block = hand[BLOCKADE] > 0 and not played >> BLOCKADE & 1
    can_overbid = hand[OVERBID] > 0 and state.overbid[seat] and not played >> OVERBID & 1
    here = bid_prov[seat] if state.overbid[seat] else -1
    spaces = tab.bid_spaces
    high = bisect_right(spaces, state.gold[seat])  # spaces [0, high) are affordable
    lowest: dict[int, int] = {}
    for m in range(n):
        q = bid_prov[m]
        if q >= 0 and m != seat:
            need = bid_space[m] + (2 if blockade[m] else 1)
            if need > lowest.get(q, 0):
                lowest[q] = need
    candidates = state.on_auction
    values = province_values(state, seat, candidates)
    best_p, best_i, best_surplus, best_value = -1, 0, -1e9, 0.0
    bid_fraction = weight("BID_FRACTION", BID_FRACTION)
    contest = weight("CONTEST_PENALTY", CONTEST_PENALTY)
    for p, value in zip(candidates, values, strict=True):
        if p == here and not can_overbid:
            continue
        low = lowest.get(p, 0)
        if low >= high:
            continue
        cost = spaces[low]
        if cost > 0 and (cost > bid_fraction * value or cost > state.gold[seat] - BID_RESERVE):
            continue
        surplus = value - cost
        if low > 0:
            surplus -= contest  # a contested card may be fought over again
        if surplus > best_surplus:
            best_p, best_i, best_surplus, best_value = p, low, surplus, value
    if best_p < 0:  # nothing worth its price: the best free card (one is always empty)
        for p, value in zip(candidates, values, strict=True):
            if p != here and lowest.get(p, 0) == 0 and (best_p < 0 or value > best_value):
                best_p, best_i, best_value, best_surplus = p, 0, value, value
    same = 1 if best_p == here else 0
    block = (
        1
        if can_block and best_surplus >= weight("BLOCKADE_SURPLUS", BLOCKADE_SURPLUS) and best_i > 0
        else 0
    )
    return state.cat.bids[block][best_p][same][best_i]


def _act_pick(state: AmunReState, seat: int) -> Action:
    """Expert provinces: bring out the province card worth most to us."""
    hand = state.prov_hand[seat]
    values = province_values(state, seat, hand)
    best = hand[values.index(max(values))]
    return state.cat.pick[best]


def _stone_choice(
    state: AmunReState, seat: int, bought: int, gold: int, lam: float, nile: NileKeys
) -> tuple[int, float]:
    """The province for the next stone and the surplus (gold) of buying it (-1: none pays)."""
    own = state.own[seat]
    stones = state.stones
    builder = state.hand[seat][BUILDER] > 0 and not state.played[seat] >> BUILDER & 1
    final = round_in_kingdom(state) == state.board.rounds_per_kingdom
    supply = state.stone_supply
    best_p, best_surplus = -1, 0.0
    for p, pyramid in zip(own, _pyramid_values(state, seat, nile), strict=True):
        s = stones[p]
        need = (2 if builder else 3) - s
        if need <= 0:
            need = 3 - s if s < 3 else 1
        value = pyramid / lam
        if final:
            if need > supply:
                continue
            cost = need * bought + need * (need + 1) // 2
            if cost > gold:
                continue
            surplus = value - cost
        else:
            if bought + 1 > gold:
                continue
            share = value / need
            if need > 1:
                share *= PARTIAL_STONE
            surplus = share - (bought + 1)
        if surplus > best_surplus:
            best_p, best_surplus = p, surplus
    return best_p, best_surplus


def _planned_stone_cost(state: AmunReState, seat: int, lam: float, nile: NileKeys) -> int:
    """Gold the stone rule would spend this turn if nothing else were bought (a reserve)."""
    final = round_in_kingdom(state) == state.board.rounds_per_kingdom
    p, _surplus = _stone_choice(state, seat, 0, state.gold[seat], lam, nile)
    if p < 0:
        return 0
    if final:
        builder = state.hand[seat][BUILDER] > 0 and not state.played[seat] >> BUILDER & 1
        need = max(1, (2 if builder else 3) - state.stones[p])
        return need * (need + 1) // 2
    # before the last round: the stones whose value share beats their price
    value = pyramid_value(state, seat, p, nile) / lam
    share = value / 3 * PARTIAL_STONE
    count = 0
    while count + 1 <= share and count < 3:
        count += 1
    return count * (count + 1) // 2


def _act_market(state: AmunReState, seat: int) -> Action:
    """Builder and free farmer when they pay; cards, farmers and stones while they pay."""
    cat = state.cat
    own = state.own[seat]
    gold = state.gold[seat]
    hand = state.hand[seat]
    played = state.played[seat]
    lam = points_per_gold(state)
    nile = _nile_keys(state, seat)
    h = _harvests_left(state)
    et = expected_temple(state)
    final_kingdom = state.round > state.board.rounds_per_kingdom
    # builder: a pyramid from two stones is always worth the card
    if hand[BUILDER] and not played >> BUILDER & 1:
        best, best_value = -1, 0.0
        for p in own:
            if state.stones[p] >= 2:
                value = pyramid_value(state, seat, p, nile)
                if value > best_value:
                    best, best_value = p, value
        if best >= 0:
            return cat.builder[best]
    # free farmer: income now versus keeping the card for the next kingdom
    if (
        hand[FREE_FARMER]
        and not played >> FREE_FARMER & 1
        and state.farmer_supply
        and own
        and (h * et >= 4.0 or final_kingdom)
    ):
        best = max(own, key=state.farmers)
        return cat.free_farmer[best]
    stage = state.stage
    if stage == 0 and own:
        limit = max(cat.card_limit[p] for p in own)
        if limit:
            if len(state.deck) < limit:
                limit = min(limit, state.cards_available())
            reserve = _planned_stone_cost(state, seat, lam, nile) + OFFER_RESERVE
            budget = gold - reserve
            card_v = _card_value(state)
            best_c, best_gain = 0, 0.0
            for c in range(1, limit + 1):
                cost = c * (c + 1) // 2
                if cost > budget:
                    break
                gain = c * card_v - cost
                if gain > best_gain:
                    best_c, best_gain = c, gain
            if best_c:
                return cat.buy_cards[best_c]
    if stage <= 1 and state.farmer_supply:
        k = state.bought_farmers + 1
        if k <= gold and h * et - k >= weight("FARMER_MARGIN", FARMER_MARGIN):
            reserve = 0
            if round_in_kingdom(state) == state.board.rounds_per_kingdom:
                reserve = _planned_stone_cost(state, seat, lam, nile)
            if gold - k >= reserve:
                best, best_empty = -1, 0
                fields, farmers = cat.fields, state.field_farmers
                for p in own:
                    empty = fields[p] - farmers[p]
                    if empty > best_empty:
                        best, best_empty = p, empty
                if best >= 0:
                    return cat.farmer[best]
    if state.stone_supply:
        p, _surplus = _stone_choice(state, seat, state.bought_stones, gold, lam, nile)
        if p >= 0:
            return cat.stone[p]
    return A.DONE


def _temple_values(state: AmunReState, seat: int, lam: float) -> list[float]:
    """What each temple space 1-4 is worth to ``seat`` this round (gold): harvest + temples."""
    tab = _tables(state.board)
    cat = state.cat
    own = state.own[seat]
    farmers = 0
    fixed = 0
    caravan = 0
    temples = 0
    for p in own:
        farmers += state.field_farmers[p] + state.free_farmers[p] + cat.printed[p]
        fixed += cat.gold[p]
        caravan += cat.caravan[p]
        temples += tab.temples[p]
    scoring = round_in_kingdom(state) == state.board.rounds_per_kingdom
    values = []
    for t in range(1, len(tab.thresholds) + 2):
        v = float(farmers * t + fixed + (caravan if t in tab.caravan_spaces else 0))
        if scoring:
            v += temples * t / lam
        values.append(v)
    return values


def _reward_items(state: AmunReState, seat: int, lam: float) -> list[float]:
    """Values (gold) of the three best reward items for ``seat``, best first."""
    cat = state.cat
    own = state.own[seat]
    h = _harvests_left(state)
    et = expected_temple(state)
    card_v = _card_value(state)
    items = [card_v, card_v, card_v] if state.cards_available() else []
    if state.farmer_supply:
        farmer_v = h * et
        for p in own:
            for _ in range(cat.fields[p] - state.field_farmers[p]):
                items.append(farmer_v)
    if state.stone_supply:
        nile = _nile_keys(state, seat)
        final = round_in_kingdom(state) == state.board.rounds_per_kingdom
        for p in own:
            need = 3 - state.stones[p]
            value = pyramid_value(state, seat, p, nile) / lam
            if final and need > 1:
                continue
            items.extend([value / need] * need)
    items.sort(reverse=True)
    while len(items) < 3:
        items.append(0.0)
    return items[:3]


def _temple_ev(values: list[float], thresholds: tuple[int, ...], mean: float, sd: float) -> float:
    """Expected temple value when the offering total is ~ Normal(mean, sd).

    With c_i the chance that the total is at most threshold i, the expectation is the top
    space's value plus, per threshold, c_i times the step down to the space below it.
    """
    scale = 1.0 / (sd * 1.4142135623730951)
    ev = values[-1]
    erf = math.erf
    for i, upper in enumerate(thresholds):
        ev += 0.5 * (1.0 + erf((upper + 0.5 - mean) * scale)) * (values[i] - values[i + 1])
    return ev


def _act_offering(state: AmunReState, seat: int) -> Action:
    """Offer what maximises rewards + temple value - gold, against a model of the others."""
    tab = _tables(state.board)
    cat = state.cat
    gold = state.gold[seat]
    correction = state.hand[seat][CORRECTION] > 0
    lam = points_per_gold(state)
    values = _temple_values(state, seat, lam)
    n = state.n
    order_pos = [(s - state.start) % n for s in range(n)]
    # others: theft with chance 1/(g+1), otherwise 1..g evenly, g a share of their gold
    others = []
    mean = 0.0
    var = 0.0
    for o in range(n):
        if o == seat:
            continue
        g = state.gold[o]
        if g > 1:
            g = max(1, round(g * OPPONENT_SPREAD))
        m = g + 1
        mu = (g * (g + 1) / 2 - tab.theft_gold) / m
        second = (g * (g + 1) * (2 * g + 1) / 6 + tab.theft_gold**2) / m
        mean += mu
        var += max(0.0, second - mu * mu)
        others.append((g, order_pos[o] > order_pos[seat]))
    sd = max(1.0, math.sqrt(var))
    items = _reward_items(state, seat, lam)
    top3, top2, top1 = items[0] + items[1] + items[2], items[0] + items[1], items[0]
    # theft
    thresholds = tab.thresholds
    best_ev = tab.theft_gold + _temple_ev(values, thresholds, mean - tab.theft_gold, sd)
    best_x = 0
    most = max((g for g, _after in others), default=0)
    reward = top3
    for x in range(1, min(gold, OFFER_CAP) + 1):
        if x <= most + 1:  # beyond, first place is certain and the reward stays top3
            first = 1.0
            second = 0.0
            beats = []
            for g, after_me in others:
                if g <= 0:
                    continue  # only the theft is left to them
                below = (x if x <= g else g + 1) + (1 if (x <= g and after_me) else 0)
                beats.append(below / (g + 1))
            for b in beats:
                first *= b
            for i, b in enumerate(beats):
                rest = 1.0 - b
                for j, bj in enumerate(beats):
                    if j != i:
                        rest *= bj
                second += rest
            reward = first * top3 + second * top2 + max(0.0, 1.0 - first - second) * top1
        ev = reward - x + _temple_ev(values, thresholds, mean + x, sd)
        if ev > best_ev:
            best_ev, best_x = ev, x
    use_correction = correction and max(values) - min(values) >= CORRECTION_STAKE
    if best_x == 0:
        return cat.offer(0, True, use_correction)
    return cat.offer(best_x, False, use_correction)


def _act_adjust(state: AmunReState, seat: int) -> Action:
    """Move the revealed total toward the temple space worth most to us."""
    board = state.board
    lam = points_per_gold(state)
    values = _temple_values(state, seat, lam)
    total = state.offering_total
    up = values[board.temple_space(total + 3) - 1]
    down = values[board.temple_space(total - 3) - 1]
    return ADJUST_DOWN if down > up else ADJUST_UP


def _act_rewards(state: AmunReState, seat: int) -> Action:
    """Take the most valuable item: a stone finishing a pyramid, a farmer, a card."""
    cat = state.cat
    own = state.own[seat]
    lam = points_per_gold(state)
    h = _harvests_left(state)
    et = expected_temple(state)
    best: Action = A.DONE
    best_value = 0.0
    if state.deck or any(state.discard):
        best, best_value = A.TAKE_CARD, _card_value(state)
    if state.farmer_supply:
        farmer_v = state.temple + (h - 1) * et
        if farmer_v > best_value:
            fields, farmers = cat.fields, state.field_farmers
            for p in own:
                if farmers[p] < fields[p]:
                    best, best_value = cat.take_farmer[p], farmer_v
                    break
    if state.stone_supply and own:
        nile = _nile_keys(state, seat)
        final = round_in_kingdom(state) == state.board.rounds_per_kingdom
        for p in own:
            need = 3 - state.stones[p]
            value = pyramid_value(state, seat, p, nile) / lam
            if need == 1:
                v = value
            elif final:
                v = 0.3 * value / need if state.round <= state.board.rounds_per_kingdom else 0.2
            else:
                builder = 1 if state.hand[seat][BUILDER] else 0
                v = PARTIAL_STONE * value / max(1, need - builder)
            if v > best_value:
                best, best_value = cat.take_stone[p], v
    return best


def _income(state: AmunReState, p: int) -> int:
    cat = state.cat
    t = state.temple
    income = state.farmers(p) * t + cat.gold[p]
    if t in _tables(state.board).caravan_spaces:
        income += cat.caravan[p]
    return income


def _act_harvest(state: AmunReState, seat: int) -> Action:
    """8 gold on a poor province, harvest increase on the most farmers; then collect."""
    cat = state.cat
    own = state.own[seat]
    hand = state.hand[seat]
    last = state.round >= _tables(state.board).total_rounds
    treasury = state.board.treasury_gold
    if hand[EIGHT_GOLD] and state.eight_gold_prov[seat] < 0:
        best, best_gain = -1, 0
        for p in own:
            if p == state.increase_prov[seat]:
                continue
            gain = treasury - _income(state, p)
            if gain > best_gain:
                best, best_gain = p, gain
        if best >= 0 and (best_gain >= 4 or (last and best_gain > 1)):
            return cat.eight_gold[best]
    if hand[HARVEST_INCREASE] and state.increase_prov[seat] < 0:
        best, most = -1, 0
        for p in own:
            if p == state.eight_gold_prov[seat]:
                continue
            f = state.farmers(p)
            if f > most:
                best, most = p, f
        if best >= 0 and (most >= 3 or (last and most >= 2)):
            return cat.increase[best]
    return A.DONE


def _act_scoring(state: AmunReState, seat: int) -> Action:
    """Play every bonus card that scores; at the final scoring sell the rest for gold."""
    playable = state.playable_bonus(seat)
    if playable:
        bonus = state.cat.bonus[playable[0]]
        assert bonus is not None
        return bonus
    if state.round >= _tables(state.board).total_rounds:
        hand = state.hand[seat]
        for k in range(NKINDS):
            if hand[k]:
                return SELLS[k]
    return A.DONE


_PHASE_ACTS: Final = {
    AUCTION: _act_auction,
    MARKET: _act_market,
    OFFERING: _act_offering,
    ADJUST: _act_adjust,
    REWARDS: _act_rewards,
    HARVEST: _act_harvest,
    SCORING: _act_scoring,
    PICK: _act_pick,
}


def act(state: AmunReState, seat: int, rng: Rng) -> Action:
    """The heuristic's action for ``seat`` (one of ``state.to_move()``) in ``state``.

    Cheap enough for rollouts: no copies, no observation, no list of legal actions. It reads
    only what ``seat`` may see, so it can be called on any world sampled for that seat.
    ``rng`` is accepted for the rollout interface; the rules of thumb are deterministic
    (a style, :data:`STYLE_WEIGHTS`, changes their weights, not that).
    """
    return _PHASE_ACTS[state.phase](state, seat)


#: Actions a rollout plays before :func:`evaluate` judges the position. Measured against
#: the search's default of 40 at 200 iterations a decision, two seats each, seats rotated,
#: 40 games: 27 wins to 13 (34% [24%, 45%] of seat-games against 16% [10%, 26%], Wilson
#: 95%), with about 1.45 times the iterations per second.
ROLLOUT_DEPTH: Final = 20


def candidates(state: AmunReState, seat: int, actions: Sequence[Action]) -> list[Action]:
    """The moves a search should spend its time on: every legal move but the card sales and
    a harvest increase where no farmer works.

    Selling a power card for 1 gold is legal at every decision, so it would take a share of
    every search (and, with a thousand noisy rollouts, now and then win one) although it is
    almost never worth a card. The heuristic itself never sells. A harvest increase on a
    province without farmers is legal (RULINGS 9) but adds nothing and spends the card.
    """
    index = state.cat.index
    return [
        action
        for action in actions
        if type(action) is not A.Sell
        and not (type(action) is A.HarvestIncrease and not state.farmers(index[action.province]))
    ]


# ------------------------------------------------------------------ evaluation
def _projected_points(state: AmunReState, seat: int, lam: float, tab: _Tables) -> float:
    """Points ``seat`` should end with: score, the pending scoring, and wealth as points."""
    own = state.own[seat]
    pyr = state.pyramids
    points = float(state.score[seat])
    phase = state.phase
    rpk = tab.rounds_per_kingdom
    r = round_in_kingdom(state)
    scoring_pending = phase != "over"
    if scoring_pending:
        points += sum(pyr[p] for p in own)
        if len(own) >= 3:
            points += tab.set_points * min(pyr[p] for p in own)
        points += 0.2 * sum(state.stones[p] for p in own)
        temple = state.temple if (r == rpk and phase in (REWARDS, HARVEST, SCORING)) else None
        et = float(temple) if temple is not None else expected_temple(state)
        points += et * sum(tab.temples[p] for p in own)
        hand = state.hand[seat]
        if len(own) >= 3:  # the provinces are final: a held card scores or it does not
            farmers = sum(state.farmers(p) for p in own)
            for k in BONUS:
                if hand[k] and bonus_condition(state.board, CARD_KINDS[k], own, farmers):
                    points += tab.bonus_points
        else:
            points += tab.bonus_points * BONUS_HELD_CHANCE * sum(1 for k in BONUS if hand[k])
    return points


def evaluate(state: AmunReState) -> list[float]:
    """Each seat's expected final standing in [0, 1]: the mean chance of beating each rival.

    Expected final points are the score so far, the scoring still pending in this kingdom
    (pyramids, sets, Nile sides, temples, bonus cards in hand), stones, and gold plus the
    income to come converted into points; after the last market gold counts through the
    6/4/2 ranking instead. Pairs are compared through a logistic curve whose width shrinks as
    the game nears its end. A finished game gives the exact share of rivals beaten (ties half).
    """
    n = state.n
    if state.phase == "over":
        keys = [state.ranking_key(s) for s in range(n)]
        return [
            sum(
                1.0 if keys[s] > keys[o] else 0.5 if keys[s] == keys[o] else 0.0
                for o in range(n)
                if o != s
            )
            / (n - 1)
            for s in range(n)
        ]
    tab = _tables(state.board)
    lam = points_per_gold(state)
    expected = [_projected_points(state, s, lam, tab) for s in range(n)]
    # Nile sides as they stand
    for side in (0, 1):
        best: tuple[int, int] = (0, 0)
        winners: list[int] = []
        for p, o in enumerate(state.owner):
            if o < 0 or state.pyramids[p] == 0 or (1 if tab.east[p] else 0) != side:
                continue
            key = (state.pyramids[p], state.stones[p])
            if key > best:
                best, winners = key, [o]
            elif key == best:
                winners.append(o)
        for o in set(winners):
            expected[o] += tab.nile_points * 0.8
    # wealth: gold and the income still to come
    h = _harvests_left(state) if state.phase not in (HARVEST, SCORING) else 0
    et = expected_temple(state)
    wealth = []
    for s in range(n):
        income = 0.0
        for p in state.own[s]:
            income += state.farmers(p) * et + state.cat.gold[p]
        wealth.append(state.gold[s] + income * h + sum(state.hand[s]))
    last_round = state.round >= tab.total_rounds
    if last_round:
        ranked = sorted(range(n), key=lambda s: -wealth[s])
        for rank, s in enumerate(ranked[: len(tab.gold_ranking)]):
            expected[s] += tab.gold_ranking[rank]
    else:
        for s in range(n):
            expected[s] += WEALTH_WEIGHT * lam * wealth[s]
    rounds_left = tab.total_rounds - state.round
    width = 2.0 + 1.5 * rounds_left
    result = []
    for s in range(n):
        total = 0.0
        for o in range(n):
            if o != s:
                total += 1.0 / (1.0 + math.exp((expected[o] - expected[s]) / width))
        result.append(total / (n - 1))
    return result


# ------------------------------------------------------------------ the bot
class AmunReHeuristic(Bot):
    """Rules of thumb for Amun-Re, deciding on a world sampled from its information set."""

    name = "heuristic"

    def choose(self, view: SeatView, rng: Rng) -> Action:
        world = view.infoset.sample(rng.fork())
        assert isinstance(world, AmunReState)
        action = act(world, view.seat, rng)
        if action in view.legal_actions:
            return action
        # Never expected (the tests check every phase); stay legal rather than fail a game.
        return view.legal_actions[-1]


def make_heuristic(game: Game) -> Bot:
    """The heuristic bot for Amun-Re (the ``heuristic`` bot, found through the plugin)."""
    return AmunReHeuristic()


#: What the search borrows from these rules of thumb (found through the game's plugin).
KNOWLEDGE: Final = Knowledge(
    heuristic=make_heuristic,
    policy=cast("Policy", act),
    evaluator=cast("Evaluator", evaluate),
    candidates=cast("Candidates", candidates),
    rollout_depth=ROLLOUT_DEPTH,
    style_weights=STYLE_WEIGHTS,
)

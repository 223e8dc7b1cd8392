"""Amun-Re as fixed-size float32 tensors: the observation and the information state.

Both are laid out by :class:`~karnak.core.tensors.TensorLayout` (see the tables that
``observation_layout(...).to_markdown()`` prints). Seats are RELATIVE to the viewer: row 0
is the viewer, row 1 the next seat in turn order, and so on, so a policy learned for one seat
plays any seat. Provinces are in board order (``board.provinces``, sorted by name), power
cards in ``board.CARD_KINDS`` order.

Scales: discrete things are one-hot or raw counts (cards, farmers, stones, pyramids);
amounts are divided by a documented figure (gold and points / 50, free gold / 10, a bid /
the highest bid space, the offering total / 30). Counts and amounts are never negative,
except ``offering_total`` (a theft or a correction can take it below 0).

The tensors read the state's fields directly (no ``observation()`` call), and only the
fields ``view.observe`` shows to the seat (ruling 12): never another seat's cards (their
number only), the decks' order, face-down cards (their number only), another seat's sealed
offer or pick, or another seat's province hand (its size only).

The information state adds what the seat witnessed and the observation no longer shows:
the province cards that came out this kingdom (from the public reveals; without expert
provinces this is also what is left in the province deck) and, per kind, the power cards
whose whereabouts the seat does not know (every card is in the deck, another hand, face
down, the discards or its own hand; the discards are public until they are reshuffled).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, cast

import numpy as np

from karnak.core.tensors import FloatVector, Part, TensorLayout
from karnak.games.amunre.rules.board import BONUS_KINDS, CARD_KINDS, Board, default_board

if TYPE_CHECKING:
    from karnak.games.amunre.rules.state import AmunReState

PHASES: Final = ("pick", "auction", "market", "offering", "adjust", "rewards", "harvest", "scoring")
PHASE_INDEX: Final = {name: i for i, name in enumerate((*PHASES, "over"))}
NKINDS: Final = len(CARD_KINDS)
BONUS_INDEX: Final = {kind: i for i, kind in enumerate(BONUS_KINDS)}
#: The items counted per province in ``province_items``.
PROVINCE_ITEMS: Final = (
    "field farmers",
    "free farmers",
    "empty fields",
    "stones",
    "pyramids",
    "face-down cards",
    "free gold / 10",
)
GOLD_SCALE: Final = 50.0
POINTS_SCALE: Final = 50.0
FREE_GOLD_SCALE: Final = 10.0
TOTAL_SCALE: Final = 30.0


def _expert(options: Mapping[str, Any] | None) -> bool:
    return bool((options or {}).get("expert_provinces", False))


@dataclass(frozen=True)
class _Bounds:
    """The figures the parts' ranges are made of: sound bounds from the board and the rules
    (the action space's own: the most gold a seat can receive, the most points), loose
    where the rules are (gold), so that no reachable value lies outside them."""

    gold: float  # the most gold a seat can hold, / GOLD_SCALE
    points: float  # the most points, / POINTS_SCALE
    cards: int  # every power card of the game
    per_kind: tuple[int, ...]  # power cards of each kind
    per_bonus_kind: tuple[int, ...]  # scoring bonus cards of each kind
    farmers: int  # the most farmers of any edition
    fields: int  # the most fields of a province
    face_down: int  # the most cards face down on a province
    free_gold: float  # the most free gold on a province, / FREE_GOLD_SCALE
    pyramids: int
    total_low: float  # the offering total's range, / TOTAL_SCALE
    total_high: float


def _bounds(board: Board, players: int, expert: bool) -> _Bounds:
    from karnak.games.amunre.research.action_ids import AmunReActionSpace

    space = AmunReActionSpace(board, players, {"expert_provinces": expert})
    cards = board.total_cards
    # Each seat offers at most all its gold and cards, or takes the theft's gold; each
    # correction moves the total by 3.
    low = -players * (board.theft_gold + 3)
    high = players * (space.most_gold + cards + 3)
    return _Bounds(
        gold=space.most_gold / GOLD_SCALE,
        points=space.score_bounds()[1] / POINTS_SCALE,
        cards=cards,
        per_kind=tuple(board.card(kind).count for kind in CARD_KINDS),
        per_bonus_kind=tuple(board.card(kind).count for kind in BONUS_KINDS),
        farmers=max(board.farmers.values()),
        fields=max(p.fields for p in board.provinces),
        face_down=board.kingdoms * max(p.bonus_cards for p in board.provinces),
        free_gold=board.kingdoms * max(p.bonus_gold for p in board.provinces) / FREE_GOLD_SCALE,
        pyramids=space.most_pyramids(),
        total_low=low / TOTAL_SCALE,
        total_high=high / TOTAL_SCALE,
    )


def observation_parts(board: Board, players: int, expert: bool) -> list[Part]:
    n, np_ = players, len(board.provinces)
    rounds = board.rounds_per_kingdom * board.kingdoms
    temple = len(board.temple_thresholds) + 2
    top_bid = max(board.bid_spaces) or 1
    b = _bounds(board, players, expert)
    offer_high = (1.0, 1.0, 1.0, b.gold, float(b.cards))
    parts = [
        Part("phase", (len(PHASE_INDEX),), "one-hot: " + ", ".join(PHASE_INDEX)),
        Part("round", (rounds,), "one-hot: round 1 to the last"),
        Part("to_move", (n,), "1 where the seat is to move (seats relative: the viewer first)"),
        Part("start_player", (n,), "one-hot: the start player (pharaoh)"),
        Part("temple", (temple,), "one-hot: the Amun-Re temple's space, 0 (beside) to 4"),
        Part("gold", (n,), f"each seat's gold / {GOLD_SCALE:g}", 0.0, b.gold),
        Part("score", (n,), f"each seat's points / {POINTS_SCALE:g}", 0.0, b.points),
        Part("cards_held", (n,), "how many power cards each seat holds (count)", 0, b.cards),
        Part(
            "hand",
            (NKINDS,),
            "the viewer's power cards per kind (count, CARD_KINDS order)",
            0,
            b.per_kind,
        ),
        Part("discard", (NKINDS,), "the discard pile per kind (count)", 0, b.per_kind),
        Part("deck", (1,), "power cards in the deck / all power cards"),
        Part("province_deck", (1,), "province cards in the deck / provinces"),
        Part("supply", (2,), "farmers in the supply / all farmers, stones / all stones"),
        Part("province_owner", (np_, n + 1), "one-hot per province: its owner, last: nobody"),
        Part("on_auction", (np_,), "1 where the province card is up for auction"),
        Part(
            "province_items",
            (np_, len(PROVINCE_ITEMS)),
            "per province: " + ", ".join(PROVINCE_ITEMS) + " (counts)",
            0,
            (b.fields, b.farmers, b.fields, board.stones, b.pyramids, b.face_down, b.free_gold),
        ),
        Part("bid_province", (n, np_ + 1), "one-hot per seat: its bidding marker, last: none"),
        Part("bid_amount", (n,), f"each seat's bid / {top_bid} (the highest bid space)"),
        Part("bid_flags", (n, 2), "per seat: overbid (must move its marker), blockade played"),
        Part("sealed_done", (n,), "1 where the seat has committed its offering or pick"),
        Part(
            "own_offer",
            (5,),
            f"the viewer's committed offering: committed, theft, correction, "
            f"gold / {GOLD_SCALE:g}, cards offered (count)",
            0,
            offer_high,
        ),
        Part(
            "revealed_offers",
            (n, 5),
            f"per seat, the revealed offering: shown, theft, correction, gold / "
            f"{GOLD_SCALE:g}, cards offered (count)",
            0,
            offer_high,
        ),
        Part(
            "offering_total",
            (1,),
            f"the revealed total (after corrections) / {TOTAL_SCALE:g}, 0 while sealed; "
            "can be negative",
            b.total_low,
            b.total_high,
        ),
        Part("adjusters", (n,), "1 where the seat holds a revealed correction card to play"),
        Part("rewards_queue", (n,), "rewards left to take per seat / 3"),
        Part("market_stage", (3,), "one-hot: buying cards, farmers, stones"),
        Part(
            "market_bought",
            (2,),
            "farmers and stones bought this market turn (count)",
            0,
            (b.farmers, board.stones),
        ),
        Part("eight_gold", (n, np_), "one-hot per seat: where it laid an 8-gold card"),
        Part("harvest_increase", (n, np_), "one-hot per seat: where it laid a harvest increase"),
        Part(
            "bonus_played",
            (n, len(BONUS_KINDS)),
            "bonus cards played this scoring (count)",
            0,
            b.per_bonus_kind,
        ),
        Part(
            "scorings",
            (board.kingdoms, n),
            f"points of each kingdom's scoring per seat / {POINTS_SCALE:g} (0 before it)",
            0.0,
            b.points,
        ),
    ]
    if expert:
        parts += [
            Part("province_cards", (n,), "province cards each seat holds (count)", 0, np_),
            Part("own_province_hand", (np_,), "1 for each province card the viewer holds"),
            Part("own_pick", (np_,), "one-hot: the viewer's sealed pick (all 0: none)"),
            Part("last_pick", (n, np_), "one-hot per seat: its last revealed pick"),
        ]
    return parts


def information_parts(board: Board, players: int, expert: bool) -> list[Part]:
    np_ = len(board.provinces)
    return [
        *observation_parts(board, players, expert),
        Part("provinces_out", (np_,), "1 for each province card that came out this kingdom"),
        Part(
            "unseen_cards",
            (NKINDS,),
            "per kind, power cards not in the viewer's hand nor the discards (count)",
            0,
            tuple(board.card(kind).count for kind in CARD_KINDS),
        ),
    ]


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a board and a table fix: both layouts, where each part starts (plain ints, read
    as attributes: native in compiled code, no dictionary lookup per part), the scales, and
    templates of both vectors. A tensor is a copy of its template, filled item by item
    through a ``memoryview`` (the cheapest item write from Python or compiled code, as in
    the Aton module). The templates hold what a position with nothing on the board shows:
    every province owned by nobody with all its fields empty, every seat without a bidding
    marker and, in the information state, every power card unseen; the fill overwrites
    those entries where the position differs, so each written value is the one the
    straightforward fill wrote."""

    board: Board
    obs: TensorLayout
    info: TensorLayout
    obs_template: FloatVector
    info_template: FloatVector
    n: int
    expert: bool
    provinces: int
    counts: tuple[int, ...]  # power cards of each kind in the game
    fields: tuple[int, ...]
    total_cards: int
    farmers: Mapping[str, int]
    stones: int
    bids: tuple[float, ...]  # each bid space / the highest bid space
    rows: tuple[tuple[int, ...], ...]  # rows[viewer][seat]: the seat's row, (seat - viewer) % n
    phase: int
    round: int
    to_move: int
    start_player: int
    temple: int
    gold: int
    score: int
    cards_held: int
    hand: int
    discard: int
    deck: int
    province_deck: int
    supply: int
    province_owner: int
    on_auction: int
    province_items: int
    bid_province: int
    bid_amount: int
    bid_flags: int
    sealed_done: int
    own_offer: int
    revealed_offers: int
    offering_total: int
    adjusters: int
    rewards_queue: int
    market_stage: int
    market_bought: int
    eight_gold: int
    harvest_increase: int
    bonus_played: int
    scorings: int
    province_cards: int  # the expert parts: -1 without expert provinces
    own_province_hand: int
    own_pick: int
    last_pick: int
    provinces_out: int
    unseen_cards: int


_CACHE: Final[dict[tuple[int, int, bool], _Plan]] = {}
#: The plan the last tensor used: checked by three compares, not a key built and hashed.
_LAST: Final[list[_Plan | None]] = [None]


def _plan(board: Board, players: int, expert: bool) -> _Plan:
    key = (id(board), players, expert)
    found = _CACHE.get(key)
    if found is not None and found.board is board:
        return found
    info = TensorLayout(information_parts(board, players, expert))
    obs = TensorLayout(observation_parts(board, players, expert))
    at = {p.part.name: p.start for p in info}
    n, np_ = players, len(board.provinces)
    fields = tuple(p.fields for p in board.provinces)
    counts = tuple(board.card(kind).count for kind in CARD_KINDS)
    top = max(board.bid_spaces) or 1
    template = info.zeros()
    for p in range(np_):
        template[at["province_owner"] + p * (n + 1) + n] = 1.0
        template[at["province_items"] + p * len(PROVINCE_ITEMS) + 2] = fields[p]
    for r in range(n):
        template[at["bid_province"] + r * (np_ + 1) + np_] = 1.0
    for k in range(NKINDS):
        template[at["unseen_cards"] + k] = counts[k]
    plan = _Plan(
        board,
        obs,
        info,
        template[: obs.size].copy(),
        template,
        n,
        expert,
        np_,
        counts,
        fields,
        board.total_cards,
        board.farmers,
        board.stones,
        tuple(space / top for space in board.bid_spaces),
        tuple(tuple((s - v) % n for s in range(n)) for v in range(n)),
        at["phase"],
        at["round"],
        at["to_move"],
        at["start_player"],
        at["temple"],
        at["gold"],
        at["score"],
        at["cards_held"],
        at["hand"],
        at["discard"],
        at["deck"],
        at["province_deck"],
        at["supply"],
        at["province_owner"],
        at["on_auction"],
        at["province_items"],
        at["bid_province"],
        at["bid_amount"],
        at["bid_flags"],
        at["sealed_done"],
        at["own_offer"],
        at["revealed_offers"],
        at["offering_total"],
        at["adjusters"],
        at["rewards_queue"],
        at["market_stage"],
        at["market_bought"],
        at["eight_gold"],
        at["harvest_increase"],
        at["bonus_played"],
        at["scorings"],
        at.get("province_cards", -1),
        at.get("own_province_hand", -1),
        at.get("own_pick", -1),
        at.get("last_pick", -1),
        at["provinces_out"],
        at["unseen_cards"],
    )
    if len(_CACHE) > 64:
        _CACHE.clear()
    _CACHE[key] = plan
    return plan


def _state_plan(state: AmunReState) -> _Plan:
    last = _LAST[0]
    if (
        last is not None
        and last.board is state.board
        and last.n == state.n
        and last.expert == state.expert
    ):
        return last
    plan = _plan(state.board, state.n, state.expert)
    _LAST[0] = plan
    return plan


def observation_layout(
    players: int, options: Mapping[str, Any] | None = None, board: Board | None = None
) -> TensorLayout:
    """The observation tensor's layout at a table of ``players`` (the printed board unless
    ``board`` is given)."""
    return _plan(board or default_board(), players, _expert(options)).obs


def information_state_layout(
    players: int, options: Mapping[str, Any] | None = None, board: Board | None = None
) -> TensorLayout:
    """The information state tensor's layout: the observation's parts, then the summary."""
    return _plan(board or default_board(), players, _expert(options)).info


def _cells(vector: FloatVector) -> memoryview[object]:
    """``vector``'s items as a writable view (format ``f``, one dimension). Typed ``object``
    so that compiled code can write the boxed constants below as they are."""
    return cast("memoryview[object]", vector.data)


#: 0.0 and 1.0, boxed once: most writes are one of them, and compiled code would otherwise
#: box a new float for each (a float typed ``float`` is a C double there).
_CONSTANTS: Final[tuple[object, object]] = (0.0, 1.0)


def _fill(state: AmunReState, seat: int, o: _Plan, out: memoryview[object], info: bool) -> None:
    """Write ``seat``'s observation into ``out``, a copy of a template (and, when ``info``,
    the information state's unseen cards, which the hand loop meets anyway): only the
    entries that differ from the template, each from a field ``view.observe`` shows to the
    seat."""
    zero, one = _CONSTANTS
    n: int = o.n
    np_: int = o.provinces
    rel = o.rows[seat]  # absolute seat -> row
    phase = state.phase
    out[o.phase + PHASE_INDEX[phase]] = one
    out[o.round + state.round - 1] = one
    # to_move() and the sealed marks, without building the tuple of movers.
    if phase == "offering":
        offers = state.offers
        for s in range(n):
            if offers[s] is None:
                out[o.to_move + rel[s]] = one
            else:
                out[o.sealed_done + rel[s]] = one
        offer = offers[seat]
        if offer is not None:
            row = o.own_offer
            out[row] = one
            if offer.theft:
                out[row + 1] = one
            if offer.correction:
                out[row + 2] = one
            out[row + 3] = offer.gold / GOLD_SCALE
            out[row + 4] = len(offer.cards)
    elif phase == "pick":
        picks = state.picks
        for s in range(n):
            if picks[s] < 0:
                out[o.to_move + rel[s]] = one
            else:
                out[o.sealed_done + rel[s]] = one
    else:
        if phase != "over":
            out[o.to_move + rel[state.current]] = one
        if state.offering_total:
            out[o.offering_total] = state.offering_total / TOTAL_SCALE
    out[o.start_player + rel[state.start]] = one
    out[o.temple + state.temple] = one
    gold, score, held = o.gold, o.score, o.cards_held
    golds, scores, hands = state.gold, state.score, state.hand
    bid_prov, amount, flags = o.bid_province, o.bid_amount, o.bid_flags
    bid_row = np_ + 1
    bids, spaces, overbid, blockade = state.bid_prov, state.bid_space, state.overbid, state.blockade
    scaled = o.bids
    eight, increase, bonus = o.eight_gold, o.harvest_increase, o.bonus_played
    eights, increases, bonus_kinds = state.eight_gold_prov, state.increase_prov, state.bonus_kinds
    revealed, shown_offers = o.revealed_offers, state.revealed
    nbonus = len(BONUS_KINDS)
    for s in range(n):
        r = rel[s]
        if golds[s]:
            out[gold + r] = golds[s] / GOLD_SCALE
        if scores[s]:
            out[score + r] = scores[s] / POINTS_SCALE
        size = sum(hands[s])
        if size:
            out[held + r] = size
        p = bids[s]
        if p >= 0:
            at = bid_prov + r * bid_row
            out[at + np_] = zero
            out[at + p] = one
            out[amount + r] = scaled[spaces[s]]
        if overbid[s]:
            out[flags + 2 * r] = one
        if blockade[s]:
            out[flags + 2 * r + 1] = one
        p = eights[s]
        if p >= 0:
            out[eight + r * np_ + p] = one
        p = increases[s]
        if p >= 0:
            out[increase + r * np_ + p] = one
        for kind in bonus_kinds[s]:  # a count: exact in float32 however it is added
            at = bonus + r * nbonus + BONUS_INDEX[kind]
            out[at] = cast(float, out[at]) + 1.0
        shown = shown_offers[s]
        if shown is not None:
            row = revealed + 5 * r
            out[row] = one
            if shown.theft:
                out[row + 1] = one
            if shown.correction:
                out[row + 2] = one
            out[row + 3] = shown.gold / GOLD_SCALE
            out[row + 4] = len(shown.cards)
    own, discard, unseen = o.hand, o.discard, o.unseen_cards
    mine, discards, counts = hands[seat], state.discard, o.counts
    for k in range(NKINDS):
        m = mine[k]
        d = discards[k]
        if m or d:
            if m:
                out[own + k] = m
            if d:
                out[discard + k] = d
            if info:
                out[unseen + k] = counts[k] - m - d
    out[o.deck] = len(state.deck) / o.total_cards
    out[o.province_deck] = len(state.province_deck) / np_
    out[o.supply] = state.farmer_supply / o.farmers[state.edition]
    out[o.supply + 1] = state.stone_supply / o.stones
    owner: int = o.province_owner
    row = o.province_items
    width = len(PROVINCE_ITEMS)
    owner_row = n + 1
    fields = o.fields
    owners, field_farmers, free_farmers = state.owner, state.field_farmers, state.free_farmers
    stones, pyramids, face_down, free_gold = (
        state.stones,
        state.pyramids,
        state.face_down,
        state.free_gold,
    )
    for p in range(np_):
        who = owners[p]
        if who >= 0:
            out[owner + n] = zero
            out[owner + rel[who]] = one
        farmers = field_farmers[p]
        if farmers:
            out[row] = farmers
            out[row + 2] = fields[p] - farmers
        if free_farmers[p]:
            out[row + 1] = free_farmers[p]
        if stones[p]:
            out[row + 3] = stones[p]
        if pyramids[p]:
            out[row + 4] = pyramids[p]
        if face_down[p]:
            out[row + 5] = len(face_down[p])
        if free_gold[p]:
            out[row + 6] = free_gold[p] / FREE_GOLD_SCALE
        owner += owner_row
        row += width
    auction = o.on_auction
    for p in state.on_auction:
        out[auction + p] = one
    adjusters = o.adjusters
    for s in state.adjusters:
        out[adjusters + rel[s]] = one
    queue = o.rewards_queue
    for entry in state.reward_queue:
        at = queue + rel[entry[0]]
        left = entry[1] / 3.0
        before = cast(float, out[at])
        # Each seat is queued once; were one queued twice, add as the float32 vector would.
        out[at] = float(np.float32(before) + np.float32(left)) if before else left
    out[o.market_stage + state.stage] = one
    if state.bought_farmers:
        out[o.market_bought] = state.bought_farmers
    if state.bought_stones:
        out[o.market_bought + 1] = state.bought_stones
    at = o.scorings
    for lines in state.scorings:
        for s in range(len(lines)):
            out[at + rel[s]] = lines[s]["total"] / POINTS_SCALE
        at += n
    if state.expert:
        cards, last = o.province_cards, o.last_pick
        prov_hand, revealed_picks = state.prov_hand, state.revealed_picks
        for s in range(n):
            r = rel[s]
            out[cards + r] = len(prov_hand[s])
            p = revealed_picks[s]
            if p >= 0:
                out[last + r * np_ + p] = one
        hand = o.own_province_hand
        for p in prov_hand[seat]:
            out[hand + p] = one
        p = state.picks[seat]
        if p >= 0:
            out[o.own_pick + p] = one


def observation_tensor(state: AmunReState, seat: int) -> FloatVector:
    """What ``seat`` sees now, laid out by :func:`observation_layout`."""
    plan = _state_plan(state)
    vector = plan.obs_template.copy()
    _fill(state, seat, plan, _cells(vector), False)
    return vector


def information_state_tensor(state: AmunReState, seat: int) -> FloatVector:
    """The observation followed by what ``seat`` witnessed (:func:`information_parts`)."""
    plan = _state_plan(state)
    vector = plan.info_template.copy()
    cells = _cells(vector)
    _fill(state, seat, plan, cells, True)
    one = _CONSTANTS[1]
    base = plan.provinces_out
    for p in state.used_this_kingdom:
        cells[base + p] = one
    return vector


def observation_string(state: AmunReState, seat: int) -> str:
    """What ``seat`` sees, in a few lines (seats by name, in turn order from the viewer)."""
    board = state.board
    n = state.n
    names = state.players
    pname = board.province_names
    phase = state.phase
    order = [(seat + i) % n for i in range(n)]
    movers = ", ".join(names[s] for s in state.to_move()) or "nobody"
    lines = [
        f"Amun-Re round {state.round} phase {phase}; to move: {movers}; "
        f"start player {names[state.start]}; temple {state.temple}",
    ]
    hand = ", ".join(f"{CARD_KINDS[k]} x{c}" for k, c in enumerate(state.hand[seat]) if c)
    you = f"You are {names[seat]}: hand {hand or 'empty'}"
    if phase == "offering" and state.offers[seat] is not None:
        you += f"; your offering {state.offers[seat].to_text()}"  # type: ignore[union-attr]
    if state.expert:
        held = ", ".join(pname[p] for p in state.prov_hand[seat])
        you += f"; province cards {held or 'none'}"
        if state.picks[seat] >= 0:
            you += f"; you picked {pname[state.picks[seat]]}"
    lines.append(you)
    for s in order:
        owned = ",".join(pname[p] for p in state.own[s]) or "-"
        text = (
            f"{names[s]}: gold {state.gold[s]} score {state.score[s]} "
            f"cards {sum(state.hand[s])} provinces {owned}"
        )
        p = state.bid_prov[s]
        if p >= 0:
            text += f" bid {pname[p]} {board.bid_spaces[state.bid_space[s]]}"
            if state.overbid[s]:
                text += " (overbid)"
        if state.blockade[s]:
            text += " +blockade"
        if phase == "offering":
            text += " committed" if state.offers[s] is not None else " thinking"
        if phase == "pick":
            text += " picked" if state.picks[s] >= 0 else " choosing"
        if state.revealed[s] is not None:
            text += f" offered {state.revealed[s].to_text()}"  # type: ignore[union-attr]
        if state.expert:
            text += f" province-cards {len(state.prov_hand[s])}"
        lines.append(text)
    shown = []
    for p in range(len(pname)):
        farmers = state.field_farmers[p] + state.free_farmers[p]
        in_play = state.owner[p] >= 0 or p in state.on_auction
        if not (in_play or state.pyramids[p] or state.stones[p]):
            continue
        text = f"{pname[p]}"
        if state.owner[p] >= 0:
            text += f"[{names[state.owner[p]]}]"
        if p in state.on_auction:
            text += "[auction]"
        text += f" f{farmers} s{state.stones[p]} py{state.pyramids[p]}"
        if state.face_down[p]:
            text += f" fd{len(state.face_down[p])}"
        if state.free_gold[p]:
            text += f" g{state.free_gold[p]}"
        shown.append(text)
    lines.append("Provinces: " + ("; ".join(shown) or "none in play"))
    total = "sealed" if phase == "offering" else str(state.offering_total)
    lines.append(
        f"Deck {len(state.deck)} cards, discards {sum(state.discard)}, "
        f"supply {state.farmer_supply} farmers {state.stone_supply} stones, "
        f"province deck {len(state.province_deck)}, offering total {total}"
    )
    return "\n".join(lines)


__all__ = [
    "information_state_layout",
    "information_state_tensor",
    "observation_layout",
    "observation_string",
    "observation_tensor",
]

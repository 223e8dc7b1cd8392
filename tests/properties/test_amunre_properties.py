"""Property tests of the Amun-Re engine, driven by hypothesis-chosen seeds and options.

Every test plays whole random games (a seeded policy picks a random mover and a random legal
action) and checks the conservation invariants after EVERY step. The expensive properties
(legal actions == accepted actions, replay and JSON round trips, non-interference, resampling)
are checked at a few sampled steps of each game.

Games per player count (3, 4 and 5 seats each), all deterministic (``derandomize=True``):

    test_games_end_and_conserve            100 examples x 3 games = 300
    test_legal_actions_are_exactly_what_apply_accepts      40
    test_replay_clone_and_json_round_trips                 40
    test_non_interference                                  40
    test_non_interference_of_continuations                 40
    test_resample                                          40
    test_determinism                                       20
                                                   total  520 per player count

A failing game reports its seed, options and the action list (as a record) in an exception
note; replay it with ``replay(GameRecord.from_json(...))`` or by re-running the policy.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karnak.core import GameRecord, IllegalActionError, Rng, get_game, replay
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS
from karnak.games.amunre.rules.state import AmunReState
from support.amunre_hidden import redeal_hidden
from support.hypothesis_settings import deterministic

GAME = get_game("amunre")
BOARD = GAME.board  # type: ignore[attr-defined]
NAMES: tuple[str, ...] = BOARD.province_names
NPROV = len(NAMES)
NKINDS = len(CARD_KINDS)
KIND_INDEX = {kind: i for i, kind in enumerate(CARD_KINDS)}
KIND_COUNT = [BOARD.card(kind).count for kind in CARD_KINDS]
UNKNOWN_PROVINCE = "ATLANTIS"
UNKNOWN_CARD = "joker"

# Figures from the rule books and RULINGS.md, written out here so the oracles do not lean on
# the engine's own copy of them.
BID_SPACES = (0, 1, 3, 6, 10, 15, 21, 28, 36)  # ruling 4
TOTAL_CARDS = 39
TOTAL_STONES = 15  # ruling 6
TOTAL_FARMERS = {"2003": 45, "2016": 48}
ROUNDS = 6
PHASES = (
    "pick",
    "auction",
    "market",
    "offering",
    "adjust",
    "rewards",
    "harvest",
    "scoring",
    "over",
)
MAX_ACTIONS = 5000  # a random game takes about 200; anything near this bound is a loop

PLAYER_COUNTS = (3, 4, 5)
SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
OPTIONS = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(["2003", "2016"]),
        "expert_provinces": st.booleans(),
        "offer_cards": st.booleans(),
    }
)


# ------------------------------------------------------------------ playing


def choose(state: AmunReState, rng: Rng) -> tuple[int, Any]:
    """A random mover and a random legal action; half the time the action kind is drawn first,
    so rare kinds (card plays) are not drowned by long lists of bids or offers."""
    movers = state.to_move()
    assert movers, "a running game must have someone to move"
    seat = rng.choice(movers)
    legal = state.legal_actions(seat)
    assert legal, f"seat {seat} must decide in phase {state.phase} but has no legal action"
    if rng.below(2):
        return seat, rng.choice(legal)
    kinds = sorted({a.kind for a in legal})
    kind = rng.choice(kinds)
    return seat, rng.choice([a for a in legal if a.kind == kind])


def new_game(n: int, seed: int, options: dict[str, Any]) -> AmunReState:
    state = GAME.new_state(n, seed=seed, options=options)
    assert isinstance(state, AmunReState)
    return state


Hook = Callable[[int, AmunReState, int, Any], None]


def play(
    state: AmunReState, rng: Rng, hook: Hook | None = None, *, oracles: bool = True
) -> AmunReState:
    """Play ``state`` to the end, checking the invariants after every step.

    ``hook(step, state, seat, action)`` runs before each action is applied. On a failure the
    exception carries the game's record, so the game can be replayed up to the failing step.
    """
    played: list[set[str]] = [set() for _ in range(state.n)]
    phase_key = (state.round, state.phase)
    try:
        check_invariants(state)
        step = 0
        while not state.is_over():
            assert step < MAX_ACTIONS, f"no end after {MAX_ACTIONS} actions"
            seat, action = choose(state, rng)
            if oracles:
                check_oracles(state, played)
            if hook is not None:
                hook(step, state, seat, action)
            state.apply(seat, action)
            if (state.round, state.phase) != phase_key:
                phase_key = (state.round, state.phase)
                played = [set() for _ in range(state.n)]
            else:
                track_played(played[seat], action)
            check_invariants(state)
            step += 1
        check_end(state)
    except Exception as exc:
        exc.add_note(
            f"Amun-Re game: seats={state.n} seed={state.seed} options={state.options}; "
            f"record up to the failure: {json.dumps(state.record().to_json())}"
        )
        raise
    return state


def track_played(kinds: set[str], action: Any) -> None:
    """Power cards a seat played (not sold) in the current phase, from its public actions."""
    if isinstance(action, A.Bid):
        if action.blockade:
            kinds.add("blockade")
        if action.overbid:
            kinds.add("overbid")


# ------------------------------------------------------------------ invariants


def check_invariants(state: AmunReState) -> None:
    n = state.n
    # gold: the bank is the balancing account
    assert sum(state.gold) + state.bank + sum(state.free_gold) == 0, "gold is not conserved"
    assert all(g >= 0 for g in state.gold), f"negative gold {state.gold}"
    assert all(g >= 0 for g in state.free_gold), f"negative free gold {state.free_gold}"
    # farmers
    assert state.farmer_supply >= 0
    assert all(f >= 0 for f in state.field_farmers) and all(f >= 0 for f in state.free_farmers)
    on_board = sum(state.field_farmers) + sum(state.free_farmers)
    assert state.farmer_supply + on_board == TOTAL_FARMERS[state.edition], "farmers not conserved"
    assert state.board.farmers[state.edition] == TOTAL_FARMERS[state.edition]
    for p, prov in enumerate(BOARD.provinces):
        assert state.field_farmers[p] <= prov.fields, f"{prov.name} has more farmers than fields"
    # stones and pyramids
    assert state.stone_supply >= 0
    assert state.stone_supply + sum(state.stones) == TOTAL_STONES, "stones not conserved"
    assert all(0 <= s <= 2 for s in state.stones), f"stones per province {state.stones}"
    assert all(p >= 0 for p in state.pyramids)
    # power cards, kind by kind
    in_deck = Counter(state.deck)
    face_down = Counter(k for cards in state.face_down for k in cards)
    for k in range(NKINDS):
        assert state.discard[k] >= 0
        assert all(state.hand[s][k] >= 0 for s in range(n)), f"negative count of {CARD_KINDS[k]}"
        total = (
            in_deck[k] + state.discard[k] + sum(state.hand[s][k] for s in range(n)) + face_down[k]
        )
        assert total == KIND_COUNT[k], f"{CARD_KINDS[k]}: {total} cards, not {KIND_COUNT[k]}"
    assert all(0 <= k < NKINDS for k in state.deck)
    cards = len(state.deck) + sum(state.discard) + sum(map(sum, state.hand))
    assert cards + sum(face_down.values()) == TOTAL_CARDS, "power cards not conserved"
    # flow
    assert state.phase in PHASES
    assert 1 <= state.round <= ROUNDS
    movers = state.to_move()
    if state.phase == "over":
        assert movers == ()
    else:
        assert movers and all(0 <= s < n for s in movers) and len(set(movers)) == len(movers)
        if not state.is_simultaneous():
            assert len(movers) == 1
    if state.expert:
        for s in range(n):
            assert state.picks[s] < 0 or state.picks[s] in state.prov_hand[s]


def check_end(state: AmunReState) -> None:
    n = state.n
    assert state.is_over() and state.phase == "over"
    assert state.round == ROUNDS
    assert state.to_move() == ()
    assert all(state.legal_actions(s) == [] for s in range(n))
    scores = state.scores()
    assert len(scores) == n and all(isinstance(x, int) for x in scores)
    assert len(state.scorings) == 2, "there are two scorings, after rounds 3 and 6"
    for s in range(n):
        assert scores[s] == sum(lines[s]["total"] for lines in state.scorings)
    winners = state.winners()
    assert winners and all(0 <= w < n for w in winners)
    best = max(state.ranking_key(s) for s in range(n))
    assert winners == [s for s in range(n) if state.ranking_key(s) == best]
    assert max(scores) == scores[winners[0]]
    with pytest.raises(IllegalActionError):
        state.apply(0, A.Done())


# ------------------------------------------------------------------ oracles


def oracle_bids(obs: dict[str, Any], played: set[str]) -> set[Any]:
    """The legal bids of the observing seat, derived from its observation alone (ruling 4 and
    the power-card texts), plus its sells."""
    me = obs["seat"]
    hand: dict[str, int] = obs["you"]["hand"]
    players = obs["players"]
    gold = players[me]["gold"]
    mine = [
        (prov["name"], bid["overbid"])
        for prov in obs["provinces"]
        for bid in prov["bids"]
        if bid["seat"] == me
    ]
    assert len(mine) <= 1, "a seat has one bidding marker"
    if mine:
        assert mine[0][1], "only an overbid seat (or one without a marker) bids"
    here = mine[0][0] if mine else None
    # "A player may not play 2 identical cards" in a phase (2003 p.12, 2016 p.4)
    can_block = hand.get("blockade", 0) > 0 and not players[me]["blockade"]
    can_block = can_block and "blockade" not in played
    can_overbid = hand.get("overbid", 0) > 0 and "overbid" not in played
    expected: set[Any] = set()
    for prov in obs["provinces"]:
        if not prov["on_auction"]:
            continue
        name = prov["name"]
        same = name == here
        if same and not can_overbid:
            continue  # an overbid player must move to a different card
        lowest = 0
        for bid in prov["bids"]:
            if bid["seat"] == me:
                continue
            skip = 2 if players[bid["seat"]]["blockade"] else 1
            lowest = max(lowest, BID_SPACES.index(bid["amount"]) + skip)
        for space in BID_SPACES[lowest:]:
            if space > gold:
                break
            for blockade in (False, True) if can_block else (False,):
                expected.add(A.Bid(name, space, blockade, same))
    expected |= {A.Sell(kind) for kind, count in hand.items() if count}
    return expected


def check_oracles(state: AmunReState, played: list[set[str]]) -> None:
    """Independent re-derivations of the legal actions at the auction, offering and pick."""
    phase = state.phase
    if phase == "auction":
        (seat,) = state.to_move()
        obs = state.observation(seat)
        legal = state.legal_actions(seat)
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        expected = oracle_bids(obs, played[seat])
        assert set(legal) == expected, (
            f"auction oracle disagrees for seat {seat}: engine only {set(legal) - expected}, "
            f"oracle only {expected - set(legal)}"
        )
        assert any(isinstance(a, A.Bid) and a.amount == 0 for a in legal), "a 0 bid exists"
    elif phase == "offering":
        committed = [p["committed"] for p in state.observation(None)["players"]]
        assert list(state.to_move()) == [s for s in range(state.n) if not committed[s]]
        for seat in state.to_move():
            hand = state.hand[seat]
            gold = state.gold[seat]
            corrections = (False, True) if hand[KIND_INDEX["correction"]] else (False,)
            expected: set[Any] = {A.Sell(k) for k in CARD_KINDS if hand[KIND_INDEX[k]]}
            for c in corrections:
                expected.add(A.Offer(0, True, c))
                expected |= {A.Offer(g, False, c) for g in range(1, gold + 1)}
            legal = state.legal_actions(seat)
            plain = {a for a in legal if not (isinstance(a, A.Offer) and a.cards)}
            assert plain == expected, f"offering oracle disagrees for seat {seat}"
            for a in legal:
                if isinstance(a, A.Offer) and a.cards:
                    assert state.offer_cards and not a.theft and 0 <= a.gold <= gold
                    need = Counter(a.cards) + Counter(["correction"] * a.correction)
                    assert all(hand[KIND_INDEX[k]] >= m for k, m in need.items())
    elif phase == "pick":
        for seat in range(state.n):
            you = state.observation(seat)["you"]
            legal = set(state.legal_actions(seat))
            if "pick" in you:
                assert not legal
            else:
                sells = {A.Sell(k) for k, c in you["hand"].items() if c}
                assert legal == {A.Pick(p) for p in you["province_cards"]} | sells


# ------------------------------------------------------------------ a. b. end + invariants


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(50)  # 150 whole games a table size (every invariant checked at every step)
@given(games=st.lists(st.tuples(SEEDS, OPTIONS), min_size=3, max_size=3))
def test_games_end_and_conserve(n: int, games: list[tuple[int, dict[str, Any]]]) -> None:
    for seed, options in games:
        state = play(new_game(n, seed, options), Rng(seed ^ 0x5EED))
        assert state.round == ROUNDS and len(state.scores()) == n


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(10)
@given(seed=SEEDS)
def test_no_two_identical_power_cards_in_one_auction(n: int, seed: int) -> None:
    """The random games rarely deal one seat both overbid cards, so this builds the case: the
    start player holds both, plays one, is overbid again on the same card and may not play the
    second in the same phase ("A player may not play 2 identical cards", 2003 p.12; "You cannot
    play 2 identical Favor cards in the same phase", 2016 p.4)."""
    state = new_game(n, seed, {})
    overbid = KIND_INDEX["overbid"]
    for cards in state.face_down:  # move every overbid card into the deck ...
        for i, k in enumerate(cards):
            if k == overbid:
                j = next(j for j, d in enumerate(state.deck) if d != overbid)
                cards[i], state.deck[j] = state.deck[j], overbid
    s0 = state.start
    while overbid in state.deck:  # ... and from the deck into the start player's hand
        state.deck.remove(overbid)
        state.hand[s0][overbid] += 1
    assert state.hand[s0][overbid] == 2
    check_invariants(state)
    seats = [(s0 + i) % n for i in range(n)]
    names = [NAMES[p] for p in state.on_auction]
    x, y = names[0], names[1]
    script = [(seats[0], A.Bid(x, 0)), (seats[1], A.Bid(x, 1)), (seats[2], A.Bid(y, 0))]
    script += [(seats[i], A.Bid(names[i], 0)) for i in range(3, n)]
    script += [(seats[0], A.Bid(x, 3, overbid=True)), (seats[1], A.Bid(y, 1))]
    script += [(seats[2], A.Bid(x, 6))]
    for seat, action in script:
        state.apply(seat, action)
    assert state.to_move() == (s0,) and state.hand[s0][overbid] == 1
    check_oracles(state, [{"overbid"} if s == s0 else set() for s in range(n)])
    with pytest.raises(IllegalActionError):
        state.apply(s0, A.Bid(x, 10, overbid=True))


# ------------------------------------------------------------------ c. legal == accepted


def candidate_universe(state: AmunReState, seat: int) -> list[Any]:
    gold = state.gold[seat] if 0 <= seat < state.n else 0
    amounts = sorted({*BID_SPACES, -1, 2, 4, 37, gold, gold + 1})
    cands: list[Any] = []
    for name in (*NAMES, UNKNOWN_PROVINCE):
        for amount in amounts:
            for blockade in (False, True):
                for overbid in (False, True):
                    cands.append(A.Bid(name, amount, blockade, overbid))
        for cls in (
            A.Farmer,
            A.Stone,
            A.Builder,
            A.FreeFarmer,
            A.TakeFarmer,
            A.TakeStone,
            A.EightGold,
            A.HarvestIncrease,
            A.Pick,
        ):
            cands.append(cls(name))
    cands += [A.BuyCards(c) for c in range(7)]
    for kind in (*CARD_KINDS, UNKNOWN_CARD):
        cands += [A.Sell(kind), A.PlayBonus(kind)]
    for g in range(-1, gold + 3):
        for theft in (False, True):
            for correction in (False, True):
                cands.append(A.Offer(g, theft, correction))
    for kind in CARD_KINDS:
        cands += [
            A.Offer(0, False, False, (kind,)),
            A.Offer(1, False, True, (kind, kind)),
            A.Offer(0, True, False, (kind,)),
        ]
    cands += [A.Adjust(3), A.Adjust(-3), A.Adjust(0), A.Adjust(6), A.TakeCard(), A.Done()]
    return list(dict.fromkeys(cands))


FIELDS = (
    *AmunReState._SCALAR_FIELDS,
    *AmunReState._LIST_FIELDS,
    *AmunReState._NESTED_FIELDS,
    "scorings",
)


def fingerprint(state: AmunReState) -> list[Any]:
    """A cheap stand-in for ``to_json`` (the full comparison runs once per state)."""
    return [
        *copy.deepcopy([getattr(state, f) for f in FIELDS]),
        len(state.history),
        len(state.log),
        state.rng.state,
    ]


def same_fingerprint(state: AmunReState, print_: list[Any]) -> bool:
    now = [
        *(getattr(state, f) for f in FIELDS),
        len(state.history),
        len(state.log),
        state.rng.state,
    ]
    return now == print_


def check_legal_is_accepted(state: AmunReState, rng: Rng) -> None:
    before = state.to_json()
    print_ = fingerprint(state)
    cheap_print = (len(state.history), len(state.log), state.rng.state)
    checked = 0
    probe = state.clone()
    movers = state.to_move()
    others = [s for s in range(state.n) if s not in movers]
    seats = [*movers, *([rng.choice(others)] if others else []), -1, state.n]
    for seat in seats:
        legal = state.legal_actions(seat) if 0 <= seat < state.n else []
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        legal_set = set(legal)
        for action in legal:  # text and JSON forms round-trip
            assert GAME.parse_action(action.to_text()) == action
            assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        sample = legal if len(legal) <= 300 else [rng.choice(legal) for _ in range(300)]
        for action in sample:
            child = state.clone()
            child.apply(seat, action)
            check_invariants(child)
        for action in candidate_universe(state, seat):
            if action in legal_set:
                continue
            try:
                probe.apply(seat, action)
            except IllegalActionError:
                pass
            except Exception as exc:
                raise AssertionError(
                    f"{action!r} by seat {seat} raised {type(exc).__name__}, not IllegalActionError"
                ) from exc
            else:
                raise AssertionError(f"{action!r} is not legal for seat {seat} but was accepted")
            checked += 1
            cheap = (len(probe.history), len(probe.log), probe.rng.state) == cheap_print
            assert cheap, f"refused {action!r} changed the state"
            if checked % 64 == 0:
                assert same_fingerprint(probe, print_), f"a refused action before {action!r} "
    assert probe.to_json() == before, "a refused action changed the state"
    assert state.to_json() == before


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(40)
@given(seed=SEEDS, options=OPTIONS)
def test_legal_actions_are_exactly_what_apply_accepts(
    n: int, seed: int, options: dict[str, Any]
) -> None:
    rng = Rng(seed ^ 0xC0FFEE)
    state = new_game(n, seed, options)
    due = {rng.below(40), 40 + rng.below(60), 100 + rng.below(100)}

    def hook(step: int, st_: AmunReState, seat: int, action: Any) -> None:
        if step in due:
            check_legal_is_accepted(st_, rng)

    play(state, Rng(seed ^ 0x5EED), hook)


# ------------------------------------------------------------------ d. replay, JSON


def json_round_trip(state: AmunReState) -> AmunReState:
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert isinstance(restored, AmunReState)
    return restored


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(40)
@given(seed=SEEDS, options=OPTIONS, where=st.floats(0.0, 1.0))
def test_replay_clone_and_json_round_trips(
    n: int, seed: int, options: dict[str, Any], where: float
) -> None:
    snapshots: dict[int, AmunReState] = {}
    mid = int(where * 150)

    def hook(step: int, st_: AmunReState, seat: int, action: Any) -> None:
        if step == mid:
            snapshots[step] = st_.clone()

    final = play(new_game(n, seed, options), Rng(seed ^ 0x5EED), hook)
    end_json = final.to_json()
    # the record replays to the same state, also through JSON text
    assert replay(final.record()).to_json() == end_json
    record = GameRecord.from_json(json.loads(final.record().dumps()))
    record.result = {"scores": final.scores()}
    assert replay(record).to_json() == end_json
    # the end state survives JSON
    assert json_round_trip(final).to_json() == end_json
    if not snapshots:
        return
    ((step, snap),) = snapshots.items()
    snap_json = snap.to_json()
    assert replay(snap.record()).to_json() == snap_json
    restored = json_round_trip(snap)
    assert restored.to_json() == snap_json
    assert restored.legal_actions(restored.to_move()[0]) == snap.legal_actions(snap.to_move()[0])
    # the restored state, the clone and an unchecked replay all continue identically
    rest = final.history[step:]
    unchecked = new_game(n, seed, options)
    for seat, action in final.history[:step]:
        unchecked.apply_unchecked(seat, action)
    assert unchecked.to_json() == snap_json
    for seat, action in rest:
        restored.apply(seat, action)
        snap.apply(seat, action)
        unchecked.apply_unchecked(seat, action)
    assert restored.to_json() == end_json
    assert snap.to_json() == end_json
    assert unchecked.to_json() == end_json


# ------------------------------------------------------------------ e. non-interference


def perturb_hidden(state: AmunReState, seat: int | None, rng: Rng) -> AmunReState:
    """The shared re-deal of everything ruling 12 hides from ``seat``, then the invariants."""
    world = redeal_hidden(state, seat, rng)
    check_invariants(world)
    return world


def seat_view(state: AmunReState, seat: int | None) -> tuple[Any, ...]:
    if seat is None:
        return (state.observation(None), state.log_lines(None))
    return (
        state.observation(seat),
        state.legal_actions(seat),
        state.log_lines(seat),
        state.information_state(seat),
    )


def check_visible_change_is_seen(state: AmunReState, seat: int) -> None:
    """The inverse: changing what ``seat`` may see changes its observation (the test can fail)."""
    base = state.observation(seat)
    mine = state.clone()
    hand = mine.hand[seat]
    held = [k for k in range(NKINDS) if hand[k]]
    swap = next(((i, k) for i, k in enumerate(mine.deck) for h in held if k != h), None)
    if held and swap is not None:
        i, k = swap
        h = next(h for h in held if h != k)
        hand[h] -= 1
        hand[k] += 1
        mine.deck[i] = h
    elif mine.deck:
        hand[mine.deck.pop()] += 1
    else:
        hand[0] += 1
    assert mine.observation(seat) != base, "own hand changes must be visible"
    public = state.clone()
    other = (seat + 1) % state.n
    public.gold[other] += 1
    public.bank -= 1
    assert public.observation(seat) != base, "another seat's gold is public"


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(40)
@given(seed=SEEDS, options=OPTIONS)
def test_non_interference(n: int, seed: int, options: dict[str, Any]) -> None:
    rng = Rng(seed ^ 0xFACE)
    due = {rng.below(30), 30 + rng.below(60), 90 + rng.below(60), 150 + rng.below(60)}

    def hook(step: int, st_: AmunReState, seat: int, action: Any) -> None:
        if step not in due and st_.phase not in ("offering", "pick"):
            return
        if step not in due and rng.below(4):
            return  # sealed steps are sampled more often
        for s in (*range(st_.n), None):
            view = seat_view(st_, s)
            for _ in range(2):
                world = perturb_hidden(st_, s, rng)
                assert seat_view(world, s) == view, (
                    f"seat {s} can tell hidden information apart at step {step} "
                    f"({st_.phase}, round {st_.round})"
                )
        check_visible_change_is_seen(st_, rng.below(st_.n))

    play(new_game(n, seed, options), Rng(seed ^ 0x5EED), hook)


def check_continuation(
    start: AmunReState, seat: int, future: list[tuple[int, Any]], rng: Rng
) -> None:
    """Continue the true game and a re-dealt world with the same public actions: what ``seat``
    sees must stay the same until something is legitimately revealed (its own draw, the reveal
    of a sealed step, new province cards at a phase change)."""
    true = start.clone()
    world = perturb_hidden(start, seat, rng)
    for index, (mover, action) in enumerate(future):
        if mover == seat and isinstance(action, A.BuyCards | A.TakeCard):
            return  # the seat draws from a deck whose order differs
        if mover not in world.to_move() or action not in world.legal_actions(mover):
            return  # the re-dealt hand of another seat cannot make this move
        key = (true.round, true.phase)
        true.apply(mover, action)
        world.apply(mover, action)
        where = f"{index + 1} steps after the perturbation, after {mover}: {action.to_text()!r}"
        if key[1] in ("offering", "pick") and true.phase != key[1]:
            return  # the sealed step was revealed
        assert (world.round, world.phase) == (true.round, true.phase), (
            f"the course of the game depends on information hidden from seat {seat}: "
            f"{where}, the true game is in {true.phase} (round {true.round}) and an "
            f"indistinguishable one in {world.phase} (round {world.round})"
        )
        if (true.round, true.phase) != key:
            return  # a new phase may bring out new (hidden until now) cards
        assert world.to_move() == true.to_move(), (
            f"who decides depends on information hidden from seat {seat}: {where}, "
            f"{true.to_move()} in the true game, {world.to_move()} in an indistinguishable one "
            f"(phase {true.phase}, round {true.round})"
        )
        assert seat_view(world, seat) == seat_view(true, seat), (
            f"seat {seat} can tell hidden information apart {where}"
        )


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(40)
@given(seed=SEEDS, options=OPTIONS)
def test_non_interference_of_continuations(n: int, seed: int, options: dict[str, Any]) -> None:
    rng = Rng(seed ^ 0xBEEF)
    snaps: list[tuple[int, AmunReState]] = []

    def hook(step: int, st_: AmunReState, seat: int, action: Any) -> None:
        if rng.below(20) == 0:
            snaps.append((step, st_.clone()))

    final = play(new_game(n, seed, options), Rng(seed ^ 0x5EED), hook)
    for step, snap in snaps:
        for seat in range(n):
            check_continuation(snap, seat, final.history[step : step + 12], rng)


# ------------------------------------------------------------------ f. resample


def public_parts(state: AmunReState) -> dict[str, Any]:
    return {
        "gold": state.gold,
        "bank": state.bank,
        "free_gold": state.free_gold,
        "score": state.score,
        "discard": state.discard,
        "deck_size": len(state.deck),
        "hand_sizes": [sum(h) for h in state.hand],
        "face_down_sizes": [len(c) for c in state.face_down],
        "province_deck_size": len(state.province_deck),
        "prov_hand_sizes": [len(h) for h in state.prov_hand],
        "picked": [p >= 0 for p in state.picks],
        "committed": [o is not None for o in state.offers],
        **{
            name: getattr(state, name)
            for name in (
                "round",
                "phase",
                "start",
                "current",
                "temple",
                "owner",
                "field_farmers",
                "free_farmers",
                "farmer_supply",
                "stones",
                "stone_supply",
                "pyramids",
                "on_auction",
                "bid_prov",
                "bid_space",
                "overbid",
                "blockade",
                "played",
                "revealed",
                "reward_queue",
                "scorings",
            )
        },
    }


def check_resample(state: AmunReState, seat: int, rng: Rng) -> AmunReState:
    world = state.resample(seat, rng)
    assert isinstance(world, AmunReState)
    check_invariants(world)
    assert world.observation(seat) == state.observation(seat)
    assert world.legal_actions(seat) == state.legal_actions(seat)
    assert public_parts(world) == public_parts(state)
    assert world.hand[seat] == state.hand[seat]
    assert world.offers[seat] == state.offers[seat]
    assert world.prov_hand[seat] == state.prov_hand[seat]
    assert world.picks[seat] == state.picks[seat]
    for s in range(state.n):
        offer = world.offers[s]
        if offer is not None:  # a sealed offer the re-dealt seat could have made
            assert offer.theft or offer.gold + len(offer.cards) >= 1
            assert offer.gold <= world.gold[s]
            need = Counter(offer.cards) + Counter(["correction"] * offer.correction)
            assert all(world.hand[s][KIND_INDEX[k]] >= m for k, m in need.items())

    # the re-dealt power cards are the same cards
    def unseen(st_: AmunReState) -> Counter[int]:
        pool = Counter(st_.deck) + Counter(k for c in st_.face_down for k in c)
        for s in range(st_.n):
            if s != seat:
                pool += Counter({k: st_.hand[s][k] for k in range(NKINDS)})
        return pool

    assert unseen(world) == unseen(state)
    return world


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(40)
@given(seed=SEEDS, options=OPTIONS)
def test_resample(n: int, seed: int, options: dict[str, Any]) -> None:
    rng = Rng(seed ^ 0xD1CE)
    due = {rng.below(50), 50 + rng.below(100), 150 + rng.below(50)}
    worlds: list[AmunReState] = []

    def hook(step: int, st_: AmunReState, seat: int, action: Any) -> None:
        if step in due or (st_.phase in ("offering", "pick") and rng.below(6) == 0):
            for s in range(st_.n):
                worlds.append(check_resample(st_, s, rng))

    play(new_game(n, seed, options), Rng(seed ^ 0x5EED), hook)
    if worlds:  # a sampled world is a game that plays on to the end
        play(worlds[rng.below(len(worlds))], rng, oracles=False)


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@pytest.mark.parametrize("expert", [False, True])
def test_resample_hides_the_order_of_both_decks(n: int, expert: bool) -> None:
    """Resampling must not hand a search bot the true order of the hidden decks: over a few
    resamples, the power deck and (without expert provinces) the province deck change order."""
    for seed in range(6):
        state = new_game(n, seed, {"expert_provinces": expert})
        rng = Rng(seed)
        while state.phase in ("pick", "auction"):  # into the first market
            seat, action = choose(state, rng)
            state.apply(seat, action)
        worlds = [state.resample(0, Rng(1000 + i)) for i in range(8)]
        assert any(w.deck != state.deck for w in worlds), "resample keeps the power deck order"
        if len(set(state.province_deck)) >= 2:
            assert any(w.province_deck != state.province_deck for w in worlds), (
                f"resample keeps the hidden province deck order (seats={n}, seed={seed})"
            )


# ------------------------------------------------------------------ g. determinism


@pytest.mark.parametrize("n", PLAYER_COUNTS)
@deterministic(20)
@given(seed=SEEDS, options=OPTIONS)
def test_determinism(n: int, seed: int, options: dict[str, Any]) -> None:
    assert new_game(n, seed, options).to_json() == new_game(n, seed, options).to_json()
    first = play(new_game(n, seed, options), Rng(seed ^ 0x5EED))
    again = new_game(n, seed, options)
    for seat, action in first.history:
        again.apply(seat, action)
        check_invariants(again)
    assert again.to_json() == first.to_json()
    assert again.log_lines(everything=True) == first.log_lines(everything=True)
    assert again.scores() == first.scores() and again.winners() == first.winners()


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_different_seeds_deal_differently(n: int) -> None:
    seeds = range(40)
    openings = {tuple(new_game(n, seed, {}).on_auction) for seed in seeds}
    assert len(openings) >= 30, f"only {len(openings)} first province sets from 40 seeds"
    hands = {
        tuple(map(tuple, new_game(n, seed, {"expert_provinces": True}).prov_hand)) for seed in seeds
    }
    assert len(hands) == len(seeds)
    decks = {tuple(new_game(n, seed, {}).deck) for seed in seeds}
    assert len(decks) == len(seeds)


def test_board_figures_match_the_rulings() -> None:
    assert BOARD.total_cards == TOTAL_CARDS
    assert tuple(BOARD.bid_spaces) == BID_SPACES
    assert BOARD.stones == TOTAL_STONES
    assert dict(BOARD.farmers) == TOTAL_FARMERS
    assert NPROV == 15

"""Amun-Re's forced moves (``autopass.forced_move``): sound over many random games, read from
the public view alone, and played in the common cases (a harvest or a scoring, or a market
turn without gold, for a seat holding no power card)."""

from __future__ import annotations

from collections import Counter

from karnak.core import Rng
from karnak.core.registry import get_game, get_plugin
from karnak.games.amunre.autopass import forced_move
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.state import AmunReState
from support.amunre_hidden import redeal_hidden

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]


def new_state(players: int, seed: int, **options: object) -> AmunReState:
    game = get_game("amunre")
    state = game.new_state(NAMES[:players], seed=seed, options=game.resolve_options(options))
    assert isinstance(state, AmunReState)
    return state


def random_game(players: int, seed: int, **options: object) -> tuple[int, Counter[str]]:
    """Plays a random game that sells its cards often (so empty hands come up), checking
    every seat at every step: whatever forced_move answers is that seat's only legal move,
    and a spectator's view decides it. Returns (positions checked, forced moves by phase)."""
    state = new_state(players, seed, **options)
    rng = Rng(seed)
    checked = 0
    fired: Counter[str] = Counter()
    while not state.is_over():
        public = state.observation(None)
        for seat in range(players):
            move = forced_move(state.game, public, seat)
            checked += 1
            if move is not None:
                fired[state.phase] += 1
                assert state.legal_actions(seat) == [move], (seed, state.phase, seat)
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        sells = [a for a in legal if isinstance(a, A.Sell)]
        choice = sells[0] if sells and rng.below(2) == 0 else legal[rng.below(len(legal))]
        state.apply(seat, choice)
    return checked, fired


def test_the_plugin_names_the_rule() -> None:
    assert get_plugin("amunre").forced_move_rule() is forced_move


def test_sound_over_many_random_games_and_it_fires_in_the_common_cases() -> None:
    checked = 0
    fired: Counter[str] = Counter()
    for seed in range(40):
        players = 3 + seed % 3
        options = {"edition": "2016"} if seed % 2 else {}
        if seed % 4 == 3:
            options["offer_cards"] = True
        seen, forced = random_game(players, seed, **options)
        checked += seen
        fired += forced
    assert checked > 5_000
    # the harvest and the scoring are the common cases; a market turn with nothing at all
    # (no gold, no card) comes up too
    assert fired["harvest"] > 40 and fired["scoring"] > 2 and fired["market"] > 0, fired
    assert set(fired) <= {"harvest", "scoring", "market"}


def test_sound_with_expert_provinces() -> None:
    for seed in range(6):
        random_game(4, 100 + seed, expert_provinces=True)


def play_to(state: AmunReState, phase: str, rng: Rng) -> None:
    while state.phase != phase:
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])


def test_a_harvest_with_an_empty_hand_is_done_and_with_any_card_it_is_asked() -> None:
    for seed in range(12):
        state = new_state(4, seed)
        play_to(state, "harvest", Rng(seed))
        seat = state.current
        # empty the seat's hand into the discards (the deck's count is public; where the
        # cards lie does not matter to the harvest's moves)
        for kind, count in enumerate(state.hand[seat]):
            state.discard[kind] += count
            state.hand[seat][kind] = 0
        assert state.legal_actions(seat) == [A.DONE]
        assert forced_move(state.game, state.observation(None), seat) == A.DONE
        # the others are not to move: nothing is played for them
        for other in range(4):
            if other != seat:
                assert forced_move(state.game, state.observation(None), other) is None
        # one card of any kind, even one that cannot be played now: the seat decides
        state.hand[seat][0] += 1
        state.discard[0] -= 1
        assert len(state.legal_actions(seat)) > 1  # at least selling it
        assert forced_move(state.game, state.observation(None), seat) is None


def test_what_only_the_seat_knows_decides_nothing() -> None:
    """Re-dealing every hidden fact (the hands' kinds, the decks' order) never changes the
    answer: the rule reads the public view."""
    for seed in range(10):
        state = new_state(4, seed)
        rng = Rng(seed)
        for _ in range(60 + seed * 7):
            if state.is_over():
                break
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
        answers = [forced_move(state.game, state.observation(None), s) for s in range(4)]
        for again in range(3):
            other = redeal_hidden(state, None, Rng(seed * 31 + again))
            assert [
                forced_move(other.game, other.observation(None), s) for s in range(4)
            ] == answers

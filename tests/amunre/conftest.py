"""Scenario building for Amun-Re rules tests.

A scenario starts from a fresh engine state and rearranges it for one worked example of the
rule books. Every change keeps the game's conservation laws (gold, farmers, stones, power
cards), and the builder checks them after each step, so an example can never be "proved" on a
position that the real game could not reach in its bookkeeping.

Tests get the builder through the ``scenario`` fixture (a factory) and the checks through the
``invariants`` fixture; both are plain callables so the test modules need no imports from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import pytest

from karnak.games.amunre import GAME
from karnak.games.amunre.rules.board import CARD_KINDS
from karnak.games.amunre.rules.state import AmunReState

KIND = {kind: i for i, kind in enumerate(CARD_KINDS)}
STONES = 15
POWER_CARDS = 39


def check_invariants(state: AmunReState) -> None:
    """The conservation laws every reachable position satisfies."""
    board = state.board
    assert sum(state.gold) + state.bank + sum(state.free_gold) == 0, "gold is not conserved"
    placed = sum(state.field_farmers) + sum(state.free_farmers)
    assert state.farmer_supply + placed == board.farmers[state.edition], "farmers not conserved"
    assert state.stone_supply + sum(state.stones) == STONES, "stones are not conserved"
    cards = (
        len(state.deck)
        + sum(state.discard)
        + sum(sum(h) for h in state.hand)
        + sum(len(f) for f in state.face_down)
    )
    assert cards == POWER_CARDS, f"power cards are not conserved ({cards})"
    assert all(g >= 0 for g in state.gold), "negative gold"
    assert state.farmer_supply >= 0 and state.stone_supply >= 0
    assert all(0 <= s <= 2 for s in state.stones), "three stones must have become a pyramid"
    for p, prov in enumerate(board.provinces):
        assert 0 <= state.field_farmers[p] <= prov.fields, f"{prov.name}: too many farmers"
    assert all(c >= 0 for h in state.hand for c in h)
    assert all(c >= 0 for c in state.discard)
    for seat in range(state.n):
        owned = [p for p, o in enumerate(state.owner) if o == seat]
        assert list(state.owned(seat)) == owned, "owned() disagrees with owner"
    assert all(state.owner[p] < 0 for p in state.province_deck), "owned card in the deck"
    assert all(state.owner[p] < 0 for p in state.on_auction), "owned card on auction"
    assert len(set(state.province_deck) | set(state.used_this_kingdom)) == len(
        state.province_deck
    ) + len(state.used_this_kingdom), "a province card is both in the deck and used"


class Scenario:
    """A fresh game, emptied of its first round's province cards, ready to be arranged."""

    def __init__(
        self,
        players: Sequence[str],
        *,
        edition: str = "2003",
        seed: int = 1,
        start: int = 0,
    ) -> None:
        self.state = GAME.new_state(list(players), seed=seed, options={"edition": edition})
        self.seat = {name: i for i, name in enumerate(players)}
        self.clear_auction()
        self.state.start = start
        self.state.current = start
        self.check()

    # ------------------------------------------------------------------ basics
    def check(self) -> None:
        check_invariants(self.state)

    def p(self, name: str) -> int:
        return self.state.cat.index[name]

    def name(self, p: int) -> str:
        return self.state.board.provinces[p].name

    def clear_auction(self) -> None:
        """Put the province cards on the board back into the province deck, with their free
        material back in the supplies, so the test decides which provinces come out."""
        s = self.state
        for p in s.on_auction:
            s.deck[0:0] = s.face_down[p]  # under the deck: stacked cards stay on top
            s.face_down[p] = []
            s.stone_supply += s.stones[p]
            s.stones[p] = 0
            s.bank += s.free_gold[p]
            s.free_gold[p] = 0
            s.used_this_kingdom.remove(p)
            s.province_deck.append(p)
        s.on_auction = []
        s.bid_prov = [-1] * s.n
        s.bid_space = [-1] * s.n
        s.overbid = [False] * s.n
        s.blockade = [False] * s.n
        self.check()

    # ------------------------------------------------------------------ power cards
    def _take_card(self, kind: str) -> None:
        """Remove one card of ``kind`` from the deck (or, failing that, the discards)."""
        s = self.state
        k = KIND[kind]
        if k in s.deck:
            # remove the lowest copy, so cards already stacked on top stay where they are
            s.deck.pop(s.deck.index(k))
        elif s.discard[k]:
            s.discard[k] -= 1
        else:
            raise AssertionError(f"no {kind} card left in the deck or discards")

    def stack(self, *kinds: str) -> None:
        """Arrange the deck so the next cards drawn are ``kinds``, in this order."""
        for kind in kinds:
            self._take_card(kind)
        self.state.deck.extend(KIND[k] for k in reversed(kinds))
        self.check()

    def give(self, seat: int, *kinds: str) -> None:
        for kind in kinds:
            self._take_card(kind)
            self.state.hand[seat][KIND[kind]] += 1
        self.check()

    def set_hand(self, seat: int, kinds: Iterable[str]) -> None:
        """Exactly these cards in ``seat``'s hand; the old hand goes under the deck."""
        s = self.state
        for k, count in enumerate(s.hand[seat]):
            s.deck[0:0] = [k] * count
        s.hand[seat] = [0] * len(CARD_KINDS)
        self.give(seat, *kinds)

    def hand_of(self, seat: int) -> dict[str, int]:
        return {CARD_KINDS[k]: c for k, c in enumerate(self.state.hand[seat]) if c}

    # ------------------------------------------------------------------ gold and board
    def set_gold(self, seat: int, amount: int) -> None:
        s = self.state
        s.bank += s.gold[seat] - amount
        s.gold[seat] = amount
        self.check()

    def own(self, seat: int, *names: str) -> None:
        s = self.state
        for name in names:
            p = self.p(name)
            s.owner[p] = seat
            # an owned province has come out this kingdom: it is no longer in the deck
            if p in s.province_deck:
                s.province_deck.remove(p)
                s.used_this_kingdom.append(p)
        rebuild = getattr(self.state, "_rebuild_own", None)  # the engine may cache ownership
        if rebuild is not None:
            rebuild()
        self.check()

    def farmers(self, name: str, count: int) -> None:
        """Farmers on the fields of ``name``, taken from (or returned to) the supply."""
        s, p = self.state, self.p(name)
        s.farmer_supply += s.field_farmers[p] - count
        s.field_farmers[p] = count
        self.check()

    def free_farmers(self, name: str, count: int) -> None:
        s, p = self.state, self.p(name)
        s.farmer_supply += s.free_farmers[p] - count
        s.free_farmers[p] = count
        self.check()

    def stones(self, name: str, count: int) -> None:
        s, p = self.state, self.p(name)
        s.stone_supply += s.stones[p] - count
        s.stones[p] = count
        self.check()

    def pyramids(self, name: str, count: int) -> None:
        """Pyramid pieces are not limited (RULINGS 6): no supply to take them from."""
        self.state.pyramids[self.p(name)] = count
        self.check()

    # ------------------------------------------------------------------ phases
    def auction(self, *names: str) -> None:
        """Phase 1 and 2: these province cards come out (with their free material)."""
        s = self.state
        provinces = [self.p(n) for n in names]
        for p in provinces:
            s.province_deck.remove(p)
        s._bring_out(provinces)
        self.check()

    def market(self) -> None:
        self.state._start_market()
        self.check()

    def offering(self) -> None:
        self.state._start_offering()
        self.check()

    def harvest(self, temple: int) -> None:
        self.state.temple = temple
        self.state._start_harvest()
        self.check()

    def kingdom_used_up(self) -> None:
        """As at the end of a kingdom's third round: every province card of the kingdom has
        come out (owned provinces first), the deck holds only the cards never used."""
        s = self.state
        need = s.n * s.board.rounds_per_kingdom
        used = [p for p, o in enumerate(s.owner) if o >= 0]
        for p in range(len(s.board.provinces)):
            if len(used) >= need:
                break
            if p not in used:
                used.append(p)
        assert len(used) == need, "more provinces owned than a kingdom hands out"
        s.used_this_kingdom = used
        s.province_deck = [p for p in range(len(s.board.provinces)) if p not in used]

    def scoring(self, round_: int, temple: int) -> None:
        self.kingdom_used_up()
        self.state.round = round_
        self.state.temple = temple
        self.state._start_scoring()
        self.check()

    # ------------------------------------------------------------------ playing
    def done_all(self, phase: str) -> None:
        """Every seat still asked in ``phase`` answers ``done`` (collects, ends its scoring).

        A seat holding any card is asked at the harvest and the scoring, because asking only
        the holders of harvest or bonus cards would reveal who holds them.
        """
        while self.state.phase == phase and self.state.to_move():
            self.play(self.state.current, "done")

    def play(self, seat: int, action: Any) -> None:
        """A checked action (text or action object), then the invariants."""
        if isinstance(action, str):
            self.state.apply_text(seat, action)
        else:
            self.state.apply(seat, action)
        self.check()


@pytest.fixture
def scenario() -> Callable[..., Scenario]:
    return Scenario


@pytest.fixture
def invariants() -> Callable[[AmunReState], None]:
    return check_invariants

"""Test support: re-deal everything hidden from one seat, independently of ``resample``.

Shared by the property suite (non-interference) and the bot tests (a bot's choice must not
change when anything hidden from its seat changes).
"""

from __future__ import annotations

from karnak.core import Rng
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import CARD_KINDS
from karnak.games.amunre.rules.state import AmunReState

NKINDS = len(CARD_KINDS)


def redeal_hidden(state: AmunReState, seat: int | None, rng: Rng) -> AmunReState:
    """A copy in which everything ruling 12 hides from ``seat`` is re-dealt at random.

    Written independently of ``State.resample``: the power-card deck order, other hands (sizes
    kept), face-down cards, the province deck order, other seats' sealed offers (still
    committed) and, under expert_provinces, other seats' province hands and picks, and the rng.
    """
    world = state.clone()
    others = [s for s in range(state.n) if s != seat]
    pool = list(world.deck)
    for s in others:
        pool += [k for k in range(NKINDS) for _ in range(world.hand[s][k])]
    for cards in world.face_down:
        pool += cards
    rng.shuffle(pool)
    world.deck, pool = pool[: len(state.deck)], pool[len(state.deck) :]
    for s in others:
        size = sum(state.hand[s])
        world.hand[s] = [0] * NKINDS
        for k in pool[:size]:
            world.hand[s][k] += 1
        pool = pool[size:]
    for p, cards in enumerate(state.face_down):
        world.face_down[p], pool = pool[: len(cards)], pool[len(cards) :]
    assert not pool
    rng.shuffle(world.province_deck)
    if world.expert:
        first_kingdom = world.round <= 3
        if first_kingdom:  # undealt cards left the game unseen
            known = set(world.used_this_kingdom)
            if seat is not None:
                known |= set(world.prov_hand[seat])
            hidden = [p for p in range(len(world.board.provinces)) if p not in known]
        else:
            hidden = [p for s in others for p in world.prov_hand[s]]
        rng.shuffle(hidden)
        for s in others:
            size = len(state.prov_hand[s])
            world.prov_hand[s], hidden = sorted(hidden[:size]), hidden[size:]
            if world.picks[s] >= 0:
                world.picks[s] = rng.choice(world.prov_hand[s])
    if world.phase == "offering":
        for s in others:
            if world.offers[s] is not None:
                world.offers[s] = None
                offers = [a for a in world.legal_actions(s) if isinstance(a, A.Offer)]
                world.offers[s] = rng.choice(offers)
    world.rng = Rng(rng.next_u64())
    return world

"""Goofspiel's fixed-size tensors: what one seat sees, as float32 numbers in named slices.

``P`` seats, ``N`` prizes (and cards in a hand). Seats are absolute (index 0 is seat 0).

The observation: ``seat`` (P, one-hot), ``round`` (1, rounds played / N), ``prize`` (N,
one-hot: the prize on offer), ``to_come`` (N, 1 for each prize still face down),
``unclaimed`` (N), ``hands`` (P x N, 1 where the seat has not been seen to play the card),
``committed`` (P), ``own_bid`` (N, one-hot: the viewer's sealed bid), ``won`` (P x N),
``scores`` (P, points / the N prizes' total), ``over`` (1).

The information state adds what the seat saw and no longer sees: ``past_prizes`` (N x N,
each finished round's prize, one-hot) and ``past_bids`` (N x P x N, each finished round's
bids, one-hot). Nothing is read from the order of the deck or another seat's sealed bid.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from karnak.core.tensors import FloatVector, Part, TensorLayout

if TYPE_CHECKING:
    from karnak_goofspiel.rules.state import GoofspielState


def _observation_parts(players: int, prizes: int) -> list[Part]:
    return [
        Part("seat", (players,), "the viewer's seat, one-hot"),
        Part("round", (1,), "rounds begun / prizes"),
        Part("prize", (prizes,), "the prize on offer, one-hot"),
        Part("to_come", (prizes,), "1 for each prize still face down"),
        Part("unclaimed", (prizes,), "1 for each prize lost to a tie"),
        Part("hands", (players, prizes), "1 where the seat has not been seen to play the card"),
        Part("committed", (players,), "1 once the seat has bid this round"),
        Part("own_bid", (prizes,), "the viewer's sealed bid, one-hot"),
        Part("won", (players, prizes), "1 for each prize the seat has taken"),
        Part("scores", (players,), "points / the prizes' total"),
        Part("over", (1,), "1 once the game is over"),
    ]


@lru_cache(maxsize=32)
def observation_layout(players: int, prizes: int) -> TensorLayout:
    return TensorLayout(_observation_parts(players, prizes))


@lru_cache(maxsize=32)
def information_state_layout(players: int, prizes: int) -> TensorLayout:
    return TensorLayout(
        [
            *_observation_parts(players, prizes),
            Part("past_prizes", (prizes, prizes), "each finished round's prize, one-hot"),
            Part("past_bids", (prizes, players, prizes), "each finished round's bids, one-hot"),
        ]
    )


def _fill(state: GoofspielState, seat: int, layout: TensorLayout) -> FloatVector:
    vector = layout.zeros()
    prizes = state.prizes
    total = prizes * (prizes + 1) / 2
    layout.view(vector, "seat")[seat] = 1.0
    layout.view(vector, "round")[0] = state.round / prizes
    if state.prize is not None:
        layout.view(vector, "prize")[state.prize - 1] = 1.0
    for card in state.deck:
        layout.view(vector, "to_come")[card - 1] = 1.0
    for card in state.unclaimed:
        layout.view(vector, "unclaimed")[card - 1] = 1.0
    hands, won = layout.view(vector, "hands"), layout.view(vector, "won")
    for s in range(len(state.players)):
        for card in state.shown_hand(s):
            hands[s, card - 1] = 1.0
        for card in state.won[s]:
            won[s, card - 1] = 1.0
        layout.view(vector, "committed")[s] = float(state.bids[s] is not None)
        layout.view(vector, "scores")[s] = sum(state.won[s]) / total
    own = state.bids[seat]
    if own is not None:
        layout.view(vector, "own_bid")[own - 1] = 1.0
    layout.view(vector, "over")[0] = float(state.is_over())
    return vector


def observation_tensor(state: GoofspielState, seat: int) -> FloatVector:
    return _fill(state, seat, observation_layout(len(state.players), state.prizes))


def information_state_tensor(state: GoofspielState, seat: int) -> FloatVector:
    layout = information_state_layout(len(state.players), state.prizes)
    vector = _fill(state, seat, layout)
    past_prizes, past_bids = layout.view(vector, "past_prizes"), layout.view(vector, "past_bids")
    for index, (prize, bids) in enumerate(state.past):
        past_prizes[index, prize - 1] = 1.0
        for s, bid in enumerate(bids):
            past_bids[index, s, bid - 1] = 1.0
    return vector


def observation_string(state: GoofspielState, seat: int) -> str:
    to_come = " ".join(str(c) for c in sorted(state.deck)) or "none"
    if state.is_over():
        head = f"Goofspiel, over after {state.round} rounds"
    else:
        head = f"Goofspiel, round {state.round} of {state.prizes}: the prize is {state.prize}"
    lines = [f"{head}; to come {to_come} (order hidden)"]
    for s, name in enumerate(state.players):
        hand = " ".join(str(c) for c in state.shown_hand(s)) or "none"
        line = f"{name}: {sum(state.won[s])} points, cards {hand}"
        if not state.is_over():
            bid = state.bids[s]
            line += ", to bid" if bid is None else f", bids {bid}" if s == seat else ", has bid"
        lines.append(line)
    return "\n".join(lines)

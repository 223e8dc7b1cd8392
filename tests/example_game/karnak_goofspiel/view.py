"""What one seat of Goofspiel may see, and the declared shape of it.

Everything is public but the order of the prizes to come and the bids not yet revealed; a
seat sees its own sealed bid under ``you``. :class:`GoofspielObservation` is the shape every
client reads (its JSON schema is served at ``/api/games/goofspiel/observation-schema``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, NotRequired, TypedDict

if TYPE_CHECKING:
    from karnak_goofspiel.rules.state import GoofspielState


class SeatShown(TypedDict):
    """One seat, as everybody sees it."""

    seat: int
    name: str
    score: int
    #: The cards it has not been seen to play (its hand, with a sealed bid still in it).
    hand: list[int]
    #: The prizes it has taken, in the order taken.
    won: list[int]
    #: Whether it has bid this round (the bid itself stays hidden until all have).
    committed: bool


class RoundShown(TypedDict):
    """A finished round: its prize, every seat's bid and who took the prize (None: a tie)."""

    round: int
    prize: int
    bids: list[int]
    winner: int | None


class OwnBid(TypedDict):
    """The seat's own sealed bid this round (None until it bids)."""

    bid: int | None


class GoofspielObservation(TypedDict):
    game: Literal["goofspiel"]
    seat: int | None
    round: int
    rounds: int
    phase: Literal["bid", "over"]
    phase_name: str
    #: The prize on offer (None once the game is over).
    prize: int | None
    #: The prizes still face down, by value (their order is hidden).
    prizes_to_come: list[int]
    unclaimed: list[int]
    players: list[SeatShown]
    last_round: RoundShown | None
    to_move: list[int]
    over: bool
    decision: str
    #: Only for a seat, never for a spectator.
    you: NotRequired[OwnBid]


def observe(state: GoofspielState, seat: int | None) -> GoofspielObservation:
    over = state.is_over()
    names = state.players
    last: RoundShown | None = None
    if state.past:
        prize, bids = state.past[-1]
        best = max(bids)
        holders = [s for s, b in enumerate(bids) if b == best]
        last = {
            "round": len(state.past),
            "prize": prize,
            "bids": list(bids),
            "winner": holders[0] if len(holders) == 1 else None,
        }
    if over:
        scores = state.scores()
        best_score = max(scores)
        winners = [names[s] for s, points in enumerate(scores) if points == best_score]
        decision = f"The game is over: {' and '.join(winners)} with {best_score} points."
    else:
        waiting = ", ".join(names[s] for s in state.to_move())
        decision = f"The prize is {state.prize}: waiting for {waiting} to bid (sealed)."
    obs: GoofspielObservation = {
        "game": "goofspiel",
        "seat": seat,
        "round": state.round,
        "rounds": state.prizes,
        "phase": "over" if over else "bid",
        "phase_name": "game over" if over else "sealed bids",
        "prize": state.prize,
        "prizes_to_come": sorted(state.deck),
        "unclaimed": list(state.unclaimed),
        "players": [
            {
                "seat": s,
                "name": names[s],
                "score": sum(state.won[s]),
                "hand": state.shown_hand(s),
                "won": list(state.won[s]),
                "committed": state.bids[s] is not None,
            }
            for s in range(len(names))
        ],
        "last_round": last,
        "to_move": list(state.to_move()),
        "over": over,
        "decision": decision,
    }
    if seat is not None:
        obs["you"] = {"bid": state.bids[seat]}
    return obs

"""What one seat of Aton may see: everything public, its own hand and sealed cartouches.

:class:`AtonObservation` declares the shape :func:`observe` returns. Every client reads
that shape and nothing else: the terminal, the web board and guide, and the page script
(whose reads are checked against the shape's JSON schema). Public to every seat and to a
spectator: the temples, the Kingdom of the Dead, scores, stocks, pile and hand sizes,
whether each exchange counter is used, the discards that were shown, who has laid, the
cartouches once revealed, and the result once the game is over. A seat's own hand and
sealed cartouches are in ``you``, for that seat only. Never shown: the order of the piles,
the cards given up face down in an exchange, the other priest's hand and, before the
reveal, its cartouches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

from karnak.games.aton.rules.board import CARD_VALUES, Board
from karnak.games.aton.rules.game import Aton

if TYPE_CHECKING:
    from karnak.core.game import Game
    from karnak.games.aton.rules.state import AtonState

#: The decision under way (``AtonState.phase``).
Phase = Literal["allocate", "remove", "place", "cleanup", "over"]


class ScoringLine(TypedDict):
    """One rule of a scoring of the temples and the points it gives each seat."""

    #: ``temple 1`` to ``temple 4``, ``black squares``, ``bonus squares``.
    rule: str
    #: Each seat's counters the rule compares (None for the bonus squares, which compare
    #: nothing: each counter on one scores its points).
    counters: list[int] | None
    points: list[int]


class PlayerView(TypedDict):
    """One priest, as everyone sees it."""

    seat: int
    name: str
    score: int
    #: Counters off the board, ready to be placed.
    stock: int
    exchange_used: bool
    #: Cards left in the priest's pile (their order is hidden from both priests).
    pile: int
    #: The discards that were shown (revealed cartouches), by value ("1" to "4"; values
    #: with none are left out).
    discards: dict[str, int]
    #: How many discards were given up face down in the exchange (never shown).
    discards_face_down: int
    #: Cards in the priest's hand (which ones only the priest sees, in ``you``).
    hand: int
    #: Whether the priest has laid this round's cards on the cartouches.
    committed: bool
    #: The four cards on cartouches 1 to 4 once both rows are revealed; None before.
    cartouches: list[int] | None


class YouView(TypedDict):
    """What only the observing seat sees of its own."""

    #: The hand, sorted.
    hand: list[int]
    #: The seat's own cartouches once laid (sealed from the other until the reveal).
    cartouches: list[int] | None


class AtonObservation(TypedDict):
    """All that one seat (or a spectator, ``seat`` None) may see of an Aton game."""

    game: Literal["aton"]
    seat: int | None
    round: int
    phase: Phase
    #: The phase in words ("laying out cards" ...).
    phase_name: str
    #: The seats to decide now (both while laying out, in any order they like).
    to_move: list[int]
    players: list[PlayerView]
    #: Each temple's squares in board order: the seat whose counter is there, -1 empty.
    temples: list[list[int]]
    #: The owner of each counter in the Kingdom of the Dead, in the order they came.
    kingdom: list[int]
    kingdom_squares: int
    #: Who plays first and second this round, once the cartouches are revealed.
    order: list[int] | None
    #: While removing or placing: temples 1 to ``reach`` are in reach...
    reach: int | None
    #: ... and this many counters are still to be removed or placed.
    pending: int | None
    #: The lines of the last scoring of the temples (empty before the first).
    last_scoring: list[ScoringLine]
    #: The seat that won at once, and why (None otherwise).
    winner: int | None
    win_reason: str | None
    over: bool
    #: Once the game is over: the seats sharing first place, and each seat's rank (1 is
    #: best, tied seats share one; an instant win beats any score). Empty before.
    winners: list[int]
    ranks: list[int]
    #: Who must decide what now, in a sentence.
    decision: str
    #: The observing seat's own cards (absent for a spectator).
    you: NotRequired[YouView]


def as_observation(view: Mapping[str, Any]) -> AtonObservation:
    """A view handed to a client, read as Aton's observation (checked to be one)."""
    if view.get("game") != "aton":
        raise TypeError(f"not an Aton observation: game {view.get('game')!r}")
    return cast(AtonObservation, view)


def _by_value(cards: list[int]) -> dict[str, int]:
    return {str(v): cards.count(v) for v in CARD_VALUES if v in cards}


def shown_discards(state: AtonState, seat: int) -> list[int]:
    shown = list(state.discards[seat])
    for card in state.face_down[seat]:
        shown.remove(card)
    return shown


def revealed(cards: list[int] | None) -> list[int] | None:
    return None if cards is None else list(cards)


def observe(state: AtonState, seat: int | None) -> AtonObservation:
    from karnak.games.aton.rules.state import PHASE_NAMES

    players: list[PlayerView] = []
    for s in range(2):
        players.append(
            {
                "seat": s,
                "name": state.players[s],
                "score": state.score[s],
                "stock": state.stock[s],
                "exchange_used": state.exchanged[s],
                "pile": len(state.piles[s]),
                # the discards that were shown (revealed cartouches), and how many were
                # given up face down in the exchange
                "discards": _by_value(shown_discards(state, s)),
                "discards_face_down": len(state.face_down[s]),
                "hand": len(state.hands[s]),
                "committed": state.alloc[s] is not None,
                # the cartouches are public once revealed
                "cartouches": revealed(state.alloc[s]) if state.revealed else None,
            }
        )
    over = state.is_over()
    obs: AtonObservation = {
        "game": "aton",
        "seat": seat,
        "round": state.round,
        "phase": cast(Phase, state.phase),
        "phase_name": PHASE_NAMES[state.phase],
        "to_move": list(state.to_move()),
        "players": players,
        "temples": [list(t) for t in state.temples],
        "kingdom": list(state.kingdom),
        "kingdom_squares": state.board.kingdom_squares,
        "order": list(state.order) if state.revealed else None,
        "reach": state.reach if state.phase in ("remove", "place") else None,
        "pending": state.pending if state.phase in ("remove", "place") else None,
        "last_scoring": state.last_scoring,
        "winner": state.winner,
        "win_reason": state.win_reason,
        "over": over,
        "winners": state.winners() if over else [],
        "ranks": state.ranks() if over else [],
        "decision": decision_text(state),
    }
    if seat is not None:
        own = state.alloc[seat]
        obs["you"] = {
            "hand": sorted(state.hands[seat]),
            "cartouches": None if own is None else list(own),
        }
    return obs


def decision_text(state: AtonState) -> str:
    names = state.players
    phase = state.phase
    if phase == "over":
        if state.winner is not None:
            return f"{names[state.winner]} has won: {state.win_reason}."
        if state.score[0] == state.score[1]:
            return "The game is over: a draw."
        return f"The game is over: {names[0 if state.score[0] > state.score[1] else 1]} has won."
    if phase == "allocate":
        waiting = ", ".join(names[s] for s in state.to_move())
        return f"Waiting for {waiting} to lay out cards on the cartouches (sealed)."
    who = names[state.to_move()[0]]
    if phase == "remove":
        return f"{who} removes {state.pending} more counter(s) from temples 1 to {state.reach}."
    if phase == "place":
        return f"{who} places {state.pending} more counter(s) in temples 1 to {state.reach}."
    seat, temple = state.cleanup[0]
    source = state.cleanup_temple(seat, temple)
    return f"{who} chooses which counter to take back from temple {source + 1} after the scoring."


def board_of(game: Game) -> Board:
    """The printed board of an Aton game (public: the same for every seat)."""
    if not isinstance(game, Aton):
        raise TypeError(f"not an Aton game: {game.name!r}")
    return game.board

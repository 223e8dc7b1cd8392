"""What one seat of Aton may see: everything public, its own hand and sealed cartouches."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from karnak.games.aton.rules.board import CARD_VALUES

if TYPE_CHECKING:
    from karnak.games.aton.rules.state import AtonState


def _by_value(cards: list[int]) -> dict[str, int]:
    return {str(v): cards.count(v) for v in CARD_VALUES if v in cards}


def shown_discards(state: AtonState, seat: int) -> list[int]:
    shown = list(state.discards[seat])
    for card in state.face_down[seat]:
        shown.remove(card)
    return shown


def revealed(cards: list[int] | None) -> list[int] | None:
    return None if cards is None else list(cards)


def observe(state: AtonState, seat: int | None) -> dict[str, Any]:
    from karnak.games.aton.rules.state import PHASE_NAMES

    players = []
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
    obs: dict[str, Any] = {
        "game": "aton",
        "seat": seat,
        "round": state.round,
        "phase": state.phase,
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
        "over": state.is_over(),
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

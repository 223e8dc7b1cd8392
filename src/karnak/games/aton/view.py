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

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict, cast

from karnak.games.aton.i18n import N_, _, ngettext, t
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


#: The phases in words (the engine's ``PHASE_NAMES``, marked for translation here).
PHASE_WORDS = {
    "allocate": N_("laying out cards"),
    "remove": N_("removing counters"),
    "place": N_("placing counters"),
    "cleanup": N_("taking counters back after the scoring"),
    "over": N_("game over"),
}
#: The reasons of a win at once that the engine gives, in words of the reader's language.
_REASONS = {
    "every yellow square": N_("every yellow square"),
    "every green square": N_("every green square"),
}
_POINTS = re.compile(r"^(\d+) points$")
_WHOLE_TEMPLE = re.compile(r"^every square of temple (\d+)$")


def reason_text(reason: str | None) -> str | None:
    """The engine's reason for a win at once ("every square of temple 2") in the reader's
    language (an unknown reason stays as the engine wrote it)."""
    if reason is None:
        return None
    points = _POINTS.match(reason)
    if points:
        n = int(points.group(1))
        return ngettext("{n} point", "{n} points", n).format(n=n)
    whole = _WHOLE_TEMPLE.match(reason)
    if whole:
        return t("every square of temple {n}", n=int(whole.group(1)))
    return _(_REASONS[reason]) if reason in _REASONS else reason


def observe(state: AtonState, seat: int | None) -> AtonObservation:
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
        "phase_name": _(PHASE_WORDS[state.phase]),
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
        "win_reason": reason_text(state.win_reason),
        "over": over,
        "winners": state.winners() if over else [],
        "ranks": state.ranks() if over else [],
        "decision": decision_text(state, seat),
    }
    if seat is not None:
        own = state.alloc[seat]
        obs["you"] = {
            "hand": sorted(state.hands[seat]),
            "cartouches": None if own is None else list(own),
        }
    return obs


def temples_in_reach(reach: int) -> str:
    """Temples 1 to ``reach`` as a noun phrase ("temple 1", "temples 1 to 3")."""
    return _("temple 1") if reach == 1 else t("temples 1 to {reach}", reach=reach)


def decision_text(state: AtonState, seat: int | None = None) -> str:
    """Who must decide what now, in a sentence that is true for the reader: ``seat`` (None:
    a spectator) is told what it is to do itself, and what it waits for."""
    names = state.players
    phase = state.phase
    if phase == "over":
        if state.winner is not None:
            return t(
                "{who} has won: {reason}.",
                who=names[state.winner],
                reason=reason_text(state.win_reason),
            )
        if state.score[0] == state.score[1]:
            return _("The game is over: a draw.")
        winner = names[0 if state.score[0] > state.score[1] else 1]
        return t("The game is over: {who} has won.", who=winner)
    movers = state.to_move()
    if phase == "allocate":
        if seat in (0, 1):
            other = names[1 - seat]
            if seat in movers:
                if 1 - seat in movers:
                    return t(
                        "Lay out your four cards on the cartouches (sealed); {other} is "
                        "choosing too.",
                        other=other,
                    )
                return t(
                    "Lay out your four cards on the cartouches (sealed); {other} has laid theirs.",
                    other=other,
                )
            return t(
                "Your cards are laid face down; waiting for {other} to lay out theirs.",
                other=other,
            )
        if len(movers) == 2:
            return t(
                "Waiting for {a} and {b} to lay out their cards on the cartouches (sealed).",
                a=names[0],
                b=names[1],
            )
        return t(
            "Waiting for {who} to lay out cards on the cartouches (sealed).",
            who=names[movers[0]],
        )
    mover = movers[0]
    who = names[mover]
    reach = temples_in_reach(state.reach)
    n = state.pending
    if phase == "remove":
        if seat == mover:
            return ngettext(
                "Remove {n} more counter from {temples}.",
                "Remove {n} more counters from {temples}.",
                n,
            ).format(n=n, temples=reach)
        return ngettext(
            "{who} removes {n} more counter from {temples}.",
            "{who} removes {n} more counters from {temples}.",
            n,
        ).format(who=who, n=n, temples=reach)
    if phase == "place":
        if seat == mover:
            return ngettext(
                "Place {n} more counter in {temples}.",
                "Place {n} more counters in {temples}.",
                n,
            ).format(n=n, temples=reach)
        return ngettext(
            "{who} places {n} more counter in {temples}.",
            "{who} places {n} more counters in {temples}.",
            n,
        ).format(who=who, n=n, temples=reach)
    owner, temple = state.cleanup[0]
    source = state.cleanup_temple(owner, temple) + 1
    if seat == mover:
        return t(
            "Choose which of your counters to take back from temple {t} after the scoring.",
            t=source,
        )
    return t(
        "{who} chooses which counter to take back from temple {t} after the scoring.",
        who=who,
        t=source,
    )


def board_of(game: Game) -> Board:
    """The printed board of an Aton game (public: the same for every seat)."""
    if not isinstance(game, Aton):
        raise TypeError(f"not an Aton game: {game.name!r}")
    return game.board

"""Aton's fixed-size tensors: what one priest sees, as float32 numbers in named slices.

Seats are relative to the viewer: in every part with a seat axis, index 0 is the viewer and
index 1 the opponent, so a policy learned as Red plays as Blue too (``seat`` says which
colour the viewer is: Red wins the ties the rules break by colour). ``S`` is the number of
squares a temple (12 on the printed board); the layout depends on it only. Scales are the
board's figures (printed board: 29 counters, 9 cards of each value, a hand of 4, 8 squares in
the Kingdom of the Dead, 40 points to win), so every number lies in [0, 1] except
``score`` (in [0, 3]).

The observation (``observation_layout``), in order:

| part | shape | meaning |
|---|---|---|
| `seat` | 2 | the viewer's colour, one-hot: Red, Blue |
| `phase` | 5 | one-hot: allocate, remove, place, cleanup, over |
| `to_move` | 2 | 1 where that seat is to move (both at the sealed lay-out) |
| `round` | 1 | min(round, 32) / 32 |
| `score` | 2 | points / win_points (40), at most 3 |
| `stock` | 2 | counters in stock / counters (29) |
| `pile` | 2 | cards in the draw pile / (4 x cards_per_value) (36) |
| `hand` | 2 | cards in hand / hand_size (4) |
| `exchange_used` | 2 | 1 once the seat has used its exchange counter |
| `committed` | 2 | 1 once the seat has laid out its cards this round |
| `discards_shown` | 2 x 4 | the seat's discards that were shown, by value 1-4 / cards_per_value |
| `discards_face_down` | 2 | the seat's exchanged cards (face down) in its discards / hand_size |
| `cartouches` | 2 x 4 x 4 | each cartouche's card, one-hot by value: own once laid out, |
|  |  | the opponent's once revealed |
| `own_hand` | 4 | the viewer's hand by value 1-4 / hand_size |
| `revealed` | 1 | 1 after both lay-outs are revealed |
| `first` | 2 | one-hot: the seat that goes first this round (after the reveal) |
| `reach` | 4 | 1 for each temple in reach (removing or placing) |
| `pending` | 1 | counters still to remove or place / 4 |
| `cleanup_temple` | 4 | one-hot: the temple the counter to take back comes from (cleanup) |
| `kingdom` | 2 | the seat's counters in the Kingdom of the Dead / kingdom_squares (8) |
| `last_scoring` | 6 x 2 | the last scoring's points / win_points (at most 1) by rule |
|  |  | (temples 1-4, black squares, bonus squares) and seat |
| `winner` | 2 | one-hot: the seat that won at once (an instant win) |
| `temples` | 2 x 4 x S | 1 where the seat has a counter: [seat, temple, square] |
| `board` | 5 x 4 x S | each square's colour, one-hot yellow, green, black, blue; the |
|  |  | fifth: bonus points / the board's highest bonus (constant) |

The information state (``information_state_layout``) is the observation followed by what the
viewer witnessed and no longer sees, or knows only by adding up what it saw:

| part | shape | meaning |
|---|---|---|
| `own_face_down` | 4 | own exchanged cards still in the discards, by value / hand_size |
| `own_pile` | 4 | own draw pile by value / cards_per_value (make-up, not order) |
| `opponent_unseen` | 4 | the opponent's cards not seen (pile, hand, exchanged, sealed |
|  |  | cartouches) by value / cards_per_value |

Everything is read from the state's fields that :func:`karnak.games.aton.view.observe`
shows the viewer (the own face-down cards and pile make-up come from the viewer's own cards),
never from the opponent's hand, pile order, exchanged cards or sealed cartouches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, cast

from karnak.core.tensors import FloatVector, Part, TensorLayout
from karnak.games.aton.rules.board import CARD_VALUES, TEMPLES, Board, default_board

if TYPE_CHECKING:
    from karnak.games.aton.rules.state import AtonState

PHASES: Final = ("allocate", "remove", "place", "cleanup", "over")
COLOURS: Final = ("yellow", "green", "black", "blue", "bonus")
SCORING_RULES: Final = 6  # temples 1-4, black squares, bonus squares (AtonState.scoring_lines)
ROUND_SCALE: Final = 32
SCORE_CAP: Final = 3.0
VALUES: Final = len(CARD_VALUES)


def _check(players: int, options: Mapping[str, Any] | None) -> None:
    if players != 2:
        raise ValueError(f"Aton is played by 2 priests, not {players}")
    if options:
        raise ValueError(f"Aton has no options: {sorted(options)}")


@lru_cache(maxsize=16)
def _observation_parts(squares: int) -> tuple[Part, ...]:
    return (
        Part("seat", (2,), "the viewer's colour, one-hot: Red, Blue"),
        Part("phase", (len(PHASES),), "one-hot: allocate, remove, place, cleanup, over"),
        Part("to_move", (2,), "1 where that seat (viewer first) is to move"),
        Part("round", (1,), f"min(round, {ROUND_SCALE}) / {ROUND_SCALE}"),
        Part("score", (2,), "points / win_points", 0.0, SCORE_CAP),
        Part("stock", (2,), "counters in stock / counters"),
        Part("pile", (2,), "cards in the draw pile / (4 x cards_per_value)"),
        Part("hand", (2,), "cards in hand / hand_size"),
        Part("exchange_used", (2,), "1 once the seat has used its exchange counter"),
        Part("committed", (2,), "1 once the seat has laid out its cards this round"),
        Part("discards_shown", (2, VALUES), "shown discards by value 1-4 / cards_per_value"),
        Part("discards_face_down", (2,), "exchanged (face-down) discards / hand_size"),
        Part(
            "cartouches",
            (2, 4, VALUES),
            "card on each cartouche, one-hot by value: own once laid out, "
            "the opponent's once revealed",
        ),
        Part("own_hand", (VALUES,), "the viewer's hand by value 1-4 / hand_size"),
        Part("revealed", (1,), "1 after both lay-outs are revealed"),
        Part("first", (2,), "one-hot: the seat that goes first this round (after the reveal)"),
        Part("reach", (TEMPLES,), "1 for each temple in reach (removing or placing)"),
        Part("pending", (1,), "counters still to remove or place / 4"),
        Part("cleanup_temple", (TEMPLES,), "one-hot: the temple a counter is taken back from"),
        Part("kingdom", (2,), "the seat's counters in the Kingdom of the Dead / kingdom_squares"),
        Part(
            "last_scoring",
            (SCORING_RULES, 2),
            "points of the last scoring by rule and seat / win_points (at most 1)",
        ),
        Part("winner", (2,), "one-hot: the seat that won at once"),
        Part("temples", (2, TEMPLES, squares), "1 where the seat has a counter"),
        Part(
            "board",
            (len(COLOURS), TEMPLES, squares),
            "square colours one-hot (yellow, green, black, blue); bonus points / highest bonus",
        ),
    )


INFORMATION_PARTS: Final = (
    Part("own_face_down", (VALUES,), "own exchanged cards in the discards by value / hand_size"),
    Part("own_pile", (VALUES,), "own draw pile by value / cards_per_value"),
    Part(
        "opponent_unseen",
        (VALUES,),
        "the opponent's cards not seen (pile, hand, exchanged, sealed) by value / cards_per_value",
    ),
)


@lru_cache(maxsize=16)
def _layouts(squares: int) -> tuple[TensorLayout, TensorLayout]:
    parts = _observation_parts(squares)
    return TensorLayout(parts), TensorLayout(parts + INFORMATION_PARTS)


def observation_layout(
    players: int = 2, options: Mapping[str, Any] | None = None, board: Board | None = None
) -> TensorLayout:
    """The observation's named slices on ``board`` (default: the printed board)."""
    _check(players, options)
    return _layouts(len((board or default_board()).temples[0]))[0]


def information_state_layout(
    players: int = 2, options: Mapping[str, Any] | None = None, board: Board | None = None
) -> TensorLayout:
    """The observation's slices followed by the witnessed summary."""
    _check(players, options)
    return _layouts(len((board or default_board()).temples[0]))[1]


#: Where each part before ``temples`` starts: the same for every board (no part there has a
#: temple's length in its shape), so the filling code uses these numbers directly.
_AT: Final = {
    p.part.name: p.start for p in _layouts(1)[0] if p.start < _layouts(1)[0].place("temples").start
}
HEAD: Final = _layouts(1)[0].place("temples").start
# One Final name a line: compiled code reads each from a C static, where a name bound by
# tuple unpacking is looked up in the module's dict at every use.
SEAT: Final[int] = _AT["seat"]
PHASE: Final[int] = _AT["phase"]
TO_MOVE: Final[int] = _AT["to_move"]
ROUND: Final[int] = _AT["round"]
SCORE: Final[int] = _AT["score"]
STOCK: Final[int] = _AT["stock"]
PILE: Final[int] = _AT["pile"]
HAND: Final[int] = _AT["hand"]
EXCHANGE_USED: Final[int] = _AT["exchange_used"]
COMMITTED: Final[int] = _AT["committed"]
DISCARDS_SHOWN: Final[int] = _AT["discards_shown"]
DISCARDS_FACE_DOWN: Final[int] = _AT["discards_face_down"]
CARTOUCHES: Final[int] = _AT["cartouches"]
OWN_HAND: Final[int] = _AT["own_hand"]
REVEALED: Final[int] = _AT["revealed"]
FIRST: Final[int] = _AT["first"]
REACH: Final[int] = _AT["reach"]
PENDING: Final[int] = _AT["pending"]
CLEANUP_TEMPLE: Final[int] = _AT["cleanup_temple"]
KINGDOM: Final[int] = _AT["kingdom"]
LAST_SCORING: Final[int] = _AT["last_scoring"]
WINNER: Final[int] = _AT["winner"]
PHASE_INDEX: Final = {name: i for i, name in enumerate(PHASES)}


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a board fixes: its scales, where the grids start, and templates of both vectors
    holding the constant board colours. A tensor is a copy of its template, filled item by
    item through a ``memoryview``: the cheapest item write CPython offers from Python or
    compiled code (no argument parsing, unlike ``array``; no index object, unlike numpy)."""

    board: Board
    observation: TensorLayout
    information: TensorLayout
    observation_template: FloatVector
    information_template: FloatVector
    squares: int
    temples: int  # where the part ``temples`` starts
    summary: int  # where the information state's own parts start
    # The board's scales as floats (n / float(k) == n / k for these small integers)
    cards: float  # cards_per_value
    hand_size: float
    win: float  # win_points
    counters: float
    kingdom_squares: float


_PLANS: Final[dict[int, _Plan]] = {}
#: The plan found last: a call on the same board (the usual case) skips the lookup.
_LAST: Final[list[_Plan]] = []


def _plan(board: Board) -> _Plan:
    if _LAST:
        plan = _LAST[0]
        if plan.board is board:
            return plan
    found = _PLANS.get(id(board))
    if found is not None and found.board is board:
        _LAST[:] = [found]
        return found
    squares = len(board.temples[0])
    observation, information = _layouts(squares)
    template = information.zeros()
    colours = information.view(template, "board")
    top = max((sq.bonus for temple in board.temples for sq in temple), default=0) or 1
    for t, temple in enumerate(board.temples):
        for s, square in enumerate(temple):
            channel = COLOURS.index(square.colour)
            colours[channel, t, s] = square.bonus / top if square.colour == "bonus" else 1.0
    plan = _Plan(
        board,
        observation,
        information,
        template[: observation.size].copy(),
        template,
        squares,
        observation.place("temples").start,
        observation.size,
        float(board.cards_per_value),
        float(board.hand_size),
        float(board.win_points),
        float(board.counters),
        float(board.kingdom_squares),
    )
    if len(_PLANS) > 64:
        _PLANS.clear()
    _PLANS[id(board)] = plan
    _LAST[:] = [plan]
    return plan


def _cells(vector: FloatVector) -> memoryview[float]:
    """``vector``'s items as a writable view (format ``f``, one dimension)."""
    return cast("memoryview[float]", vector.data)


def _by_value(cards: list[int]) -> tuple[int, int, int, int]:
    """How many cards of each value 1-4: one pass with native comparisons, where four
    ``list.count`` calls would compare every card four times through the object protocol."""
    ones = twos = threes = fours = 0
    for card in cards:
        if card == 1:
            ones += 1
        elif card == 2:
            twos += 1
        elif card == 3:
            threes += 1
        else:
            fours += 1
    return ones, twos, threes, fours


def _fill(
    state: AtonState, seat: int, plan: _Plan, head: memoryview[float]
) -> tuple[int, int, int, int]:
    """Write the observation part of ``head``, a copy of a template (zeros but the board).
    Returns the opponent's shown discards by value (the information state needs them too).
    An item that would be 0.0 is not written: the template holds 0.0 there already."""
    phase = state.phase
    other = 1 - seat
    cards, hand_size, win = plan.cards, plan.hand_size, plan.win
    head[SEAT + seat] = 1.0
    head[PHASE + PHASE_INDEX[phase]] = 1.0
    alloc = state.alloc
    if phase == "allocate":  # to_move(), without building the tuple
        if alloc[seat] is None:
            head[TO_MOVE] = 1.0
        if alloc[other] is None:
            head[TO_MOVE + 1] = 1.0
    elif phase == "remove" or phase == "place":  # the rest of to_move(), inlined
        head[TO_MOVE + (state.order[state.turn] != seat)] = 1.0
    elif phase == "cleanup":
        head[TO_MOVE + (state.cleanup[0][0] != seat)] = 1.0
    played = state.round
    head[ROUND] = (played if played < ROUND_SCALE else ROUND_SCALE) / ROUND_SCALE
    revealed = state.revealed
    kingdom = state.kingdom
    scores, stock, piles, hands = state.score, state.stock, state.piles, state.hands
    exchanged, discards_of, face_down_of = state.exchanged, state.discards, state.face_down
    counters = plan.counters
    shown = (0, 0, 0, 0)
    for rel in range(2):  # range: a native loop, where a tuple is iterated generically
        s = seat if rel == 0 else other
        score = scores[s] / win
        if score:
            head[SCORE + rel] = score if score < SCORE_CAP else SCORE_CAP
        if stock[s]:
            head[STOCK + rel] = stock[s] / counters
        pile = piles[s]
        if pile:
            head[PILE + rel] = len(pile) / (VALUES * cards)
        hand = hands[s]
        if hand:
            head[HAND + rel] = len(hand) / hand_size
        if exchanged[s]:
            head[EXCHANGE_USED + rel] = 1.0
        laid = alloc[s]
        if laid is not None:
            head[COMMITTED + rel] = 1.0
            if revealed or s == seat:
                base = CARTOUCHES + rel * 4 * VALUES - 1
                head[base + laid[0]] = 1.0
                head[base + VALUES + laid[1]] = 1.0
                head[base + 2 * VALUES + laid[2]] = 1.0
                head[base + 3 * VALUES + laid[3]] = 1.0
        discards = discards_of[s]
        if discards:
            ones, twos, threes, fours = _by_value(discards)
            face_down = face_down_of[s]
            if face_down:
                ones_down, twos_down, threes_down, fours_down = _by_value(face_down)
                ones -= ones_down
                twos -= twos_down
                threes -= threes_down
                fours -= fours_down
                head[DISCARDS_FACE_DOWN + rel] = len(face_down) / hand_size
            _write_counts(head, DISCARDS_SHOWN + rel * VALUES, ones, twos, threes, fours, cards)
            if rel == 1:
                shown = (ones, twos, threes, fours)
        if kingdom:
            held = kingdom.count(s)
            if held:
                head[KINGDOM + rel] = held / plan.kingdom_squares
    hand = hands[seat]
    if hand:
        ones, twos, threes, fours = _by_value(hand)
        _write_counts(head, OWN_HAND, ones, twos, threes, fours, hand_size)
    if revealed:
        head[REVEALED] = 1.0
        head[FIRST + (state.order[0] != seat)] = 1.0
    if phase == "remove" or phase == "place":
        for temple in range(state.reach):
            head[REACH + temple] = 1.0
        head[PENDING] = state.pending / 4
    elif phase == "cleanup":
        mover, temple = state.cleanup[0]
        source = state.cleanup_temple(mover, temple)
        if source >= 0:
            head[CLEANUP_TEMPLE + source] = 1.0
    at = LAST_SCORING
    for line in state.last_scoring:
        points: list[int] = line["points"]  # typed, so the arithmetic below is native
        own_points, their_points = points[seat], points[other]
        if own_points:
            own = own_points / win
            head[at] = own if own < 1.0 else 1.0
        if their_points:
            theirs = their_points / win
            head[at + 1] = theirs if theirs < 1.0 else 1.0
        at += 2
    if state.winner is not None:
        head[WINNER + (state.winner != seat)] = 1.0
    # The viewer's channel of ``temples``; the opponent's is a whole channel further.
    square = plan.temples
    opponent = TEMPLES * plan.squares
    for row in state.temples:
        for occupant in row:
            if occupant >= 0:
                head[square if occupant == seat else square + opponent] = 1.0
            square += 1
    return shown


def observation_tensor(state: AtonState, seat: int) -> FloatVector:
    """What ``seat`` sees now, laid out by :func:`observation_layout`."""
    plan = _plan(state.board)
    vector = plan.observation_template.copy()
    _fill(state, seat, plan, _cells(vector))
    return vector


def information_state_tensor(state: AtonState, seat: int) -> FloatVector:
    """The observation followed by the witnessed summary (:func:`information_state_layout`)."""
    plan = _plan(state.board)
    vector = plan.information_template.copy()
    cells = _cells(vector)
    # The opponent's cards not seen: all of a value but its shown discards (all discards
    # less the face-down ones, which _fill counts) and, once revealed, its cartouches.
    ones, twos, threes, fours = _fill(state, seat, plan, cells)
    cards, hand_size = plan.cards, plan.hand_size
    at = plan.summary
    face_down = state.face_down[seat]
    if face_down:
        own_ones, own_twos, own_threes, own_fours = _by_value(face_down)
        _write_counts(cells, at, own_ones, own_twos, own_threes, own_fours, hand_size)
    at += VALUES
    pile = state.piles[seat]
    if pile:
        own_ones, own_twos, own_threes, own_fours = _by_value(pile)
        _write_counts(cells, at, own_ones, own_twos, own_threes, own_fours, cards)
    laid = state.alloc[1 - seat]
    if state.revealed and laid is not None:
        ones_laid, twos_laid, threes_laid, fours_laid = _by_value(laid)
        ones += ones_laid
        twos += twos_laid
        threes += threes_laid
        fours += fours_laid
    every = plan.board.cards_per_value
    at += VALUES
    _write_counts(cells, at, every - ones, every - twos, every - threes, every - fours, cards)
    return vector


def _write_counts(
    cells: memoryview[float], at: int, ones: int, twos: int, threes: int, fours: int, scale: float
) -> None:
    """Counts by value 1-4 into the four cells from ``at``, each over ``scale``; a zero is
    left to the template. Four arguments, not a tuple, so compiled code passes them unboxed."""
    if ones:
        cells[at] = ones / scale
    if twos:
        cells[at + 1] = twos / scale
    if threes:
        cells[at + 2] = threes / scale
    if fours:
        cells[at + 3] = fours / scale


def _cards(cards: list[int] | None) -> str:
    return "-" if not cards else " ".join(map(str, cards))


def observation_string(state: AtonState, seat: int) -> str:
    """What ``seat`` sees, in a few lines (``o`` its counters, ``x`` the opponent's)."""
    names = state.players
    other = 1 - seat
    movers = ", ".join(names[s] for s in state.to_move()) or "nobody"
    lines = [f"Aton round {state.round}, {state.phase}; you are {names[seat]}; to move: {movers}"]
    for s, who in ((seat, "you"), (other, "opponent")):
        shown = list(state.discards[s])
        for card in state.face_down[s]:
            shown.remove(card)
        laid = state.alloc[s]
        if laid is None:
            cartouches = "not laid out"
        elif state.revealed or s == seat:
            cartouches = _cards(laid)
        else:
            cartouches = "laid out, face down"
        lines.append(
            f"{names[s]} ({who}): {state.score[s]} points, stock {state.stock[s]}, "
            f"pile {len(state.piles[s])}, hand {len(state.hands[s])}, "
            f"exchange {'used' if state.exchanged[s] else 'unused'}, "
            f"discards {_cards(sorted(shown))} + {len(state.face_down[s])} face down, "
            f"kingdom {state.kingdom.count(s)}, cartouches {cartouches}"
        )
    lines.append(f"your hand: {_cards(sorted(state.hands[seat]))}")
    marks = {seat: "o", other: "x"}
    rows = ("".join(marks.get(occupant, ".") for occupant in temple) for temple in state.temples)
    lines.append("temples: " + " | ".join(rows))
    extra = []
    if state.revealed:
        extra.append(f"first: {names[state.order[0]]}")
    if state.phase in ("remove", "place"):
        extra.append(f"reach 1-{state.reach}, {state.pending} to {state.phase}")
    if state.phase == "cleanup":
        mover, temple = state.cleanup[0]
        extra.append(f"take back from temple {state.cleanup_temple(mover, temple) + 1}")
    if state.last_scoring:
        points = [
            f"{line['rule']} {line['points'][seat]}:{line['points'][other]}"
            for line in state.last_scoring
        ]
        extra.append("last scoring (you:opponent) " + ", ".join(points))
    if state.winner is not None:
        extra.append(f"winner: {names[state.winner]}")
    if extra:
        lines.append("; ".join(extra))
    return "\n".join(lines)

"""Aton's rules as a deterministic state machine (see ``rules/aton.txt`` and RULINGS, Aton).

A round: both priests draw four cards and, sealed and at the same time, lay one on each of
their four cartouches (once a game either may first swap the four cards for four new ones).
The cards are then revealed and worked through: cartouche 1 scores, cartouche 2 decides who
goes first and how many counters that priest takes off the temples, cartouche 3 says which
temples are in reach, cartouche 4 how many counters come into play. When the Kingdom of the
Dead is full at the end of a round, the temples are scored and each priest takes four of
their counters back. Some conditions win at once (checked after cartouche 1 and after each
priest's cartouche 4); otherwise the game ends after the scoring in which someone reached 40.

Choices are asked only where they matter: when every opposing counter in reach must go, or
every free square in reach gets a counter, the engine does it without asking.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, cast

from karnak.core.actions import Action
from karnak.core.events import EventLog
from karnak.core.rng import Rng
from karnak.core.state import State
from karnak.core.tensors import FloatVector
from karnak.games.aton.research import tensors
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.board import CARD_VALUES, TEMPLES, Board, Square

if TYPE_CHECKING:
    from karnak.games.aton.rules.game import Aton
    from karnak.games.aton.view import ScoringLine

EMPTY: Final = -1
ALLOCATE, REMOVE, PLACE, CLEANUP, OVER = "allocate", "remove", "place", "cleanup", "over"
PHASE_NAMES: Final = {
    ALLOCATE: "laying out cards",
    REMOVE: "removing counters",
    PLACE: "placing counters",
    CLEANUP: "taking counters back after the scoring",
    OVER: "game over",
}
#: Cartouche 2 ties that survive both cartouches are broken by revealing pile cards; if a
#: whole pass of both piles finds no lower card (only possible with identical piles), red
#: begins, as red does at equal points after a scoring. Our ruling: the book is silent.
TIE_REVEAL_LIMIT: Final = 80
T = TypeVar("T")
#: Colours whose every square, held by one priest, wins at once (in the order checked).
WINNING_COLOURS: Final = ("yellow", "green")

#: Moves are frozen values, so the hot paths hand out shared instances instead of building
#: new ones: the exchange, and the lay-outs of each hand (keyed by its sorted cards).
_EXCHANGE: Final = Exchange()
_LAY_OUTS: Final[dict[tuple[int, ...], tuple[Allocate, ...]]] = {}


def _lay_outs(hand: list[int]) -> tuple[Allocate, ...]:
    """Every distinct arrangement of ``hand`` on the four cartouches, in sorted order: cards
    of one value are alike, so only the multiset of the hand matters and is the key."""
    key = tuple(sorted(hand))
    moves = _LAY_OUTS.get(key)
    if moves is None:
        arrangements = sorted(set(itertools.permutations(hand)))
        moves = _LAY_OUTS[key] = tuple(Allocate((a, b, c, d)) for a, b, c, d in arrangements)
    return moves


class _Tables:
    """What the engine reads of a board again and again, worked out once per board: the
    remove and place moves and the (temple, square) pair of every square, the squares whose
    full holding wins at once, and the colour text of each square for the log."""

    __slots__ = (
        "black",
        "blue",
        "bonus",
        "colour_text",
        "pairs",
        "places",
        "removes",
        "win_colours",
    )

    def __init__(self, board: Board):
        temples = board.temples
        self.pairs = tuple(tuple((t, s) for s in range(len(tp))) for t, tp in enumerate(temples))
        self.removes = tuple(
            tuple(Remove(t + 1, s + 1) for s in range(len(tp))) for t, tp in enumerate(temples)
        )
        self.places = tuple(
            tuple(Place(t + 1, s + 1) for s in range(len(tp))) for t, tp in enumerate(temples)
        )
        self.win_colours = tuple(
            (colour, board.colour_squares[colour])
            for colour in WINNING_COLOURS
            if board.colour_squares.get(colour)
        )
        self.colour_text = tuple(tuple(_colour_text(spot) for spot in tp) for tp in temples)
        self.blue = board.colour_squares.get("blue", ())
        self.black = board.colour_squares.get("black", ())
        #: (temple, square, points) of every square worth bonus points when held
        self.bonus = tuple(
            (t, s, spot.bonus)
            for t, tp in enumerate(temples)
            for s, spot in enumerate(tp)
            if spot.bonus
        )


def _colour_text(spot: Square) -> str:
    return f"bonus +{spot.bonus}" if spot.colour == "bonus" else spot.colour


#: Tables per board, by identity (the entry holds the board, so its id cannot be reused).
#: A server may load many corrected boards over time: past ``TABLES_KEPT`` boards the cache
#: starts afresh (states keep their own tables; a board met again rebuilds its tables).
_TABLES: Final[dict[int, tuple[Board, _Tables]]] = {}
TABLES_KEPT: Final = 32


def _tables_of(board: Board) -> _Tables:
    entry = _TABLES.get(id(board))
    if entry is None or entry[0] is not board:
        if len(_TABLES) >= TABLES_KEPT:
            _TABLES.clear()
        entry = _TABLES[id(board)] = (board, _Tables(board))
    return entry[1]


def score_temples(board: Board, temples: list[list[int]]) -> list[ScoringLine]:
    """What a scoring of ``temples`` (each square's seat, EMPTY when free) on ``board`` would
    give: one line per rule, with the points of each seat. The engine scores with it, and
    the clients show it from the public temples of a seat's observation."""
    return _score_temples(_tables_of(board), temples)


def _score_temples(tables: _Tables, temples: list[list[int]]) -> list[ScoringLine]:
    counts = [[temple.count(0), temple.count(1)] for temple in temples]
    blue = [0, 0]
    for t, s in tables.blue:
        occupant = temples[t][s]
        if occupant == 0 or occupant == 1:
            blue[occupant] += 1
    black = [0, 0]
    for t, s in tables.black:
        occupant = temples[t][s]
        if occupant == 0 or occupant == 1:
            black[occupant] += 1
    # (rule, the counters of each seat, what the majority scores): temple 1 the
    # difference, temple 2 five, temple 3 the majority's counters there, temple 4 three
    # per blue square the majority holds anywhere, the black squares eight
    rules = (
        ("temple 1", counts[0], abs(counts[0][0] - counts[0][1]), None),
        ("temple 2", counts[1], 5, None),
        ("temple 3", counts[2], 0, counts[2]),
        ("temple 4", counts[3], 0, [3 * blue[0], 3 * blue[1]]),
        ("black squares", black, 8, None),
    )
    lines: list[ScoringLine] = []
    for label, pair, fixed, per_seat in rules:
        points = [0, 0]
        if pair[0] != pair[1]:
            leader = 0 if pair[0] > pair[1] else 1
            points[leader] = fixed if per_seat is None else per_seat[leader]
        lines.append({"rule": label, "counters": list(pair), "points": points})
    bonus = [0, 0]
    for t, s, points_there in tables.bonus:
        occupant = temples[t][s]
        if occupant != EMPTY:
            bonus[occupant] += points_there
    lines.append({"rule": "bonus squares", "counters": None, "points": bonus})
    return lines


class AtonState(State):
    """The whole game: both piles and hands, the sealed cartouches, temples and scores."""

    #: The game at the rules version this state plays (its board and rulings).
    game: Aton

    _SCALARS: ClassVar[tuple[str, ...]] = (
        "round",
        "phase",
        "revealed",
        "turn",
        "pending",
        "reach",
        "winner",
        "win_reason",
    )
    _LISTS: ClassVar[tuple[str, ...]] = ("exchanged", "stock", "score", "kingdom", "order")
    _NESTED: ClassVar[tuple[str, ...]] = ("piles", "discards", "face_down", "hands", "temples")

    def __init__(
        self,
        game: Aton,
        board: Board,
        players: Sequence[str],
        seed: int,
        options: Mapping[str, Any],
        *,
        fresh: bool = True,
        blank: bool = False,
        log: bool = True,
    ):
        if blank:
            return  # an empty shell for ``_copy`` to fill in, field by field
        self.game = game
        self.board = board
        self._tables = _tables_of(board)
        self.players = tuple(players)
        self.n = 2
        self.seed = seed
        self.options = dict(options)
        self.history: list[tuple[int, Action]] = []
        self.log = EventLog(log)  # off: the same play, no words
        self.rng = Rng(seed)
        self.round = 1
        self.phase = ALLOCATE
        self.revealed = False
        self.turn = 0
        self.pending = 0
        self.reach = 0
        self.winner: int | None = None
        self.win_reason: str | None = None
        self.exchanged = [False, False]
        self.stock = [board.counters, board.counters]
        self.score = [0, 0]
        self.kingdom: list[int] = []
        self.order = [0, 1]
        self.piles: list[list[int]] = [[], []]
        self.discards: list[list[int]] = [[], []]
        #: The part of each discard pile that nobody saw (cards given up in the exchange).
        self.face_down: list[list[int]] = [[], []]
        self.hands: list[list[int]] = [[], []]
        self.temples = [[EMPTY] * len(t) for t in board.temples]
        self.alloc: list[list[int] | None] = [None, None]
        self.cleanup: list[tuple[int, int]] = []
        self.last_scoring: list[ScoringLine] = []
        if fresh:
            for seat in range(2):
                pile = [v for v in CARD_VALUES for _ in range(board.cards_per_value)]
                self.rng.shuffle(pile)
                self.piles[seat] = pile
            self._deal()

    # ------------------------------------------------------------------ who decides
    def to_move(self) -> tuple[int, ...]:
        phase = self.phase
        if phase in (REMOVE, PLACE):
            return (self.order[self.turn],)
        if phase == ALLOCATE:
            red, blue = self.alloc
            if red is None:
                return (0, 1) if blue is None else (0,)
            return (1,) if blue is None else ()
        if phase == CLEANUP:
            return (self.cleanup[0][0],)
        return ()

    def is_simultaneous(self) -> bool:
        return self.phase == ALLOCATE

    def legal_actions(self, seat: int) -> list[Action]:
        phase = self.phase
        if phase == PLACE:
            if seat != self.order[self.turn]:
                return []
            return self._holding(self._tables.places, EMPTY, self.reach)
        if phase == ALLOCATE:
            if seat not in (0, 1) or self.alloc[seat] is not None:
                return []
            lay_outs = _lay_outs(self.hands[seat])
            if self.exchanged[seat]:
                return list(lay_outs)
            return [_EXCHANGE, *lay_outs]
        if phase == REMOVE:
            if seat != self.order[self.turn]:
                return []
            owner = self._removal_owner(seat)
            return self._holding(self._tables.removes, owner, self.reach)
        if phase == CLEANUP:
            if seat != self.cleanup[0][0]:
                return []
            temple = self.cleanup_temple(seat, self.cleanup[0][1])
            row = self._tables.removes[temple]
            return [row[s] for s in self._own_squares(seat, temple)]
        return []

    def _holding(self, table: tuple[tuple[T, ...], ...], occupant: int, reach: int) -> list[T]:
        """The entries of ``table`` (moves or pairs, by temple and square) for the squares
        of temples 1 to ``reach`` that hold ``occupant`` (EMPTY: the free squares), temple
        by temple, square by square. One comprehension: the hottest scan of random play.
        (Remembering each temple's answer was tried and lost: the temples change too often.)
        """
        temples = self.temples
        return [
            table[t][s]
            for t in range(reach)
            for s, there in enumerate(temples[t])
            if there == occupant
        ]

    def explain_illegal(self, seat: int, action: Action) -> str:
        if self.phase == ALLOCATE and isinstance(action, Allocate):
            return f"your cards are {' '.join(map(str, sorted(self.hands[seat])))}"
        if isinstance(action, Exchange):
            if self.exchanged[seat]:
                return "you have already used your exchange counter"
            return "cards are exchanged only before laying them out"
        if isinstance(action, Place | Remove):
            size = len(self.board.temples[0])
            if not (1 <= action.temple <= TEMPLES and 1 <= action.square <= size):
                return f"temples are 1-{TEMPLES} and squares 1-{size}"
            if self.phase in (REMOVE, PLACE) and action.temple > self.reach:
                return f"your cartouche 3 card reaches temples 1 to {self.reach} only"
            return f"it does not fit the decision now ({PHASE_NAMES[self.phase]})"
        return "it is not among the legal actions at this point"

    # ------------------------------------------------------------------ applying
    def apply_unchecked(self, seat: int, action: Action) -> None:
        self.history.append((seat, action))
        if isinstance(action, Place):
            self._place_chosen(action.temple - 1, action.square - 1)
        elif isinstance(action, Remove):
            if self.phase == CLEANUP:
                self._take_back(action.temple - 1, action.square - 1)
            else:
                self._remove(seat, action.temple - 1, action.square - 1)
        elif isinstance(action, Allocate):
            self._allocate(seat, list(action.cards))
        elif isinstance(action, Exchange):
            self._exchange(seat)
        else:  # pragma: no cover - the parser makes only the four kinds
            raise TypeError(f"not an Aton move: {action!r}")

    def _exchange(self, seat: int) -> None:
        self.exchanged[seat] = True
        self.discards[seat].extend(self.hands[seat])
        self.face_down[seat].extend(self.hands[seat])  # exchanged cards are never shown
        self.hands[seat] = []
        if self.log.enabled:
            self.log.add(
                "{who} hands in the exchange counter and draws four new cards.",
                who=self._n(seat),
            )
        self._draw_hand(seat)

    def _allocate(self, seat: int, cards: list[int]) -> None:
        self.alloc[seat] = cards
        self.hands[seat] = []
        log = self.log
        if log.enabled:
            log.add("{who} lays out four cards, face down.", who=self._n(seat))
            log.add(
                "{who} lays {cards} on cartouches 1 to 4.",
                audience=(seat,),
                who=self._n(seat),
                cards=" ".join(map(str, cards)),
            )
        if self.alloc[0] is not None and self.alloc[1] is not None:
            self._reveal()

    def _remove(self, seat: int, temple: int, square: int) -> None:
        owner = self.temples[temple][square]
        self.temples[temple][square] = EMPTY
        self._to_kingdom_from(owner, temple, square, seat)
        self.pending -= 1
        if self.pending == 0 or not self._holds(self._removal_owner(seat), self.reach):
            self._start_placing()

    def _place_chosen(self, temple: int, square: int) -> None:
        seat = self.order[self.turn]
        self._put(seat, temple, square)
        self.pending -= 1
        if self.pending == 0:
            self._end_turn()

    # ------------------------------------------------------------------ the round
    def _deal(self) -> None:
        if self.log.enabled:
            self.log.add("Round {round}: each priest draws four cards.", round=self.round)
        self._draw_hand(0)
        self._draw_hand(1)

    def _draw_hand(self, seat: int) -> None:
        hand = self.hands[seat]
        size = self.board.hand_size
        pile = self.piles[seat]
        if len(pile) >= size:  # the usual case: no reshuffle on the way; popped one by one
            hand += pile[: -size - 1 : -1]
            del pile[-size:]
        else:
            for _ in range(size):
                hand.append(self._take_top(seat))
        if self.log.enabled:
            self.log.add(
                "{who} draws {cards}.",
                audience=(seat,),
                who=self._n(seat),
                cards=" ".join(map(str, sorted(hand))),
            )

    def _take_top(self, seat: int) -> int:
        if not self.piles[seat]:
            pile = self.discards[seat]
            self.discards[seat] = []
            self.face_down[seat] = []
            self.rng.shuffle(pile)
            self.piles[seat] = pile
            if self.log.enabled:
                self.log.add(
                    "{who}'s pile is used up: the discards are shuffled.", who=self._n(seat)
                )
        return self.piles[seat].pop()

    def _reveal(self) -> None:
        red, blue = self.alloc
        assert red is not None and blue is not None
        self.revealed = True
        if self.log.enabled:
            self.log.add(
                "The cartouches are revealed: {a} {ca}, {b} {cb}.",
                a=self._n(0),
                ca=" ".join(map(str, red)),
                b=self._n(1),
                cb=" ".join(map(str, blue)),
            )
        difference = red[0] - blue[0]
        if difference:
            seat = 0 if difference > 0 else 1
            self._gain(seat, 2 * abs(difference), "cartouche 1")
        if self._check_wins():
            return
        first = self._first_player(red, blue)
        self.order = [first, 1 - first]
        self.turn = 0
        self._start_turn()

    def _first_player(self, red: list[int], blue: list[int]) -> int:
        if red[1] != blue[1]:
            first = 0 if red[1] < blue[1] else 1
        elif red[0] != blue[0]:
            first = 0 if red[0] < blue[0] else 1
        else:
            first = self._reveal_for_order()
        if self.log.enabled:
            self.log.add("{who} goes first (cartouche 2).", who=self._n(first))
        return first

    def _reveal_for_order(self) -> int:
        """Both reveal pile cards until one is lower; the cards go under their piles."""
        for _ in range(TIE_REVEAL_LIMIT):
            shown = []
            for seat in range(2):
                card = self._take_top(seat)
                self.piles[seat].insert(0, card)
                shown.append(card)
            self.log.add(
                "Tie at cartouches 2 and 1: {a} reveals {x}, {b} reveals {y}.",
                a=self._n(0),
                x=shown[0],
                b=self._n(1),
                y=shown[1],
            )
            if shown[0] != shown[1]:
                return 0 if shown[0] < shown[1] else 1
        return 0

    def _start_turn(self) -> None:
        seat = self.order[self.turn]
        cards = self.alloc[seat]
        assert cards is not None
        self.reach = cards[2]
        amount = cards[1] - 2
        if self.round > 1 and amount != 0:
            owner = 1 - seat if amount > 0 else seat  # as _removal_owner
            reach = self.reach
            temples = self.temples
            held = 0  # counted first: the squares are listed only if all of them go
            for t in range(reach):
                held += temples[t].count(owner)
            count = min(abs(amount), held)
            if 0 < count < held:
                self.phase = REMOVE
                self.pending = count
                return
            if count:
                for temple, square in self._counters(owner, reach)[:count]:
                    temples[temple][square] = EMPTY
                    self._to_kingdom_from(owner, temple, square, seat)
        self._start_placing()

    def _removal_owner(self, seat: int) -> int:
        """Whose counters ``seat`` removes: the opponent's, or its own for a card 1."""
        cards = self.alloc[seat]
        assert cards is not None
        return 1 - seat if cards[1] > 2 else seat

    def _start_placing(self) -> None:
        seat = self.order[self.turn]
        cards = self.alloc[seat]
        assert cards is not None
        count = min(cards[3], self.stock[seat])
        reach = self.reach
        temples = self.temples
        free_count = 0  # counted first: the squares are listed only if all of them fill
        for t in range(reach):
            free_count += temples[t].count(EMPTY)
        if 0 < count < free_count:
            self.phase = PLACE
            self.pending = count
            return
        if count and free_count:
            for temple, square in self._free(reach)[:count]:
                self._put(seat, temple, square)
        for _ in range(count - free_count):
            self.stock[seat] -= 1
            self._to_kingdom(seat, "the stock (no free square in reach)", by=seat)
        self._end_turn()

    def _end_turn(self) -> None:
        if self._check_wins():
            return
        self.turn += 1
        if self.turn < 2:
            self._start_turn()
        elif len(self.kingdom) >= self.board.kingdom_squares:
            self._score()
        else:
            self._next_round()

    def _next_round(self) -> None:
        for seat in range(2):
            cards = self.alloc[seat]
            if cards is not None:
                self.discards[seat].extend(cards)
            self.alloc[seat] = None
        self.round += 1
        self.revealed = False
        self.phase = ALLOCATE
        self.pending = 0
        self.reach = 0
        self._deal()

    # ------------------------------------------------------------------ pieces
    def _put(self, seat: int, temple: int, square: int) -> None:
        self.temples[temple][square] = seat
        self.stock[seat] -= 1
        if self.log.enabled:
            self.log.add(
                "{who} places a counter on temple {t} square {s} ({colour}).",
                who=self._n(seat),
                t=temple + 1,
                s=square + 1,
                colour=self._tables.colour_text[temple][square],
            )

    def _to_kingdom_from(self, owner: int, temple: int, square: int, by: int) -> None:
        """:meth:`_to_kingdom` for a counter taken off a square (the text only if logged)."""
        if self.log.enabled:
            self._to_kingdom(owner, f"temple {temple + 1} square {square + 1}", by=by)
        elif len(self.kingdom) < self.board.kingdom_squares:
            self.kingdom.append(owner)
        else:
            self.stock[owner] += 1

    def _to_kingdom(self, owner: int, where: str, *, by: int) -> None:
        if len(self.kingdom) < self.board.kingdom_squares:
            self.kingdom.append(owner)
            self.log.add(
                "{by} sends {whose} counter from {where} to the Kingdom of the Dead.",
                by=self._n(by),
                whose=self._n(owner) + "'s",
                where=where,
            )
        else:
            self.stock[owner] += 1
            self.log.add(
                "The Kingdom of the Dead is full: {whose} counter from {where} goes back "
                "to the stock.",
                whose=self._n(owner) + "'s",
                where=where,
            )

    def _counters(self, owner: int, reach: int = TEMPLES) -> list[tuple[int, int]]:
        """(temple, square) of every square of temples 1 to ``reach`` holding ``owner``
        (EMPTY: the free squares), in board order."""
        return self._holding(self._tables.pairs, owner, reach)

    def _free(self, reach: int) -> list[tuple[int, int]]:
        return self._counters(EMPTY, reach)

    def _holds(self, owner: int, reach: int) -> bool:
        """Whether any square of temples 1 to ``reach`` holds ``owner``."""
        temples = self.temples
        return any(owner in temples[t] for t in range(reach))

    def _own_squares(self, seat: int, temple: int) -> list[int]:
        return [s for s, occupant in enumerate(self.temples[temple]) if occupant == seat]

    # ------------------------------------------------------------------ winning
    def _check_wins(self) -> bool:
        """The conditions that end the game at once; True if one holds."""
        if not self._may_win():
            return False
        for seat in self.order if self.revealed else (0, 1):
            reason = self._instant_win(seat)
            if reason is not None:
                self.winner, self.win_reason = seat, reason
                self.phase = OVER
                if self.log.enabled:
                    self.log.add("{who} wins at once: {reason}.", who=self._n(seat), reason=reason)
                return True
        return False

    def _may_win(self) -> bool:
        """False when no seat meets a condition of :meth:`_instant_win` (a cheaper test for
        both seats at once, run after every turn; True lets the exact test decide)."""
        score, target = self.score, self.board.win_points
        if score[0] >= target or score[1] >= target:
            return True
        temples = self.temples
        for temple in temples:
            first = temple[0]
            if first != EMPTY and temple.count(first) == len(temple):
                return True
        for _, squares in self._tables.win_colours:
            t, s = squares[0]
            first = temples[t][s]
            if first != EMPTY:
                for t, s in squares:
                    if temples[t][s] != first:
                        break
                else:
                    return True
        return False

    def _instant_win(self, seat: int) -> str | None:
        if self.score[seat] >= self.board.win_points:
            return f"{self.score[seat]} points"
        temples = self.temples
        for t, temple in enumerate(temples):
            # the first square rejects almost every temple before the count
            if temple[0] == seat and temple.count(seat) == len(temple):
                return f"every square of temple {t + 1}"
        for colour, squares in self._tables.win_colours:
            for t, s in squares:
                if temples[t][s] != seat:
                    break
            else:
                return f"every {colour} square"
        return None

    def _gain(self, seat: int, points: int, why: str) -> None:
        self.score[seat] += points
        if not self.log.enabled:
            return
        self.log.add(
            "{who} scores {points} for {why} ({total} in all).",
            who=self._n(seat),
            points=points,
            why=why,
            total=self.score[seat],
        )

    # ------------------------------------------------------------------ scoring
    def scoring_lines(self) -> list[ScoringLine]:
        """What a scoring now would give: one line per rule, with the points of each seat."""
        return _score_temples(self._tables, self.temples)

    def _score(self) -> None:
        self.log.add("The Kingdom of the Dead is full: the temples are scored.")
        self.last_scoring = self.scoring_lines()
        for line in self.last_scoring:
            for seat in range(2):
                if line["points"][seat]:
                    self._gain(seat, line["points"][seat], line["rule"])
        if max(self.score) >= self.board.win_points:
            # the game ends with this scoring: taking counters back could change nothing
            self.phase = OVER
            self.log.add(
                "The game ends after this scoring: {a} {x}, {b} {y}.",
                a=self._n(0),
                x=self.score[0],
                b=self._n(1),
                y=self.score[1],
            )
            return
        leader = 1 if self.score[1] > self.score[0] else 0
        self.cleanup = [(seat, t) for seat in (leader, 1 - leader) for t in range(TEMPLES)]
        self.phase = CLEANUP
        self._continue_cleanup()

    def cleanup_temple(self, seat: int, temple: int) -> int:
        """Where the counter for ``temple`` comes from: that temple, else the highest one
        holding the priest's counters (-1: none left anywhere)."""
        temples = self.temples
        if seat in temples[temple]:
            return temple
        for t in reversed(range(TEMPLES)):
            if seat in temples[t]:
                return t
        return -1

    def _take_back(self, temple: int, square: int) -> None:
        """The counter a priest chose to take back after a scoring (the legal moves offer
        only its own counters in the temple due)."""
        self._return_counter(self.temples[temple][square], temple, square)
        self.cleanup.pop(0)
        self._continue_cleanup()

    def _return_counter(self, seat: int, temple: int, square: int) -> None:
        """A counter of ``seat`` goes back from the square to its stock."""
        self.temples[temple][square] = EMPTY
        self.stock[seat] += 1
        if self.log.enabled:
            self.log.add(
                "{who} takes back the counter on temple {t} square {s}.",
                who=self._n(seat),
                t=temple + 1,
                s=square + 1,
            )

    def _continue_cleanup(self) -> None:
        while self.cleanup:
            seat, temple = self.cleanup[0]
            source = self.cleanup_temple(seat, temple)
            if source < 0:
                self.cleanup.pop(0)
                continue
            squares = self._own_squares(seat, source)
            if len(squares) > 1:
                return  # the priest chooses which counter
            self._return_counter(seat, source, squares[0])
            self.cleanup.pop(0)
        for owner in self.kingdom:
            self.stock[owner] += 1
        self.kingdom = []
        self.log.add("The Kingdom of the Dead is emptied into the stocks.")
        self._next_round()

    # ------------------------------------------------------------------ the end
    def is_over(self) -> bool:
        return self.phase == OVER

    def scores(self) -> list[int]:
        return list(self.score)

    def ranking_key(self, seat: int) -> tuple[int, ...]:
        """An instant win beats any score; otherwise points (equal points: a draw)."""
        return (1 if self.winner == seat else 0, self.score[seat])

    # ------------------------------------------------------------------ seeing
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see, in the shape :class:`~karnak.games.aton.view.AtonObservation`
        declares."""
        from karnak.games.aton.view import observe

        return cast(dict[str, Any], observe(self, seat))

    def observation_tensor(self, seat: int) -> FloatVector:
        return tensors.observation_tensor(self, seat)

    def information_state_tensor(self, seat: int) -> FloatVector:
        return tensors.information_state_tensor(self, seat)

    def observation_string(self, seat: int) -> str:
        return tensors.observation_string(self, seat)

    def resample(self, seat: int, rng: Rng, *, history: bool = True) -> AtonState:
        """Re-deal what ``seat`` cannot see: the order of its own pile, the opponent's hand,
        pile, exchanged cards and (before the reveal) sealed cartouches, and every future
        shuffle."""
        world = self._copy(False, [])  # the history would hold the other's sealed cards
        world.rng = Rng(rng.next_u64())
        # Each pool is sorted before it is shuffled, so the world drawn depends only on what
        # the seat knows and on ``rng``, never on the true order of the hidden cards.
        world.piles[seat].sort()
        rng.shuffle(world.piles[seat])
        other = 1 - seat
        sealed = world.alloc[other] if not world.revealed else None
        hidden_discards = world.face_down[other]
        unknown = list(world.piles[other]) + list(world.hands[other]) + list(sealed or [])
        unknown += hidden_discards
        unknown.sort()
        rng.shuffle(unknown)
        if sealed is not None:
            world.alloc[other], unknown = unknown[:4], unknown[4:]
        if hidden_discards:
            shown = list(world.discards[other])
            for card in hidden_discards:
                shown.remove(card)
            count = len(hidden_discards)
            world.face_down[other], unknown = unknown[:count], unknown[count:]
            world.discards[other] = sorted(shown) + world.face_down[other]
        hand = len(world.hands[other])
        world.hands[other], world.piles[other] = unknown[:hand], unknown[hand:]
        if history:
            self._keep_history(world, seat)
        return world

    # ------------------------------------------------------------------ copies
    def clone(self, *, log: bool = True) -> AtonState:
        return self._copy(log, self.history.copy())

    def _copy(self, log: bool, history: list[tuple[int, Action]]) -> AtonState:
        """A clone with ``history`` (resample gives an empty one, without copying this
        one first). Written out attribute by attribute: search pays for one every
        iteration."""
        # Built through ``__init__`` (not ``__new__``): a compiled class always runs it.
        other = AtonState(self.game, self.board, self.players, self.seed, {}, blank=True)
        other.game, other.board, other.players, other.n = self.game, self.board, self.players, 2
        other._tables = self._tables
        other.seed, other.options = self.seed, self.options
        other.history = history
        other.log = self.log.copy(enabled=log and self.log.enabled)
        other.rng = Rng(self.rng.state)
        other.round, other.phase, other.revealed = self.round, self.phase, self.revealed
        other.turn, other.pending, other.reach = self.turn, self.pending, self.reach
        other.winner, other.win_reason = self.winner, self.win_reason
        other.exchanged = self.exchanged.copy()
        other.stock = self.stock.copy()
        other.score = self.score.copy()
        other.kingdom = self.kingdom.copy()
        other.order = self.order.copy()
        other.piles = [x.copy() for x in self.piles]
        other.discards = [x.copy() for x in self.discards]
        other.face_down = [x.copy() for x in self.face_down]
        other.hands = [x.copy() for x in self.hands]
        other.temples = [x.copy() for x in self.temples]
        red, blue = self.alloc
        other.alloc = [None if red is None else red.copy(), None if blue is None else blue.copy()]
        other.cleanup = self.cleanup.copy()
        other.last_scoring = self.last_scoring
        return other

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            **self.common_json(),
            "alloc": [None if a is None else list(a) for a in self.alloc],
            "cleanup": [list(c) for c in self.cleanup],
            "last_scoring": self.last_scoring,
        }
        # getattr, not __dict__: a compiled class keeps its fields in slots
        for name in self._SCALARS:
            data[name] = getattr(self, name)
        for name in self._LISTS:
            data[name] = list(getattr(self, name))
        for name in self._NESTED:
            data[name] = [list(x) for x in getattr(self, name)]
        return data

    @classmethod
    def from_json(cls, game: Aton, board: Board, data: Mapping[str, Any]) -> AtonState:
        state = cls(game, board, data["players"], data["seed"], data["options"], fresh=False)
        state.restore_common(data)
        for name in cls._SCALARS:
            setattr(state, name, data[name])
        for name in cls._LISTS:
            setattr(state, name, list(data[name]))
        for name in cls._NESTED:
            setattr(state, name, [list(x) for x in data[name]])
        state.alloc = [None if a is None else list(a) for a in data["alloc"]]
        state.cleanup = [(int(a), int(b)) for a, b in data["cleanup"]]
        state.last_scoring = list(data["last_scoring"])
        return state

    def _n(self, seat: int) -> str:
        return self.players[seat]

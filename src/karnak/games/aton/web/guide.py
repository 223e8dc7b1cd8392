"""The guide of Aton's game page: the phases in our own words, the current one, what comes
next, what the seat is to do, and why its decision matters (see karnak.core.plugin.WebPage).

Everything here is read from the seat's observation (the public board, scores, stocks,
revealed cartouches and discards, the seat's own hand) and from the game's printed board;
the state is never handed in, so the hidden parts (the piles' order, the other priest's
hand or sealed cartouches) cannot be read. So a seat's guide stays the same whatever it
cannot see, which the tests check by re-dealing the hidden cards.

The scoring helpers are shared with the board drawing (:mod:`karnak.games.aton.web.board`):
its tooltips and move hints say what a square means for the majorities in the same words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.board import CARD_VALUES, Board
from karnak.games.aton.rules.state import score_temples
from karnak.games.aton.view import AtonObservation, ScoringLine, as_observation, board_of

EMPTY = -1
#: What the majority of each temple scores, in words (the figures are the rule book's).
TEMPLE_WORTH = (
    "the difference between the two priests' counters there",
    "5 points",
    "1 point per counter it has there",
    "3 points per blue square it holds (one in each temple)",
)
#: The same, as short as a board label allows.
TEMPLE_WORTH_SHORT = ("the difference", "5 points", "1 per counter", "3 per blue square")
TEMPLE_TWO_POINTS = 5
BLACK_POINTS = 8
BLUE_SQUARE_POINTS = 3

PHASES = (
    (
        "draw",
        "Drawing cards",
        "Each priest draws four cards from their own pile (values 1 to 4). An empty pile is "
        "made again by shuffling that priest's discards.",
    ),
    (
        "exchange",
        "The exchange (optional)",
        "Once in the game, before laying out, a priest may hand in the exchange counter to "
        "discard the four cards drawn and draw four others. Everyone sees that it happened, "
        "nobody sees the cards.",
    ),
    (
        "allocate",
        "Laying out (sealed)",
        "Both priests lay one card face down on each of their four cartouches at the same "
        "time; neither sees the other's cards until both have laid.",
    ),
    (
        "reveal",
        "The reveal",
        "Both rows are turned up together and worked through from cartouche 1 to 4.",
    ),
    (
        "points",
        "Cartouche 1: points",
        "The higher card scores twice the difference between the two cards (a 4 against a 1: "
        "6 points). Equal cards score nothing.",
    ),
    (
        "order",
        "Cartouche 2: order and removals",
        "The lower card plays first this round (equal cards: the lower cartouche 1 card; "
        "still equal: cards are turned from the piles until one is lower). From round 2, "
        "each priest in turn takes off card minus 2 of the other's counters (a 1: one of "
        "their own; a 2: none) from the temples in reach, into the Kingdom of the Dead.",
    ),
    (
        "reach",
        "Cartouche 3: reach",
        "A card of 3 puts temples 1 to 3 in reach: removals and placements happen only there.",
    ),
    (
        "place",
        "Cartouche 4: placements",
        "The priest puts that many counters from their stock on empty squares in reach, one a "
        "square. A counter with no empty square goes to the Kingdom of the Dead instead.",
    ),
    (
        "scoring",
        "Scoring the temples",
        "When the Kingdom of the Dead is full at the end of a round, the temples are scored: "
        "temple 1's majority scores the difference, temple 2's 5, temple 3's 1 per counter it "
        "has there, temple 4's 3 per blue square it holds; most black squares 8; each bonus "
        "square its +1 or +2. Then each priest takes one counter back from each temple "
        "(the leader first) and the Kingdom is emptied into the stocks.",
    ),
    (
        "end",
        "The end and instant wins",
        "A priest wins at once with 40 points, every square of one temple, every yellow "
        "square or every green square (checked after cartouche 1 and after each priest's "
        "cartouche 4). Otherwise the game ends after a scoring in which someone reached 40: "
        "most points wins, equal points are a draw.",
    ),
)
PHASE_OF = {
    "allocate": "allocate",
    "remove": "order",
    "place": "place",
    "cleanup": "scoring",
    "over": "end",
}


# ---------------------------------------------------------------------- public figures
def temple_counts(temples: Sequence[Sequence[int]], t: int) -> list[int]:
    """Red's and Blue's counters in temple ``t`` (zero-based)."""
    return [temples[t].count(0), temples[t].count(1)]


def colour_counts(board: Board, temples: Sequence[Sequence[int]], colour: str) -> list[int]:
    """How many squares of ``colour`` each priest holds, over the four temples."""
    held = [0, 0]
    for t, s in board.squares_of(colour):
        if temples[t][s] in (0, 1):
            held[temples[t][s]] += 1
    return held


def leader_of(pair: Sequence[int]) -> int | None:
    if pair[0] == pair[1]:
        return None
    return 0 if pair[0] > pair[1] else 1


def temple_worth(board: Board, temples: Sequence[Sequence[int]], t: int, leader: int) -> int:
    """What the majority ``leader`` of temple ``t`` would score now."""
    pair = temple_counts(temples, t)
    if t == 0:
        return abs(pair[0] - pair[1])
    if t == 1:
        return TEMPLE_TWO_POINTS
    if t == 2:
        return pair[leader]
    return BLUE_SQUARE_POINTS * colour_counts(board, temples, "blue")[leader]


def totals(lines: Sequence[ScoringLine]) -> list[int]:
    return [sum(line["points"][seat] for line in lines) for seat in (0, 1)]


def colour_word(board: Board, t: int, s: int) -> str:
    spot = board.temples[t][s]
    return f"bonus +{spot.bonus}" if spot.colour == "bonus" else spot.colour


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def temples_in_reach(reach: int) -> str:
    return "temple 1" if reach == 1 else f"temples 1 to {reach}"


def pair_words(names: Sequence[str], pair: Sequence[int]) -> str:
    return f"{names[0]} {pair[0]}, {names[1]} {pair[1]}"


def lead_words(names: Sequence[str], pair: Sequence[int]) -> str:
    leader = leader_of(pair)
    if leader is None:
        return "tied" if pair[0] else "empty"
    return f"{names[leader]} leads by {abs(pair[0] - pair[1])}"


def temple_standing(
    board: Board, temples: Sequence[Sequence[int]], t: int, names: Sequence[str]
) -> str:
    """One temple in a line: its counters, who leads it and what that is worth now."""
    pair = temple_counts(temples, t)
    leader = leader_of(pair)
    free = temples[t].count(EMPTY)
    head = f"Temple {t + 1} (the majority scores {TEMPLE_WORTH_SHORT[t]}): "
    if leader is None:
        state = "nobody has a counter" if not pair[0] else f"tied at {pair[0]}, nobody scores it"
    else:
        worth = temple_worth(board, temples, t, leader)
        state = (
            f"{pair_words(names, pair)}: {names[leader]} leads by {abs(pair[0] - pair[1])}, "
            f"worth {plural(worth, 'point')} now"
        )
    return f"{head}{state}; {plural(free, 'empty square')}."


def black_standing(board: Board, temples: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    black = colour_counts(board, temples, "black")
    total = len(board.squares_of("black"))
    leader = leader_of(black)
    tail = "nobody scores them" if leader is None else f"{names[leader]} would score 8"
    return (
        f"Black squares (the priest holding more of the {total} scores {BLACK_POINTS}): "
        f"{pair_words(names, black)}: {tail}."
    )


def instant_win_lines(
    board: Board, temples: Sequence[Sequence[int]], names: Sequence[str]
) -> list[str]:
    """How close each priest is to a win at once (whole temple, every yellow, every green)."""
    lines = []
    for colour in ("yellow", "green"):
        held = colour_counts(board, temples, colour)
        total = len(board.squares_of(colour))
        lines.append(
            f"Every {colour} square ({total}) wins at once: {pair_words(names, held)}"
            + "".join(
                f"; {names[s]} needs {total - held[s]} more"
                for s in (0, 1)
                if 0 < total - held[s] <= 3
            )
            + "."
        )
    best = max(
        ((temples[t].count(s), t, s) for t in range(len(temples)) for s in (0, 1)),
        key=lambda x: (x[0], -x[1], -x[2]),
    )
    size = len(temples[best[1]])
    if best[0]:
        lines.append(
            f"A whole temple ({size} squares) wins at once: the most is {names[best[2]]}'s "
            f"{best[0]} in temple {best[1] + 1}."
        )
    return lines


# ---------------------------------------------------------------------- a square's effect
def square_effect(board: Board, obs: AtonObservation, action: Remove | Place) -> str:
    """What taking the counter off (or placing one on) a square changes, in figures: the
    temple's counters, the black squares, the bonus, and a scoring of the temples now."""
    names = [p["name"] for p in obs["players"]]
    temples = [list(t) for t in obs["temples"]]
    t, s = action.temple - 1, action.square - 1
    before = score_temples(board, temples)
    if isinstance(action, Remove):
        owner = temples[t][s]
        temples[t][s] = EMPTY
    else:
        owner = obs["to_move"][0]
        temples[t][s] = owner
    after = score_temples(board, temples)
    spot = board.temples[t][s]
    was, now = _counters(before[t]), _counters(after[t])
    parts = [
        f"temple {t + 1}: {pair_words(names, was)} → {pair_words(names, now)} "
        f"({lead_words(names, now)})"
    ]
    if spot.colour == "black":
        was, now = _counters(before[4]), _counters(after[4])
        parts.append(
            f"black squares: {pair_words(names, was)} → {pair_words(names, now)} "
            f"({lead_words(names, now)})"
        )
    elif spot.colour == "bonus" and owner in (0, 1):
        gains = "loses" if isinstance(action, Remove) else "gains"
        parts.append(f"{names[owner]} {gains} its +{spot.bonus} at a scoring")
    elif spot.colour == "blue":
        parts.append("a blue square: 3 points to temple 4's majority if it holds it")
    if obs["phase"] != "cleanup":
        old_total, new_total = totals(before), totals(after)
        parts.append(
            f"a scoring now: {names[0]} {new_total[0]}, {names[1]} {new_total[1]} "
            f"(instead of {old_total[0]}, {old_total[1]})"
        )
    return "; ".join(parts)


# ---------------------------------------------------------------------- the guide
def guide(game: Game, view: View, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """Built from the seat's observation, its legal moves and the game's printed board."""
    board = board_of(game)
    obs = as_observation(view)
    phase = obs["phase"]
    return {
        "phases": [{"key": k, "name": n, "text": t} for k, n, t in PHASES],
        "phase": PHASE_OF.get(phase),
        "next": _next(board, obs),
        "task": _task(seat, legal, obs),
        "explain": _explain(board, seat, legal, obs),
    }


def _names(obs: AtonObservation) -> list[str]:
    return [p["name"] for p in obs["players"]]


def _counters(line: ScoringLine) -> list[int]:
    """The counters a majority rule compares (every line but the bonus squares has them)."""
    counters = line["counters"]
    assert counters is not None, line["rule"]
    return counters


def _cartouches(obs: AtonObservation, seat: int) -> list[int]:
    """``seat``'s revealed cartouches (asked only after the reveal)."""
    cards = obs["players"][seat]["cartouches"]
    assert cards is not None, "the cartouches are not revealed yet"
    return cards


def _turn(obs: AtonObservation) -> tuple[int, int]:
    """The temples in reach and the counters still to remove or place (in those phases)."""
    reach, pending = obs["reach"], obs["pending"]
    assert reach is not None and pending is not None, obs["phase"]
    return reach, pending


def _mover(obs: AtonObservation) -> int | None:
    return obs["to_move"][0] if obs["to_move"] and obs["phase"] != "allocate" else None


def _turn_words(obs: AtonObservation, seat: int) -> str:
    """What a priest's revealed cartouches 2 to 4 will do in its turn."""
    cards = _cartouches(obs, seat)
    names = _names(obs)
    reach = temples_in_reach(cards[2])
    amount = cards[1] - 2
    if obs["round"] == 1 or amount == 0:
        removal = "no removals"
    elif amount > 0:
        removal = f"removes up to {amount} of {names[1 - seat]}'s counters"
    else:
        removal = "removes 1 of its own counters"
    return f"{names[seat]}'s turn: {removal}, then places {cards[3]}, in {reach}"


def _round_end(obs: AtonObservation) -> str:
    held, size = len(obs["kingdom"]), obs["kingdom_squares"]
    if held >= size:
        return (
            f"the Kingdom of the Dead is full ({held} of {size}): the temples are scored at "
            "the end of this round"
        )
    return (
        f"round {obs['round'] + 1}, unless the Kingdom of the Dead fills first "
        f"({held} of {size} now; when full, the temples are scored)"
    )


def _next(board: Board, obs: AtonObservation) -> str | None:
    phase = obs["phase"]
    if phase == "over":
        return None
    if phase == "allocate":
        return (
            "The reveal: both rows of cartouches turn up together; cartouche 1 scores, "
            "cartouche 2 decides who plays first."
        )
    if phase == "cleanup":
        return (
            f"Round {obs['round'] + 1}: the Kingdom of the Dead is emptied into the stocks and "
            "both priests draw four cards."
        )
    mover = _mover(obs)
    assert mover is not None
    names = _names(obs)
    cards = _cartouches(obs, mover)
    if phase == "remove":
        return (
            f"{names[mover]} places {plural(cards[3], 'counter')} in "
            f"{temples_in_reach(cards[2])} (cartouche 4)."
        )
    order = obs["order"]
    assert order is not None, "the order is known once the cartouches are revealed"
    if order[0] == mover:
        return f"{_turn_words(obs, order[1])}. Then {_round_end(obs)}."
    return f"The round ends: {_round_end(obs)}."


def _task(seat: int | None, legal: Sequence[Action], obs: AtonObservation) -> str | None:
    if seat is None or not legal:
        return None
    phase = obs["phase"]
    names = _names(obs)
    if phase == "allocate":
        if any(isinstance(a, Allocate) for a in legal):
            return "Lay out your four cards (sealed)"
        return None
    if phase == "remove":
        first = next(a for a in legal if isinstance(a, Remove))
        owner = obs["temples"][first.temple - 1][first.square - 1]
        whose = "your own counters" if owner == seat else f"{names[owner]}'s counters"
        reach, pending = _turn(obs)
        return f"Remove {pending} of {whose} from {temples_in_reach(reach)}"
    if phase == "place":
        reach, pending = _turn(obs)
        return f"Place {plural(pending, 'counter')} in {temples_in_reach(reach)}"
    if phase == "cleanup":
        first = next(a for a in legal if isinstance(a, Remove))
        return f"Take back one of your counters from temple {first.temple}"
    return None


def _explain(
    board: Board, seat: int | None, legal: Sequence[Action], obs: AtonObservation
) -> list[dict[str, Any]]:
    phase = obs["phase"]
    names = _names(obs)
    temples = obs["temples"]
    items: list[dict[str, Any]] = []
    if phase == "over":
        return [_result(obs)]
    if phase == "allocate":
        if seat is not None and obs["you"]["cartouches"] is None and legal:
            items.append(_cards_item(board, seat, legal, obs))
        items.append(_temples_item(board, obs, range(len(temples)), "The temples now"))
    elif phase in ("remove", "place") and seat is not None and seat in obs["to_move"]:
        items.append(_squares_item(board, seat, legal, obs))
        reach, _ = _turn(obs)
        items.append(
            _temples_item(board, obs, range(reach), f"In reach: {temples_in_reach(reach)}")
        )
    elif phase == "cleanup" and seat is not None and legal:
        items.append(_squares_item(board, seat, legal, obs))
        items.append(_temples_item(board, obs, range(len(temples)), "The temples now"))
    else:
        items.append(_temples_item(board, obs, range(len(temples)), "The temples now"))
    items.append(_race_item(board, obs, names))
    return items


def _cards_item(
    board: Board, seat: int, legal: Sequence[Action], obs: AtonObservation
) -> dict[str, Any]:
    """The lay-out: what the four cartouches do, and what the other priest may hold."""
    names = _names(obs)
    other = 1 - seat
    hand = obs["you"]["hand"]
    rival = obs["players"][other]
    shown = {int(v): n for v, n in rival["discards"].items()}
    pool = {v: board.cards_per_value - shown.get(v, 0) for v in CARD_VALUES}
    unseen = sum(pool.values())
    lines = [
        f"Your cards: {' '.join(map(str, hand))}. The preview under your cartouches says "
        "what each would do where you lay it.",
        "Cartouche 1 scores twice the difference for the higher card. Cartouche 2: the "
        "lower card plays first and takes off the card minus 2 of the other's counters "
        "(a 1: one of yours).",
        f"{names[other]}'s four cards come from {unseen} cards you have not seen: "
        + ", ".join(f"{n} of value {v}" for v, n in pool.items())
        + f" ({board.cards_per_value} of each value, less those shown in "
        f"{names[other]}'s discards since the last shuffle).",
    ]
    if obs["round"] == 1:
        lines.append("Round 1: nobody removes counters; cartouche 2 only decides who begins.")
    stock = obs["players"][seat]["stock"]
    lines.append(f"Your stock: {plural(stock, 'counter')} to place.")
    if any(isinstance(a, Exchange) for a in legal):
        lines.append(
            "Your exchange counter is unused: once in the game you may discard these four "
            "cards and draw four others before laying out."
        )
    elif rival["exchange_used"] is False:
        lines.append(f"{names[other]} may still use their exchange counter.")
    return {"title": "Laying out your cards", "lines": lines}


def _squares_item(
    board: Board, seat: int, legal: Sequence[Action], obs: AtonObservation
) -> dict[str, Any]:
    """Each square the seat may choose, with what it changes for the majorities."""
    moves = [a for a in legal if isinstance(a, Remove | Place)]
    phase = obs["phase"]
    if phase == "remove":
        title = "What each removal changes"
    elif phase == "place":
        title = "What each placement changes"
    else:
        title = "What each counter taken back changes"
    # squares with the same effect share a line: "Squares 1.1, 1.3 (yellow), 1.5 (green): ..."
    groups: dict[str, dict[str, list[str]]] = {}
    for action in moves:
        t, s = action.temple - 1, action.square - 1
        squares = groups.setdefault(square_effect(board, obs, action), {})
        squares.setdefault(colour_word(board, t, s), []).append(f"{action.temple}.{action.square}")
    lines = []
    for effect, squares in groups.items():
        count = sum(len(spots) for spots in squares.values())
        where = ", ".join(f"{', '.join(spots)} ({colour})" for colour, spots in squares.items())
        lines.append(f"{'Square' if count == 1 else 'Squares'} {where}: {effect}.")
    held, size = len(obs["kingdom"]), obs["kingdom_squares"]
    if phase == "remove":
        _, pending = _turn(obs)
        after = held + pending
        if held >= size:
            lines.append(
                f"The Kingdom of the Dead is full ({held} of {size}): the counters you remove "
                "go back to their owner's stock, and the temples are scored at the end of "
                "this round."
            )
        elif after >= size:
            lines.append(
                f"The Kingdom of the Dead holds {held} of {size}: your "
                f"{'removal fills' if pending == 1 else 'removals fill'} it, so "
                "the temples are scored at the end of this round."
            )
        else:
            lines.append(
                f"Each removed counter goes to the Kingdom of the Dead: {held} of {size} now, "
                f"{after} after your {'removal' if pending == 1 else 'removals'} (when it is "
                "full, the temples are scored at the end of the round)."
            )
    elif phase == "place":
        stock = obs["players"][seat]["stock"]
        lines.append(
            f"You place {plural(_turn(obs)[1], 'more counter')} (stock {stock}); the "
            f"Kingdom of the Dead holds {held} of {size}."
        )
    return {"title": title, "lines": lines}


def _temples_item(board: Board, obs: AtonObservation, which: range, title: str) -> dict[str, Any]:
    names = _names(obs)
    temples = obs["temples"]
    # two or more temples nobody has entered yet share one line
    bare = [t for t in which if all(occupant == EMPTY for occupant in temples[t])]
    if len(bare) < 2:
        bare = []
    lines = [temple_standing(board, temples, t, names) for t in which if t not in bare]
    if bare:
        listed = ", ".join(str(t + 1) for t in bare[:-1]) + f" and {bare[-1] + 1}"
        lines.append(f"Temples {listed}: no counters yet.")
    lines.append(black_standing(board, temples, names))
    blue = colour_counts(board, temples, "blue")
    lines.append(
        f"Blue squares (each worth 3 to temple 4's majority if it holds it): "
        f"{pair_words(names, blue)}."
    )
    bonus = totals([score_temples(board, temples)[-1]])
    lines.append(f"Bonus squares held: {names[0]} +{bonus[0]}, {names[1]} +{bonus[1]}.")
    now = totals(score_temples(board, temples))
    lines.append(f"A scoring now would give {names[0]} {now[0]}, {names[1]} {now[1]}.")
    return {"title": title, "lines": lines}


def _race_item(board: Board, obs: AtonObservation, names: Sequence[str]) -> dict[str, Any]:
    scores = [p["score"] for p in obs["players"]]
    held, size = len(obs["kingdom"]), obs["kingdom_squares"]
    lines = [
        f"Scores: {names[0]} {scores[0]}, {names[1]} {scores[1]}; {board.win_points} wins.",
        f"Kingdom of the Dead: {held} of {size} squares taken "
        f"({names[0]} {obs['kingdom'].count(0)}, {names[1]} {obs['kingdom'].count(1)}); "
        + (
            "it is emptied into the stocks once the counters are taken back."
            if obs["phase"] == "cleanup"
            else "it is full: the temples are scored at the end of this round."
            if held >= size
            else f"{plural(size - held, 'more counter')} and it is full: the temples are "
            "scored at the end of that round."
        ),
        *instant_win_lines(board, obs["temples"], names),
    ]
    return {"title": "The race", "lines": lines}


def _result(obs: AtonObservation) -> dict[str, Any]:
    names = _names(obs)
    scores = [p["score"] for p in obs["players"]]
    if obs["winner"] is not None:
        line = f"{names[obs['winner']]} won at once: {obs['win_reason']}."
    elif scores[0] == scores[1]:
        line = f"A draw at {scores[0]} points."
    else:
        winner = 0 if scores[0] > scores[1] else 1
        line = f"{names[winner]} won on points, {scores[winner]} to {scores[1 - winner]}."
    return {"title": "The end", "lines": [line]}

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
from karnak.games.aton.i18n import N_, _, ngettext, t
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.board import CARD_VALUES, Board
from karnak.games.aton.rules.state import score_temples
from karnak.games.aton.view import AtonObservation, ScoringLine, as_observation, board_of
from karnak.games.aton.view import temples_in_reach as temples_in_reach

EMPTY = -1
#: What the majority of each temple scores, in words (the figures are the rule book's).
TEMPLE_WORTH = (
    N_("the difference between the two priests' counters there"),
    N_("5 points"),
    N_("1 point per counter it has there"),
    N_("3 points per blue square it holds (one in each temple)"),
)
#: The same, as short as a board label allows.
TEMPLE_WORTH_SHORT = (
    N_("the difference"),
    N_("5 points"),
    N_("1 per counter"),
    N_("3 per blue square"),
)
TEMPLE_TWO_POINTS = 5
BLACK_POINTS = 8
BLUE_SQUARE_POINTS = 3
#: The colours of the squares, as words.
COLOUR_NAMES = {
    "yellow": N_("yellow"),
    "green": N_("green"),
    "black": N_("black"),
    "blue": N_("blue"),
    "bonus": N_("bonus"),
}

PHASES = (
    (
        "draw",
        N_("Drawing cards"),
        N_(
            "Each priest draws four cards from their own pile (values 1 to 4). An empty pile "
            "is made again by shuffling that priest's discards."
        ),
    ),
    (
        "exchange",
        N_("The exchange (optional)"),
        N_(
            "Once in the game, before laying out, a priest may hand in the exchange counter "
            "to discard the four cards drawn and draw four others. Everyone sees that it "
            "happened, nobody sees the cards."
        ),
    ),
    (
        "allocate",
        N_("Laying out (sealed)"),
        N_(
            "Both priests lay one card face down on each of their four cartouches at the "
            "same time; neither sees the other's cards until both have laid."
        ),
    ),
    (
        "reveal",
        N_("The reveal"),
        N_("Both rows are turned up together and worked through from cartouche 1 to 4."),
    ),
    (
        "points",
        N_("Cartouche 1: points"),
        N_(
            "The higher card scores twice the difference between the two cards (a 4 against "
            "a 1: 6 points). Equal cards score nothing."
        ),
    ),
    (
        "order",
        N_("Cartouche 2: order and removals"),
        N_(
            "The lower card plays first this round (equal cards: the lower cartouche 1 card; "
            "still equal: cards are turned from the piles until one is lower). From round 2, "
            "each priest in turn takes off card minus 2 of the other's counters (a 1: one of "
            "their own; a 2: none) from the temples in reach, into the Kingdom of the Dead."
        ),
    ),
    (
        "reach",
        N_("Cartouche 3: reach"),
        N_("A card of 3 puts temples 1 to 3 in reach: removals and placements happen only there."),
    ),
    (
        "place",
        N_("Cartouche 4: placements"),
        N_(
            "The priest puts that many counters from their stock on empty squares in reach, "
            "one a square. A counter with no empty square goes to the Kingdom of the Dead "
            "instead."
        ),
    ),
    (
        "scoring",
        N_("Scoring the temples"),
        N_(
            "When the Kingdom of the Dead is full at the end of a round, the temples are "
            "scored: temple 1's majority scores the difference, temple 2's 5, temple 3's 1 "
            "per counter it has there, temple 4's 3 per blue square it holds; most black "
            "squares 8; each bonus square its +1 or +2. Then each priest takes one counter "
            "back from each temple (the leader first) and the Kingdom is emptied into the "
            "stocks."
        ),
    ),
    (
        "end",
        N_("The end and instant wins"),
        N_(
            "A priest wins at once with 40 points, every square of one temple, every yellow "
            "square or every green square (checked after cartouche 1 and after each priest's "
            "cartouche 4). Otherwise the game ends after a scoring in which someone reached "
            "40: most points wins, equal points are a draw."
        ),
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
    for temple, square in board.squares_of(colour):
        occupant = temples[temple][square]
        if occupant in (0, 1):
            held[occupant] += 1
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


def colour_name(colour: str, bonus: int = 0) -> str:
    """A square's colour in the reader's words ("green", "bonus +2")."""
    if colour == "bonus":
        return t("bonus +{n}", n=bonus)
    return _(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour


def colour_word(board: Board, t: int, s: int) -> str:
    spot = board.temples[t][s]
    return colour_name(spot.colour, spot.bonus)


def points_words(count: int) -> str:
    return ngettext("{n} point", "{n} points", count).format(n=count)


def empty_squares_words(count: int) -> str:
    return ngettext("{n} empty square", "{n} empty squares", count).format(n=count)


def counters_words(count: int) -> str:
    return ngettext("{n} counter", "{n} counters", count).format(n=count)


def pair_words(names: Sequence[str], pair: Sequence[int]) -> str:
    return f"{names[0]} {pair[0]}, {names[1]} {pair[1]}"


def lead_words(names: Sequence[str], pair: Sequence[int]) -> str:
    leader = leader_of(pair)
    if leader is None:
        return _("tied") if pair[0] else _("empty")
    return t("{who} leads by {n}", who=names[leader], n=abs(pair[0] - pair[1]))


def temple_standing(
    board: Board, temples: Sequence[Sequence[int]], index: int, names: Sequence[str]
) -> str:
    """One temple in a line: its counters, who leads it and what that is worth now."""
    pair = temple_counts(temples, index)
    leader = leader_of(pair)
    free = empty_squares_words(temples[index].count(EMPTY))
    rule = _(TEMPLE_WORTH_SHORT[index])
    number = index + 1
    if leader is None:
        if not pair[0]:
            return t(
                "Temple {t} (the majority scores {rule}): nobody has a counter; {free}.",
                t=number,
                rule=rule,
                free=free,
            )
        return t(
            "Temple {t} (the majority scores {rule}): tied at {n}, nobody scores it; {free}.",
            t=number,
            rule=rule,
            n=pair[0],
            free=free,
        )
    worth = temple_worth(board, temples, index, leader)
    return t(
        "Temple {t} (the majority scores {rule}): {pair}: {who} leads by {n}, worth {worth} "
        "now; {free}.",
        t=number,
        rule=rule,
        pair=pair_words(names, pair),
        who=names[leader],
        n=abs(pair[0] - pair[1]),
        worth=points_words(worth),
        free=free,
    )


def black_standing(board: Board, temples: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    black = colour_counts(board, temples, "black")
    total = len(board.squares_of("black"))
    leader = leader_of(black)
    if leader is None:
        return t(
            "Black squares (the priest holding more of the {total} scores {points}): {pair}: "
            "nobody scores them.",
            total=total,
            points=BLACK_POINTS,
            pair=pair_words(names, black),
        )
    return t(
        "Black squares (the priest holding more of the {total} scores {points}): {pair}: "
        "{who} would score {points}.",
        total=total,
        points=BLACK_POINTS,
        pair=pair_words(names, black),
        who=names[leader],
    )


def instant_win_lines(
    board: Board, temples: Sequence[Sequence[int]], names: Sequence[str]
) -> list[str]:
    """How close each priest is to a win at once (whole temple, every yellow, every green)."""
    lines = []
    for colour in ("yellow", "green"):
        held = colour_counts(board, temples, colour)
        total = len(board.squares_of(colour))
        close = [s for s in (0, 1) if 0 < total - held[s] <= 3]
        pair = pair_words(names, held)
        if colour == "yellow":
            line = t("Every yellow square ({total}) wins at once: {pair}.", total=total, pair=pair)
        else:
            line = t("Every green square ({total}) wins at once: {pair}.", total=total, pair=pair)
        for s in close:
            line += " " + t("{who} needs {n} more.", who=names[s], n=total - held[s])
        lines.append(line)
    best = max(
        ((temples[t].count(s), t, s) for t in range(len(temples)) for s in (0, 1)),
        key=lambda x: (x[0], -x[1], -x[2]),
    )
    size = len(temples[best[1]])
    if best[0]:
        lines.append(
            t(
                "A whole temple ({size} squares) wins at once: the most is {who}'s {n} in "
                "temple {t}.",
                size=size,
                who=names[best[2]],
                n=best[0],
                t=best[1] + 1,
            )
        )
    return lines


# ---------------------------------------------------------------------- a square's effect
def square_effect(board: Board, obs: AtonObservation, action: Remove | Place) -> str:
    """What taking the counter off (or placing one on) a square changes, in figures: the
    temple's counters, the black squares, the bonus, and a scoring of the temples now."""
    names = [p["name"] for p in obs["players"]]
    temples = [list(t) for t in obs["temples"]]
    t_, s = action.temple - 1, action.square - 1
    before = score_temples(board, temples)
    if isinstance(action, Remove):
        owner = temples[t_][s]
        temples[t_][s] = EMPTY
    else:
        owner = obs["to_move"][0]
        temples[t_][s] = owner
    after = score_temples(board, temples)
    spot = board.temples[t_][s]
    was, now = _counters(before[t_]), _counters(after[t_])
    parts = [
        t(
            "temple {t}: {was} → {now} ({lead})",
            t=t_ + 1,
            was=pair_words(names, was),
            now=pair_words(names, now),
            lead=lead_words(names, now),
        )
    ]
    if spot.colour == "black":
        was, now = _counters(before[4]), _counters(after[4])
        parts.append(
            t(
                "black squares: {was} → {now} ({lead})",
                was=pair_words(names, was),
                now=pair_words(names, now),
                lead=lead_words(names, now),
            )
        )
    elif spot.colour == "bonus" and owner in (0, 1):
        if isinstance(action, Remove):
            parts.append(t("{who} loses its +{n} at a scoring", who=names[owner], n=spot.bonus))
        else:
            parts.append(t("{who} gains its +{n} at a scoring", who=names[owner], n=spot.bonus))
    elif spot.colour == "blue":
        parts.append(_("a blue square: 3 points to temple 4's majority if it holds it"))
    if obs["phase"] != "cleanup":
        old_total, new_total = totals(before), totals(after)
        parts.append(
            t(
                "a scoring now: {a} {x}, {b} {y} (instead of {old_x}, {old_y})",
                a=names[0],
                x=new_total[0],
                b=names[1],
                y=new_total[1],
                old_x=old_total[0],
                old_y=old_total[1],
            )
        )
    return "; ".join(parts)


# ---------------------------------------------------------------------- the guide
def guide(game: Game, view: View, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """Built from the seat's observation, its legal moves and the game's printed board."""
    board = board_of(game)
    obs = as_observation(view)
    phase = obs["phase"]
    return {
        "phases": [{"key": k, "name": _(n), "text": _(text)} for k, n, text in PHASES],
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
    who = names[seat]
    if obs["round"] == 1 or amount == 0:
        return t(
            "{who}'s turn: no removals, then places {n}, in {temples}",
            who=who,
            n=cards[3],
            temples=reach,
        )
    if amount > 0:
        return t(
            "{who}'s turn: removes up to {k} of {other}'s counters, then places {n}, in {temples}",
            who=who,
            k=amount,
            other=names[1 - seat],
            n=cards[3],
            temples=reach,
        )
    return t(
        "{who}'s turn: removes 1 of its own counters, then places {n}, in {temples}",
        who=who,
        n=cards[3],
        temples=reach,
    )


def _round_end(obs: AtonObservation) -> str:
    held, size = len(obs["kingdom"]), obs["kingdom_squares"]
    if held >= size:
        return t(
            "the Kingdom of the Dead is full ({held} of {size}): the temples are scored at "
            "the end of this round",
            held=held,
            size=size,
        )
    return t(
        "round {round}, unless the Kingdom of the Dead fills first ({held} of {size} now; "
        "when full, the temples are scored)",
        round=obs["round"] + 1,
        held=held,
        size=size,
    )


def _next(board: Board, obs: AtonObservation) -> str | None:
    phase = obs["phase"]
    if phase == "over":
        return None
    if phase == "allocate":
        return _(
            "The reveal: both rows of cartouches turn up together; cartouche 1 scores, "
            "cartouche 2 decides who plays first."
        )
    if phase == "cleanup":
        return t(
            "Round {round}: the Kingdom of the Dead is emptied into the stocks and both "
            "priests draw four cards.",
            round=obs["round"] + 1,
        )
    mover = _mover(obs)
    assert mover is not None
    names = _names(obs)
    cards = _cartouches(obs, mover)
    if phase == "remove":
        return ngettext(
            "{who} places {n} counter in {temples} (cartouche 4).",
            "{who} places {n} counters in {temples} (cartouche 4).",
            cards[3],
        ).format(who=names[mover], n=cards[3], temples=temples_in_reach(cards[2]))
    order = obs["order"]
    assert order is not None, "the order is known once the cartouches are revealed"
    if order[0] == mover:
        return t("{turn}. Then {end}.", turn=_turn_words(obs, order[1]), end=_round_end(obs))
    return t("The round ends: {end}.", end=_round_end(obs))


def _task(seat: int | None, legal: Sequence[Action], obs: AtonObservation) -> str | None:
    if seat is None or not legal:
        return None
    phase = obs["phase"]
    names = _names(obs)
    if phase == "allocate":
        if any(isinstance(a, Allocate) for a in legal):
            return _("Lay out your four cards (sealed)")
        return None
    if phase == "remove":
        first = next(a for a in legal if isinstance(a, Remove))
        owner = obs["temples"][first.temple - 1][first.square - 1]
        reach, pending = _turn(obs)
        if owner == seat:
            return t(
                "Remove {n} of your own counters from {temples}",
                n=pending,
                temples=temples_in_reach(reach),
            )
        return t(
            "Remove {n} of {who}'s counters from {temples}",
            n=pending,
            who=names[owner],
            temples=temples_in_reach(reach),
        )
    if phase == "place":
        reach, pending = _turn(obs)
        return ngettext(
            "Place {n} counter in {temples}", "Place {n} counters in {temples}", pending
        ).format(n=pending, temples=temples_in_reach(reach))
    if phase == "cleanup":
        first = next(a for a in legal if isinstance(a, Remove))
        return t("Take back one of your counters from temple {t}", t=first.temple)
    return None


def _explain(
    board: Board, seat: int | None, legal: Sequence[Action], obs: AtonObservation
) -> list[dict[str, Any]]:
    phase = obs["phase"]
    names = _names(obs)
    temples = obs["temples"]
    items: list[dict[str, Any]] = []
    now = _("The temples now")
    if phase == "over":
        return [_result(obs)]
    if phase == "allocate":
        if seat is not None and obs["you"]["cartouches"] is None and legal:
            items.append(_cards_item(board, seat, legal, obs))
        items.append(_temples_item(board, obs, range(len(temples)), now))
    elif phase in ("remove", "place") and seat is not None and seat in obs["to_move"]:
        items.append(_squares_item(board, seat, legal, obs))
        reach, _pending = _turn(obs)
        title = t("In reach: {temples}", temples=temples_in_reach(reach))
        items.append(_temples_item(board, obs, range(reach), title))
    elif phase == "cleanup" and seat is not None and legal:
        items.append(_squares_item(board, seat, legal, obs))
        items.append(_temples_item(board, obs, range(len(temples)), now))
    else:
        items.append(_temples_item(board, obs, range(len(temples)), now))
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
        t(
            "Your cards: {cards}. The preview under your cartouches says what each would do "
            "where you lay it.",
            cards=" ".join(map(str, hand)),
        ),
        _(
            "Cartouche 1 scores twice the difference for the higher card. Cartouche 2: the "
            "lower card plays first and takes off the card minus 2 of the other's counters "
            "(a 1: one of yours)."
        ),
        t(
            "{who}'s four cards come from {unseen} cards you have not seen: {pool} ({each} of "
            "each value, less those shown in {who}'s discards since the last shuffle).",
            who=names[other],
            unseen=unseen,
            pool=", ".join(t("{n} of value {v}", n=n, v=v) for v, n in pool.items()),
            each=board.cards_per_value,
        ),
    ]
    if obs["round"] == 1:
        lines.append(_("Round 1: nobody removes counters; cartouche 2 only decides who begins."))
    stock = obs["players"][seat]["stock"]
    lines.append(
        ngettext(
            "Your stock: {n} counter to place.", "Your stock: {n} counters to place.", stock
        ).format(n=stock)
    )
    if any(isinstance(a, Exchange) for a in legal):
        lines.append(
            _(
                "Your exchange counter is unused: once in the game you may discard these four "
                "cards and draw four others before laying out."
            )
        )
    elif rival["exchange_used"] is False:
        lines.append(t("{who} may still use their exchange counter.", who=names[other]))
    return {"title": _("Laying out your cards"), "lines": lines}


def _squares_item(
    board: Board, seat: int, legal: Sequence[Action], obs: AtonObservation
) -> dict[str, Any]:
    """Each square the seat may choose, with what it changes for the majorities."""
    moves = [a for a in legal if isinstance(a, Remove | Place)]
    phase = obs["phase"]
    if phase == "remove":
        title = _("What each removal changes")
    elif phase == "place":
        title = _("What each placement changes")
    else:
        title = _("What each counter taken back changes")
    # squares with the same effect share a line: "Squares 1.1, 1.3 (yellow), 1.5 (green): ..."
    groups: dict[str, dict[str, list[str]]] = {}
    for action in moves:
        t_, s = action.temple - 1, action.square - 1
        squares = groups.setdefault(square_effect(board, obs, action), {})
        squares.setdefault(colour_word(board, t_, s), []).append(f"{action.temple}.{action.square}")
    lines = []
    for effect, squares in groups.items():
        count = sum(len(spots) for spots in squares.values())
        where = ", ".join(f"{', '.join(spots)} ({colour})" for colour, spots in squares.items())
        lines.append(
            ngettext("Square {where}: {effect}.", "Squares {where}: {effect}.", count).format(
                where=where, effect=effect
            )
        )
    held, size = len(obs["kingdom"]), obs["kingdom_squares"]
    if phase == "remove":
        _reach, pending = _turn(obs)
        after = held + pending
        if held >= size:
            lines.append(
                t(
                    "The Kingdom of the Dead is full ({held} of {size}): the counters you "
                    "remove go back to their owner's stock, and the temples are scored at the "
                    "end of this round.",
                    held=held,
                    size=size,
                )
            )
        elif after >= size:
            lines.append(
                ngettext(
                    "The Kingdom of the Dead holds {held} of {size}: your removal fills it, so "
                    "the temples are scored at the end of this round.",
                    "The Kingdom of the Dead holds {held} of {size}: your removals fill it, so "
                    "the temples are scored at the end of this round.",
                    pending,
                ).format(held=held, size=size)
            )
        else:
            lines.append(
                ngettext(
                    "Each removed counter goes to the Kingdom of the Dead: {held} of {size} "
                    "now, {after} after your removal (when it is full, the temples are scored "
                    "at the end of the round).",
                    "Each removed counter goes to the Kingdom of the Dead: {held} of {size} "
                    "now, {after} after your removals (when it is full, the temples are scored "
                    "at the end of the round).",
                    pending,
                ).format(held=held, size=size, after=after)
            )
    elif phase == "place":
        stock = obs["players"][seat]["stock"]
        more = _turn(obs)[1]
        lines.append(
            ngettext(
                "You place {n} more counter (stock {stock}); the Kingdom of the Dead holds "
                "{held} of {size}.",
                "You place {n} more counters (stock {stock}); the Kingdom of the Dead holds "
                "{held} of {size}.",
                more,
            ).format(n=more, stock=stock, held=held, size=size)
        )
    return {"title": title, "lines": lines}


def _temples_item(board: Board, obs: AtonObservation, which: range, title: str) -> dict[str, Any]:
    names = _names(obs)
    temples = obs["temples"]
    # two or more temples nobody has entered yet share one line
    bare = [t_ for t_ in which if all(occupant == EMPTY for occupant in temples[t_])]
    if len(bare) < 2:
        bare = []
    lines = [temple_standing(board, temples, t_, names) for t_ in which if t_ not in bare]
    if bare:
        lines.append(
            t(
                "Temples {listed} and {last}: no counters yet.",
                listed=", ".join(str(t_ + 1) for t_ in bare[:-1]),
                last=bare[-1] + 1,
            )
        )
    lines.append(black_standing(board, temples, names))
    blue = colour_counts(board, temples, "blue")
    lines.append(
        t(
            "Blue squares (each worth 3 to temple 4's majority if it holds it): {pair}.",
            pair=pair_words(names, blue),
        )
    )
    bonus = totals([score_temples(board, temples)[-1]])
    lines.append(
        t(
            "Bonus squares held: {a} +{x}, {b} +{y}.",
            a=names[0],
            x=bonus[0],
            b=names[1],
            y=bonus[1],
        )
    )
    now = totals(score_temples(board, temples))
    lines.append(
        t("A scoring now would give {a} {x}, {b} {y}.", a=names[0], x=now[0], b=names[1], y=now[1])
    )
    return {"title": title, "lines": lines}


def _race_item(board: Board, obs: AtonObservation, names: Sequence[str]) -> dict[str, Any]:
    scores = [p["score"] for p in obs["players"]]
    held, size = len(obs["kingdom"]), obs["kingdom_squares"]
    if obs["phase"] == "cleanup":
        tail = _("it is emptied into the stocks once the counters are taken back.")
    elif held >= size:
        tail = _("it is full: the temples are scored at the end of this round.")
    else:
        tail = ngettext(
            "{n} more counter and it is full: the temples are scored at the end of that round.",
            "{n} more counters and it is full: the temples are scored at the end of that round.",
            size - held,
        ).format(n=size - held)
    lines = [
        t(
            "Scores: {a} {x}, {b} {y}; {target} wins.",
            a=names[0],
            x=scores[0],
            b=names[1],
            y=scores[1],
            target=board.win_points,
        ),
        t(
            "Kingdom of the Dead: {held} of {size} squares taken ({a} {x}, {b} {y}); {tail}",
            held=held,
            size=size,
            a=names[0],
            x=obs["kingdom"].count(0),
            b=names[1],
            y=obs["kingdom"].count(1),
            tail=tail,
        ),
        *instant_win_lines(board, obs["temples"], names),
    ]
    return {"title": _("The race"), "lines": lines}


def _result(obs: AtonObservation) -> dict[str, Any]:
    names = _names(obs)
    scores = [p["score"] for p in obs["players"]]
    if obs["winner"] is not None:
        line = t("{who} won at once: {reason}.", who=names[obs["winner"]], reason=obs["win_reason"])
    elif scores[0] == scores[1]:
        line = ngettext("A draw at {n} point.", "A draw at {n} points.", scores[0]).format(
            n=scores[0]
        )
    else:
        winner = 0 if scores[0] > scores[1] else 1
        line = t(
            "{who} won on points, {x} to {y}.",
            who=names[winner],
            x=scores[winner],
            y=scores[1 - winner],
        )
    return {"title": _("The end"), "lines": [line]}

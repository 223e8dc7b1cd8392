"""Aton for the web page: the board as SVG and the words around the controls.

The board is drawn from the spectator's observation and the game's printed board (public),
so one drawing per position serves both seats and every spectator; nothing here sees the
state. It shows the scoring
strip, the four temples with their coloured squares and the counters on them, the Kingdom
of the Dead, and each priest's cartouches: empty, then a face-down marker once laid (the
values are secret until both have laid), then the values once revealed. A seat's own hand
and own sealed cartouches are never drawn here; they travel in :func:`page_data`, built from
that seat's observation alone.

Each temple square carries ``data-square="T.S"`` (the text the moves use), so the page
marks the squares of the seat's legal ``remove``/``place`` moves by itself.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from html import escape
from typing import Any

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.aton.i18n import N_, _, ngettext, t
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.board import Board, Square
from karnak.games.aton.rules.state import score_temples
from karnak.games.aton.view import AtonObservation, as_observation, board_of
from karnak.games.aton.web.guide import (
    BLACK_POINTS,
    BLUE_SQUARE_POINTS,
    COLOUR_NAMES,
    TEMPLE_WORTH,
    colour_counts,
    colour_name,
    lead_words,
    leader_of,
    pair_words,
    points_words,
    square_effect,
)
from karnak.i18n import current_language

SEAT_COLOURS = ("#c0392b", "#2764c5")
SEAT_WORDS = ("red", "blue")
#: Written on each counter, so that the priests' counters differ without colour.
SEAT_LETTERS = ("R", "B")
SQUARE_FILLS = {
    "yellow": "#f2d15c",
    "green": "#7cb36a",
    "black": "#3a3530",
    "blue": "#8fc1ee",
    "bonus": "#f8eed3",
}
SQUARE_INKS = {"black": "#f4ead2"}
#: The colours as the legend's tooltips name them.
COLOUR_LEGEND = {
    "yellow": N_("Yellow"),
    "green": N_("Green"),
    "black": N_("Black"),
    "blue": N_("Blue"),
    "bonus": N_("Bonus"),
}

#: What a majority in each temple is worth at a scoring (the rule book's wording, short).
TEMPLE_RULES = (
    N_("majority: the difference"),
    N_("majority: 5 points"),
    N_("majority: 1 per counter"),
    N_("majority: 3 per blue square"),
)
CARTOUCHE_ROLES = (N_("points"), N_("order · remove"), N_("temples"), N_("counters"))
#: What each cartouche does, for its tooltip.
CARTOUCHE_TIPS = (
    N_("the higher card scores twice the difference between the two cards"),
    N_(
        "the lower card plays first; from round 2 it takes off the card minus 2 of the "
        "other's counters (a 1: one of one's own)"
    ),
    N_("temples 1 to the card's value are in reach for removing and placing"),
    N_("that many counters go from the stock onto empty squares in reach"),
)
SCORING_RULES = (
    ("temple 1", N_("Temple 1")),
    ("temple 2", N_("Temple 2")),
    ("temple 3", N_("Temple 3")),
    ("temple 4", N_("Temple 4")),
    ("black squares", N_("Black squares")),
    ("bonus squares", N_("Bonus squares")),
)

WIDTH = 960
MARGIN = 12
STRIP_TOP = 30
STRIP_CELLS = 41  # 0 to 40; a last cell holds scores over 40
CELL_W, CELL_H = 21, 44
TEMPLE_TOP = 118
TEMPLE_W, TEMPLE_GAP = 228, 8
SQUARE, SQUARE_GAP, SQUARE_COLUMNS = 64, 6, 3
TEMPLE_HEAD = 40
KINGDOM_TOP = 470
PLAYERS_TOP = 562
HEIGHT = 760

#: The board carries its own style (scoped to it), so it looks the same inline and alone.
STYLE = """
.aton-board text { font-family: system-ui, sans-serif; font-size: 12px; fill: #3b2f1c; }
.aton-board .label { font-size: 14px; font-weight: 600; }
.aton-board .tiny { font-size: 9px; }
.aton-board .small { font-size: 11px; }
.aton-board .big { font-size: 26px; font-weight: 700; }
.aton-board .panel { fill: #f8eed3; stroke: #9c8a64; }
.aton-board .temple.in-reach > .panel { fill: #fff3b0; stroke: #d49b00; stroke-width: 2.5; }
.aton-board .cell { stroke: #6d5c32; stroke-width: 1; }
.aton-board .strip-cell { fill: #efe2bf; stroke: #9c8a64; }
.aton-board .strip-cell.goal { fill: #e0a800; }
.aton-board .counter { stroke: #fff; stroke-width: 2.5; }
.aton-board .counter-ring { fill: none; stroke: #262626; stroke-width: 1; }
.aton-board .counter-letter { fill: #fff; font-weight: 700; pointer-events: none; }
.aton-board .square.movable { cursor: pointer; }
.aton-board .square.movable .cell { stroke: #ff8c00; stroke-width: 5; }
.aton-board .square.movable:hover .cell { stroke: #c0392b; }
.aton-board .square:focus { outline: none; }
.aton-board .square.movable:focus-visible .cell, .aton-board .square.movable:focus .cell {
  stroke: #1a1a1a; stroke-width: 7; stroke-dasharray: 8 4; }
.aton-board .kingdom-cell { fill: #d9ccb0; stroke: #6d5c32; }
.aton-board .cartouche { fill: #fffaf0; stroke: #7a5b12; stroke-width: 2; }
.aton-board .cartouche.sealed { fill: url(#face-down); }
.aton-board .cartouche.empty { fill: #efe2bf; stroke-dasharray: 5 3; }
.aton-board .exchange { fill: #ffffff; stroke: #555; stroke-width: 1.5; }
.aton-board .exchange.used { fill: #c8bfa8; stroke-dasharray: 3 2; }
"""

DEFS = (
    '<defs><pattern id="face-down" width="10" height="10" patternUnits="userSpaceOnUse" '
    'patternTransform="rotate(45)"><rect width="10" height="10" fill="#7a4d00"/>'
    '<rect width="5" height="10" fill="#9c6a1c"/></pattern></defs>'
)


# ---------------------------------------------------------------------- page data
def page_data(game: Game, view: View, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """The seat's Aton parts of a view, from its own observation and its own legal moves."""
    board = board_of(game)
    obs = as_observation(view)
    data: dict[str, Any] = {
        "scoring_rules": [{"key": k, "label": _(label)} for k, label in SCORING_RULES],
        # public: what a scoring of the temples as they stand would give
        "scoring_now": score_temples(board, obs["temples"]),
        "squares_of_moves": [_square_of(action) for action in legal],
        # each move in a player's words (the move's text stays for the API and terminal)
        "labels": [move_label(board, obs, seat, action) for action in legal],
        "hints": [_hint(board, obs, seat, action) for action in legal],
        "can_exchange": any(isinstance(action, Exchange) for action in legal),
        "can_allocate": any(isinstance(action, Allocate) for action in legal),
        "cartouche_roles": [_(role) for role in CARTOUCHE_ROLES],
        # printed figures the lay-out preview needs (aton.js works out the rest from the
        # public board in the observation and the seat's own hand)
        "win_points": board.win_points,
        # where the board's figures come from: behind the page's "about these figures"
        "about_figures": about_figures(board),
    }
    you = obs.get("you")
    if you is not None:
        data["hand"] = list(you["hand"])
        data["cartouches"] = you["cartouches"]
    return data


def about_figures(board: Board) -> list[str]:
    """Where the board's figures come from, in a few sentences (not a play tooltip)."""
    levels = set(board.confidence.values())
    lines = []
    if "reconstructed" in levels:
        lines.append(
            _(
                "The colours of the temple squares are our reconstruction: no rule book we "
                "could read prints the board. Only how many squares of each colour a temple "
                "has matters to the rules, and those counts follow the rule book."
            )
        )
    if "one source" in levels:
        lines.append(
            _(
                "Some figures (such as the number of cards of each value) come from a single "
                "rule book or review."
            )
        )
    lines.append(
        _(
            "With the printed board at hand you can correct the figures: the terminal's "
            "board command prints them, and a corrected file is loaded with --board FILE."
        )
    )
    return lines


def _square_of(action: Action) -> str | None:
    if isinstance(action, Remove | Place):
        return f"{action.temple}.{action.square}"
    return None


def _square_words(board: Board, temple: int, square: int) -> str:
    spot = board.temples[temple - 1][square - 1]
    return t(
        "temple {t}, square {s} ({colour})",
        t=temple,
        s=square,
        colour=colour_name(spot.colour, spot.bonus),
    )


def move_label(board: Board, obs: AtonObservation, seat: int | None, action: Action) -> str:
    """What a move's button says: the move in a player's words."""
    if isinstance(action, Exchange):
        return _("Exchange your four cards for four new ones (once a game)")
    if isinstance(action, Allocate):
        return t("Lay out {cards} on cartouches 1 to 4", cards=" ".join(map(str, action.cards)))
    if not isinstance(action, Place | Remove):
        return action.to_text()
    spot = board.temples[action.temple - 1][action.square - 1]
    where = {
        "t": action.temple,
        "s": action.square,
        "colour": colour_name(spot.colour, spot.bonus),
    }
    if isinstance(action, Place):
        return t("Place a counter on temple {t}, square {s} ({colour})", **where)
    if isinstance(action, Remove):
        occupant = obs["temples"][action.temple - 1][action.square - 1]
        if obs["phase"] == "cleanup":
            return t("Take back your counter from temple {t}, square {s} ({colour})", **where)
        if occupant == seat or occupant not in (0, 1):
            return t("Remove your own counter from temple {t}, square {s} ({colour})", **where)
        return t(
            "Remove {who}'s counter from temple {t}, square {s} ({colour})",
            who=obs["players"][occupant]["name"],
            **where,
        )
    return action.to_text()


def _hint(board: Board, obs: AtonObservation, seat: int | None, action: Action) -> str:
    if isinstance(action, Exchange):
        return _("hand in your exchange counter: discard these four cards, draw four new ones")
    if isinstance(action, Allocate):
        return t(
            "cartouches 1-4: {roles}",
            roles=", ".join(
                f"{_(role)} {card}"
                for role, card in zip(CARTOUCHE_ROLES, action.cards, strict=True)
            ),
        )
    if isinstance(action, Place):
        where = _square_words(board, action.temple, action.square)
        return t(
            "place a counter on {where}: {effect}",
            where=where,
            effect=square_effect(board, obs, action),
        )
    if isinstance(action, Remove):
        where = _square_words(board, action.temple, action.square)
        effect = square_effect(board, obs, action)
        occupant = obs["temples"][action.temple - 1][action.square - 1]
        if obs["phase"] == "cleanup":
            return t("take back your counter from {where}: {effect}", where=where, effect=effect)
        if occupant == seat or occupant not in (0, 1):
            return t(
                "send your own counter from {where} to the Kingdom of the Dead: {effect}",
                where=where,
                effect=effect,
            )
        return t(
            "send {who}'s counter from {where} to the Kingdom of the Dead: {effect}",
            who=obs["players"][occupant]["name"],
            where=where,
            effect=effect,
        )
    return action.to_text()


# ---------------------------------------------------------------------- the board
def _tip(text: str) -> str:
    """A ``data-tip`` attribute (the page shows it on hover, focus and long press)."""
    return f' data-tip="{escape(text, quote=True)}"'


def _text(
    x: float, y: float, content: str, cls: str = "", anchor: str = "start", tip: str = ""
) -> str:
    klass = f' class="{cls}"' if cls else ""
    tipped = _tip(tip) if tip else ""
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}"{klass}{tipped}>'
        f"{escape(content)}</text>"
    )


def _counter(cx: float, cy: float, seat: int, r: float = 14) -> str:
    """A priest's counter: its colour and its letter (R, B), so it reads without colour."""
    size = max(8, round(r * 1.1))
    return (
        f'<g class="piece seat-{seat}"><circle cx="{cx:.0f}" cy="{cy:.0f}" r="{r:.0f}" '
        f'fill="{SEAT_COLOURS[seat]}" class="counter"/>'
        f'<circle cx="{cx:.0f}" cy="{cy:.0f}" r="{r + 1.5:.1f}" class="counter-ring"/>'
        f'<text x="{cx:.0f}" y="{cy + size * 0.36:.1f}" text-anchor="middle" '
        f'class="counter-letter" style="font-size:{size}px">{SEAT_LETTERS[seat]}</text></g>'
    )


def board_svg(game: Game, public_view: View) -> str:
    """The board as everyone sees it, drawn from the spectator's observation."""
    board = board_of(game)
    obs = as_observation(public_view)
    names = tuple(p["name"] for p in obs["players"])
    board_label = _("Aton board")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        # a group, not an image: the squares inside become buttons for the seat to move
        'class="board aton-board" role="group" '
        f'aria-label="{escape(board_label, quote=True)}">',
        f"<style>{STYLE}</style>",
        DEFS,
    ]
    parts.extend(_strip(obs, board.win_points))
    reach = obs["reach"] or 0
    blue = tuple(colour_counts(board, obs["temples"], "blue"))
    for ti, squares in enumerate(board.temples):
        parts.append(
            _temple(
                ti,
                squares,
                tuple(obs["temples"][ti]),
                ti < reach,
                names,
                # only temple 4's worth depends on squares elsewhere (the blue ones)
                blue if ti == 3 else (0, 0),
                _colour_totals(board),
                # the drawing is in the reader's language: remembered per language (by its
                # code: "Temple {n}" reads the same in English and French)
                current_language(),
            )
        )
    parts.extend(_kingdom(obs, board))
    for seat in range(2):
        parts.extend(_player(obs, seat, board.cards_per_value))
    parts.append("</svg>")
    return "".join(parts)


def _colour_totals(board: Board) -> tuple[tuple[str, int], ...]:
    return tuple((colour, len(board.squares_of(colour))) for colour in SQUARE_FILLS)


def _strip(obs: AtonObservation, win_points: int) -> list[str]:
    """The scoring strip 0 to 40, and a last cell for more; markers red above, blue below."""
    names = [p["name"] for p in obs["players"]]
    scores = [p["score"] for p in obs["players"]]
    strip_tip = t(
        "The scoring strip: {a} {x}, {b} {y}. {target} points win at once when reached at "
        "cartouche 1 or 4; reached in a scoring, the game ends after it and the most points "
        "win.",
        a=names[0],
        x=scores[0],
        b=names[1],
        y=scores[1],
        target=win_points,
    )
    parts = [
        f'<g class="strip"{_tip(strip_tip)}>',
        _text(MARGIN, STRIP_TOP - 10, _("Scoring strip"), "label"),
    ]
    summary = " · ".join(f"{p['name']} {p['score']}" for p in obs["players"])
    parts.append(_text(WIDTH - MARGIN, STRIP_TOP - 10, summary, "label", "end"))
    cells = STRIP_CELLS + 1
    for cell in range(cells):
        x = MARGIN + cell * (CELL_W + 1)
        width = WIDTH - MARGIN - x if cell == cells - 1 else CELL_W
        goal = " goal" if cell == STRIP_CELLS - 1 else ""
        parts.append(
            f'<rect x="{x}" y="{STRIP_TOP}" width="{width}" height="{CELL_H}" '
            f'class="strip-cell{goal}"/>'
        )
        if cell == cells - 1:
            parts.append(
                _text(
                    x + width / 2,
                    STRIP_TOP + CELL_H + 14,
                    t("over {n}", n=STRIP_CELLS - 1),
                    "tiny",
                    "middle",
                )
            )
        elif cell % 5 == 0:
            parts.append(_text(x + CELL_W / 2, STRIP_TOP + CELL_H + 14, str(cell), "", "middle"))
    parts.append("</g>")
    for seat, score in enumerate(scores):
        cell = min(score, STRIP_CELLS)
        x = MARGIN + cell * (CELL_W + 1)
        cx = x + (WIDTH - MARGIN - x) / 2 if cell == STRIP_CELLS else x + CELL_W / 2
        cy = STRIP_TOP + 12 + seat * 20
        short = max(0, win_points - score)
        if short:
            tip = t(
                "{who}: {points}, {short} short of {target}",
                who=names[seat],
                points=points_words(score),
                short=short,
                target=win_points,
            )
        else:
            tip = t(
                "{who}: {points}, {target} reached",
                who=names[seat],
                points=points_words(score),
                target=win_points,
            )
        parts.append(
            f'<g class="score-marker seat-{seat}" data-score="{score}"{_tip(tip)}>'
            + _counter(cx, cy, seat, 8)
            + (_text(cx + 14, cy + 4, str(score), "small") if score > STRIP_CELLS - 1 else "")
            + "</g>"
        )
    return parts


@functools.lru_cache(maxsize=4096)
def _temple(
    ti: int,
    squares: tuple[Square, ...],
    occupants: tuple[int, ...],
    in_reach: bool,
    names: tuple[str, ...],
    blue_held: tuple[int, ...],
    colour_totals: tuple[tuple[str, int], ...],
    language: str,
) -> str:
    """One temple, remembered: most temples look the same after a move (``language``, the
    reader's, keeps each language's drawing apart)."""
    x0 = MARGIN + ti * (TEMPLE_W + TEMPLE_GAP)
    y0 = TEMPLE_TOP
    rows = -(-len(squares) // SQUARE_COLUMNS)
    height = TEMPLE_HEAD + rows * (SQUARE + SQUARE_GAP) + 6
    klass = "temple in-reach" if in_reach else "temple"
    counts = [occupants.count(0), occupants.count(1)]
    head_tip = _temple_tip(ti, counts, occupants, in_reach, names, blue_held)
    parts = [
        f'<g class="{klass}" data-temple="{ti + 1}">',
        f'<g class="temple-head"{_tip(head_tip)}>',
        f'<rect x="{x0}" y="{y0}" width="{TEMPLE_W}" height="{height}" rx="8" class="panel"/>',
        _text(x0 + 10, y0 + 18, t("Temple {n}", n=ti + 1), "label"),
        _text(
            x0 + TEMPLE_W - 10,
            y0 + 18,
            f"{SEAT_LETTERS[0]} {counts[0]} : {counts[1]} {SEAT_LETTERS[1]}",
            "label",
            "end",
        ),
        _text(x0 + 10, y0 + 33, _(TEMPLE_RULES[ti]), "small"),
        "</g>",
    ]
    totals = dict(colour_totals)
    left = x0 + (TEMPLE_W - SQUARE_COLUMNS * SQUARE - (SQUARE_COLUMNS - 1) * SQUARE_GAP) / 2
    for s, spot in enumerate(squares):
        x = left + (s % SQUARE_COLUMNS) * (SQUARE + SQUARE_GAP)
        y = y0 + TEMPLE_HEAD + (s // SQUARE_COLUMNS) * (SQUARE + SQUARE_GAP)
        parts.append(_square(ti, s, spot, occupants[s], x, y, names, totals))
    parts.append("</g>")
    return "".join(parts)


def _temple_tip(
    ti: int,
    counts: list[int],
    occupants: tuple[int, ...],
    in_reach: bool,
    names: tuple[str, ...],
    blue_held: tuple[int, ...],
) -> str:
    """A temple's majority in words: the counters, who leads, what that is worth now."""
    leader = leader_of(counts)
    free = occupants.count(-1)
    text = t(
        "Temple {t}: at a scoring its majority scores {worth}.",
        t=ti + 1,
        worth=_(TEMPLE_WORTH[ti]),
    )
    if leader is None:
        if not counts[0]:
            text += " " + _("No counters here yet.")
        else:
            text += " " + t("Tied at {n}: nobody.", n=counts[0])
    else:
        if ti == 0:
            worth = abs(counts[0] - counts[1])
        elif ti == 1:
            worth = 5
        elif ti == 2:
            worth = counts[leader]
        else:
            worth = BLUE_SQUARE_POINTS * blue_held[leader]
        text += " " + t(
            "{pair}: {lead}, worth {points} now.",
            pair=pair_words(names, counts),
            lead=lead_words(names, counts),
            points=points_words(worth),
        )
    text += " " + ngettext("{n} empty square.", "{n} empty squares.", free).format(n=free)
    if in_reach:
        text += " " + _("In reach this turn.")
    return text


def _colour_meaning(spot: Square, totals: dict[str, int]) -> str:
    if spot.colour == "yellow":
        return t(
            "holding all {n} yellow squares of the four temples wins at once",
            n=totals["yellow"],
        )
    if spot.colour == "green":
        return t(
            "holding all {n} green squares of the four temples wins at once",
            n=totals["green"],
        )
    if spot.colour == "black":
        return t(
            "the priest holding more of the {n} black squares scores {points} at a scoring",
            n=totals["black"],
            points=BLACK_POINTS,
        )
    if spot.colour == "blue":
        return t(
            "temple 4's majority scores {points} for each of the {n} blue squares it holds",
            points=BLUE_SQUARE_POINTS,
            n=totals["blue"],
        )
    return t("whoever holds it scores +{n} at each scoring", n=spot.bonus)


def _square(
    ti: int,
    s: int,
    spot: Square,
    occupant: int,
    x: float,
    y: float,
    names: tuple[str, ...],
    totals: dict[str, int],
) -> str:
    colour = colour_name(spot.colour, spot.bonus)
    who = SEAT_WORDS[occupant] if occupant in (0, 1) else "empty"
    ink = SQUARE_INKS.get(spot.colour, "#3b2f1c")
    if occupant in (0, 1):
        tip = t(
            "Temple {t}, square {s}: {colour}; {who}'s counter. It counts toward temple {t}'s "
            "majority; {meaning}.",
            t=ti + 1,
            s=s + 1,
            colour=colour,
            who=names[occupant],
            meaning=_colour_meaning(spot, totals),
        )
    else:
        tip = t(
            "Temple {t}, square {s}: {colour}; empty. It counts toward temple {t}'s majority; "
            "{meaning}.",
            t=ti + 1,
            s=s + 1,
            colour=colour,
            meaning=_colour_meaning(spot, totals),
        )
    parts = [
        f'<g class="square {spot.colour}" data-square="{ti + 1}.{s + 1}" data-temple="{ti + 1}" '
        f'data-colour="{spot.colour}" data-occupant="{who}"{_tip(tip)}>',
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{SQUARE}" height="{SQUARE}" rx="6" '
        f'fill="{SQUARE_FILLS[spot.colour]}" class="cell"/>',
        f'<text x="{x + 5:.0f}" y="{y + 12:.0f}" class="tiny" style="fill:{ink}">'
        f"{ti + 1}.{s + 1}</text>",
    ]
    if spot.colour == "bonus":
        parts.append(
            f'<text x="{x + SQUARE - 5:.0f}" y="{y + SQUARE - 6:.0f}" text-anchor="end" '
            f'class="label" style="fill:#7a4d00">+{spot.bonus}</text>'
        )
    if occupant in (0, 1):
        parts.append(_counter(x + SQUARE / 2, y + SQUARE / 2 + 2, occupant))
    parts.append("</g>")
    return "".join(parts)


def _kingdom(obs: AtonObservation, board: Board) -> list[str]:
    size = obs["kingdom_squares"]
    filled = obs["kingdom"]
    names = [p["name"] for p in obs["players"]]
    tip = t(
        "The Kingdom of the Dead: {held} of {size} squares taken ({a} {x}, {b} {y}). Counters "
        "taken off the temples come here, and so do counters that find no empty square in "
        "reach. When it is full, the round is played out and then the temples are scored; "
        "after that its counters go back to their owners' stocks.",
        held=len(filled),
        size=size,
        a=names[0],
        x=filled.count(0),
        b=names[1],
        y=filled.count(1),
    )
    if len(filled) >= size:
        tip += " " + _("It is full: counters that would come here go back to their stock.")
    parts = [
        f'<g class="kingdom"{_tip(tip)}>',
        _text(
            MARGIN,
            KINGDOM_TOP - 8,
            t("Kingdom of the Dead ({held}/{size})", held=len(filled), size=size),
            "label",
        ),
    ]
    cell, gap = 48, 6
    for k in range(size):
        x = MARGIN + k * (cell + gap)
        if k < len(filled):
            square_tip = t(
                "Kingdom of the Dead, square {k} of {size}: {who}'s counter.",
                k=k + 1,
                size=size,
                who=names[filled[k]],
            )
        else:
            square_tip = t("Kingdom of the Dead, square {k} of {size}: empty.", k=k + 1, size=size)
        parts.append(
            f'<g class="kingdom-square" data-kingdom="{k + 1}"{_tip(square_tip)}>'
            f'<rect x="{x}" y="{KINGDOM_TOP}" width="{cell}" height="{cell}" rx="6" '
            'class="kingdom-cell"/>'
        )
        if k < len(filled):
            parts.append(_counter(x + cell / 2, KINGDOM_TOP + cell / 2, filled[k], 13))
        parts.append("</g>")
    parts.append("</g>")
    # the state of the round, on the right
    x = MARGIN + size * (cell + gap) + 24
    lines = [t("Round {round}: {phase}", round=obs["round"], phase=obs["phase_name"])]
    if obs["order"] is not None:
        lines.append(t("{who} goes first this round", who=obs["players"][obs["order"][0]]["name"]))
    if obs["reach"] is not None and obs["to_move"]:
        mover = obs["players"][obs["to_move"][0]]["name"]
        words = {"who": mover, "n": obs["pending"], "reach": obs["reach"]}
        if obs["phase"] == "remove":
            lines.append(t("{who} removes {n} more, temples 1 to {reach}", **words))
        else:
            lines.append(t("{who} places {n} more, temples 1 to {reach}", **words))
    if obs["winner"] is not None:
        lines.append(
            t(
                "{who} wins: {reason}",
                who=obs["players"][obs["winner"]]["name"],
                reason=obs["win_reason"],
            )
        )
    elif obs["over"]:
        lines.append(_("The game is over."))
    for i, line in enumerate(lines):
        parts.append(_text(x, KINGDOM_TOP + 12 + 17 * i, line, "label" if i == 0 else ""))
    # the colours, as a legend, each with who holds how many
    lx = x
    ly = KINGDOM_TOP + 12 + 17 * len(lines) + 4
    for colour, fill in SQUARE_FILLS.items():
        spots = board.squares_of(colour)
        held = colour_counts(board, obs["temples"], colour)
        meaning = _colour_meaning(Square(colour, 1), dict(_colour_totals(board)))
        if colour == "bonus":
            meaning = _("whoever holds one scores its +1 or +2 at each scoring")
        name = _(COLOUR_LEGEND[colour])
        tip = t(
            "{colour} squares: {n} on the board; {pair}. {meaning}.",
            colour=name,
            n=len(spots),
            pair=pair_words(names, held),
            meaning=meaning[0].upper() + meaning[1:],
        )
        parts.append(
            f'<g class="legend" data-colour="{colour}"{_tip(tip)}>'
            f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{fill}" '
            'stroke="#6d5c32"/>' + _text(lx + 16, ly, _(COLOUR_NAMES[colour]), "small") + "</g>"
        )
        lx += 24 + 8 * max(len(colour), len(_(COLOUR_NAMES[colour])))
    return parts


def _player(obs: AtonObservation, seat: int, cards_per_value: int) -> list[str]:
    """A priest's area: name, score, stock, exchange counter, piles and four cartouches."""
    player = obs["players"][seat]
    name = player["name"]
    other = obs["players"][1 - seat]["name"]
    half = (WIDTH - 2 * MARGIN - 12) / 2
    x0 = MARGIN + seat * (half + 12)
    y0 = PLAYERS_TOP
    height = HEIGHT - y0 - 8
    first = obs["order"] is not None and obs["order"][0] == seat and not obs["over"]
    if seat == 0:
        priest_tip = t("{who} plays red: counters marked {letter}.", who=name, letter="R")
    else:
        priest_tip = t("{who} plays blue: counters marked {letter}.", who=name, letter="B")
    parts = [
        f'<g class="player seat-{seat}" data-seat="{seat}">',
        f'<rect x="{x0:.0f}" y="{y0}" width="{half:.0f}" height="{height}" rx="8" '
        f'class="panel" style="stroke:{SEAT_COLOURS[seat]};stroke-width:3"/>',
        f'<g class="priest"{_tip(priest_tip)}>',
        _counter(x0 + 20, y0 + 20, seat, 9),
        _text(
            x0 + 36,
            y0 + 25,
            t("{who} · goes first", who=name) if first else name,
            "label",
        ),
        "</g>",
        _text(
            x0 + half - 12,
            y0 + 25,
            points_words(player["score"]),
            "label",
            "end",
            t("{who}: {points}.", who=name, points=points_words(player["score"])),
        ),
    ]
    shown = {int(v): n for v, n in player["discards"].items()}
    face_down = player["discards_face_down"]
    discards = sum(shown.values()) + face_down
    shown_words = ", ".join(t("{n} of value {v}", n=n, v=v) for v, n in sorted(shown.items())) or _(
        "none"
    )
    stock, pile, hand = player["stock"], player["pile"], player["hand"]
    if face_down:
        # one more item of the list of what the discards hold
        shown_words += "; " + ngettext(
            "{n} given up face down in the exchange",
            "{n} given up face down in the exchange",
            face_down,
        ).format(n=face_down)
    discard_tip = ngettext(
        "{who}'s discards: {n} card. Shown: {shown}.",
        "{who}'s discards: {n} cards. Shown: {shown}.",
        discards,
    ).format(who=name, n=discards, shown=shown_words)
    discard_tip += " " + t("{other} has not seen the rest of {who}'s cards.", other=other, who=name)
    tips = {
        "stock": ngettext(
            "{who}'s stock: {n} counter off the board; cartouche 4 places counters from here.",
            "{who}'s stock: {n} counters off the board; cartouche 4 places counters from here.",
            stock,
        ).format(who=name, n=stock),
        "pile": ngettext(
            "{who}'s pile: {n} card face down (values 1 to 4, {each} of each in all). When it "
            "runs out, the discards are shuffled into a new pile.",
            "{who}'s pile: {n} cards face down (values 1 to 4, {each} of each in all). When it "
            "runs out, the discards are shuffled into a new pile.",
            pile,
        ).format(who=name, n=pile, each=cards_per_value),
        "hand": ngettext(
            "{who} holds {n} card; only {who} sees it.",
            "{who} holds {n} cards; only {who} sees them.",
            hand,
        ).format(who=name, n=hand),
        "discards": discard_tip,
    }
    words = {
        "stock": ngettext("stock {n} counter", "stock {n} counters", stock).format(n=stock),
        "pile": ngettext("pile {n} card", "pile {n} cards", pile).format(n=pile),
        "hand": t("hand {n}", n=hand),
        "discards": t("discards {n}", n=discards),
    }
    spans = " · ".join(
        f'<tspan class="{key}"{_tip(tips[key])}>{escape(words[key])}</tspan>' for key in words
    )
    parts.append(f'<text x="{x0 + 12:.0f}" y="{y0 + 46}" class="small">{spans}</text>')
    used = player["exchange_used"]
    ex, ey = x0 + half - 24, y0 + 44
    exchange_tip = (
        t("{who}'s exchange counter: used.", who=name)
        if used
        else t(
            "{who}'s exchange counter: still available. Once in the game, before laying out, "
            "it swaps the four cards drawn for four others.",
            who=name,
        )
    )
    # TRANSLATORS: the two letters written on the exchange counter of the board
    exchange_mark = _("ex")
    parts.append(
        f'<g class="exchange-counter" data-used="{str(used).lower()}"{_tip(exchange_tip)}>'
        f'<circle cx="{ex:.0f}" cy="{ey}" r="11" class="exchange{" used" if used else ""}"/>'
        f'<text x="{ex:.0f}" y="{ey + 4}" text-anchor="middle" class="tiny">'
        f"{escape(exchange_mark)}</text>"
        + _text(ex - 16, ey + 4, _("exchange used") if used else _("exchange"), "tiny", "end")
        + "</g>"
    )
    cards = player["cartouches"]
    committed = player["committed"]
    card_w, card_h, gap = 92, 100, 12
    sealed_word = _("sealed")
    left = x0 + (half - 4 * card_w - 3 * gap) / 2
    top = y0 + 64
    for c in range(4):
        x = left + c * (card_w + gap)
        if cards is not None:
            state, klass = "revealed", "cartouche"
            laid = t("{who} laid a {card}.", who=name, card=cards[c])
        elif committed:
            state, klass = "sealed", "cartouche sealed"
            laid = t("{who}'s card lies face down until both priests have laid.", who=name)
        else:
            state, klass = "empty", "cartouche empty"
            laid = _("Nothing laid yet this round.")
        tip = t(
            "Cartouche {c} ({role}): {what}. {laid}",
            c=c + 1,
            role=_(CARTOUCHE_ROLES[c]),
            what=_(CARTOUCHE_TIPS[c]),
            laid=laid,
        )
        parts.append(
            f'<g class="cartouche-slot" data-seat="{seat}" data-cartouche="{c + 1}" '
            f'data-state="{state}"{_tip(tip)}>'
            f'<rect x="{x:.0f}" y="{top}" width="{card_w}" height="{card_h}" rx="30" '
            f'class="{klass}"/>'
        )
        parts.append(
            _text(
                x + card_w / 2,
                top + card_h + 14,
                f"{c + 1}: {_(CARTOUCHE_ROLES[c])}",
                "tiny",
                "middle",
            )
        )
        if cards is not None:
            parts.append(
                _text(x + card_w / 2, top + card_h / 2 + 10, str(cards[c]), "big", "middle")
            )
        elif committed:
            parts.append(
                f'<text x="{x + card_w / 2:.0f}" y="{top + card_h / 2 + 4:.0f}" '
                'text-anchor="middle" class="small" style="fill:#fff">'
                f"{escape(sealed_word)}</text>"
            )
        parts.append("</g>")
    parts.append("</g>")
    return parts

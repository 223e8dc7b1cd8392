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
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.board import Board, Square
from karnak.games.aton.rules.state import score_temples
from karnak.games.aton.view import AtonObservation, as_observation, board_of
from karnak.games.aton.web.guide import (
    BLACK_POINTS,
    BLUE_SQUARE_POINTS,
    TEMPLE_WORTH,
    colour_counts,
    lead_words,
    leader_of,
    pair_words,
    plural,
    square_effect,
)

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

#: What a majority in each temple is worth at a scoring (the rule book's wording, short).
TEMPLE_RULES = (
    "majority: the difference",
    "majority: 5 points",
    "majority: 1 per counter",
    "majority: 3 per blue square",
)
CARTOUCHE_ROLES = ("points", "order · remove", "temples", "counters")
#: What each cartouche does, for its tooltip.
CARTOUCHE_TIPS = (
    "the higher card scores twice the difference between the two cards",
    "the lower card plays first; from round 2 it takes off the card minus 2 of the "
    "other's counters (a 1: one of one's own)",
    "temples 1 to the card's value are in reach for removing and placing",
    "that many counters go from the stock onto empty squares in reach",
)
SCORING_RULES = (
    ("temple 1", "Temple 1"),
    ("temple 2", "Temple 2"),
    ("temple 3", "Temple 3"),
    ("temple 4", "Temple 4"),
    ("black squares", "Black squares"),
    ("bonus squares", "Bonus squares"),
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
        "scoring_rules": [{"key": k, "label": label} for k, label in SCORING_RULES],
        # public: what a scoring of the temples as they stand would give
        "scoring_now": score_temples(board, obs["temples"]),
        "squares_of_moves": [_square_of(action) for action in legal],
        "hints": [_hint(board, obs, seat, action) for action in legal],
        "can_exchange": any(isinstance(action, Exchange) for action in legal),
        "can_allocate": any(isinstance(action, Allocate) for action in legal),
        "cartouche_roles": list(CARTOUCHE_ROLES),
        # printed figures the lay-out preview needs (aton.js works out the rest from the
        # public board in the observation and the seat's own hand)
        "win_points": board.win_points,
    }
    you = obs.get("you")
    if you is not None:
        data["hand"] = list(you["hand"])
        data["cartouches"] = you["cartouches"]
    return data


def _square_of(action: Action) -> str | None:
    if isinstance(action, Remove | Place):
        return f"{action.temple}.{action.square}"
    return None


def _square_words(board: Board, temple: int, square: int) -> str:
    spot = board.temples[temple - 1][square - 1]
    colour = f"bonus +{spot.bonus}" if spot.colour == "bonus" else spot.colour
    return f"temple {temple}, square {square} ({colour})"


def _hint(board: Board, obs: AtonObservation, seat: int | None, action: Action) -> str:
    if isinstance(action, Exchange):
        return "hand in your exchange counter: discard these four cards, draw four new ones"
    if isinstance(action, Allocate):
        return "cartouches 1-4: " + ", ".join(
            f"{role} {card}" for role, card in zip(CARTOUCHE_ROLES, action.cards, strict=True)
        )
    if isinstance(action, Place):
        where = _square_words(board, action.temple, action.square)
        return f"place a counter on {where}: {square_effect(board, obs, action)}"
    if isinstance(action, Remove):
        where = _square_words(board, action.temple, action.square)
        effect = square_effect(board, obs, action)
        occupant = obs["temples"][action.temple - 1][action.square - 1]
        if obs["phase"] == "cleanup":
            return f"take back your counter from {where}: {effect}"
        if occupant == seat:
            return f"send your own counter from {where} to the Kingdom of the Dead: {effect}"
        owner = obs["players"][occupant]["name"] if occupant in (0, 1) else "the"
        return f"send {owner}'s counter from {where} to the Kingdom of the Dead: {effect}"
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
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        # a group, not an image: the squares inside become buttons for the seat to move
        'class="board aton-board" role="group" aria-label="Aton board">',
        f"<style>{STYLE}</style>",
        DEFS,
    ]
    parts.extend(_strip(obs, board.win_points))
    reach = obs["reach"] or 0
    blue = tuple(colour_counts(board, obs["temples"], "blue"))
    for t, squares in enumerate(board.temples):
        parts.append(
            _temple(
                t,
                squares,
                tuple(obs["temples"][t]),
                t < reach,
                names,
                # only temple 4's worth depends on squares elsewhere (the blue ones)
                blue if t == 3 else (0, 0),
                _colour_totals(board),
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
    strip_tip = (
        f"The scoring strip: {names[0]} {scores[0]}, {names[1]} {scores[1]}. "
        f"{win_points} points win at once when reached at cartouche 1 or 4; "
        "reached in a scoring, the game ends after it and the most points win."
    )
    parts = [
        f'<g class="strip"{_tip(strip_tip)}>',
        _text(MARGIN, STRIP_TOP - 10, "Scoring strip", "label"),
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
            parts.append(_text(x + width / 2, STRIP_TOP + CELL_H + 14, "over 40", "tiny", "middle"))
        elif cell % 5 == 0:
            parts.append(_text(x + CELL_W / 2, STRIP_TOP + CELL_H + 14, str(cell), "", "middle"))
    parts.append("</g>")
    for seat, score in enumerate(scores):
        cell = min(score, STRIP_CELLS)
        x = MARGIN + cell * (CELL_W + 1)
        cx = x + (WIDTH - MARGIN - x) / 2 if cell == STRIP_CELLS else x + CELL_W / 2
        cy = STRIP_TOP + 12 + seat * 20
        short = max(0, win_points - score)
        tip = f"{names[seat]}: {plural(score, 'point')}" + (
            f", {short} short of {win_points}" if short else f", {win_points} reached"
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
    t: int,
    squares: tuple[Square, ...],
    occupants: tuple[int, ...],
    in_reach: bool,
    names: tuple[str, ...],
    blue_held: tuple[int, ...],
    colour_totals: tuple[tuple[str, int], ...],
) -> str:
    """One temple, remembered: most temples look the same after a move."""
    x0 = MARGIN + t * (TEMPLE_W + TEMPLE_GAP)
    y0 = TEMPLE_TOP
    rows = -(-len(squares) // SQUARE_COLUMNS)
    height = TEMPLE_HEAD + rows * (SQUARE + SQUARE_GAP) + 6
    klass = "temple in-reach" if in_reach else "temple"
    counts = [occupants.count(0), occupants.count(1)]
    head_tip = _temple_tip(t, counts, occupants, in_reach, names, blue_held)
    parts = [
        f'<g class="{klass}" data-temple="{t + 1}">',
        f'<g class="temple-head"{_tip(head_tip)}>',
        f'<rect x="{x0}" y="{y0}" width="{TEMPLE_W}" height="{height}" rx="8" class="panel"/>',
        _text(x0 + 10, y0 + 18, f"Temple {t + 1}", "label"),
        _text(
            x0 + TEMPLE_W - 10,
            y0 + 18,
            f"{SEAT_LETTERS[0]} {counts[0]} : {counts[1]} {SEAT_LETTERS[1]}",
            "label",
            "end",
        ),
        _text(x0 + 10, y0 + 33, TEMPLE_RULES[t], "small"),
        "</g>",
    ]
    totals = dict(colour_totals)
    left = x0 + (TEMPLE_W - SQUARE_COLUMNS * SQUARE - (SQUARE_COLUMNS - 1) * SQUARE_GAP) / 2
    for s, spot in enumerate(squares):
        x = left + (s % SQUARE_COLUMNS) * (SQUARE + SQUARE_GAP)
        y = y0 + TEMPLE_HEAD + (s // SQUARE_COLUMNS) * (SQUARE + SQUARE_GAP)
        parts.append(_square(t, s, spot, occupants[s], x, y, names, totals))
    parts.append("</g>")
    return "".join(parts)


def _temple_tip(
    t: int,
    counts: list[int],
    occupants: tuple[int, ...],
    in_reach: bool,
    names: tuple[str, ...],
    blue_held: tuple[int, ...],
) -> str:
    """A temple's majority in words: the counters, who leads, what that is worth now."""
    leader = leader_of(counts)
    free = occupants.count(-1)
    text = f"Temple {t + 1}: at a scoring its majority scores {TEMPLE_WORTH[t]}. "
    if leader is None:
        text += "No counters here yet." if not counts[0] else f"Tied at {counts[0]}: nobody."
    else:
        if t == 0:
            worth = abs(counts[0] - counts[1])
        elif t == 1:
            worth = 5
        elif t == 2:
            worth = counts[leader]
        else:
            worth = BLUE_SQUARE_POINTS * blue_held[leader]
        text += (
            f"{pair_words(names, counts)}: {lead_words(names, counts)}, "
            f"worth {plural(worth, 'point')} now."
        )
    text += f" {plural(free, 'empty square')}."
    if in_reach:
        text += " In reach this turn."
    return text


def _colour_meaning(spot: Square, totals: dict[str, int]) -> str:
    if spot.colour in ("yellow", "green"):
        return (
            f"holding all {totals[spot.colour]} {spot.colour} squares of the four temples "
            "wins at once"
        )
    if spot.colour == "black":
        return (
            f"the priest holding more of the {totals['black']} black squares scores "
            f"{BLACK_POINTS} at a scoring"
        )
    if spot.colour == "blue":
        return (
            f"temple 4's majority scores {BLUE_SQUARE_POINTS} for each of the "
            f"{totals['blue']} blue squares it holds"
        )
    return f"whoever holds it scores +{spot.bonus} at each scoring"


def _square(
    t: int,
    s: int,
    spot: Square,
    occupant: int,
    x: float,
    y: float,
    names: tuple[str, ...],
    totals: dict[str, int],
) -> str:
    colour = f"bonus +{spot.bonus}" if spot.colour == "bonus" else spot.colour
    who = SEAT_WORDS[occupant] if occupant in (0, 1) else "empty"
    ink = SQUARE_INKS.get(spot.colour, "#3b2f1c")
    holder = f"{names[occupant]}'s counter" if occupant in (0, 1) else "empty"
    tip = (
        f"Temple {t + 1}, square {s + 1}: {colour}; {holder}. It counts toward temple "
        f"{t + 1}'s majority; {_colour_meaning(spot, totals)}."
    )
    parts = [
        f'<g class="square {spot.colour}" data-square="{t + 1}.{s + 1}" data-temple="{t + 1}" '
        f'data-colour="{spot.colour}" data-occupant="{who}"{_tip(tip)}>',
        f'<rect x="{x:.0f}" y="{y:.0f}" width="{SQUARE}" height="{SQUARE}" rx="6" '
        f'fill="{SQUARE_FILLS[spot.colour]}" class="cell"/>',
        f'<text x="{x + 5:.0f}" y="{y + 12:.0f}" class="tiny" style="fill:{ink}">'
        f"{t + 1}.{s + 1}</text>",
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
    tip = (
        f"The Kingdom of the Dead: {len(filled)} of {size} squares taken "
        f"({names[0]} {filled.count(0)}, {names[1]} {filled.count(1)}). Counters taken off "
        "the temples come here, and so do counters that find no empty square in reach. "
        "When it is full, the round is played out and then the temples are scored; after "
        "that its counters go back to their owners' stocks."
    )
    if len(filled) >= size:
        tip += " It is full: counters that would come here go back to their stock."
    parts = [
        f'<g class="kingdom"{_tip(tip)}>',
        _text(MARGIN, KINGDOM_TOP - 8, f"Kingdom of the Dead ({len(filled)}/{size})", "label"),
    ]
    cell, gap = 48, 6
    for k in range(size):
        x = MARGIN + k * (cell + gap)
        holder = f"{names[filled[k]]}'s counter" if k < len(filled) else "empty"
        parts.append(
            f'<g class="kingdom-square" data-kingdom="{k + 1}"'
            f"{_tip(f'Kingdom of the Dead, square {k + 1} of {size}: {holder}.')}>"
            f'<rect x="{x}" y="{KINGDOM_TOP}" width="{cell}" height="{cell}" rx="6" '
            'class="kingdom-cell"/>'
        )
        if k < len(filled):
            parts.append(_counter(x + cell / 2, KINGDOM_TOP + cell / 2, filled[k], 13))
        parts.append("</g>")
    parts.append("</g>")
    # the state of the round, on the right
    x = MARGIN + size * (cell + gap) + 24
    lines = [f"Round {obs['round']}: {obs['phase_name']}"]
    if obs["order"] is not None:
        lines.append(f"{obs['players'][obs['order'][0]]['name']} goes first this round")
    if obs["reach"] is not None and obs["to_move"]:
        mover = obs["players"][obs["to_move"][0]]["name"]
        verb = "removes" if obs["phase"] == "remove" else "places"
        lines.append(f"{mover} {verb} {obs['pending']} more, temples 1 to {obs['reach']}")
    if obs["winner"] is not None:
        lines.append(f"{obs['players'][obs['winner']]['name']} wins: {obs['win_reason']}")
    elif obs["over"]:
        lines.append("The game is over.")
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
            meaning = "whoever holds one scores its +1 or +2 at each scoring"
        tip = (
            f"{colour.capitalize()} squares: {len(spots)} on the board; "
            f"{pair_words(names, held)}. {meaning[0].upper()}{meaning[1:]}."
        )
        parts.append(
            f'<g class="legend" data-colour="{colour}"{_tip(tip)}>'
            f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{fill}" '
            'stroke="#6d5c32"/>' + _text(lx + 16, ly, colour, "small") + "</g>"
        )
        lx += 24 + 8 * len(colour)
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
    priest_tip = f"{name} plays {SEAT_WORDS[seat]}: counters marked {SEAT_LETTERS[seat]}."
    parts = [
        f'<g class="player seat-{seat}" data-seat="{seat}">',
        f'<rect x="{x0:.0f}" y="{y0}" width="{half:.0f}" height="{height}" rx="8" '
        f'class="panel" style="stroke:{SEAT_COLOURS[seat]};stroke-width:3"/>',
        f'<g class="priest"{_tip(priest_tip)}>',
        _counter(x0 + 20, y0 + 20, seat, 9),
        _text(x0 + 36, y0 + 25, name + (" · goes first" if first else ""), "label"),
        "</g>",
        _text(
            x0 + half - 12,
            y0 + 25,
            f"{player['score']} points",
            "label",
            "end",
            f"{name}: {plural(player['score'], 'point')}.",
        ),
    ]
    shown = {int(v): n for v, n in player["discards"].items()}
    face_down = player["discards_face_down"]
    discards = sum(shown.values()) + face_down
    shown_words = ", ".join(f"{n} of value {v}" for v, n in sorted(shown.items())) or "none"
    tips = {
        "stock": (
            f"{name}'s stock: {plural(player['stock'], 'counter')} off the board; cartouche 4 "
            "places counters from here."
        ),
        "pile": (
            f"{name}'s pile: {plural(player['pile'], 'card')} face down (values 1 to 4, "
            f"{cards_per_value} of each in all). When it runs out, the discards are shuffled "
            "into a new pile."
        ),
        "hand": f"{name} holds {plural(player['hand'], 'card')}; only {name} sees them.",
        "discards": (
            f"{name}'s discards: {plural(discards, 'card')}. Shown: {shown_words}"
            + (f"; {face_down} given up face down in the exchange" if face_down else "")
            + f". {other} has not seen the rest of {name}'s cards."
        ),
    }
    words = {
        "stock": f"stock {player['stock']} counters",
        "pile": f"pile {player['pile']} cards",
        "hand": f"hand {player['hand']}",
        "discards": f"discards {discards}",
    }
    spans = " · ".join(
        f'<tspan class="{key}"{_tip(tips[key])}>{escape(words[key])}</tspan>' for key in words
    )
    parts.append(f'<text x="{x0 + 12:.0f}" y="{y0 + 46}" class="small">{spans}</text>')
    used = player["exchange_used"]
    ex, ey = x0 + half - 24, y0 + 44
    exchange_tip = (
        f"{name}'s exchange counter: used."
        if used
        else f"{name}'s exchange counter: still available. Once in the game, before laying "
        "out, it swaps the four cards drawn for four others."
    )
    parts.append(
        f'<g class="exchange-counter" data-used="{str(used).lower()}"{_tip(exchange_tip)}>'
        f'<circle cx="{ex:.0f}" cy="{ey}" r="11" class="exchange{" used" if used else ""}"/>'
        f'<text x="{ex:.0f}" y="{ey + 4}" text-anchor="middle" class="tiny">ex</text>'
        + _text(ex - 16, ey + 4, "exchange used" if used else "exchange", "tiny", "end")
        + "</g>"
    )
    cards = player["cartouches"]
    committed = player["committed"]
    card_w, card_h, gap = 92, 100, 12
    left = x0 + (half - 4 * card_w - 3 * gap) / 2
    top = y0 + 64
    for c in range(4):
        x = left + c * (card_w + gap)
        if cards is not None:
            state, klass = "revealed", "cartouche"
            laid = f"{name} laid a {cards[c]}."
        elif committed:
            state, klass = "sealed", "cartouche sealed"
            laid = f"{name}'s card lies face down until both priests have laid."
        else:
            state, klass = "empty", "cartouche empty"
            laid = "Nothing laid yet this round."
        tip = f"Cartouche {c + 1} ({CARTOUCHE_ROLES[c]}): {CARTOUCHE_TIPS[c]}. {laid}"
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
                f"{c + 1}: {CARTOUCHE_ROLES[c]}",
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
                'text-anchor="middle" class="small" style="fill:#fff">sealed</text>'
            )
        parts.append("</g>")
    parts.append("</g>")
    return parts

"""Egyptia for the web page: the resource board, the player sheets and the words around them.

What is public and what is not decides where each drawing comes from:

- :func:`board_svg` draws the resource board (the six dice in their columns, the building
  rows with their costs, the plagues) and the five Pharaoh cards. All of it is public and
  changes only once a round, so one drawing serves every seat, every spectator and every
  position of the round (drawings are remembered by what they show).
- A seat's own sheet differs from what the others see while a round is in progress: the
  others see it as it was at the last public moment (the reveal or the round's end). So
  the seat's sheet is drawn in :func:`page_data`, from the seat's own observation alone,
  and remembered by its content (many positions of a round leave a sheet unchanged).
- The other sheets are small maps and numbers drawn by the page itself (``egyptia.js``)
  from the observation, which carries each of them as published; with 99 builders a grid
  of small cards stays readable where 99 full drawings would not.
- At a crowd table (more than 12 seats) the page gets the other builders in short
  (:func:`crowd_view`: score, plagues, buildings, where each stands) and fetches one
  builder's sheet, drawn, when it is opened (:func:`player_sheet`): 99 sheets in each of
  99 views at every step were most of a crowd's round.

Clickable things carry data attributes with the words the moves use (``data-column``,
``data-plague``, ``data-hex``, ``data-ship``), so the page marks the seat's legal moves by
itself.
"""

from __future__ import annotations

import functools
import math
import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import Any, cast

import orjson

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.state import State
from karnak.games.egyptia import words
from karnak.games.egyptia.i18n import DOMAIN, N_, _, ngettext, t
from karnak.games.egyptia.rules.actions import PLAGUES, Build, Choose, Gain, Pay, Plague, UseShip
from karnak.games.egyptia.rules.pharaoh import EMPTY, card_points, city_gains
from karnak.games.egyptia.rules.sheet import BUILDINGS, RESOURCES, WILD, Sheet
from karnak.games.egyptia.rules.state import CODES, NAMES, EgyptiaState
from karnak.games.egyptia.view import (
    BuilderBrief,
    EgyptiaObservation,
    PlayerView,
    ScoreView,
    SheetView,
    as_observation,
    sheet_of,
    sheet_view,
)
from karnak.games.egyptia.web import guide as egyptia_guide
from karnak.i18n import current_language

# ---------------------------------------------------------------------- words and colours
#: The buildings' names in the reader's language (see :mod:`karnak.games.egyptia.words`).
TITLES = words.BUILDING_NAMES
BUILDING_FILLS = {
    "pyramid": "#e3b34a",
    "quarry": "#a3a3a3",
    "mine": "#6a5a8c",
    "obelisk": "#c98f7a",
    "field": "#8bbf4a",
    "mound": "#8d6e63",
}
RESOURCE_FILLS = {"grain": "#e2b33c", "diamond": "#49b6e8", "stone": "#8f8a80", "favor": "#c2185b"}
STAGE_WORDS = words.STAGE_WORDS

WIDTH = 960

#: Both drawings carry their own style (scoped to them), so they look the same anywhere.
STYLE = """
.egy text { font-family: system-ui, sans-serif; font-size: 12px; fill: #3b2f1c; }
.egy .label { font-size: 14px; font-weight: 600; }
.egy .title { font-size: 17px; font-weight: 700; }
.egy .small { font-size: 11px; }
.egy .tiny { font-size: 9px; }
.egy .faint { fill: #a8977a; }
.egy .warn { fill: #b3261e; font-weight: 700; }
.egy .panel { fill: #f8eed3; stroke: #9c8a64; }
.egy .cell { fill: #fffaf0; stroke: #d2c29b; }
.egy .row-head { fill: #efe2bf; stroke: #d2c29b; }
.egy .column .col-bg { fill: transparent; stroke: none; }
.egy .column.plague-column .col-head { fill: #f6d3cc; }
.egy .col-head { fill: #efe2bf; stroke: #9c8a64; }
.egy .die { stroke: #3b2f1c; stroke-width: 1.5; fill: #fffdf5; }
.egy .die-value { font-size: 15px; font-weight: 700; }
.egy .card-box { fill: #fbf3dc; stroke: #b5780d; stroke-width: 1.5; }
.egy .card-letter { font-size: 30px; font-weight: 800; fill: #b5780d; }
.egy .plague-box { fill: #fffaf0; stroke: #9c8a64; }
.egy .plague-box.death { fill: #eadfd0; }
.egy .legal { cursor: pointer; }
.egy .legal .col-bg, .egy .legal .plague-box, .egy .legal .hex-shape, .egy .legal .ship-hull-bg {
  stroke: #ff8c00; stroke-width: 4; }
.egy .column.legal .col-bg { fill: rgba(255, 214, 90, 0.25); }
.egy .legal:hover .col-bg, .egy .legal:hover .plague-box, .egy .legal:hover .hex-shape,
.egy .legal:focus .col-bg, .egy .legal:focus .plague-box, .egy .legal:focus .hex-shape {
  stroke: #c0392b; }
.egy .chosen .col-bg { fill: rgba(181, 120, 13, 0.18); stroke: #b5780d; stroke-width: 3; }
.egy .legal:focus-visible .col-bg, .egy .legal:focus-visible .plague-box,
.egy .legal:focus-visible .hex-shape, .egy .legal:focus-visible .ship-hull-bg {
  stroke: #1a5fb4; stroke-width: 6; }
.egy .hex-shape { stroke: #6d5c32; stroke-width: 1.5; fill: #f3e6c4; }
.egy .hex.sacred .hex-shape { fill: #f7d64a; }
.egy .hex.oasis .hex-shape { fill: #b9e0c9; }
.egy .hex.legal .hex-shape { fill: #fff3b0; }
.egy .hex.sacred.legal .hex-shape { fill: #ffe66b; }
.egy .hex.selected .hex-shape { stroke: #c0392b; stroke-width: 5; }
.egy .hex-label { font-size: 9px; fill: #7a6a4a; }
.egy .river { fill: #8ec5e8; }
.egy .ship-hull { fill: #8a5a2b; stroke: #4b2e12; }
.egy .ship-sail { fill: #fffaf0; stroke: #4b2e12; }
.egy .ship-hull-bg { fill: rgba(255, 255, 255, 0.35); stroke: none; }
.egy .ship.used .ship-hull, .egy .ship.used .ship-sail { opacity: 0.45; }
.egy .scribble { stroke: #3b2f1c; stroke-width: 2; fill: none; stroke-linecap: round; }
.egy .lost-mark { stroke: #b3261e; stroke-width: 4; stroke-linecap: round; }
.egy .dot { fill: #fffdf5; stroke: #6d5c32; stroke-width: 1.2; }
.egy .dot.red { fill: #f6c9c3; stroke: #b3261e; stroke-width: 1.8; }
.egy .ring { fill: none; stroke: #2f2616; stroke-width: 1.8; }
.egy .step { fill: #fffdf5; stroke: #6d5c32; }
.egy .step.on { fill: #ffe38a; stroke: #2f2616; stroke-width: 2; }
.egy .crossed .plague-box { fill: #d9d0bd; }
.egy .cross { stroke: #b3261e; stroke-width: 3; stroke-linecap: round; opacity: 0.7; }
.egy .total { font-size: 20px; font-weight: 800; }
"""


def _text(
    x: float,
    y: float,
    content: str,
    cls: str = "",
    anchor: str = "start",
    style: str = "",
) -> str:
    klass = f' class="{cls}"' if cls else ""
    extra = f' style="{style}"' if style else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}"{klass}{extra}>'
        f"{escape(content)}</text>"
    )


def _wrap(text: str, width: int) -> list[str]:
    """Greedy line breaking at about ``width`` characters."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)


def _tip(text: str) -> str:
    """The attribute that gives an element its tooltip (shown by the page on hover, keyboard
    focus and long press)."""
    return f' data-tip="{escape(text)}"'


def _hit(x: float, y: float, width: float, height: float) -> str:
    """An invisible area that gives a row of small marks one place to point at (its
    tooltip shows anywhere on the row, not only over the marks)."""
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}" '
        'fill="transparent" class="hit"/>'
    )


def _cost_tip(
    building: str,
    cost: Sequence[int],
    productivity: dict[str, int],
    surcharges: Sequence[int],
    sides: int = 0,
) -> str:
    """What a row of building costs says, in words (the board's rows and the sheet's)."""
    wild_favor, sacred_favor, mound_basic, mound_favor = surcharges
    if building == "mound":
        return t(
            "Burial Mound: free and always allowed, whatever your column (also on a Sacred "
            "Site, at no extra cost); it gives {basic} basic resources of your choice or "
            "{favor} favor.",
            basic=mound_basic,
            favor=mound_favor,
        )
    if building == WILD:
        return t(
            "Any building (the d{sides}): whoever takes its column may build any building no "
            "other die of the column shows, for its cost plus {favor} favor.",
            sides=sides or 20,
            favor=wild_favor,
        )
    text = t("{building}: costs {cost}", building=words.building(building), cost=_cost_words(cost))
    if sides:
        text += "; " + t("offered by the d{sides} in the column where it lies", sides=sides)
    text += "; " + t("on a Sacred Site {favor} favor more", favor=sacred_favor)
    track = productivity.get(building)
    if track is not None:
        text += ". " + t(
            "Each one raises your {resource} productivity one step",
            resource=words.resource(RESOURCES[track]),
        )
    return text + "."


# ---------------------------------------------------------------------- small pictures
def resource_icon(resource: str, x: float, y: float, s: float = 7) -> str:
    """A small picture of a resource centred at (x, y): wheat, a gem, a block, an ankh."""
    fill = RESOURCE_FILLS[resource]
    if resource == "grain":
        return (
            f'<g class="res grain"><ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{s * 0.45:.1f}" '
            f'ry="{s:.1f}" fill="{fill}" stroke="#7a5b12"/>'
            f'<line x1="{x:.1f}" y1="{y - s:.1f}" x2="{x:.1f}" y2="{y + s:.1f}" '
            'stroke="#7a5b12" stroke-width="1"/></g>'
        )
    if resource == "diamond":
        pts = [(x, y - s), (x + s * 0.8, y), (x, y + s), (x - s * 0.8, y)]
        return (
            f'<polygon class="res diamond" points="{_points(pts)}" fill="{fill}" stroke="#1d5f80"/>'
        )
    if resource == "stone":
        return (
            f'<rect class="res stone" x="{x - s * 0.85:.1f}" y="{y - s * 0.7:.1f}" '
            f'width="{s * 1.7:.1f}" height="{s * 1.4:.1f}" rx="2" fill="{fill}" stroke="#4d4a44"/>'
        )
    # favor: an ankh
    return (
        f'<g class="res favor" stroke="{fill}" stroke-width="{max(1.5, s * 0.32):.1f}" '
        f'fill="none" stroke-linecap="round"><ellipse cx="{x:.1f}" cy="{y - s * 0.5:.1f}" '
        f'rx="{s * 0.38:.1f}" ry="{s * 0.48:.1f}"/>'
        f'<line x1="{x:.1f}" y1="{y:.1f}" x2="{x:.1f}" y2="{y + s:.1f}"/>'
        f'<line x1="{x - s * 0.6:.1f}" y1="{y + s * 0.15:.1f}" x2="{x + s * 0.6:.1f}" '
        f'y2="{y + s * 0.15:.1f}"/></g>'
    )


def building_icon(building: str, x: float, y: float, s: float) -> str:
    """A building drawn into a hex (or a row head) centred at (x, y), about ``s`` across."""
    fill = BUILDING_FILLS.get(building, "#ccc")
    h = s / 2
    if building == "pyramid":
        pts = [(x, y - h * 0.9), (x + h, y + h * 0.7), (x - h, y + h * 0.7)]
        return (
            f'<g class="icon pyramid"><polygon points="{_points(pts)}" fill="{fill}" '
            'stroke="#6d4c0f" stroke-width="1.5"/>'
            f'<polyline points="{_points([(x, y - h * 0.9), (x + h * 0.25, y + h * 0.7)])}" '
            'stroke="#6d4c0f" fill="none"/></g>'
        )
    if building == "quarry":
        w, bh = h * 0.9, h * 0.5
        blocks = [(x - w, y + h * 0.2), (x, y + h * 0.2), (x - w / 2, y + h * 0.2 - bh)]
        rects = "".join(
            f'<rect x="{bx:.1f}" y="{by:.1f}" width="{w:.1f}" height="{bh:.1f}" rx="1.5" '
            f'fill="{fill}" stroke="#4d4a44" stroke-width="1.2"/>'
            for bx, by in blocks
        )
        return f'<g class="icon quarry">{rects}</g>'
    if building == "mine":
        arch = (
            f"M {x - h:.1f} {y + h * 0.7:.1f} L {x - h:.1f} {y - h * 0.1:.1f} "
            f"A {h:.1f} {h * 0.8:.1f} 0 0 1 {x + h:.1f} {y - h * 0.1:.1f} "
            f"L {x + h:.1f} {y + h * 0.7:.1f} Z"
        )
        gem = [(x, y - h * 0.35), (x + h * 0.35, y + h * 0.05), (x, y + h * 0.45)]
        gem.append((x - h * 0.35, y + h * 0.05))
        return (
            f'<g class="icon mine"><path d="{arch}" fill="{fill}" stroke="#2e2440" '
            'stroke-width="1.5"/>'
            f'<polygon points="{_points(gem)}" fill="#8fe3ff" stroke="#1d5f80"/></g>'
        )
    if building == "obelisk":
        pts = [
            (x, y - h),
            (x + h * 0.22, y - h * 0.72),
            (x + h * 0.3, y + h * 0.8),
            (x - h * 0.3, y + h * 0.8),
            (x - h * 0.22, y - h * 0.72),
        ]
        return (
            f'<g class="icon obelisk"><polygon points="{_points(pts)}" fill="{fill}" '
            'stroke="#5e3526" stroke-width="1.5"/>'
            f'<line x1="{x - h * 0.5:.1f}" y1="{y + h * 0.8:.1f}" x2="{x + h * 0.5:.1f}" '
            f'y2="{y + h * 0.8:.1f}" stroke="#5e3526" stroke-width="2"/></g>'
        )
    if building == "field":
        stalks = "".join(
            f'<line x1="{x + dx:.1f}" y1="{y + h * 0.65:.1f}" x2="{x + dx:.1f}" '
            f'y2="{y - h * 0.35:.1f}" stroke="#4f7a1f" stroke-width="1.4"/>'
            f'<ellipse cx="{x + dx:.1f}" cy="{y - h * 0.45:.1f}" rx="{h * 0.13:.1f}" '
            f'ry="{h * 0.25:.1f}" fill="#e2b33c" stroke="#7a5b12" stroke-width="0.8"/>'
            for dx in (-h * 0.55, -h * 0.18, h * 0.18, h * 0.55)
        )
        return (
            f'<g class="icon field"><rect x="{x - h * 0.85:.1f}" y="{y + h * 0.35:.1f}" '
            f'width="{h * 1.7:.1f}" height="{h * 0.4:.1f}" rx="2" fill="{fill}" '
            f'stroke="#4f7a1f"/>{stalks}</g>'
        )
    if building == "mound":
        path = (
            f"M {x - h:.1f} {y + h * 0.55:.1f} "
            f"Q {x:.1f} {y - h * 1.0:.1f} {x + h:.1f} {y + h * 0.55:.1f} Z"
        )
        return (
            f'<g class="icon mound"><path d="{path}" fill="{fill}" stroke="#4e342e" '
            'stroke-width="1.5"/>'
            f'<line x1="{x:.1f}" y1="{y - h * 0.25:.1f}" x2="{x:.1f}" y2="{y + h * 0.3:.1f}" '
            'stroke="#f3e6c4" stroke-width="1.6"/>'
            f'<line x1="{x - h * 0.2:.1f}" y1="{y - h * 0.05:.1f}" x2="{x + h * 0.2:.1f}" '
            f'y2="{y - h * 0.05:.1f}" stroke="#f3e6c4" stroke-width="1.6"/></g>'
        )
    if building == "oasis":
        return (
            f'<g class="icon oasis"><ellipse cx="{x:.1f}" cy="{y + h * 0.45:.1f}" '
            f'rx="{h * 0.9:.1f}" ry="{h * 0.3:.1f}" fill="#4aa3df" stroke="#1d5f80"/>'
            f'<path d="M {x + h * 0.1:.1f} {y + h * 0.3:.1f} Q {x - h * 0.05:.1f} '
            f'{y - h * 0.2:.1f} {x + h * 0.15:.1f} {y - h * 0.65:.1f}" stroke="#6d4c0f" '
            'stroke-width="2.2" fill="none"/>'
            + "".join(
                f'<path d="M {x + h * 0.15:.1f} {y - h * 0.65:.1f} q {dx * h:.1f} '
                f'{-0.2 * h:.1f} {dx * 1.5 * h:.1f} {0.35 * h:.1f}" stroke="#2e7d32" '
                'stroke-width="2.4" fill="none"/>'
                for dx in (-0.5, -0.25, 0.25, 0.5)
            )
            + "</g>"
        )
    # the wild die: a star
    pts = []
    for k in range(10):
        r = h if k % 2 == 0 else h * 0.45
        a = math.pi / 2 + k * math.pi / 5
        pts.append((x + r * math.cos(a), y - r * math.sin(a)))
    return f'<polygon class="icon any" points="{_points(pts)}" fill="#f0c060" stroke="#7a5b12"/>'


def die_shape(sides: int, x: float, y: float, r: float = 15) -> str:
    """The outline of a polyhedral die seen from above, centred at (x, y)."""
    corners = {4: 3, 6: 4, 8: 4, 10: 5, 12: 5, 20: 6}.get(sides, 6)
    turn = {6: math.pi / 4, 8: 0.0}.get(sides, 0.0)
    pts = [
        (
            x + r * math.sin(turn + 2 * math.pi * k / corners),
            y - r * math.cos(turn + 2 * math.pi * k / corners) + (3 if corners == 3 else 0),
        )
        for k in range(corners)
    ]
    if sides == 10:  # a kite
        pts = [(x, y - r), (x + r * 0.9, y - r * 0.1), (x, y + r), (x - r * 0.9, y - r * 0.1)]
    return f'<polygon class="die" points="{_points(pts)}"/>'


def _cost_icons(cost: Sequence[int], x: float, y: float) -> tuple[str, float]:
    """A cost as icons with counts (``2 [stone] 1 [gem]``); returns the drawing and its end."""
    parts = []
    for index, amount in enumerate(cost):
        if not amount:
            continue
        parts.append(_text(x, y + 4, str(amount), "small"))
        parts.append(resource_icon(RESOURCES[index], x + 13, y, 6))
        x += 26
    return "".join(parts), x


# ---------------------------------------------------------------------- public facts
Geometry = tuple[Any, ...]


def geometry(sheet: Sheet) -> Geometry:
    """Everything printed that the drawings show, as a hashable value (for remembering)."""
    return (
        tuple((h.label, h.col, h.row, h.kind) for h in sheet.hexes),
        sheet.river,
        tuple(sheet.ships),
        sheet.dots,
        sheet.red,
        tuple((b, sheet.costs[b]) for b in BUILDINGS),
        tuple(sorted(sheet.productivity.items())),
        sheet.steps,
        tuple((d.sides, d.building, d.columns) for d in sheet.dice),
        (sheet.wild_favor, sheet.sacred_favor, sheet.mound_basic, sheet.mound_favor),
        (sheet.favor_per_point, sheet.basic_per_favor, sheet.ship_points, sheet.pestilence_points),
    )


def _ranges(columns: tuple[int, ...]) -> list[str]:
    """The values of each column of a die as text: ``["1-3", "4-5", "6-7", "8"]``."""
    found: list[list[int]] = [[] for _ in RESOURCES]
    for value, column in enumerate(columns, start=1):
        found[column].append(value)
    texts = []
    for values in found:
        if not values:
            texts.append("-")
        elif len(values) == 1:
            texts.append(str(values[0]))
        else:
            texts.append(f"{values[0]}-{values[-1]}")
    return texts


# ---------------------------------------------------------------------- the resource board
TABLE_X, TABLE_Y = 12, 40
HEAD_W, COL_W = 176, 100
HEAD_H, ROW_H = 54, 40
CARDS_X = 604


def board_svg(game: Game, public_view: Mapping[str, Any]) -> str:
    """The resource board and the Pharaoh cards, from a spectator's view: public, the same
    for everyone all round."""
    sheet = sheet_of(game)
    view = as_observation(public_view)
    cards = tuple((c["id"], c["text"], c["confidence"]) for c in view["cards"])
    return _board(
        geometry(sheet),
        tuple(d["value"] for d in view["dice"]),
        cards,
        view["round"],
        view["over"],
        sheet.pestilence_points,
        current_language(),  # the words are the reader's: one drawing per language
    )


@functools.lru_cache(maxsize=512)
def _board(
    geo: Geometry,
    dice: tuple[int, ...],
    cards: tuple[tuple[str, str, str], ...],
    round_number: int,
    over: bool,
    pestilence: int,
    language: str,
) -> str:
    dice_table = geo[8]
    costs = dict(geo[5])
    wild_favor, _sacred, mound_basic, mound_favor = geo[9]
    rows = len(dice_table) + 1  # the Burial Mound's row first, as printed
    table_h = HEAD_H + rows * ROW_H
    plague_y = TABLE_Y + table_h + 44
    height = max(plague_y + 2 * 54 + 16, TABLE_Y + 5 * 96 + 10)
    columns: list[list[int]] = [[] for _ in RESOURCES]
    for index, (_sides, _building, by_value) in enumerate(dice_table):
        columns[by_value[dice[index] - 1]].append(index)
    where = _("dice of the final round") if over else t("dice of round {n}", n=round_number)
    board_label = escape(_("Egyptia resource board"), quote=True)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="board egy egyptia-board" role="group" aria-label="{board_label}">',
        f"<style>{STYLE}</style>",
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{height - 4}" rx="10" class="panel"/>',
        _text(TABLE_X, 28, _("Resource board"), "title"),
        _text(TABLE_X + HEAD_W + 4 * COL_W, 28, where, "label", "end"),
    ]
    # row heads: the building, its die and its cost
    heads = [("mound", 0, (0, 0, 0, 0))] + [
        (building, sides, costs.get(building, (0, 0, 0, 0))) for sides, building, _ in dice_table
    ]
    productivity = dict(geo[6])
    for r, (building, sides, cost) in enumerate(heads):
        y = TABLE_Y + HEAD_H + r * ROW_H
        tip = _cost_tip(building, cost, productivity, geo[9], sides)
        parts.append(
            f'<g class="building-row" data-building="{building}"{_tip(tip)}>'
            f'<rect x="{TABLE_X}" y="{y}" width="{HEAD_W}" height="{ROW_H}" class="row-head"/>'
        )
        parts.append(building_icon(building, TABLE_X + 20, y + ROW_H / 2, 28))
        parts.append(_text(TABLE_X + 40, y + 16, words.building(building), "label"))
        if building == "mound":
            gain = t("free: +{basic} basic or +{favor} favor", basic=mound_basic, favor=mound_favor)
            parts.append(_text(TABLE_X + 40, y + 32, gain, "tiny"))
        elif building == WILD:
            extra = t("d{sides} · its cost +{favor}", sides=sides, favor=wild_favor)
            parts.append(_text(TABLE_X + 40, y + 32, extra, "tiny"))
            parts.append(resource_icon("favor", TABLE_X + 150, y + 28, 5))
        else:
            parts.append(_text(TABLE_X + HEAD_W - 6, y + 16, words.die(sides), "tiny faint", "end"))
            icons, _width = _cost_icons(cost, TABLE_X + 40, y + 28)
            parts.append(icons)
        parts.append("</g>")
    # the four columns, each one clickable as a whole
    for c, resource in enumerate(RESOURCES):
        x = TABLE_X + HEAD_W + c * COL_W
        count = len(columns[c])
        plague = count >= 3
        klass = "column plague-column" if plague else "column"
        tip = _column_tip(resource, [dice_table[i] for i in columns[c]], dice, columns[c], geo)
        parts.append(
            f'<g class="{klass}" data-column="{resource}" data-dice="{count}"{_tip(tip)}>'
            f'<rect x="{x}" y="{TABLE_Y}" width="{COL_W}" height="{HEAD_H}" class="col-head"/>'
        )
        parts.append(resource_icon(resource, x + 14, TABLE_Y + 19, 8))
        parts.append(_text(x + 26, TABLE_Y + 24, _capital(words.resource(resource)), "label"))
        parts.append(_text(x + COL_W / 2, TABLE_Y + 45, words.dice(count), "small", "middle"))
        for r in range(rows):
            y = TABLE_Y + HEAD_H + r * ROW_H
            parts.append(f'<rect x="{x}" y="{y}" width="{COL_W}" height="{ROW_H}" class="cell"/>')
            if r == 0:
                continue
            index = r - 1
            sides, _building, by_value = dice_table[index]
            if index in columns[c]:
                cx, cy = x + COL_W / 2, y + ROW_H / 2
                tip = t(
                    "The d{sides} shows {value}: {building}, in the {column} column.",
                    sides=sides,
                    value=dice[index],
                    building=words.building(dice_table[index][1]),
                    column=words.resource(resource),
                )
                parts.append(
                    f'<g class="die-on-board" data-die="d{sides}" data-value="{dice[index]}"'
                    f"{_tip(tip)}>"
                    + die_shape(sides, cx, cy)
                    + _text(cx, cy + 5, str(dice[index]), "die-value", "middle")
                    + "</g>"
                )
            else:
                parts.append(
                    _text(
                        x + COL_W / 2,
                        y + ROW_H / 2 + 4,
                        _ranges(by_value)[c],
                        "small faint",
                        "middle",
                    )
                )
        foot_y = TABLE_Y + table_h
        if plague:
            parts.append(_text(x + COL_W / 2, foot_y + 17, _("⚠ plague!"), "small warn", "middle"))
        else:
            parts.append(_text(x + COL_W / 2, foot_y + 17, _("no plague"), "small faint", "middle"))
        # the clickable area over the whole column, drawn last so that it catches clicks
        parts.append(
            f'<rect x="{x + 1}" y="{TABLE_Y + 1}" width="{COL_W - 2}" '
            f'height="{table_h + 26}" rx="4" class="col-bg"/>'
            "</g>"
        )
    parts.append(
        _text(
            TABLE_X + HEAD_W + 2 * COL_W,
            TABLE_Y + HEAD_H + ROW_H / 2 + 4,
            _("always open to every builder, whatever the column"),
            "small faint",
            "middle",
            "pointer-events:none",
        )
    )
    parts.extend(_plague_list(plague_y, pestilence))
    parts.extend(_cards(cards))
    parts.append("</svg>")
    return "".join(parts)


def _column_tip(
    resource: str,
    shown: Sequence[tuple[int, str, tuple[int, ...]]],
    dice: tuple[int, ...],
    indexes: Sequence[int],
    geo: Geometry,
) -> str:
    """A column in words: its dice, what taking it gives and what it lets one build."""
    count = len(indexes)
    wild_favor = geo[9][0]
    tracks = {RESOURCES[t] for _, t in geo[6]}
    listed = ", ".join(
        f"{words.die(sides)} {dice[i]} ({words.building(b)})"
        for (sides, b, _unused), i in zip(shown, indexes, strict=True)
    )
    name = words.resource(resource)
    head = (
        t(
            "{column} column: {dice}: {listed}.",
            column=_capital(name),
            dice=words.dice(count),
            listed=listed,
        )
        if count
        else t("{column} column: no dice.", column=_capital(name))
    )
    made = words.amount(count, resource)
    gives = (
        t(
            "Whoever takes it produces {amount} plus their {resource} productivity",
            amount=made,
            resource=name,
        )
        if resource in tracks
        else t("Whoever takes it produces {amount}", amount=made)
    )
    buildings = [words.building(b) for _unused, b, _rest in shown if b != WILD]
    if any(b == WILD for _unused, b, _rest in shown):
        buildings.append(t("any other building for {favor} favor more", favor=wild_favor))
    can = (
        t(
            "and may build one of these: {buildings}, or a Burial Mound.",
            buildings=", ".join(buildings),
        )
        if buildings
        else _("and may build only a Burial Mound.")
    )
    plague = " " + _("With 3 dice or more, they suffer a plague first.") if count >= 3 else ""
    return f"{head} {gives} {can}{plague}"


def _plague_tip(number: int, name: str, pestilence: int) -> str:
    effect = words.plague_effect(name, pestilence)
    again = (
        _("Never crossed off: it may come again.")
        if name == "death"
        else _("Crossed off once suffered: nobody suffers it twice.")
    )
    only = _(
        "Only whoever takes a column of 3 dice or more chooses a plague, one they can pay for "
        "or keep to."
    )
    return f"{number}. {words.plague(name)}: {effect}. {again} {only}"


def _card_tip(card_id: str, text: str) -> str:
    """A Pharaoh card in words (where its figures come from is not play: it lives behind
    the page's "About these figures")."""
    return t(
        "Pharaoh card {card}: {text}. It scores every city at the end.",
        card=card_id,
        text=words.card_text(text),
    )


def _plague_list(y0: float, pestilence: int) -> list[str]:
    parts = [_text(TABLE_X, y0 - 10, _("Plagues (a column of 3+ dice)"), "label")]
    width = (HEAD_W + 4 * COL_W) / 5
    for k, name in enumerate(PLAGUES):
        x = TABLE_X + (k % 5) * width
        y = y0 + (k // 5) * 54
        death = " death" if name == "death" else ""
        parts.append(
            f'<g class="plague" data-plague="{name}"'
            f"{_tip(_plague_tip(k + 1, name, pestilence))}>"
            f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{width - 4:.1f}" height="48" rx="6" '
            f'class="plague-box{death}"/>'
            + _text(
                x + 8, y + 16, f"{k + 1}. {words.plague(name)}", "small", style="font-weight:600"
            )
        )
        effect = words.plague_effect(name, pestilence)
        for i, line in enumerate(_wrap(effect, 22)[:2]):
            parts.append(_text(x + 8, y + 30 + 11 * i, line, "tiny"))
        parts.append("</g>")
    return parts


def _cards(cards: tuple[tuple[str, str, str], ...]) -> list[str]:
    parts = [_text(CARDS_X, 28, _("The Pharaoh's demands"), "title")]
    card_w, card_h, gap = WIDTH - CARDS_X - 14, 88, 8
    for k, (card_id, text, _confidence) in enumerate(cards):
        y = TABLE_Y + k * (card_h + gap)
        parts.append(
            f'<g class="pharaoh-card" data-card="{escape(card_id)}"'
            f"{_tip(_card_tip(card_id, text))}>"
            f'<rect x="{CARDS_X}" y="{y}" width="{card_w}" height="{card_h}" rx="8" '
            'class="card-box"/>'
            + _text(CARDS_X + 26, y + 42, card_id[0], "card-letter", "middle")
            + _text(CARDS_X + 26, y + 62, card_id, "small faint", "middle")
        )
        for i, line in enumerate(_wrap(words.card_text(text), 44)[:4]):
            parts.append(_text(CARDS_X + 52, y + 22 + 16 * i, line))
        parts.append("</g>")
    return parts


# ---------------------------------------------------------------------- a player sheet
SHEET_H = 560
R = 37.0  # the hexes' circumradius
HEX_W = math.sqrt(3) * R
MAP_X, MAP_Y = 236, 120
RIVER_X = (206.0, 582.0)
RIGHT_X = 592
TRACK_Y = 432


def sheet_svg(
    sheet: Sheet,
    name: str,
    view: SheetView,
    score: ScoreView | None,
    final: bool = False,
) -> str:
    """A builder's sheet as seen in ``view`` (one entry of an observation's ``players``);
    ``final`` once the game is over (the score is then the final one).

    The tooltips of its hexes and score lines read the Pharaoh cards the score names (what
    each building scores where it stands, or would score on an empty hex): they belong to
    this sheet alone, like the rest of the drawing."""
    cards = [c["card"] for c in score["cards"]] if score is not None else []
    texts = {c: words.card_text(sheet.card(c).text) for c in cards}
    tips = hex_tips(sheet, tuple(cards), view["city"])
    # the words are the reader's: the language is part of what the drawing shows
    key = orjson.dumps(
        [name, view, score, final, texts, tips, current_language()], option=orjson.OPT_SORT_KEYS
    ).decode()
    return _sheet(geometry(sheet), key)


def hex_tips(sheet: Sheet, cards: tuple[str, ...], built: dict[str, str]) -> dict[str, str]:
    """The tooltip of every hex of a city: what stands there and what it adds to the cards
    now, or what each building would add there (remembered per city: a round changes one
    hex)."""
    memo: dict[Any, dict[str, str]] = sheet.memo.setdefault("web_hex_tips", {})
    key = (cards, tuple(sorted(built.items())), current_language())
    found = memo.get(key)
    if found is None:
        if len(memo) > 4096:
            memo.clear()
        found = memo[key] = _hex_tips(sheet, cards, built)
    return found


def _hex_tips(sheet: Sheet, cards: tuple[str, ...], built: dict[str, str]) -> dict[str, str]:
    city = [EMPTY] * len(sheet.hexes)
    for label, building in built.items():
        city[sheet.by_label[label]] = CODES[building]

    def points(plan: Sequence[int]) -> int:
        return sum(card_points(sheet, sheet.card(c), plan) for c in cards)

    now = points(city)
    gains = city_gains(sheet, [sheet.card(c) for c in cards], city)
    near_oasis = set(sheet.neighbours[sheet.oasis])
    tips: dict[str, str] = {}
    for index, spot in enumerate(sheet.hexes):
        label = spot.label
        if spot.kind == "oasis":
            around = ", ".join(sheet.hexes[n].label for n in sheet.neighbours[index])
            tips[label] = t(
                "{hex}, your Oasis: nothing is ever built here. Next to it: {around} (the Boils "
                "plague closes them for a round).",
                hex=label,
                around=around,
            )
            continue
        where = label
        if spot.sacred:
            where += ", " + t(
                "a Sacred Site (any building but a Burial Mound costs {favor} favor more here)",
                favor=sheet.sacred_favor,
            )
        if index in near_oasis:
            where += ", " + _("next to your Oasis")
        here = city[index]
        if here != EMPTY:
            plan = list(city)
            plan[index] = EMPTY
            adds = now - points(plan)
            what = t("{where}: your {building}.", where=where, building=words.building(NAMES[here]))
            if cards:
                what += " " + (
                    t("It adds {n} to your Pharaoh cards now.", n=adds)
                    if adds >= 0
                    else t("It costs your Pharaoh cards {n} now.", n=-adds)
                )
            tips[label] = what
            continue
        what = t("{where}: empty.", where=where)
        if cards:
            changes = ", ".join(
                f"{words.building(building)} {_signed(gains[CODES[building]][index])}"
                for building in NAMES
            )
            what += " " + t(
                "Built here now, your Pharaoh cards would change by: {changes}.", changes=changes
            )
        tips[label] = what
    return tips


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@functools.lru_cache(maxsize=2048)
def _sheet(geo: Geometry, key: str) -> str:
    name, view, score, final, texts, tips, _language = orjson.loads(key)
    hexes, river, ships, dots, red, costs, productivity, steps, dice_table, surcharges = geo[:10]
    sheet_label = escape(t("{name}'s player sheet", name=name), quote=True)
    total_hexes = sum(1 for h in hexes if h[3] != "oasis")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {SHEET_H}" '
        'class="sheet egy egyptia-sheet" role="group" '
        f'aria-label="{sheet_label}">',
        f"<style>{STYLE}</style>",
        f'<rect x="2" y="2" width="{WIDTH - 4}" height="{SHEET_H - 4}" rx="10" class="panel"/>',
        _text(14, 28, t("{name}'s sheet", name=name), "title"),
        _text(
            RIGHT_X - 16,
            28,
            t("{built} of {total} hexes built", built=view["buildings"], total=total_hexes),
            "label",
            "end",
        ),
    ]
    parts.extend(_cost_reference(costs, surcharges, dice_table, dict(productivity)))
    parts.extend(_river(river, ships, view["ships"], hexes, geo[10][2]))
    parts.extend(_map(hexes, view["city"], tips))
    parts.extend(_tracks(dots, red, view["resources"], view["red"]))
    parts.extend(_plagues_on_sheet(view["plagues"], view["deaths"], geo))
    parts.extend(_productivity(productivity, steps, view["productivity"]))
    if score is not None:
        parts.extend(_score(score, final, texts, geo))
    parts.append("</svg>")
    return "".join(parts)


def _cost_reference(
    costs: tuple[tuple[str, tuple[int, ...]], ...],
    surcharges: tuple[int, ...],
    dice_table: tuple[Any, ...],
    productivity: dict[str, int],
) -> list[str]:
    wild_favor, sacred_favor, mound_basic, mound_favor = surcharges
    x0, y0, row = 14, 50, 40
    parts = [_text(x0, y0, _("Building costs"), "label")]
    lines: list[tuple[str, str | None, tuple[int, ...] | None]] = [
        (
            "mound",
            t("free: +{basic} basic or +{favor} favor", basic=mound_basic, favor=mound_favor),
            None,
        )
    ]
    lines.extend((b, None, cost) for b, cost in costs)
    if any(d[1] == WILD for d in dice_table):
        lines.append(("any", t("d20: any building, +{favor} favor", favor=wild_favor), None))
    sides = {b: d for d, b, _ in dice_table}
    for i, (building, said, cost) in enumerate(lines):
        y = y0 + 14 + i * row
        tip = _cost_tip(
            building, cost or (0, 0, 0, 0), productivity, surcharges, sides.get(building, 0)
        )
        parts.append(
            f'<g class="building-row" data-building="{building}"{_tip(tip)}>'
            f'<rect x="{x0}" y="{y}" width="186" height="{row - 4}" rx="5" class="row-head"/>'
        )
        parts.append(building_icon(building, x0 + 18, y + (row - 4) / 2, 26))
        parts.append(
            _text(x0 + 36, y + 14, words.building(building), "small", style="font-weight:600")
        )
        if cost is not None:
            icons, _width = _cost_icons(cost, x0 + 36, y + 25)
            parts.append(icons)
        elif said:
            parts.append(_text(x0 + 36, y + 28, said, "tiny"))
        parts.append("</g>")
    y = y0 + 14 + len(lines) * row + 8
    tip = t(
        "Sacred Sites are the yellow hexes: any building but a Burial Mound costs {favor} favor "
        "more there. Some Pharaoh cards count them.",
        favor=sacred_favor,
    )
    parts.append(
        f'<g class="sacred-note"{_tip(tip)}>'
        + _text(x0, y, t("Sacred Site (yellow): +{favor} favor,", favor=sacred_favor), "tiny")
        + _text(x0, y + 11, _("not for a Burial Mound"), "tiny")
        + "</g>"
    )
    return parts


def _hex_centre(col: int, row: int) -> tuple[float, float]:
    return MAP_X + HEX_W / 2 + col * HEX_W / 2, MAP_Y + R + row * 1.5 * R


def _hex_points(cx: float, cy: float, r: float) -> str:
    return _points(
        (cx + r * math.cos(math.radians(a)), cy + r * math.sin(math.radians(a)))
        for a in (-90, -30, 30, 90, 150, 210)
    )


def _map(
    hexes: tuple[tuple[str, int, int, str], ...], city: dict[str, str], tips: dict[str, str]
) -> list[str]:
    parts = []
    for label, col, row, kind in hexes:
        cx, cy = _hex_centre(col, row)
        built = city.get(label)
        state = built or ("oasis" if kind == "oasis" else "empty")
        tip = tips.get(label) or _plain_hex_tip(label, kind, built)
        parts.append(
            f'<g class="hex {kind}" data-hex="{label}" data-kind="{kind}" data-built="{state}"'
            f"{_tip(tip)}>"
            f'<polygon class="hex-shape" points="{_hex_points(cx, cy, R - 1)}"/>'
        )
        if kind == "oasis":
            parts.append(building_icon("oasis", cx, cy, R * 1.1))
        elif built:
            parts.append(building_icon(built, cx, cy + 2, R * 1.05))
        parts.append(_text(cx, cy - R * 0.62, label, "hex-label", "middle"))
        parts.append("</g>")
    return parts


def _plain_hex_tip(label: str, kind: str, built: str | None) -> str:
    """A hex's tooltip where no card says more (a sheet drawn without a score)."""
    if kind == "oasis":
        return t("{hex}, the Oasis: nothing may be built here.", hex=label)
    if built:
        return t("{hex}: {building}.", hex=label, building=words.building(built))
    if kind == "sacred":
        return t("{hex}, a Sacred Site: empty.", hex=label)
    return t("{hex}: empty.", hex=label)


def _map_box(hexes: tuple[tuple[str, int, int, str], ...]) -> tuple[float, float, float, float]:
    xs = [_hex_centre(col, row)[0] for _, col, row, _ in hexes]
    ys = [_hex_centre(col, row)[1] for _, col, row, _ in hexes]
    return min(xs) - HEX_W / 2, min(ys) - R, max(xs) + HEX_W / 2, max(ys) + R


def _ship(number: int, x: float, y: float, gives: tuple[int, ...], state: str, points: int) -> str:
    hull = (
        f"M {x - 26:.1f} {y:.1f} L {x + 26:.1f} {y:.1f} "
        f"L {x + 18:.1f} {y + 12:.1f} L {x - 18:.1f} {y + 12:.1f} Z"
    )
    sail = _points([(x - 2, y - 30), (x - 2, y - 3), (x - 22, y - 3)])
    sail2 = _points([(x + 2, y - 26), (x + 2, y - 3), (x + 18, y - 3)])
    status = {
        "unused": ngettext(
            "unused: {n} point at the end if it is never used",
            "unused: {n} points at the end if it is never used",
            points,
        ).format(n=points),
        "used": _("used (crossed off)"),
        "lost": _("lost to Hail-fire (no resources, no points)"),
    }[state]
    tip = t(
        "Ship {n}: {gives}, once a game and at any time; {status}.",
        n=number,
        gives=words.bundle(gives),
        status=status,
    )
    parts = [
        f'<g class="ship {state}" data-ship="{number}" data-state="{state}"{_tip(tip)}>'
        f'<rect x="{x - 32:.1f}" y="{y - 36:.1f}" width="118" height="52" rx="8" '
        'class="ship-hull-bg"/>',
        f'<path class="ship-hull" d="{hull}"/>',
        f'<polygon class="ship-sail" points="{sail}"/>',
        f'<polygon class="ship-sail" points="{sail2}"/>',
        _text(x - 28, y - 24, str(number), "small", style="font-weight:700"),
    ]
    gx = x + 34
    for index, amount in enumerate(gives):
        for _count in range(amount):
            parts.append(resource_icon(RESOURCES[index], gx, y - 12, 6))
            gx += 15
    if state == "used":
        parts.append(
            f'<path class="scribble" d="M {x - 28:.1f} {y - 28:.1f} l 10 30 l 10 -30 l 10 30 '
            f'l 10 -30 l 10 30 l 10 -30 l 10 30"/>'
        )
    elif state == "lost":
        parts.append(
            f'<line class="lost-mark" x1="{x - 26:.1f}" y1="{y - 30:.1f}" x2="{x + 60:.1f}" '
            f'y2="{y + 12:.1f}"/><line class="lost-mark" x1="{x - 26:.1f}" y1="{y + 12:.1f}" '
            f'x2="{x + 60:.1f}" y2="{y - 30:.1f}"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _river(
    river: str,
    ships: tuple[tuple[int, ...], ...],
    states: list[str],
    hexes: tuple[tuple[str, int, int, str], ...],
    points: int,
) -> list[str]:
    _left, top, _right, bottom = _map_box(hexes)
    left, right = RIVER_X
    y = top - 64 if river == "top" else bottom + 6
    waves = max(1, round((right - left) / 60))
    period = (right - left) / waves
    edge = " ".join(
        f"q {period / 4:.1f} -6 {period / 2:.1f} 0 t {period / 2:.1f} 0" for _ in range(waves)
    )
    back = " ".join(
        f"q {-period / 4:.1f} 6 {-period / 2:.1f} 0 t {-period / 2:.1f} 0" for _ in range(waves)
    )
    parts = [
        f'<path class="river" d="M {left:.1f} {y + 8:.1f} {edge} L {right:.1f} {y + 54:.1f} '
        f'{back} Z"{_tip(_("The river and your ships: each ship may be used once a game."))}/>'
    ]
    step = (right - left) / max(1, len(ships))
    for i, gives in enumerate(ships):
        x = left + 34 + i * step
        state = states[i] if i < len(states) else "unused"
        parts.append(_ship(i + 1, x, y + 42, gives, state, points))
    return parts


RED_DOT_TIP = N_("A red dot: circling it ends the game after this round, for every builder.")


def _tracks(
    dots: tuple[int, ...], red: tuple[int, ...], resources: dict[str, Any], red_circled: bool
) -> list[str]:
    x0, y0, gap, row = 14, TRACK_Y, 23, 28
    parts = [_text(x0, y0 - 6, _("Resources"), "label")]
    if red_circled:
        parts.append(
            _text(
                RIGHT_X - 16,
                y0 - 6,
                _("a red dot is circled: the game ends after this round"),
                "small warn",
                "end",
            )
        )
    for r, resource in enumerate(RESOURCES):
        y = y0 + 14 + r * row
        entry = resources[resource]
        circled, spent = entry["circled"], entry["spent"]
        free = dots[r] - circled
        tip = t(
            "{resource}: {have} on hand ({circled} circled, {spent} spent); {free} of {dots} "
            "dots still free (what does not fit is lost).",
            resource=_capital(words.resource(resource)),
            have=entry["have"],
            circled=circled,
            spent=spent,
            free=free,
            dots=dots[r],
        )
        if red[r]:
            tip += " " + ngettext(
                "The last dot is red: circling it ends the game after the round.",
                "The last {n} dots are red: circling one ends the game after the round.",
                red[r],
            ).format(n=red[r])
        parts.append(
            f'<g class="track" data-resource="{resource}" data-have="{entry["have"]}"{_tip(tip)}>'
            + _hit(x0 - 2, y - row / 2, 110 + dots[r] * gap, row)
            + resource_icon(resource, x0 + 8, y, 8)
            + _text(x0 + 20, y + 4, f"{words.resource(resource)} {entry['have']}", "small")
        )
        for i in range(dots[r]):
            cx = x0 + 110 + i * gap
            is_red = i >= dots[r] - red[r]
            red_tip = _tip(_(RED_DOT_TIP)) if is_red else ""
            parts.append(
                f'<circle cx="{cx:.1f}" cy="{y:.1f}" r="6" class="dot{" red" if is_red else ""}"'
                f"{red_tip}/>"
            )
            if i < circled:
                parts.append(f'<circle cx="{cx:.1f}" cy="{y:.1f}" r="9" class="ring"/>')
            if i < spent:
                parts.append(
                    f'<path class="scribble" d="M {cx - 8:.1f} {y + 6:.1f} l 5 -12 l 4 12 '
                    f'l 4 -12 l 4 12"/>'
                )
        parts.append("</g>")
    return parts


def _plagues_on_sheet(crossed: dict[str, bool], deaths: int, geo: Geometry) -> list[str]:
    pestilence = geo[10][3]
    x0, y0 = RIGHT_X, 50
    parts = [_text(x0, y0, _("Plagues suffered"), "label")]
    names = [p for p in PLAGUES if p != "death"]
    width, height = 84, 26
    for k, name in enumerate(names):
        x = x0 + (k % 4) * (width + 4)
        y = y0 + 10 + (k // 4) * (height + 4)
        is_crossed = crossed.get(name, False)
        state = (
            _("suffered and crossed off: it cannot come to you again")
            if is_crossed
            else _("not suffered yet")
        )
        effect = words.plague_effect(name, pestilence)
        tip = f"{words.plague(name)} ({effect}): {state}."
        parts.append(
            f'<g class="sheet-plague{" crossed" if is_crossed else ""}" data-plague="{name}" '
            f'data-crossed="{str(is_crossed).lower()}"{_tip(tip)}>'
            f'<rect x="{x}" y="{y}" width="{width}" height="{height}" rx="5" class="plague-box"/>'
        )
        if is_crossed:  # scribbled out under the name, which stays readable
            parts.append(
                f'<line class="cross" x1="{x + 4}" y1="{y + 4}" x2="{x + width - 4}" '
                f'y2="{y + height - 4}"/><line class="cross" x1="{x + 4}" y1="{y + height - 4}" '
                f'x2="{x + width - 4}" y2="{y + 4}"/>'
            )
        parts.append(
            _text(
                x + width / 2,
                y + 17,
                words.plague(name),
                "small",
                "middle",
                "font-weight:700;paint-order:stroke;stroke:#d9d0bd;stroke-width:3px"
                if is_crossed
                else "",
            )
        )
        parts.append("</g>")
    x = x0 + (len(names) % 4) * (width + 4)
    y = y0 + 10 + (len(names) // 4) * (height + 4)
    times = _("never") if not deaths else ngettext("once", "{n} times", deaths).format(n=deaths)
    tip = t(
        "Death (build a Burial Mound that round): suffered {times}. It is never crossed off "
        "and may come again; it does not count in a tie.",
        times=times,
    )
    parts.append(
        f'<g class="sheet-plague death" data-plague="death" data-deaths="{deaths}"{_tip(tip)}>'
        f'<rect x="{x}" y="{y}" width="{width * 2 + 4}" height="{height}" rx="5" '
        'class="plague-box death"/>'
        + _text(x + 8, y + 17, t("Death: {n}", n=deaths), "small", style="font-weight:600")
        + "".join(
            f'<line x1="{x + 80 + 6 * t}" y1="{y + 6}" x2="{x + 80 + 6 * t}" y2="{y + 20}" '
            'stroke="#3b2f1c" stroke-width="2"/>'
            for t in range(min(deaths, 14))
        )
        + "</g>"
    )
    return parts


def _productivity(
    productivity: tuple[tuple[str, int], ...], steps: tuple[int, ...], view: dict[str, Any]
) -> list[str]:
    x0, y0, row = RIGHT_X, TRACK_Y, 28
    by_track = {RESOURCES[t]: b for b, t in productivity}
    parts = [_text(x0, y0 - 6, _("Productivity"), "label")]
    for i, resource in enumerate(RESOURCES[:3]):
        y = y0 + 14 + i * row
        entry = view.get(resource, {"steps": 0, "bonus": 0})
        building = by_track.get(resource)
        ladder = ", ".join(f"+{b}" for b in steps)
        source = (
            t(
                "Each {building} built moves it one step ({ladder}; no further).",
                building=words.building(building),
                ladder=ladder,
            )
            if building
            else _("No building moves it.")
        )
        name = words.resource(resource)
        tip = t(
            "{resource} productivity: +{bonus}. Whenever you take the {column} column you "
            "produce that much more.",
            resource=_capital(name),
            bonus=entry["bonus"],
            column=name,
        )
        tip = f"{tip} {source}"
        parts.append(
            f'<g class="productivity" data-resource="{resource}" data-steps="{entry["steps"]}"'
            f"{_tip(tip)}>" + _hit(x0 - 2, y - row / 2, 124 + len(steps) * 40, row)
        )
        if building:
            parts.append(building_icon(building, x0 + 10, y, 20))
        parts.append(resource_icon(resource, x0 + 30, y, 7))
        parts.append(_text(x0 + 42, y + 4, words.resource(resource), "small"))
        for k, bonus in enumerate(steps):
            cx = x0 + 120 + k * 40
            on = k < entry["steps"]
            parts.append(
                f'<rect x="{cx - 16}" y="{y - 10}" width="32" height="20" rx="10" '
                f'class="step{" on" if on else ""}"/>'
            )
            parts.append(_text(cx, y + 4, f"+{bonus}", "small", "middle"))
        parts.append("</g>")
    return parts


def _score(score: dict[str, Any], final: bool, texts: dict[str, str], geo: Geometry) -> list[str]:
    favor_per_point, basic_per_favor, ship_points, pestilence_points = geo[10]
    x0, y0 = RIGHT_X, 176
    heading = _("Final score") if final else _("Score if the game ended now")
    parts = [_text(x0, y0, heading, "label")]
    y = y0 + 20
    for card in score["cards"]:
        detail = "+".join(str(p) for p in card["parts"] if p) or "0"
        shown = f"{detail} = {card['points']}" if "+" in detail else str(card["points"])
        tip = t(
            "Pharaoh card {card}: {text}. Your city: {points}.",
            card=card["card"],
            text=texts.get(card["card"], ""),
            points=shown,
        )
        parts.append(
            f'<g class="score-line" data-card="{escape(card["card"])}"{_tip(tip)}>'
            + _hit(x0 - 2, y - 12, WIDTH - 20 - x0, 17)
            + _text(x0, y, f"{card['card']}", "small", style="font-weight:600")
            + _text(x0 + 40, y, detail if len(detail) < 36 else detail[:33] + "…", "small faint")
            + _text(WIDTH - 24, y, str(card["points"]), "small", "end", "font-weight:600")
            + "</g>"
        )
        y += 17
    unused = score["ships_unused"]
    extras = [
        (
            t("favor {n} (after the market)", n=score["favor"]),
            score["favor_points"],
            t(
                "Favor: {n}, counting the end-of-game trade of {basic} basic resources for 1 "
                "favor; 1 point per {per} favor.",
                n=score["favor"],
                basic=basic_per_favor,
                per=favor_per_point,
            ),
        ),
        (
            t("ships unused: {n}", n=unused),
            score["ship_points"],
            ngettext(
                "{n} ship never used: {points} points each.",
                "{n} ships never used: {points} points each.",
                unused,
            ).format(n=unused, points=ship_points),
        ),
        (
            _("pestilence"),
            -score["pestilence"],
            t(
                "Pestilence costs {points} points at the end if you suffered it.",
                points=pestilence_points,
            ),
        ),
    ]
    for label, points, tip in extras:
        parts.append(
            f'<g class="score-extra"{_tip(tip)}>'
            + _text(x0, y, label, "small")
            + _text(WIDTH - 24, y, str(points), "small", "end")
            + "</g>"
        )
        y += 17
    parts.append(
        f'<line x1="{x0}" y1="{y - 10}" x2="{WIDTH - 20}" y2="{y - 10}" stroke="#9c8a64"/>'
    )
    parts.append(_text(x0, y + 10, _("Total"), "label"))
    parts.append(_text(WIDTH - 24, y + 12, str(score["total"]), "total", "end"))
    return parts


# ---------------------------------------------------------------------- page data
#: Sheets drawn lately, by what they were drawn from (see :func:`drawn_sheet`).
_DRAWN: OrderedDict[tuple[Any, ...], str] = OrderedDict()
_DRAWN_LOCK = threading.Lock()
#: How many drawings are kept: a crowd's every builder twice over, in two languages.
DRAWN_KEPT = 512


def drawn_sheet(
    sheet: Sheet, name: str, view: SheetView, score: ScoreView | None, final: bool
) -> str:
    """:func:`sheet_svg`, drawn once for the same inputs and language.

    A builder's sheet is most of the cost of a seat's page (9 of 15 ms at a table of 99),
    and at a crowd table every builder's choice changes every page (who is still
    choosing) while it leaves the other sheets as they were: each page then reuses its
    drawing instead of drawing it again. The drawing depends on nothing but its arguments
    and the reader's language, which make the key."""
    key = (current_language(), id(sheet), name, repr(view), repr(score), final)
    with _DRAWN_LOCK:
        found = _DRAWN.get(key)
        if found is not None:
            _DRAWN.move_to_end(key)
            return found
    drawn = sheet_svg(sheet, name, view, score, final)
    with _DRAWN_LOCK:
        _DRAWN[key] = drawn
        if len(_DRAWN) > DRAWN_KEPT:
            _DRAWN.popitem(last=False)
    return drawn


def page_data(
    game: Game, view: Mapping[str, Any], seat: int | None, legal: Sequence[Action]
) -> dict[str, Any]:
    """The seat's parts of a view, from its own observation and its own legal moves only.

    The sheet geometry and the costs are printed (public, from ``game``); everything else
    is read from the seat's ``view``, so two positions the seat cannot tell apart give the
    same data. Every word is the reader's (``labels``: each legal move in a player's
    words, in the order of the view's ``legal``; the engine's text stays the move).
    """
    sheet = sheet_of(game)
    obs = as_observation(view)
    stages = {stage: 0 for stage in STAGE_WORDS}
    for player in obs["players"]:
        stages[player["stage"]] = stages.get(player["stage"], 0) + 1
    data: dict[str, Any] = {
        "stages": stages,
        "stage_words": {stage: words.stage(stage) for stage in STAGE_WORDS},
        "plague_effects": {p: words.plague_effect(p, sheet.pestilence_points) for p in PLAGUES},
        "plague_titles": {p: words.plague(p) for p in PLAGUES},
        "titles": {b: words.building(b) for b in TITLES},
        "resources": {r: words.resource(r) for r in RESOURCES},
        "cards": {c["id"]: words.card_text(c["text"]) for c in obs["cards"]},
        "ranks": {r["name"]: words.rank(r["name"]) for r in obs["layout"]["ranks"]},
        "colours": {"buildings": dict(BUILDING_FILLS), "resources": dict(RESOURCE_FILLS)},
        "about_figures": about_figures(sheet, obs),
        "sheet_svg": None,
        "labels": [],
    }
    if seat is None:
        return data
    me = obs["players"][seat]
    data["sheet_svg"] = drawn_sheet(sheet, me["name"], me["sheet"], me["score"], obs["over"])
    productivity = me["sheet"]["productivity"]
    bonus = {r: productivity[r]["bonus"] if r in productivity else 0 for r in RESOURCES}
    data["columns"] = [
        {
            "resource": column["resource"],
            "dice": len(column["dice"]),
            "plague": column["plague"],
            "produce": len(column["dice"]) + bonus.get(column["resource"], 0),
        }
        for column in obs["columns"]
    ]
    own = egyptia_guide.mine(sheet, obs, seat, game.rules_at_least("1.1"))
    data["moves"] = _moves(sheet, obs, legal, own)
    you = obs.get("you")
    offered: Mapping[str, bool] = (you.get("offered") if you else None) or {}
    data["labels"] = [_label(sheet, action, offered) for action in legal]
    return data


# ---------------------------------------------------------------------- a crowd table
#: Briefs made lately, by the published sheet they were made from (see :func:`brief`).
_BRIEFS: dict[int, tuple[SheetView, ScoreView, BuilderBrief]] = {}
#: How many are kept: a crowd's every builder, a few publications over.
BRIEFS_KEPT = 1024


def brief(player: PlayerView) -> BuilderBrief:
    """A builder in short, from the sheet and score the reader's observation shows of it.

    Every observation of a position shares each published sheet (one object per
    publication, ``view.public_sheet``), so the brief of one is made once for the 99 views
    of a crowd's step: it is remembered by that object, and kept with it so that the key
    cannot be reused while remembered."""
    sheet, score = player["sheet"], player["score"]
    found = _BRIEFS.get(id(score))
    if found is not None and found[0] is sheet and found[1] is score:
        return found[2]
    made: BuilderBrief = {
        "total": score["total"],
        "plagues": sum(1 for crossed in sheet["plagues"].values() if crossed),
        "deaths": sheet["deaths"],
        "buildings": sheet["buildings"],
        "ships": sum(1 for ship in sheet["ships"] if ship == "unused"),
        "red": sheet["red"],
    }
    if len(_BRIEFS) >= BRIEFS_KEPT:
        _BRIEFS.clear()
    _BRIEFS[id(score)] = (sheet, score, made)
    return made


def crowd_view(game: Game, view: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The observation a crowd table's page gets: the seat's own builder in full, every
    other one in short (:class:`~karnak.games.egyptia.view.BuilderBrief`), from the seat's
    own observation alone. A full view of 99 builders carried 99 sheets to each of 99 pages
    at every step; the page fetches one when asked (:func:`player_sheet`)."""
    obs = as_observation(view)
    players: list[PlayerView] = []
    for player in obs["players"]:
        if player["seat"] == seat:
            players.append(player)
            continue
        players.append(
            {
                "seat": player["seat"],
                "name": player["name"],
                "stage": player["stage"],
                "column": player["column"],
                "brief": brief(player),
            }
        )
    return {**obs, "players": players}


def player_sheet(game: Game, view: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """One builder in full as the reader's observation ``view`` shows it (another's sheet as
    last published, the reader's own as it stands), with its sheet drawn: what a crowd
    table's page fetches when a builder is opened."""
    obs = as_observation(view)
    player = obs["players"][seat]
    return {
        "seat": seat,
        "name": player["name"],
        "stage": player["stage"],
        "column": player["column"],
        "round": obs["round"],
        "revealed": obs["revealed"],
        "sheet": player["sheet"],
        "score": player["score"],
        "svg": drawn_sheet(
            sheet_of(game), player["name"], player["sheet"], player["score"], obs["over"]
        ),
    }


def about_figures(sheet: Sheet, obs: EgyptiaObservation) -> list[str]:
    """Where the figures of the sheet and the cards come from, in a few sentences: a note
    about our data, not about the game, so it stays out of the play tooltips (the page
    folds it under "About these figures")."""
    lines = [
        _(
            "Much of Egyptia's sheet is our reconstruction: the rule book we could read does "
            "not give every figure legibly (the dice's value ranges, most building costs, the "
            "map and its Sacred Sites, the ships and the tracks). Each figure says whether it "
            "is printed or reconstructed in the sheet's data file."
        )
    ]
    unsure = [c["id"] for c in obs["cards"] if c["confidence"] != "printed"]
    if unsure:
        lines.append(
            t(
                "The figures of these Pharaoh cards are our reconstruction: {cards}.",
                cards=", ".join(unsure),
            )
        )
    lines.append(
        _(
            "With the printed sheet at hand you can correct the figures: the terminal's board "
            "command prints them, and a corrected file is loaded with --board FILE."
        )
    )
    return lines


def _label(sheet: Sheet, action: Action, offered: Mapping[str, bool]) -> str:
    """A legal move in a player's words (a build with its cost on that hex)."""
    if isinstance(action, Build):
        return words.move_label(action, _cost_words(_build_cost(sheet, action, offered)))
    if isinstance(action, UseShip) and 0 < action.ship <= len(sheet.ships):
        return t(
            "Use ship {n} for {gives}",
            n=action.ship,
            gives=words.bundle(sheet.ships[action.ship - 1]),
        )
    return words.move_label(action)


def _build_cost(sheet: Sheet, action: Build, offered: Mapping[str, bool]) -> tuple[int, ...]:
    if action.building == "mound":
        return (0, 0, 0, 0)
    index = sheet.by_label[action.hex]
    sacred = sheet.hexes[index].sacred
    wild = offered.get(action.building, False)
    g, d, s, f = sheet.costs[action.building]
    f += (sheet.wild_favor if wild else 0) + (sheet.sacred_favor if sacred else 0)
    return (g, d, s, f)


def _cost_words(cost: Sequence[int]) -> str:
    return words.cost(cost)


def _moves(
    sheet: Sheet, obs: EgyptiaObservation, legal: Sequence[Action], me: egyptia_guide.Mine
) -> dict[str, Any]:
    """The seat's legal moves grouped the way the page offers them, each with what it does
    to the seat's own sheet: a hex what the building adds to the Pharaoh cards there, a
    payment what it leaves."""
    you = obs.get("you")
    offered: Mapping[str, bool] = (you.get("offered") if you else None) or {}
    pending = you["pending"] if you else None
    choose: list[str] = []
    plagues: list[dict[str, Any]] = []
    builds: dict[str, list[dict[str, Any]]] = {}
    payments: list[dict[str, Any]] = []
    gains: list[dict[str, Any]] = []
    ships: list[dict[str, Any]] = []
    for action in legal:
        text = action.to_text()
        if isinstance(action, Choose):
            choose.append(RESOURCES[action.column])
        elif isinstance(action, Plague):
            plagues.append(
                {
                    "text": text,
                    "plague": action.name,
                    "title": words.plague(action.name),
                    "ship": action.ship,
                    "effect": words.plague_effect(action.name, sheet.pestilence_points),
                }
            )
        elif isinstance(action, Build):
            index = sheet.by_label[action.hex]
            builds.setdefault(action.building, []).append(
                {
                    "text": text,
                    "hex": action.hex,
                    "sacred": sheet.hexes[index].sacred,
                    "cost": _cost_words(_build_cost(sheet, action, offered)),
                    "cards": me.cards_with(action.building, action.hex),
                }
            )
        elif isinstance(action, Pay):
            left = egyptia_guide.minus(me.have, action.bundle)
            payments.append(
                {
                    "text": text,
                    "words": words.bundle(action.bundle),
                    "count": sum(action.bundle),
                    "left": words.holdings(left),
                    "score": me.paid(pending, action.bundle),
                }
            )
        elif isinstance(action, Gain):
            gains.append({"text": text, "words": words.bundle(action.bundle)})
        elif isinstance(action, UseShip):
            gives = sheet.ships[action.ship - 1]
            ships.append({"text": text, "ship": action.ship, "gives": words.bundle(gives)})
    buildings = []
    for building, spots in builds.items():
        if building == "mound":
            base = t(
                "free: +{basic} basic or +{favor} favor",
                basic=sheet.mound_basic,
                favor=sheet.mound_favor,
            )
        else:
            base = _cost_words(sheet.costs[building])
        wild = offered.get(building, False)
        buildings.append(
            {
                "building": building,
                "title": words.building(building),
                "cost": base,
                "wild": wild,
                "note": t("through the d20: +{favor} favor", favor=sheet.wild_favor)
                if wild
                else "",
                "hexes": spots,
            }
        )
    # the cheapest way to pay first (fewest resources, then least favor), as the engine
    # lists them; many ways can exist, the page shows a few and folds the rest
    payments.sort(key=lambda p: p["count"])
    return {
        "choose": choose,
        "plagues": plagues,
        "buildings": buildings,
        "payments": payments,
        "gains": gains,
        "ships": ships,
    }


# ---------------------------------------------------------------------- replays
#: How many builders a replay step draws in full (the best scores first, every builder at a
#: table of up to this many): each drawing is some 40 KB, so 99 of them would make every
#: step of a big table's replay megabytes; the others travel as data (their maps, tracks
#: and scores), which the page shows as small cards.
REPLAY_DRAWN = 12


def replay(state: State) -> dict[str, Any]:
    """Every builder's full sheet at one step of a finished game's replay.

    The game is over, so nothing in it is hidden any more: the sheets are shown as they
    truly stood at that step (a builder's private steps included, sealed columns shown),
    not as the others last saw them. Only the replay asks for this, never a live view.
    """
    game = cast(EgyptiaState, state)
    builders: list[dict[str, Any]] = []
    for seat in range(game.n):
        sheet = sheet_view(game, game._sheet_of(seat))  # the true sheet, not the published one
        score = game.final[seat] if game.final is not None else game.score_sheet(seat)
        column = game.column[seat]
        builders.append(
            {
                "seat": seat,
                "name": game.players[seat],
                "stage": game.stage[seat],
                "stage_name": words.own_stage(game.stage[seat]),
                "column": RESOURCES[column] if column >= 0 else None,
                "notes": [DOMAIN.note(note) for note in game.round_notes[seat]],
                "sheet": sheet,
                "score": score,
                "svg": None,
            }
        )
    best = sorted(builders, key=lambda b: (-b["score"]["total"], b["seat"]))[:REPLAY_DRAWN]
    for builder in best:
        builder["svg"] = sheet_svg(
            game.sheet, builder["name"], builder["sheet"], builder["score"], game.over
        )
    return {"round": game.round, "builders": builders, "drawn": len(best)}


# ---------------------------------------------------------------------- the lobby
def lobby(game: Game) -> dict[str, Any]:
    """What the lobby offers for the ``cards`` option: every Pharaoh card by letter."""
    sheet = sheet_of(game)
    return {
        "cards": [
            {"id": c.id, "letter": c.letter, "text": c.text, "confidence": c.confidence}
            for c in sheet.cards
        ]
    }

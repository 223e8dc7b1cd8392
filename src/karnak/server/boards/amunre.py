"""Amun-Re for the web page: the board as SVG and the words around the controls.

Everything drawn comes from the seat's observation and the printed board (public), plus
the seat's own legal moves; the page adds no knowledge of its own. The board is schematic
but keeps the geography that the rules use: Lower Egypt above Upper Egypt, the Nile down
the middle, its west bank on the left, the provinces on its banks next to the river and the
desert provinces on the outside.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from html import escape
from typing import Any, cast

import orjson

from karnak.core.actions import Action
from karnak.core.state import State
from karnak.games.amunre.board import Board, Province
from karnak.games.amunre.state import AmunReState
from karnak.games.amunre.texts import SCORING_LINES, action_hint, card_effect

SEAT_COLOURS = ("#c0392b", "#2764c5", "#262626", "#f2f2f2", "#e0a800")
SEAT_INKS = ("#ffffff", "#ffffff", "#ffffff", "#262626", "#262626")

CARD_W, CARD_H, GAP = 206, 132, 8
COLUMNS = {("west", False): 12, ("west", True): 226, ("east", True): 530, ("east", False): 744}
NILE_X, NILE_W = 440, 82
WIDTH = 962
TOP = 96  # below the temple track
SCORE_TRACK_HEIGHT = 60 + 22 * 5

#: The board carries its own style, so it looks the same inline in the page and on its own.
STYLE = """
text { font-family: system-ui, sans-serif; font-size: 12px; fill: #3b2f1c; }
.nile { fill: #8ec5e8; }
.nile-label { font-size: 16px; font-style: italic; fill: #1d4f73; }
.half-label, .track-label { font-size: 14px; font-weight: 600; }
.card { fill: #f8eed3; }
.province.on-auction .card { fill: #fff3b0; stroke-dasharray: 6 3; }
.province.movable { cursor: pointer; }
.province.movable .card { filter: drop-shadow(0 0 4px #d49b00); }
.province.selected .card { fill: #ffe38a; }
.province-name { font-size: 15px; font-weight: 700; }
.small { font-size: 11px; }
.bonus { fill: #7a4d00; }
.tiny { font-size: 9px; }
.piece-count { font-size: 13px; font-weight: 600; }
.farmer { fill: #6b8e23; stroke: #33470f; }
.stone { fill: #c9b68a; stroke: #6d5c32; }
.pyramid { fill: #d9b24c; stroke: #7a5b12; }
.temple-space { fill: #efe2bf; stroke: #9c8a64; }
.temple-space.current { fill: #e0a800; stroke: #7a5b12; stroke-width: 2; }
.temple-number { font-size: 16px; font-weight: 700; }
.chip text { font-size: 11px; font-weight: 600; }
.score-line { stroke: #6d5c32; stroke-width: 2; }
"""


def page_data(
    state: State, seat: int | None, legal: Sequence[Action], obs: dict[str, Any]
) -> dict[str, Any]:
    """The seat's Amun-Re parts of a view: the hand with card texts, move hints."""
    game_state = cast(AmunReState, state)
    board = game_state.board
    data: dict[str, Any] = {
        "scoring_lines": [{"key": k, "label": label} for k, label in SCORING_LINES],
        "hints": [action_hint(game_state, seat, a) for a in legal] if seat is not None else [],
        "provinces_of_moves": [getattr(a, "province", None) for a in legal],
    }
    you = obs.get("you")
    if you is not None:
        data["hand"] = [
            {
                "card": kind,
                "name": game_state.card_name(kind),
                "count": count,
                "effect": card_effect(kind, board),
            }
            for kind, count in sorted(you.get("hand", {}).items())
        ]
    return data


def _text(x: float, y: float, content: str, cls: str = "", anchor: str = "start") -> str:
    klass = f' class="{cls}"' if cls else ""
    return f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}"{klass}>{escape(content)}</text>'


def _layout(board: Board) -> tuple[dict[int, tuple[int, int]], int]:
    """Top-left corner of each province card, and the board's height."""
    corners: dict[int, tuple[int, int]] = {}
    y = TOP
    for half in ("lower", "upper"):
        rows = 0
        for (side, nile), x in COLUMNS.items():
            members = [
                i
                for i, p in enumerate(board.provinces)
                if p.half == half and p.side == side and p.nile == nile
            ]
            for row, index in enumerate(members):
                corners[index] = (x, y + 26 + row * (CARD_H + GAP))
            rows = max(rows, len(members))
        y += 26 + rows * (CARD_H + GAP) + 10
    return corners, y


def board_svg(state: State) -> str:
    """The board as everyone sees it (drawn from the spectator's observation)."""
    game_state = cast(AmunReState, state)
    board = game_state.board
    obs = game_state.observation(None)
    corners, board_height = _layout(board)
    height = board_height + SCORE_TRACK_HEIGHT
    names = [p["name"] for p in obs["players"]]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="board" role="img" aria-label="Amun-Re board">',
        f"<style>{STYLE}</style>",
        f'<rect x="{NILE_X}" y="{TOP}" width="{NILE_W}" height="{board_height - TOP}" '
        'class="nile"/>',
        _text(NILE_X + NILE_W / 2, TOP + 18, "Nile", "nile-label", "middle"),
    ]
    parts.extend(_temple_track(board, obs))
    y_half = TOP
    for half, label in (("lower", "Lower Egypt"), ("upper", "Upper Egypt")):
        ys = [corners[i][1] for i, p in enumerate(board.provinces) if p.half == half]
        if ys:
            y_half = min(ys) - 8
        parts.append(_text(12, y_half, label, "half-label"))
    for index, province in enumerate(board.provinces):
        x, y = corners[index]
        entry = orjson.dumps(obs["provinces"][index], option=orjson.OPT_SORT_KEYS)
        parts.append(_province_drawing(province, entry, x, y, tuple(names)))
    parts.extend(_score_track(obs, board_height))
    parts.append("</svg>")
    return "".join(parts)


def _temple_track(board: Board, obs: dict[str, Any]) -> list[str]:
    spaces = len(board.temple_thresholds) + 1
    parts = [_text(12, 24, "Temple of Amun-Re", "track-label")]
    width = 70
    for space in range(spaces):
        x = 12 + space * (width + 6)
        here = obs["temple"] == space
        klass = "temple-space current" if here else "temple-space"
        parts.append(f'<rect x="{x}" y="34" width="{width}" height="40" rx="6" class="{klass}"/>')
        parts.append(_text(x + width / 2, 52, str(space), "temple-number", "middle"))
        floor = board.temple_thresholds[space - 1] if space else None
        caption = f"from {floor}" if floor is not None else "start"
        parts.append(_text(x + width / 2, 68, caption, "tiny", "middle"))
    start = obs["start_player"]
    x = 12 + spaces * (width + 6) + 24
    parts.append(_text(x, 52, "Start player:", "track-label"))
    parts.append(_chip(x + 100, 38, obs["players"][start]["name"], start))
    return parts


def _score_track(obs: dict[str, Any], top: int) -> list[str]:
    """Points so far along a track; seats on the same score stack downwards."""
    scores = [p["score"] for p in obs["players"]]
    end = max(60, (max(scores) // 10 + 1) * 10)
    left, right = 16, WIDTH - 16
    y = top + 40
    parts = [
        _text(left, top + 18, "Score", "track-label"),
        f'<line x1="{left}" y1="{y}" x2="{right}" y2="{y}" class="score-line"/>',
    ]
    for mark in range(0, end + 1, 10):
        x = left + (right - left - 40) * mark / end
        parts.append(
            f'<line x1="{x:.0f}" y1="{y - 4}" x2="{x:.0f}" y2="{y + 4}" class="score-line"/>'
        )
        parts.append(_text(x, y - 8, str(mark), "tiny", "middle"))
    stacked: dict[int, int] = {}
    for seat, score in enumerate(scores):
        level = stacked.get(score, 0)
        stacked[score] = level + 1
        x = left + (right - left - 40) * score / end
        parts.append(_chip(x - 4, y + 8 + 22 * level, str(score), seat, 36))
    return parts


def _chip(x: float, y: float, label: str, seat: int, width: float = 64) -> str:
    colour, ink = SEAT_COLOURS[seat % 5], SEAT_INKS[seat % 5]
    return (
        f'<g class="chip seat-{seat}"><rect x="{x:.0f}" y="{y:.0f}" width="{width:.0f}" '
        f'height="20" rx="10" fill="{colour}" stroke="#555"/>'
        f'<text x="{x + width / 2:.0f}" y="{y + 14:.0f}" text-anchor="middle" '
        f'style="fill:{ink}">'  # a style, not an attribute: the sheet's text rule would win
        f"{escape(label)}</text></g>"
    )


@functools.lru_cache(maxsize=8192)
def _province_drawing(
    province: Province, entry: bytes, x: int, y: int, names: tuple[str, ...]
) -> str:
    """A province's drawing, remembered: most provinces look the same after a move, so a
    server redrawing the board after every move mostly reuses earlier drawings."""
    return _province(province, orjson.loads(entry), x, y, list(names))


def _province(
    province: Province,
    entry: dict[str, Any],
    x: int,
    y: int,
    names: list[str],
) -> str:
    owner = entry["owner"]
    classes = ["province"]
    if entry["on_auction"]:
        classes.append("on-auction")
    stroke = SEAT_COLOURS[owner % 5] if owner >= 0 else "#9c8a64"
    parts = [
        f'<g class="{" ".join(classes)}" data-province="{escape(province.name)}">',
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" class="card" '
        f'stroke="{stroke}" stroke-width="{4 if owner >= 0 else 1.5}"/>',
        _text(x + 8, y + 18, province.name.title(), "province-name"),
    ]
    if owner >= 0:
        parts.append(_chip(x + CARD_W - 72, y + 5, names[owner], owner))
    farmers = entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]
    fields = f"fields {entry['empty_fields']}/{province.fields} empty"
    parts.append(_text(x + 8, y + 37, f"{fields} · limit {province.card_limit} cards", "small"))
    income = f"gold {province.gold} · caravan {province.caravan} · temples {province.temples}"
    parts.append(_text(x + 8, y + 53, income, "small"))
    boxes = []
    if entry["face_down_cards"]:
        boxes.append(f"{entry['face_down_cards']} free card(s)")
    if entry["free_gold"]:
        boxes.append(f"{entry['free_gold']} free gold")
    if province.bonus_stones and owner < 0:
        boxes.append(f"{province.bonus_stones} free stone(s)")
    if boxes:
        parts.append(_text(x + 8, y + 69, "Bonus: " + ", ".join(boxes), "small bonus"))
    # pieces: farmers (circles), stones (squares), pyramids (triangles)
    py = y + 92
    parts.append(_text(x + 8, py + 4, f"{farmers}", "piece-count"))
    parts.append(f'<circle cx="{x + 30}" cy="{py}" r="6" class="farmer"/>')
    parts.append(_text(x + 48, py + 4, f"{entry['stones']}", "piece-count"))
    parts.append(f'<rect x="{x + 64}" y="{py - 6}" width="12" height="12" class="stone"/>')
    parts.append(_text(x + 90, py + 4, f"{entry['pyramids']}", "piece-count"))
    parts.append(f'<path d="M{x + 104} {py + 7} l8 -15 l8 15 z" class="pyramid"/>')
    # bids
    bx = x + 8
    for bid in entry["bids"]:
        label = f"{bid['amount']}" + ("+" if bid.get("overbid") else "")
        parts.append(_chip(bx, y + CARD_H - 26, label, bid["seat"], 40))
        bx += 44
    if entry["on_auction"] and not entry["bids"]:
        parts.append(_text(x + 8, y + CARD_H - 12, "on auction: no bid yet", "small"))
    title = f"{province.name.title()}: {province.half} Egypt, {province.side} "
    title += "bank of the Nile" if province.nile else "desert"
    parts.append(f"<title>{escape(title)}</title></g>")
    return "".join(parts)

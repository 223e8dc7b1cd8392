"""Amun-Re for the web page: the board as SVG and the words around the controls.

Everything drawn comes from the seat's observation and the printed board (public), plus
the seat's own legal moves; the page never sees the state and adds no knowledge of its own.
The board is schematic but keeps the geography that the rules use: Lower Egypt above Upper
Egypt, the Nile down the middle, its west bank on the left, the provinces on its banks next
to the river and the desert provinces on the outside.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from html import escape
from typing import Any

import orjson

from karnak.core.actions import Action
from karnak.core.game import Game
from karnak.core.plugin import View
from karnak.games.amunre.rules.board import Board, Province
from karnak.games.amunre.texts import SCORING_LINES, action_hint, board_of, card_effect, card_name
from karnak.games.amunre.view import AmunReObservation, ProvinceView, as_observation

SEAT_COLOURS = ("#c0392b", "#2764c5", "#262626", "#f2f2f2", "#e0a800")
SEAT_INKS = ("#ffffff", "#ffffff", "#ffffff", "#262626", "#262626")

CARD_W, CARD_H, GAP = 206, 132, 8


def seat_letters(names: Sequence[str]) -> list[str]:
    """A letter for each seat, so that markers are told apart without their colour: the
    name's initial, with the seat's number where names share it (Blue and Black: B2, B3)."""
    initials = []
    for seat, name in enumerate(names):
        letter = next((c for c in name if c.isalnum()), str(seat + 1))
        initials.append(letter.upper())
    return [
        f"{letter}{seat + 1}" if initials.count(letter) > 1 else letter
        for seat, letter in enumerate(initials)
    ]


def _count(count: int, one: str) -> str:
    """A count with its noun: 1 stone, 2 stones."""
    return f"{count} {one}{'' if count == 1 else 's'}"


def _tip(text: str) -> str:
    """A ``data-tip`` attribute (the page shows it on hover, focus and long press)."""
    return f' data-tip="{escape(text, quote=True)}"'


def _who(names: Sequence[str], letters: Sequence[str], seat: int) -> str:
    return f"{names[seat]} ({letters[seat]})"


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


def page_data(game: Game, view: View, seat: int | None, legal: Sequence[Action]) -> dict[str, Any]:
    """The seat's Amun-Re parts of a view: the hand with card texts, move hints."""
    board = board_of(game)
    obs = as_observation(view)
    data: dict[str, Any] = {
        "scoring_lines": [{"key": k, "label": label} for k, label in SCORING_LINES],
        "hints": [action_hint(board, obs, a) for a in legal] if seat is not None else [],
        "provinces_of_moves": [getattr(a, "province", None) for a in legal],
        "letters": seat_letters([p["name"] for p in obs["players"]]),
        "offer_cards": obs["options"]["offer_cards"],
    }
    you = obs.get("you")
    if you is not None:
        data["hand"] = [
            {
                "card": kind,
                "name": card_name(board, obs, kind),
                "count": count,
                "effect": card_effect(kind, board),
            }
            for kind, count in sorted(you["hand"].items())
        ]
    return data


def _text(
    x: float, y: float, content: str, cls: str = "", anchor: str = "start", tip: str = ""
) -> str:
    klass = f' class="{cls}"' if cls else ""
    tipped = _tip(tip) if tip else ""
    return (
        f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}"{klass}{tipped}>'
        f"{escape(content)}</text>"
    )


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


def board_svg(game: Game, public_view: View) -> str:
    """The board as everyone sees it, drawn from the spectator's observation."""
    board = board_of(game)
    obs = as_observation(public_view)
    corners, board_height = _layout(board)
    height = board_height + SCORE_TRACK_HEIGHT
    names = tuple(p["name"] for p in obs["players"])
    letters = tuple(seat_letters(names))
    nile_tip = (
        f"The Nile. Provinces on its banks and away from them count for the "
        f"{card_name(board, obs, 'bank_bonus')} card; at a scoring, the owned province with "
        f"most pyramids on each side scores {board.nile_side_points} points."
    )
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="board amunre-board" role="group" aria-label="Amun-Re board">',
        f"<style>{STYLE}</style>",
        f'<rect x="{NILE_X}" y="{TOP}" width="{NILE_W}" height="{board_height - TOP}" '
        f'class="nile"{_tip(nile_tip)}/>',
        _text(NILE_X + NILE_W / 2, TOP + 18, "Nile", "nile-label", "middle", nile_tip),
    ]
    parts.extend(_temple_track(board, obs, names, letters))
    y_half = TOP
    for half, label in (("lower", "Lower Egypt"), ("upper", "Upper Egypt")):
        ys = [corners[i][1] for i, p in enumerate(board.provinces) if p.half == half]
        if ys:
            y_half = min(ys) - 8
        tip = (
            f"{label}: the {card_name(board, obs, 'egypt_bonus')} card scores when all of a "
            "player's provinces lie in one half of Egypt."
        )
        parts.append(_text(12, y_half, label, "half-label", tip=tip))
    for index, province in enumerate(board.provinces):
        x, y = corners[index]
        entry = orjson.dumps(obs["provinces"][index], option=orjson.OPT_SORT_KEYS)
        parts.append(
            _province_drawing(province, entry, x, y, names, letters, _card_words(board, obs))
        )
    parts.extend(_score_track(obs, board_height, names, letters))
    parts.append("</svg>")
    return "".join(parts)


def _card_words(board: Board, obs: AmunReObservation) -> tuple[str, str, str]:
    """Words a province's tip needs beyond the province: two card names in the game's
    edition and the temple spaces on which caravans pay."""
    spaces = " and ".join(str(s) for s in board.caravan_spaces)
    return card_name(board, obs, "free_farmer"), card_name(board, obs, "card_bonus"), spaces


def _temple_track(
    board: Board, obs: AmunReObservation, names: Sequence[str], letters: Sequence[str]
) -> list[str]:
    spaces = len(board.temple_thresholds) + 2  # the start beside the track, then 1 to 4
    parts = [_text(12, 24, "Temple of Amun-Re", "track-label")]
    width = 70
    for space in range(spaces):
        x = 12 + space * (width + 6)
        here = obs["temple"] == space
        klass = "temple-space current" if here else "temple-space"
        tip = _temple_tip(board, space) + (" The temple stands here now." if here else "")
        parts.append(
            f'<g class="temple-step"{_tip(tip)}>'
            f'<rect x="{x}" y="34" width="{width}" height="40" rx="6" class="{klass}"/>'
        )
        parts.append(_text(x + width / 2, 52, str(space), "temple-number", "middle"))
        floor = board.temple_thresholds[space - 2] + 1 if space > 1 else None
        caption = "start" if space == 0 else f"{floor}+" if floor is not None else "low"
        if space == 1:
            caption = f"up to {board.temple_thresholds[0]}"
        elif 1 < space <= len(board.temple_thresholds):
            caption = f"{floor}-{board.temple_thresholds[space - 1]}"
        parts.append(_text(x + width / 2, 68, caption, "tiny", "middle"))
        parts.append("</g>")
    start = obs["start_player"]
    x = 12 + spaces * (width + 6) + 24
    start_tip = (
        f"{_who(names, letters, start)} is the start player: first to bid, to buy and to "
        "collect, and first in turn order when offers are equal."
    )
    parts.append(_text(x, 52, "Start player:", "track-label", tip=start_tip))
    parts.append(_chip(x + 100, 38, f"{letters[start]} {names[start]}", start, 96, tip=start_tip))
    return parts


def _temple_tip(board: Board, space: int) -> str:
    """What a temple space means: the offering totals that reach it and what it pays."""
    if space == 0:
        return "Start: the temple waits beside its track until the first offering."
    limits = board.temple_thresholds
    if space == 1:
        reach = f"an offering total of {limits[0]} or less"
    elif space <= len(limits):
        reach = f"an offering total of {limits[space - 2] + 1} to {limits[space - 1]}"
    else:
        reach = f"an offering total of {limits[-1] + 1} or more"
    caravans = "caravans pay too" if space in board.caravan_spaces else "caravans pay nothing"
    return (
        f"Temple space {space}, reached by {reach}: at the harvest each farmer earns "
        f"{space} gold and {caravans}; at a scoring each temple is worth {space} "
        f"point{'s' if space > 1 else ''}."
    )


def _score_track(
    obs: AmunReObservation, top: int, names: Sequence[str], letters: Sequence[str]
) -> list[str]:
    """Points so far along a track; seats on the same score stack downwards."""
    scores = [p["score"] for p in obs["players"]]
    end = max(60, (max(scores) // 10 + 1) * 10)
    left, right = 16, WIDTH - 16
    y = top + 40
    parts = [
        _text(
            left,
            top + 18,
            "Score",
            "track-label",
            tip="Points so far; scorings come after rounds 3 and 6.",
        ),
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
        tip = f"{_who(names, letters, seat)}: {score} point{'s' if score != 1 else ''}"
        parts.append(_chip(x - 4, y + 8 + 22 * level, f"{letters[seat]} {score}", seat, 44, tip))
    return parts


def _chip(x: float, y: float, label: str, seat: int, width: float = 64, tip: str = "") -> str:
    colour, ink = SEAT_COLOURS[seat % 5], SEAT_INKS[seat % 5]
    tipped = _tip(tip) if tip else ""
    return (
        f'<g class="chip seat-{seat}"{tipped}><rect x="{x:.0f}" y="{y:.0f}" '
        f'width="{width:.0f}" height="20" rx="10" fill="{colour}" stroke="#555"/>'
        f'<text x="{x + width / 2:.0f}" y="{y + 14:.0f}" text-anchor="middle" '
        f'style="fill:{ink}">'  # a style, not an attribute: the sheet's text rule would win
        f"{escape(label)}</text></g>"
    )


@functools.lru_cache(maxsize=8192)
def _province_drawing(
    province: Province,
    entry: bytes,
    x: int,
    y: int,
    names: tuple[str, ...],
    letters: tuple[str, ...],
    words: tuple[str, str, str],
) -> str:
    """A province's drawing, remembered: most provinces look the same after a move, so a
    server redrawing the board after every move mostly reuses earlier drawings."""
    view: ProvinceView = orjson.loads(entry)
    return _province(province, view, x, y, names, letters, words)


def province_tip(
    province: Province,
    entry: ProvinceView,
    names: Sequence[str],
    letters: Sequence[str],
    words: tuple[str, str, str] = ("free farmer", "power card bonus", "1 and 2"),
) -> str:
    """Everything public about a province, in a few sentences: where it lies, its printed
    figures, the free material it brings, who owns it and what stands on it."""
    free_farmer, card_bonus, caravan_spaces = words
    where = f"{province.half.title()} Egypt, " + (
        f"{province.side} bank of the Nile" if province.nile else f"{province.side} desert"
    )
    fields = (
        f"{province.fields} field{'s' if province.fields != 1 else ''} "
        f"({entry['empty_fields']} empty)"
        if province.fields
        else f"no fields (farmers only with a {free_farmer} card)"
    )
    income = [f"gold {province.gold} every harvest"] if province.gold else []
    if province.caravan:
        income.append(f"caravan {province.caravan} on temple spaces {caravan_spaces}")
    figures = [
        fields,
        f"card limit {province.card_limit}",
        *income,
        f"temples {province.temples}",
    ]
    sentences = [f"{province.name.title()}: {where}.", "; ".join(figures).capitalize() + "."]
    bonus = []
    if province.bonus_cards:
        bonus.append(_count(province.bonus_cards, "face-down power card"))
    if province.bonus_gold:
        bonus.append(f"{province.bonus_gold} gold")
    if province.bonus_stones:
        bonus.append(_count(province.bonus_stones, "stone"))
    if bonus:
        sentences.append("When it comes up: " + ", ".join(bonus) + ".")
    if province.card_symbols:
        sentences.append(
            f"Power-card symbols (they count for the {card_bonus} card): {province.card_symbols}."
        )
    owner = entry["owner"]
    sentences.append(f"Owner: {_who(names, letters, owner)}." if owner >= 0 else "Owner: nobody.")
    farmers = entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]
    pieces = f"Farmers {farmers}"
    if entry["printed_farmers"]:
        pieces += f" ({entry['printed_farmers']} printed)"
    sentences.append(f"{pieces}, stones {entry['stones']}, pyramids {entry['pyramids']}.")
    lying = []
    if entry["face_down_cards"]:
        lying.append(_count(entry["face_down_cards"], "face-down power card"))
    if entry["free_gold"]:
        lying.append(f"{entry['free_gold']} gold")
    if lying:
        sentences.append("Lying here for its winner: " + ", ".join(lying) + ".")
    if entry["bids"]:
        sentences.append(
            "Bids: "
            + ", ".join(
                f"{_who(names, letters, b['seat'])} {b['amount']}"
                + (" (overbid)" if b["overbid"] else "")
                for b in entry["bids"]
            )
            + "."
        )
    elif entry["on_auction"]:
        sentences.append("On auction, no bid yet.")
    unsure = [k for k, level in province.confidence.items() if level == "reconstructed"]
    if unsure:
        sentences.append(
            "Reconstructed, not printed: " + ", ".join(k.replace("_", " ") for k in unsure) + "."
        )
    return " ".join(sentences)


def _province(
    province: Province,
    entry: ProvinceView,
    x: int,
    y: int,
    names: Sequence[str],
    letters: Sequence[str],
    words: tuple[str, str, str],
) -> str:
    owner = entry["owner"]
    classes = ["province"]
    if entry["on_auction"]:
        classes.append("on-auction")
    stroke = SEAT_COLOURS[owner % 5] if owner >= 0 else "#9c8a64"
    tip = province_tip(province, entry, names, letters, words)
    parts = [
        f'<g class="{" ".join(classes)}" data-province="{escape(province.name)}"{_tip(tip)}>',
        f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" class="card" '
        f'stroke="{stroke}" stroke-width="{4 if owner >= 0 else 1.5}"/>',
        _text(x + 8, y + 18, province.name.title(), "province-name"),
    ]
    if owner >= 0:
        label = f"{letters[owner]} {names[owner]}"
        if len(label) > 10:
            label = label[:9] + "\u2026"
        parts.append(
            _chip(x + CARD_W - 80, y + 5, label, owner, 74, f"Owner: {_who(names, letters, owner)}")
        )
    farmers = entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]
    fields = f"fields {entry['empty_fields']}/{province.fields} empty"
    fields_tip = (
        f"{entry['empty_fields']} of {province.fields} fields are empty: a farmer bought or "
        f"taken needs one. Its owner may buy up to {province.card_limit} power cards in a "
        "market (the best limit among their provinces counts)."
    )
    parts.append(
        _text(
            x + 8,
            y + 37,
            f"{fields} · limit {province.card_limit} cards",
            "small",
            tip=fields_tip,
        )
    )
    income = f"gold {province.gold} · caravan {province.caravan} · temples {province.temples}"
    caravan_spaces = words[2]
    income_tip = (
        f"Gold {province.gold}: paid every harvest. Caravan {province.caravan}: paid only with "
        f"the temple on spaces {caravan_spaces}. Temples {province.temples}: each worth the "
        "temple's space in points at a scoring."
    )
    parts.append(_text(x + 8, y + 53, income, "small", tip=income_tip))
    boxes = []
    if entry["face_down_cards"]:
        boxes.append(f"{entry['face_down_cards']} free card(s)")
    if entry["free_gold"]:
        boxes.append(f"{entry['free_gold']} free gold")
    if province.bonus_stones and owner < 0:
        boxes.append(f"{province.bonus_stones} free stone(s)")
    if boxes:
        bonus_tip = (
            "Free material, laid out when the province comes up: its winner takes the cards "
            "and the gold; stones stay in the province, toward its pyramids."
        )
        parts.append(
            _text(x + 8, y + 69, "Bonus: " + ", ".join(boxes), "small bonus", tip=bonus_tip)
        )
    # pieces: farmers (circles), stones (squares), pyramids (triangles), each with its tip
    py = y + 92
    farmer_tip = (
        f"{farmers} farmer{'s' if farmers != 1 else ''}: each earns the temple's space in "
        "gold at the harvest"
    )
    stone_tip = (
        f"{entry['stones']} stone{'s' if entry['stones'] != 1 else ''}: a third stone makes "
        "a pyramid"
    )
    pyramid_tip = (
        f"{entry['pyramids']} pyramid{'s' if entry['pyramids'] != 1 else ''}: 1 point each "
        "at a scoring, and they count for sets and the Nile sides"
    )
    parts.append(f'<g class="pieces farmers"{_tip(farmer_tip)}>')
    parts.append(_text(x + 8, py + 4, f"{farmers}", "piece-count"))
    parts.append(f'<circle cx="{x + 30}" cy="{py}" r="6" class="farmer"/></g>')
    parts.append(f'<g class="pieces stones"{_tip(stone_tip)}>')
    parts.append(_text(x + 48, py + 4, f"{entry['stones']}", "piece-count"))
    parts.append(f'<rect x="{x + 64}" y="{py - 6}" width="12" height="12" class="stone"/></g>')
    parts.append(f'<g class="pieces pyramids"{_tip(pyramid_tip)}>')
    parts.append(_text(x + 90, py + 4, f"{entry['pyramids']}", "piece-count"))
    parts.append(f'<path d="M{x + 104} {py + 7} l8 -15 l8 15 z" class="pyramid"/></g>')
    # bids
    bx = x + 8
    for bid in entry["bids"]:
        seat = bid["seat"]
        label = f"{letters[seat]} {bid['amount']}" + ("+" if bid.get("overbid") else "")
        bid_tip = f"{_who(names, letters, seat)} bids {bid['amount']}" + (
            ": overbid, must move (or bid again here with an overbid card)"
            if bid.get("overbid")
            else ""
        )
        parts.append(_chip(bx, y + CARD_H - 26, label, seat, 48, bid_tip))
        bx += 52
    if entry["on_auction"] and not entry["bids"]:
        parts.append(_text(x + 8, y + CARD_H - 12, "on auction: no bid yet", "small"))
    parts.append("</g>")
    return "".join(parts)

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
from karnak.games.amunre.i18n import _, ngettext, t
from karnak.games.amunre.rules import actions as A
from karnak.games.amunre.rules.board import Board, Province
from karnak.games.amunre.texts import (
    SCORING_LINES,
    action_hint,
    action_label,
    board_of,
    card_effect,
    card_name,
    move_group,
    province_name,
)
from karnak.games.amunre.view import AmunReObservation, ProvinceView, as_observation
from karnak.i18n import current_language

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
    mine = seat is not None
    data: dict[str, Any] = {
        "scoring_lines": [{"key": k, "label": _(label)} for k, label in SCORING_LINES],
        # each legal move in a player's words, the few words beside it and its heading
        # (the engine's text, which is what is sent, stays in view["legal"])
        "labels": [action_label(board, obs, a) for a in legal] if mine else [],
        "hints": [move_hint(board, obs, a) for a in legal] if mine else [],
        "groups": [move_group(a) for a in legal] if mine else [],
        "provinces_of_moves": [getattr(a, "province", None) for a in legal],
        "province_names": {p.name: province_name(p.name) for p in board.provinces},
        "card_names": {c.id: card_name(board, obs, c.id) for c in board.cards},
        "letters": seat_letters([p["name"] for p in obs["players"]]),
        "offer_cards": obs["options"]["offer_cards"],
        "about_figures": about_figures(board),
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


def move_hint(board: Board, obs: AmunReObservation, action: Action) -> str:
    """The few words under a move's button on the page: what the label does not say already
    (the label carries the price and the card played)."""
    if isinstance(action, A.Sell | A.PlayBonus):
        return card_effect(action.card, board)
    if isinstance(action, A.BuyCards):
        return _("drawn from the deck; only you see which")
    if isinstance(action, A.Farmer):
        return _("each farmer earns gold at every harvest")
    if isinstance(action, A.Stone):
        return _("a third stone makes a pyramid")
    if isinstance(action, A.Builder | A.FreeFarmer | A.EightGold | A.HarvestIncrease):
        return card_effect(action.kind, board)
    if isinstance(action, A.Done):
        return ""
    return action_hint(board, obs, action)


def about_figures(board: Board) -> dict[str, Any]:
    """Where the board's figures come from, for the page's "About these figures" panel:
    a note on the sources, and per province the figures that no rule book prints (kept
    out of the play tooltips, which say what the game does)."""
    field_words = {
        "half": _("half of Egypt"),
        "side": _("side of the Nile"),
        "nile": _("on the Nile or not"),
        "card_limit": _("card limit"),
        "fields": _("fields"),
        "printed_farmers": _("printed farmers"),
        "bonus_cards": _("free cards"),
        "bonus_stones": _("free stones"),
        "bonus_gold": _("free gold"),
        "gold": _("gold income"),
        "caravan": _("caravan"),
        "temples": _("temples"),
    }
    provinces = []
    for province in board.provinces:
        reconstructed = [
            field_words.get(k, k) for k, v in province.confidence.items() if v == "reconstructed"
        ]
        single = [
            field_words.get(k, k) for k, v in province.confidence.items() if v == "one source"
        ]
        if reconstructed or single:
            provinces.append(
                {
                    "province": province_name(province.name),
                    "reconstructed": reconstructed,
                    "one_source": single,
                }
            )
    return {
        "source": board.source,
        "note": _(
            "Karnak draws the board from the printed rule books and reviews. Where no source "
            "we could read prints a figure, it is our best reading of the map and the rules' "
            "examples (reconstructed); a figure from a single source is marked too. The rules "
            "play by these figures; a printed board may differ."
        ),
        "provinces": provinces,
    }


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
    nile_tip = t(
        "The Nile. Provinces on its banks and away from them count for the {card} card; at a "
        "scoring, the owned province with most pyramids on each side scores {points} points.",
        card=card_name(board, obs, "bank_bonus"),
        points=board.nile_side_points,
    )
    board_label = escape(_("Amun-Re board"), quote=True)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'class="board amunre-board" role="group" aria-label="{board_label}">',
        f"<style>{STYLE}</style>",
        f'<rect x="{NILE_X}" y="{TOP}" width="{NILE_W}" height="{board_height - TOP}" '
        f'class="nile"{_tip(nile_tip)}/>',
        _text(NILE_X + NILE_W / 2, TOP + 18, _("Nile"), "nile-label", "middle", nile_tip),
    ]
    parts.extend(_temple_track(board, obs, names, letters))
    y_half = TOP
    for half, label in (("lower", _("Lower Egypt")), ("upper", _("Upper Egypt"))):
        ys = [corners[i][1] for i, p in enumerate(board.provinces) if p.half == half]
        if ys:
            y_half = min(ys) - 8
        tip = t(
            "{half}: the {card} card scores when all of a player's provinces lie in one half "
            "of Egypt.",
            half=label,
            card=card_name(board, obs, "egypt_bonus"),
        )
        parts.append(_text(12, y_half, label, "half-label", tip=tip))
    for index, province in enumerate(board.provinces):
        x, y = corners[index]
        entry = orjson.dumps(obs["provinces"][index], option=orjson.OPT_SORT_KEYS)
        parts.append(
            _province_drawing(
                province, entry, x, y, names, letters, _card_words(board, obs), current_language()
            )
        )
    parts.extend(_score_track(obs, board_height, names, letters))
    parts.append("</svg>")
    return "".join(parts)


def _card_words(board: Board, obs: AmunReObservation) -> tuple[str, str, str]:
    """Words a province's tip needs beyond the province: two card names in the game's
    edition and the temple spaces on which caravans pay."""
    spaces = board.caravan_spaces
    joined = (
        t("{first} and {second}", first=spaces[0], second=spaces[1])
        if len(spaces) == 2
        else ", ".join(str(s) for s in spaces)
    )
    return card_name(board, obs, "free_farmer"), card_name(board, obs, "card_bonus"), joined


def _temple_track(
    board: Board, obs: AmunReObservation, names: Sequence[str], letters: Sequence[str]
) -> list[str]:
    spaces = len(board.temple_thresholds) + 2  # the start beside the track, then 1 to 4
    parts = [_text(12, 24, _("Temple of Amun-Re"), "track-label")]
    width = 70
    for space in range(spaces):
        x = 12 + space * (width + 6)
        here = obs["temple"] == space
        klass = "temple-space current" if here else "temple-space"
        tip = _temple_tip(board, space) + (" " + _("The temple stands here now.") if here else "")
        parts.append(
            f'<g class="temple-step"{_tip(tip)}>'
            f'<rect x="{x}" y="34" width="{width}" height="40" rx="6" class="{klass}"/>'
        )
        parts.append(_text(x + width / 2, 52, str(space), "temple-number", "middle"))
        floor = board.temple_thresholds[space - 2] + 1 if space > 1 else None
        caption = _("start") if space == 0 else f"{floor}+" if floor is not None else ""
        if space == 1:
            caption = t("up to {n}", n=board.temple_thresholds[0])
        elif 1 < space <= len(board.temple_thresholds):
            caption = f"{floor}-{board.temple_thresholds[space - 1]}"
        parts.append(_text(x + width / 2, 68, caption, "tiny", "middle"))
        parts.append("</g>")
    start = obs["start_player"]
    x = 12 + spaces * (width + 6) + 24
    start_tip = t(
        "{player} is the start player: first to bid, to buy and to collect, and first in turn "
        "order when offers are equal.",
        player=_who(names, letters, start),
    )
    parts.append(_text(x, 52, _("Start player:"), "track-label", tip=start_tip))
    parts.append(_chip(x + 100, 38, f"{letters[start]} {names[start]}", start, 96, tip=start_tip))
    return parts


def _temple_tip(board: Board, space: int) -> str:
    """What a temple space means: the offering totals that reach it and what it pays."""
    if space == 0:
        return _("Start: the temple waits beside its track until the first offering.")
    limits = board.temple_thresholds
    if space == 1:
        reach = t("an offering total of {n} or less", n=limits[0])
    elif space <= len(limits):
        reach = t(
            "an offering total of {low} to {high}",
            low=limits[space - 2] + 1,
            high=limits[space - 1],
        )
    else:
        reach = t("an offering total of {n} or more", n=limits[-1] + 1)
    if space in board.caravan_spaces:
        text = ngettext(
            "Temple space {space}, reached by {reach}: at the harvest each farmer earns {space} "
            "gold and caravans pay too; at a scoring each temple is worth {space} point.",
            "Temple space {space}, reached by {reach}: at the harvest each farmer earns {space} "
            "gold and caravans pay too; at a scoring each temple is worth {space} points.",
            space,
        )
    else:
        text = ngettext(
            "Temple space {space}, reached by {reach}: at the harvest each farmer earns {space} "
            "gold and caravans pay nothing; at a scoring each temple is worth {space} point.",
            "Temple space {space}, reached by {reach}: at the harvest each farmer earns {space} "
            "gold and caravans pay nothing; at a scoring each temple is worth {space} points.",
            space,
        )
    return text.format(space=space, reach=reach)


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
            _("Score"),
            "track-label",
            tip=_("Points so far; scorings come after rounds 3 and 6."),
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
        tip = ngettext("{player}: {n} point", "{player}: {n} points", score).format(
            player=_who(names, letters, seat), n=score
        )
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
    language: str,
) -> str:
    """A province's drawing, remembered: most provinces look the same after a move, so a
    server redrawing the board after every move mostly reuses earlier drawings (one per
    language: ``language`` is the current one, part of the key)."""
    view: ProvinceView = orjson.loads(entry)
    return _province(province, view, x, y, names, letters, words)


def _where(province: Province) -> str:
    if province.half == "upper":
        if not province.nile:
            return (
                _("Upper Egypt, west desert")
                if province.side == "west"
                else _("Upper Egypt, east desert")
            )
        return (
            _("Upper Egypt, west bank of the Nile")
            if province.side == "west"
            else _("Upper Egypt, east bank of the Nile")
        )
    if not province.nile:
        return (
            _("Lower Egypt, west desert")
            if province.side == "west"
            else _("Lower Egypt, east desert")
        )
    return (
        _("Lower Egypt, west bank of the Nile")
        if province.side == "west"
        else _("Lower Egypt, east bank of the Nile")
    )


def province_tip(
    province: Province,
    entry: ProvinceView,
    names: Sequence[str],
    letters: Sequence[str],
    words: tuple[str, str, str] = ("free farmer", "power card bonus", "1 and 2"),
) -> str:
    """Everything public about a province, in a few sentences: where it lies, its printed
    figures, the free material it brings, who owns it and what stands on it. Where the
    figures come from is not play: it lives in the page's "About these figures" panel."""
    free_farmer, card_bonus, caravan_spaces = words
    if province.fields:
        fields = ngettext(
            "{n} field ({empty} empty)", "{n} fields ({empty} empty)", province.fields
        ).format(n=province.fields, empty=entry["empty_fields"])
    else:
        fields = t("no fields (farmers only with a {card} card)", card=free_farmer)
    figures = [fields, t("card limit {n}", n=province.card_limit)]
    if province.gold:
        figures.append(t("gold {n} every harvest", n=province.gold))
    if province.caravan:
        figures.append(
            t("caravan {n} on temple spaces {spaces}", n=province.caravan, spaces=caravan_spaces)
        )
    figures.append(t("temples {n}", n=province.temples))
    sentences = [
        t("{province}: {where}.", province=province_name(province.name), where=_where(province)),
        "; ".join(figures) + ".",
    ]
    bonus = []
    if province.bonus_cards:
        bonus.append(
            ngettext(
                "{n} face-down power card", "{n} face-down power cards", province.bonus_cards
            ).format(n=province.bonus_cards)
        )
    if province.bonus_gold:
        bonus.append(t("{n} gold", n=province.bonus_gold))
    if province.bonus_stones:
        bonus.append(
            ngettext("{n} stone", "{n} stones", province.bonus_stones).format(
                n=province.bonus_stones
            )
        )
    if bonus:
        sentences.append(t("When it comes up: {items}.", items=", ".join(bonus)))
    if province.card_symbols:
        sentences.append(
            t(
                "Power-card symbols (they count for the {card} card): {n}.",
                card=card_bonus,
                n=province.card_symbols,
            )
        )
    owner = entry["owner"]
    sentences.append(
        t("Owner: {player}.", player=_who(names, letters, owner))
        if owner >= 0
        else _("Owner: nobody.")
    )
    farmers = entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]
    if entry["printed_farmers"]:
        sentences.append(
            t(
                "Farmers {farmers} ({printed} printed), stones {stones}, pyramids {pyramids}.",
                farmers=farmers,
                printed=entry["printed_farmers"],
                stones=entry["stones"],
                pyramids=entry["pyramids"],
            )
        )
    else:
        sentences.append(
            t(
                "Farmers {farmers}, stones {stones}, pyramids {pyramids}.",
                farmers=farmers,
                stones=entry["stones"],
                pyramids=entry["pyramids"],
            )
        )
    lying = []
    if entry["face_down_cards"]:
        lying.append(
            ngettext(
                "{n} face-down power card", "{n} face-down power cards", entry["face_down_cards"]
            ).format(n=entry["face_down_cards"])
        )
    if entry["free_gold"]:
        lying.append(t("{n} gold", n=entry["free_gold"]))
    if lying:
        sentences.append(t("Lying here for its winner: {items}.", items=", ".join(lying)))
    if entry["bids"]:
        bids = [
            t(
                "{player} {amount} (overbid)",
                player=_who(names, letters, b["seat"]),
                amount=b["amount"],
            )
            if b["overbid"]
            else t("{player} {amount}", player=_who(names, letters, b["seat"]), amount=b["amount"])
            for b in entry["bids"]
        ]
        sentences.append(t("Bids: {bids}.", bids=", ".join(bids)))
    elif entry["on_auction"]:
        sentences.append(_("On auction, no bid yet."))
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
        _text(x + 8, y + 18, province_name(province.name), "province-name"),
    ]
    if owner >= 0:
        label = f"{letters[owner]} {names[owner]}"
        if len(label) > 10:
            label = label[:9] + "\u2026"
        parts.append(
            _chip(
                x + CARD_W - 80,
                y + 5,
                label,
                owner,
                74,
                t("Owner: {player}", player=_who(names, letters, owner)),
            )
        )
    farmers = entry["farmers"] + entry["free_farmers"] + entry["printed_farmers"]
    fields_tip = t(
        "{empty} of {fields} fields are empty: a farmer bought or taken needs one. Its owner "
        "may buy up to {limit} power cards in a market (the best limit among their provinces "
        "counts).",
        empty=entry["empty_fields"],
        fields=province.fields,
        limit=province.card_limit,
    )
    parts.append(
        _text(
            x + 8,
            y + 37,
            t(
                "fields {empty}/{fields} empty · limit {limit} cards",
                empty=entry["empty_fields"],
                fields=province.fields,
                limit=province.card_limit,
            ),
            "small",
            tip=fields_tip,
        )
    )
    income = t(
        "gold {gold} · caravan {caravan} · temples {temples}",
        gold=province.gold,
        caravan=province.caravan,
        temples=province.temples,
    )
    income_tip = t(
        "Gold {gold}: paid every harvest. Caravan {caravan}: paid only with the temple on "
        "spaces {spaces}. Temples {temples}: each worth the temple's space in points at a "
        "scoring.",
        gold=province.gold,
        caravan=province.caravan,
        spaces=words[2],
        temples=province.temples,
    )
    parts.append(_text(x + 8, y + 53, income, "small", tip=income_tip))
    boxes = []
    if entry["face_down_cards"]:
        boxes.append(
            ngettext("{n} free card", "{n} free cards", entry["face_down_cards"]).format(
                n=entry["face_down_cards"]
            )
        )
    if entry["free_gold"]:
        boxes.append(t("{n} free gold", n=entry["free_gold"]))
    if province.bonus_stones and owner < 0:
        boxes.append(
            ngettext("{n} free stone", "{n} free stones", province.bonus_stones).format(
                n=province.bonus_stones
            )
        )
    if boxes:
        bonus_tip = _(
            "Free material, laid out when the province comes up: its winner takes the cards "
            "and the gold; stones stay in the province, toward its pyramids."
        )
        parts.append(
            _text(
                x + 8,
                y + 69,
                t("Bonus: {items}", items=", ".join(boxes)),
                "small bonus",
                tip=bonus_tip,
            )
        )
    # pieces: farmers (circles), stones (squares), pyramids (triangles), each with its count,
    # a word under it and a tip
    py = y + 84
    farmer_tip = ngettext(
        "{n} farmer: each earns the temple's space in gold at the harvest",
        "{n} farmers: each earns the temple's space in gold at the harvest",
        farmers,
    ).format(n=farmers)
    stone_tip = ngettext(
        "{n} stone: a third stone makes a pyramid",
        "{n} stones: a third stone makes a pyramid",
        entry["stones"],
    ).format(n=entry["stones"])
    pyramid_tip = ngettext(
        "{n} pyramid: 1 point each at a scoring, and they count for sets and the Nile sides",
        "{n} pyramids: 1 point each at a scoring, and they count for sets and the Nile sides",
        entry["pyramids"],
    ).format(n=entry["pyramids"])
    for column, (cls, count, tip, word, shape) in enumerate(
        (
            ("farmers", farmers, farmer_tip, _("farmers"), "farmer"),
            ("stones", entry["stones"], stone_tip, _("stones"), "stone"),
            ("pyramids", entry["pyramids"], pyramid_tip, _("pyramids"), "pyramid"),
        )
    ):
        px = x + 8 + column * 66
        parts.append(f'<g class="pieces {cls}"{_tip(tip)} aria-label="{escape(tip, quote=True)}">')
        parts.append(_text(px, py + 4, str(count), "piece-count"))
        if shape == "farmer":
            parts.append(f'<circle cx="{px + 22}" cy="{py}" r="6" class="farmer"/>')
        elif shape == "stone":
            parts.append(f'<rect x="{px + 16}" y="{py - 6}" width="12" height="12" class="stone"/>')
        else:
            parts.append(f'<path d="M{px + 14} {py + 7} l8 -15 l8 15 z" class="pyramid"/>')
        parts.append(_text(px, py + 17, word, "tiny piece-label"))
        parts.append("</g>")
    # bids
    bx = x + 8
    for bid in entry["bids"]:
        seat = bid["seat"]
        label = f"{letters[seat]} {bid['amount']}" + ("+" if bid.get("overbid") else "")
        who = _who(names, letters, seat)
        bid_tip = (
            t(
                "{player} bids {amount}: overbid, must move (or bid again here with an overbid "
                "card)",
                player=who,
                amount=bid["amount"],
            )
            if bid.get("overbid")
            else t("{player} bids {amount}", player=who, amount=bid["amount"])
        )
        parts.append(_chip(bx, y + CARD_H - 26, label, seat, 48, bid_tip))
        bx += 52
    if entry["on_auction"] and not entry["bids"]:
        parts.append(_text(x + 8, y + CARD_H - 12, _("on auction: no bid yet"), "small"))
    parts.append("</g>")
    return "".join(parts)

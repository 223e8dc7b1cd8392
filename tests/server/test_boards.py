"""The board drawing: public, one per position, and never stale."""

from __future__ import annotations

import random
from xml.etree import ElementTree

from karnak.core.registry import get_game
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.amunre.web import board as amunre
from karnak.server.rooms import Room, SeatInfo
from karnak.server.views import seat_view


def played_room(seed: int, moves: int) -> Room:
    game = get_game("amunre")
    state = game.new_state(["a", "b", "c", "d"], seed=seed, options=game.resolve_options({}))
    seats = [SeatInfo(i, name, "human", None, f"hash{i}") for i, name in enumerate("abcd")]
    room = Room("board-test", game, state, seats, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if room.is_over:
            break
        seat = room.state.to_move()[0]
        room.accept(seat, rng.choice(room.state.legal_actions(seat)))
    return room


def test_every_seat_and_spectator_get_the_same_board() -> None:
    room = played_room(seed=3, moves=60)
    boards = {seat_view(room, seat)["page"]["board_svg"] for seat in [None, 0, 1, 2, 3]}
    assert len(boards) == 1


def test_remembered_province_drawings_match_fresh_ones() -> None:
    """The drawing cache must give exactly what drawing from scratch gives, move after move."""
    game = get_game("amunre")
    state = game.new_state(["a", "b", "c", "d"], seed=8, options=game.resolve_options({}))
    rng = random.Random(8)
    for _ in range(150):
        if state.is_over():
            break
        remembered = amunre.board_svg(state.game, state.observation(None))
        amunre._province_drawing.cache_clear()
        assert amunre.board_svg(state.game, state.observation(None)) == remembered
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


# ---------------------------------------------------------------------------- tooltips
SVG = "{http://www.w3.org/2000/svg}"


def board_tree(room: Room) -> ElementTree.Element:
    """The board as XML (it must parse: the page inserts it as markup)."""
    return ElementTree.fromstring(seat_view(room, None)["page"]["board_svg"])


def test_every_province_has_a_tooltip_with_its_figures_owner_and_pieces() -> None:
    room = played_room(seed=3, moves=60)
    state = room.state
    assert isinstance(state, AmunReState)
    groups = board_tree(room).findall(f".//{SVG}g[@data-province]")
    assert len(groups) == len(state.board.provinces) == 15
    letters = amunre.seat_letters(state.players)
    for group in groups:
        name = group.get("data-province")
        assert name is not None
        p = state.board.province_names.index(name)
        province = state.board.provinces[p]
        tip = group.get("data-tip") or ""
        assert tip.startswith(f"{name.title()}: {province.half.title()} Egypt, ")
        assert f"card limit {province.card_limit}" in tip
        assert f"temples {province.temples}" in tip
        if province.fields:
            empty = province.fields - state.field_farmers[p]
            assert f"{province.fields} field" in tip and f"({empty} empty)" in tip
        if province.gold:
            assert f"gold {province.gold} every harvest" in tip
        if province.caravan:
            assert f"caravan {province.caravan} on temple spaces 1 and 2" in tip
        owner = state.owner[p]
        if owner >= 0:
            assert f"Owner: {state.players[owner]} ({letters[owner]})." in tip
        else:
            assert "Owner: nobody." in tip
        farmers = state.farmers(p)
        assert f"Farmers {farmers}" in tip
        assert f"stones {state.stones[p]}, pyramids {state.pyramids[p]}." in tip
        pieces = [g.get("data-tip") or "" for g in group.findall(f"{SVG}g")]
        assert any(t.startswith(f"{farmers} farmer") for t in pieces)
        lines = [t.get("data-tip") or "" for t in group.findall(f"{SVG}text")]
        assert (
            f"Gold {province.gold}: paid every harvest. Caravan {province.caravan}: paid only "
            f"with the temple on spaces 1 and 2. Temples {province.temples}: each worth the "
            "temple's space in points at a scoring."
        ) in lines


def test_the_temple_spaces_say_what_they_pay_and_which_totals_reach_them() -> None:
    room = played_room(seed=3, moves=0)
    steps = board_tree(room).findall(f".//{SVG}g[@class='temple-step']")
    tips = [g.get("data-tip") for g in steps]
    assert tips == [
        "Start: the temple waits beside its track until the first offering. "
        "The temple stands here now.",
        "Temple space 1, reached by an offering total of 2 or less: at the harvest each farmer "
        "earns 1 gold and caravans pay too; at a scoring each temple is worth 1 point.",
        "Temple space 2, reached by an offering total of 3 to 12: at the harvest each farmer "
        "earns 2 gold and caravans pay too; at a scoring each temple is worth 2 points.",
        "Temple space 3, reached by an offering total of 13 to 22: at the harvest each farmer "
        "earns 3 gold and caravans pay nothing; at a scoring each temple is worth 3 points.",
        "Temple space 4, reached by an offering total of 23 or more: at the harvest each "
        "farmer earns 4 gold and caravans pay nothing; at a scoring each temple is worth 4 "
        "points.",
    ]


def test_markers_carry_a_letter_so_players_are_told_apart_without_colour() -> None:
    assert amunre.seat_letters(["Red", "Blue", "Black", "White", "Yellow"]) == [
        "R",
        "B2",
        "B3",
        "W",
        "Y",
    ]
    assert amunre.seat_letters(["ana", "  Bo", "-", "Cy"]) == ["A", "B", "3", "C"]
    room = played_room(seed=3, moves=3)  # three bids on the board
    chips = board_tree(room).findall(f".//{SVG}g[@class]")
    labels = {
        "".join(chip.itertext()): chip.get("data-tip")
        for chip in chips
        if (chip.get("class") or "").startswith("chip")
    }
    bids = [label for label, tip in labels.items() if tip and " bids " in tip]
    assert len(bids) >= 1
    for label in bids:
        assert label.split()[0] in {"A", "B", "C", "D"}
    scores = [tip for tip in labels.values() if tip and tip.endswith("points")]
    assert sorted(scores) == [
        "a (A): 0 points",
        "b (B): 0 points",
        "c (C): 0 points",
        "d (D): 0 points",
    ]
    view = seat_view(room, 0)
    assert view["page"]["letters"] == ["A", "B", "C", "D"]

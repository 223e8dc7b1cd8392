"""The board drawing: public, one per position, and never stale."""

from __future__ import annotations

import random

from karnak.core.registry import get_game
from karnak.server.boards import amunre
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
        remembered = amunre.board_svg(state)
        amunre._province_drawing.cache_clear()
        assert amunre.board_svg(state) == remembered
        seat = state.to_move()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))

"""Scoring rules of Amun-Re as pure functions of the board and who owns what.

Kept apart from the state machine so each rule can be read, tested and explained on its own
(the final scoring table in every client is built from :func:`score_kingdom`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from karnak.games.amunre.rules.board import Board


@dataclass
class ScoreLines:
    """One seat's points at one scoring, line by line."""

    pyramids: int = 0
    complete_sets: int = 0
    nile_west: int = 0
    nile_east: int = 0
    temples: int = 0
    bonus_cards: int = 0
    gold_ranking: int = 0

    @property
    def total(self) -> int:
        return (
            self.pyramids
            + self.complete_sets
            + self.nile_west
            + self.nile_east
            + self.temples
            + self.bonus_cards
            + self.gold_ranking
        )

    def to_json(self) -> dict[str, int]:
        return {
            "pyramids": self.pyramids,
            "complete_sets": self.complete_sets,
            "nile_west": self.nile_west,
            "nile_east": self.nile_east,
            "temples": self.temples,
            "bonus_cards": self.bonus_cards,
            "gold_ranking": self.gold_ranking,
            "total": self.total,
        }


def farmers_in(
    board: Board, p: int, field_farmers: Sequence[int], free_farmers: Sequence[int]
) -> int:
    """Farmers that work a province: tokens on fields, free farmers, and printed farmers."""
    return field_farmers[p] + free_farmers[p] + board.provinces[p].printed_farmers


def bonus_condition(board: Board, kind: str, owned: Sequence[int], farmers_owned: int) -> bool:
    """Whether a scoring bonus card's condition holds for a seat owning ``owned``."""
    if not owned:
        return False
    provinces = [board.provinces[p] for p in owned]
    if kind == "card_bonus":
        return sum(p.card_symbols for p in provinces) >= board.power_card_bonus_symbols
    if kind == "farmer_bonus":
        return farmers_owned >= board.farmer_bonus_farmers
    if kind == "egypt_bonus":
        return len({p.half for p in provinces}) == 1
    if kind == "side_bonus":
        return len({p.side for p in provinces}) == 1
    if kind == "bank_bonus":
        return len({p.nile for p in provinces}) == 1
    raise ValueError(f"{kind!r} is not a scoring bonus card")


def nile_side_winners(
    board: Board, side: str, owner: Sequence[int], pyramids: Sequence[int], stones: Sequence[int]
) -> set[int]:
    """Seats owning the province with most pyramids on ``side`` (ties: stones, then all).

    A side where no owned province has a pyramid awards nobody: "most pyramids" needs one.
    """
    best: tuple[int, int] | None = None
    winners: set[int] = set()
    for p, province in enumerate(board.provinces):
        if province.side != side or owner[p] < 0 or pyramids[p] == 0:
            continue
        key = (pyramids[p], stones[p])
        if best is None or key > best:
            best, winners = key, {owner[p]}
        elif key == best:
            winners.add(owner[p])
    return winners


def gold_ranking_points(board: Board, gold: Sequence[int]) -> list[int]:
    """6/4/2 for the richest three; ties share a rank's points and skip the next rank(s)."""
    points = board.gold_ranking_points
    result = []
    for g in gold:
        rank = sum(1 for other in gold if other > g)  # 0-based competition rank
        result.append(points[rank] if rank < len(points) else 0)
    return result


def score_kingdom(
    board: Board,
    players: int,
    owner: Sequence[int],
    pyramids: Sequence[int],
    stones: Sequence[int],
    field_farmers: Sequence[int],
    free_farmers: Sequence[int],
    temple_space: int,
    bonus_cards_played: Sequence[int],
    gold: Sequence[int] | None,
) -> list[ScoreLines]:
    """Every seat's scoring lines; ``gold`` is given only at the final scoring."""
    lines = [ScoreLines() for _ in range(players)]
    west = nile_side_winners(board, "west", owner, pyramids, stones)
    east = nile_side_winners(board, "east", owner, pyramids, stones)
    owned_by: list[list[int]] = [[] for _ in range(players)]
    for p, seat in enumerate(owner):
        if seat >= 0:
            owned_by[seat].append(p)
    for seat in range(players):
        owned = owned_by[seat]
        line = lines[seat]
        line.pyramids = sum(pyramids[p] for p in owned)
        if owned:
            line.complete_sets = board.complete_set_points * min(pyramids[p] for p in owned)
        line.nile_west = board.nile_side_points if seat in west else 0
        line.nile_east = board.nile_side_points if seat in east else 0
        line.temples = temple_space * sum(board.provinces[p].temples for p in owned)
        line.bonus_cards = board.bonus_card_points * bonus_cards_played[seat]
    if gold is not None:
        for seat, pts in enumerate(gold_ranking_points(board, gold)):
            lines[seat].gold_ranking = pts
    return lines

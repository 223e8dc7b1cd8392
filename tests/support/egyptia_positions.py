"""Hand-built Egyptia positions for the rule tests: cities drawn by hex label, resources set,
dice placed where a test needs them."""

from __future__ import annotations

from collections.abc import Mapping

from karnak.core import Rng
from karnak.games.egyptia import GAME
from karnak.games.egyptia.rules.pharaoh import EMPTY
from karnak.games.egyptia.rules.sheet import Sheet
from karnak.games.egyptia.rules.state import CODES, EgyptiaState

BOOK_CARDS = "A2,B2,C3,D2,E3"  # the cards of the rule book's end-game example


def new(players: int = 1, cards: str = BOOK_CARDS, seed: int = 0) -> EgyptiaState:
    return GAME.new_state(players, seed=seed, options={"cards": cards})


def city(sheet: Sheet, layout: Mapping[str, str]) -> list[int]:
    """A city (building code per hex) from ``{"A1": "pyramid", ...}``."""
    built = [EMPTY] * len(sheet.hexes)
    for label, building in layout.items():
        built[sheet.by_label[label]] = CODES[building]
    return built


def set_city(state: EgyptiaState, seat: int, layout: Mapping[str, str]) -> None:
    state.city[seat] = city(state.sheet, layout)
    state._publish()


def set_have(state: EgyptiaState, seat: int, have: tuple[int, int, int, int]) -> None:
    """Resources on hand (circled and not spent), nothing spent so far."""
    state.circled[seat] = list(have)
    state.spent[seat] = [0, 0, 0, 0]
    state._publish()


def roll(state: EgyptiaState, values: Mapping[int, int]) -> None:
    """Put each die (by its sides) on a value, at the start of a round."""
    for index, die in enumerate(state.sheet.dice):
        if die.sides in values:
            state.dice[index] = values[die.sides]


# Columns by value (shipped sheet): d4 1/2/3/4; d6 1-2/3-4/5/6; d8 1-3/4-5/6-7/8;
# d10 1-3/4-6/7-8/9-10; d12 1-4/5-7/8-10/11-12; d20 1-6/7-12/13-17/18-20.
#: Pyramid, Quarry and Mine in grain (3 dice: a plague); Obelisk and Field in diamond; d20 in
#: stone.
THREE_IN_GRAIN = {4: 1, 6: 1, 8: 1, 10: 4, 12: 5, 20: 13}
#: Two dice per column but favor: grain d4 d6, diamond d8 d10, stone d12 d20.
TWO_EACH = {4: 1, 6: 1, 8: 4, 10: 4, 12: 8, 20: 13}


def random_positions(
    players: int, seed: int, every: int = 2, finished: bool = True
) -> list[tuple[EgyptiaState, int]]:
    """(a copy of the state, a seat to move) at every ``every``-th step of a random game,
    and the finished game last (seat 0) where ``finished``."""
    state = GAME.new_state([f"Builder{i + 1}" for i in range(players)], seed=seed)
    assert isinstance(state, EgyptiaState)
    rng = Rng(seed)
    seen: list[tuple[EgyptiaState, int]] = []
    step = 0
    while not state.is_over():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        if step % every == 0:
            seen.append((state.clone(), seat))
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        step += 1
    if finished:
        seen.append((state, 0))
    return seen

"""Egyptia's one threat from another builder: ending the game before my plans pay.

Builders never touch each other's sheets (the same column and the same die may be taken by
all), so there is no set to block and no majority to defend. The one way another builder
reaches into my game is the end: whoever circles a red dot on a resource track ends the game
after that round. A builder a round or two from its red dots therefore shortens every plan
of mine that pays late. The heuristic reads it from the others' published sheets: the
rounds each needs at its rate of production so far, and, before the reveal, the chance it
takes a column that circles its red dot this very round. These tests show the plan's
horizon shrinking as an opponent nears its red dots, and nothing hidden being read.
"""

from __future__ import annotations

from karnak.games.egyptia import bot
from karnak.games.egyptia.rules.state import EgyptiaState
from support.egyptia_positions import new, roll


def opponent_at(room: int, round_: int = 4) -> EgyptiaState:
    """Two builders in round ``round_``, before the reveal; the other builder has ``room``
    dots left before a red one on its stone track, having circled them at an even pace."""
    state = new(2, cards="A1,B1,C1,D1,E1", seed=3)
    roll(state, {4: 3, 20: 13, 6: 1, 8: 4, 10: 9, 12: 11})
    state.round = round_
    tab = bot._tables(state.sheet)
    circled = list(state.circled[1])
    circled[2] = tab.limit[2] - room
    state.circled[1] = circled
    state._publish()
    return state


def horizon(state: EgyptiaState) -> float:
    """The rounds seat 0's plans count on after this one (0 in the game's last round)."""
    return bot._Model(bot._me_from_state(state, 0), with_city=False).rounds


def test_the_horizon_shrinks_as_the_other_builder_nears_its_red_dots() -> None:
    """Round 4 of 18 hexes: with 12 dots of room the other builder still cuts the horizon
    (about 11 rounds at its pace, not 17), with 3 to about one, with none to nothing."""
    horizons = [horizon(opponent_at(room)) for room in (12, 6, 3, 1, 0)]
    assert horizons == sorted(horizons, reverse=True) and len(set(horizons)) == 5
    assert 1.0 < horizons[2] < horizons[0] < 17.0
    assert horizons[-1] == 0.0


def test_a_column_that_would_circle_a_red_dot_this_round_is_a_hazard() -> None:
    """Before the reveal: one of the other builder's columns would take it past its room;
    the chance it does not end the game this round falls below one."""
    tab = bot._tables(new(2).sheet)
    calm = bot._player_outlook(tab, tab.start, (0, 0, 0), (1, 1, 1, 1), 3.0, False)
    tight = [tab.limit[t] - (1 if t == 2 else 6) for t in range(4)]
    risky = bot._player_outlook(tab, tight, (0, 0, 0), (1, 1, 3, 1), 3.0, False)
    assert calm[1] == 1.0
    assert risky[1] < 1.0
    assert risky[0] < calm[0]


def test_the_horizon_reads_the_published_sheets_only() -> None:
    """What the other builder circles privately this round (after the last publication)
    changes nothing in my plans until it is published."""
    state = opponent_at(12)
    before = horizon(state)
    circled = list(state.circled[1])
    circled[2] = bot._tables(state.sheet).limit[2]  # at its red dot, not yet published
    state.circled[1] = circled
    assert horizon(state) == before

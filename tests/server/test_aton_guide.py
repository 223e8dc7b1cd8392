"""Aton's guide (the rules panel and the why of each decision) and the board's tooltips.

Known positions are built by hand (tests/support/aton_positions.py) and every figure the
guide gives is checked against a count made here. The guide is built from the seat's own
observation only: re-dealing what a seat cannot see leaves it byte for byte the same.
"""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

from karnak.core import Rng
from karnak.games.aton import GAME
from karnak.games.aton.rules.actions import Allocate, Exchange, Place, Remove
from karnak.games.aton.rules.state import AtonState
from karnak.games.aton.web import board as aton_board
from karnak.games.aton.web.guide import guide
from support.aton_positions import BLUE, RED, lay, position

PHASE_KEYS = [
    "draw",
    "exchange",
    "allocate",
    "reveal",
    "points",
    "order",
    "reach",
    "place",
    "scoring",
    "end",
]

#: A round-2 position: Red holds 1.2, 1.3, 2.9 (black), 3.1, 3.2; Blue 1.1, 1.8 (black),
#: 2.1, 2.2, 2.12 (bonus +2), 4.11 (blue). Temple 1 is tied 2 : 2, Blue leads temple 2 by
#: 3 : 1, Red temple 3 by 2 : 0, Blue temple 4 by 1 : 0; black squares tied 1 : 1. A scoring
#: now: Red 2 (temple 3), Blue 5 + 3 + 2 = 10 (temple 2, its one blue square, the +2).
RED_AT = [(1, 2), (1, 3), (2, 9), (3, 1), (3, 2)]
BLUE_AT = [(1, 1), (1, 8), (2, 1), (2, 2), (2, 12), (4, 11)]


def board_position(kingdom: list[int] | None = None) -> AtonState:
    state = position(
        red=(1, 1, 2, 4),
        blue=(1, 1, 3, 4),
        temples={**dict.fromkeys(RED_AT, RED), **dict.fromkeys(BLUE_AT, BLUE)},
    )
    for owner in kingdom or []:
        state.kingdom.append(owner)
        state.stock[owner] -= 1
    return state


def guide_of(state: AtonState, seat: int | None) -> dict[str, Any]:
    legal = state.legal_actions(seat) if seat is not None else []
    return guide(state.game, state.observation(seat), seat, legal)


def page_of(state: AtonState, seat: int | None) -> dict[str, Any]:
    legal = state.legal_actions(seat) if seat is not None else []
    return aton_board.page_data(state.game, state.observation(seat), seat, legal)


def svg_of(state: AtonState) -> str:
    return aton_board.board_svg(state.game, state.observation(None))


def lines_of(found: dict[str, Any], title: str) -> list[str]:
    item = next(i for i in found["explain"] if i["title"] == title)
    lines: list[str] = item["lines"]
    return lines


# ---------------------------------------------------------------------- the phases
def test_the_phases_in_order_and_the_current_one() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=3)
    found = guide_of(state, RED)
    assert [p["key"] for p in found["phases"]] == PHASE_KEYS
    assert all(p["name"] and p["text"].endswith(".") for p in found["phases"])
    assert found["phase"] == "allocate"
    assert found["task"] == "Lay out your four cards (sealed)"
    assert found["next"].startswith("The reveal: both rows of cartouches turn up together")
    assert guide_of(state, None)["task"] is None  # a spectator has nothing to do
    # an empty board: the temples nobody has entered share a line
    assert lines_of(found, "The temples now")[0] == "Temples 1, 2, 3 and 4: no counters yet."
    # once Red has laid, Red waits: no task, Blue still has one
    hand = state.hands[RED]
    state.apply(RED, Allocate((hand[0], hand[1], hand[2], hand[3])))
    assert guide_of(state, RED)["task"] is None
    assert guide_of(state, BLUE)["task"] == "Lay out your four cards (sealed)"


def test_laying_out_explains_the_cards_and_what_the_other_priest_may_hold() -> None:
    state = board_position()
    state.discards[BLUE] = [1, 1, 4, 2, 3, 3]
    state.face_down[BLUE] = [2, 3]  # given up in an exchange: never shown
    state.exchanged[BLUE] = True
    found = guide_of(state, RED)
    lines = lines_of(found, "Laying out your cards")
    assert lines[0].startswith("Your cards: 1 1 2 4.")
    # Blue's shown discards are 1, 1, 4, 3: 36 - 4 = 32 cards Red has not seen
    assert lines[2] == (
        "Blue's four cards come from 32 cards you have not seen: 7 of value 1, 9 of value 2, "
        "8 of value 3, 8 of value 4 (9 of each value, less those shown in Blue's discards "
        "since the last shuffle)."
    )
    assert "Your stock: 24 counters to place." in lines
    assert any("exchange counter is unused" in line for line in lines)
    assert not any("Round 1" in line for line in lines)  # round 2: removals happen
    # Red's exchange gone: it is no longer offered, and the round-1 line appears in round 1
    state.exchanged[RED] = True
    state.round = 1
    lines = lines_of(guide_of(state, RED), "Laying out your cards")
    assert not any("exchange counter is unused" in line for line in lines)
    assert "Round 1: nobody removes counters; cartouche 2 only decides who begins." in lines


def test_the_temples_now_with_their_majorities_and_worth() -> None:
    found = guide_of(board_position(), RED)
    assert lines_of(found, "The temples now") == [
        "Temple 1 (the majority scores the difference): tied at 2, nobody scores it; "
        "8 empty squares.",
        "Temple 2 (the majority scores 5 points): Red 1, Blue 3: Blue leads by 2, worth "
        "5 points now; 8 empty squares.",
        "Temple 3 (the majority scores 1 per counter): Red 2, Blue 0: Red leads by 2, worth "
        "2 points now; 10 empty squares.",
        "Temple 4 (the majority scores 3 per blue square): Red 0, Blue 1: Blue leads by 1, "
        "worth 3 points now; 11 empty squares.",
        "Black squares (the priest holding more of the 10 scores 8): Red 1, Blue 1: nobody "
        "scores them.",
        "Blue squares (each worth 3 to temple 4's majority if it holds it): Red 0, Blue 1.",
        "Bonus squares held: Red +0, Blue +2.",
        "A scoring now would give Red 2, Blue 10.",
    ]
    race = lines_of(found, "The race")
    assert race[0] == "Scores: Red 0, Blue 0; 40 wins."
    assert race[1].startswith("Kingdom of the Dead: 0 of 8 squares taken (Red 0, Blue 0); 8 more")
    assert "Every yellow square (14) wins at once: Red 4, Blue 3." in race
    assert "A whole temple (12 squares) wins at once: the most is Blue's 3 in temple 2." in race


# ---------------------------------------------------------------------- removal
def test_a_removal_says_what_each_square_changes() -> None:
    state = board_position()
    # Red 1 4 2 1, Blue 3 4 1 1: cartouche 1 gives Blue 2 x (3 - 1) = 4; cartouche 2 is
    # tied at 4 and Red's lower cartouche 1 card begins: 4 - 2 = 2 of Blue's counters
    # from temples 1 and 2 (Blue has five there, so Red chooses)
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    assert state.phase == "remove" and state.to_move() == (RED,)
    found = guide_of(state, RED)
    assert found["phase"] == "order"
    assert found["task"] == "Remove 2 of Blue's counters from temples 1 to 2"
    assert found["next"] == "Red places 1 counter in temples 1 to 2 (cartouche 4)."
    assert lines_of(found, "What each removal changes") == [
        "Square 1.1 (yellow): temple 1: Red 2, Blue 2 → Red 2, Blue 1 (Red leads by 1); "
        "a scoring now: Red 3, Blue 10 (instead of 2, 10).",
        "Square 1.8 (black): temple 1: Red 2, Blue 2 → Red 2, Blue 1 (Red leads by 1); "
        "black squares: Red 1, Blue 1 → Red 1, Blue 0 (Red leads by 1); "
        "a scoring now: Red 11, Blue 10 (instead of 2, 10).",
        "Squares 2.1, 2.2 (yellow): temple 2: Red 1, Blue 3 → Red 1, Blue 2 (Blue leads by 1); "
        "a scoring now: Red 2, Blue 10 (instead of 2, 10).",
        "Square 2.12 (bonus +2): temple 2: Red 1, Blue 3 → Red 1, Blue 2 (Blue leads by 1); "
        "Blue loses its +2 at a scoring; a scoring now: Red 2, Blue 8 (instead of 2, 10).",
        "Each removed counter goes to the Kingdom of the Dead: 0 of 8 now, 2 after your "
        "removals (when it is full, the temples are scored at the end of the round).",
    ]
    assert lines_of(found, "In reach: temples 1 to 2")[:2] == [
        "Temple 1 (the majority scores the difference): tied at 2, nobody scores it; "
        "8 empty squares.",
        "Temple 2 (the majority scores 5 points): Red 1, Blue 3: Blue leads by 2, worth "
        "5 points now; 8 empty squares.",
    ]
    assert lines_of(found, "The race")[0] == "Scores: Red 0, Blue 4; 40 wins."
    # Blue waits: no task, and no square-by-square lines for Red's choice
    waiting = guide_of(state, BLUE)
    assert waiting["task"] is None
    assert [i["title"] for i in waiting["explain"]] == ["The temples now", "The race"]
    # the hints on the board's squares carry the same figures
    page = page_of(state, RED)
    hint = page["hints"][state.legal_actions(RED).index(Remove(1, 8))]
    assert hint == (
        "send Blue's counter from temple 1, square 8 (black) to the Kingdom of the Dead: "
        "temple 1: Red 2, Blue 2 → Red 2, Blue 1 (Red leads by 1); black squares: Red 1, "
        "Blue 1 → Red 1, Blue 0 (Red leads by 1); a scoring now: Red 11, Blue 10 "
        "(instead of 2, 10)"
    )


def test_removals_that_fill_the_kingdom_of_the_dead_say_so() -> None:
    state = board_position(kingdom=[RED, BLUE, RED, BLUE, RED, BLUE])
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    lines = lines_of(guide_of(state, RED), "What each removal changes")
    assert lines[-1] == (
        "The Kingdom of the Dead holds 6 of 8: your removals fill it, so the temples are "
        "scored at the end of this round."
    )
    state = board_position(kingdom=[RED, BLUE] * 4)
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    found = guide_of(state, RED)
    assert lines_of(found, "What each removal changes")[-1] == (
        "The Kingdom of the Dead is full (8 of 8): the counters you remove go back to their "
        "owner's stock, and the temples are scored at the end of this round."
    )
    assert lines_of(found, "The race")[1] == (
        "Kingdom of the Dead: 8 of 8 squares taken (Red 4, Blue 4); it is full: the temples "
        "are scored at the end of this round."
    )


def test_a_card_1_removes_one_of_ones_own_counters() -> None:
    state = board_position()
    # Red's 1 on cartouche 2 is lower: Red begins and takes off one of its own counters
    # in temples 1 to 4 (it has five there)
    lay(state, (2, 1, 4, 1), (1, 3, 1, 4))
    assert state.phase == "remove" and state.to_move() == (RED,)
    assert guide_of(state, RED)["task"] == "Remove 1 of your own counters from temples 1 to 4"


# ---------------------------------------------------------------------- placement
def test_a_placement_says_what_each_square_changes_and_what_comes_next() -> None:
    state = board_position()
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    state.apply(RED, Remove(1, 8))
    state.apply(RED, Remove(2, 12))
    assert state.phase == "place" and state.to_move() == (RED,)
    found = guide_of(state, RED)
    assert found["phase"] == "place"
    assert found["task"] == "Place 1 counter in temples 1 to 2"
    assert found["next"] == (
        "Blue's turn: removes up to 2 of Red's counters, then places 1, in temple 1. Then "
        "round 3, unless the Kingdom of the Dead fills first (2 of 8 now; when full, the "
        "temples are scored)."
    )
    # after the removals: temple 1 Red 2 : Blue 1, temple 2 Red 1 : Blue 2, black 1 : 0;
    # a scoring now gives Red 1 + 2 + 8 = 11, Blue 5 + 3 = 8
    lines = lines_of(found, "What each placement changes")
    assert lines[1] == (
        "Squares 1.8, 1.9 (black): temple 1: Red 2, Blue 1 → Red 3, Blue 1 (Red leads by 2); "
        "black squares: Red 1, Blue 0 → Red 2, Blue 0 (Red leads by 2); a scoring now: "
        "Red 12, Blue 8 (instead of 11, 8)."
    )
    assert (
        "Squares 2.3 (yellow), 2.4, 2.5, 2.6, 2.7 (green): temple 2: Red 1, Blue 2 → Red 2, "
        "Blue 2 (tied); a scoring now: Red 11, Blue 3 (instead of 11, 8)."
    ) in lines
    assert (
        "Squares 1.11, 1.12 (bonus +1): temple 1: Red 2, Blue 1 → Red 3, Blue 1 (Red leads "
        "by 2); Red gains its +1 at a scoring; a scoring now: Red 13, Blue 8 (instead of 11, 8)."
    ) in lines
    assert lines[-1] == "You place 1 more counter (stock 24); the Kingdom of the Dead holds 2 of 8."
    # every square in reach is on exactly one line
    named = re.findall(r"\b[12]\.\d+\b", " ".join(line.split(":")[0] for line in lines))
    assert sorted(named) == sorted(
        f"{a.temple}.{a.square}" for a in state.legal_actions(RED) if isinstance(a, Place)
    )
    # Red places; Blue's removals of both Red counters in temple 1 happen by themselves,
    # then Blue places its one counter: the round's last decision
    state.apply(RED, Place(1, 4))
    assert state.phase == "remove" and state.to_move() == (BLUE,)
    blue = guide_of(state, BLUE)
    assert blue["task"] == "Remove 2 of Red's counters from temple 1"
    assert blue["next"] == "Blue places 1 counter in temple 1 (cartouche 4)."


# ---------------------------------------------------------------------- after a scoring
def first_cleanup_choice(seed: int) -> AtonState:
    """Play random moves until a priest chooses which counter to take back."""
    state = GAME.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    while state.phase != "cleanup":
        assert not state.is_over()
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
    return state


def test_taking_counters_back_after_a_scoring() -> None:
    state = first_cleanup_choice(3)
    seat = state.to_move()[0]
    found = guide_of(state, seat)
    temple = state.cleanup_temple(seat, state.cleanup[0][1]) + 1
    assert found["phase"] == "scoring"
    assert found["task"] == f"Take back one of your counters from temple {temple}"
    assert found["next"] == (
        f"Round {state.round + 1}: the Kingdom of the Dead is emptied into the stocks and "
        "both priests draw four cards."
    )
    lines = lines_of(found, "What each counter taken back changes")
    assert lines and all(f"temple {temple}: " in line for line in lines)
    assert not any("a scoring now" in line for line in lines)  # it has just been done
    race = lines_of(found, "The race")
    assert race[1].endswith("it is emptied into the stocks once the counters are taken back.")


def test_the_end() -> None:
    state = board_position()
    state.score = [41, 12]
    state.phase = "over"
    assert guide_of(state, BLUE)["explain"] == [
        {"title": "The end", "lines": ["Red won on points, 41 to 12."]}
    ]
    assert guide_of(state, BLUE)["phase"] == "end" and guide_of(state, BLUE)["next"] is None
    state.winner, state.win_reason = BLUE, "every square of temple 2"
    assert guide_of(state, RED)["explain"][0]["lines"] == [
        "Blue won at once: every square of temple 2."
    ]
    state.winner, state.score = None, [30, 30]
    assert guide_of(state, None)["explain"][0]["lines"] == ["A draw at 30 points."]


# ---------------------------------------------------------------------- faithful and private
def random_states(seed: int, limit: int = 400) -> list[AtonState]:
    state = GAME.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    seen = [state.clone()]
    while not state.is_over() and len(seen) < limit:
        seat = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        seen.append(state.clone())
    return seen


def test_the_page_scores_the_temples_from_the_view_as_the_engine_scores_the_state() -> None:
    scored = 0
    for state in random_states(5):
        for seat in (RED, BLUE, None):
            assert page_of(state, seat)["scoring_now"] == state.scoring_lines()
        scored += any(any(line["points"]) for line in state.scoring_lines())
    assert scored > 50  # most positions give somebody points


def test_the_guide_does_not_change_when_hidden_information_does() -> None:
    """Re-deal every card a seat cannot see (the engine's own resample, twice, and by hand):
    its guide and page data stay the same bytes; its own hand does show."""
    checked = sealed = 0
    for state in random_states(8, limit=150) + random_states(9, limit=150):
        for seat in (RED, BLUE, None):
            legal = state.legal_actions(seat) if seat is not None else []
            obs = state.observation(seat)
            before = json.dumps(
                [
                    guide(state.game, obs, seat, legal),
                    aton_board.page_data(state.game, obs, seat, legal),
                ]
            )
            worlds = []
            for k in range(2):
                world = state
                for viewer in [seat] if seat is not None else [RED, BLUE]:
                    world = world.resample(viewer, Rng(k))
                worlds.append(world)
            by_hand = state.clone()
            for other in [1 - seat] if seat is not None else [RED, BLUE]:
                by_hand.hands[other] = [1 if card != 1 else 4 for card in by_hand.hands[other]]
                if by_hand.alloc[other] is not None and not by_hand.revealed:
                    by_hand.alloc[other] = [5 - c for c in by_hand.alloc[other] or []]
            worlds.append(by_hand)
            for world in worlds:
                w_legal = world.legal_actions(seat) if seat is not None else []
                w_obs = world.observation(seat)
                after = json.dumps(
                    [
                        guide(world.game, w_obs, seat, w_legal),
                        aton_board.page_data(world.game, w_obs, seat, w_legal),
                    ]
                )
                assert after == before
            checked += 1
            sealed += state.phase == "allocate" and any(a is not None for a in state.alloc)
    assert checked >= 300 and sealed >= 10
    # the comparison can see a difference: a seat's own hand is in its guide
    state = GAME.new_state(["Red", "Blue"], seed=8)
    mine = state.clone()
    mine.hands[RED] = [4, 4, 4, 4]
    assert json.dumps(guide_of(mine, RED)) != json.dumps(guide_of(state, RED))


# ---------------------------------------------------------------------- the board's tooltips
TIP = re.compile(r'data-tip="([^"]*)"')


def tips_of(svg: str, pattern: str) -> list[str]:
    """The tooltips of the elements whose opening tag matches ``pattern``."""
    return [
        unescape(TIP.search(tag).group(1))  # type: ignore[union-attr]
        for tag in re.findall(r"<[^>]*" + pattern + r"[^>]*>", svg)
        if "data-tip" in tag
    ]


def test_every_board_element_has_a_tooltip() -> None:
    state = board_position(kingdom=[RED, BLUE, RED])
    state.discards[BLUE] = [1, 1, 4, 4]
    state.face_down[BLUE] = [4]
    svg = svg_of(state)
    squares = tips_of(svg, 'class="square ')
    assert len(squares) == 48
    assert squares[7] == (
        "Temple 1, square 8: black; Blue's counter. It counts toward temple 1's majority; the "
        "priest holding more of the 10 black squares scores 8 at a scoring."
    )
    assert squares[1].startswith("Temple 1, square 2: yellow; Red's counter.")
    assert "holding all 14 yellow squares of the four temples wins at once" in squares[1]
    assert squares[23] == (
        "Temple 2, square 12: bonus +2; Blue's counter. It counts toward temple 2's majority; "
        "whoever holds it scores +2 at each scoring."
    )
    assert "temple 4's majority scores 3 for each of the 4 blue squares it holds" in squares[46]
    assert squares[4].startswith("Temple 1, square 5: green; empty.")
    temples = tips_of(svg, 'class="temple-head"')
    assert temples == [
        "Temple 1: at a scoring its majority scores the difference between the two priests' "
        "counters there. Tied at 2: nobody. 8 empty squares.",
        "Temple 2: at a scoring its majority scores 5 points. Red 1, Blue 3: Blue leads by 2, "
        "worth 5 points now. 8 empty squares.",
        "Temple 3: at a scoring its majority scores 1 point per counter it has there. Red 2, "
        "Blue 0: Red leads by 2, worth 2 points now. 10 empty squares.",
        "Temple 4: at a scoring its majority scores 3 points per blue square it holds (one in "
        "each temple). Red 0, Blue 1: Blue leads by 1, worth 3 points now. 11 empty squares.",
    ]
    (kingdom,) = tips_of(svg, 'class="kingdom"')
    assert kingdom.startswith("The Kingdom of the Dead: 3 of 8 squares taken (Red 2, Blue 1).")
    assert "When it is full, the round is played out and then the temples are scored" in kingdom
    cells = tips_of(svg, 'class="kingdom-square"')
    assert cells[0] == "Kingdom of the Dead, square 1 of 8: Red's counter."
    assert cells[7] == "Kingdom of the Dead, square 8 of 8: empty."
    markers = tips_of(svg, 'class="score-marker')
    assert markers == ["Red: 0 points, 40 short of 40", "Blue: 0 points, 40 short of 40"]
    (discards,) = [t for t in tips_of(svg, 'class="discards"') if t.startswith("Blue")]
    assert discards == (
        "Blue's discards: 4 cards. Shown: 2 of value 1, 1 of value 4; 1 given up face down in "
        "the exchange. Red has not seen the rest of Blue's cards."
    )
    (stock,) = [t for t in tips_of(svg, 'class="stock"') if t.startswith("Red")]
    assert stock.startswith("Red's stock: 22 counters off the board")
    assert len(tips_of(svg, 'class="pile"')) == len(tips_of(svg, 'class="exchange-counter"')) == 2
    legend = tips_of(svg, 'class="legend"')
    assert legend[2] == (
        "Black squares: 10 on the board; Red 1, Blue 1. The priest holding more of the 10 "
        "black squares scores 8 at a scoring."
    )
    slots = tips_of(svg, 'class="cartouche-slot"')
    assert len(slots) == 8 and slots[1].startswith("Cartouche 2 (order · remove): the lower card")
    # the counters carry their priest's letter, so they differ without colour
    letters = re.findall(r'class="counter-letter"[^>]*>([RB])<', svg)
    counters_drawn = len(RED_AT) + len(BLUE_AT) + 3 + 2 + 2  # temples, kingdom, strip, panels
    assert len(letters) == counters_drawn
    assert letters.count("R") == len(RED_AT) + 2 + 1 + 1


def test_revealed_cartouches_say_what_was_laid() -> None:
    state = board_position()
    lay(state, (1, 4, 2, 1), (3, 4, 1, 1))
    slots = tips_of(svg_of(state), 'class="cartouche-slot"')
    assert slots[0].endswith("Red laid a 1.") and slots[4].endswith("Blue laid a 3.")
    state = board_position()
    state.apply(BLUE, Allocate((1, 1, 3, 4)))
    slots = tips_of(svg_of(state), 'class="cartouche-slot"')
    assert slots[0].endswith("Nothing laid yet this round.")
    assert slots[4].endswith("Blue's card lies face down until both priests have laid.")
    assert "laid a" not in " ".join(slots)


def test_the_exchange_is_offered_in_the_guide_only_while_unused() -> None:
    state = GAME.new_state(["Red", "Blue"], seed=2)
    assert Exchange() in state.legal_actions(RED)
    state.apply(RED, Exchange())
    lines = lines_of(guide_of(state, RED), "Laying out your cards")
    assert not any("exchange counter is unused" in line for line in lines)
    assert "Blue may still use their exchange counter." in lines

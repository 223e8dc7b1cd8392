"""Egyptia's guide, tooltips and replay on the server side: the why of each decision with
the exact figures of known positions (checked against the engine itself), the tooltips of
the board and the sheet, every full sheet in a finished game's replay, and the guide's
blindness to what a builder may not see (twin positions and re-dealt worlds)."""

from __future__ import annotations

import json
import re
from html import unescape
from typing import Any

from karnak.core import Rng
from karnak.games.egyptia.rules.actions import Build, Gain, Pay, UseShip
from karnak.games.egyptia.rules.state import EgyptiaState
from karnak.games.egyptia.web import board as board
from karnak.games.egyptia.web.guide import guide
from support.egyptia_positions import THREE_IN_GRAIN, TWO_EACH, new, roll, set_city, set_have

TIP = re.compile(r'data-hex="([A-Z]\d)"[^>]*data-tip="([^"]*)"')


# ---------------------------------------------------------------------- helpers
def guide_of(state: EgyptiaState, seat: int | None) -> dict[str, Any]:
    legal = state.legal_actions(seat) if seat is not None else []
    return guide(state.game, state.observation(seat), seat, legal)


def lines(found: dict[str, Any], title: str) -> list[str]:
    item = next((i for i in found["explain"] if i["title"] == title), None)
    assert item is not None, [i["title"] for i in found["explain"]]
    result: list[str] = item["lines"]
    return result


def play(state: EgyptiaState, seat: int, *texts: str) -> None:
    for text in texts:
        state.apply(seat, state.game.parse_action(text))


def plague_position() -> EgyptiaState:
    """Two builders; three dice in grain (Pyramid, Quarry, Mine: a plague), Obelisk and
    Field in diamond, the d20 in stone; Ana holds 2 grain, 2 diamond, 2 stone, 1 favor."""
    state = new(2, seed=1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (2, 2, 2, 1))
    set_have(state, 1, (0, 0, 0, 0))
    return state


def total_after(state: EgyptiaState, seat: int, text: str) -> int:
    """The engine's own score of the seat's sheet after ``text``."""
    world = state.clone(log=False)
    world.apply(seat, world.game.parse_action(text))
    total: int = world.score_sheet(seat)["total"]
    return total


# ---------------------------------------------------------------------- the phases
def test_the_phases_of_a_round_in_order_with_the_sheet_figures() -> None:
    found = guide_of(plague_position(), 0)
    keys = [p["key"] for p in found["phases"]]
    assert keys == [
        "roll",
        "choose",
        "produce",
        "plague",
        "build",
        "pay",
        "ships",
        "round_end",
        "game_end",
        "scoring",
    ]
    text = {p["key"]: p["text"] for p in found["phases"]}
    assert "The 6 dice" in text["roll"] and "for 1 favor more" in text["roll"]
    assert "a Sacred Site costs 1 favor more" in text["build"]
    assert "it gives 2 basic resources or 1 favor" in text["build"]
    assert "3 basic for 1 favor" in text["pay"] and "up to +4" in text["pay"]
    assert "Each of your 3 ships" in text["ships"] and "scores 2 points" in text["ships"]
    assert "red dot" in text["game_end"] and "full map" in text["game_end"]
    assert "1 point per 2 favor" in text["scoring"] and "minus 2 for Pestilence" in text["scoring"]
    assert "fewest plagues" in text["scoring"]
    assert found["phases"][1]["name"] == "Choose a column (sealed)"
    solo = guide_of(new(1), 0)
    assert solo["phases"][1]["name"] == "Choose a column"
    assert solo["task"] == "Choose a column"


def test_the_current_phase_what_comes_next_and_the_task_at_each_step() -> None:
    state = plague_position()
    steps: list[tuple[Any, ...]] = []

    def note(seat: int) -> None:
        found = guide_of(state, seat)
        steps.append((found["phase"], found["task"]))

    note(0)
    assert "The reveal" in guide_of(state, 0)["next"]
    play(state, 0, "choose grain")
    note(0)
    assert guide_of(state, 0)["next"] == (
        "The reveal, once the last builder still choosing has chosen."
    )
    play(state, 1, "choose diamond")  # the reveal
    note(0)
    play(state, 0, "plague locusts")
    note(0)
    play(state, 0, "pay 2g")
    note(0)
    play(state, 0, "build quarry B2")
    note(0)
    assert state.stage[0] == "build_pay"
    play(state, 0, "pay 2g+1d")
    note(0)
    assert "still building" in guide_of(state, 0)["next"]
    play(state, 1, "build mound A2")
    note(1)
    assert steps == [
        ("choose", "Choose a column (sealed)"),
        ("choose", "Waiting: you may use a ship"),
        ("plague", "Choose a plague"),
        ("pay", "Choose what to lose to Locusts"),
        ("build", "Build one building"),
        ("pay", "Pay for your Quarry"),
        ("round_end", "Waiting: you may use a ship"),
        ("build", "Choose the Burial Mound's reward"),
    ]
    play(state, 1, "gain 1f")  # the round ends
    assert guide_of(state, 0)["phase"] == "choose" and state.round == 2
    spectator = guide_of(state, None)
    assert spectator["task"] is None and spectator["explain"] == []
    assert spectator["phase"] == "choose"


# ---------------------------------------------------------------------- the why
def test_what_each_column_gives_with_its_figures() -> None:
    found = guide_of(plague_position(), 0)
    assert lines(found, "What each column gives you")[:4] == [
        "Grain: 3 dice (Pyramid, Quarry, Mine) → +3 grain, 2 → 5 on hand; a plague first; "
        "you could then pay for Pyramid, Quarry and Mine.",
        "Diamond: 2 dice (Obelisk, Field) → +2 diamond, 2 → 4 on hand; you could then pay "
        "for Obelisk and Field.",
        "Stone: 1 die (d20: any building for 1 favor more) → +1 stone, 2 → 3 on hand; you "
        "could then pay for Pyramid, Quarry, Mine, Obelisk and Field.",
        "Favor: 0 dice → +0 favor, 1 → 1 on hand; only a Burial Mound to build.",
    ]


def test_productivity_and_a_red_dot_show_in_the_columns() -> None:
    state = new(1, seed=1)
    roll(state, TWO_EACH)  # two dice in grain, diamond and stone
    state.productivity[0] = [0, 0, 2]  # stone +2
    state.circled[0] = [16, 1, 15, 1]  # grain 2 from its end, stone 3 (two of them red)
    state._publish()
    shown = lines(guide_of(state, 0), "What each column gives you")
    assert shown[0].startswith("Grain: 2 dice (Pyramid, Quarry) → +2 grain, 16 → 18 on hand")
    assert "(a red dot: the game ends after this round)" in shown[0]
    assert shown[2].startswith(
        "Stone: 2 dice (Field, d20: any building for 1 favor more) → +4 stone (2 + 2 "
        "productivity), 15 → 18 on hand (only 3 fit on the stone track; a red dot"
    )


def test_what_each_plague_costs_you_now() -> None:
    state = plague_position()
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    found = guide_of(state, 0)
    shown = lines(found, "What each plague costs you now")
    assert shown == [
        "Locusts: lose 2 grain, leaving 3 grain, 2 diamond, 2 stone, 1 favor; score if the "
        "game ended now 8 → 7.",
        "Blood: lose 2 diamond, leaving 5 grain, 0 diamond, 2 stone, 1 favor; score if the "
        "game ended now 8 → 7.",
        "Dust Storm: lose 2 stone, leaving 5 grain, 2 diamond, 0 stone, 1 favor; score if the "
        "game ended now 8 → 7.",
        "Flies: lose 1 favor, leaving 5 grain, 2 diamond, 2 stone, 0 favor; score if the game "
        "ended now 8 → 7.",
        "Pestilence: nothing now, 2 points off at the end; score if the game ended now 8 → 6.",
        "Frogs: lose 3 resources of your choice, e.g. 3 grain, leaving 2 grain, 2 diamond, "
        "2 stone, 1 favor; score if the game ended now 8 → 7.",
        "Darkness: no market and no Sacred Site this round: closes 4 of your 18 empty hexes "
        "(the Sacred Sites); paying the exact cost, you could still pay for Pyramid, Quarry "
        "and Mine.",
        "Boils: no building next to your Oasis this round: closes 6 of your 18 empty hexes "
        "(those next to the Oasis).",
        "Hail-fire, ship 1: lose it (2 grain, 1 diamond) and the 2 points it scores unused; "
        "score if the game ended now 8 → 6.",
        "Hail-fire, ship 2: lose it (1 grain, 2 stone) and the 2 points it scores unused; "
        "score if the game ended now 8 → 6.",
        "Hail-fire, ship 3: lose it (1 diamond, 1 favor) and the 2 points it scores unused; "
        "score if the game ended now 8 → 6.",
        "Death: build a Burial Mound this round (free, then 2 basic or 1 favor) instead of "
        "your column's buildings; never crossed off, so it may come again and does not count "
        "in a tie.",
        "Each plague but Death is crossed off for good, and a tie goes to the builder with "
        "the fewest crossed off (you have 0).",
    ]
    # the scores are the engine's own (Pestilence and Hail-fire cost points at once)
    assert total_after(state, 0, "plague pestilence") == 6
    assert total_after(state, 0, "plague hail-fire 2") == 6


def test_a_plague_without_the_resources_is_paid_through_the_market() -> None:
    state = plague_position()
    set_have(state, 0, (3, 0, 3, 1))  # no diamond: Blood takes other resources
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    shown = lines(guide_of(state, 0), "What each plague costs you now")
    assert shown[1] == (
        "Blood: lose 2 diamond, e.g. 2 grain, 1 favor, leaving 4 grain, 0 diamond, 3 stone, "
        "0 favor; score if the game ended now 8 → 7."
    )
    assert total_after(state, 0, "plague blood") == 8  # asked how to pay: nothing paid yet
    world = state.clone(log=False)
    play(world, 0, "plague blood", "pay 2g+1f")
    assert world.score_sheet(0)["total"] == 7


def test_what_is_left_after_each_payment() -> None:
    state = plague_position()
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    play(state, 0, "plague locusts")
    found = guide_of(state, 0)
    shown = lines(found, "Losing 2 grain to Locusts")
    assert shown[:3] == [
        "You have 5 grain, 2 diamond, 2 stone, 1 favor; score if the game ended now 8.",
        "Pay 2 grain: leaves 3 grain, 2 diamond, 2 stone, 1 favor; score if the game ended "
        "now 8 → 7.",
        "Pay 1 grain, 1 favor: leaves 4 grain, 2 diamond, 2 stone, 0 favor; score if the "
        "game ended now 8 → 7.",
    ]
    assert shown[-2:] == [
        "… and 1 dearer way.",
        "The market: 2 basic pay for 1 other basic, 3 basic for 1 favor, 1 favor for 1 basic.",
    ]
    pays = [a for a in state.legal_actions(0) if isinstance(a, Pay)]
    assert len(pays) == 9 and len(shown) == 1 + 8 + 2
    # every score shown is the engine's own after that payment
    for line, action in zip(shown[1:9], pays, strict=False):
        assert line.endswith(f"8 → {total_after(state, 0, action.to_text())}.")
    # the page's buttons say the same
    data = board.page_data(state.game, state.observation(0), 0, state.legal_actions(0))
    first = data["moves"]["payments"][0]
    assert first["left"] == "3 grain, 2 diamond, 2 stone, 1 favor" and first["score"] == 7


def test_paying_for_a_building_lists_what_each_way_leaves() -> None:
    state = plague_position()
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    play(state, 0, "plague locusts", "pay 1g+2d", "build quarry A2")
    found = guide_of(state, 0)
    assert found["task"] == "Pay for your Quarry"
    shown = lines(found, "Paying 2 grain, 1 diamond for your Quarry on A2")
    assert shown[0] == (
        "You have 4 grain, 0 diamond, 2 stone, 1 favor; score if the game ended now 7; the "
        "Quarry adds 2 to your cards."
    )
    assert shown[1] == (
        "Pay 2 grain, 1 favor: leaves 2 grain, 0 diamond, 2 stone, 0 favor; score if the "
        "game ended now 7 → 8."
    )
    for action in state.legal_actions(0):
        if isinstance(action, Pay):
            after = total_after(state, 0, action.to_text())
            assert any(line.startswith(f"Pay {_words(action)}:") for line in shown)
            assert any(line.endswith(f"7 → {after}.") for line in shown)


def _words(action: Pay) -> str:
    from karnak.games.egyptia.rules.actions import bundle_words

    return bundle_words(action.bundle)


def test_what_each_building_brings_to_the_cards_and_productivity() -> None:
    state = new(1, seed=1)
    roll(state, THREE_IN_GRAIN)
    set_have(state, 0, (6, 6, 6, 3))
    set_city(state, 0, {"A1": "pyramid"})
    play(state, 0, "choose diamond")  # Obelisk and Field
    found = guide_of(state, 0)
    assert lines(found, "What you may build") == [
        "Obelisk: 2 diamond, 1 stone (+1 favor on a Sacred Site), on 17 hexes; your cards +2 "
        "wherever it goes.",
        "Field: 1 diamond, 1 stone (+1 favor on a Sacred Site), on 17 hexes; best for your "
        "cards now: +3 on B3, C2, C4, D2 (+1 more); grain productivity +0 → +1.",
        "Burial Mound: free on any of 17 hexes, then 2 basic or 1 favor; your cards 0 "
        "wherever it goes.",
    ]
    # the card points are the engine's own, hex by hex
    before = sum(c["points"] for c in state.score_sheet(0)["cards"])
    data = board.page_data(state.game, state.observation(0), 0, state.legal_actions(0))
    field = next(b for b in data["moves"]["buildings"] if b["building"] == "field")
    for spot in field["hexes"]:
        world = state.clone(log=False)
        world.apply(0, Build("field", spot["hex"]))
        if world.stage[0] == "build_pay":
            world.apply(0, next(a for a in world.legal_actions(0) if isinstance(a, Pay)))
        after = sum(c["points"] for c in world.score_sheet(0)["cards"])
        assert spot["cards"] == after - before, spot


def test_a_plague_that_restricts_the_round_is_named_at_the_build() -> None:
    state = plague_position()
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    play(state, 0, "plague death")
    found = guide_of(state, 0)
    assert found["task"] == "Build a Burial Mound (Death)"
    assert lines(found, "Death this round") == ["only a Burial Mound."]


def test_the_burial_mound_reward_and_the_ships_with_the_engines_scores() -> None:
    state = plague_position()
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    play(state, 1, "build mound A2")
    found = guide_of(state, 1)
    shown = lines(found, "What the Burial Mound gives")
    assert shown[0] == "2 grain: grain 0 → 2; score if the game ended now 6 → 6."
    assert shown[-1] == "At the end 3 basic resources trade for 1 favor, and 2 favor score 1 point."
    gains = [a for a in state.legal_actions(1) if isinstance(a, Gain)]
    for line, action in zip(shown, gains, strict=False):
        assert line.endswith(f"6 → {total_after(state, 1, action.to_text())}.")
    play(state, 1, "gain 1f")
    waiting = guide_of(state, 1)
    assert waiting["task"] == "Waiting: you may use a ship"
    ships = lines(waiting, "Your ships")
    assert ships[0] == "Ship 1: 2 grain, 1 diamond now; score if the game ended now 6 → 5."
    for line, action in zip(
        ships, [a for a in state.legal_actions(1) if isinstance(a, UseShip)], strict=False
    ):
        assert line.endswith(f"6 → {total_after(state, 1, action.to_text())}.")


def test_the_score_the_guide_starts_from_is_the_engines() -> None:
    """Through random games, the guide's own scoring of the seat's sheet (which it changes
    to show what a move would do) agrees with the engine's."""
    from karnak.games.egyptia.web.guide import mine

    for seed in range(3):
        state = new(3, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            for seat in range(3):
                obs = state.observation(seat)
                me = mine(state.sheet, obs, seat, True)
                assert me.points() == obs["players"][seat]["score"]["total"]
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])


# ---------------------------------------------------------------------- tooltips
def test_every_hex_of_the_sheet_has_a_tip_with_what_it_scores() -> None:
    state = new(1, seed=1)
    set_city(state, 0, {"A1": "pyramid", "B2": "quarry"})
    obs = state.observation(0)
    me = obs["players"][0]
    svg = board.sheet_svg(state.sheet, me["name"], me["sheet"], me["score"])
    tips = {label: unescape(tip) for label, tip in TIP.findall(svg)}
    assert len(tips) == 19
    assert tips["A1"] == (
        "A1, a Sacred Site (any building but a Burial Mound costs 1 favor more here): your "
        "Pyramid. It adds 5 to your Pharaoh cards now."
    )
    assert tips["B2"] == "B2, next to your Oasis: your Quarry. It adds 3 to your Pharaoh cards now."
    assert tips["B1"] == (
        "B1: empty. Built here now, your Pharaoh cards would change by: Pyramid +4, Quarry "
        "+3, Mine 0, Obelisk +2, Field 0, Burial Mound 0."
    )
    assert tips["C3"].startswith("C3, your Oasis: nothing is ever built here. Next to it: B2,")
    for text in (
        'data-ship="1" data-state="unused" data-tip="Ship 1: 2 grain, 1 diamond, once a game and '
        "at any time; unused: 2 points at the end if it is never used.",
        'data-tip="Grain: 1 on hand (1 circled, 0 spent); 17 of 18 dots still free',
        'data-tip="A red dot: circling it ends the game after this round, for every builder."',
        'data-tip="Stone productivity: +0. Whenever you take the stone column you produce that '
        "much more. Each Quarry built moves it one step",
        'data-tip="Locusts (lose 2 grain): not suffered yet."',
        'data-tip="Pharaoh card A2: 5 per Pyramid on a Sacred Site, 4 per other Pyramid. Your '
        'city: 5."',
    ):
        assert text in svg, text


def test_the_public_boards_tips_say_only_public_facts() -> None:
    state = plague_position()
    svg = board.board_svg(state.game, state.observation(None))
    assert (
        'data-column="grain" data-dice="3" data-tip="Grain column: 3 dice: d4 1 (Pyramid), '
        "d6 1 (Quarry), d8 1 (Mine). Whoever takes it produces 3 grain plus their grain "
        "productivity and may build one of these: Pyramid, Quarry, Mine, or a Burial Mound. With "
        '3 dice or more, they suffer a plague first."'
    ) in svg
    assert 'data-tip="Favor column: no dice. Whoever takes it produces 0 favor and may build' in svg
    assert 'data-tip="10. Death: build a Burial Mound; may come again. Never crossed off' in svg
    assert 'data-tip="Pharaoh card D2: points by the number of Obelisks' in svg
    # where the figures come from is not play: it lives behind "About these figures"
    assert "reconstruction" not in svg and "reconstructed" not in svg
    assert 'data-tip="Quarry: costs 2 grain, 1 diamond; offered by the d6' in svg
    # one drawing for everyone: nothing of a seat's sheet is in it
    set_have(state, 0, (9, 9, 9, 9))
    set_city(state, 0, {"A1": "pyramid"})
    assert board.board_svg(state.game, state.observation(None)) == svg


# ---------------------------------------------------------------------- the replay
def test_the_replay_shows_every_true_sheet() -> None:
    """A replay step draws each builder's sheet as it truly stood, private steps included,
    where a live view shows the others' sheets as last published."""
    state = plague_position()
    play(state, 0, "choose grain")
    play(state, 1, "choose diamond")
    play(state, 1, "build mound A2")
    shown = board.replay(state)
    assert shown["drawn"] == 2 and shown["round"] == 1
    bes = shown["builders"][1]
    assert bes["sheet"]["city"] == {"A2": "mound"} and bes["stage"] == "gain"
    assert bes["notes"] == ["builds a Burial Mound on A2"]
    assert 'data-hex="A2" data-kind="plain" data-built="mound"' in bes["svg"]
    published = state.observation(0)["players"][1]["sheet"]
    assert published["city"] == {}  # what Ana sees live: Bes's sheet as at the reveal
    assert all(b["svg"] and "egyptia-sheet" in b["svg"] for b in shown["builders"])


def test_a_big_tables_replay_draws_the_best_sheets_and_sends_the_rest_as_data() -> None:
    state = new(30, seed=2)
    shown = board.replay(state)
    drawn = [b for b in shown["builders"] if b["svg"]]
    assert len(shown["builders"]) == 30 and len(drawn) == board.REPLAY_DRAWN == shown["drawn"]
    assert all(b["sheet"] and b["score"] for b in shown["builders"])
    assert len(json.dumps(shown)) < 1_000_000


# ---------------------------------------------------------------------- hidden information
def twins() -> tuple[EgyptiaState, EgyptiaState]:
    pair = []
    for _ in range(2):
        state = new(3, seed=31)
        roll(state, THREE_IN_GRAIN)
        for seat in range(3):
            set_have(state, seat, (3, 3, 3, 2))
        pair.append(state)
    return pair[0], pair[1]


def same_for_ana(one: EgyptiaState, other: EgyptiaState) -> None:
    for seat in (0, None):
        a, b = guide_of(one, seat), guide_of(other, seat)
        assert json.dumps(a) == json.dumps(b)
        legal = one.legal_actions(0) if seat == 0 else []
        assert json.dumps(board.page_data(one.game, one.observation(seat), seat, legal)) == (
            json.dumps(board.page_data(other.game, other.observation(seat), seat, legal))
        )


def test_the_guide_does_not_depend_on_a_sealed_column_or_private_steps() -> None:
    """Two positions alike but for what Bes chose and did in private: Ana's guide and a
    spectator's are the same bytes until the round's end publishes Bes's sheet."""
    one, other = twins()
    same_for_ana(one, other)
    play(one, 1, "choose grain")
    play(other, 1, "choose stone")
    same_for_ana(one, other)
    play(one, 0, "choose diamond")
    play(other, 0, "choose diamond")
    same_for_ana(one, other)
    play(one, 2, "choose grain")
    play(other, 2, "choose grain")
    # from the same reveal, private steps that differ
    one, other = twins()
    for state in (one, other):
        play(state, 1, "choose grain")
        play(state, 0, "choose diamond")
        play(state, 2, "choose diamond")
    play(one, 1, "plague locusts", "pay 2g")
    play(other, 1, "plague frogs", "pay 3g")
    same_for_ana(one, other)
    play(one, 1, "build mound E3", "gain 2g")
    play(other, 1, "build quarry B2")
    if other.stage[1] == "build_pay":
        play(other, 1, other.legal_actions(1)[0].to_text())
    play(other, 1, "ship 2")  # while waiting: private too
    # the comparison sees a difference where there is one: Bes's own guides differ
    assert json.dumps(guide_of(one, 1)) != json.dumps(guide_of(other, 1))
    same_for_ana(one, other)
    play(one, 0, "build mound A1")
    play(other, 0, "build mound A1")
    same_for_ana(one, other)  # Ana at her reward: still blind to Bes
    play(one, 0, "gain 2g")
    play(other, 0, "gain 2g")
    same_for_ana(one, other)
    play(one, 2, "build mound A1", "gain 1f")
    play(other, 2, "build mound A1", "gain 1f")  # the round ends: Bes's sheet is shown
    assert one.observation(0)["players"][1] != other.observation(0)["players"][1]


def test_the_guide_stays_the_same_when_hidden_information_is_redealt() -> None:
    """Through whole games, for each builder and a spectator: re-deal everything it cannot
    see (the engine's own resample: the others' sealed columns and private steps, future
    rolls); its guide and page data stay the same bytes."""
    checked = 0
    for seed in range(2):
        state = new(3, seed=seed)
        rng = Rng(seed + 10)
        while not state.is_over():
            for seat in (0, 1, 2):
                before = json.dumps(guide_of(state, seat))
                page = json.dumps(
                    board.page_data(
                        state.game, state.observation(seat), seat, state.legal_actions(seat)
                    )
                )
                for k in range(2):
                    world = state.resample(seat, Rng(k))
                    assert json.dumps(guide_of(world, seat)) == before
                    assert (
                        json.dumps(
                            board.page_data(
                                world.game, world.observation(seat), seat, world.legal_actions(seat)
                            )
                        )
                        == page
                    )
                checked += 1
            movers = state.to_move()
            seat = movers[rng.below(len(movers))]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[rng.below(len(legal))])
    assert checked > 100


def test_the_page_parts_are_functions_of_the_game_and_the_view_alone() -> None:
    """Two states a seat cannot tell apart (a world re-dealt for it: its observation and its
    legal moves are the same) give that seat the same page data and guide, and a spectator
    the same board, byte for byte: the page's parts read the game and the view, nothing of
    the state (they are never handed one)."""
    import copy

    compared = 0
    for seed, players in ((4, 3), (9, 2)):
        state = new(players, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            game = state.game
            public = state.observation(None)
            board_svg = board.board_svg(game, public)
            for seat in range(players):
                view, legal = state.observation(seat), state.legal_actions(seat)
                page = json.dumps(board.page_data(game, view, seat, legal))
                taught = json.dumps(guide(game, view, seat, legal))
                world = state.resample(seat, Rng(compared))
                other = world.observation(seat)
                assert other == view and world.legal_actions(seat) == legal
                other_copy = copy.deepcopy(other)  # a view owes nothing to the state
                assert json.dumps(board.page_data(world.game, other_copy, seat, legal)) == page
                assert json.dumps(guide(world.game, other_copy, seat, legal)) == taught
                if world.observation(None) == public:
                    assert board.board_svg(world.game, world.observation(None)) == board_svg
                    compared += 1
            movers = state.to_move()
            mover = movers[rng.below(len(movers))]
            moves = state.legal_actions(mover)
            state.apply(mover, moves[rng.below(len(moves))])
    assert compared > 50

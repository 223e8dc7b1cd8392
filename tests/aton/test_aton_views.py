"""Aton's observation is a declared shape, and every client draws from it alone.

- every observation ``observe`` makes (each phase, each seat and a spectator) has exactly
  the shape :class:`~karnak.games.aton.view.AtonObservation` declares, checked against the
  JSON schema exported from it (the shape the page script is checked against);
- the web board, the page data, the guide and the terminal are functions of the game and
  the seat's view: worlds a seat cannot tell apart (re-dealt by the engine's resample, or
  by hand) draw the same bytes, a copy of the view that shares nothing with the state
  draws the same, and drawing leaves the view as it was.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from rich.console import Console, RenderableType

from karnak.core import Rng, get_game
from karnak.core.plugin import load_reference
from karnak.core.registry import get_plugin
from karnak.core.view_schema import observation_schema
from karnak.games.aton import GAME
from karnak.games.aton.rules.state import AtonState, score_temples
from karnak.games.aton.terminal import AtonRenderer
from karnak.games.aton.view import AtonObservation, as_observation, board_of
from karnak.games.aton.web import board as web_board
from karnak.games.aton.web import guide as web_guide
from karnak.i18n import use_language

RED, BLUE = 0, 1
PHASES = {"allocate", "remove", "place", "cleanup", "over"}


def random_states(seed: int, every: int = 1) -> list[AtonState]:
    """Every ``every``-th position of a random game (a random mover at the sealed step),
    and the last."""
    state = GAME.new_state(["Red", "Blue"], seed=seed)
    rng = Rng(seed)
    seen = [state.clone()]
    step = 0
    while not state.is_over():
        movers = state.to_move()
        seat = movers[rng.below(len(movers))]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[rng.below(len(legal))])
        step += 1
        if step % every == 0 or state.is_over():
            seen.append(state.clone())
    return seen


def shown(parts: list[RenderableType]) -> str:
    """What the terminal prints, with its styles (colours are part of what it shows)."""
    console = Console(
        width=150, record=True, force_terminal=True, color_system="truecolor", file=io.StringIO()
    )
    for part in parts:
        console.print(part)
    return console.export_text(styles=True)


def drawn(state: AtonState, seat: int | None) -> dict[str, Any]:
    """Everything the page and the terminal show ``seat`` (None: a spectator), drawn the
    way the clients draw it: from the game and the views, never from ``state``."""
    return draw(state.game, state.observation(seat), state.observation(None), seat, state)


def draw(game: Any, view: Any, public: Any, seat: int | None, state: AtonState) -> dict[str, Any]:
    legal = state.legal_actions(seat) if seat is not None else []
    renderer = AtonRenderer()
    out: dict[str, Any] = {
        "board": web_board.board_svg(game, public),
        "page": web_board.page_data(game, view, seat, legal),
        "guide": web_guide.guide(game, view, seat, legal),
        "decision": renderer.decision(game, view),
    }
    if seat is not None:
        out["status"] = shown(renderer.status(game, view, seat))
        out["compact"] = shown(renderer.compact(game, view, seat))
        out["hints"] = [renderer.action_hint(game, view, seat, a) for a in legal]
    if state.is_over():
        out["final"] = shown(renderer.final(game, public))
    copied: dict[str, Any] = json.loads(json.dumps(out))
    return copied


def worlds_hiding_from(state: AtonState, seat: int | None) -> list[AtonState]:
    """Worlds ``seat`` cannot tell from ``state``: the engine's re-deals (twice), and the
    other priest's hand and sealed cartouches changed by hand."""
    viewers = [seat] if seat is not None else [RED, BLUE]
    worlds = []
    for k in range(2):
        world = state
        for viewer in viewers:
            world = world.resample(viewer, Rng(k))
        worlds.append(world)
    by_hand = state.clone()
    for other in [1 - seat] if seat is not None else [RED, BLUE]:
        by_hand.hands[other] = [1 if card != 1 else 4 for card in by_hand.hands[other]]
        sealed = by_hand.alloc[other]
        if sealed is not None and not by_hand.revealed:
            by_hand.alloc[other] = [5 - card for card in sealed]
    worlds.append(by_hand)
    return worlds


# ---------------------------------------------------------------------- the shape
def test_the_plugin_declares_the_observation_typed_dict() -> None:
    plugin = get_plugin("aton")
    assert plugin.observation is not None
    assert load_reference(plugin.observation) is AtonObservation
    schema = observation_schema(plugin)
    assert schema is not None
    assert set(schema["properties"]) == set(AtonObservation.__annotations__)
    assert "you" in schema["properties"] and "you" not in schema["required"]
    assert set(schema["properties"]["phase"]["enum"]) == PHASES


def test_every_observation_has_exactly_the_declared_shape() -> None:
    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator
    schema = observation_schema(get_plugin("aton"))
    assert schema is not None
    check = validator(schema)
    phases: set[str] = set()
    checked = 0
    for seed in range(4):
        for state in random_states(seed, every=3):
            for seat in (RED, BLUE, None):
                observation = state.observation(seat)
                check.validate(json.loads(json.dumps(observation)))
                assert ("you" in observation) == (seat is not None)
                assert observation["winners"] == (state.winners() if state.is_over() else [])
                assert observation["ranks"] == (state.ranks() if state.is_over() else [])
                phases.add(observation["phase"])
                checked += 1
    assert phases == PHASES and checked > 300


def test_a_wrong_shape_is_refused_by_the_schema() -> None:
    validator = pytest.importorskip("jsonschema_rs").Draft202012Validator
    schema = observation_schema(get_plugin("aton"))
    assert schema is not None
    good = json.loads(json.dumps(GAME.new_state(["Red", "Blue"], seed=1).observation(RED)))
    assert validator(schema).is_valid(good)
    player = {**good["players"][0], "hand": [1, 2]}  # a count, never the cards
    for broken in (
        {**good, "extra": 1},
        {k: v for k, v in good.items() if k != "kingdom"},
        {**good, "phase": "bidding"},
        {**good, "round": "two"},
        {**good, "players": [player, good["players"][1]]},
        {**good, "you": {"hand": [1, 2, 3, 4]}},
    ):
        assert not validator(schema).is_valid(broken)


def test_another_games_view_or_game_is_refused() -> None:
    amunre = get_game("amunre")
    with pytest.raises(TypeError, match="not an Aton observation"):
        as_observation(amunre.new_state(3, seed=1).observation(0))
    with pytest.raises(TypeError, match="not an Aton game"):
        board_of(amunre)
    assert board_of(GAME) is GAME.board


# ---------------------------------------------------------------------- drawn from the view
def half_sealed(state: AtonState) -> bool:
    """One priest has laid its cards face down, the other has not yet."""
    return state.phase == "allocate" and any(cards is not None for cards in state.alloc)


@pytest.mark.parametrize(("language", "seeds"), [("en", (11, 12)), ("de", (11,)), ("fr", (12,))])
def test_the_page_and_the_terminal_draw_the_same_in_worlds_the_seat_cannot_tell_apart(
    language: str, seeds: tuple[int, ...]
) -> None:
    """In every language: a translation must not leak either (each translation over one of
    the two games English is checked over)."""
    with use_language(language):
        check_worlds_the_seat_cannot_tell_apart(seeds)


def check_worlds_the_seat_cannot_tell_apart(seeds: tuple[int, ...]) -> None:
    checked = sealed = ended = 0
    for seed in seeds:
        states = random_states(seed)
        # some of each phase, the half-sealed steps (where a leak would show) and the end
        picked = [s for i, s in enumerate(states) if i % 6 == 0 or half_sealed(s)][:22]
        for state in [*picked, states[-1]]:
            for seat in (RED, BLUE, None):
                before = drawn(state, seat)
                for world in worlds_hiding_from(state, seat):
                    assert world.observation(seat) == state.observation(seat)
                    assert drawn(world, seat) == before
                checked += 1
                sealed += half_sealed(state)
                ended += "final" in before
    assert checked == len(seeds) * 23 * 3 and sealed >= 6 * len(seeds) and ended == 3 * len(seeds)
    # the comparison sees a difference where there is one: the seat's own hand shows
    state = GAME.new_state(["Red", "Blue"], seed=11)
    mine = state.clone()
    mine.hands[RED] = [4, 4, 4, 4] if sorted(state.hands[RED]) != [4, 4, 4, 4] else [1, 1, 1, 1]
    differs = {k for k, v in drawn(mine, RED).items() if v != drawn(state, RED)[k]}
    assert differs == {"page", "guide", "status", "compact", "hints"}
    # and so does a public change: a counter on the board
    moved = state.clone()
    moved.temples[0][0] = BLUE
    differs = {k for k, v in drawn(moved, RED).items() if v != drawn(state, RED)[k]}
    assert {"board", "page", "guide", "status", "compact"} <= differs


def test_the_drawings_read_the_views_data_and_leave_it_as_it_was() -> None:
    """A copy of the view that shares nothing with the state (as it reaches a remote client)
    draws the same; drawing changes neither the view nor the state."""
    for state in random_states(13, every=8):
        for seat in (RED, BLUE, None):
            view, public = state.observation(seat), state.observation(None)
            kept = (copy.deepcopy(view), copy.deepcopy(public), state.to_json())
            direct = draw(state.game, view, public, seat, state)
            assert (view, public, state.to_json()) == kept
            remote = draw(
                state.game,
                json.loads(json.dumps(view)),
                json.loads(json.dumps(public)),
                seat,
                state,
            )
            assert remote == direct


def test_the_scoring_the_clients_show_is_the_engines() -> None:
    """``score_temples`` scores any temples on a board, as the engine scores its own."""
    scorings = 0
    for state in random_states(14):
        temples = [list(t) for t in state.temples]
        assert score_temples(state.board, temples) == state.scoring_lines()
        assert temples == state.temples  # nothing moved
        if state.last_scoring:
            scorings += 1
    assert scorings  # the game scored the temples at least once
    # by hand: Red holds three squares of temple 1, Blue one of temple 2
    temples = [[-1] * len(t) for t in GAME.board.temples]
    temples[0][:3] = [RED, RED, RED]
    temples[1][0] = BLUE
    lines = {line["rule"]: line for line in score_temples(GAME.board, temples)}
    assert lines["temple 1"] == {"rule": "temple 1", "counters": [3, 0], "points": [3, 0]}
    assert lines["temple 2"] == {"rule": "temple 2", "counters": [0, 1], "points": [0, 5]}
    assert lines["temple 3"]["points"] == [0, 0]

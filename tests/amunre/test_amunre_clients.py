"""Amun-Re's clients draw from the seat's view, and the view has one declared shape.

The web board, the page data, the guide and the terminal receive the game and one seat's
observation, never the state. These tests hold them to it:

- two positions a seat cannot tell apart (everything hidden from it re-dealt, by the
  engine's ``resample`` and by an independent re-deal) give that seat byte-identical page
  parts and terminal output, and the board drawn from the spectator's view is the same;
- every client gives the same output from the observation after a JSON round trip (what
  the browser receives), so nothing rides along on the Python objects;
- the drawing modules import no state;
- what ``observe`` returns is exactly what ``AmunReObservation`` declares, nested shapes
  included, and each optional key is sometimes there and sometimes not.
"""

from __future__ import annotations

import ast
import random
import types
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

import orjson
import pytest
from rich.console import Console, RenderableType

from karnak.core import Rng
from karnak.core.registry import get_game, get_plugin
from karnak.games.amunre import web
from karnak.games.amunre.rules.state import AmunReState
from karnak.games.amunre.terminal import AmunReRenderer
from karnak.games.amunre.view import AmunReObservation, as_observation
from karnak.games.amunre.web import board, guide
from support.amunre_hidden import redeal_hidden

RENDERER = AmunReRenderer()
CLIENT_MODULES = ("web/board.py", "web/guide.py", "terminal.py", "texts.py")
PACKAGE = Path(web.__file__).parent.parent

#: Table settings the games below are played with: both editions, 3 to 5 seats, the expert
#: province cards (sealed picks, private province hands), offered cards, old rules.
TABLES: list[tuple[int, int, dict[str, Any], str | None]] = [
    (1, 4, {}, None),
    (2, 3, {"edition": "2016", "expert_provinces": True}, None),
    (3, 5, {"offer_cards": True}, None),
    (4, 4, {"expert_provinces": True}, "1.0"),
]


def new_state(seed: int, players: int, options: dict[str, Any], version: str | None) -> AmunReState:
    game = get_game("amunre")
    if version is not None:
        game = game.at_version(version)
    names = ["Ana", "Bo", "Cy", "Di", "Eve"][:players]
    state = game.new_state(names, seed=seed, options=game.resolve_options(options))
    assert isinstance(state, AmunReState)
    return state


def positions(every: int) -> Iterator[AmunReState]:
    """Every ``every``-th position of a random game at each table, and each game's end."""
    for seed, players, options, version in TABLES:
        state = new_state(seed, players, options, version)
        rng = random.Random(seed)
        step = 0
        while not state.is_over():
            if step % every == 0:
                yield state
            seat = rng.choice(state.to_move())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            step += 1
        yield state


def shown(parts: list[RenderableType]) -> str:
    """Rich renderables as the terminal shows them, colours and styles included."""
    console = Console(
        file=StringIO(), width=100, record=True, color_system="truecolor", force_terminal=True
    )
    for part in parts:
        console.print(part)
    return console.export_text(styles=True)


def seat_parts(state: AmunReState, view: Any, seat: int) -> bytes:
    """Everything Amun-Re's clients show ``seat`` from ``view``, as one byte string."""
    game = state.game
    legal = state.legal_actions(seat)
    return orjson.dumps(
        {
            "page": board.page_data(game, view, seat, legal),
            "guide": guide.guide(game, view, seat, legal),
            "status": shown(RENDERER.status(game, view, seat)),
            "hints": [RENDERER.action_hint(game, view, seat, a) for a in legal],
            "decision": RENDERER.decision(game, view),
        },
        option=orjson.OPT_SORT_KEYS,
    )


def public_parts(state: AmunReState, view: Any) -> bytes:
    """What a spectator's screen shows from the public ``view``."""
    game = state.game
    found = {
        "board": board.board_svg(game, view),
        "page": board.page_data(game, view, None, []),
        "guide": guide.guide(game, view, None, []),
        "decision": RENDERER.decision(game, view),
    }
    if state.is_over():
        found["final"] = shown(RENDERER.final(game, view))
    return orjson.dumps(found, option=orjson.OPT_SORT_KEYS)


def round_trip(view: Any) -> Any:
    return orjson.loads(orjson.dumps(view))


# ---------------------------------------------------------------------------- pure views
def test_a_seat_sees_the_same_page_and_terminal_in_every_world_it_cannot_tell_apart() -> None:
    """Each seat's world is re-dealt by the engine's ``resample`` or, every other time, by
    the independent re-deal (drawing the terminal takes most of this test's time)."""
    checked = 0
    for state in positions(every=20):
        for seat in range(state.n):
            view = state.observation(seat)
            truth = seat_parts(state, view, seat)
            if seat == 0:
                assert seat_parts(state, round_trip(view), seat) == truth
            world = (
                state.resample(seat, Rng(checked))
                if checked % 2
                else redeal_hidden(state, seat, Rng(checked))
            )
            assert world.observation(seat) == view  # the seat cannot tell them apart
            assert world.legal_actions(seat) == state.legal_actions(seat)
            assert seat_parts(world, world.observation(seat), seat) == truth
            checked += 1
    assert checked > 120


def test_the_board_and_a_spectators_page_depend_on_the_public_view_only() -> None:
    checked = 0
    for state in positions(every=7):
        view = state.observation(None)
        truth = public_parts(state, view)
        assert public_parts(state, round_trip(view)) == truth
        for seat in range(state.n):  # re-dealt for a seat: all it cannot see changes too
            world = redeal_hidden(state, seat, Rng(checked))
            assert world.observation(None) == view
            assert public_parts(world, world.observation(None)) == truth
        world = redeal_hidden(state, None, Rng(checked + 1))
        assert public_parts(world, world.observation(None)) == truth
        checked += 1
    assert checked > 60


def test_different_views_draw_differently() -> None:
    """The comparisons above can fail: a change a seat sees changes what it is shown."""
    state = new_state(1, 4, {}, None)
    before_seat = seat_parts(state, state.observation(0), 0)
    before_board = public_parts(state, state.observation(None))
    state.gold[1] += 1  # public: everyone's gold and score are on the table
    state.bank -= 1
    state.score[1] += 1
    assert seat_parts(state, state.observation(0), 0) != before_seat
    assert public_parts(state, state.observation(None)) != before_board


def test_the_page_the_server_builds_is_the_one_the_plugin_names() -> None:
    page = get_plugin("amunre").web_page()
    assert page is not None
    assert page.board_svg is board.board_svg and page.page_data is board.page_data
    assert page.guide is guide.guide
    renderer = get_plugin("amunre").terminal_renderer()
    assert isinstance(renderer, AmunReRenderer)


def test_a_view_of_another_game_is_refused() -> None:
    state = new_state(1, 4, {}, None)
    view = dict(state.observation(0), game="aton")
    with pytest.raises(TypeError, match="not an Amun-Re observation"):
        board.page_data(state.game, view, 0, [])
    with pytest.raises(TypeError, match="not an Amun-Re game"):
        board.board_svg(get_game("aton"), state.observation(None))


@pytest.mark.parametrize("module", CLIENT_MODULES)
def test_the_drawing_modules_never_import_a_state(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text(encoding="utf-8"))
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
    states = {name for name in imported if name.endswith((".state", ".State", "AmunReState"))}
    assert not states, f"{module} imports {sorted(states)}"


# ---------------------------------------------------------------------------- the shape
class Shape:
    """Checks values against a declared type, and notes which optional keys were seen."""

    def __init__(self) -> None:
        self.present: set[str] = set()
        self.absent: set[str] = set()
        self.optional: set[str] = set()

    def check(self, value: Any, hint: Any, path: str) -> None:
        if is_typeddict(hint):
            self.check_typed_dict(value, hint, path)
            return
        origin, args = get_origin(hint), get_args(hint)
        if origin in (Union, types.UnionType):
            errors = []
            for arg in args:
                try:
                    self.check(value, arg, path)
                    return
                except AssertionError as exc:
                    errors.append(str(exc))
            raise AssertionError(f"{path}: {value!r} is none of {args}: {errors}")
        if origin is Literal:
            assert value in args, f"{path}: {value!r} not in {args}"
        elif origin is list:
            assert isinstance(value, list), f"{path}: {value!r} is not a list"
            for i, item in enumerate(value):
                self.check(item, args[0], f"{path}[{i}]")
        elif origin is dict:
            assert isinstance(value, dict), f"{path}: {value!r} is not a dict"
            for key, item in value.items():
                self.check(key, args[0], f"{path} key")
                self.check(item, args[1], f"{path}[{key!r}]")
        elif hint is type(None):
            assert value is None, f"{path}: {value!r} is not None"
        elif hint is int:
            assert isinstance(value, int) and not isinstance(value, bool), f"{path}: {value!r}"
        else:
            assert hint in (str, bool), f"{path}: no check for {hint!r}"
            assert isinstance(value, hint), f"{path}: {value!r} is not a {hint.__name__}"

    def check_typed_dict(self, value: Any, hint: Any, path: str) -> None:
        assert isinstance(value, dict), f"{path}: {value!r} is not a dict"
        declared = get_type_hints(hint)
        undeclared = set(value) - set(declared)
        assert not undeclared, f"{path}: keys not declared in {hint.__name__}: {undeclared}"
        missing = hint.__required_keys__ - set(value)
        assert not missing, f"{path}: required keys of {hint.__name__} missing: {missing}"
        for key in hint.__optional_keys__:
            where = f"{hint.__name__}.{key}"
            self.optional.add(where)
            (self.present if key in value else self.absent).add(where)
        for key, item in value.items():
            self.check(item, declared[key], f"{path}.{key}")


def test_every_observation_has_the_declared_shape() -> None:
    shape = Shape()
    checked = 0
    for state in positions(every=3):
        for seat in [None, *range(state.n)]:
            shape.check(state.observation(seat), AmunReObservation, f"seat {seat}")
            checked += 1
    assert checked > 1000
    # Each optional key is optional for a reason: the games show it present and absent.
    assert shape.present == shape.optional, shape.optional - shape.present
    assert shape.absent == shape.optional, shape.optional - shape.absent


def test_the_shape_check_catches_a_stray_or_a_missing_key() -> None:
    view = new_state(1, 4, {}, None).observation(0)
    with pytest.raises(AssertionError, match="not declared"):
        Shape().check(dict(view, secret=1), AmunReObservation, "view")
    players = [dict(view["players"][0]), *view["players"][1:]]
    del players[0]["gold"]
    with pytest.raises(AssertionError, match="missing"):
        Shape().check(dict(view, players=players), AmunReObservation, "view")
    with pytest.raises(AssertionError, match="not a list"):
        Shape().check(dict(view, to_move=3), AmunReObservation, "view")


def test_as_observation_reads_the_view_without_copying() -> None:
    view = new_state(1, 4, {}, None).observation(0)
    assert as_observation(view) is view

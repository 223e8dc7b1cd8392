"""Egyptia's observation against its declared shape (``view.EgyptiaObservation``): every key
an observation holds is declared, every required key is there, every value has its declared
type, at every step of whole games, for every seat and a spectator."""

from __future__ import annotations

import types
import typing
from typing import Any, Literal, NotRequired, Required, get_args, get_origin, get_type_hints

import pytest

from karnak.core.registry import get_plugin
from karnak.core.rng import Rng
from karnak.core.view_schema import json_schema
from karnak.games.egyptia import GAME
from karnak.games.egyptia.rules.actions import Build
from karnak.games.egyptia.view import EgyptiaObservation, as_observation


def conforms(value: Any, hint: Any, where: str) -> None:
    """Fail with the path of the first value that does not fit ``hint``."""
    origin = get_origin(hint)
    if hint is Any:
        return
    if typing.is_typeddict(hint):
        assert isinstance(value, dict), where
        hints = get_type_hints(hint, include_extras=True)
        assert set(value) <= set(hints), f"{where}: undeclared {set(value) - set(hints)}"
        for key, declared in hints.items():
            kind = get_origin(declared)
            optional = kind is NotRequired or (
                kind is not Required and key not in hint.__required_keys__
            )
            if kind in (NotRequired, Required):
                declared = get_args(declared)[0]
            if key not in value:
                assert optional, f"{where}: {key!r} is missing"
                continue
            conforms(value[key], declared, f"{where}.{key}")
        return
    if origin in (types.UnionType, typing.Union):
        for option in get_args(hint):
            try:
                conforms(value, option, where)
            except AssertionError:
                continue
            return
        raise AssertionError(f"{where}: {value!r} fits none of {hint}")
    if origin is Literal:
        assert value in get_args(hint), where
        return
    if origin is list:
        assert isinstance(value, list), where
        (item,) = get_args(hint)
        for i, entry in enumerate(value):
            conforms(entry, item, f"{where}[{i}]")
        return
    if origin is dict:
        assert isinstance(value, dict), where
        key_type, item = get_args(hint)
        for key, entry in value.items():
            assert isinstance(key, key_type), where
            conforms(entry, item, f"{where}.{key}")
        return
    if hint is None or hint is type(None):
        assert value is None, where
        return
    if hint is int:
        assert isinstance(value, int) and not isinstance(value, bool), f"{where}: {value!r}"
        return
    assert isinstance(value, hint), f"{where}: {value!r} is not {hint}"


def games() -> list[tuple[str, int, int]]:
    return [("1.1", 1, 2), ("1.0", 1, 4), ("1.1", 3, 5), ("1.0", 2, 8)]


@pytest.mark.parametrize(("version", "players", "seed"), games())
def test_every_observation_has_the_declared_shape(version: str, players: int, seed: int) -> None:
    state = GAME.at_version(version).new_state(players, seed=seed)
    rng = Rng(seed)
    seen: set[str] = set()
    while True:
        for seat in [None, *range(players)]:
            obs = state.observation(seat)
            conforms(obs, EgyptiaObservation, f"observation({seat})")
            seen.update(k for k in ("you", "final", "solo_rank") if k in obs)
            you = obs.get("you")
            if you is not None:
                seen.update(k for k in ("offered", "builds") if k in you)
                assert obs["players"][seat]["column"] is not None or you["stage"] == "choose"
        if state.is_over():
            break
        mover = state.to_move()[rng.below(len(state.to_move()))]
        legal = state.legal_actions(mover)
        state.apply(mover, legal[rng.below(len(legal))])
    # the keys that are sometimes absent were met too
    assert seen == {"you", "final", "solo_rank", "offered", "builds"}


def test_the_builds_a_seat_sees_are_its_legal_builds() -> None:
    """``you.builds``, which the terminal lists at the build, is exactly the seat's legal
    Build moves, grouped by building in their order (and only the seat sees it)."""
    checked = 0
    for seed in range(6):
        state = GAME.new_state(2, seed=seed)
        rng = Rng(seed)
        while not state.is_over():
            for seat in range(2):
                obs = state.observation(seat)
                you = obs["you"]
                if you["stage"] != "build":
                    assert "builds" not in you
                    continue
                expected: dict[str, list[str]] = {}
                for action in state.legal_actions(seat):
                    if isinstance(action, Build):
                        expected.setdefault(action.building, []).append(action.hex)
                assert you["builds"] == expected
                assert "builds" not in str(state.observation(1 - seat)["players"][seat])
                checked += 1
            mover = state.to_move()[rng.below(len(state.to_move()))]
            legal = state.legal_actions(mover)
            state.apply(mover, legal[rng.below(len(legal))])
    assert checked > 20


def test_the_plugin_names_the_declared_shape_and_it_exports() -> None:
    plugin = get_plugin("egyptia")
    assert plugin.observation == "karnak.games.egyptia.view:EgyptiaObservation"
    schema = json_schema(EgyptiaObservation)
    assert set(schema["required"]) == {
        "game",
        "seat",
        "round",
        "over",
        "revealed",
        "phase_name",
        "dice",
        "columns",
        "cards",
        "players",
        "to_move",
        "layout",
        "decision",
    }
    assert set(schema["properties"]) == set(schema["required"]) | {"you", "final", "solo_rank"}


def test_a_view_of_another_game_is_refused() -> None:
    with pytest.raises(TypeError, match="not an Egyptia observation"):
        as_observation({"game": "aton"})
    state = GAME.new_state(1, seed=1)
    assert as_observation(state.observation(0)) is not None

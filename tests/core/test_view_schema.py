"""A TypedDict as JSON Schema (karnak.core.view_schema): every form a game's observation uses,
and a clear refusal of a type that has no JSON form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, Required, TypedDict

import pytest

from karnak.core.plugin import GamePlugin, PluginError
from karnak.core.view_schema import (
    DIALECT,
    ViewSchemaError,
    json_schema,
    observation_schema,
    top_level_keys,
)


class Card(TypedDict):
    """A card in a hand."""

    name: str
    cost: float


class Partial(TypedDict, total=False):
    note: str
    must: Required[int]


class Node(TypedDict):
    children: list[Node]


class Everything(TypedDict):
    count: int
    flag: bool
    phase: Literal["bid", "over"]
    winner: int | None
    cards: list[Card]
    pair: tuple[int, str]
    run: tuple[int, ...]
    seen: Sequence[int]
    by_name: dict[str, Card]
    loose: Mapping[str, Any]
    sized: Annotated[int, "how many"]
    partial: Partial
    tree: Node
    extra: NotRequired[Card]


def test_every_form_has_its_json_schema() -> None:
    schema = json_schema(Everything)
    assert schema["$schema"] == DIALECT and schema["title"] == "Everything"
    assert schema["additionalProperties"] is False
    props = schema["properties"]
    assert props["count"] == {"type": "integer"} and props["flag"] == {"type": "boolean"}
    assert props["phase"] == {"enum": ["bid", "over"]}
    assert props["winner"] == {"anyOf": [{"type": "integer"}, {"type": "null"}]}
    assert props["cards"] == {"type": "array", "items": {"$ref": "#/$defs/Card"}}
    assert props["pair"] == {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}],
        "minItems": 2,
        "maxItems": 2,
    }
    assert props["run"] == props["seen"] == {"type": "array", "items": {"type": "integer"}}
    assert props["by_name"] == {"type": "object", "additionalProperties": {"$ref": "#/$defs/Card"}}
    assert props["loose"] == {"type": "object", "additionalProperties": {}}
    assert props["sized"] == {"description": "how many", "type": "integer"}
    assert set(schema["required"]) == top_level_keys(schema) - {"extra"}
    card = schema["$defs"]["Card"]
    assert card["description"] == "A card in a hand."
    assert card["properties"]["cost"] == {"type": "number"}
    assert schema["$defs"]["Partial"]["required"] == ["must"]
    assert schema["$defs"]["Node"]["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}


def test_a_type_without_a_json_form_is_named_where_it_is() -> None:
    class Bad(TypedDict):
        seats: dict[int, str]

    with pytest.raises(ViewSchemaError, match=r"Bad\.seats.*keys are text"):
        json_schema(Bad)

    class Worse(TypedDict):
        when: complex

    with pytest.raises(ViewSchemaError, match=r"Worse\.when"):
        json_schema(Worse)
    with pytest.raises(ViewSchemaError, match="not a TypedDict"):
        json_schema(dict)


def test_a_plugins_schema_is_its_declared_typed_dict_or_none() -> None:
    assert observation_schema(GamePlugin(name="x", rules="karnak.games.aton.rules:GAME")) is None
    declared = GamePlugin(name="x", rules="m:GAME", observation=f"{__name__}:Card")
    schema = observation_schema(declared)
    assert schema is not None and schema["title"] == "x observation"
    wrong = GamePlugin(name="x", rules="m:GAME", observation=f"{__name__}:DIALECT")
    with pytest.raises(PluginError, match="not a TypedDict"):
        observation_schema(wrong)

"""Composition changes judged by jsonschema itself: when some value the old schema accepts is rejected
by the new one, the diff must report a breaking finding on that tool (recall); when none is, it must
not report one at error severity (precision). Schemas are built from a small grammar of the keywords a
tool's parameters use, so a pool of values over the same keys and value kinds decides every case."""

from __future__ import annotations

import copy
import itertools
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from schemalint.diff import compare_tools
from schemalint.diff.compare import BREAKING_CODES, Change
from schemalint.model import Dialect, Severity, Tool

KEYS = ("a", "b", "c", "d")
VALUES = ("x", "y", 3, 9)
#: every object over KEYS with a value from VALUES or the key absent: the grammar below only tells
#: values apart by key, type, the consts "x" and 3 and the bound 5, so this pool decides containment
POOL: list[Any] = [
    {k: v for k, v in zip(KEYS, combo, strict=True) if v is not None}
    for combo in itertools.product(*[(None, *VALUES)] * 3, (None, "x"))  # "d": only ever an extra key
]

BASE_PROPERTIES = {"a": {"type": "string"}, "b": {"type": "integer"}, "c": {"type": ["string", "integer"]}}

names = st.sampled_from(KEYS[:3])
required = st.lists(names, min_size=1, max_size=2, unique=True).map(lambda r: {"required": r})
leaf = st.one_of(
    required,
    names.map(lambda k: {"not": {"required": [k]}}),
    st.tuples(names, st.sampled_from(("x", 3))).map(
        lambda p: {"properties": {p[0]: {"const": p[1]}}, "required": [p[0]]}
    ),
    st.just({"properties": {"b": {"maximum": 5}}}),
    st.just(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}
    ),
)
branches = st.lists(leaf, min_size=1, max_size=3)
composition = st.fixed_dictionaries(
    {},
    optional={
        "anyOf": branches,
        "oneOf": branches,
        "allOf": branches,
        "not": required,
        "if": leaf,
        "then": leaf,
        "dependentRequired": st.dictionaries(names, st.lists(names, min_size=1, max_size=2, unique=True), max_size=2),
    },
)


def object_schema(parts: dict[str, Any], closed: bool) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": copy.deepcopy(BASE_PROPERTIES), **parts}
    if closed:
        schema["additionalProperties"] = False
    return schema


@st.composite
def evolutions(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    """An old schema and a new one: the old edited (a branch added, dropped, reordered or replaced, a
    keyword added or dropped), or the keywords moved into alternatives."""
    old = object_schema(draw(composition), draw(st.booleans()))
    accepts = Draft202012Validator(old).is_valid
    assume(any(accepts(v) for v in POOL))  # a schema that takes no call cannot break one
    new = copy.deepcopy(old)
    for _ in range(draw(st.integers(1, 2))):
        keyword = draw(st.sampled_from(("anyOf", "oneOf", "allOf", "not", "if", "then", "dependentRequired")))
        edit = draw(st.sampled_from(("add", "drop", "reorder", "replace", "remove_keyword", "new_keyword")))
        value = new.get(keyword)
        if isinstance(value, list) and value:
            if edit == "add":
                value.append(draw(leaf))
            elif edit == "drop":
                value.pop(draw(st.integers(0, len(value) - 1)))
            elif edit == "reorder":
                value.reverse()
            elif edit == "replace":
                value[draw(st.integers(0, len(value) - 1))] = draw(leaf)
            else:
                new.pop(keyword)
        elif keyword in new and edit in ("drop", "remove_keyword"):
            new.pop(keyword)
        else:
            new.update(draw(composition))
    if draw(st.integers(0, 5)) == 0:  # the shape moved into alternatives
        new = {"oneOf": [object_schema(draw(composition), draw(st.booleans())) for _ in range(draw(st.integers(1, 2)))]}
    return old, new


def tool(schema: Any) -> Tool:
    return Tool(
        name="update_record",
        description="Updates a record.",
        parameters=schema,
        dialect=Dialect.MCP,
        path="tools.json",
        pointer="/0",
        parameters_pointer="/0/inputSchema",
    )


def findings(old: Any, new: Any) -> list[Change]:
    return [c for c, _ in compare_tools([tool(old)], [tool(new)]) if c.code in BREAKING_CODES]


def rejected(old: Any, new: Any) -> list[Any]:
    """The pool values the old schema accepts and the new one rejects."""
    before, after = Draft202012Validator(old), Draft202012Validator(new)
    return [v for v in POOL if before.is_valid(v) and not after.is_valid(v)]


def errors(changes: list[Change]) -> list[Change]:
    return [c for c in changes if c.severity in (None, Severity.ERROR)]


def verdict(old: Any, new: Any) -> str:
    """'found', 'unsure' or 'missed' for a break; 'quiet', 'unsure' or 'false' for a loosening."""
    changes = findings(old, new)
    if rejected(old, new):
        return "found" if errors(changes) else "unsure" if changes else "missed"
    return "false" if errors(changes) else "unsure" if changes else "quiet"


@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(evolutions())
def test_breaks_are_reported_and_loosenings_are_not_errors(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
    old, new = pair
    outcome = verdict(old, new)
    assert outcome not in ("missed", "false"), (outcome, old, new, rejected(old, new)[:3], findings(old, new))

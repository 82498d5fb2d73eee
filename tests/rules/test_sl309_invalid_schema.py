"""SL309's fast pre-checks must agree with the checks they stand in front of."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings

from schemalint.rules.sl309_invalid_schema import _WELL_FORMED, InvalidSchema, _plainly_match_type, malformed_keywords
from schemalint.testing import make_tool, run_rule

from ..strategies import json_schemas
from .helpers import prop, tool

EXAMPLES = int(os.environ.get("SCHEMALINT_PROPERTY_EXAMPLES", "60"))


def _every_value_checked(schema: dict[str, Any]) -> list[str]:
    """`malformed_keywords` without its exact-type shortcut: every known keyword's test runs."""
    return [key for key, value in schema.items() if (well_formed := _WELL_FORMED.get(key)) and not well_formed(value)]


def _value_findings(schema: dict[str, Any]) -> list[str]:
    node = next(make_tool({"name": "t", "parameters": schema}).schema_nodes())
    return [f.message for f in InvalidSchema()._values_match_type(node, schema)]


@given(json_schemas)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_shortcuts_agree_with_the_full_checks(schema: Any) -> None:
    for node in make_tool({"name": "t", "parameters": schema}).schema_nodes():
        if isinstance(node.schema, dict):
            assert malformed_keywords(node.schema) == _every_value_checked(node.schema)
            if _plainly_match_type(node.schema):
                assert _value_findings(node.schema) == []


def test_values_of_the_declared_type_pass_the_shortcut() -> None:
    assert _plainly_match_type({"type": "integer", "default": 20, "enum": [1, 2]})
    assert _plainly_match_type({"type": "string", "enum": ["a"], "examples": ["b"]})
    assert _plainly_match_type({"type": "string", "enum": "not a list"})  # only lists are compared


def test_unsure_values_go_to_the_full_check() -> None:
    assert not _plainly_match_type({"type": "integer", "default": 1.0})  # an integer all the same
    assert _value_findings({"type": "integer", "default": 1.0}) == []
    assert not _plainly_match_type({"type": "integer", "enum": [True]})
    assert _value_findings({"type": "integer", "enum": [True]}) == ["enum value True does not match `type: integer`"]
    assert not _plainly_match_type({"type": ["string", "null"], "enum": ["a", None]})  # several types
    assert not _plainly_match_type({"type": "float", "default": 1.5})  # not a JSON Schema type


def test_malformed_values_are_still_reported() -> None:
    findings = run_rule(
        InvalidSchema(),
        [tool(limit=prop("integer", minimum="1", maxLength=-1, default="ten"), tags=prop("array", items=3))],
    )
    assert sorted(f.pointer.rpartition("/")[2] for f in findings) == ["default", "items", "maxLength", "minimum"]

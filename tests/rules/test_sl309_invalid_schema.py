"""SL309's value checks: JSON types as the meta-schema reads them."""

from __future__ import annotations

from typing import Any

from schemalint.rules.sl309_invalid_schema import InvalidSchema
from schemalint.testing import make_tool, run_rule

from .helpers import prop, tool


def _value_findings(schema: dict[str, Any]) -> list[str]:
    node = next(make_tool({"name": "t", "parameters": schema}).schema_nodes())
    return [f.message for f in InvalidSchema()._values_match_type(node, schema)]


def test_values_of_the_declared_type_pass() -> None:
    assert _value_findings({"type": "integer", "default": 20, "enum": [1, 2]}) == []
    assert _value_findings({"type": "string", "enum": ["a"], "examples": ["b"]}) == []
    assert _value_findings({"type": "string", "enum": "not a list"}) == []  # only lists are compared
    assert _value_findings({"type": "integer", "default": 1.0}) == []  # an integer all the same
    assert _value_findings({"type": ["string", "null"], "enum": ["a", None]}) == []


def test_values_of_another_type_are_reported() -> None:
    assert _value_findings({"type": "integer", "enum": [True]}) == ["enum value True does not match `type: integer`"]
    assert _value_findings({"type": "float", "default": 1.5}) == []  # not a JSON Schema type: SL309 says so apart


def test_malformed_values_are_still_reported() -> None:
    findings = run_rule(
        InvalidSchema(),
        [tool(limit=prop("integer", minimum="1", maxLength=-1, default="ten"), tags=prop("array", items=3))],
    )
    assert sorted(f.pointer.rpartition("/")[2] for f in findings) == ["default", "items", "maxLength", "minimum"]

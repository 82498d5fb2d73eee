from __future__ import annotations

import pytest

from schemalint.model import Dialect, Severity
from schemalint.rules.sl401_strict_optional_property import StrictOptionalProperty
from schemalint.testing import run_rule
from tests.patching import apply_fix


def strict_tool(parameters: dict, strict: bool | None = True) -> dict:
    tool = {"name": "t", "parameters": parameters}
    if strict is not None:
        tool["strict"] = strict
    return tool


def obj(properties: dict, required: list[str] | None = None) -> dict:
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if required is not None:
        schema["required"] = required
    return schema


def test_optional_property_under_strict_is_an_error_with_the_fix_in_the_message() -> None:
    params = obj({"city": {"type": "string"}, "note": {"type": "string"}}, ["city"])
    [finding] = run_rule(StrictOptionalProperty(), [strict_tool(params)], Dialect.OPENAI_CHAT)
    assert finding.severity is Severity.ERROR
    assert finding.pointer == "/0/parameters/properties/note" and finding.key
    assert 'make `note` required and `type: ["string", "null"]`' in finding.message
    assert "OpenAI strict mode" in finding.message
    fixed = apply_fix({"parameters": params}, _at_root(finding.fix))
    assert fixed["parameters"]["required"] == ["city", "note"]
    assert fixed["parameters"]["properties"]["note"] == {"type": ["string", "null"]}


def _at_root(fix):
    """The test tool lives at /0 of the synthetic document; strip that prefix."""
    from dataclasses import replace

    return replace(fix, operations=tuple(replace(o, path=o.path.removeprefix("/0")) for o in fix.operations))


def test_fixed_schema_is_clean() -> None:
    params = obj({"a": {"type": "string"}, "b": {"type": "integer", "enum": [1, 2]}, "c": {"$ref": "#/$defs/X"}})
    params["$defs"] = {"X": {"type": "string"}}
    for _ in range(3):
        findings = run_rule(StrictOptionalProperty(), [strict_tool(params)], Dialect.OPENAI_CHAT)
        if not findings:
            break
        params = apply_fix({"parameters": params}, _at_root(findings[0].fix))["parameters"]
    assert run_rule(StrictOptionalProperty(), [strict_tool(params)], Dialect.OPENAI_CHAT) == []
    assert params["required"] == ["a", "b", "c"]
    assert params["properties"]["b"] == {"type": ["integer", "null"], "enum": [1, 2, None]}
    assert params["properties"]["c"] == {"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}


@pytest.mark.parametrize(
    ("schema", "advice"),
    [
        ({"type": ["string", "null"]}, "it already admits null"),
        ({"anyOf": [{"type": "string"}, {"type": "integer"}]}, '`{"type": "null"}` added to its `anyOf`'),
        ({"$ref": "#/$defs/X", "description": "d"}, "anyOf"),
    ],
)
def test_advice_depends_on_the_property_schema(schema: dict, advice: str) -> None:
    params = obj({"p": schema}, [])
    [finding] = run_rule(StrictOptionalProperty(), [strict_tool(params)], Dialect.OPENAI_CHAT)
    assert advice in finding.message


def test_nested_objects_are_checked_too() -> None:
    params = obj({"order": obj({"id": {"type": "string"}})}, ["order"])
    [finding] = run_rule(StrictOptionalProperty(), [strict_tool(params)], Dialect.OPENAI_CHAT)
    assert finding.pointer == "/0/parameters/properties/order/properties/id"
    assert finding.fix.operations[0].path == "/0/parameters/properties/order/required"


def test_non_strict_and_anthropic_strict_allow_optional_properties() -> None:
    params = obj({"note": {"type": "string"}}, [])
    assert run_rule(StrictOptionalProperty(), [strict_tool(params, None)], Dialect.OPENAI_CHAT) == []
    assert run_rule(StrictOptionalProperty(), [strict_tool(params)], Dialect.ANTHROPIC) == []


def test_responses_tools_are_strict_unless_they_opt_out() -> None:
    params = obj({"note": {"type": "string"}}, [])
    assert len(run_rule(StrictOptionalProperty(), [strict_tool(params, None)], Dialect.OPENAI_RESPONSES)) == 1
    assert run_rule(StrictOptionalProperty(), [strict_tool(params, False)], Dialect.OPENAI_RESPONSES) == []


def test_mcp_tool_checked_against_openai_strict_gets_a_warning() -> None:
    params = obj({"note": {"type": "string"}}, [])
    [finding] = run_rule(StrictOptionalProperty(), [strict_tool(params, None)], Dialect.MCP, ["openai-strict"])
    assert finding.severity is Severity.WARNING

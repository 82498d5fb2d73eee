from __future__ import annotations

from schemalint.model import Dialect, Severity
from schemalint.rules.sl403_provider_limit_exceeded import ProviderLimitExceeded
from schemalint.testing import run_rule

EMPTY = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}


def tools(n: int, parameters: dict = EMPTY, strict: bool | None = None) -> list[dict]:
    made = [{"name": f"tool_{i}", "parameters": parameters} for i in range(n)]
    if strict is not None:
        for tool in made:
            tool["strict"] = strict
    return made


def check(definitions, dialect=Dialect.OPENAI_CHAT, targets=(), settings=None):
    return run_rule(ProviderLimitExceeded(), definitions, dialect, targets, settings)


def test_openai_tool_count() -> None:
    assert check(tools(128)) == []
    [finding] = check(tools(130))
    assert finding.severity is Severity.ERROR
    assert finding.pointer == "/128"
    assert "130 tools to OpenAI" in finding.message and "at most 128" in finding.message
    assert finding.data["limit"] == "max-tools" and finding.data["source"]


def test_strict_and_plain_openai_tools_count_together_and_overrides_apply() -> None:
    definitions = tools(100) + tools(40, strict=True)
    assert len(check(definitions)) == 1
    assert check(definitions, settings={"target-limits": {"openai": {"max-tools": 200}}}) == []


def test_mcp_server_with_many_tools_gets_warnings_per_provider() -> None:
    found = check(tools(129), Dialect.MCP)
    assert {f.data["target"] for f in found} == {"openai", "gemini"}
    assert {f.severity for f in found} == {Severity.WARNING}


def test_anthropic_strict_tool_count() -> None:
    assert check(tools(20, strict=True), Dialect.ANTHROPIC) == []
    [finding] = check(tools(21, strict=True), Dialect.ANTHROPIC)
    assert "21 strict tools" in finding.message and finding.pointer == "/20"
    assert check(tools(21, strict=False), Dialect.ANTHROPIC) == []


def test_anthropic_optional_and_union_parameters_across_the_request() -> None:
    params = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "a": {"type": ["string", "null"]},
            "b": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "c": {"type": "string"},
        },
        "required": ["a"],
    }
    # 8 tools: 16 optional parameters (b, c) and 16 union parameters (a, b): at the limits
    assert check(tools(8, params, strict=True), Dialect.ANTHROPIC) == []
    found = {f.data["limit"]: f for f in check(tools(13, params, strict=True), Dialect.ANTHROPIC)}
    assert set(found) == {"max-optional-parameters", "max-union-parameters"}
    assert found["max-optional-parameters"].data["value"] == 26
    assert found["max-union-parameters"].data["value"] == 26
    # the 17th union parameter is `a` of the 9th tool
    assert found["max-union-parameters"].pointer == "/8/parameters/properties/a"


def test_openai_strict_depth_counts_objects_with_properties() -> None:
    schema: dict = {"type": "string"}
    for _ in range(11):
        schema = {"type": "object", "properties": {"x": schema}, "required": ["x"], "additionalProperties": False}
    [finding] = check(tools(1, schema, strict=True))
    assert finding.data["limit"] == "max-depth" and finding.data["value"] == 11
    assert finding.pointer == "/0/parameters"
    assert check(tools(1, schema["properties"]["x"], strict=True)) == []
    # not strict: no strict-mode size limits
    assert check(tools(1, schema)) == []


def test_openai_strict_enum_limits() -> None:
    many = [f"value_{i:04d}" for i in range(1001)]
    params = {"type": "object", "properties": {"v": {"type": "string", "enum": many}}, "required": ["v"]}
    limits = {f.data["limit"] for f in check(tools(1, params, strict=True))}
    assert limits == {"max-enum-values"}
    long_values = ["x" * 60 + str(i) for i in range(251)]
    params = {"type": "object", "properties": {"v": {"type": "string", "enum": long_values}}, "required": ["v"]}
    assert {f.data["limit"] for f in check(tools(1, params, strict=True))} == {"max-large-enum-string-length"}


def test_openai_strict_total_properties_per_definition() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(3000)}}
    params = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": wide, "B": wide}}
    assert check(tools(1, params, strict=True)) == []  # each part on its own
    params = {"type": "object", "properties": {"a": wide, "b": wide}}
    [finding] = check(tools(1, params, strict=True))
    assert finding.data["limit"] == "max-total-properties" and finding.data["value"] == 6002

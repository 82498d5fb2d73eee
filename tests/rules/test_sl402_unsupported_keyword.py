from __future__ import annotations

from typing import Any

import pytest

from schemalint.model import Dialect, Severity
from schemalint.providers import TARGETS
from schemalint.rules.base import LintContext
from schemalint.rules.sl402_unsupported_keyword import UnsupportedKeyword
from schemalint.testing import make_tool, node_findings, run_rule


def findings(parameters: dict, dialect: Dialect = Dialect.OPENAI_CHAT, strict: bool | None = True, targets=()):
    tool = {"name": "t", "parameters": parameters}
    if strict is not None:
        tool["strict"] = strict
    return run_rule(UnsupportedKeyword(), [tool], dialect, targets)


def prop(schema: dict) -> dict:
    return {"type": "object", "properties": {"p": schema}, "required": ["p"], "additionalProperties": False}


@pytest.mark.parametrize(
    ("schema", "keyword"),
    [
        ({"oneOf": [{"type": "string"}, {"type": "integer"}]}, "oneOf"),
        ({"allOf": [{"type": "string"}]}, "allOf"),
        ({"type": "string", "not": {"enum": ["x"]}}, "not"),
        ({"type": "object", "properties": {}, "propertyNames": {"pattern": "^a"}}, "propertyNames"),
        ({"type": "array", "items": {"type": "string"}, "uniqueItems": True}, "uniqueItems"),
        ({"type": "array"}, "items"),
        ({"type": "array", "items": {}}, "items"),
        ({"$ref": "#/$defs/X", "description": "d"}, "$ref"),
        ({"$ref": "#/properties/q"}, "$ref"),
        ({"type": "string", "format": "uri"}, "format"),
    ],
)
def test_openai_strict_errors(schema: dict, keyword: str) -> None:
    params = prop(schema)
    params["$defs"] = {"X": {"type": "string"}}
    [finding] = findings(params)
    assert finding.severity is Severity.ERROR
    assert finding.data == {"target": "openai-strict", "keyword": keyword, "source": finding.data["source"]}
    assert finding.data["source"]
    assert "OpenAI strict mode" in finding.message


def test_openai_strict_message_names_the_replacement() -> None:
    [finding] = findings(prop({"oneOf": [{"type": "string"}, {"type": "integer"}]}))
    assert finding.message == "`oneOf` is not supported by OpenAI strict mode: use `anyOf`"
    assert finding.pointer == "/0/parameters/properties/p/oneOf" and finding.key


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "string", "pattern": "^(?!x)"},
        {"type": "object", "patternProperties": {"^a": {"type": "string"}}},
    ],
)
def test_openai_strict_uncertain_rows_warn(schema: dict) -> None:
    [finding] = findings(prop(schema))
    assert finding.severity is Severity.WARNING
    assert "(reported, not documented)" in finding.message


def test_default_under_strict_is_only_info_because_sl306_recommends_it() -> None:
    [finding] = findings(prop({"type": "integer", "default": 10}))
    assert finding.severity is Severity.INFO and "SL306" in finding.message


def test_supported_strict_schema_is_clean() -> None:
    params = prop(
        {
            "anyOf": [{"type": "string", "format": "date-time", "pattern": "^2"}, {"type": "null"}],
            "description": "when",
        }
    )
    params["properties"]["q"] = {"type": "array", "items": {"$ref": "#/$defs/X"}, "minItems": 1, "maxItems": 3}
    params["properties"]["r"] = {"$ref": "#"}
    params["required"] += ["q", "r"]
    params["$defs"] = {"X": {"type": "integer", "minimum": 0, "maximum": 9, "multipleOf": 3}}
    assert findings(params) == []


def test_root_union_is_rejected_by_openai_even_without_strict() -> None:
    params = {"anyOf": [{"type": "object"}, {"type": "object"}]}
    [finding] = findings(params, strict=None)
    assert finding.severity is Severity.WARNING and "parameters root" in finding.message


@pytest.mark.parametrize(
    ("schema", "keyword", "severity"),
    [
        ({"type": "integer", "maximum": 5}, "maximum", Severity.ERROR),
        ({"type": "string", "maxLength": 5}, "maxLength", Severity.ERROR),
        ({"type": "array", "items": {"type": "string"}, "minItems": 2}, "minItems", Severity.ERROR),
        ({"type": "string", "format": "ipv5"}, "format", Severity.ERROR),
        ({"enum": [{"a": 1}]}, "enum", Severity.ERROR),
        ({"type": "number", "exclusiveMinimum": 0}, "exclusiveMinimum", Severity.ERROR),
        ({"oneOf": [{"type": "string"}, {"type": "null"}]}, "oneOf", Severity.ERROR),
        ({"type": "string", "not": {"const": "x"}}, "not", Severity.WARNING),
    ],
)
def test_anthropic_strict(schema: dict, keyword: str, severity: Severity) -> None:
    [finding] = findings(prop(schema), Dialect.ANTHROPIC)
    assert (finding.data["keyword"], finding.severity) == (keyword, severity)
    assert "Anthropic strict tool use" in finding.message


def test_anthropic_strict_allows_what_openai_strict_rejects() -> None:
    schema = prop({"type": "array", "items": {"type": "string"}, "minItems": 1})
    schema["properties"]["q"] = {"allOf": [{"type": "string"}], "format": "uri", "default": "x", "pattern": "^a"}
    assert findings(schema, Dialect.ANTHROPIC) == []


def test_recursion_is_rejected_by_anthropic_strict_and_gemini() -> None:
    params = prop({"$ref": "#/$defs/Node"})
    params["$defs"] = {"Node": {"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}}}
    anthropic = findings(params, Dialect.ANTHROPIC)
    assert {f.data["keyword"] for f in anthropic} == {"$ref"} and len(anthropic) == 2
    gemini = findings(params, Dialect.GEMINI, strict=None)
    assert any("recursive" in f.message for f in gemini)


def test_gemini_allow_list_with_replacements() -> None:
    params = {
        "type": "OBJECT",
        "properties": {
            "mode": {"type": "STRING", "const": "fast"},
            "n": {"type": "INTEGER", "exclusiveMinimum": 0},
            "kind": {"type": ["string", "null"]},
            "level": {"type": "INTEGER", "enum": [1, 2]},
        },
    }
    by_keyword = {f.data["keyword"]: f for f in findings(params, Dialect.GEMINI, strict=None)}
    assert set(by_keyword) == {"const", "exclusiveMinimum", "type", "enum"}
    assert "use `enum` with the one value" in by_keyword["const"].message
    assert all(f.severity is Severity.ERROR for f in by_keyword.values())


def test_gemini_upper_case_types_and_known_keys_are_fine() -> None:
    params = {
        "type": "OBJECT",
        "properties": {"s": {"type": "STRING", "nullable": True, "format": "enum", "enum": ["a"], "example": "a"}},
        "required": ["s"],
        "propertyOrdering": ["s"],
    }
    assert findings(params, Dialect.GEMINI, strict=None) == []


def test_gemini_additional_properties_is_only_info_naming_the_sl303_conflict() -> None:
    [finding] = findings({"type": "object", "additionalProperties": False}, Dialect.GEMINI, strict=None)
    assert finding.severity is Severity.INFO
    assert "SL303" in finding.message


def test_mcp_tool_gets_warnings_for_every_provider() -> None:
    params = prop({"oneOf": [{"type": "string"}, {"type": "integer"}]})
    found = findings(params, Dialect.MCP, strict=None)
    assert [f.data["target"] for f in found] == ["gemini"]
    assert found[0].severity is Severity.WARNING
    found = findings(params, Dialect.MCP, strict=None, targets=("openai-strict", "gemini"))
    assert {f.data["target"] for f in found} == {"openai-strict", "gemini"}
    assert {f.severity for f in found} == {Severity.WARNING}


def test_nullable_root_is_rejected_by_openai_strict_and_anthropic() -> None:
    params = {**prop({"type": "string"}), "type": ["object", "null"]}
    [openai] = findings(params)
    assert openai.data["keyword"] == "type" and openai.pointer == "/0/parameters/type"
    [anthropic] = findings(params, Dialect.ANTHROPIC, strict=None)
    assert anthropic.data["target"] == "anthropic" and anthropic.severity is Severity.ERROR


def test_gemini_replacements_are_not_offered_to_other_targets() -> None:
    [finding] = findings(prop({"type": "string", "examples": ["EUR"]}), Dialect.ANTHROPIC)
    assert finding.data["target"] == "anthropic-strict"
    assert "use `example`" not in finding.message and "drop it or state it in the description" in finding.message
    gemini_findings = findings(prop({"type": "string", "examples": ["EUR"]}), Dialect.GEMINI, strict=None)
    [gemini] = [f for f in gemini_findings if f.data["keyword"] == "examples"]
    assert "use `example` with one value" in gemini.message


def _every_target_findings(schema: Any) -> list[tuple[str, str, Any]]:
    """SL402 on every node of `schema` for all targets at once: (pointer, message, data) of each finding."""
    tool = make_tool({"name": "t", "parameters": schema})
    context = LintContext({id(tool): frozenset(TARGETS)})
    rule = UnsupportedKeyword()
    return [(f.pointer, f.message, f.data) for f in node_findings(rule, tool, context)]


ROOT_ROWS_NESTED = {
    "type": ["object", "null"],
    "anyOf": [{"type": "object"}],
    "enum": [{"a": 1}],
    "properties": {"p": {"type": ["object", "null"], "anyOf": [{"type": "string"}], "enum": ["a"], "not": {}}},
}


def test_root_only_rows_report_at_the_root_only() -> None:
    findings = _every_target_findings(ROOT_ROWS_NESTED)
    assert {pointer for pointer, message, _ in findings if "on the parameters root" in message} == {
        "/0/parameters/anyOf",
        "/0/parameters/enum",
        "/0/parameters/type",
    }


@pytest.mark.parametrize("schema", [{"type": "string", "minLength": 1}, {"type": "string", "maxLength": 64}])
def test_length_bounds_are_not_reported_under_openai_strict(schema: dict) -> None:
    """OpenAI documents them as unsupported on fine-tuned models only, and pydantic-ai keeps them for every
    other model (`_OpenAIJsonSchemaTransformer._strict_supports_length_constraints`)."""
    assert findings(prop(schema)) == []


@pytest.mark.parametrize("keyword", ["oneOf", "anyOf"])
def test_a_root_union_under_openai_strict_is_told_to_move_into_a_property_not_to_use_any_of(keyword: str) -> None:
    branches = [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False},
        {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"], "additionalProperties": False},
    ]
    root = [f for f in findings({keyword: branches}) if f.pointer == f"/0/parameters/{keyword}"]
    assert root and all("use `anyOf`" not in f.message for f in root)
    assert all("move the union into a property" in f.message for f in root)
    # below the root, `anyOf` is still the way out of `oneOf`
    [nested] = findings(prop({"oneOf": [{"type": "string"}, {"type": "integer"}]}))
    assert nested.message.endswith("use `anyOf`")


def test_gemini_json_schema_parameters_are_not_held_to_the_openapi_subset() -> None:
    import json

    from schemalint.dialects import detect_tools
    from schemalint.dialects.gemini import sends_json_schema
    from schemalint.loaders.jsonyaml import load_json

    json_schema = {
        "type": "object",
        "properties": {
            "kind": {"const": "a"},
            "item": {"$ref": "#/$defs/Item"},
            "when": {"type": ["string", "null"]},
            "n": {"type": "integer", "exclusiveMinimum": 0},
        },
        "required": ["kind", "item"],
        "$defs": {"Item": {"type": "object", "properties": {"id": {"type": "string"}}}},
    }
    for key, expected in (("parametersJsonSchema", True), ("parameters_json_schema", True), ("parameters", False)):
        document = {"functionDeclarations": [{"name": "get_x", "description": "d", key: json_schema}]}
        [tool] = detect_tools(load_json(json.dumps(document), "t.json"))
        assert sends_json_schema(tool) is expected
        found = run_rule(UnsupportedKeyword(), [{"name": "get_x", "parameters": json_schema}], Dialect.GEMINI)
        assert found  # the same schema as `parameters` breaks the OpenAPI subset
        context = LintContext({id(tool): frozenset({"gemini"})})
        got = node_findings(UnsupportedKeyword(), tool, context)
        assert bool(got) is not expected, (key, [f.message for f in got])


@pytest.mark.parametrize(
    ("where", "schema"),
    [
        ("properties/p", prop(True)),
        ("properties/p/anyOf/0", prop({"anyOf": [True, {"type": "null"}]})),
        ("properties/p/items", prop({"type": "array", "items": False})),
    ],
)
def test_boolean_subschemas_are_reported_per_target_naming_the_sdk(where: str, schema: dict) -> None:
    expected = {
        "openai-strict": (Severity.ERROR, "openai-agents"),
        "anthropic-strict": (Severity.WARNING, "pydantic-ai"),
        "gemini": (Severity.ERROR, "google-genai"),
    }
    if where.endswith("items"):
        del expected["openai-strict"]  # reported as an array without typed `items` instead
    for target, (severity, sdk) in expected.items():
        dialect = {"openai-strict": Dialect.OPENAI_CHAT, "anthropic-strict": Dialect.ANTHROPIC}.get(
            target, Dialect.GEMINI
        )
        found = [f for f in findings(schema, dialect, targets=(target,)) if "boolean schema" in f.message]
        assert [f.pointer for f in found] == [f"/0/parameters/{where}"], target
        assert found[0].severity is severity and sdk in found[0].message, (target, found[0].message)
    # `additionalProperties: false` is a boolean schema every strict mode asks for; non-strict targets say nothing
    assert all(
        "boolean schema" not in f.message for f in findings(schema, strict=None, targets=("openai", "anthropic"))
    )

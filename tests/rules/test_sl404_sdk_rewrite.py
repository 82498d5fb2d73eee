from __future__ import annotations

from schemalint.model import Dialect, Severity
from schemalint.rules.sl404_sdk_rewrite import Options as SL404Options
from schemalint.rules.sl404_sdk_rewrite import SdkRewrite
from schemalint.testing import run_rule


def check(parameters: dict, dialect: Dialect, strict: bool | None = True, options=None, targets=()):
    tool = {"name": "t", "parameters": parameters}
    if strict is not None:
        tool["strict"] = strict
    return {f.data["sdk"] + "/" + f.data["target"]: f for f in run_rule(SdkRewrite(options), [tool], dialect, targets)}


def closed(properties: dict, required: list[str]) -> dict:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def test_openai_strict_sdks_force_optional_properties() -> None:
    found = check(closed({"city": {"type": "string"}, "note": {"type": "string"}}, ["city"]), Dialect.OPENAI_CHAT)
    assert set(found) == {"openai-agents/openai-strict", "pydantic-ai/openai-strict"}
    agents = found["openai-agents/openai-strict"]
    assert agents.severity is None and SdkRewrite.severity is Severity.INFO
    assert "makes `note` required without making it nullable" in agents.message
    assert "information is lost" in agents.message
    assert agents.data["outcome"] == "rewritten"
    assert agents.data["changes"][0]["pointer"] == "/properties/note"


def test_lossless_rewrites_are_reported_only_on_request() -> None:
    params = {"type": "object", "properties": {"city": {"type": "string", "title": "City"}}, "required": ["city"]}
    assert "openai-agents/openai-strict" not in check(params, Dialect.OPENAI_CHAT)
    found = check(params, Dialect.OPENAI_CHAT, options=SL404Options(report_lossless=True))
    assert "adds `additionalProperties: false`" in found["openai-agents/openai-strict"].message


def test_sdk_refusal_is_reported() -> None:
    params = closed({"tags": {"type": "object", "additionalProperties": True, "properties": {}}}, ["tags"])
    found = check(params, Dialect.OPENAI_CHAT)
    assert found["openai-agents/openai-strict"].data["outcome"] == "rejected"
    assert "will refuse" in found["openai-agents/openai-strict"].message


def test_anthropic_transform_schema_losses() -> None:
    params = closed(
        {
            "currency": {"$ref": "#/$defs/Currency", "description": "ISO code"},
            "count": {"type": "integer", "minimum": 1},
            "code": {"type": "string", "pattern": "^[A-Z]+$"},
        },
        ["currency", "count", "code"],
    )
    params["$defs"] = {"Currency": {"type": "string", "enum": ["EUR", "USD"]}}
    [finding] = check(params, Dialect.ANTHROPIC).values()
    assert "drops `description` beside `$ref`" in finding.message
    assert "moves `minimum` into the description" in finding.message
    assert "and 1 more" not in finding.message
    assert {c["pointer"] for c in finding.data["changes"]} == {
        "/properties/currency",
        "/properties/count",
        "/properties/code",
    }


def test_gemini_sdk_drops_exclusive_bounds_and_clean_schemas_pass() -> None:
    params = {"type": "object", "properties": {"n": {"type": "integer", "exclusiveMinimum": 0}}}
    [finding] = check(params, Dialect.GEMINI, strict=None).values()
    assert "drops `exclusiveMinimum` (the bound is lost)" in finding.message
    clean = closed({"n": {"type": "integer", "minimum": 1}}, ["n"])
    assert check(clean, Dialect.GEMINI, strict=None) == {}
    assert check(closed({"n": {"type": "integer"}}, ["n"]), Dialect.OPENAI_CHAT) == {}


def test_non_strict_openai_and_anthropic_tools_are_not_rewritten() -> None:
    params = closed({"note": {"type": "string", "minLength": 1}}, [])
    assert check(params, Dialect.OPENAI_CHAT, strict=None) == {}
    assert check(params, Dialect.ANTHROPIC, strict=None) == {}


def test_python_tools_written_for_one_sdk_only_get_that_sdks_prediction() -> None:
    from schemalint.rules.base import LintContext
    from schemalint.testing import make_tool

    params = closed({"city": {"type": "string"}, "note": {"type": "string"}}, ["city"])
    tool = make_tool({"name": "t", "parameters": params}, dialect=Dialect.PYTHON)
    tool.framework = "openai-agents"
    findings = list(SdkRewrite().check(tool, LintContext({id(tool): frozenset({"openai-strict"})})))
    assert [f.data["sdk"] for f in findings] == ["openai-agents"]

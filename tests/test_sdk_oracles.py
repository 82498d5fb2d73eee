"""schemalint against the real SDKs: compatibility verdicts and SL404's rewrite predictions.

The logic lives in benchmarks/provider_agreement.py (which prints the full report); these tests pin it.
"""

from __future__ import annotations

import copy
import dataclasses
import importlib.util
import json
import sys
from pathlib import Path

import pytest

for module in ("agents", "pydantic_ai", "anthropic", "google.genai"):
    pytest.importorskip(module)

_PATH = Path(__file__).resolve().parent.parent / "benchmarks" / "provider_agreement.py"
_SPEC = importlib.util.spec_from_file_location("provider_agreement", _PATH)
assert _SPEC is not None and _SPEC.loader is not None
agreement = importlib.util.module_from_spec(_SPEC)
from schemalint.sdk_rewrites import SDK_MODELS, outcome  # noqa: E402

sys.modules["provider_agreement"] = agreement
_SPEC.loader.exec_module(agreement)

#: generated-set floors: raw agreement of "strict-compatible" verdicts (the rest are accepted disagreements)
COMPATIBILITY_FLOORS = {"openai-agents": 0.75, "pydantic-ai (OpenAI)": 0.70, "anthropic": 0.75, "google-genai": 0.95}


@pytest.fixture(scope="module")
def hand_written() -> dict:
    return agreement.hand_written()


@pytest.fixture(scope="module")
def hand_written_compatibility(hand_written: dict) -> dict:
    return agreement.compatibility(hand_written)


@pytest.fixture(scope="module")
def generated() -> dict:
    return agreement.generated(100, seed=11)


def test_every_hand_written_disagreement_is_an_accepted_one(hand_written: dict, hand_written_compatibility) -> None:
    tallies = hand_written_compatibility
    assert {name: t.unexplained for name, t in tallies.items()} == {name: [] for name in tallies}
    # and the cases that must agree do: a realistic strict-ready schema is compatible everywhere
    for oracle in agreement.ORACLES:
        assert oracle.compatible(hand_written["realistic_weather"])
        assert agreement.schemalint_errors(hand_written["realistic_weather"], oracle.target) == []


def test_every_accepted_disagreement_still_happens(hand_written: dict, hand_written_compatibility) -> None:
    """An accepted reason for a hand-written case that now agrees is stale: the SDK or schemalint changed."""
    tallies = hand_written_compatibility
    seen = {(name, line.split(": SDK")[0]) for name, t in tallies.items() for line in t.disagreements}
    generated_only = {"open"}
    for oracle, tag in agreement.ACCEPTED:
        if tag in generated_only:
            continue
        case = tag if tag in hand_written else f"fragment:{tag}"
        assert (oracle, case) in seen, f"accepted disagreement ({oracle}, {tag}) no longer happens"


def test_sl404_predicts_every_hand_written_rewrite(hand_written: dict) -> None:
    tallies = agreement.rewrite_prediction(hand_written)
    assert {name: t.disagreements for name, t in tallies.items()} == {name: [] for name in tallies}
    places = agreement.rewrite_places(hand_written)
    assert {name: t.disagreements for name, t in places.items()} == {name: [] for name in places}


def test_generated_agreement_floors(generated: dict) -> None:
    compatibility = agreement.compatibility(generated)
    for name, tally in compatibility.items():
        assert tally.rate >= COMPATIBILITY_FLOORS[name], (name, tally.rate, tally.unexplained[:5])
        assert tally.unexplained == [], (name, tally.unexplained[:5])
    for name, tally in agreement.rewrite_prediction(generated).items():
        assert tally.rate >= 0.95, (name, tally.disagreements[:5])


def test_sl404_on_fuzzed_schemas() -> None:
    """Deeper random schemas (some invalid): SL404's outcome and changed places track the SDKs."""
    cases = agreement.fuzzed(120, seed=2)
    for name, tally in agreement.rewrite_prediction(cases).items():
        assert tally.rate >= 0.97, (name, tally.disagreements[:3])
    for name, tally in agreement.rewrite_places(cases).items():
        assert tally.rate >= 0.95, (name, tally.disagreements[:3])
    for name, tally in agreement.compatibility(cases).items():
        assert tally.rate >= 0.8, (name, tally.rate)


def _strict_openai_tool(parameters: dict) -> dict:
    return {"type": "function", "function": {"name": "t", "description": "d", "parameters": parameters, "strict": True}}


def _sl404(definition: dict, dialect, framework: str | None = None) -> list:
    from schemalint.rules.base import LintContext
    from schemalint.rules.sl404_sdk_rewrite import SdkRewrite
    from schemalint.targets import resolve_targets
    from schemalint.testing import make_tool

    tool = make_tool(definition, 0, dialect)
    if framework is not None:
        tool = dataclasses.replace(tool, framework=framework)
    return list(SdkRewrite().check(tool, LintContext({id(tool): resolve_targets(tool)})))


def _closed(properties: dict) -> dict:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def test_pydantic_ai_model_is_the_one_openai_models_get_and_keeps_length_bounds() -> None:
    """pydantic-ai gives every OpenAI model but `ft:` ones `_OpenAIJsonSchemaTransformer`: it keeps
    `minLength`/`maxLength`, and SL404 (and SL402) say nothing about them."""
    from pydantic_ai.profiles.openai import _OpenAIJsonSchemaTransformer
    from pydantic_ai.providers.openai import OpenAIProvider

    def transformer(model_name: str) -> object:
        profile = OpenAIProvider(api_key="x").model_profile(model_name)
        return profile.get("json_schema_transformer") if isinstance(profile, dict) else profile.json_schema_transformer

    assert transformer("gpt-4o") is _OpenAIJsonSchemaTransformer
    assert transformer("ft:gpt-4o:acme::x") is not _OpenAIJsonSchemaTransformer
    schema = _closed({"code": {"type": "string", "minLength": 3, "maxLength": 8}})
    assert _OpenAIJsonSchemaTransformer(copy.deepcopy(schema), strict=True).walk() == schema
    model = next(m for m in SDK_MODELS if m.name == "pydantic-ai" and m.target == "openai-strict")
    assert model.predict(schema) == []
    assert agreement.schemalint_errors(schema, "openai-strict") == []


@pytest.mark.parametrize(
    ("array", "refused"),
    [
        ({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}, True),
        ({"type": "array", "prefixItems": [{"type": "string"}], "items": {"type": "string"}}, True),
        ({"type": "array", "prefixItems": [{"type": "string"}], "maxItems": 1}, False),
    ],
)
def test_sl404_predicts_pydantic_ai_refusing_a_tuple(array: dict, refused: bool) -> None:
    from pydantic_ai.exceptions import UserError
    from pydantic_ai.profiles.openai import _OpenAIJsonSchemaTransformer

    schema = _closed({"pair": array})
    try:
        _OpenAIJsonSchemaTransformer(copy.deepcopy(schema), strict=True).walk()
        actual = False
    except UserError:
        actual = True
    assert actual is refused
    model = next(m for m in SDK_MODELS if m.name == "pydantic-ai" and m.target == "openai-strict")
    assert (outcome(model.predict(schema)) == "rejected") is refused


def test_the_anthropic_sdk_sends_a_strict_tool_schema_unchanged_and_sl404_says_who_rewrites() -> None:
    import httpx2 as httpx
    from anthropic import Anthropic, BadRequestError

    from schemalint.model import Dialect

    schema = _closed({"name": {"type": "string", "minLength": 2, "pattern": "^[a-z]+$"}})
    sent: list[dict] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        return httpx.Response(400, json={"type": "error", "error": {"type": "invalid_request_error", "message": "x"}})

    client = Anthropic(api_key="x", http_client=httpx.Client(transport=httpx.MockTransport(answer)), max_retries=0)
    tool = {"name": "t", "description": "d", "input_schema": copy.deepcopy(schema), "strict": True}
    with pytest.raises(BadRequestError):
        client.messages.create(
            model="claude-x", max_tokens=1, messages=[{"role": "user", "content": "hi"}], tools=[tool]
        )
    assert sent[0]["tools"][0]["input_schema"] == schema  # no transform_schema on the way

    [finding] = _sl404({"name": "t", "description": "d", "parameters": schema, "strict": True}, Dialect.ANTHROPIC)
    assert finding.message.startswith("pydantic-ai (anthropic `transform_schema`, Anthropic strict tool use)")
    assert "the anthropic SDK itself sends a tool's schema unchanged" in finding.message
    assert finding.data["caller"] == "pydantic-ai"


def test_a_pydantic_ai_tool_gets_the_anthropic_prediction_an_openai_agents_tool_does_not() -> None:
    from schemalint.model import Dialect

    schema = _closed({"name": {"type": "string", "minLength": 2}})
    definition = {"name": "t", "description": "d", "parameters": schema, "strict": True}
    by_framework = {
        framework: {f.data["sdk"] for f in _sl404(definition, Dialect.ANTHROPIC, framework)}
        for framework in ("pydantic-ai", "openai-agents")
    }
    assert by_framework == {"pydantic-ai": {"anthropic"}, "openai-agents": set()}


@pytest.mark.parametrize(
    "schema",
    [
        _closed({"p": True}),
        _closed({"p": False}),
        _closed({"p": {"anyOf": [True, {"type": "null"}]}}),
        _closed({"p": {"type": "array", "items": True}}),
        {**_closed({"p": {"$ref": "#/$defs/X"}}), "$defs": {"X": True}},
    ],
)
def test_boolean_subschemas_the_sdks_refuse_are_reported(schema: dict) -> None:
    """Each SDK that raises on a boolean subschema has an SL402 finding for its target naming it."""
    from agents.strict_schema import ensure_strict_json_schema
    from anthropic.lib._parse._transform import transform_schema
    from google.genai import types

    from schemalint.rules.sl402_unsupported_keyword import UnsupportedKeyword
    from schemalint.testing import run_rule

    def raises(function) -> bool:
        try:
            function(copy.deepcopy(schema))
        except Exception:
            return True
        return False

    refusals = {
        ("openai-strict", "openai-agents", agreement.DIALECT["openai-strict"]): raises(ensure_strict_json_schema),
        ("anthropic-strict", "transform_schema", agreement.DIALECT["anthropic-strict"]): raises(transform_schema),
        ("gemini", "google-genai", agreement.DIALECT["gemini"]): raises(types.Schema.model_validate),
    }
    for (target, sdk, dialect), refused in refusals.items():
        if not refused:
            continue
        tool = {"name": "t", "description": "d", "parameters": schema}
        messages = [f.message for f in run_rule(UnsupportedKeyword(), [tool], dialect, (target,))]
        # or the keyword holding it is reported on its own (untyped `items`; `$defs` outside Gemini's subset)
        reported_otherwise = any("typed `items`" in m or m.startswith("`$defs`") for m in messages)
        assert any(sdk in m for m in messages) or reported_otherwise, (target, messages)

"""How often schemalint agrees with the official SDKs about a schema, and every case where it does not.

Two questions per schema and SDK:

1. Compatibility. schemalint says a schema is strict-compatible for a target when SL303, SL401, SL402
   and SL403 report no error for it. The SDK's verdict:
   - openai-agents `ensure_strict_json_schema`: compatible when it neither raises nor changes the schema;
   - pydantic-ai `_OpenAIJsonSchemaTransformer(strict=None)` (what `OpenAIProvider` gives every model but
     fine-tuned `ft:` ones): its own `is_strict_compatible`;
   - anthropic `transform_schema`: compatible when it neither raises nor changes the schema, ignoring two
     changes that do not alter what is accepted (`type` dropped beside `enum`/`const`, `properties: {}`
     added to an object that had none);
   - google-genai `types.Schema.model_validate` (what `FunctionDeclaration(parameters=...)` runs):
     compatible when it accepts the schema.
2. Rewrite prediction. SL404's model of each SDK (schemalint/sdk_rewrites.py) predicts `unchanged`,
   `rewritten` or `rejected`; the SDK's actual outcome is compared as is (no normalisation).

Schemas: a hand-written set (each known construct on its own, plus whole-schema cases), a generated
set (combinations of the same constructs, sometimes nested) and a fuzzed set (random deeper schemas,
some invalid on purpose); seeded, so runs are reproducible. Every disagreement is listed; those with an
accepted reason (ACCEPTED, below) say why. A third measure checks, for schemas the SDK rewrites, that
SL404 names the same changed places (top-level property, definitions, root). Run:
`python benchmarks/provider_agreement.py [--generated N] [--fuzzed N] [--seed S]`.
Needs the `dev` extra (openai-agents, pydantic-ai-slim, anthropic, google-genai).
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from schemalint.model import Dialect, Severity
from schemalint.rules import find_rule
from schemalint.sdk_rewrites import SDK_MODELS, SdkModel, outcome
from schemalint.testing import run_rule

Schema = dict[str, Any]

#: property schemas, each one construct; `X` and `Node` are root definitions every case carries when used
FRAGMENTS: dict[str, Any] = {
    "string": {"type": "string", "description": "a city"},
    "string_email": {"type": "string", "format": "email"},
    "string_uri": {"type": "string", "format": "uri"},
    "string_pattern": {"type": "string", "pattern": "^[A-Z]{3}$"},
    "string_lookaround": {"type": "string", "pattern": "^(?!tmp).*$"},
    "string_min_length": {"type": "string", "minLength": 2},
    "string_upper_case_type": {"type": "STRING"},
    "nullable_type_list": {"type": ["string", "null"]},
    "nullable_any_of": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    "integer_bounds": {"type": "integer", "minimum": 1, "maximum": 100},
    "integer_exclusive_minimum": {"type": "integer", "exclusiveMinimum": 0},
    "number_multiple_of": {"type": "number", "multipleOf": 0.5},
    "enum_strings": {"type": "string", "enum": ["asc", "desc"]},
    "enum_integers": {"type": "integer", "enum": [1, 2, 3]},
    "enum_objects": {"enum": [{"a": 1}, {"b": 2}]},
    "const_string": {"const": "v1"},
    "const_integer": {"const": 3},
    "default_string": {"type": "string", "default": "x"},
    "default_null": {"type": ["string", "null"], "default": None},
    "title": {"type": "string", "title": "City"},
    "examples": {"type": "string", "examples": ["Paris"]},
    "array_items": {"type": "array", "items": {"type": "string"}},
    "array_no_items": {"type": "array"},
    "array_min_items_2": {"type": "array", "items": {"type": "string"}, "minItems": 2},
    "array_max_items": {"type": "array", "items": {"type": "string"}, "maxItems": 5},
    "array_unique_items": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "one_of": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    "any_of": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "all_of_one": {"allOf": [{"$ref": "#/$defs/X"}]},
    "all_of_two": {"allOf": [{"type": "string"}, {"minLength": 1}]},
    "not": {"type": "string", "not": {"const": "x"}},
    "if_then": {"type": "string", "if": {"const": "a"}, "then": {"minLength": 1}},
    "ref": {"$ref": "#/$defs/X"},
    "ref_with_description": {"$ref": "#/$defs/X", "description": "the currency"},
    "ref_recursive": {"$ref": "#/$defs/Node"},
    "nested_object": {
        "type": "object",
        "properties": {"street": {"type": "string"}},
        "required": ["street"],
        "additionalProperties": False,
    },
    "nested_object_open": {"type": "object", "properties": {"street": {"type": "string"}}, "required": ["street"]},
    "object_additional_true": {"type": "object", "properties": {}, "additionalProperties": True},
    "free_object": {"type": "object", "additionalProperties": {"type": "string"}},
}
DEFINITIONS: Schema = {
    "X": {"type": "string", "enum": ["EUR", "USD"]},
    "Node": {
        "type": "object",
        "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
        "required": ["name", "children"],
        "additionalProperties": False,
    },
}


def object_schema(properties: Mapping[str, Any], optional: Iterable[str] = (), closed: bool = True) -> Schema:
    schema: Schema = {
        "type": "object",
        "properties": copy.deepcopy(dict(properties)),
        "required": [k for k in properties if k not in set(optional)],
    }
    if closed:
        schema["additionalProperties"] = False
    text = repr(schema)
    used = {name: copy.deepcopy(d) for name, d in DEFINITIONS.items() if f"#/$defs/{name}" in text}
    if used:
        schema["$defs"] = used
    return schema


def hand_written() -> dict[str, Schema]:
    cases = {f"fragment:{name}": object_schema({"p": fragment}) for name, fragment in FRAGMENTS.items()}
    cases.update(
        {
            "optional_string": object_schema({"a": FRAGMENTS["string"], "b": FRAGMENTS["string"]}, optional=["b"]),
            "optional_nullable": object_schema({"a": FRAGMENTS["nullable_type_list"]}, optional=["a"]),
            "open_root": object_schema({"a": FRAGMENTS["string"]}, closed=False),
            "empty_object": {"type": "object", "properties": {}, "required": [], "additionalProperties": False},
            "no_properties": {"type": "object", "additionalProperties": False},
            "root_any_of": {
                "anyOf": [object_schema({"a": FRAGMENTS["string"]}), object_schema({"b": {"type": "integer"}})]
            },
            "nullable_root": {**object_schema({"a": FRAGMENTS["string"]}), "type": ["object", "null"]},
            "required_out_of_order": {
                **object_schema({"a": FRAGMENTS["string"], "b": FRAGMENTS["string"]}),
                "required": ["b", "a"],
            },
            "realistic_weather": object_schema(
                {
                    "city": {"type": "string", "description": "City name, e.g. Paris"},
                    "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
                    "days": {"type": "integer", "description": "Forecast days"},
                }
            ),
        }
    )
    return cases


WRAPPERS: dict[str, Callable[[Any], Any]] = {
    "bare": lambda f: f,
    "array_of": lambda f: {"type": "array", "items": f},
    "nested_in": lambda f: {
        "type": "object",
        "properties": {"inner": f},
        "required": ["inner"],
        "additionalProperties": False,
    },
    "nullable_of": lambda f: {"anyOf": [f, {"type": "null"}]},
}


def generated(count: int, seed: int = 4) -> dict[str, Schema]:
    """Random tool schemas: 1-3 properties, each a fragment, sometimes wrapped in an array, an object or a
    nullable union; some properties optional, some roots open. Case names carry the tags that
    `explained()` matches against the accepted disagreements."""
    rng = random.Random(seed)
    names = sorted(FRAGMENTS)
    cases: dict[str, Schema] = {}
    for index in range(count):
        picked = rng.sample(names, rng.randint(1, 3))
        wrappers = [rng.choices(list(WRAPPERS), weights=(6, 2, 2, 1))[0] for _ in picked]
        properties = {
            f"p{i}": WRAPPERS[w](FRAGMENTS[name]) for i, (name, w) in enumerate(zip(picked, wrappers, strict=True))
        }
        optional = [k for k in properties if rng.random() < 0.15]
        closed = rng.random() > 0.1
        tags = [f"{w}:{name}" for name, w in zip(picked, wrappers, strict=True)]
        tags += ["optional"] * bool(optional) + ["open"] * (not closed)
        cases[f"generated:{index}:{'+'.join(tags)}"] = object_schema(properties, optional, closed)
    return cases


def _fuzz_schema(rng: random.Random, depth: int = 0) -> Any:
    """A random sub-schema: leaves with random keywords, arrays, objects, unions and `$ref`s, up to 3 deep."""
    roll = rng.random()
    if depth > 2 or roll < 0.45:
        leaf: Schema = {"type": rng.choice(["string", "integer", "number", "boolean", "null"])}
        extras = [
            ("description", "d"), ("title", "T"), ("default", None), ("default", "x"), ("enum", ["a", "b"]),
            ("const", "a"), ("minimum", 1), ("maxLength", 3), ("format", rng.choice(["email", "uri", "date"])),
            ("pattern", rng.choice(["^a", "(?=a)"])), ("examples", ["e"]), ("exclusiveMaximum", 9),
        ]  # fmt: skip
        leaf.update(rng.sample(extras, rng.randint(0, 2)))
        if rng.random() < 0.1:
            leaf["type"] = [leaf["type"], "null"]
        return leaf
    if roll < 0.6:
        array: Schema = {"type": "array"}
        if rng.random() < 0.85:
            array["items"] = _fuzz_schema(rng, depth + 1)
        if rng.random() < 0.3:
            array["minItems"] = rng.choice([0, 1, 2])
        return array
    if roll < 0.8:
        properties = {f"k{i}": _fuzz_schema(rng, depth + 1) for i in range(rng.randint(0, 3))}
        obj: Schema = {"type": "object", "properties": properties}
        if rng.random() < 0.1:
            del obj["type"]
        if rng.random() < 0.9:
            obj["required"] = [k for k in properties if rng.random() < 0.8]
        closure = rng.choice([False, False, False, True, None])
        if closure is not None:
            obj["additionalProperties"] = closure
        return obj
    if roll < 0.9:
        union: Schema = {
            rng.choice(["anyOf", "oneOf", "allOf"]): [_fuzz_schema(rng, depth + 1) for _ in range(rng.randint(1, 3))]
        }
        if rng.random() < 0.3:
            union["description"] = "u"
        return union
    ref: Schema = {"$ref": "#/$defs/X"}
    if rng.random() < 0.4:
        ref[rng.choice(["description", "title", "default", "minLength"])] = "d"
    return ref


def fuzzed(count: int, seed: int = 1) -> dict[str, Schema]:
    """Random, deeper and messier schemas than `generated` (some are invalid JSON Schema on purpose)."""
    rng = random.Random(seed)
    cases: dict[str, Schema] = {}
    for index in range(count):
        properties = {f"p{i}": _fuzz_schema(rng) for i in range(rng.randint(1, 4))}
        schema: Schema = {
            "type": "object",
            "properties": properties,
            "required": [k for k in properties if rng.random() < 0.8],
            "additionalProperties": False,
        }
        if "#/$defs/X" in repr(schema):
            schema["$defs"] = {"X": _fuzz_schema(rng, 2)}
        cases[f"fuzzed:{index}"] = schema
    return cases


# ---- what schemalint says

VERDICT_RULES = ("SL303", "SL309", "SL311", "SL401", "SL402", "SL403")
DIALECT = {"openai-strict": Dialect.OPENAI_CHAT, "anthropic-strict": Dialect.ANTHROPIC, "gemini": Dialect.GEMINI}


def schemalint_errors(schema: Schema, target: str) -> list[str]:
    """`CODE message` of every error the compatibility rules report for `schema` under `target`."""
    tool = {"name": "tool", "description": "A tool.", "parameters": schema}
    errors: list[str] = []
    for code in VERDICT_RULES:
        rule_class = find_rule(code)
        if rule_class is None:
            continue
        for finding in run_rule(rule_class(), [tool], DIALECT[target], (target,)):
            if (finding.severity or rule_class.severity) is Severity.ERROR:
                errors.append(f"{code} {finding.message}")
    return errors


# ---- what the SDKs say


def _agents(schema: Schema) -> Schema:
    from agents.strict_schema import ensure_strict_json_schema

    return ensure_strict_json_schema(schema)


def _pydantic_ai_openai(schema: Schema) -> Schema:
    from pydantic_ai.profiles.openai import _OpenAIJsonSchemaTransformer

    return _OpenAIJsonSchemaTransformer(schema, strict=True).walk()


def _pydantic_ai_openai_compatible(schema: Schema) -> bool:
    from pydantic_ai.profiles.openai import _OpenAIJsonSchemaTransformer

    transformer = _OpenAIJsonSchemaTransformer(schema, strict=None)
    transformer.walk()
    return transformer.is_strict_compatible


def _anthropic(schema: Schema) -> Schema:
    from anthropic.lib._parse._transform import transform_schema

    return transform_schema(schema)


def _pydantic_ai_google(schema: Schema) -> Schema:
    from pydantic_ai.profiles.google import GoogleJsonSchemaTransformer

    return GoogleJsonSchemaTransformer(schema).walk()


def _google_genai_accepts(schema: Schema) -> bool:
    from google.genai import types

    try:
        types.Schema.model_validate(schema)
    except Exception:
        return False
    return True


def _required_as_set(schema: Any) -> Any:
    """openai-agents rewrites `required` into property order; the order does not change what is accepted."""
    if isinstance(schema, list):
        return [_required_as_set(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _required_as_set(v) for k, v in schema.items()}
    if isinstance(out.get("required"), list):
        out["required"] = sorted(out["required"], key=str)
    return out


def _anthropic_normalised(schema: Any) -> Any:
    """Drop what transform_schema changes without changing what is accepted."""
    if isinstance(schema, list):
        return [_anthropic_normalised(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: _anthropic_normalised(v) for k, v in schema.items()}
    if "enum" in out or "const" in out:
        out.pop("type", None)
    if out.get("type") == "object":
        out.setdefault("properties", {})
    return out


def _run(function: Callable[[Schema], Schema], schema: Schema) -> tuple[str, Schema | None]:
    try:
        result = function(copy.deepcopy(schema))
    except Exception:
        return "rejected", None
    return ("unchanged" if result == schema else "rewritten"), result


@dataclass(frozen=True)
class Oracle:
    name: str
    target: str
    compatible: Callable[[Schema], bool]


def _unchanged_by(function: Callable[[Schema], Schema], normalise: Callable[[Any], Any] = lambda s: s):
    def compatible(schema: Schema) -> bool:
        result, output = _run(function, schema)
        return result != "rejected" and normalise(output) == normalise(schema)

    return compatible


ORACLES = (
    Oracle("openai-agents", "openai-strict", _unchanged_by(_agents, _required_as_set)),
    Oracle("pydantic-ai (OpenAI)", "openai-strict", _pydantic_ai_openai_compatible),
    Oracle("anthropic", "anthropic-strict", _unchanged_by(_anthropic, _anthropic_normalised)),
    Oracle("google-genai", "gemini", _google_genai_accepts),
)
SDK_FUNCTIONS: dict[tuple[str, str], Callable[[Schema], Schema]] = {
    ("openai-agents", "openai-strict"): _agents,
    ("pydantic-ai", "openai-strict"): _pydantic_ai_openai,
    ("anthropic", "anthropic-strict"): _anthropic,
    ("pydantic-ai", "gemini"): _pydantic_ai_google,
}

# ---- disagreements accepted, with the reason (oracle, hand-written case or fragment name)

_AGENTS_UNCHECKED = (
    "openai-agents does not check this keyword and passes it through; OpenAI's structured-outputs docs list it as "
    "unsupported, so schemalint reports it"
)
_PAI_REWRITES_FIRST = (
    "pydantic-ai rewrites this before its compatibility check (SL404 predicts the rewrite); the raw schema, "
    "as sent by any other client, is what schemalint judges"
)
_ANTHROPIC_CONSERVATIVE = (
    "anthropic's transform_schema only keeps a short allow-list and moves everything else into the description; "
    "Anthropic's docs support this (or say nothing against it), so schemalint does not call it an error (SL404 "
    "reports the loss)"
)
_ANTHROPIC_TYPE_LIST = (
    'transform_schema crashes on a `type` list (assert_never); Anthropic\'s docs count `["T", "null"]` among '
    "supported union parameters"
)
_UPPER_CASE = "the SDK does not check type names; SL309 reports `STRING` as invalid outside Gemini files"
_UNCERTAIN = (
    "schemalint reports this as a warning: the row is uncertain in PROVIDERS.md (single or undocumented source)"
)
_DEFAULT = (
    "`default` under OpenAI strict is backed by one third-party report and conflicts with SL306's advice, so "
    "SL402 only informs; the SDK drops it"
)

ACCEPTED: dict[tuple[str, str], str] = {
    ("openai-agents", "string_uri"): "openai-agents does not check `format`; OpenAI documents a closed list of formats",
    ("openai-agents", "string_upper_case_type"): _UPPER_CASE,
    ("openai-agents", "default_null"): "openai-agents drops a null default as meaningless; " + _DEFAULT,
    ("openai-agents", "array_no_items"): _AGENTS_UNCHECKED,
    ("openai-agents", "array_unique_items"): _AGENTS_UNCHECKED,
    ("openai-agents", "all_of_two"): _AGENTS_UNCHECKED,
    ("openai-agents", "not"): _AGENTS_UNCHECKED,
    ("openai-agents", "if_then"): _AGENTS_UNCHECKED,
    ("pydantic-ai (OpenAI)", "string_lookaround"): _UNCERTAIN,
    ("pydantic-ai (OpenAI)", "string_upper_case_type"): _UPPER_CASE,
    ("pydantic-ai (OpenAI)", "default_string"): _DEFAULT,
    ("pydantic-ai (OpenAI)", "default_null"): _DEFAULT,
    ("pydantic-ai (OpenAI)", "all_of_one"): _PAI_REWRITES_FIRST,
    ("pydantic-ai (OpenAI)", "ref_with_description"): _PAI_REWRITES_FIRST,
    ("pydantic-ai (OpenAI)", "nested_object_open"): _PAI_REWRITES_FIRST + " (SL303: strict needs additionalProperties)",
    ("pydantic-ai (OpenAI)", "open"): _PAI_REWRITES_FIRST + " (SL303: strict needs additionalProperties)",
    ("pydantic-ai (OpenAI)", "open_root"): _PAI_REWRITES_FIRST + " (SL303: strict needs additionalProperties)",
    ("pydantic-ai (OpenAI)", "not"): "pydantic-ai does not check `not`; OpenAI documents it as unsupported",
    ("pydantic-ai (OpenAI)", "all_of_two"): "pydantic-ai does not check `allOf`; OpenAI documents it as unsupported",
    ("pydantic-ai (OpenAI)", "if_then"): "pydantic-ai does not check `if`/`then`; OpenAI documents them as unsupported",
    ("pydantic-ai (OpenAI)", "no_properties"): (
        "pydantic-ai calls an object without `properties`/`required` incompatible; OpenAI's docs do not, and an "
        "object with no properties has no optional property"
    ),
    ("pydantic-ai (OpenAI)", "root_any_of"): "pydantic-ai checks the root elsewhere; OpenAI: root must not be anyOf",
    ("pydantic-ai (OpenAI)", "nullable_root"): "pydantic-ai does not check the root type; openai-agents raises on it",
    ("anthropic", "string_pattern"): _ANTHROPIC_CONSERVATIVE,
    ("anthropic", "string_lookaround"): _ANTHROPIC_CONSERVATIVE + "; SL402 warns (uncertain row)",
    ("anthropic", "nullable_type_list"): _ANTHROPIC_TYPE_LIST,
    ("anthropic", "default_null"): _ANTHROPIC_TYPE_LIST,
    ("anthropic", "optional_nullable"): _ANTHROPIC_TYPE_LIST,
    ("anthropic", "default_string"): _ANTHROPIC_CONSERVATIVE,
    ("anthropic", "examples"): _ANTHROPIC_CONSERVATIVE + "; SL402 warns (undocumented keyword)",
    ("anthropic", "not"): _ANTHROPIC_CONSERVATIVE + "; SL402 warns (undocumented keyword)",
    ("anthropic", "ref_with_description"): (
        "transform_schema drops a description beside `$ref` (SL404 reports the loss); the API says nothing of it"
    ),
    ("anthropic", "ref_recursive"): "transform_schema does not check recursion; Anthropic documents it as unsupported",
    ("anthropic", "root_any_of"): "transform_schema accepts a union root; SL311: the parameters root must be an object",
    ("google-genai", "root_any_of"): "google-genai accepts a union root; SL311: the parameters root must be an object",
}


_INVALID_SCHEMA = (
    "the schema is invalid JSON Schema (SL309: an enum, default or example that does not match the type); "
    "the SDK does not validate values"
)


def explained(oracle: str, case: str, errors: Iterable[str] = ()) -> str | None:
    """The accepted reason for a disagreement on `case`, matched on the case or any fragment/tag in its name,
    or on schemalint's errors when every one of them is SL309 (invalid schema)."""
    errors = list(errors)
    if errors and all(e.startswith("SL309 ") for e in errors):
        return _INVALID_SCHEMA
    kind, _, rest = case.partition(":")
    if kind == "generated":
        tags = [t.split(":")[-1] for t in rest.partition(":")[2].split("+")]
    elif kind == "fragment":
        tags = [rest]
    else:
        tags = [case]
    return next((ACCEPTED[(oracle, t)] for t in tags if (oracle, t) in ACCEPTED), None)


# ---- agreement


@dataclass
class Tally:
    agree: int = 0
    total: int = 0
    disagreements: list[str] = field(default_factory=list)
    #: (case, reason) for disagreements no accepted reason explains
    unexplained: list[str] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return self.agree / self.total if self.total else 1.0


def compatibility(cases: Mapping[str, Schema]) -> dict[str, Tally]:
    tallies = {oracle.name: Tally() for oracle in ORACLES}
    for case, schema in cases.items():
        for oracle in ORACLES:
            errors = schemalint_errors(schema, oracle.target)
            sdk_ok = oracle.compatible(schema)
            tally = tallies[oracle.name]
            tally.total += 1
            if sdk_ok == (not errors):
                tally.agree += 1
            else:
                said = "compatible" if not errors else "incompatible: " + "; ".join(errors)
                reason = explained(oracle.name, case, errors)
                line = f"{case}: SDK says {'compatible' if sdk_ok else 'incompatible'}, schemalint says {said}"
                tally.disagreements.append(
                    line + f"\n      accepted: {reason}" if reason else line + "\n      UNEXPLAINED"
                )
                if reason is None:
                    tally.unexplained.append(case)
    return tallies


def rewrite_prediction(cases: Mapping[str, Schema]) -> dict[str, Tally]:
    tallies: dict[str, Tally] = {}
    for model in SDK_MODELS:
        tally = tallies.setdefault(_model_name(model), Tally())
        function = SDK_FUNCTIONS[(model.name, model.target)]
        for case, schema in cases.items():
            actual, _ = _run(function, schema)
            changes = model.predict(copy.deepcopy(schema))
            predicted = outcome(changes)
            tally.total += 1
            if actual == predicted:
                tally.agree += 1
            else:
                said = "; ".join(c.what for c in changes) or "no change"
                tally.disagreements.append(f"{case}: SDK {actual}, SL404 predicts {predicted} ({said})")
                tally.unexplained.append(case)
    return tallies


def _bucket(pointer: str) -> str:
    """Where a change lands, coarsely: a top-level property, the definitions, or the root object itself."""
    tokens = pointer.split("/")[1:]
    if len(tokens) >= 2 and tokens[0] == "properties":
        return "properties/" + tokens[1]
    return "$defs" if tokens and tokens[0] in ("$defs", "definitions") else "root"


def changed_places(before: Schema, after: Schema) -> set[str]:
    """The buckets in which `after` differs from `before`."""
    places: set[str] = set()
    before_props, after_props = before.get("properties") or {}, after.get("properties") or {}
    for key in set(before_props) | set(after_props):
        if before_props.get(key) != after_props.get(key):
            places.add("properties/" + key)
    for key in ("$defs", "definitions"):
        if before.get(key) != after.get(key):
            places.add("$defs")
    if ("properties" in before) != ("properties" in after):
        places.add("root")
    rest = ("properties", "$defs", "definitions")
    if {k: v for k, v in before.items() if k not in rest} != {k: v for k, v in after.items() if k not in rest}:
        places.add("root")
    return places


def rewrite_places(cases: Mapping[str, Schema]) -> dict[str, Tally]:
    """Finer than the outcome: for schemas the SDK rewrites, does SL404 name the same changed places?"""
    tallies: dict[str, Tally] = {}
    for model in SDK_MODELS:
        tally = tallies.setdefault(_model_name(model), Tally())
        function = SDK_FUNCTIONS[(model.name, model.target)]
        for case, schema in cases.items():
            actual, output = _run(function, schema)
            changes = model.predict(copy.deepcopy(schema))
            if actual != "rewritten" or outcome(changes) != "rewritten" or output is None:
                continue
            expected = changed_places(schema, output)
            predicted = {_bucket(c.edited) for c in changes}
            tally.total += 1
            if expected == predicted:
                tally.agree += 1
            else:
                tally.disagreements.append(
                    f"{case}: SDK changed {sorted(expected)}, SL404 predicts {sorted(predicted)}"
                )
                tally.unexplained.append(case)
    return tallies


def _model_name(model: SdkModel) -> str:
    return f"{model.name} {model.function}"


def report(title: str, tallies: Mapping[str, Tally]) -> None:
    print(f"== {title}")
    for name, tally in tallies.items():
        print(f"{name:55} {tally.agree:4}/{tally.total:<4} {tally.rate:6.1%}  unexplained: {len(tally.unexplained)}")
    for name, tally in tallies.items():
        for line in tally.disagreements:
            print(f"  [{name}] {line}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=500, help="how many generated schemas (default 500)")
    parser.add_argument("--fuzzed", type=int, default=300, help="how many fuzzed schemas (default 300)")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    sets = (
        ("hand-written", hand_written()),
        ("generated", generated(args.generated, args.seed)),
        ("fuzzed", fuzzed(args.fuzzed, args.seed)),
    )
    for label, cases in sets:
        report(f"{label} ({len(cases)} schemas): strict-compatible verdicts", compatibility(cases))
        report(f"{label} ({len(cases)} schemas): SL404 rewrite predictions", rewrite_prediction(cases))
        report(f"{label} ({len(cases)} schemas): SL404 changed places (rewritten schemas)", rewrite_places(cases))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

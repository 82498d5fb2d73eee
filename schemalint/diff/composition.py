"""Whether a composed input schema still accepts what the old one accepted, shown by example.

Comparing keywords cannot tell whether a `oneOf` of closed objects takes every object a free `type:
object` took, or whether `if`/`then` rules out an old call; a concrete value can. Values are built from
the old schema (the minimal and the full object, one per enum value, type, alternative and `if` case),
kept when jsonschema says the old schema accepts them, and tried against the new one. A value the old
schema accepts and the new one rejects proves a break and is quoted in the finding. Finding none proves
nothing: the caller decides, from what changed, whether to say it could not confirm the change is safe.

Only local `$ref`s resolve (the tool's own `$defs`/`definitions`); nothing is fetched.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import best_match
from jsonschema.protocols import Validator
from jsonschema.validators import validator_for

from schemalint.model import JSON, mappings_in, resolve_pointer, schema_types

#: the keywords that combine or condition schemas; the rest of a schema is compared keyword by keyword
COMPOSITION_KEYWORDS = (
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
)
_UNIONS = ("anyOf", "oneOf")
#: values kept per schema node, and how deep values are built: enough to reach every alternative of a
#: tool's parameters, small enough that a changed union costs milliseconds
_MAX_VALUES = 24
_MAX_DEPTH = 8
_MAX_PROPERTIES = 40
_UNTYPED_SAMPLES: tuple[JSON, ...] = ("x", 0, True, None, {}, [])
_FORMAT_SAMPLES = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "12:00:00Z",
    "email": "a@example.com",
    "uri": "https://example.com/a",
    "url": "https://example.com/a",
    "uuid": "123e4567-e89b-12d3-a456-426614174000",
    "ipv4": "192.0.2.1",
    "hostname": "example.com",
}


@dataclass(frozen=True)
class Rejection:
    """A value the old schema accepts and the new one rejects, with the keyword that rejects it."""

    value: JSON
    keyword: str
    reason: str


def composition_part(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {k: schema[k] for k in COMPOSITION_KEYWORDS if k in schema}


def has_union(schema: Mapping[str, Any]) -> bool:
    return any(isinstance(schema.get(k), list) for k in _UNIONS)


class SchemaChecker:
    """Validates values against sub-schemas of one tool's schema, its local `$ref`s resolved."""

    def __init__(self, root: JSON) -> None:
        self.root = root
        self._validators: dict[int, tuple[JSON, Validator | None]] = {}

    def _validator(self, schema: JSON) -> Validator | None:
        cached = self._validators.get(id(schema))
        if cached is not None and cached[0] is schema:
            return cached[1]
        validator = self._build(schema)
        self._validators[id(schema)] = (schema, validator)
        return validator

    def _build(self, schema: JSON) -> Validator | None:
        composed: JSON = schema
        if isinstance(schema, Mapping) and isinstance(self.root, Mapping):
            composed = dict(schema)
            for key in ("$defs", "definitions", "$schema"):
                if key in self.root and key not in composed:
                    composed[key] = self.root[key]
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # an unknown `$schema` falls back to 2020-12
                cls = validator_for(composed, default=Draft202012Validator)
            return cls(composed)  # type: ignore[no-any-return]
        except Exception:  # a schema jsonschema cannot take says nothing either way
            return None

    def valid(self, schema: JSON, value: JSON) -> bool | None:
        """True/False, or None when the schema cannot be evaluated (a bad pattern, an unresolvable `$ref`)."""
        validator = self._validator(schema)
        if validator is None:
            return None
        try:
            return bool(validator.is_valid(value))
        except Exception:
            return None

    def why_invalid(self, schema: JSON, value: JSON) -> str:
        validator = self._validator(schema)
        try:
            error = best_match(validator.iter_errors(value)) if validator is not None else None
        except Exception:
            error = None
        return error.message if error is not None else "it fails the new schema"

    def deref(self, schema: JSON) -> JSON:
        for _ in range(16):
            if not isinstance(schema, Mapping):
                return schema
            ref = schema.get("$ref")
            if not (isinstance(ref, str) and ref.startswith("#")):
                return schema
            try:
                target = resolve_pointer(self.root, ref[1:])
            except KeyError:
                return schema
            schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}} if len(schema) > 1 else target
        return schema


def _merge(base: Mapping[str, Any], extra: JSON) -> JSON:
    """`base` and `extra` as one schema (properties and required joined): a starting point for values,
    which are checked against the real schema afterwards, so an imperfect merge only costs examples."""
    if not isinstance(extra, Mapping):
        return extra if extra is False else dict(base)
    merged = dict(base)
    for key, value in extra.items():
        if key == "properties" and isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = {**merged[key], **value}
        elif key == "required" and isinstance(value, list) and isinstance(merged.get(key), list):
            merged[key] = [*merged[key], *(r for r in value if r not in merged[key])]
        else:
            merged[key] = value
    return merged


def _count(schema: Mapping[str, Any], keyword: str) -> int:
    value = schema.get(keyword)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _unique(values: Iterator[JSON] | list[JSON]) -> list[JSON]:
    seen: set[str] = set()
    out: list[JSON] = []
    for value in values:
        text = json.dumps(value, sort_keys=True, default=str)
        if text not in seen:
            seen.add(text)
            out.append(value)
    return out


class ExampleValues:
    """Values a schema accepts, built from its keywords and kept only when the schema accepts them."""

    def __init__(self, checker: SchemaChecker, hints: tuple[JSON, ...] = ()) -> None:
        self.checker = checker
        self.hints = hints

    def of(self, schema: JSON, depth: int = 0) -> list[JSON]:
        if depth > _MAX_DEPTH:
            return []
        candidates = _unique(self._candidates(schema, depth))
        return [v for v in candidates if self.checker.valid(schema, v)][:_MAX_VALUES]

    def _candidates(self, schema: JSON, depth: int) -> Iterator[JSON]:
        if schema is True:
            yield from _UNTYPED_SAMPLES
            return
        schema = self.checker.deref(schema)
        if not isinstance(schema, Mapping):
            return
        for key in ("default", "const"):
            if key in schema:
                yield schema[key]
        for key in ("examples", "enum"):
            if isinstance(schema.get(key), list):
                yield from schema[key][:_MAX_VALUES]
        base = {k: v for k, v in schema.items() if k not in COMPOSITION_KEYWORDS}
        for keyword in _UNIONS:
            branches = schema.get(keyword)
            if isinstance(branches, list):
                for branch in branches:
                    yield from self.of(_merge(base, self.checker.deref(branch)), depth + 1)
        parts = schema.get("allOf")
        if isinstance(parts, list):
            merged: JSON = base
            for part in parts:
                merged = _merge(merged, self.checker.deref(part)) if isinstance(merged, Mapping) else merged
            yield from self.of(merged, depth + 1)
        if "if" in schema:
            when = _merge(base, self.checker.deref(schema["if"]))
            if isinstance(when, Mapping):
                yield from self.of(_merge(when, self.checker.deref(schema.get("then", True))), depth + 1)
            yield from self.of(_merge(base, self.checker.deref(schema.get("else", True))), depth + 1)
        yield from self._typed(base, depth)

    def _typed(self, schema: Mapping[str, Any], depth: int) -> Iterator[JSON]:
        types = set(schema_types(dict(schema)))
        if not types:
            if isinstance(schema.get("properties"), Mapping) or "required" in schema:
                types = {"object"}
            elif "items" in schema or "prefixItems" in schema:
                types = {"array"}
            else:
                yield from _UNTYPED_SAMPLES
                return
        for kind in sorted(types):
            if kind == "object":
                yield from self._objects(schema, depth)
            elif kind == "array":
                yield from self._arrays(schema, depth)
            elif kind == "string":
                yield from self._strings(schema)
                yield from (h for h in self.hints if isinstance(h, str))
            elif kind in ("integer", "number"):
                yield from self._numbers(schema, kind == "integer")
                yield from (h for h in self.hints if isinstance(h, (int, float)) and not isinstance(h, bool))
            elif kind == "boolean":
                yield from (True, False)
            elif kind == "null":
                yield None

    def _objects(self, schema: Mapping[str, Any], depth: int) -> Iterator[JSON]:
        raw_properties = schema.get("properties")
        properties: Mapping[str, Any] = raw_properties if isinstance(raw_properties, Mapping) else {}
        raw_required = schema.get("required")
        required = [r for r in raw_required if isinstance(r, str)] if isinstance(raw_required, list) else []
        values = {name: self.of(sub, depth + 1) for name, sub in list(properties.items())[:_MAX_PROPERTIES]}
        first = {name: found[0] for name, found in values.items() if found}
        minimal = {name: first.get(name, "x") for name in required}
        yield minimal
        full = {**first, **minimal}
        yield full
        for name in first:  # all but one: where a `not` or a `oneOf` alternative excludes a key
            if name not in minimal:
                yield {k: v for k, v in full.items() if k != name}
        for name, found in values.items():
            for value in found[:4]:
                yield {**minimal, name: value}
                yield {**full, name: value}
        extra = schema.get("additionalProperties", True)
        if extra is not False and schema.get("unevaluatedProperties", True) is not False:
            for value in self.of(extra, depth + 1)[:2] if isinstance(extra, Mapping) else ["x"]:
                yield {**minimal, "other": value}

    def _arrays(self, schema: Mapping[str, Any], depth: int) -> Iterator[JSON]:
        items = schema.get("items", True)
        for positions in (schema.get("prefixItems"), items):  # a tuple: `prefixItems`, or draft-04 `items` list
            if isinstance(positions, list):
                firsts = [self.of(p, depth + 1)[:1] for p in positions]
                if all(firsts):
                    yield [f[0] for f in firsts]
        if isinstance(items, list):
            return
        found = self.of(items, depth + 1)
        least = _count(schema, "minItems")
        yield []
        for value in found[:8]:
            yield [value] * max(1, min(least, 100))
        if len(found) >= 2:
            yield found[: max(2, min(least, 100))]

    @staticmethod
    def _strings(schema: Mapping[str, Any]) -> Iterator[JSON]:
        shortest = _count(schema, "minLength")
        fmt = schema.get("format")
        if isinstance(fmt, str) and fmt in _FORMAT_SAMPLES:
            yield _FORMAT_SAMPLES[fmt]
        yield "x" * max(1, min(shortest, 1000))
        yield "example"
        yield ""

    @staticmethod
    def _numbers(schema: Mapping[str, Any], integer: bool) -> Iterator[JSON]:
        bounds = []
        for key, step in (("minimum", 0), ("maximum", 0), ("exclusiveMinimum", 1), ("exclusiveMaximum", -1)):
            value = schema.get(key)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                bounds.append(value + step)
        for value in (*bounds, 0, 1, 10, -1, 1000):
            yield int(value) if integer and float(value).is_integer() else value
        if not integer:
            yield 0.5


def find_rejection(
    old_schema: JSON, old_checker: SchemaChecker, new_schema: JSON, new_checker: SchemaChecker, hints: JSON = None
) -> Rejection | None:
    """A value `old_schema` accepts and `new_schema` rejects, smallest first, or None if none was found.

    `hints`: a schema whose `const`/`enum` values are tried too (the new side's: a value an alternative
    singles out is where two `oneOf` alternatives can start to overlap)."""
    for value in ExampleValues(old_checker, _scalars(hints)).of(old_schema):
        if new_checker.valid(new_schema, value) is False:
            keyword, reason = _reason(value, new_schema, new_checker)
            return Rejection(value, keyword, reason)
    return None


def _scalars(schema: JSON) -> tuple[JSON, ...]:
    """The scalar `const` and `enum` values anywhere in `schema`, a few dozen at most."""
    found: list[JSON] = []
    for node in mappings_in(schema):
        if len(found) >= _MAX_VALUES:
            break
        if "const" in node:
            found.append(node["const"])
        if isinstance(node.get("enum"), list):
            found.extend(node["enum"])
    return tuple(_unique(v for v in found[:_MAX_VALUES] if not isinstance(v, (dict, list))))


def _reason(value: JSON, schema: JSON, checker: SchemaChecker) -> tuple[str, str]:
    """Which keyword of the new schema rejects `value`, and why, in words."""
    if not isinstance(schema, Mapping):
        return "", "the new schema rejects every value"
    for keyword in ("oneOf", "anyOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and checker.valid({keyword: branches}, value) is False:
            matched = sum(1 for b in branches if checker.valid(b, value))
            if matched > 1:
                return keyword, f"it matches {matched} of the `oneOf` alternatives, and `oneOf` takes exactly one"
            return keyword, f"it matches none of the `{keyword}` alternatives"
    parts = schema.get("allOf")
    if isinstance(parts, list):
        for index, part in enumerate(parts):
            if checker.valid(part, value) is False:
                return "allOf", f"`allOf/{index}` rejects it: {checker.why_invalid(part, value)}"
    if "not" in schema and checker.valid(schema["not"], value) is True:
        return "not", "it matches the schema under `not`"
    if "if" in schema:
        condition = {k: schema[k] for k in ("if", "then", "else") if k in schema}
        if checker.valid(condition, value) is False:
            holds = checker.valid(schema["if"], value)
            branch = "then" if holds else "else"
            detail = checker.why_invalid(schema.get(branch, True), value)
            case = "it matches `if` but fails `then`" if holds else "it does not match `if` and fails `else`"
            return branch, f"{case}: {detail}"
    for keyword in ("dependentRequired", "dependentSchemas", "dependencies"):
        if keyword in schema and checker.valid({keyword: schema[keyword]}, value) is False:
            return keyword, checker.why_invalid({keyword: schema[keyword]}, value)
    return "", checker.why_invalid(schema, value)

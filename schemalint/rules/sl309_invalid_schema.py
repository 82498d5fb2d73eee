from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

from schemalint.diagnostics import Finding, Fix, PatchOperation
from schemalint.model import (
    JSON_SCHEMA_TYPES,
    SCHEMA_KEYWORDS_LIST,
    SCHEMA_KEYWORDS_MAP,
    SCHEMA_KEYWORDS_SINGLE,
    Dialect,
    SchemaNode,
    Severity,
    is_mapping,
    join_pointer,
    schema_types,
)
from schemalint.rules.base import LintContext, NodeRule
from schemalint.schema_facts import validator_class

#: what people write instead of JSON Schema type names (Python, Java, BFCL), and the right spelling
TYPE_SPELLINGS = {
    "dict": "object",
    "map": "object",
    "float": "number",
    "double": "number",
    "int": "integer",
    "long": "integer",
    "str": "string",
    "bool": "boolean",
    "list": "array",
    "tuple": "array",
    "set": "array",
    "none": "null",
    "any": None,  # no single type: leave `type` out
}

_SCHEMA = (Mapping, bool)
_NON_NEGATIVE_INT = ("minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties")
_STRING = ("description", "title", "$id", "$schema", "$ref", "$comment", "format", "pattern", "$anchor")
# `items` is checked on its own: it may also be a list (the draft-04 tuple form)
_SCHEMA_VALUED = tuple(k for k in SCHEMA_KEYWORDS_SINGLE if k != "items")


def _is_int(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _all_schemas(values: Collection[Any]) -> bool:
    """Every value is a schema (an object or a boolean)."""
    return all(isinstance(v, _SCHEMA) for v in values)


#: the keywords whose values `_values_match_type` compares with `type`
_TYPED_VALUES = frozenset(("enum", "default", "examples"))
#: type name -> whether a value has that type
_HAS_TYPE: dict[str, Callable[[Any], bool]] = {
    "string": lambda value: isinstance(value, str),
    "integer": _is_int,
    "number": _is_number,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
    "array": lambda value: isinstance(value, list),
    "object": is_mapping,
}

#: keyword -> whether its value has the JSON type the meta-schema asks for (other keywords: any value;
#: `type` has checks of its own)
_WELL_FORMED: dict[str, Callable[[Any], bool]] = {
    **dict.fromkeys(_NON_NEGATIVE_INT, lambda value: _is_int(value) and value >= 0),
    **dict.fromkeys(("minimum", "maximum"), _is_number),
    "multipleOf": lambda value: _is_number(value) and value > 0,
    # a number, or a boolean as draft-04 used them
    **dict.fromkeys(("exclusiveMinimum", "exclusiveMaximum"), lambda value: isinstance(value, (int, float))),
    **dict.fromkeys(_STRING, _HAS_TYPE["string"]),
    **dict.fromkeys(_SCHEMA_VALUED, lambda value: isinstance(value, _SCHEMA)),
    **dict.fromkeys(SCHEMA_KEYWORDS_MAP, lambda value: is_mapping(value) and _all_schemas(value.values())),
    **dict.fromkeys(
        SCHEMA_KEYWORDS_LIST, lambda value: isinstance(value, list) and bool(value) and _all_schemas(value)
    ),
    "items": lambda value: isinstance(value, _SCHEMA) or (isinstance(value, list) and _all_schemas(value)),
    "required": lambda value: (
        isinstance(value, list) and all(isinstance(v, str) for v in value) and len(set(value)) == len(value)
    ),
    **dict.fromkeys(("enum", "examples"), _HAS_TYPE["array"]),
    **dict.fromkeys(("uniqueItems", "readOnly", "writeOnly", "deprecated", "nullable"), _HAS_TYPE["boolean"]),
}


class InvalidSchema(NodeRule):
    """
    ## What it does
    Checks each parameter schema against the JSON Schema meta-schema (with `jsonschema`, for the
    schemas a fast pre-check finds suspicious), and for mistakes the meta-schema allows:
    - a type name that is not JSON Schema (`dict`, `float`, `int`, `tuple`, `any`, `String`);
    - `required` naming a property that is not in `properties`;
    - `enum`, `default` or `examples` values that do not match the declared `type`.

    ## Why is this bad?
    Providers validate tool schemas and reject the request, or accept it and let the model
    produce arguments your code cannot parse. A wrong `required` entry makes strict modes fail
    and tells the model to send a field that does not exist.

    ## Example
    ```json
    {"type": "dict", "properties": {"lat": {"type": "float"}}, "required": ["lat", "lng"]}
    ```

    ## Use instead
    ```json
    {"type": "object", "properties": {"lat": {"type": "number"}, "lng": {"type": "number"}},
     "required": ["lat", "lng"]}
    ```

    ## Trade-off
    Gemini's upper-case type names (`OBJECT`, `STRING`) are accepted in Gemini files only.
    Unknown keywords are allowed, as JSON Schema allows them; SL402 reports the ones a target
    rejects.

    ## Fix safety
    Safe for a misspelt type name: `"OBJECT"`/`"String"` become `"object"`/`"string"` (outside
    Gemini files, where the upper-case names are Gemini's own), and the Python, Java and BFCL
    names become their JSON Schema type (`dict`/`map` -> `object`, `float`/`double` -> `number`,
    `int`/`long` -> `integer`, `str` -> `string`, `bool` -> `boolean`, `list`/`tuple`/`set` ->
    `array`, `none` -> `null`); the schema then means what its author wrote. In a list of types a
    name whose JSON Schema type is already listed is removed. `any` has no fix (leaving `type` out
    is a choice SL312 asks about), nor have the other findings: only the owner knows the right
    `required` list or values.
    """

    severity = Severity.ERROR
    summary = "fails the meta-schema; required names a missing property; enum/default mismatch; non-JSON-Schema types"
    fixable = ("safe",)

    def check(self, node: SchemaNode, context: LintContext) -> Iterable[Finding]:
        schema = node.schema
        if isinstance(schema, bool):
            return
        if not node.is_mapping:
            yield Finding(f"a schema must be an object or a boolean, got {type(schema).__name__}", node.pointer)
            return
        # each check runs only when its keywords are there: most schemas are well-formed, and this rule
        # sees every node
        raw_type = schema.get("type")
        if raw_type is not None and not (isinstance(raw_type, str) and raw_type in JSON_SCHEMA_TYPES):
            yield from self._type_names(node, schema)
        malformed = [key for key, value in schema.items() if key in _WELL_FORMED and not _WELL_FORMED[key](value)]
        if malformed:
            messages = _meta_schema_messages(schema)
            for key in malformed:
                detail = messages.get(key, "has the wrong kind of value")
                yield Finding(f"`{key}` {detail}", join_pointer(node.pointer, key), data={"keyword": key})
        if "required" in schema:
            yield from self._required(node, schema)
        if "type" in schema and not _TYPED_VALUES.isdisjoint(schema):
            yield from self._values_match_type(node, schema)

    def _type_names(self, node: SchemaNode, schema: Mapping[str, Any]) -> Iterable[Finding]:
        raw = schema.get("type")
        names = [raw] if isinstance(raw, str) else raw if isinstance(raw, list) else []
        gemini = node.tool.dialect is Dialect.GEMINI
        for index, name in enumerate(names):
            if not isinstance(name, str) or name in JSON_SCHEMA_TYPES or (gemini and name.lower() in JSON_SCHEMA_TYPES):
                continue
            lowered = name.lower()
            if lowered in JSON_SCHEMA_TYPES:
                hint = f'write `"{lowered}"`'
            elif lowered in TYPE_SPELLINGS:
                right = TYPE_SPELLINGS[lowered]
                hint = f'use `"{right}"`' if right else "leave `type` out to allow any value"
            else:
                hint = f"use one of {', '.join(sorted(JSON_SCHEMA_TYPES))}"
            yield Finding(
                f'`type: "{name}"` is not a JSON Schema type; {hint}',
                join_pointer(node.pointer, "type"),
                data={"type": name},
                fix=_type_spelling_fix(node.pointer, raw, index),
            )

    def _required(self, node: SchemaNode, schema: Mapping[str, Any]) -> Iterable[Finding]:
        required = schema.get("required")
        properties = schema.get("properties")
        if not isinstance(required, list) or not is_mapping(properties):
            return
        for index, name in enumerate(required):
            if isinstance(name, str) and name not in properties:
                yield Finding(
                    f"`required` names `{name}`, which is not in `properties`",
                    join_pointer(node.pointer, "required", index),
                    data={"property": name},
                )

    def _values_match_type(self, node: SchemaNode, schema: Mapping[str, Any]) -> Iterable[Finding]:
        types = schema_types(schema)
        if not types or not types <= JSON_SCHEMA_TYPES:
            return
        # (keyword, index in its list or None, value); pointers are built only for the values that do not match
        candidates: list[tuple[str, int | None, Any]] = []
        if isinstance(schema.get("enum"), list):
            candidates += [("enum", i, v) for i, v in enumerate(schema["enum"])]
        if "default" in schema:
            candidates.append(("default", None, schema["default"]))
        if isinstance(schema.get("examples"), list):
            candidates += [("examples", i, v) for i, v in enumerate(schema["examples"])]
        for keyword, index, value in candidates:
            if not any(_HAS_TYPE[t](value) for t in types):
                tokens = (keyword,) if index is None else (keyword, index)
                yield Finding(
                    f"{keyword} value {value!r} does not match `type: {schema['type']}`",
                    join_pointer(node.pointer, *tokens),
                    data={"value": value, "type": schema["type"]},
                )


def _json_schema_spelling(name: Any) -> Any:
    """The JSON Schema type a misspelt type name stands for; None when there is none (`any`)."""
    if not isinstance(name, str):
        return None
    lowered = name.lower()
    return lowered if lowered in JSON_SCHEMA_TYPES else TYPE_SPELLINGS.get(lowered)


def _type_spelling_fix(pointer: str, raw: Any, index: int) -> Fix | None:
    """Respell the type name at `index` of `raw` (a name or a list of names). A list is rewritten whole,
    every name respelt and repeats dropped, so that the fixes of its several names agree."""
    name = raw if isinstance(raw, str) else raw[index]
    right = _json_schema_spelling(name)
    if right is None:
        return None
    path = join_pointer(pointer, "type")
    if isinstance(raw, str):
        return Fix(f'replace `type: "{name}"` with `"{right}"`', (PatchOperation("replace", path, right),))
    names = list(dict.fromkeys(_json_schema_spelling(n) or n for n in raw))
    new = names[0] if len(names) == 1 else names
    return Fix(f"replace `type: {json.dumps(raw)}` with `{json.dumps(new)}`", (PatchOperation("replace", path, new),))


def _meta_schema_messages(schema: Mapping[str, Any]) -> dict[str, str]:
    """jsonschema's own words for each malformed keyword (imported only when something is wrong)."""
    local = {
        k: v
        for k, v in schema.items()
        if k not in SCHEMA_KEYWORDS_MAP and k not in SCHEMA_KEYWORDS_LIST and k != "items"
    }
    if not isinstance(local.get("$schema", ""), str):
        local.pop("$schema")
    validator = validator_class(local)
    messages: dict[str, str] = {}
    for error in validator(validator.META_SCHEMA).iter_errors(local):
        if error.path:
            messages.setdefault(str(error.path[0]), f"is invalid: {error.message}")
    return messages

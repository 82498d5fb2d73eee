"""Hypothesis strategies shared by the property tests and benchmarks/fuzz.py."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

KEYS = st.sampled_from(
    ["name", "description", "type", "properties", "items", "required", "enum", "anyOf", "oneOf", "allOf",
     "$ref", "$defs", "additionalProperties", "minimum", "maximum", "default", "format", "pattern",
     "parameters", "input_schema", "inputSchema", "function", "tools", "functionDeclarations", "strict",
     "annotations", "outputSchema", "not", "const", "x", "", "~/", "名前"]
)  # fmt: skip
TEXT = st.text(max_size=12)
SCALARS = (
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False, allow_infinity=False) | TEXT
)

json_values = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(KEYS | TEXT, children, max_size=5),
    max_leaves=30,
)

TYPE_NAMES = st.sampled_from(["object", "string", "integer", "number", "boolean", "array", "null", "dict", "STRING"])


def _schema_dicts(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "type": TYPE_NAMES | st.lists(TYPE_NAMES, max_size=3) | SCALARS,
            "description": TEXT,
            "properties": st.dictionaries(TEXT | KEYS, children, max_size=4),
            "items": children | st.lists(children, max_size=2),
            "required": st.lists(TEXT | KEYS, max_size=3) | SCALARS,
            "enum": st.lists(SCALARS, max_size=4) | SCALARS,
            "anyOf": st.lists(children, max_size=3),
            "oneOf": st.lists(children, max_size=3),
            "allOf": st.lists(children, max_size=2),
            "$ref": st.sampled_from(["#", "#/$defs/a", "#/definitions/b", "http://x/y.json", "other.json#/c", "#/nope"])
            | TEXT,
            "$defs": st.dictionaries(st.sampled_from(["a", "b"]), children, max_size=2),
            "additionalProperties": st.booleans() | children,
            "minimum": SCALARS,
            "maxLength": SCALARS,
            "default": SCALARS,
            "format": st.sampled_from(["date-time", "date", "uuid", "uri"]) | TEXT,
            "pattern": st.sampled_from(["^[a-z]+$", "(", "\\d{3}"]) | TEXT,
        },
    )


json_schemas = st.recursive(st.booleans() | _schema_dicts(st.just({})), _schema_dicts, max_leaves=12)


def wrap_tool(shape: str, name: Any, description: Any, schema: Any) -> Any:
    """A tool in one of the dialects schemalint detects."""
    if shape == "openai-chat":
        return [{"type": "function", "function": {"name": name, "description": description, "parameters": schema}}]
    if shape == "openai-responses":
        return [{"type": "function", "name": name, "description": description, "parameters": schema}]
    if shape == "anthropic":
        return {"tools": [{"name": name, "description": description, "input_schema": schema}]}
    if shape == "gemini":
        return {"tools": [{"functionDeclarations": [{"name": name, "description": description, "parameters": schema}]}]}
    if shape == "mcp":
        return {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": name, "description": description,
                                                                 "inputSchema": schema}]}}  # fmt: skip
    return [{"name": name, "description": description, "parameters": schema}]


SHAPES = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp", "generic"]

tool_documents = st.builds(wrap_tool, st.sampled_from(SHAPES), TEXT | SCALARS, TEXT | SCALARS, json_schemas).map(
    lambda data: json.dumps(data, ensure_ascii=False)
)

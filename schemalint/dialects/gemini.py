"""Gemini `functionDeclarations` (also spelled `function_declarations`), alone or inside `tools`."""

from __future__ import annotations

from typing import Any

from schemalint.dialects.base import Shape, canonical_fields
from schemalint.model import JSON, Dialect, Tool, is_mapping

SHAPE = Shape(
    Dialect.GEMINI,
    ("parameters", "parametersJsonSchema", "parameters_json_schema"),
    output=("response", "responseJsonSchema", "response_json_schema"),
)
DECLARATION_KEYS = ("functionDeclarations", "function_declarations")
#: the keys whose schema Gemini takes as JSON Schema (google-genai types them `Any` and sends them as is),
#: unlike `parameters`, which google-genai validates as its OpenAPI-subset `types.Schema`
JSON_SCHEMA_KEYS = ("parametersJsonSchema", "parameters_json_schema")


def sends_json_schema(tool: Tool) -> bool:
    """Whether the tool is a Gemini declaration whose parameters are JSON Schema (`parametersJsonSchema`)."""
    pointer = tool.parameters_pointer
    return tool.dialect is Dialect.GEMINI and pointer is not None and pointer.rsplit("/", 1)[-1] in JSON_SCHEMA_KEYS


def to_gemini(tool: Tool) -> dict[str, Any]:
    out = canonical_fields(tool, title=False)
    if tool.parameters is not None:
        out["parametersJsonSchema"] = tool.parameters
    if tool.output_schema is not None:
        out["responseJsonSchema"] = tool.output_schema
    return out


#: keywords whose values are data, not schemas: their `type` keys are not type names
_DATA_KEYWORDS = frozenset({"enum", "const", "default", "example", "examples"})


def parameters_as_json_schema(tool: Tool) -> JSON:
    """The tool's parameters as JSON Schema: a Gemini `parameters` (the OpenAPI subset) converted, else as written."""
    if tool.dialect is Dialect.GEMINI and not sends_json_schema(tool):
        return openapi_to_json_schema(tool.parameters)
    return tool.parameters


def output_as_json_schema(tool: Tool) -> JSON:
    """The same for the output schema: a Gemini `response` is the OpenAPI subset, `responseJsonSchema` is not."""
    pointer = tool.output_pointer or ""
    if tool.dialect is Dialect.GEMINI and pointer.rsplit("/", 1)[-1] == "response":
        return openapi_to_json_schema(tool.output_schema)
    return tool.output_schema


def openapi_to_json_schema(schema: JSON) -> JSON:
    """Gemini's OpenAPI spelling in JSON Schema's: `OBJECT` -> `object`, `nullable: true` -> a `"null"` type."""
    if isinstance(schema, list):
        return [openapi_to_json_schema(item) for item in schema]
    if not is_mapping(schema):
        return schema
    converted: dict[str, Any] = {}
    for key, value in schema.items():
        if key in _DATA_KEYWORDS:
            converted[key] = value
        elif key == "type" and isinstance(value, str):
            converted[key] = value.lower()
        elif key == "type" and isinstance(value, list):
            converted[key] = [item.lower() if isinstance(item, str) else item for item in value]
        elif key != "nullable" or not isinstance(value, bool):
            converted[key] = openapi_to_json_schema(value)
    if schema.get("nullable") is True and isinstance(converted.get("type"), str):
        converted["type"] = [converted["type"], "null"]
    return converted

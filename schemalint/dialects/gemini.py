"""Gemini `functionDeclarations` (also spelled `function_declarations`), alone or inside `tools`."""

from __future__ import annotations

from typing import Any

from schemalint.dialects.base import Shape, canonical_fields
from schemalint.model import Dialect, Tool

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
    out = canonical_fields(tool)
    out.pop("title", None)
    if tool.parameters is not None:
        out["parametersJsonSchema"] = tool.parameters
    if tool.output_schema is not None:
        out["responseJsonSchema"] = tool.output_schema
    return out

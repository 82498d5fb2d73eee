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


def to_gemini(tool: Tool) -> dict[str, Any]:
    out = canonical_fields(tool)
    out.pop("title", None)
    if tool.parameters is not None:
        out["parametersJsonSchema"] = tool.parameters
    if tool.output_schema is not None:
        out["responseJsonSchema"] = tool.output_schema
    return out

"""Anthropic Messages API tools: `{name, description, input_schema}`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.dialects.base import Shape, canonical_fields
from schemalint.model import Dialect, Tool

SHAPE = Shape(Dialect.ANTHROPIC, ("input_schema",))


def is_tool(obj: Mapping[str, Any]) -> bool:
    return "input_schema" in obj and "inputSchema" not in obj


def to_anthropic(tool: Tool) -> dict[str, Any]:
    out = canonical_fields(tool)
    out.pop("title", None)
    out["input_schema"] = tool.parameters if tool.parameters is not None else {"type": "object", "properties": {}}
    if tool.strict is not None:
        out["strict"] = tool.strict
    return out

"""MCP `Tool` objects and `tools/list` results (also inside a JSON-RPC `result`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.dialects.base import Shape, canonical_fields
from schemalint.model import Dialect, Tool

SHAPE = Shape(Dialect.MCP, ("inputSchema",), output=("outputSchema",), annotations="annotations")


def is_tool(obj: Mapping[str, Any]) -> bool:
    return "inputSchema" in obj


def to_mcp(tool: Tool) -> dict[str, Any]:
    out = canonical_fields(tool)
    out["inputSchema"] = tool.parameters if tool.parameters is not None else {"type": "object"}
    if tool.output_schema is not None:
        out["outputSchema"] = tool.output_schema
    if tool.annotations is not None:
        out["annotations"] = dict(tool.annotations)
    return out

"""Small builders shared by the rule tests."""

from __future__ import annotations

from typing import Any


def tool(name: str = "get_order", description: str = "Look up one order.", **properties: Any) -> dict[str, Any]:
    """A tool whose parameters hold the given properties (keyword name -> property schema)."""
    return {
        "name": name,
        "description": description,
        "parameters": {"type": "object", "properties": properties, "additionalProperties": False},
    }


def prop(type_: str = "string", description: str = "", **keywords: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": type_, **keywords}
    if description:
        schema["description"] = description
    return schema


def case_id(value: object) -> str:
    """A readable pytest id for a (tool definition, expected findings) case."""
    return str(value["name"]) if isinstance(value, dict) else f"findings={value}"

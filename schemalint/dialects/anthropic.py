"""Anthropic Messages API tools: `{name, description, input_schema}`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.dialects.base import Shape
from schemalint.dialects.openai import to_chat
from schemalint.model import Dialect, Tool

SHAPE = Shape(Dialect.ANTHROPIC, ("input_schema",))


def is_tool(obj: Mapping[str, Any]) -> bool:
    return "input_schema" in obj and "inputSchema" not in obj


def to_anthropic(tool: Tool) -> dict[str, Any]:
    """OpenAI's function object, its `parameters` spelled `input_schema`."""
    return {"input_schema" if key == "parameters" else key: value for key, value in to_chat(tool)["function"].items()}

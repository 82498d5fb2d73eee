"""OpenAI: Chat Completions `tools`, the legacy `functions` array, and Responses function tools."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from schemalint.dialects.base import Shape, canonical_fields
from schemalint.model import Dialect, Tool, is_mapping

CHAT = Shape(Dialect.OPENAI_CHAT, ("parameters",), wrapper="function")
RESPONSES = Shape(Dialect.OPENAI_RESPONSES, ("parameters",))
FUNCTIONS = Shape(Dialect.OPENAI_FUNCTIONS, ("parameters",))


def is_chat_tool(obj: Mapping[str, Any]) -> bool:
    return obj.get("type") == "function" and is_mapping(obj.get("function"))


def is_responses_tool(obj: Mapping[str, Any]) -> bool:
    return obj.get("type") == "function" and isinstance(obj.get("name"), str) and "function" not in obj


def to_chat(tool: Tool) -> dict[str, Any]:
    function = canonical_fields(tool, title=False)
    function["parameters"] = tool.parameters if tool.parameters is not None else {"type": "object", "properties": {}}
    if tool.strict is not None:
        function["strict"] = tool.strict
    return {"type": "function", "function": function}


def to_responses(tool: Tool) -> dict[str, Any]:
    return {"type": "function", **to_chat(tool)["function"]}

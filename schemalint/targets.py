"""Which providers a tool is checked against.

By default the targets follow the tool's dialect; `--target`/`targets` in config replace them.
"""

from __future__ import annotations

from typing import Iterable

from schemalint.model import Dialect, Tool

TARGETS = ("openai", "openai-strict", "anthropic", "anthropic-strict", "gemini", "mcp")


def resolve_targets(tool: Tool, configured: Iterable[str] = ()) -> frozenset[str]:
    configured = tuple(configured)
    if configured:
        return frozenset(configured)
    if tool.dialect in (Dialect.OPENAI_CHAT, Dialect.OPENAI_FUNCTIONS, Dialect.GENERIC):
        return frozenset({"openai-strict" if tool.strict else "openai"})
    if tool.dialect is Dialect.OPENAI_RESPONSES:
        # the Responses API defaults to strict when `strict` is omitted
        return frozenset({"openai" if tool.strict is False else "openai-strict"})
    if tool.dialect is Dialect.ANTHROPIC:
        return frozenset({"anthropic-strict" if tool.strict else "anthropic"})
    if tool.dialect is Dialect.GEMINI:
        return frozenset({"gemini"})
    return frozenset({"mcp"})

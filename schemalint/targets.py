"""Which providers a tool is checked against, and how sure a provider finding can be.

Defaults follow the tool's dialect:

| dialect | targets |
|---|---|
| OpenAI Chat / legacy functions / generic | `openai`, or `openai-strict` when the tool says `"strict": true` |
| OpenAI Responses | `openai-strict` unless the tool says `"strict": false` (the API defaults to strict) |
| Anthropic | `anthropic`, or `anthropic-strict` when the tool says `"strict": true` |
| Gemini | `gemini` |
| MCP | `mcp` and every provider (`openai`, `anthropic`, `gemini`): any client may forward the tool |
| Python (FastMCP / MCP SDK) | as MCP |
| Python (openai-agents) | `openai-strict` (its `strict_json_schema` defaults to true) |
| Python (other frameworks) | as MCP: the tool may reach any provider |

`--target` / `targets` in config replace the defaults. A tool that says `"strict": true` (or an OpenAI
Responses tool that does not say `"strict": false`) is then checked against the strict variant of each
configured provider, since that is what the provider will enforce.

Findings about a provider other than MCP on a tool that is not that provider's own (MCP tools, Python
tools that may be forwarded anywhere) are warnings: the tool may never reach that provider, and a
forwarding client (openai-agents, pydantic-ai, google-genai) often rewrites the schema first.
"""

from __future__ import annotations

from collections.abc import Iterable

from schemalint.model import Dialect, Severity, Tool
from schemalint.providers import BASE_TARGET, TARGETS

__all__ = ["TARGETS", "finding_severity", "is_forwarded", "resolve_targets", "sent_strict"]

_EVERY_PROVIDER = frozenset({"mcp", "openai", "anthropic", "gemini"})
_STRICT_VARIANT = {base: strict for strict, base in BASE_TARGET.items()}
_OPENAI_AGENTS_FRAMEWORKS = frozenset({"openai-agents", "openai_agents", "agents"})


def sent_strict(tool: Tool) -> bool:
    """Whether the provider enforces the tool's schema strictly (OpenAI Responses does unless told not to)."""
    if tool.dialect is Dialect.OPENAI_RESPONSES:
        return tool.strict is not False
    return tool.strict is True


def resolve_targets(tool: Tool, configured: Iterable[str] = ()) -> frozenset[str]:
    configured = tuple(configured)
    if configured:
        if sent_strict(tool):
            return frozenset(_STRICT_VARIANT.get(t, t) for t in configured)
        return frozenset(configured)
    strict = sent_strict(tool)
    if tool.dialect in (Dialect.OPENAI_CHAT, Dialect.OPENAI_FUNCTIONS, Dialect.GENERIC, Dialect.OPENAI_RESPONSES):
        return frozenset({"openai-strict" if strict else "openai"})
    if tool.dialect is Dialect.ANTHROPIC:
        return frozenset({"anthropic-strict" if strict else "anthropic"})
    if tool.dialect is Dialect.GEMINI:
        return frozenset({"gemini"})
    if tool.dialect is Dialect.PYTHON and (tool.framework or "").lower() in _OPENAI_AGENTS_FRAMEWORKS:
        return frozenset({"openai-strict" if tool.strict is not False else "openai"})
    return _EVERY_PROVIDER


def is_forwarded(tool: Tool) -> bool:
    """Whether the tool is not written for one provider but may be forwarded to any (MCP, most Python tools)."""
    if tool.dialect in (Dialect.MCP, Dialect.DOCKER_CATALOG):
        return True
    if tool.dialect is Dialect.PYTHON:
        return (tool.framework or "").lower() not in _OPENAI_AGENTS_FRAMEWORKS
    return False


def finding_severity(tool: Tool, target: str, severity: Severity) -> Severity:
    """The severity of a provider finding for `target` on `tool`: capped at warning on forwarded tools."""
    if target != "mcp" and is_forwarded(tool):
        return min(severity, Severity.WARNING)
    return severity

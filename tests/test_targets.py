from __future__ import annotations

import pytest

from schemalint.model import Dialect, Severity
from schemalint.targets import finding_severity, resolve_targets
from schemalint.testing import make_tool


def tool(dialect: Dialect, strict: bool | None = None, framework: str | None = None):
    definition = {"name": "t", "parameters": {"type": "object"}}
    if strict is not None:
        definition["strict"] = strict
    made = make_tool(definition, dialect=dialect)
    made.framework = framework
    return made


@pytest.mark.parametrize(
    ("dialect", "strict", "expected"),
    [
        (Dialect.OPENAI_CHAT, None, {"openai"}),
        (Dialect.OPENAI_CHAT, True, {"openai-strict"}),
        (Dialect.OPENAI_CHAT, False, {"openai"}),
        (Dialect.OPENAI_RESPONSES, None, {"openai-strict"}),
        (Dialect.OPENAI_RESPONSES, True, {"openai-strict"}),
        (Dialect.OPENAI_RESPONSES, False, {"openai"}),
        (Dialect.ANTHROPIC, None, {"anthropic"}),
        (Dialect.ANTHROPIC, True, {"anthropic-strict"}),
        (Dialect.GEMINI, None, {"gemini"}),
        (Dialect.MCP, None, {"mcp", "openai", "anthropic", "gemini"}),
    ],
)
def test_default_targets_follow_the_dialect(dialect: Dialect, strict: bool | None, expected: set[str]) -> None:
    assert resolve_targets(tool(dialect, strict)) == expected


def test_python_tools_follow_their_framework() -> None:
    assert resolve_targets(tool(Dialect.PYTHON, framework="openai-agents")) == {"openai-strict"}
    assert resolve_targets(tool(Dialect.PYTHON, framework="fastmcp")) == {"mcp", "openai", "anthropic", "gemini"}


def test_configured_targets_replace_the_defaults_and_keep_the_tools_strictness() -> None:
    assert resolve_targets(tool(Dialect.OPENAI_CHAT), ["gemini"]) == {"gemini"}
    strict_tool = tool(Dialect.ANTHROPIC, strict=True)
    assert resolve_targets(strict_tool, ["anthropic", "openai", "gemini"]) == {
        "anthropic-strict",
        "openai-strict",
        "gemini",
    }
    assert resolve_targets(tool(Dialect.OPENAI_RESPONSES), ["openai"]) == {"openai-strict"}


def test_provider_findings_on_forwarded_tools_are_warnings() -> None:
    mcp_tool = tool(Dialect.MCP)
    assert finding_severity(mcp_tool, "openai", Severity.ERROR) is Severity.WARNING
    assert finding_severity(mcp_tool, "mcp", Severity.ERROR) is Severity.ERROR
    assert finding_severity(mcp_tool, "gemini", Severity.INFO) is Severity.INFO
    assert finding_severity(tool(Dialect.OPENAI_CHAT), "openai", Severity.ERROR) is Severity.ERROR

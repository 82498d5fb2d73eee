from __future__ import annotations

from schemalint.model import Dialect, Severity
from schemalint.rules.sl103_invalid_tool_name import InvalidToolName
from schemalint.testing import run_rule

PARAMS = {"type": "object", "properties": {}}


def check(name: str, dialect: Dialect = Dialect.OPENAI_CHAT, targets=(), settings=None):
    return run_rule(InvalidToolName(), [{"name": name, "parameters": PARAMS}], dialect, targets, settings)


def test_valid_names_pass_every_target() -> None:
    for name in ("get_weather", "getWeather", "get-weather", "a", "x" * 64):
        assert check(name, targets=("openai", "anthropic", "gemini", "mcp")) == []


def test_dot_is_fine_for_mcp_and_gemini_but_not_openai() -> None:
    assert check("files.read", Dialect.MCP, targets=("mcp", "gemini")) == []
    [finding] = check("files.read", Dialect.OPENAI_CHAT)
    assert finding.severity is Severity.ERROR
    assert "OpenAI" in finding.message and "`files_read`" in finding.message
    assert finding.pointer == "/0/name"
    assert finding.fix is not None and not finding.fix.safe
    assert finding.fix.operations[0].value == "files_read"


def test_mcp_tool_forwarded_to_openai_is_a_warning() -> None:
    [finding] = check("files.read", Dialect.MCP)
    assert finding.severity is Severity.WARNING
    assert finding.data["targets"] == ["openai", "anthropic"]


def test_length_limits_differ_per_target() -> None:
    name = "n" * 100
    [finding] = check(name, targets=("openai", "anthropic"))
    assert finding.data["targets"] == ["openai"]
    assert "at most 64 characters, not 100" in finding.message
    assert check("n" * 129, targets=("anthropic",))[0].data["targets"] == ["anthropic"]


def test_gemini_requires_a_leading_letter_or_underscore() -> None:
    [finding] = check("1st_tool", targets=("gemini",))
    assert "Gemini" in finding.message and "`_1st_tool`" in finding.message
    assert check("_1st_tool", targets=("gemini",)) == []
    assert check("ns:tool", targets=("gemini",)) == []


def test_limit_override_from_config() -> None:
    settings = {"target-limits": {"openai": {"max-tool-name-length": 100}}}
    assert check("n" * 100, settings=settings) == []


def test_strict_and_base_targets_report_once() -> None:
    [finding] = check("a b", targets=("openai", "openai-strict"))
    assert finding.message.count("OpenAI") == 1


def test_empty_name_is_reported_and_missing_name_is_left_to_other_rules() -> None:
    assert "empty" in check("")[0].message
    assert run_rule(InvalidToolName(), [{"parameters": PARAMS}]) == []

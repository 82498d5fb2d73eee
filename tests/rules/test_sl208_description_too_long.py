from __future__ import annotations

from schemalint.model import Dialect, Severity
from schemalint.rules.sl208_description_too_long import DescriptionTooLong
from schemalint.rules.sl208_description_too_long import Options as SL208Options
from schemalint.testing import run_rule


def check(description: str, dialect: Dialect = Dialect.OPENAI_CHAT, options=None, settings=None, targets=()):
    tool = {"name": "t", "description": description, "parameters": {"type": "object"}}
    return run_rule(DescriptionTooLong(options), [tool], dialect, targets, settings)


def test_openai_limit_is_a_warning() -> None:
    [finding] = check("x" * 1025)
    assert finding.severity is Severity.WARNING
    assert "1025 characters" in finding.message and "OpenAI allows 1024" in finding.message
    assert finding.pointer == "/0/description"
    assert check("x" * 1024) == []


def test_other_targets_have_no_limit_but_the_budget_applies() -> None:
    assert check("x" * 5000, Dialect.ANTHROPIC) == []
    [finding] = check("x" * 301, Dialect.ANTHROPIC, SL208Options(max_length=300))
    assert "`max-length`" in finding.message


def test_length_counts_characters_not_bytes() -> None:
    assert check("订" * 1000) == []


def test_target_limit_override() -> None:
    settings = {"target-limits": {"openai": {"max-description-length": 2048}}}
    assert check("x" * 2000, settings=settings) == []


def test_strict_tools_name_the_provider() -> None:
    [finding] = check("x" * 1100, Dialect.OPENAI_RESPONSES)
    assert "OpenAI allows 1024" in finding.message and "strict" not in finding.message

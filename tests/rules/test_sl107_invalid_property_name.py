from __future__ import annotations

from schemalint.model import Dialect, Severity
from schemalint.rules.sl107_invalid_property_name import InvalidPropertyName
from schemalint.testing import run_rule


def check(properties: dict, dialect: Dialect = Dialect.ANTHROPIC, targets=()):
    tool = {"name": "t", "parameters": {"type": "object", "properties": properties}}
    return run_rule(InvalidPropertyName(), [tool], dialect, targets)


def test_anthropic_rejects_spaces_in_top_level_keys() -> None:
    [finding] = check({"order id": {"type": "string"}})
    assert finding.severity is Severity.ERROR
    assert finding.key and finding.pointer == "/0/parameters/properties/order id"
    assert "Anthropic" in finding.message and "`order_id`" in finding.message


def test_anthropic_allows_dots_and_dashes() -> None:
    assert check({"a.b": {"type": "string"}, "c-d": {"type": "string"}}) == []


def test_nested_keys_are_only_warned_about() -> None:
    [finding] = check({"order": {"type": "object", "properties": {"zip code": {"type": "string"}}}})
    assert finding.severity is Severity.WARNING
    assert finding.pointer.endswith("/properties/order/properties/zip code")


def test_gemini_rule_is_uncertain_and_rejects_dashes() -> None:
    [finding] = check({"c-d": {"type": "string"}}, Dialect.GEMINI)
    assert finding.severity is Severity.WARNING and "Gemini" in finding.message


def test_long_keys_and_openai_has_no_rule() -> None:
    assert check({"k" * 65: {"type": "string"}})[0].data["targets"] == ["anthropic"]
    assert check({"k" * 65: {"type": "string"}, "a b": {}}, Dialect.OPENAI_CHAT) == []

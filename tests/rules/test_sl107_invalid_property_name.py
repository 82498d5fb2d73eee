from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from schemalint.model import Dialect, Severity
from schemalint.providers import TARGETS
from schemalint.rules._provider_support import _accepted_by_tables, base_targets, name_violations
from schemalint.rules.base import LintContext
from schemalint.rules.sl107_invalid_property_name import InvalidPropertyName
from schemalint.testing import make_tool, run_rule


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


NAMES = st.sampled_from(["order_id", "order id", "a.b", "c-d", "_x", "1st", "x" * 65, "x" * 129, "名前", ""]) | st.text(
    max_size=70
)
TARGET_SETS = st.frozensets(st.sampled_from(TARGETS))
SUBJECTS = st.sampled_from(["tool-name", "property-name", "nested-property-name"])


@given(NAMES, TARGET_SETS, SUBJECTS)
@settings(max_examples=300, deadline=None)
def test_cached_acceptance_agrees_with_the_violations(name: str, targets: frozenset[str], subject: str) -> None:
    """`name_finding`'s shortcut (one cached answer per name, targets and subject) says a name is accepted
    exactly when no base target objects to it."""
    tool = make_tool({"name": "t", "parameters": {}})
    context = LintContext({id(tool): targets})
    length_limit = f"max-{subject.removeprefix('nested-')}-length"
    violations = [
        v
        for target in base_targets(tool, context)
        for v in name_violations(name, tool, target, subject, length_limit, context.settings)
    ]
    assert _accepted_by_tables(name, targets, subject) == (not violations)

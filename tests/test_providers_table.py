from __future__ import annotations

import re

import pytest

from schemalint.model import Severity
from schemalint.providers import (
    TABLE,
    TARGETS,
    Kind,
    When,
    limit,
    rows_for,
    validate_limit_overrides,
)


def test_every_row_has_a_known_target_and_a_source() -> None:
    for row in TABLE:
        assert row.target in TARGETS, row
        assert row.source.strip(), row


def test_name_rows_are_valid_regexes_and_limit_rows_are_integers() -> None:
    for row in TABLE:
        if row.kind is Kind.NAME:
            re.compile(row.value)
        if row.kind is Kind.LIMIT:
            assert isinstance(row.value, int) and row.value > 0, row


def test_rows_with_a_condition_carry_the_value_it_needs() -> None:
    needs_value = {When.NOT_ALLOWED, When.VALUE_NOT_IN, When.ABOVE}
    for row in TABLE:
        if row.kind is Kind.KEYWORD and row.when in needs_value:
            assert row.value is not None, row


def test_uncertain_rows_warn_and_conflicting_rows_only_inform() -> None:
    severities = {(r.target, r.key, r.when): r.severity for r in TABLE if r.kind is Kind.KEYWORD}
    assert severities[("openai-strict", "oneOf", When.PRESENT)] is Severity.ERROR
    assert severities[("openai-strict", "patternProperties", When.PRESENT)] is Severity.WARNING
    assert ("openai-strict", "minLength", When.PRESENT) not in severities
    assert severities[("gemini", "additionalProperties", When.PRESENT)] is Severity.INFO


def test_strict_targets_inherit_their_base_rows() -> None:
    strict_keys = {r.key for r in rows_for("openai-strict", Kind.LIMIT)}
    assert {"max-tools", "max-total-properties"} <= strict_keys
    assert "max-total-properties" not in {r.key for r in rows_for("openai", Kind.LIMIT)}


def test_limits_follow_the_table_and_config_overrides() -> None:
    assert limit("openai", "max-tools").value == 128
    assert limit("anthropic", "max-tools") is None
    settings = {"target-limits": {"openai": {"max-tools": 200}, "gemini": {"max-depth": 4}}}
    assert limit("openai", "max-tools", settings).value == 200
    # the base target's override reaches its strict variant
    assert limit("openai-strict", "max-tools", settings).value == 200
    # a limit the table does not give a target can be added in config
    assert limit("gemini", "max-depth", settings).value == 4
    assert "config" in limit("openai", "max-tools", settings).source


def test_strict_override_wins_over_base_override() -> None:
    settings = {"target-limits": {"openai": {"max-tools": 200}, "openai-strict": {"max-tools": 50}}}
    assert limit("openai-strict", "max-tools", settings).value == 50
    assert limit("openai", "max-tools", settings).value == 200


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"openia": {"max-tools": 1}}, "target-limits.openia"),
        ({"openai": {"max-toolz": 1}}, "target-limits.openai.max-toolz"),
        ({"openai": {"max-tools": "many"}}, "target-limits.openai.max-tools"),
        ({"openai": {"max-tools": True}}, "target-limits.openai.max-tools"),
        ({"openai": 3}, "target-limits.openai"),
        ([], "target-limits"),
    ],
)
def test_bad_overrides_name_the_key(overrides: object, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        validate_limit_overrides(overrides)


def test_good_overrides_pass_validation() -> None:
    assert validate_limit_overrides({"openai": {"max-tools": 200}}) == {"openai": {"max-tools": 200}}


def test_config_validates_target_limits(tmp_path) -> None:
    from schemalint.config import ConfigError, parse_config

    config = parse_config({"target-limits": {"openai": {"max-tools": 200}}}, tmp_path / "x.toml", tmp_path)
    assert limit("openai", "max-tools", config.settings).value == 200
    with pytest.raises(ConfigError, match=re.escape("target-limits.openai.max-toolz")):
        parse_config({"target-limits": {"openai": {"max-toolz": 200}}}, tmp_path / "x.toml", tmp_path)


def test_docs_list_every_limit_with_its_default() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "providers.md").read_text(encoding="utf-8")
    for row in TABLE:
        if row.kind is Kind.LIMIT:
            assert f"| `{row.target}` | `{row.key}` | {row.value:,} |" in docs, row

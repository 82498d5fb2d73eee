"""Precision first: a set of carefully designed tools must come out of every rule without a finding."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from schemalint.engine import LintOptions, lint
from schemalint.model import Dialect
from schemalint.rules import all_rules
from schemalint.rules.base import NodeRule, Rule, ToolRule, ToolSetRule
from schemalint.testing import run_rule

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "well_designed_tools.json"
CHECKING_RULES = [r for r in all_rules() if issubclass(r, (NodeRule, ToolRule, ToolSetRule))]


def well_designed_tools() -> list[dict[str, Any]]:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("rule", CHECKING_RULES, ids=lambda r: r.code)
def test_no_rule_fires_on_well_designed_tools(rule: type[Rule]) -> None:
    findings = run_rule(rule(), well_designed_tools(), Dialect.OPENAI_FUNCTIONS)
    assert findings == [], [f.message for f in findings]


def test_well_designed_tools_are_clean_through_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURE.parent)
    result = lint([FIXTURE.name], LintOptions(no_config=True))
    assert result.tool_count == len(well_designed_tools())
    assert [(d.code, d.message) for d in result.diagnostics] == []


def test_well_designed_mcp_tool_with_annotations_is_clean() -> None:
    tool = {
        "name": "delete_draft_reply",
        "description": (
            "Delete one unsent draft reply when the user asks to discard it. Not for sent messages; "
            "use archive_message for those."
        ),
        "annotations": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
        "parameters": {
            "type": "object",
            "properties": {
                "draft_id": {
                    "type": "string",
                    "pattern": "^d_[a-z0-9]{8}$",
                    "description": "Draft id, e.g. d_1a2b3c4d.",
                }
            },
            "required": ["draft_id"],
            "additionalProperties": False,
        },
    }
    sibling = {
        **tool,
        "name": "archive_message",
        "description": "Archive a sent message. Not for drafts; use delete_draft_reply.",
    }
    for rule in CHECKING_RULES:
        findings = run_rule(rule(), [tool, sibling], Dialect.MCP)
        assert findings == [], (rule.code, [f.message for f in findings])

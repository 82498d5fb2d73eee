"""The error-level security rules must stay silent on thousands of real tool definitions."""

from __future__ import annotations

from pathlib import Path

from schemalint.engine import LintOptions, lint
from schemalint.model import Severity

ERROR_RULES = ("SL308", "SL601", "SL602", "SL606")
CORPUS_PARTS = (
    "bfcl/all_unique.openai.json",
    "mcp-github/current",
    "tau-bench/all.openai_tools.json",
    "python-tools",
)


def test_no_security_errors_on_the_real_corpus(corpus: Path) -> None:
    paths = [str(corpus / part) for part in CORPUS_PARTS if (corpus / part).exists()]
    result = lint(paths, LintOptions(no_config=True, select=ERROR_RULES))
    assert result.tool_count > 3000
    errors = [d for d in result.diagnostics if d.severity is Severity.ERROR]
    assert errors == [], [(d.code, d.tool, d.message) for d in errors[:10]]

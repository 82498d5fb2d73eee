"""`json-summary`: one JSON object with the counts, the findings per rule and the scores, for dashboards
and gates (docs/json-output.md). The `json` format stays the list of findings."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from schemalint import __version__
from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.reporters._json_text import json_report

if TYPE_CHECKING:
    from schemalint.score import Scores

#: the version of this object's shape: fields may be added, never renamed or removed, within it
SUMMARY_VERSION = 1


def render(
    diagnostics: Sequence[Diagnostic],
    documents: Mapping[str, Document],
    color: bool = False,
    scores: Scores | None = None,
    files: int = 0,
) -> str | bytes:
    severities = Counter(d.severity for d in diagnostics)
    rules = Counter((d.code, d.slug) for d in diagnostics)
    summary: dict[str, Any] = {
        "schemalint_summary": SUMMARY_VERSION,
        "version": __version__,
        "files": files,
        "findings": {"total": len(diagnostics)} | {s.label: severities[s] for s in reversed(Severity)},
        "rules": [{"code": code, "slug": slug, "findings": n} for (code, slug), n in sorted(rules.items())],
        "score": None,
        "toolsets": [],
        "tools": [],
    }
    if scores is not None:
        summary |= scores.to_json()
    return json_report(summary)

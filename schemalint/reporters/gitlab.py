"""GitLab Code Quality report (the `codequality` artifact): a JSON array of issues.

Each issue has `description`, `check_name`, `fingerprint` (unique in the report, stable across line
shifts), `severity` (`info`, `minor`, `major`, `critical`, `blocker`) and `location.path` with
`location.lines.begin`/`end`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.diagnostics import Diagnostic
from schemalint.fingerprints import fingerprints
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.reporters import older_version
from schemalint.reporters._json_text import json_report

_SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str | bytes:
    issues: list[dict[str, Any]] = []
    for d, unique in zip(diagnostics, fingerprints(diagnostics, documents), strict=True):
        description = f"{d.code} {d.message}"
        path, begin, end = d.path, d.span.line, d.span.end_line
        older = older_version(d)
        if older is not None:  # GitLab shows the working-tree file: the issue sits on its first line
            description += older.note
            path, begin, end = older.path, 1, 1
        issues.append(
            {
                "type": "issue",
                "description": description,
                "check_name": f"{d.code} {d.slug}",
                "categories": ["Bug Risk" if d.severity is Severity.ERROR else "Style"],
                "fingerprint": unique,
                "severity": _SEVERITIES[d.severity],
                "location": {"path": path, "lines": {"begin": begin, "end": end}},
            }
        )
    return json_report(issues)

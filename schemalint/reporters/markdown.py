"""Markdown: a summary for a CI job page (GitHub's `$GITHUB_STEP_SUMMARY`), findings counted per rule and per file."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.reporters import severity_counts

if TYPE_CHECKING:
    from schemalint.score import Scores

_SEVERITIES = (Severity.ERROR, Severity.WARNING, Severity.INFO)
#: what GitHub-flavoured Markdown would read as markup or as the end of a table cell
_MARKUP = re.compile(r"([\\`*_{}\[\]<>()#+!|~-])")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _cell(text: str) -> str:
    """Plain text in a table cell: markup escaped, control characters (a file name may hold them) shown."""
    shown = _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)
    return _MARKUP.sub(r"\\\1", shown)


def render(
    diagnostics: Sequence[Diagnostic],
    documents: Mapping[str, Document],
    color: bool = False,
    scores: Scores | None = None,
    files: int = 0,
) -> str:
    checked = f"{files} file{'' if files == 1 else 's'}"
    lines = ["## schemalint", ""]
    if not diagnostics:
        score = f" Score {scores.score}/100." if scores is not None and scores.sets else ""
        return "\n".join([*lines, f"No findings in {checked}.{score}", ""])
    with_findings = len({d.path for d in diagnostics})
    lines += [f"**{severity_counts(diagnostics)}** in {with_findings} of {checked}.", ""]
    if scores is not None and scores.sets:
        lines += _score_lines(scores)

    lines += ["| rule | severity | findings |", "|---|---|--:|"]
    rules = Counter((d.code, d.slug, d.severity) for d in diagnostics)
    for (code, slug, severity), count in sorted(rules.items(), key=lambda item: (-item[0][2], -item[1], item[0][0])):
        lines.append(f"| {code} {_cell(slug)} | {severity.label} | {count} |")

    lines += ["", "| file | errors | warnings | infos |", "|---|--:|--:|--:|"]
    per_file: dict[str, Counter[Severity]] = {}
    for d in diagnostics:
        per_file.setdefault(d.path, Counter())[d.severity] += 1
    for path, counter in sorted(per_file.items(), key=lambda item: (-item[1][Severity.ERROR], item[0])):
        lines.append(f"| {_cell(path)} | " + " | ".join(str(counter[s]) for s in _SEVERITIES) + " |")
    return "\n".join([*lines, ""])


#: the lowest-scoring tools listed in the summary
_LOWEST_TOOLS = 10


def _score_lines(scores: Scores) -> list[str]:
    """The score, each tool set's, and the tools that score lowest (docs/score.md)."""
    lines = [f"**Score {scores.score}/100**", "", "| tool set | tools | score |", "|---|--:|--:|"]
    for toolset in sorted(scores.sets, key=lambda s: (s.score, s.name)):
        lines.append(f"| {_cell(toolset.name)} | {len(toolset.tools)} | {toolset.score} |")
    lowest = sorted((t for t in scores.tools if t.score < 100), key=lambda t: (t.score, t.path, t.pointer))
    if lowest:
        lines += ["", "| lowest-scoring tools | file | findings | score |", "|---|---|--:|--:|"]
        for tool in lowest[:_LOWEST_TOOLS]:
            lines.append(f"| {_cell(tool.name)} | {_cell(tool.path)} | {tool.findings} | {tool.score} |")
    return [*lines, ""]

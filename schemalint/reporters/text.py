"""Human output: `path:line:col: CODE [severity] message`, then the source line with a caret."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.reporters import severity_counts
from schemalint.reporters.terminal import printable, printable_excerpt

if TYPE_CHECKING:
    from schemalint.score import Scores

_COLORS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"
_MAX_EXCERPT = 160


def _shown(source: str) -> str:
    """Source text as the excerpt shows it: a tab as a space, a control character as its stand-in."""
    return printable_excerpt(source.replace("\t", " "))


def _excerpt(lines: list[str], diagnostic: Diagnostic, color: bool) -> list[str]:
    """The finding's line (`lines` as split at line feeds, each with its CR if any) and a caret under it."""
    line_no = diagnostic.span.line
    if not 1 <= line_no <= len(lines):
        return []
    line = lines[line_no - 1].rstrip("\r")
    start = max(diagnostic.span.column - 1, 0)
    shift = 0  # columns cut from the start of the line, less the ellipsis that stands for them
    if len(line) > _MAX_EXCERPT:  # keep the caret in view on minified JSON
        offset = max(0, min(start - 40, len(line) - _MAX_EXCERPT))
        # cut before the stand-ins (one column each): a minified file is one line, shown once per finding
        line = ("…" if offset else "") + _shown(line[offset : offset + _MAX_EXCERPT]) + "…"
        shift = offset - 1 if offset else 0
        start -= shift
    else:
        line = _shown(line)
    end = diagnostic.span.end_column - 1 - shift if diagnostic.span.end_line == line_no else len(line)
    width = max(1, min(end, len(line)) - start)
    gutter = f"{line_no:>5} | "
    caret = " " * (len(gutter) + start) + "^" + "~" * (width - 1)
    if color:
        caret = _COLORS[diagnostic.severity] + caret + _RESET
        gutter = _DIM + gutter + _RESET
    return [gutter + line, caret]


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str:
    out: list[str] = []
    lines_by_path: dict[str, list[str]] = {}
    for d in diagnostics:
        location = f"{printable(d.path)}:{d.span.line}:{d.span.column}:"
        severity = f"[{d.severity.label}]"
        if color:
            location = _BOLD + location + _RESET
            severity = _COLORS[d.severity] + severity + _RESET
        out.append(f"{location} {d.code} {severity} {printable(d.message)}")
        if d.path not in lines_by_path:
            document = documents.get(d.path)
            # CRs are stripped from the lines shown only: a large file has far more lines than findings
            lines_by_path[d.path] = document.text.split("\n") if document else []
        out.extend(_excerpt(lines_by_path[d.path], d, color))
    return "\n".join(out) + ("\n" if out else "")


def summary(diagnostics: Sequence[Diagnostic], files: int, fixable: int = 0, scores: Scores | None = None) -> str:
    if not diagnostics:
        text = f"All clear: {files} file(s) checked, no findings."
    else:
        text = f"Found {len(diagnostics)} finding(s) in {files} file(s): {severity_counts(diagnostics)}."
        if fixable:
            text += f" {fixable} fixable with --fix."
    if scores is not None and scores.sets:
        text += f" Score {scores.score}/100"
        lowest = scores.lowest()
        if len(scores.sets) > 1 and lowest is not None and lowest.score < scores.score:
            text += f" (lowest tool set: {printable(lowest.name)} {lowest.score})"
        text += "."
    return text

"""Output formats. Each reporter turns a list of diagnostics into text; none of them prints.

`write_reports` is the machinery every command that reports findings shares (`check`, `diff`):
a list of `OutputTarget`s (format + destination) built by `parse_output_targets` from the
`--output-format FORMAT[:FILE]` and `--output-file FILE` options.
"""

from __future__ import annotations

import importlib
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemalint import UserError
from schemalint.diagnostics import Diagnostic
from schemalint.gc_pause import paused_gc
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.paths import split_git_spec

if TYPE_CHECKING:
    from schemalint.score import Scores

FORMATS = ("text", "json", "sarif", "github", "gitlab", "junit", "markdown", "json-summary")
#: formats that summarise the run (their `render` takes `scores` and the number of `files` checked)
SUMMARY_FORMATS = frozenset({"markdown", "json-summary"})


@dataclass(frozen=True)
class OlderVersion:
    """Where a finding in a file as it was at a git revision (`REF:path`: a removed tool) is shown: the
    file in the working tree, whose lines are not the old version's, with a note saying where it was."""

    ref: str
    path: str
    note: str


def severity_counts(diagnostics: Sequence[Diagnostic]) -> str:
    """`2 errors, 1 warning`: the findings per severity, worst first, the severities without any left out."""
    counts = Counter(d.severity for d in diagnostics)
    return ", ".join(f"{counts[s]} {s.label}{'' if counts[s] == 1 else 's'}" for s in reversed(Severity) if counts[s])


def older_version(diagnostic: Diagnostic) -> OlderVersion | None:
    revision = split_git_spec(diagnostic.path)
    if revision is None:
        return None
    ref, path = revision
    return OlderVersion(ref, path, f" (at {diagnostic.path} line {diagnostic.span.line})")


class OutputError(UserError):
    """A bad --output-format / --output-file combination; the message says which."""


@dataclass(frozen=True)
class OutputTarget:
    format: str
    #: None: standard output
    path: Path | None = None


def parse_output_targets(formats: Sequence[str], output_file: str | None = None) -> list[OutputTarget]:
    """`--output-format` values (`FORMAT` or `FORMAT:FILE`, repeatable) and `--output-file FILE`.

    A format without its own `:FILE` goes to `--output-file` when given, else to standard output.
    Two formats may not share one destination. No format at all means `text`.
    """
    targets: list[OutputTarget] = []
    for value in formats or ("text",):
        name, separator, file_name = value.partition(":")
        name = name.strip().lower()
        if name not in FORMATS:
            raise OutputError(f"--output-format: unknown format `{name}` (known: {', '.join(FORMATS)})")
        if separator and not file_name:
            raise OutputError(f"--output-format {value}: the file name after `:` is empty")
        destination = file_name or output_file
        targets.append(OutputTarget(name, Path(destination) if destination else None))
    paths = [t.path for t in targets]
    for shared in set(paths):
        if paths.count(shared) > 1:
            where = "standard output" if shared is None else str(shared)
            raise OutputError(f"several output formats write to {where}: give each its own `FORMAT:FILE`")
    return targets


def write_reports(
    diagnostics: Sequence[Diagnostic],
    documents: Mapping[str, Document],
    targets: Sequence[OutputTarget],
    echo: Callable[[str | bytes], None],
    color: bool = False,
    docs_url: str = "",
    scores: Scores | None = None,
    files: int = 0,
) -> None:
    """Render every target; files are written (UTF-8), standard output goes through `echo` (as text, or as
    UTF-8 bytes for the reporters that give them). `docs_url` (the `docs-url` setting) is where SARIF's
    rule links point; `scores` and `files` go to the formats that summarise the run."""
    for target in targets:
        extra: dict[str, Any] = {}
        if target.format == "sarif":
            extra["docs_url"] = docs_url
        if target.format in SUMMARY_FORMATS:
            extra.update(scores=scores, files=files)
        reporter = importlib.import_module(f"schemalint.reporters.{target.format.replace('-', '_')}")
        with paused_gc():  # a reporter builds an object or a line per finding, all alive until written
            text = reporter.render(diagnostics, documents, color and target.path is None, **extra)
        if isinstance(text, bytes) and os.linesep != "\n":  # written as text, whose lines end in CRLF there
            text = text.decode()
        if target.path is None:
            echo(text)
            continue
        try:
            if target.path.parent != Path():
                target.path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                target.path.write_bytes(text)
            else:
                target.path.write_text(text, encoding="utf-8", errors="backslashreplace")  # as on stdout
        except OSError as error:
            raise OutputError(f"cannot write {target.path}: {error.strerror or error}") from None

"""GitHub Actions workflow commands: one annotation per finding on the pull request's diff.

Syntax (docs.github.com, "Workflow commands for GitHub Actions"):
`::error file={path},line={l},col={c},endLine={l},endColumn={c},title={code}::{message}`, with `notice`
for info findings. In the message `%`, CR and LF are escaped as `%25`, `%0D`, `%0A`; in property
values `:` and `,` are escaped too (`%3A`, `%2C`). Other control characters, which the log would pass to
the terminal that shows it, are written as `\\xNN`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from schemalint.diagnostics import Diagnostic
from schemalint.loaders import Document
from schemalint.model import Severity
from schemalint.reporters.terminal import printable

_COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(diagnostics: Sequence[Diagnostic], documents: Mapping[str, Document], color: bool = False) -> str:
    lines = []
    for d in diagnostics:
        span = d.span
        properties = ",".join(
            f"{name}={escape_property(str(value))}"
            for name, value in (
                ("file", d.path),
                ("line", span.line),
                ("col", span.column),
                ("endLine", span.end_line),
                ("endColumn", span.end_column),
                ("title", d.code),
            )
        )
        lines.append(f"::{_COMMANDS[d.severity]} {properties}::{escape_data(f'{d.message} ({d.slug})')}")
    return "".join(line + "\n" for line in lines)

"""What rules produce (Finding) and what reporters consume (Diagnostic).

A rule says *what* is wrong and *where* as a JSON pointer; the engine turns the pointer into a
source span and applies the configured severity. Rules never compute positions or severities.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from schemalint.model import JSON, Severity, Span


@dataclass(frozen=True)
class PatchOperation:
    """One RFC 6902 JSON Patch operation (add, replace or remove) on the source document."""

    op: Literal["add", "replace", "remove"]
    path: str
    value: JSON = None


@dataclass(frozen=True)
class Fix:
    """An edit that resolves a finding. `safe` fixes keep the meaning; unsafe ones may change it."""

    title: str
    operations: tuple[PatchOperation, ...]
    safe: bool = True


@dataclass
class Finding:
    """What a rule yields: a message about the thing at `pointer` in the tool's document.

    `key=True` points at the key of that member (e.g. the property name) rather than its value.
    `severity` overrides the rule's default only where the rule's docs say so (e.g. SL303 under strict).
    """

    message: str
    pointer: str
    key: bool = False
    severity: Severity | None = None
    data: dict[str, Any] = field(default_factory=dict)
    fix: Fix | None = None


@dataclass
class Diagnostic:
    """A finding placed in a file, ready for a reporter."""

    code: str
    slug: str
    severity: Severity
    message: str
    path: str
    span: Span
    pointer: str
    tool: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    fix: Fix | None = None

    def sort_key(self) -> tuple[Any, ...]:
        return (self.path, self.span.line, self.span.column, self.code, self.pointer, self.message)

    def to_json(self) -> dict[str, Any]:
        """The documented, stable JSON form (see docs/json-output.md)."""
        span = self.span
        return {
            "code": self.code,
            "slug": self.slug,
            "severity": self.severity.label,
            "message": self.message,
            "path": self.path,
            "line": span.line,
            "column": span.column,
            "end_line": span.end_line,
            "end_column": span.end_column,
            "pointer": self.pointer,
            "tool": self.tool,
            "data": self.data,
            "fix": None if self.fix is None else _fix_json(self.fix),
        }


def _fix_json(fix: Fix) -> dict[str, Any]:
    """A fix in the JSON form (a `remove` operation has no value): a dict built whole, not merged from two."""
    operations = [
        {"op": o.op, "path": o.path} if o.op == "remove" else {"op": o.op, "path": o.path, "value": o.value}
        for o in fix.operations
    ]
    return {"title": fix.title, "safe": fix.safe, "operations": operations}

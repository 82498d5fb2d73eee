"""Shared plumbing of the provider-compatibility rules (SL103, SL107, SL208, SL401-SL404).

Not a rule module (the registry only loads `sl<NNN>_*` modules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.providers import BASE_TARGET, TARGETS, Kind, Limit, compiled, label, limit, rows_for
from schemalint.rules.base import LintContext
from schemalint.targets import finding_severity


def ordered_targets(tool: Tool, context: LintContext) -> tuple[str, ...]:
    """The tool's targets in the fixed order of TARGETS (stable messages and output)."""
    return _ordered(context.targets(tool))


@cache
def _ordered(targets: frozenset[str]) -> tuple[str, ...]:
    return (*(t for t in TARGETS if t in targets), *sorted(t for t in targets if t not in TARGETS))


def without_inherited(targets: list[str]) -> list[str]:
    """Drop a strict variant whose base target is also present, for checks that only have base rows
    (names, description length): `openai` and `openai-strict` would otherwise say the same thing twice."""
    return [t for t in targets if BASE_TARGET.get(t) not in targets]


def base_targets(tool: Tool, context: LintContext) -> tuple[str, ...]:
    """`without_inherited(ordered_targets(tool, context))`, computed once per set of targets (the
    name rules ask it for every property)."""
    return _base_targets(context.targets(tool))


@cache
def _base_targets(targets: frozenset[str]) -> tuple[str, ...]:
    return tuple(without_inherited(list(_ordered(targets))))


@dataclass(frozen=True)
class Violation:
    """One target's objection to one thing, before it is grouped into a finding."""

    target: str
    reason: str
    severity: Severity
    source: str


def name_violations(
    name: str, tool: Tool, target: str, subject: str, length_limit: str, settings: Mapping[str, Any]
) -> list[Violation]:
    """Why `name` breaks `target`'s rule for `subject` (`tool-name`, `property-name`, ...)."""
    if settings and settings.get("target-limits"):
        objections = _objections(name, target, subject, limit(target, length_limit, settings))
    else:
        objections = _table_objections(name, target, subject, length_limit)
    return [
        Violation(target, reason, finding_severity(tool, target, severity), source)
        for reason, severity, source in objections
    ]


def _objections(name: str, target: str, subject: str, bound: Limit | None) -> tuple[tuple[str, Severity, str], ...]:
    """(reason, severity before the tool's cap, source) of each name rule and length `bound` that `name` breaks."""
    found = [
        (f"{row.fix} (`{row.value}`)", row.severity, row.source)
        for row in rows_for(target, Kind.NAME)
        if row.key == subject and not compiled(row.value).match(name)
    ]
    if bound is not None and len(name) > bound.value:
        found.append((f"at most {bound.value} characters, not {len(name)}", bound.severity, bound.source))
    return tuple(found)


@lru_cache(maxsize=8192)
def _table_objections(name: str, target: str, subject: str, length_limit: str) -> tuple[tuple[str, Severity, str], ...]:
    """`_objections` under the table's own limits (no `target-limits` in the config), cached: the same
    property names recur in every tool."""
    return _objections(name, target, subject, limit(target, length_limit))


def describe(violations: Iterable[Violation]) -> str:
    """`OpenAI (reason; reason), Gemini (reason)`: one clause per target, in order."""
    by_target: dict[str, list[str]] = {}
    for v in violations:
        by_target.setdefault(v.target, []).append(v.reason)
    # name and length rules are the base provider's, whatever its strictness: say "OpenAI", not "OpenAI strict mode"
    return ", ".join(f"{label(BASE_TARGET.get(t, t))}: {'; '.join(reasons)}" for t, reasons in by_target.items())


def worst(violations: Iterable[Violation]) -> Severity:
    return max(v.severity for v in violations)


_NOT_PORTABLE = re.compile(r"[^A-Za-z0-9_-]")
_NOT_PORTABLE_KEY = re.compile(r"[^A-Za-z0-9_]")


def portable_name(name: str, max_length: int = 64, *, allow_dash: bool = True) -> str:
    """A name every target accepts: letters, digits, `_` (and `-`), starting with a letter or `_`."""
    fixed = (_NOT_PORTABLE if allow_dash else _NOT_PORTABLE_KEY).sub("_", name) or "_"
    if not (fixed[0].isalpha() or fixed[0] == "_"):
        fixed = "_" + fixed
    return fixed[:max_length]


@cache
def _length_limit(subject: str) -> str:
    """The limit on the length of a `subject` (`max-property-name-length` for nested ones too)."""
    return f"max-{subject.removeprefix('nested-')}-length"


@lru_cache(maxsize=8192)
def _accepted_by_tables(name: str, targets: frozenset[str], subject: str) -> bool:
    """Whether every base target accepts `name` as a `subject` under the table's own limits: one cached
    answer per name and set of targets, asked of every property (names recur across tools)."""
    length_limit = _length_limit(subject)
    return not any(_table_objections(name, target, subject, length_limit) for target in _base_targets(targets))


def name_finding(
    what: str, name: str, tool: Tool, context: LintContext, subject: str, pointer: str, *, allow_dash: bool
) -> Finding | None:
    """The SL103/SL107 finding for `name` (a tool name or property key), or None when every target accepts it."""
    if not context.settings.get("target-limits") and _accepted_by_tables(name, context.targets(tool), subject):
        return None  # the common case, without a Violation list per target
    targets = base_targets(tool, context)
    length_limit = _length_limit(subject)
    violations = [
        v for target in targets for v in name_violations(name, tool, target, subject, length_limit, context.settings)
    ]
    if not violations:
        return None
    suggestion = portable_name(name, allow_dash=allow_dash)
    return Finding(
        f"{what} `{name}` is invalid for {describe(violations)}; rename it, e.g. `{suggestion}`",
        pointer,
        severity=worst(violations),
        data={"targets": list(dict.fromkeys(v.target for v in violations)), "suggestion": suggestion},
    )

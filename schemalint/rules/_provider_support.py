"""Shared plumbing of the provider-compatibility rules (SL103, SL107, SL208, SL401-SL404).

Not a rule module (the registry only loads `sl<NNN>_*` modules).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.lazy_pattern import LazyPattern
from schemalint.model import Severity, Tool
from schemalint.providers import BASE_TARGET, TARGETS, Kind, label, limit, rows_for
from schemalint.rules.base import LintContext
from schemalint.targets import finding_severity


@cache
def ordered_targets(targets: frozenset[str]) -> tuple[str, ...]:
    """The targets in the fixed order of TARGETS (stable messages and output)."""
    return (*(t for t in TARGETS if t in targets), *sorted(t for t in targets if t not in TARGETS))


@cache
def base_targets(targets: frozenset[str]) -> tuple[str, ...]:
    """The targets in order, without a strict variant whose base target is also there, for checks that
    only have base rows (names, description length): `openai` and `openai-strict` would otherwise say
    the same thing twice."""
    ordered = ordered_targets(targets)
    return tuple(t for t in ordered if BASE_TARGET.get(t) not in ordered)


_NOT_PORTABLE = LazyPattern(r"[^A-Za-z0-9_-]")
_NOT_PORTABLE_KEY = LazyPattern(r"[^A-Za-z0-9_]")


def portable_name(name: str, max_length: int = 64, *, allow_dash: bool = True) -> str:
    """A name every target accepts: letters, digits, `_` (and `-`), starting with a letter or `_`."""
    fixed = (_NOT_PORTABLE if allow_dash else _NOT_PORTABLE_KEY).sub("_", name) or "_"
    if not (fixed[0].isalpha() or fixed[0] == "_"):
        fixed = "_" + fixed
    return fixed[:max_length]


def name_finding(
    what: str, name: str, tool: Tool, context: LintContext, subject: str, pointer: str, *, allow_dash: bool
) -> Finding | None:
    """The SL103/SL107 finding for `name` (a tool name or property key), or None when every target accepts it."""
    if context.settings.get("target-limits"):
        objections = _objections(name, base_targets(context.targets(tool)), subject, context.settings)
    else:  # the common case: one cached answer per name, set of targets and subject (names recur across tools)
        objections = _table_objections(name, context.targets(tool), subject)
    if not objections:
        return None
    reasons: dict[str, list[str]] = {}
    for target, reason, _ in objections:
        reasons.setdefault(target, []).append(reason)
    # name and length rules are the base provider's, whatever its strictness: say "OpenAI", not "OpenAI strict mode"
    described = ", ".join(f"{label(BASE_TARGET.get(t, t))}: {'; '.join(listed)}" for t, listed in reasons.items())
    suggestion = portable_name(name, allow_dash=allow_dash)
    return Finding(
        f"{what} `{name}` is invalid for {described}; rename it, e.g. `{suggestion}`",
        pointer,
        severity=max(finding_severity(tool, target, severity) for target, _, severity in objections),
        data={"targets": list(reasons), "suggestion": suggestion},
    )


def _objections(
    name: str, targets: Iterable[str], subject: str, settings: Mapping[str, Any] | None
) -> tuple[tuple[str, str, Severity], ...]:
    """(target, reason, severity before the tool's cap) of each name rule and length limit that `name`
    breaks as a `subject` (`tool-name`, `property-name`, ...)."""
    length_limit = f"max-{subject.removeprefix('nested-')}-length"
    found: list[tuple[str, str, Severity]] = []
    for target in targets:
        found.extend(
            (target, f"{row.fix} (`{row.value}`)", row.severity)
            for row in rows_for(target, Kind.NAME)
            if row.key == subject and not re.match(row.value, name)
        )
        bound = limit(target, length_limit, settings)
        if bound is not None and len(name) > bound.value:
            found.append((target, f"at most {bound.value} characters, not {len(name)}", bound.severity))
    return tuple(found)


@lru_cache(maxsize=8192)
def _table_objections(name: str, targets: frozenset[str], subject: str) -> tuple[tuple[str, str, Severity], ...]:
    """`_objections` under the table's own limits (no `target-limits` in the config)."""
    return _objections(name, base_targets(targets), subject, None)

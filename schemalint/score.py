"""A 0-100 score per tool, per tool set and for the run, from the findings (docs/score.md).

A tool starts at 100 and loses, for each rule that reports on it, the weight of the rule's worst
severity times the rule's weight, plus half of that for each further finding of the rule on the tool
(up to four more). A set scores the mean of its tools, less what the set-wide rules (SL501, SL503)
and findings outside any tool cost; a file that could not be read (SL002) is a set that scores 0.
The run scores the mean of its sets, each counted as many times as it has tools.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from schemalint.diagnostics import Diagnostic
from schemalint.model import Severity, pointer_owner

SEVERITY_WEIGHTS = {Severity.ERROR: 25.0, Severity.WARNING: 5.0, Severity.INFO: 1.0}
#: rules whose weight is not 1: security findings count double; findings about files, suppressions, how a
#: Python tool was read and changes between versions are not about the definitions' quality
RULE_WEIGHTS = {
    **{code: 2.0 for code in ("SL601", "SL602", "SL603", "SL604", "SL605", "SL606")},
    **{code: 0.0 for code in ("SL001", "SL003", "SL004")},
}
#: change rules (SL9xx) weigh nothing
CHANGE_PREFIX = "SL9"
#: rules about the set as a whole, though their findings point at one of its tools
SET_RULES = frozenset({"SL501", "SL503"})
#: findings of one rule on one tool beyond the first that still cost (half each)
MAX_REPEATS = 4


def rule_weight(code: str) -> float:
    return 0.0 if code.startswith(CHANGE_PREFIX) else RULE_WEIGHTS.get(code, 1.0)


def penalty(diagnostics: Iterable[Diagnostic]) -> float:
    """What the findings cost, rule by rule: the worst severity's weight, then half of it per repeat."""
    by_rule: dict[str, list[Severity]] = defaultdict(list)
    for diagnostic in diagnostics:
        by_rule[diagnostic.code].append(diagnostic.severity)
    return sum(
        SEVERITY_WEIGHTS[max(severities)] * rule_weight(code) * (1 + min(len(severities) - 1, MAX_REPEATS) / 2)
        for code, severities in by_rule.items()
    )


def _bounded(value: float) -> int:
    """0-100, rounded down: only a tool without a finding that costs scores 100."""
    return max(0, min(100, math.floor(value + 1e-9)))


@dataclass(frozen=True)
class ToolScore:
    name: str
    path: str
    pointer: str
    score: int
    findings: int


@dataclass(frozen=True)
class SetScore:
    name: str
    score: int
    tools: tuple[ToolScore, ...]
    #: what the set-wide findings cost
    set_penalty: float = 0.0


@dataclass(frozen=True)
class Scores:
    score: int
    sets: tuple[SetScore, ...] = field(default_factory=tuple)

    @property
    def tools(self) -> list[ToolScore]:
        return [tool for toolset in self.sets for tool in toolset.tools]

    def lowest(self) -> SetScore | None:
        return min(self.sets, key=lambda s: (s.score, s.name), default=None)

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score,
            "toolsets": [
                {"name": s.name, "score": s.score, "tools": len(s.tools), "set_penalty": s.set_penalty}
                for s in self.sets
            ],
            "tools": [
                {"name": t.name, "path": t.path, "pointer": t.pointer, "toolset": s.name, "score": t.score}
                | {"findings": t.findings}
                for s in self.sets
                for t in s.tools
            ],
        }


def score(sources: Sequence[Any], diagnostics: Sequence[Diagnostic]) -> Scores:
    """The scores of the tools in `sources` (the engine's SourceResults) given the reported `diagnostics`."""
    from schemalint.engine import group_toolsets

    by_path: dict[str, list[Diagnostic]] = defaultdict(list)
    for diagnostic in diagnostics:
        by_path[diagnostic.path].append(diagnostic)
    sets: list[tuple[SetScore, int]] = []
    for toolset, members in group_toolsets(sources):
        owners: dict[str, dict[str, Any]] = defaultdict(dict)
        for tool in toolset.tools:
            owners[tool.path][tool.pointer] = tool
        per_tool: dict[int, list[Diagnostic]] = defaultdict(list)
        set_wide: list[Diagnostic] = []
        for source in members:
            in_file = owners[source.path]
            for diagnostic in by_path.get(source.path, ()):
                owner = None if diagnostic.code in SET_RULES else pointer_owner(diagnostic.pointer, in_file)
                (per_tool[id(owner)] if owner is not None else set_wide).append(diagnostic)
        tools = tuple(_tool_score(tool, per_tool.get(id(tool), [])) for tool in toolset.tools)
        set_penalty = penalty(set_wide)
        mean = sum(t.score for t in tools) / len(tools)
        sets.append((SetScore(toolset.name, _bounded(mean - set_penalty), tools, set_penalty), len(tools)))
    unreadable = sorted({d.path for d in diagnostics if d.code == "SL002"})
    sets += [(SetScore(path, 0, ()), 1) for path in unreadable]
    if not sets:
        return Scores(100)
    total = sum(s.score * weight for s, weight in sets) / sum(weight for _, weight in sets)
    return Scores(_bounded(total), tuple(s for s, _ in sets))


def _tool_score(tool: Any, found: list[Diagnostic]) -> ToolScore:
    value = _bounded(100 - penalty(found)) if found else 100
    return ToolScore(tool.display_name, tool.path, tool.pointer, value, len(found))

"""Helpers for testing one rule without files: build tools from plain dicts and run the rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from schemalint.diagnostics import Finding
from schemalint.model import Dialect, Tool, ToolSet
from schemalint.rules.base import LintContext, NodeDispatch, NodeRule, Rule, ToolRule, ToolSetRule
from schemalint.targets import resolve_targets


def make_tool(
    definition: Mapping[str, Any], index: int = 0, dialect: Dialect = Dialect.GENERIC, path: str = "<test>"
) -> Tool:
    """A Tool from `{name, description, parameters, strict?, annotations?, outputSchema?, title?}`."""
    pointer = f"/{index}"
    return Tool(
        name=definition.get("name"),
        description=definition.get("description"),
        parameters=definition.get("parameters"),
        dialect=dialect,
        path=path,
        pointer=pointer,
        parameters_pointer=f"{pointer}/parameters" if "parameters" in definition else None,
        name_pointer=f"{pointer}/name",
        description_pointer=f"{pointer}/description",
        output_schema=definition.get("outputSchema"),
        output_pointer=f"{pointer}/outputSchema" if "outputSchema" in definition else None,
        annotations=definition.get("annotations"),
        annotations_pointer=f"{pointer}/annotations" if "annotations" in definition else None,
        strict=definition.get("strict"),
        title=definition.get("title"),
        index=index,
    )


def run_rule(
    rule: Rule,
    definitions: Sequence[Mapping[str, Any]],
    dialect: Dialect = Dialect.GENERIC,
    targets: Sequence[str] = (),
    settings: Mapping[str, Any] | None = None,
) -> list[Finding]:
    """Run one rule over a tool set built from `definitions`, as the engine would."""
    tools = [make_tool(d, i, dialect) for i, d in enumerate(definitions)]
    context = LintContext({id(t): resolve_targets(t, targets) for t in tools}, settings)
    findings: list[Finding] = []
    if isinstance(rule, ToolSetRule):
        findings.extend(rule.check(ToolSet("<test>", tools), context))
    for tool in tools:
        if isinstance(rule, ToolRule):
            findings.extend(rule.check(tool, context))
        elif isinstance(rule, NodeRule):
            findings.extend(node_findings(rule, tool, context))
    return findings


def node_findings(rule: NodeRule, tool: Tool, context: LintContext) -> list[Finding]:
    """`rule` on each node of `tool` that it applies to, as the engine calls it."""
    dispatch = NodeDispatch([rule])
    targets = context.targets(tool)
    return [
        f for node in tool.schema_nodes() for r in dispatch.rules_for(node, targets) for f in r.check(node, context)
    ]

from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.providers import BASE_TARGET, label, limit
from schemalint.rules._provider_support import base_targets
from schemalint.rules.base import LintContext, ToolRule, rule_options
from schemalint.targets import finding_severity


@rule_options
class Options:
    max_length: int | None = None
    """Your own budget for a tool description, in characters; None: only the targets' limits."""


class DescriptionTooLong(ToolRule):
    """
    ## What it does
    Flags a tool description longer than a target's limit (OpenAI: 1024 characters, observed from
    2024-11 to 2025-04; the current status is uncertain) or than your own `max-length` budget.
    Length is counted in characters (code points), as the providers count it.

    ## Why is this bad?
    Over the provider's limit the request may be rejected (`string_above_max_length`). Under it, a
    very long description still costs tokens on every request, for every tool, and buries the
    sentence that says when to use the tool.

    ## Example
    A 1,500-character description that repeats the parameter documentation.

    ## Use instead
    Keep the description to what the tool does, when (not) to use it and what it returns; move
    parameter detail into the parameters' own descriptions.

    ## Options
    Per-target limits come from `schemalint/providers.py` and can be changed with `target-limits`
    (`max-description-length`).

    ## Trade-off
    A warning, not an error, even over OpenAI's limit: the limit is not documented and has been
    seen enforced only for a period. On an MCP tool the finding is a warning like every provider
    objection.

    ## Fix safety
    No automatic fix: only a person can decide what to cut.
    """

    severity = Severity.WARNING
    summary = "the tool description is over a target's limit or the configured budget"
    Options = Options

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        description = tool.description
        if not isinstance(description, str):
            return
        length = len(description)
        pointer = tool.description_pointer or tool.pointer
        over: list[str] = []
        severity = Severity.INFO
        for target in base_targets(context.targets(tool)):
            bound = limit(target, "max-description-length", context.settings)
            if bound is not None and length > bound.value:
                over.append(f"{label(BASE_TARGET.get(target, target))} allows {bound.value}")
                severity = max(severity, finding_severity(tool, target, min(bound.severity, self.severity)))
        budget = self.options.max_length
        if budget is not None and length > budget:
            over.append(f"the configured budget (`max-length`) is {budget}")
            severity = max(severity, self.severity)
        if not over:
            return
        yield Finding(
            f"tool description is {length} characters; {', '.join(over)}: shorten it and move parameter "
            "detail into the parameter descriptions",
            pointer,
            severity=severity,
            data={"length": length},
        )

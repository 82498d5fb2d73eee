from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool, join_pointer
from schemalint.rules.base import LintContext, ToolRule, rule_options


@rule_options
class Options:
    max_parameters: int = 10
    """How many top-level parameters a tool may take."""


class TooManyParameters(ToolRule):
    """
    ## What it does
    Flags a tool with more than `max-parameters` top-level parameters.

    ## Why is this bad?
    Every extra parameter is one more thing the model can fill wrongly or leave out, and a long
    parameter list usually means the tool does several jobs. Selection and argument accuracy both
    drop as tools grow.

    ## Example
    A `manage_order` tool with 18 parameters covering create, update and cancel.

    ## Use instead
    Split by job (`create_order`, `update_order_address`, `cancel_order`), or group rarely used
    options behind sensible defaults.

    ## Trade-off
    Only top-level properties count; nested objects are SL301's concern.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "more than max-parameters (default 10) top-level parameters"
    Options = Options

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        parameters = tool.parameters
        if tool.parameters_pointer is None or not isinstance(parameters, dict):
            return
        properties = parameters.get("properties")
        if not isinstance(properties, dict) or len(properties) <= self.options.max_parameters:
            return
        yield Finding(
            f"`{tool.display_name}` takes {len(properties)} parameters (max-parameters is "
            f"{self.options.max_parameters}); split the tool or drop rarely used options",
            join_pointer(tool.parameters_pointer, "properties"),
            key=True,
            data={"count": len(properties), "max_parameters": self.options.max_parameters},
        )

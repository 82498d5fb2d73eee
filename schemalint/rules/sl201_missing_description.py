from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool
from schemalint.rules.base import LintContext, ToolRule


class MissingDescription(ToolRule):
    """
    ## What it does
    Flags a tool with no description, or one that is empty or only white space.

    ## Why is this bad?
    The description is the main thing the model reads to decide whether to call a tool. Without
    it the model guesses from the name, and picks the wrong tool or none.

    ## Example
    ```json
    {"name": "refund_order", "parameters": {"type": "object"}}
    ```

    ## Use instead
    ```json
    {"name": "refund_order",
     "description": "Refund a delivered order in full. Use only after the customer confirmed; not for partial refunds (use refund_items).",
     "parameters": {"type": "object"}}
    ```

    ## Fix safety
    No automatic fix: only you know what the tool is for.
    """

    severity = Severity.ERROR
    summary = "tool has no description"

    def check(self, tool: Tool, context: LintContext) -> Iterable[Finding]:
        if tool.description is None or not tool.description.strip():
            yield Finding(
                f"tool `{tool.display_name}` has no description; say what it does, when to use it and when not",
                tool.description_pointer or tool.name_pointer or tool.pointer,
            )

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule
from schemalint.text import name_style


class InconsistentNamingStyle(ToolSetRule):
    """
    ## What it does
    Flags tool names whose style (snake_case, camelCase, PascalCase, kebab-case) differs from the
    style most tools in the set use, and names that mix styles themselves (`get_orderId`).
    Single-word names fit every style; a dotted namespace (`math.factorial`) is ignored.

    ## Why is this bad?
    Models pattern-match names. In a set where most tools are `get_order`, a lone `cancelOrder`
    is easier to miss or to misspell as `cancel_order` when the model calls it.

    ## Example
    ```json
    [{"name": "get_order"}, {"name": "list_orders"}, {"name": "cancelOrder"}]
    ```

    ## Use instead
    One style for the whole set:
    ```json
    [{"name": "get_order"}, {"name": "list_orders"}, {"name": "cancel_order"}]
    ```

    ## Options
    None.

    ## Trade-off
    The majority style wins; on a tie, the style of the first tool does. Tools are flagged, not the
    set, so the finding points at the names to change.

    ## Fix safety
    No automatic fix: renaming a tool breaks callers.
    """

    severity = Severity.INFO
    summary = "snake_case, camelCase and kebab-case tool names mixed within one set"

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        styled = [(tool, name_style(tool.name)) for tool in toolset.tools if tool.name]
        counts = Counter(style for _, style in styled if style not in (None, "mixed"))
        if not counts and not any(style == "mixed" for _, style in styled):
            return
        first_seen = [style for _, style in styled if style in counts]
        dominant = max(counts, key=lambda s: (counts[s], -first_seen.index(s))) if counts else None
        for tool, style in styled:
            if style is None or style == dominant or tool.name_pointer is None:
                continue
            if style == "mixed":
                message = f"tool name `{tool.name}` mixes naming styles within itself"
            else:
                users = counts[dominant or ""]
                message = f"tool name `{tool.name}` is {style} while {users} tool(s) in this set use {dominant}"
            yield Finding(message, tool.name_pointer, data={"name": tool.name, "style": style, "dominant": dominant})

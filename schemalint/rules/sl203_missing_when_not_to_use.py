from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule, rule_options
from schemalint.text import analysed, has_boundary_text


@rule_options
class Options:
    min_tools: int = 2
    """Only check sets with at least this many tools (a lone tool has no sibling to be confused with)."""


class MissingWhenNotToUse(ToolSetRule):
    """
    ## What it does
    Flags a tool whose description never says when *not* to use it. Boundary text is recognised in
    English and Chinese: "do not use for...", "not for...", "use `list_orders` instead", "only
    for...", "不要用于", "何时不用", "请用...", "仅用于", "而不是".

    ## Why is this bad?
    Two tools that can both answer a request are the most common cause of the model picking the
    wrong one. Saying what a tool is *not* for draws the line between siblings far better than a
    longer account of what it does.

    ## Example
    ```json
    [{"name": "web_search", "description": "Search the web for information."},
     {"name": "kb_search", "description": "Search the company knowledge base."}]
    ```

    ## Use instead
    ```json
    [{"name": "web_search", "description": "Search the web for current, public information. Do not use for internal policies; use kb_search."},
     {"name": "kb_search", "description": "Search the internal knowledge base. Not for news, prices or other live data."}]
    ```

    ## Trade-off
    A lone tool has no sibling to be confused with, so by default single-tool sets are skipped.
    Only the description of the tool itself is read: boundary text in a parameter description
    does not count. Tools without a description are SL201's finding.

    ## Fix safety
    No automatic fix: only a person knows where the boundaries are.
    """

    severity = Severity.WARNING
    summary = "the description never says when not to use the tool"
    Options = Options

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        if len(toolset.tools) < self.options.min_tools:
            return
        for tool in toolset.tools:
            text = analysed(tool.description).strip()
            if text and tool.description_pointer is not None and not has_boundary_text(text):
                yield Finding(
                    f"description of `{tool.display_name}` never says when not to use it; add a boundary such as "
                    '"Do not use for ...; use <other_tool> instead"',
                    tool.description_pointer,
                    data={"tool": tool.name},
                )

from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ToolOrderChanged(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: the tools present in both versions come in a different order.
    One finding, at the first moved tool (the tools outside the longest run kept in order); `data`
    has the `old` and `new` order and the `moved` tools.

    ## Why is this bad?
    Providers cache the prompt by prefix, and the tool definitions come first. Reordering them
    changes the prefix of every request, so the cache misses: higher latency and cost until it
    warms up again, for no functional gain. Adding a tool at the end keeps the cache for the rest.
    The set's `tools_hash` (`schemalint hash`) changes too, so logged calls no longer match it.

    ## Example
    `[get_issue, list_issues]` becomes `[list_issues, get_issue]`.

    ## Use instead
    Keep a stable order (append new tools at the end; sort once, then never again).

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "breaks the prompt cache"

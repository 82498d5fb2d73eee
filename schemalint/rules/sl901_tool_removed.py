from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ToolRemoved(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff` and `check --against`: a tool present in the old version is gone
    from the new one, and no added tool has a near-identical schema (that would be SL902, a rename).
    The finding points at the tool's name in the old file.

    ## Why is this bad?
    Every caller that still offers or calls the tool breaks: stored conversations, agents with a
    pinned tool list, evals and few-shot examples that name it. An MCP client with the tool
    allow-listed fails at call time.

    ## Example
    Old `tools.json` defines `get_order` and `cancel_order`; the new one only `get_order`.

    ## Use instead
    Deprecate first: keep the tool, say "deprecated: use X instead" in its description, and remove
    it in a release that announces the break.

    ## Fix safety
    No automatic fix: only the author knows whether the removal is intended.
    """

    severity = Severity.ERROR
    summary = "a tool disappeared"

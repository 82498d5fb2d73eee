from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class AnnotationsChanged(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: an MCP tool's `annotations` changed. Error when the tool stopped
    being read-only (`readOnlyHint` no longer true) or became destructive (with MCP's defaults: a tool
    that is not read-only is destructive unless `destructiveHint: false`); warning for any other
    change (`idempotentHint`, `openWorldHint`, `title`). `data` has `old`, `new` and `changed` keys.

    ## Why is this bad?
    Clients use the hints to decide what to run without asking the user. A tool that starts writing
    or deleting while clients still treat it as read-only runs unattended.

    ## Example
    `"annotations": {"readOnlyHint": false}` where the old version said `true`.

    ## Use instead
    Announce the change; prefer a new tool for the destructive behaviour.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "e.g. became destructive, stopped being read-only (E)"

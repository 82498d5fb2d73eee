from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class OutputSchemaNarrowed(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: an MCP `outputSchema` changed in a way that breaks what callers
    read. The direction is the reverse of parameters: a field removed (pointed at in the old file),
    a field no longer `required`, a type that now allows more (`integer` -> `number`, nullable added),
    or the whole output schema removed: errors. An `enum` that gained values (or was dropped) is a
    warning: callers that switch over the values may break. Adding fields or narrowing a type is
    safe and not reported.

    ## Why is this bad?
    Clients and agents parse `structuredContent` by this schema; a field they read disappears or
    arrives in a shape they do not expect.

    ## Example
    The old output had `properties.html_url`; the new one does not.

    ## Use instead
    Keep old fields (deprecated) while adding new ones; only ever widen what callers may send and
    narrow what you return.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "MCP outputSchema lost a field or changed a type (consumers break)"

from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class EnumValueAdded(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: an input parameter's `enum` gained values. `data` has `added`.

    ## Why is this bad?
    Usually it is not: every old call is still valid. It is reported so reviewers see that the model
    may start sending the new value (make sure the server handles it). In an MCP `outputSchema` the
    same change can break callers that switch over the values; that is SL915.

    ## Example
    `"enum": ["open", "closed", "all"]` where the old schema had `["open", "closed"]`.

    ## Use instead
    Nothing to change; describe the new value in the parameter description.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.INFO
    summary = "usually safe"

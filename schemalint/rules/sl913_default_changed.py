from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class DefaultChanged(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a parameter's `default` was added, removed or changed.

    ## Why is this bad?
    Calls that omit the parameter now mean something else (a page size of 30 instead of 100, `state`
    `all` instead of `open`), and the model, which reads the default, decides differently whether to
    fill it. No schema validator notices.

    ## Example
    `"default": 30` where the old schema had `"default": 100`.

    ## Use instead
    Change defaults deliberately: note it in the changelog and re-run the evals.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "behaviour change"

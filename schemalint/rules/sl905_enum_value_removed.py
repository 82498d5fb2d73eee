from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class EnumValueRemoved(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: an input parameter's `enum` (or `const`) lost one or more values.
    `data` has `removed`, `old` and `new`.

    ## Why is this bad?
    Calls that send a removed value are rejected; prompts, examples and evals that use it go stale.

    ## Example
    `"enum": ["open", "closed"]` where the old schema had `["open", "closed", "all"]`.

    ## Use instead
    Keep accepting the value (map it to its replacement on the server) and document the
    replacement in the parameter description.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "an enum lost a value"

from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ParameterBecameRequired(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a parameter that was optional is listed in `required` in the new
    input schema.

    ## Why is this bad?
    Calls that omitted it were valid and are now rejected; the model, forced to fill it, may guess.

    ## Example
    `"required": ["owner", "repo", "branch"]` where `branch` was optional before.

    ## Use instead
    Keep it optional with a `default` the server applies.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "optional -> required"

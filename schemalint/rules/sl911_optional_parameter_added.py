from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class OptionalParameterAdded(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a new parameter that is not required appeared (at any level).

    ## Why is this bad?
    It is not breaking: every old call is still valid. It is reported so the change is visible in
    review; the model now sees one more parameter and may start filling it.

    ## Example
    A new optional `per_page` parameter.

    ## Use instead
    Nothing to change; give it a description and, if it matters, a `default`.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.INFO
    summary = "safe"

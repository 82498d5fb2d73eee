from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ParameterRemoved(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a parameter (at any level) exists in the old input schema and not
    in the new one. The finding points at the parameter in the old file, and the message says what
    happens to callers that still send it: rejected when the new object has
    `additionalProperties: false` (`data.rejected` is true), silently ignored otherwise.

    ## Why is this bad?
    Both outcomes break callers. A rejected call fails loudly; an ignored value fails quietly: the
    caller believes a filter, limit or flag was applied and it was not.

    ## Example
    The old schema had `properties.labels`; the new one does not.

    ## Use instead
    Keep accepting it for a release (document it as deprecated), or remove it in an announced
    breaking release.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "a parameter was removed"

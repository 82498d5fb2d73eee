from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class DescriptionChanged(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: the description of a tool or of a parameter (at any level) was
    added, removed or changed. Whitespace-only reformatting of the file is not a change; a change in
    the text itself is. `data` carries `old` and `new`.

    ## Why is this bad?
    Descriptions are the prompt. A changed description shifts which tool the model picks and how it
    fills the arguments, without any schema change a validator would notice: accuracy can move
    either way.

    ## Example
    "Search issues." becomes "Search issues and pull requests."

    ## Use instead
    Nothing is wrong with improving a description: re-run the tool-selection evals and commit the
    change together with their results.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "behaviour change: tool choice shifts, re-run the evals"

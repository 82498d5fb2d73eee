from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ToolAdded(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a tool exists in the new version and not in the old one (and is
    not a rename, SL902). When it was inserted before tools that were already in the file, the
    message says so (`data.before_existing`): the prompt prefix changes and the cache misses.

    ## Why is this bad?
    It is not breaking. It is reported so reviewers see it: one more tool costs tokens on every
    request and can take calls away from existing tools; re-run the tool-selection evals.

    ## Example
    A new `create_gist` tool.

    ## Use instead
    Nothing to change; append it at the end of the list to keep the prompt cache (SL912).

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.INFO
    summary = "new tool"

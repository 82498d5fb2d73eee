from schemalint.model import Severity
from schemalint.rules.base import ChangeRule


class ToolRenamed(ChangeRule):
    """
    ## What it does
    Reported by `schemalint diff`: a tool disappeared and a tool with another name but a
    near-identical schema appeared (at least 85% of the schema's facts, descriptions left out, are
    equal; schemas with fewer than four facts also need similar descriptions). It is reported once
    as a rename, at the new name, instead of a removal plus an addition; the pair is then compared
    like any other, so schema changes that came with the rename are reported too.
    `data` carries `old`, `new` and `similarity`.

    ## Why is this bad?
    Calls use the name. Every caller, saved conversation, eval and prompt that names the old tool
    breaks, although the tool itself still exists.

    ## Example
    `search_issues` becomes `find_issues` with the same parameters.

    ## Use instead
    Keep the old name as a deprecated alias for a release, or accept the break and announce it.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "a tool was renamed (detected by matching schemas)"

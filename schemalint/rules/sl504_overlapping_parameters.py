from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule, rule_options


@rule_options
class Options:
    min_parameter_overlap: float = 0.8
    """Jaccard overlap of the two tools' parameter names (0..1) from which they count as the same."""
    min_name_similarity: float = 0.5
    """Overlap of the names' object words (verbs set aside) from which the names count as similar."""
    min_parameters: int = 2
    """Tools with fewer parameters are not compared (a lone `id` says nothing)."""


class OverlappingParameters(ToolSetRule):
    """
    ## What it does
    Flags two tools of a set that take (nearly) the same parameters and have similar names: the
    same object words once verbs are set aside (`get_user_profile(user_id, fields)` and
    `fetch_user_profile(user_id, fields)`). Parameter names are compared after normalising case
    and separators (`userId` = `user_id`). Names that say the jobs differ are left alone, as the
    same parameters are expected there: other or opposite actions on the same object
    (`create_invoice` / `update_invoice`, `lock_door` / `unlock_door`), object words that each name
    lacks (`list_inbound_events` / `list_outbound_events`), or a part of the object
    (`get_ticket_comments` / `get_ticket`).

    ## Why is this bad?
    When two tools accept the same arguments and their names point at the same thing, nothing in
    the call tells the model which one to use; often one tool is a leftover or a thin variant of
    the other.

    ## Example
    ```json
    [{"name": "get_user_profile", "parameters": {"properties": {"user_id": {}, "fields": {}}}},
     {"name": "fetch_user_profile", "parameters": {"properties": {"userId": {}, "fields": {}}}}]
    ```

    ## Use instead
    Merge them into one tool, or separate them: distinct names and descriptions that say when to
    use each, and parameters that reflect the difference.

    ## Trade-off
    Purely lexical and fast (candidate pairs by rare shared parameter names), so 10k tools are fine;
    SL502 covers tools that mean the same with different words (`get_user_login` /
    `get_user_signin` differ by a word here, so they are not flagged).

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.INFO
    summary = "two tools take nearly the same parameters and have similar names: merge or separate"
    Options = Options

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        from schemalint.similarity.overlap import overlapping_parameter_pairs

        options = self.options
        pairs = overlapping_parameter_pairs(
            [(t.name, t.description, t.parameters) for t in toolset.tools],
            min_overlap=options.min_parameter_overlap,
            min_name_similarity=options.min_name_similarity,
            min_parameters=options.min_parameters,
        )
        for pair in pairs:
            earlier, later = toolset.tools[pair.first], toolset.tools[pair.second]
            shared = ", ".join(pair.shared)
            yield Finding(
                f"`{later.display_name}` takes the same parameters as `{earlier.display_name}` ({shared}) and has a "
                "similar name: merge the two tools, or separate them with names and descriptions that say when "
                "to use each",
                later.name_pointer or later.pointer,
                data={
                    "sibling": earlier.display_name,
                    "sibling_pointer": earlier.pointer,
                    "parameter_overlap": round(pair.parameter_overlap, 4),
                    "name_similarity": round(pair.name_similarity, 4),
                    "shared_parameters": list(pair.shared),
                    "path": later.path,
                },
            )

from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import EvalFixture, Severity
from schemalint.rules.base import FixtureRule, LintContext
from schemalint.rules.sl205_undocumented_side_effects import Options, WritingVerbs


class EvalMissingConfirmationCase(WritingVerbs, FixtureRule):
    """
    ## What it does
    Flags a writing tool of an eval fixture's set (its name's action verb is one of SL205's writing
    verbs: `create`, `delete`, `send`, `refund`, ...) for which no case expects the call with
    `requiresConfirmation: true` (also `requires_confirmation`). A hand-off to a person
    (`transfer_to_human_agents`) is not such a write.

    ## Why is this bad?
    A write the model makes on its own (a refund, a deletion, a message sent) is the costly kind of
    mistake. A case that expects the model to stop and confirm first is how an eval notices when a
    prompt or description change makes it skip that step.

    ## Example
    ```json
    {"tools": ["refund_order"], "cases": [{"input": "Refund A1024", "expect": {"tool": "refund_order"}}]}
    ```

    ## Use instead
    ```json
    {"tools": ["refund_order"], "cases": [{"input": "Refund A1024", "expect": {"tool": "refund_order", "requiresConfirmation": true}}]}
    ```

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.INFO
    summary = "a writing tool of an eval fixture's set has no case that expects a confirmation"
    Options = Options

    def check(self, fixture: EvalFixture, context: LintContext) -> Iterable[Finding]:
        confirmed = {case.tool for case in fixture.cases if case.requires_confirmation}
        for name, pointer in fixture.tool_names():
            verb = self.writing_verb(name)
            if verb is not None and name not in confirmed:
                yield Finding(
                    f"`{name}` writes (`{verb}`) but no case expects it with `requiresConfirmation: true`; add one "
                    "so the eval notices when the model stops asking first",
                    pointer,
                    key=pointer == fixture.cases_pointer,
                    data={"tool": name},
                )

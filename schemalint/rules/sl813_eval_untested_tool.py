from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import EvalFixture, Severity
from schemalint.rules.base import FixtureRule, LintContext


class EvalUntestedTool(FixtureRule):
    """
    ## What it does
    Flags a tool of an eval fixture's set that no case expects: a name in the fixture's `tools`
    list, or, for a fixture without one, a tool of the definitions it is linked to (see SL811).
    The finding sits on the name in the `tools` list, or on `cases`.

    ## Why is this bad?
    The eval cannot say whether the model picks this tool when it should, and the averages hide
    it: a rarely used, high-risk tool can be chosen right 60% of the time while the set scores 95%.
    A new tool added to the set without a case is where selection regressions slip through.

    ## Example
    ```json
    {"tools": ["get_order", "refund_order"], "cases": [{"input": "Where is A1024?", "expect": {"tool": "get_order"}}]}
    ```

    ## Use instead
    ```json
    {"tools": ["get_order", "refund_order"], "cases": [{"input": "Where is A1024?", "expect": {"tool": "get_order"}}, {"input": "Refund A1024", "expect": {"tool": "refund_order", "requiresConfirmation": true}}]}
    ```

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a tool of an eval fixture's set is expected by no case"

    def check(self, fixture: EvalFixture, context: LintContext) -> Iterable[Finding]:
        expected = {case.tool for case in fixture.cases}
        for name, pointer in fixture.tool_names():
            if name not in expected:
                yield Finding(
                    f"no case expects `{name}`: add a case where it is the right call, so the eval sees it chosen "
                    "(or missed)",
                    pointer,
                    key=pointer == fixture.cases_pointer,
                    data={"tool": name},
                )

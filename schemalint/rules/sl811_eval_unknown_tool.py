from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import EvalFixture, Severity
from schemalint.rules.base import FixtureRule, LintContext


class EvalUnknownTool(FixtureRule):
    """
    ## What it does
    Flags an eval fixture case that expects a call to a tool the tool set does not have, and a name
    in the fixture's `tools` list that no linked definition has. The set is the fixture's own
    `tools` list when it has one, and the definitions it is linked to: by config
    (`fixtures = {"evals/orders.json" = "tools/orders.json"}`), or else the tool set of the run that
    holds the most of its tools.

    ## Why is this bad?
    The case can never pass: the model cannot call a tool it is not sent. It is what a rename leaves
    behind (`get_order` became `get_order_status`, the fixture was not updated), and the eval then
    reports a selection failure where the tool set is right and the fixture is stale.

    ## Example
    ```json
    {"name": "orders", "tools": ["get_order", "refund_order"], "cases": [{"input": "Where is A1024?", "expect": {"tool": "lookup_order", "args": {"order_id": "A1024"}}}]}
    ```

    ## Use instead
    ```json
    {"name": "orders", "tools": ["get_order", "refund_order"], "cases": [{"input": "Where is A1024?", "expect": {"tool": "get_order", "args": {"order_id": "A1024"}}}]}
    ```

    ## Trade-off
    A fixture without a link (config, or a tool set of the run that has one of its tools) is checked
    against its own `tools` list only, and its expected arguments (SL812) not at all: what happens
    when pre-commit or an editor passes the fixture alone. The rule then says so once, as an info
    (not an error) at the fixture's cases, naming the `fixtures` entry to add to the configuration.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "an eval case expects a tool the tool set does not have"

    def check(self, fixture: EvalFixture, context: LintContext) -> Iterable[Finding]:
        if fixture.tools is None:
            yield Finding(
                f"no tool definitions are linked to the fixture {fixture.path}, so its expected arguments are not "
                f'checked (SL812): link them in the config, `fixtures = {{"{fixture.path}" = "<tool file>"}}`',
                fixture.cases_pointer,
                key=True,
                severity=Severity.INFO,
            )
        defined = {tool.name for tool in fixture.tools} if fixture.tools is not None else None
        listed = {name for name, _ in fixture.listed} if fixture.listed is not None else None
        if defined is not None and fixture.listed is not None:
            for name, pointer in fixture.listed:
                if name not in defined:
                    yield Finding(f"the fixture lists `{name}`, which the linked tool definitions do not have", pointer)
        for case in fixture.cases:
            if case.tool is None or case.tool_pointer is None:
                continue
            if listed is not None and case.tool not in listed:
                where = "the fixture's `tools` list"
            elif listed is None and defined is not None and case.tool not in defined:
                where = "the linked tool definitions"
            else:
                continue
            yield Finding(
                f"the case expects `{case.tool}`, which is not in {where}: the model cannot call it",
                case.tool_pointer,
                data={"tool": case.tool},
            )

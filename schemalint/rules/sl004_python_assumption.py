from __future__ import annotations

from schemalint.model import Severity
from schemalint.rules.base import EngineRule


class PythonAssumption(EngineRule):
    """
    ## What it does
    Reports, once per tool extracted from Python source, what schemalint could not know without
    running the code and what it assumed instead: a parameter type imported from another module
    (assumed to accept any value), a name or description computed at run time, a default built by
    a call, `*args` / `**kwargs`, a function passed through a run-time wrapper
    (`find_tool = make_partial_function(find, ...)`), an f-string in a literal tool definition.

    schemalint never imports or runs the code it lints: it reads the decorators (`@mcp.tool`,
    `@tool`, `@function_tool`, `@agent.tool`, ...) with libcst and builds the JSON Schema the
    framework would build. Where a fact is missing, it says so here instead of guessing silently.

    ## Why is this bad?
    It is not a defect of the tool: it tells you where the linted schema may differ from what the
    model really sees, so that a missing finding (or an extra one) can be judged. A type imported
    from another module, for example, is linted as "any value": constraints and descriptions inside
    it are not checked.

    ## Example
    ```python
    from myapp.models import OrderFilter

    @mcp.tool(description=settings.search_description)
    def search_orders(filter: OrderFilter, **options) -> list[str]:
        ...
    ```

    ## Use instead
    Define the parameter types in the same file (or accept the assumption), write descriptions as
    literals or docstrings, and spell out the parameters instead of `**kwargs`. To check the exact
    runtime schema, export it (`schemalint mcp -- CMD` for a live MCP server) and lint the JSON.

    ## Options
    None.

    ## Trade-off
    One finding per tool lists every assumption, so a file with many tools that share an imported
    type reports it once per tool, not once per parameter. Disable the rule (`ignore = ["SL004"]`)
    when the assumptions are known and accepted.

    ## Fix safety
    No fix: the information is not in the file.
    """

    severity = Severity.INFO
    summary = "a tool extracted from Python relies on something only known at run time; what was assumed"

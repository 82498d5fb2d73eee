from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, Tool, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule


class DuplicateToolName(ToolSetRule):
    """
    ## What it does
    Flags a tool whose name is already used by another tool in the same tool set (one file, or the
    files a `toolsets` entry groups).

    ## Why is this bad?
    Providers reject a request with two tools of the same name, and where they do not, the model
    cannot say which one it calls: the second definition shadows the first.

    ## Example
    ```json
    [{"name": "get_order", "parameters": {"type": "object"}},
     {"name": "get_order", "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}}]
    ```

    ## Use instead
    Give each tool its own name (`get_order`, `get_order_history`) or merge them.
    ```json
    [{"name": "get_order", "parameters": {"type": "object"}},
     {"name": "get_order_history", "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}}]
    ```

    ## Trade-off
    Names are compared exactly, as providers do; `getOrder` and `get_order` are different names
    (SL105 reports the mixed style).

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "two tools in one set share a name"

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        first: dict[str, Tool] = {}
        for tool in toolset.tools:
            if tool.name is None:
                continue
            if tool.name not in first:
                first[tool.name] = tool
                continue
            original = first[tool.name]
            yield Finding(
                f"tool name `{tool.name}` is already used by the tool at {original.path}#{original.pointer}",
                tool.name_pointer or tool.pointer,
                data={"path": tool.path, "first_path": original.path, "first_pointer": original.pointer},
            )

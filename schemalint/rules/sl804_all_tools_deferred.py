from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Request, Severity, join_pointer
from schemalint.rules.base import LintContext, RequestRule


class AllToolsDeferred(RequestRule):
    """
    ## What it does
    Flags a request body in which every entry of `tools` is marked `defer_loading: true`, and a
    tool-search tool that is itself deferred.

    ## Why is this bad?
    Deferred tools are not in the model's initial context: the model reaches them only through a
    tool it can already see, normally the search tool. With everything deferred it has no entry
    point, and Anthropic refuses the request ("All tools have defer_loading set..."); its tool
    search documentation also says the search tool itself must never be deferred
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool).

    ## Example
    ```json
    {"model": "claude-sonnet-4-5", "messages": [], "tools": [{"type": "tool_search_tool_regex_20251119", "name": "tool_search", "defer_loading": true}, {"name": "search_files", "input_schema": {"type": "object"}, "defer_loading": true}]}
    ```

    ## Use instead
    ```json
    {"model": "claude-sonnet-4-5", "messages": [], "tools": [{"type": "tool_search_tool_regex_20251119", "name": "tool_search"}, {"name": "search_files", "input_schema": {"type": "object"}, "defer_loading": true}]}
    ```

    ## Trade-off
    `deferLoading` (the Responses API reference's spelling) is read as `defer_loading`.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.ERROR
    summary = "every tool of a request is deferred, or its tool-search tool is: the model has no entry point"

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        deferred = set(request.deferred)
        if request.entries and deferred.issuperset(request.entries):
            yield Finding(
                f"all {len(request.entries)} tools of this request are deferred (`defer_loading: true`), so the model "
                "sees none of them; keep at least the tool-search tool loaded",
                request.tools_pointer,
                key=True,
            )
            return
        for pointer in request.search_tools:
            if pointer in deferred:
                yield Finding(
                    "the tool-search tool is deferred, so nothing can load the other deferred tools; "
                    "remove its `defer_loading`",
                    join_pointer(pointer, "defer_loading"),
                    key=True,
                )

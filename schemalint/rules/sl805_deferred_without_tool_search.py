from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Dialect, Request, Severity, join_pointer
from schemalint.rules.base import LintContext, RequestRule


class DeferredWithoutToolSearch(RequestRule):
    """
    ## What it does
    Flags a request body that marks tools `defer_loading: true` but sends no tool-search tool
    that is loaded: Anthropic's `tool_search_tool_regex_*` / `tool_search_tool_bm25_*` server
    tools, OpenAI Responses' `{"type": "tool_search"}`, or a client-side function whose name says
    it finds tools (`search_tools`, `tool_search`, `find_tools`). An Anthropic `mcp_toolset` whose
    `default_config` defers all its tools counts as deferred. The finding sits on the first
    deferred tool.

    ## Why is this bad?
    A deferred definition stays out of the model's context until a search loads it. Without a
    search tool it is never loaded: the tool is sent, and can never be called. Anthropic documents
    search as the way deferred tools are found
    (https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool); OpenAI's tool search
    guide (https://developers.openai.com/api/docs/guides/tools-tool-search) says both are needed, `tool_search` in `tools` and `defer_loading: true` on the
    functions (or on an MCP server entry), and recommends grouping deferred functions in
    namespaces, which the model searches best.

    ## Example
    ```json
    {"model": "gpt-5.4", "input": "", "tools": [{"type": "function", "name": "get_order", "parameters": {"type": "object"}}, {"type": "function", "name": "refund_order", "parameters": {"type": "object"}, "defer_loading": true}]}
    ```

    ## Use instead
    ```json
    {"model": "gpt-5.4", "input": "", "tools": [{"type": "function", "name": "get_order", "parameters": {"type": "object"}}, {"type": "tool_search"}, {"type": "namespace", "name": "billing", "description": "Refunds and invoices.", "tools": [{"type": "function", "name": "refund_order", "parameters": {"type": "object"}, "defer_loading": true}]}]}
    ```

    ## Trade-off
    A request whose every tool is deferred is SL804's finding, not this one. The OpenAI facts
    (`tool_search`, namespaces, `defer_loading` on functions and MCP servers) come from OpenAI's
    tool search guide above; the Responses API reference (https://developers.openai.com/api/reference/)
    spells the field `deferLoading`, read here too.

    ## Fix safety
    No automatic fix.
    """

    severity = Severity.WARNING
    summary = "a request defers tools but sends no tool-search tool to load them"

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        deferred = set(request.deferred)
        if not deferred or deferred.issuperset(request.entries):
            return
        if any(pointer not in deferred for pointer in request.search_tools):
            return
        search = (
            'a `{"type": "tool_search"}` tool (and group the deferred functions in namespaces)'
            if request.api is Dialect.OPENAI_RESPONSES
            else "a tool-search tool (`tool_search_tool_regex_20251119` or `tool_search_tool_bm25_20251119`)"
            if request.api is Dialect.ANTHROPIC
            else "a tool-search tool"
        )
        yield Finding(
            f"{len(deferred)} tool(s) of this request are deferred (`defer_loading: true`) but nothing can load them; "
            f"add {search}",
            join_pointer(request.deferred[0], "defer_loading"),
            key=True,
            data={"deferred": len(deferred)},
        )

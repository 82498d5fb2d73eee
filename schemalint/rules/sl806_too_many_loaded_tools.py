from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Dialect, Request, Severity
from schemalint.rules.base import LintContext, RequestRule, rule_options

#: the APIs whose requests can defer tool definitions behind a search
_DEFERRING_APIS = frozenset({Dialect.ANTHROPIC, Dialect.OPENAI_RESPONSES})


@rule_options
class Options:
    max_loaded_tools: int = 30
    """How many tools a request may load up front (SL501's `max-tools` default)."""


class TooManyLoadedTools(RequestRule):
    """
    ## What it does
    Flags a request body to an API that can defer tool definitions (Anthropic Messages, OpenAI
    Responses) that loads more than `max-loaded-tools` function tools up front, that is, without
    `defer_loading: true`.

    ## Why is this bad?
    Selection gets worse past about 30 to 50 tools, and every loaded definition is paid for on
    every request. Where the API offers deferred loading, the rarely used tools can stay out of
    the context until a search finds them, with the frequent ones kept loaded.

    ## Example
    A Responses request with 45 function tools, none deferred.

    ## Use instead
    The same request with the 15 tools most turns need loaded, the other 30 marked
    `defer_loading: true` (grouped in namespaces), and a `{"type": "tool_search"}` tool.

    ## Trade-off
    Informational: SL501 already warns about the size of the set; this finding says that the API
    at hand has the remedy. Chat Completions and Gemini have no deferred loading and are not
    flagged.

    ## Fix safety
    No automatic fix: which tools to defer depends on how often they are used.
    """

    severity = Severity.INFO
    summary = "a request loads more than max-loaded-tools tools up front where the API can defer them"
    Options = Options

    def check(self, request: Request, context: LintContext) -> Iterable[Finding]:
        if request.api not in _DEFERRING_APIS:
            return
        deferred = set(request.deferred)
        loaded = [tool for tool in request.tools if tool.pointer not in deferred]
        limit = self.options.max_loaded_tools
        if len(loaded) <= limit:
            return
        yield Finding(
            f"this request loads {len(loaded)} tools up front (max-loaded-tools is {limit}); the API can defer "
            "tool definitions: mark the rarely used ones `defer_loading: true` and add a tool-search tool",
            request.tools_pointer,
            key=True,
            data={"loaded": len(loaded)},
        )

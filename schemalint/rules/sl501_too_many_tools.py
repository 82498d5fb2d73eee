from __future__ import annotations

from collections.abc import Iterable

from schemalint.diagnostics import Finding
from schemalint.model import Severity, ToolSet
from schemalint.rules.base import LintContext, ToolSetRule, rule_options


@rule_options
class Options:
    max_tools: int = 30
    """How many tools one set may expose to the model at once."""


class TooManyTools(ToolSetRule):
    """
    ## What it does
    Flags a tool set (one file, or a configured `toolsets` group) that exposes more than
    `max-tools` tools. The finding sits on the first tool past the limit.

    ## Why is this bad?
    Every tool is sent with every request. With dozens of tools the model chooses the wrong one
    more often, the definitions eat the context window (see SL503), and similar tools start to
    overlap (see SL502). Providers' hard limits (SL403) are far higher than where accuracy drops.

    ## Example
    An MCP server exposing 45 tools: `list_issues`, `get_issue`, `create_issue`, `update_issue`,
    `list_pulls`, `get_pull`, ... all in one list.

    ## Use instead
    - group related tools into one tool with an action parameter (`issues` with `action: list | get | create`);
    - split them into namespaces or servers that are loaded per task;
    - use deferred loading / tool search, so only the tools relevant to a request are sent.

    ## Trade-off
    Tools a request body defers (`defer_loading: true`) are not counted: they are not in the
    model's context until a search loads them (SL806 looks at the tools a request loads up front).
    30 is a rule of thumb from provider guidance, not a hard limit; raise it for sets whose tools
    are clearly distinct.

    ## Fix safety
    No automatic fix: regrouping tools changes the interface.
    """

    severity = Severity.WARNING
    summary = "a tool set exposes more than max-tools tools (default 30)"
    Options = Options

    def check(self, toolset: ToolSet, context: LintContext) -> Iterable[Finding]:
        limit = self.options.max_tools
        loaded = [tool for tool in toolset.tools if not tool.deferred]
        count = len(loaded)
        if count <= limit:
            return
        first_extra = loaded[limit]
        yield Finding(
            f"this tool set exposes {count} tools (max-tools is {limit}); models pick the wrong tool more often "
            "as the list grows: group related tools behind an action parameter, split them into namespaces or "
            "servers loaded per task, or use deferred loading / tool search",
            first_extra.pointer,
            data={
                "tools": count,
                "max_tools": limit,
                "first_extra_tool": first_extra.display_name,
                "path": first_extra.path,
            },
        )
